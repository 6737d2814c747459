package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.mpi.Mpi;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceCall.Lifecycle;
import io.github.ariesmodel.traces.TraceCall.PointToPoint;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A trace's tag above {@link Mpi#TAG_UB} (MPICH's 268,435,455) is refused in one line naming the call, as MPICH would
 * have refused the send (a SimGrid trace may hold any int). Until stop 74 the bound was {@code Integer.MAX_VALUE}.
 */
class TagUpperBoundReplayTest {

  private static final CallTiming T = CallTiming.NONE;

  @Test
  void aTagAboveMpichsBoundIsRefused() {
    int bad = Mpi.TAG_UB + 1;
    List<List<TraceCall>> t = List.of(
        List.of(new Lifecycle(CallKind.INIT, T), new PointToPoint(CallKind.SEND, 1, bad, TraceCall.COMM_WORLD, 8,
            TraceCall.REQUEST_NULL, T), new Lifecycle(CallKind.FINALIZE, T)),
        List.of(new Lifecycle(CallKind.INIT, T), new PointToPoint(CallKind.RECV, 0, bad, TraceCall.COMM_WORLD, 8,
            TraceCall.REQUEST_NULL, T), new Lifecycle(CallKind.FINALIZE, T)));
    assertThatThrownBy(() -> TraceReplay.builder(AriesSystem.builder().system("default").seed(11).build(),
        SyntheticTrace.of(t)).build().run())
        .isInstanceOf(TraceReplayException.class)
        .hasMessageContaining("tag 268435456 is above MPI_TAG_UB, 268435455 (MPICH's)");
  }
}
