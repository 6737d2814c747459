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
 * A traced waitall or waitany that lists one request handle twice replays as it did before stop 71, the handle passed
 * once: the MPI layer now refuses a request listed twice in one array (erroneous in MPI), but the traced run got past
 * it, so the replay does not pass the repeat on.
 */
class RepeatedHandleReplayTest {

  private static Trace trace() {
    CallTiming t = CallTiming.NONE;
    int world = TraceCall.COMM_WORLD;
    ImmutableLongArray twice77 = ImmutableLongArray.of(77, 77);
    ImmutableLongArray twice78 = ImmutableLongArray.of(78, 78, TraceCall.REQUEST_NULL);
    List<List<TraceCall>> calls = List.of(
        List.of(new TraceCall.Lifecycle(CallKind.INIT, t),
            new TraceCall.PointToPoint(CallKind.ISEND, 1, 3, world, 8, 77, t),
            new TraceCall.Completion(CallKind.WAITANY, twice77, ImmutableLongArray.of(), false, t),
            new TraceCall.PointToPoint(CallKind.ISEND, 1, 4, world, 8, 78, t),
            new TraceCall.Completion(CallKind.WAITALL, twice78, twice78, true, t),
            new TraceCall.Lifecycle(CallKind.FINALIZE, t)),
        List.of(new TraceCall.Lifecycle(CallKind.INIT, t),
            new TraceCall.PointToPoint(CallKind.RECV, 0, 3, world, 8, TraceCall.REQUEST_NULL, t),
            new TraceCall.PointToPoint(CallKind.RECV, 0, 4, world, 8, TraceCall.REQUEST_NULL, t),
            new TraceCall.Lifecycle(CallKind.FINALIZE, t)));
    return SyntheticTrace.of(calls);
  }

  @Test
  void aHandleListedTwiceInOneCompletionIsReplayedOnce() {
    AriesSystem sys = AriesSystem.builder().system("default").seed(1).build();
    ReplayResult r = TraceReplay.builder(sys, trace()).compute(ComputeMode.AS_TRACED).build().run();
    assertThat(r.messages()).isEqualTo(2);
    assertThat(r.calls()).containsEntry(CallKind.WAITANY, 1L).containsEntry(CallKind.WAITALL, 1L);
  }
}
