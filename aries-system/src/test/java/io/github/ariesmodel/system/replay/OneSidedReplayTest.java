package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.primitives.ImmutableIntArray;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.mpi.Mpi;
import io.github.ariesmodel.system.mpi.MpiJob;
import io.github.ariesmodel.system.mpi.ReduceOp;
import io.github.ariesmodel.system.mpi.Window;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceCall.GroupCall;
import io.github.ariesmodel.traces.TraceCall.Lifecycle;
import io.github.ariesmodel.traces.TraceCall.Local;
import io.github.ariesmodel.traces.TraceCall.OneSided;
import io.github.ariesmodel.traces.TraceCall.WindowCall;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A trace's one-sided calls (DUMPI's MPI_Win_create, _fence, _lock, _unlock, _post, _start, _complete, _wait, _test,
 * _get_group, _free, MPI_Put, MPI_Get, MPI_Accumulate) replay as the MPI layer's: a replay of a program ends at the very
 * picosecond the same program written against the layer does; a lock's target that computes holds its origin up; what
 * the trace got wrong is one line naming the call.
 */
class OneSidedReplayTest {

  private static final CallTiming T = CallTiming.NONE;
  private static final int WORLD = TraceCall.COMM_WORLD;
  private static final int WIN = 7;
  private static final int WINDOW_BYTES = 1 << 16;

  private static WindowCall create() {
    return new WindowCall(CallKind.WIN_CREATE, WIN, WORLD, WINDOW_BYTES, 8, TraceCall.GROUP_NULL, -1, false, 0, false,
        T);
  }

  private static WindowCall sync(CallKind kind, int target, boolean exclusive, int assertion, int group,
      boolean completed) {
    return new WindowCall(kind, WIN, TraceCall.COMM_NULL, 0, 1, group, target, exclusive, assertion, completed, T);
  }

  private static WindowCall sync(CallKind kind) {
    return sync(kind, -1, false, 0, TraceCall.GROUP_NULL, false);
  }

  private static OneSided op(CallKind kind, int target, long disp, long bytes) {
    return new OneSided(kind, WIN, target, disp, bytes, bytes, T);
  }

  private static AriesSystem system() {
    return AriesSystem.builder().system("default").seed(11).build();
  }

  private static ReplayResult replay(List<List<TraceCall>> calls, ComputeMode mode) {
    return TraceReplay.builder(system(), SyntheticTrace.of(calls)).compute(mode).build().run();
  }

  /** One epoch of each kind, as a trace and as the same program on the MPI layer. */
  private record Step(TraceCall call, Consumer<Ctx> direct) {}

  /** What a direct program's step needs: its handle and window. */
  private static final class Ctx {
    Mpi mpi;
    Window w;
  }

