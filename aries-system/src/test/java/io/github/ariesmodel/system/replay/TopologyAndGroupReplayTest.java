package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import org.junit.jupiter.api.Test;

/**
 * Communicators a trace makes with a topology (MPI_Cart_create, MPI_Cart_sub, MPI_Graph_create) or from a group
 * (MPI_Comm_group, MPI_Group_incl/excl/union/intersection/difference, MPI_Comm_create) replay with the members and
 * rank order MPI gives them. Every rank's trace names its peers by their rank in the new communicator, and the
 * exchanges are one-sided (a rank that sends has no matching receive of its own), so a wrong membership or order
 * leaves a send unreceived or a receive waiting: the replay fails.
 */
class TopologyAndGroupReplayTest {

  private static final CallTiming T = CallTiming.NONE;
  private static final int WORLD = TraceCall.COMM_WORLD;
  private static final ImmutableIntArray NONE = ImmutableIntArray.of();

  private static PointToPoint send(int to, int tag, int comm) {
    return new PointToPoint(CallKind.SEND, to, tag, comm, 8, TraceCall.REQUEST_NULL, T);
  }

  private static PointToPoint recv(int from, int tag, int comm) {
    return new PointToPoint(CallKind.RECV, from, tag, comm, 8, TraceCall.REQUEST_NULL, T);
  }

  private static ReplayResult replay(List<List<TraceCall>> calls) {
    AriesSystem sys = AriesSystem.builder().system("default").seed(5).build();
    return TraceReplay.builder(sys, SyntheticTrace.of(calls)).compute(ComputeMode.SKIP).build().run();
  }

  /**
   * Seven ranks, a 2 x 3 grid over the first six (rank 6 is left out: COMM_NULL). World rank r sits at (r / 3, r % 3).
   * The rows (MPI_Cart_sub keeping dimension 1) are {0, 1, 2} and {3, 4, 5}: in each, row rank 0 sends to row rank 2.
   * The columns (keeping dimension 0) are {0, 3}, {1, 4}, {2, 5}: column rank 1 sends to column rank 0. A graph of 4
   * nodes holds world ranks 0 to 3: graph rank 3 sends to graph rank 1.
   */
  @Test
  void cartesianAndGraphCommunicatorsHoldTheRanksMpiGivesThem() {
    List<List<TraceCall>> all = new ArrayList<>();
    for (int r = 0; r < 7; r++) {
      List<TraceCall> c = new ArrayList<>();
      c.add(new Lifecycle(CallKind.INIT, T));
      boolean inGrid = r < 6;
      c.add(new Topology(CallKind.CART_CREATE, WORLD, inGrid ? 2 : TraceCall.COMM_NULL, ImmutableIntArray.of(2, 3), T));
      if (inGrid) {
        c.add(new Topology(CallKind.CART_SUB, 2, 3, ImmutableIntArray.of(0, 1), T)); // rows
        c.add(new Topology(CallKind.CART_SUB, 2, 4, ImmutableIntArray.of(1, 0), T)); // columns
        int rowRank = r % 3;
        int colRank = r / 3;
        if (rowRank == 0) {
          c.add(send(2, 1, 3));
        } else if (rowRank == 2) {
          c.add(recv(0, 1, 3));
        }
        if (colRank == 1) {
          c.add(send(0, 2, 4));
        } else {
          c.add(recv(1, 2, 4));
        }
      }
      c.add(new Topology(CallKind.GRAPH_CREATE, WORLD, r < 4 ? 5 : TraceCall.COMM_NULL, ImmutableIntArray.of(4), T));
      if (r == 3) {
        c.add(send(1, 3, 5));
      } else if (r == 1) {
        c.add(recv(3, 3, 5));
      }
      c.add(new Lifecycle(CallKind.FINALIZE, T));
      all.add(c);
    }
    ReplayResult res = replay(all);
    assertThat(res.messages()).isEqualTo(2 + 3 + 1);
    assertThat(res.calls()).containsEntry(CallKind.CART_CREATE, 7L).containsEntry(CallKind.CART_SUB, 12L)
        .containsEntry(CallKind.GRAPH_CREATE, 7L);
  }

