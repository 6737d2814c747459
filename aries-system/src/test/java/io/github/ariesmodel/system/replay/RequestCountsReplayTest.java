package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.primitives.ImmutableLongArray;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.simgrid.SimGridTrace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A call naming a request a test of the trace had already completed is counted apart from one naming a request no
 * recorded call started. A SimGrid trace keeps a request its test completed for a later wait on its key (legal: SMPI's
 * replay passes over that wait); until stop 75 such a wait was counted as a request not started, the count of calls a
 * trace left out.
 */
class RequestCountsReplayTest {

  @TempDir Path tmp;

  private static AriesSystem system() {
    return AriesSystem.builder().system("default").seed(1).build();
  }

  @Test
  void aWaitAfterTheTestThatCompletedItsRequestIsCountedAsAlreadyCompleted() throws IOException {
    // rank 0's test comes after 100,000 flops' compute: its message has long been taken, and the test completes it
    Path f = tmp.resolve("testwait.txt");
    Files.writeString(f, "0 init\n1 init\n0 isend 1 0 8\n1 recv 0 0 8\n0 compute 100000\n0 test 0 1 0\n"
        + "0 wait 0 1 0\n0 finalize\n1 finalize\n");
    ReplayResult r = TraceReplay.builder(system(), SimGridTrace.open(f)).compute(ComputeMode.AS_TRACED).build().run();
    assertThat(r.messages()).isEqualTo(1);
    assertThat(r.requestsAlreadyCompleted()).isEqualTo(1);
    assertThat(r.requestsNotStarted()).isZero();
  }

  @Test
  void aWaitOnAHandleNoCallStartedIsCountedAsNotStartedAndAReusedHandleIsOpenAgain() {
    CallTiming t = CallTiming.NONE;
    int world = TraceCall.COMM_WORLD;
    ImmutableLongArray h4 = ImmutableLongArray.of(4);
    ImmutableLongArray h9 = ImmutableLongArray.of(9);
    // rank 0: a test completes request 4 (after a wait for 5, whose message follows 4's); a wait names 9, which
    // nothing started; then 4 is started again and its wait is an ordinary one
    ReplayResult r = TraceReplay.builder(system(), SyntheticTrace.of(List.of(
        List.of(new TraceCall.Lifecycle(CallKind.INIT, t),
            new TraceCall.PointToPoint(CallKind.IRECV, 1, 0, world, 8, 4, t),
            new TraceCall.PointToPoint(CallKind.IRECV, 1, 0, world, 8, 5, t),
            new TraceCall.Completion(CallKind.WAIT, ImmutableLongArray.of(5), ImmutableLongArray.of(), false, t),
            new TraceCall.Completion(CallKind.TEST, h4, ImmutableLongArray.of(), false, t),
            new TraceCall.Completion(CallKind.WAIT, h9, ImmutableLongArray.of(), false, t),
            new TraceCall.Completion(CallKind.WAIT, h4, ImmutableLongArray.of(), false, t),
            new TraceCall.PointToPoint(CallKind.IRECV, 1, 0, world, 8, 4, t),
            new TraceCall.Completion(CallKind.WAIT, h4, ImmutableLongArray.of(), false, t),
            new TraceCall.Lifecycle(CallKind.FINALIZE, t)),
        List.of(new TraceCall.Lifecycle(CallKind.INIT, t),
            new TraceCall.PointToPoint(CallKind.SEND, 0, 0, world, 8, TraceCall.REQUEST_NULL, t),
            new TraceCall.PointToPoint(CallKind.SEND, 0, 0, world, 8, TraceCall.REQUEST_NULL, t),
            new TraceCall.PointToPoint(CallKind.SEND, 0, 0, world, 8, TraceCall.REQUEST_NULL, t),
            new TraceCall.Lifecycle(CallKind.FINALIZE, t))))).build().run();
    assertThat(r.messages()).isEqualTo(3);
    assertThat(r.requestsNotStarted()).as("the wait for 9").isEqualTo(1);
    assertThat(r.requestsAlreadyCompleted()).as("the first wait for 4").isEqualTo(1);
  }
}
