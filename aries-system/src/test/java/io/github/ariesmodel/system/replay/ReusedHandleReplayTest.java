package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.primitives.ImmutableLongArray;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.Trace;
import io.github.ariesmodel.traces.TraceCall;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A nonblocking call may reuse the handle of a request the traced run completed in a call the trace did not record
 * (an MPI library hands a handle out again only once its request is freed; DUMPI records the handles it was given).
 * The old request, complete in the replay, counts as received. Until stop 75 it was dropped, and its message was
 * reported as "1 sends that no receive of the trace matched" (exit 2; the hunt of stop 75 reproduced it from a DUMPI
 * trace); a persistent init on such a handle already finished it.
 */
class ReusedHandleReplayTest {

  private static final CallTiming T = CallTiming.NONE;
  private static final int WORLD = TraceCall.COMM_WORLD;

  private static TraceCall send() {
    return new TraceCall.PointToPoint(CallKind.SEND, 1, 0, WORLD, 4, TraceCall.REQUEST_NULL, T);
  }

  private static TraceCall irecv(long handle) {
    return new TraceCall.PointToPoint(CallKind.IRECV, 0, 0, WORLD, 4, handle, T);
  }

  private static TraceCall waitFor(long handle) {
    ImmutableLongArray h = ImmutableLongArray.of(handle);
    return new TraceCall.Completion(CallKind.WAIT, h, h, true, T);
  }

  private static ReplayResult replay(List<TraceCall> rank1) {
    Trace t = SyntheticTrace.of(List.of(
        List.of(new TraceCall.Lifecycle(CallKind.INIT, T), send(), send(), send(),
            new TraceCall.Lifecycle(CallKind.FINALIZE, T)),
        rank1));
    AriesSystem sys = AriesSystem.builder().system("default").seed(1).build();
    return TraceReplay.builder(sys, t).build().run();
  }

  @Test
  void aHandleReusedAfterAnUnrecordedCompletionCountsItsFirstReceive() {
    // receive 7 completes (its message comes before 8's, which the wait waits for) and is never waited for in the
    // trace: the traced run completed it in a call left out, and handed handle 7 out again
    ReplayResult r = replay(List.of(new TraceCall.Lifecycle(CallKind.INIT, T), irecv(7), irecv(8), waitFor(8),
        irecv(7), waitFor(7), new TraceCall.Lifecycle(CallKind.FINALIZE, T)));
    assertThat(r.messages()).isEqualTo(3);
    assertThat(r.bytes()).isEqualTo(12);
    assertThat(r.latency().count()).isEqualTo(3);
    assertThat(r.receivesUnmatched()).isZero();
  }

  @Test
  void aHandleReusedWhileItsRequestIsStillActiveIsRefused() {
    // nothing completed receive 7 before its handle came back: the trace cannot say where the traced run did
    assertThatThrownBy(() -> replay(List.of(new TraceCall.Lifecycle(CallKind.INIT, T), irecv(7), irecv(7),
        waitFor(7), irecv(8), waitFor(8), new TraceCall.Lifecycle(CallKind.FINALIZE, T))))
        .isInstanceOf(TraceReplayException.class).hasMessageContaining("request 7 is reused while still active");
  }
}