  private static List<Step> program(int me, int n, SplittableRandom rnd) {
    List<Step> s = new ArrayList<>();
    int next = (me + 1) % n;
    int prev = (me + n - 1) % n;
    int[] sizes = {8, 1000, 8192, 20_000};
    s.add(new Step(create(), c -> c.w = c.mpi.winCreate(new byte[WINDOW_BYTES], 8, c.mpi.world())));
    // fence epoch: a put to the next rank, a get from the previous, an accumulate to rank 0
    int put = sizes[rnd.nextInt(sizes.length)];
    int get = sizes[rnd.nextInt(sizes.length)];
    s.add(new Step(sync(CallKind.WIN_FENCE, -1, false, TraceCall.MODE_NOPRECEDE, TraceCall.GROUP_NULL, false),
        c -> c.mpi.winFence(0, c.w))); // (a replay leaves NOPRECEDE and NOSUCCEED out: docs/replay.md)
    s.add(new Step(op(CallKind.PUT, next, 0, put), c -> c.mpi.put(new byte[put], 0, put, next, 0, c.w)));
    s.add(new Step(op(CallKind.GET, prev, 4096, get), c -> c.mpi.get(new byte[get], 0, get, prev, 4096, c.w)));
    s.add(new Step(op(CallKind.ACCUMULATE, 0, 7000, 16),
        c -> c.mpi.accumulate(new long[2], 0, 7000, ReduceOp.SUM, c.w)));
    s.add(new Step(sync(CallKind.WIN_FENCE, -1, false, TraceCall.MODE_NOSUCCEED, TraceCall.GROUP_NULL, false),
        c -> c.mpi.winFence(0, c.w)));
    // passive target: an exclusive lock of rank 0, a put, a flush-free unlock
    int locked = sizes[rnd.nextInt(sizes.length)];
    s.add(new Step(sync(CallKind.WIN_LOCK, 0, true, 0, TraceCall.GROUP_NULL, false),
        c -> c.mpi.winLock(true, 0, 0, c.w)));
    s.add(new Step(op(CallKind.PUT, 0, 8 * me, locked), c -> c.mpi.put(new byte[locked], 0, locked, 0, 8L * me, c.w)));
    s.add(new Step(sync(CallKind.WIN_UNLOCK, 0, false, 0, TraceCall.GROUP_NULL, false),
        c -> c.mpi.winUnlock(0, c.w)));
    // post/start/complete/wait between neighbours: the group of the next and previous rank (world group = 100)
    int[] both = n == 2 ? new int[] {next} : new int[] {next, prev};
    // the window's group (MPI_Win_get_group), as RMA programs take it for their post/start groups
    s.add(new Step(sync(CallKind.WIN_GET_GROUP, -1, false, 0, 100, false), c -> { }));
    s.add(new Step(new GroupCall(CallKind.GROUP_INCL, TraceCall.COMM_NULL, 100, TraceCall.GROUP_NULL,
        ImmutableIntArray.copyOf(both), 101, T), c -> { }));
    s.add(new Step(sync(CallKind.WIN_POST, -1, false, 0, 101, false), c -> c.mpi.winPost(both, 0, c.w)));
    s.add(new Step(sync(CallKind.WIN_START, -1, false, 0, 101, false), c -> c.mpi.winStart(both, 0, c.w)));
    s.add(new Step(op(CallKind.PUT, next, 5000, 64), c -> c.mpi.put(new byte[64], 0, 64, next, 5000, c.w)));
    s.add(new Step(sync(CallKind.WIN_COMPLETE), c -> c.mpi.winComplete(c.w)));
    s.add(new Step(sync(CallKind.WIN_WAIT), c -> c.mpi.winWait(c.w)));
    s.add(new Step(sync(CallKind.WIN_FREE), c -> c.mpi.winFree(c.w)));
    return s;
  }

  @Test
  void aReplayEndsAtThePicosecondTheSameProgramOnTheMpiLayerDoes() {
    for (long seed = 1; seed <= 4; seed++) {
      int n = 2 + (int) (seed % 3);
      List<List<Step>> programs = new ArrayList<>();
      List<List<TraceCall>> trace = new ArrayList<>();
      for (int r = 0; r < n; r++) {
        List<Step> p = program(r, n, new SplittableRandom(seed * 31 + r));
        programs.add(p);
        List<TraceCall> calls = new ArrayList<>();
        calls.add(new Lifecycle(CallKind.INIT, T));
        p.forEach(st -> calls.add(st.call()));
        calls.add(new Lifecycle(CallKind.FINALIZE, T));
        trace.add(calls);
      }
      ReplayResult r = replay(trace, ComputeMode.SKIP);
      int[] nodes = r.nodes().toArray();
      long[] end = new long[n];
      MpiJob.builder(system()).placement(nodes).build().run(mpi -> {
        Ctx c = new Ctx();
        c.mpi = mpi;
        programs.get(mpi.rank()).forEach(st -> st.direct().accept(c));
        end[mpi.rank()] = mpi.now();
      });
      long last = 0;
      for (long e : end) {
        last = Math.max(last, e);
      }
      assertThat(r.simulatedPs()).as("seed %s, %s ranks", seed, n).isEqualTo(last);
      assertThat(r.calls()).containsEntry(CallKind.PUT, 3L * n).containsEntry(CallKind.WIN_FENCE, 2L * n)
          .containsEntry(CallKind.WIN_LOCK, (long) n).containsEntry(CallKind.WIN_WAIT, (long) n);
      assertThat(r.oneSidedFolded()).isZero();
    }
  }

  /** Rank 0 computes 100 µs (a trace's sleep) while rank 1 locks its window: the unlock waits for it. */
  @Test
  void aLockedTargetThatComputesHoldsItsOriginUp() {
    List<TraceCall> r0 = List.of(new Lifecycle(CallKind.INIT, T), create(),
        new Local(CallKind.SLEEP, 0, 100_000, T), sync(CallKind.WIN_FREE), new Lifecycle(CallKind.FINALIZE, T));
    List<TraceCall> r1 = List.of(new Lifecycle(CallKind.INIT, T), create(),
        sync(CallKind.WIN_LOCK, 0, true, 0, TraceCall.GROUP_NULL, false), op(CallKind.PUT, 0, 0, 100),
        sync(CallKind.WIN_UNLOCK, 0, false, 0, TraceCall.GROUP_NULL, false), sync(CallKind.WIN_FREE),
        new Lifecycle(CallKind.FINALIZE, T));
    ReplayResult r = replay(List.of(r0, r1), ComputeMode.AS_TRACED);
    assertThat(r.communicationPs().get(1)).isGreaterThan(100_000_000L);
    assertThat(r.computePs().get(0)).isEqualTo(100_000_000L);
  }

