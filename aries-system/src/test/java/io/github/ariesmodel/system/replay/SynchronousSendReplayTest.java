package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.primitives.ImmutableLongArray;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.Trace;
import io.github.ariesmodel.traces.TraceCall;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A traced {@code MPI_Ssend} (and {@code MPI_Issend} + wait) replays synchronously: the receiver sleeps 50 µs before
 * it receives, and the sender's time in MPI covers that wait; the same trace with standard sends does not.
 */
class SynchronousSendReplayTest {

  private static final long SLEEP_NS = 50_000;

  /** Two ranks: 0 sends 8 bytes twice (blocking, then nonblocking + wait); 1 sleeps, then receives each. */
  private static Trace trace(CallKind blocking, CallKind nonblocking) {
    CallTiming t = CallTiming.NONE;
    int world = TraceCall.COMM_WORLD;
    List<List<TraceCall>> calls = List.of(
        List.of(new TraceCall.Lifecycle(CallKind.INIT, t),
            new TraceCall.PointToPoint(blocking, 1, 3, world, 8, TraceCall.REQUEST_NULL, t),
            new TraceCall.PointToPoint(nonblocking, 1, 4, world, 8, 77, t),
            new TraceCall.Completion(CallKind.WAIT, ImmutableLongArray.of(77), ImmutableLongArray.of(77), true, t),
            new TraceCall.Lifecycle(CallKind.FINALIZE, t)),
        List.of(new TraceCall.Lifecycle(CallKind.INIT, t),
            new TraceCall.Local(CallKind.SLEEP, 0, SLEEP_NS, t),
            new TraceCall.PointToPoint(CallKind.RECV, 0, 3, world, 8, TraceCall.REQUEST_NULL, t),
            new TraceCall.Local(CallKind.SLEEP, 0, SLEEP_NS, t),
            new TraceCall.PointToPoint(CallKind.RECV, 0, 4, world, 8, TraceCall.REQUEST_NULL, t),
            new TraceCall.Lifecycle(CallKind.FINALIZE, t)));
    return SyntheticTrace.of(calls);
  }

  private static ReplayResult replay(CallKind blocking, CallKind nonblocking) {
    AriesSystem sys = AriesSystem.builder().system("default").seed(1).build();
    return TraceReplay.builder(sys, trace(blocking, nonblocking)).compute(ComputeMode.AS_TRACED).build().run();
  }

  @Test
  void aTracedSynchronousSendWaitsForTheReceiver() {
    ReplayResult sync = replay(CallKind.SSEND, CallKind.ISSEND);
    ReplayResult standard = replay(CallKind.SEND, CallKind.ISEND);
    assertThat(sync.calls()).containsEntry(CallKind.SSEND, 1L).containsEntry(CallKind.ISSEND, 1L);
    assertThat(sync.messages()).isEqualTo(2);
    // the sender's time in MPI calls: the second synchronous send completes after the receiver's two sleeps; the
    // standard sends go eagerly, well within one sleep
    assertThat(sync.communicationPs().get(0)).isGreaterThan(2 * SLEEP_NS * 1000);
    assertThat(standard.communicationPs().get(0)).isLessThan(SLEEP_NS * 1000);
  }
}