  /**
   * Groups of the world's seven ranks: g3 = world, g4 = incl(g3, [4, 1]) = (4, 1), g5 = excl(g3, [0]) = (1 ... 6),
   * g6 = union(g4, g5) = (4, 1, 2, 3, 5, 6), g7 = intersection(g5, g4) = (1, 4) (the first group's order),
   * g8 = difference(g5, g4) = (2, 3, 5, 6). Communicators: 5 from g4 (world 4 is its rank 0), 6 from g6, 7 from g7
   * (world 1 is its rank 0), 8 from g8. Each carries one message whose ends only that order gives.
   */
  @Test
  void communicatorsFromGroupsHoldTheMembersInTheGroupsOrder() {
    int[][] members = {{4, 1}, {4, 1, 2, 3, 5, 6}, {1, 4}, {2, 3, 5, 6}};
    int[] comm = {5, 6, 7, 8};
    int[] group = {4, 6, 7, 8};
    // in each communicator, its rank `from` sends to its rank `to`
    int[][] fromTo = {{0, 1}, {0, 5}, {0, 1}, {3, 1}};
    List<List<TraceCall>> all = new ArrayList<>();
    for (int r = 0; r < 7; r++) {
      List<TraceCall> c = new ArrayList<>();
      c.add(new Lifecycle(CallKind.INIT, T));
      c.add(new GroupCall(CallKind.COMM_GROUP, WORLD, TraceCall.GROUP_NULL, TraceCall.GROUP_NULL, NONE, 3, T));
      c.add(new GroupCall(CallKind.GROUP_INCL, TraceCall.COMM_NULL, 3, TraceCall.GROUP_NULL,
          ImmutableIntArray.of(4, 1), 4, T));
      c.add(new GroupCall(CallKind.GROUP_EXCL, TraceCall.COMM_NULL, 3, TraceCall.GROUP_NULL, ImmutableIntArray.of(0),
          5, T));
      c.add(new GroupCall(CallKind.GROUP_UNION, TraceCall.COMM_NULL, 4, 5, NONE, 6, T));
      c.add(new GroupCall(CallKind.GROUP_INTERSECTION, TraceCall.COMM_NULL, 5, 4, NONE, 7, T));
      c.add(new GroupCall(CallKind.GROUP_DIFFERENCE, TraceCall.COMM_NULL, 5, 4, NONE, 8, T));
      for (int k = 0; k < comm.length; k++) {
        int place = indexOf(members[k], r);
        c.add(new GroupCall(CallKind.COMM_CREATE, WORLD, group[k], TraceCall.GROUP_NULL, NONE,
            place < 0 ? TraceCall.COMM_NULL : comm[k], T));
        if (place == fromTo[k][0]) {
          c.add(send(fromTo[k][1], 10 + k, comm[k]));
        } else if (place == fromTo[k][1]) {
          c.add(recv(fromTo[k][0], 10 + k, comm[k]));
        }
      }
      c.add(new GroupCall(CallKind.GROUP_FREE, TraceCall.COMM_NULL, 8, TraceCall.GROUP_NULL, NONE,
          TraceCall.GROUP_NULL, T));
      c.add(new Lifecycle(CallKind.FINALIZE, T));
      all.add(c);
    }
    ReplayResult res = replay(all);
    assertThat(res.messages()).isEqualTo(4);
    assertThat(res.calls()).containsEntry(CallKind.COMM_CREATE, 28L).containsEntry(CallKind.GROUP_FREE, 7L);
  }

  private static int indexOf(int[] a, int v) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] == v) {
        return i;
      }
    }
    return -1;
  }

  @Test
  void unknownGroupsAndGridsAreOneClearError() {
    List<TraceCall> badGroup = List.of(new Lifecycle(CallKind.INIT, T),
        new GroupCall(CallKind.COMM_CREATE, WORLD, 9, TraceCall.GROUP_NULL, NONE, 4, T));
    assertThatThrownBy(() -> replay(List.of(badGroup, badGroup))).isInstanceOf(TraceReplayException.class)
        .hasMessageContaining("group 9 is not one the trace made (or it was freed)");
    List<TraceCall> noGrid = List.of(new Lifecycle(CallKind.INIT, T),
        new Topology(CallKind.CART_SUB, WORLD, 4, ImmutableIntArray.of(1), T));
    assertThatThrownBy(() -> replay(List.of(noGrid, noGrid))).isInstanceOf(TraceReplayException.class)
        .hasMessageContaining("communicator 0 has no Cartesian topology");
    List<TraceCall> tooBig = List.of(new Lifecycle(CallKind.INIT, T),
        new Topology(CallKind.CART_CREATE, WORLD, 2, ImmutableIntArray.of(2, 2), T));
    assertThatThrownBy(() -> replay(List.of(tooBig, tooBig))).isInstanceOf(TraceReplayException.class)
        .hasMessageContaining("the topology's [2, 2] holds more processes than the communicator's 2");
    List<TraceCall> outside = List.of(new Lifecycle(CallKind.INIT, T),
        new GroupCall(CallKind.COMM_GROUP, WORLD, TraceCall.GROUP_NULL, TraceCall.GROUP_NULL, NONE, 3, T),
        new GroupCall(CallKind.GROUP_INCL, TraceCall.COMM_NULL, 3, TraceCall.GROUP_NULL, ImmutableIntArray.of(5), 4,
            T));
    assertThatThrownBy(() -> replay(List.of(outside, outside))).isInstanceOf(TraceReplayException.class)
        .hasMessageContaining("rank 5 is outside group 3 of 2 members");
  }
}