  /**
   * A test the trace saw fail, then its wait: one test here, then the wait (or nothing when the test already ended
   * the epoch); a test the trace saw succeed is a wait. A put beyond the replay's window is folded into it and
   * counted.
   */
  @Test
  void testsWaitsAndPlacesBeyondTheWindowReplay() {
    List<List<TraceCall>> t = new ArrayList<>();
    for (int me = 0; me < 2; me++) {
      List<TraceCall> c = new ArrayList<>();
      c.add(new Lifecycle(CallKind.INIT, T));
      c.add(new WindowCall(CallKind.WIN_CREATE, WIN, WORLD, 1L << 40, 1, TraceCall.GROUP_NULL, -1, false, 0, false,
          T));
      c.add(new GroupCall(CallKind.COMM_GROUP, WORLD, TraceCall.GROUP_NULL, TraceCall.GROUP_NULL,
          ImmutableIntArray.of(), 100, T));
      c.add(new GroupCall(CallKind.GROUP_INCL, TraceCall.COMM_NULL, 100, TraceCall.GROUP_NULL,
          ImmutableIntArray.of(1 - me), 101, T));
      if (me == 0) {
        c.add(sync(CallKind.WIN_POST, -1, false, 0, 101, false));
        c.add(sync(CallKind.WIN_TEST, -1, false, 0, TraceCall.GROUP_NULL, false));
        c.add(sync(CallKind.WIN_TEST, -1, false, 0, TraceCall.GROUP_NULL, true));
        c.add(sync(CallKind.WIN_POST, -1, false, 0, 101, false));
        c.add(new Local(CallKind.SLEEP, 0, 50_000, T));
        c.add(sync(CallKind.WIN_TEST, -1, false, 0, TraceCall.GROUP_NULL, false));
        c.add(sync(CallKind.WIN_WAIT));
      } else {
        for (int k = 0; k < 2; k++) {
          c.add(sync(CallKind.WIN_START, -1, false, 0, 101, false));
          c.add(op(CallKind.PUT, 0, (1L << 39) + k, 4000));
          c.add(sync(CallKind.WIN_COMPLETE));
        }
      }
      c.add(sync(CallKind.WIN_FREE));
      c.add(new Lifecycle(CallKind.FINALIZE, T));
      t.add(c);
    }
    ReplayResult r = replay(t, ComputeMode.AS_TRACED);
    assertThat(r.oneSidedFolded()).isEqualTo(2);
    assertThat(r.calls()).containsEntry(CallKind.WIN_TEST, 3L);
  }

  @Test
  void whatTheTraceGotWrongIsOneLineNamingTheCall() {
    String[] expected = {
        "the MPI layer refused PUT to 1 on window 7, 8 bytes: MPI_ERR_RMA_SYNC at rank 0: put on window #0 to rank 1"
            + " outside an access epoch to it (call winFence, winLock or winStart first)",
        "window 9 is not one the trace made (or it was freed)",
        "peer 5 is outside the communicator's ranks 0 to 1",
        "a PUT of 100000 bytes does not fit rank 1's window of 65536 bytes"};
    for (int k = 0; k < expected.length; k++) {
      List<List<TraceCall>> t = new ArrayList<>();
      for (int me = 0; me < 2; me++) {
        List<TraceCall> c = new ArrayList<>();
        c.add(new Lifecycle(CallKind.INIT, T));
        c.add(create());
        if (me == 0) {
          switch (k) {
            case 0 -> c.add(op(CallKind.PUT, 1, 0, 8));
            case 1 -> c.add(new OneSided(CallKind.GET, 9, 1, 0, 8, 8, T));
            case 2 -> c.add(sync(CallKind.WIN_LOCK, 5, false, 0, TraceCall.GROUP_NULL, false));
            default -> {
              c.add(sync(CallKind.WIN_LOCK, 1, false, 0, TraceCall.GROUP_NULL, false));
              c.add(op(CallKind.PUT, 1, 0, 100_000));
            }
          }
        }
        c.add(new Lifecycle(CallKind.FINALIZE, T));
        t.add(c);
      }
      assertThatThrownBy(() -> replay(t, ComputeMode.SKIP)).as(expected[k])
          .isInstanceOf(TraceReplayException.class).hasMessageContaining(expected[k])
          .hasMessageContaining("rank 0");
    }
  }
}
