package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import com.google.common.primitives.ImmutableIntArray;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceCall.GroupCall;
import io.github.ariesmodel.traces.TraceCall.Lifecycle;
import io.github.ariesmodel.traces.TraceCall.PointToPoint;
import io.github.ariesmodel.traces.TraceCall.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Random grids, sub-grids and groups: the communicators a trace makes replay with the members and order computed here
 * by brute force from MPI's definitions. Each rank's trace is written from that expectation (in every new
 * communicator its rank 0 sends to each other member, which receives from rank 0), so a replay whose communicators
 * differ leaves sends unreceived or receives waiting, and fails.
 */
class TopologyAndGroupReplayProperties {

  private static final CallTiming T = CallTiming.NONE;
  private static final ImmutableIntArray NONE = ImmutableIntArray.of();

  /** Appends, for a rank at {@code place} of a communicator of {@code size} members, the fan-out from its rank 0. */
  private static void fanOut(List<TraceCall> c, int comm, int place, int size, int tag) {
    for (int k = 1; k < size; k++) {
      if (place == 0) {
        c.add(new PointToPoint(CallKind.SEND, k, tag, comm, 16, TraceCall.REQUEST_NULL, T));
      } else if (place == k) {
        c.add(new PointToPoint(CallKind.RECV, 0, tag, comm, 16, TraceCall.REQUEST_NULL, T));
      }
    }
  }

  private static ReplayResult replay(List<List<TraceCall>> calls) {
    AriesSystem sys = AriesSystem.builder().system("default").seed(2).build();
    return TraceReplay.builder(sys, SyntheticTrace.of(calls)).compute(ComputeMode.SKIP).build().run();
  }

  @Test
  void subGridsHoldTheRanksMpiDefines() {
    qt().withExamples(8).forAll(longs().all()).checkAssert(seed -> {
      SplittableRandom rnd = new SplittableRandom(seed);
      int ndims = 1 + rnd.nextInt(3);
      int[] dims = new int[ndims];
      int cells = 1;
      for (int i = 0; i < ndims; i++) {
        dims[i] = 1 + rnd.nextInt(3);
        cells *= dims[i];
      }
      int n = cells + rnd.nextInt(3); // some ranks left out of the grid
      int[] keep = new int[ndims];
      for (int i = 0; i < ndims; i++) {
        keep[i] = rnd.nextInt(2);
      }
      long expected = 0;
      List<List<TraceCall>> all = new ArrayList<>();
      for (int r = 0; r < n; r++) {
        List<TraceCall> c = new ArrayList<>();
        c.add(new Lifecycle(CallKind.INIT, T));
        boolean in = r < cells;
        c.add(new Topology(CallKind.CART_CREATE, TraceCall.COMM_WORLD, in ? 2 : TraceCall.COMM_NULL,
            ImmutableIntArray.copyOf(dims), T));
        if (in) {
          c.add(new Topology(CallKind.CART_SUB, 2, 3, ImmutableIntArray.copyOf(keep), T));
          // brute force: the members of r's sub-grid are the cells that agree with r on every dropped dimension, in
          // row-major order of the cells
          List<Integer> members = new ArrayList<>();
          int[] mine = coords(r, dims);
          for (int q = 0; q < cells; q++) {
            int[] other = coords(q, dims);
            boolean same = true;
            for (int i = 0; i < ndims; i++) {
              same &= keep[i] == 1 || other[i] == mine[i];
            }
            if (same) {
              members.add(q);
            }
          }
          fanOut(c, 3, members.indexOf(r), members.size(), 1);
          if (members.indexOf(r) > 0) {
            expected++;
          }
        }
        c.add(new Lifecycle(CallKind.FINALIZE, T));
        all.add(c);
      }
      assertThat(replay(all).messages()).isEqualTo(expected);
    });
  }

  private static int[] coords(int rank, int[] dims) {
    int[] c = new int[dims.length];
    for (int i = dims.length - 1, r = rank; i >= 0; i--) {
      c[i] = r % dims[i];
      r /= dims[i];
    }
    return c;
  }

  @Test
  void groupCommunicatorsHoldTheMembersInTheGroupsOrder() {
    qt().withExamples(8).forAll(longs().all()).checkAssert(seed -> {
      SplittableRandom rnd = new SplittableRandom(seed);
      int n = 2 + rnd.nextInt(6);
      // g4: a random selection of world ranks in random order; g5: world minus a random set; g6 = g4 union g5,
      // g7 = g5 intersection g4, g8 = g5 difference g4 (MPI's orders, computed here)
      List<Integer> world = new ArrayList<>();
      for (int r = 0; r < n; r++) {
        world.add(r);
      }
      List<Integer> g4 = new ArrayList<>(world);
      java.util.Collections.shuffle(g4, new java.util.Random(rnd.nextLong()));
      g4 = new ArrayList<>(g4.subList(0, 1 + rnd.nextInt(n)));
      List<Integer> excluded = new ArrayList<>();
      for (int r = 0; r < n; r++) {
        if (rnd.nextInt(3) == 0) {
          excluded.add(r);
        }
      }
      List<Integer> g5 = new ArrayList<>(world);
      g5.removeAll(excluded);
      List<Integer> g6 = new ArrayList<>(g4);
      for (int x : g5) {
        if (!g6.contains(x)) {
          g6.add(x);
        }
      }
      List<Integer> g7 = new ArrayList<>();
      List<Integer> g8 = new ArrayList<>();
      for (int x : g5) {
        (g4.contains(x) ? g7 : g8).add(x);
      }
      List<List<Integer>> groups = List.of(g4, g6, g7, g8);
      long expected = 0;
      List<List<TraceCall>> all = new ArrayList<>();
      for (int r = 0; r < n; r++) {
        List<TraceCall> c = new ArrayList<>();
        c.add(new Lifecycle(CallKind.INIT, T));
        c.add(new GroupCall(CallKind.COMM_GROUP, TraceCall.COMM_WORLD, TraceCall.GROUP_NULL, TraceCall.GROUP_NULL,
            NONE, 3, T));
        c.add(new GroupCall(CallKind.GROUP_INCL, TraceCall.COMM_NULL, 3, TraceCall.GROUP_NULL,
            ImmutableIntArray.copyOf(g4), 4, T));
        c.add(new GroupCall(CallKind.GROUP_EXCL, TraceCall.COMM_NULL, 3, TraceCall.GROUP_NULL,
            ImmutableIntArray.copyOf(excluded), 5, T));
        c.add(new GroupCall(CallKind.GROUP_UNION, TraceCall.COMM_NULL, 4, 5, NONE, 6, T));
        c.add(new GroupCall(CallKind.GROUP_INTERSECTION, TraceCall.COMM_NULL, 5, 4, NONE, 7, T));
        c.add(new GroupCall(CallKind.GROUP_DIFFERENCE, TraceCall.COMM_NULL, 5, 4, NONE, 8, T));
        for (int k = 0; k < groups.size(); k++) {
          List<Integer> g = groups.get(k);
          int place = g.indexOf(r);
          int comm = 10 + k;
          c.add(new GroupCall(CallKind.COMM_CREATE, TraceCall.COMM_WORLD, new int[] {4, 6, 7, 8}[k],
              TraceCall.GROUP_NULL, NONE, place < 0 ? TraceCall.COMM_NULL : comm, T));
          if (place >= 0) {
            fanOut(c, comm, place, g.size(), 20 + k);
            if (place > 0) {
              expected++;
            }
          }
        }
        c.add(new Lifecycle(CallKind.FINALIZE, T));
        all.add(c);
      }
      assertThat(replay(all).messages()).isEqualTo(expected);
    });
  }
}
