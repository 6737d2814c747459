package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.primitives.ImmutableLongArray;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.Trace;
import io.github.ariesmodel.traces.TraceCall;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A message's latency runs from the send that the receive matched, whatever order the trace observes its receives in.
 * Until stop 75 a receive took the oldest send of its (source, destination, tag) when the trace observed its
 * completion: rank 1 posting receives A and B of one source and tag and waiting for B first (a wait, or a waitall
 * listing B first) paired B with the first send and A with the second, 100 µs later, and A's latency came out at
 * -96.9 µs under as-traced compute (the hunt of stop 75 reproduced it from a DUMPI trace). Likewise two communicators'
 * messages of one source and tag could swap their sends.
 */
class ReceiveOrderLatencyReplayTest {

  private static final int WORLD = TraceCall.COMM_WORLD;
  private static final int DUP = 5;

  /** How the receiver observes its two receives. */
  enum Observed {
    WAITS_IN_POSTING_ORDER, WAITS_REVERSED, WAITALL_REVERSED
  }

  /** Wall-clock times of a call, µs on the rank's clock. */
  private static CallTiming at(long entryUs, long exitUs) {
    return new CallTiming(entryUs * 1000, exitUs * 1000);
  }

  /** Rank 0 sends twice, 100 µs apart; rank 1 posts receives 5 and 6 for them and observes them as told. */
  private static Trace trace(Observed how) {
    List<TraceCall> r1 = new ArrayList<>(List.of(
        new TraceCall.Lifecycle(CallKind.INIT, at(0, 1)),
        new TraceCall.PointToPoint(CallKind.IRECV, 0, 0, WORLD, 4, 5, at(2, 3)),
        new TraceCall.PointToPoint(CallKind.IRECV, 0, 0, WORLD, 4, 6, at(4, 5))));
    switch (how) {
      case WAITS_IN_POSTING_ORDER -> {
        r1.add(new TraceCall.Completion(CallKind.WAIT, ImmutableLongArray.of(5), ImmutableLongArray.of(5), true,
            at(6, 110)));
        r1.add(new TraceCall.Completion(CallKind.WAIT, ImmutableLongArray.of(6), ImmutableLongArray.of(6), true,
            at(111, 112)));
      }
      case WAITS_REVERSED -> {
        r1.add(new TraceCall.Completion(CallKind.WAIT, ImmutableLongArray.of(6), ImmutableLongArray.of(6), true,
            at(6, 110)));
        r1.add(new TraceCall.Completion(CallKind.WAIT, ImmutableLongArray.of(5), ImmutableLongArray.of(5), true,
            at(111, 112)));
      }
      case WAITALL_REVERSED -> r1.add(new TraceCall.Completion(CallKind.WAITALL, ImmutableLongArray.of(6, 5),
          ImmutableLongArray.of(6, 5), true, at(6, 110)));
    }
    r1.add(new TraceCall.Lifecycle(CallKind.FINALIZE, at(120, 121)));
    return SyntheticTrace.of(List.of(
        List.of(new TraceCall.Lifecycle(CallKind.INIT, at(0, 1)),
            new TraceCall.PointToPoint(CallKind.SEND, 1, 0, WORLD, 4, TraceCall.REQUEST_NULL, at(2, 3)),
            new TraceCall.PointToPoint(CallKind.SEND, 1, 0, WORLD, 4, TraceCall.REQUEST_NULL, at(103, 104)),
            new TraceCall.Lifecycle(CallKind.FINALIZE, at(120, 121))),
        r1));
  }

  private static ReplayResult replay(Trace t, ComputeMode compute) {
    AriesSystem sys = AriesSystem.builder().system("default").seed(1).build();
    return TraceReplay.builder(sys, t).compute(compute).build().run();
  }

  @ParameterizedTest
  @EnumSource(Observed.class)
  void eachReceiveIsPairedWithTheSendItMatched(Observed how) {
    ReplayResult asTraced = replay(trace(how), ComputeMode.AS_TRACED);
    assertThat(asTraced.messages()).isEqualTo(2);
    // both receives are posted before either message comes: each latency is the message's own flight, well under
    // the 100 µs between the sends
    assertThat(asTraced.latency().minNs()).as("no message arrives before it was sent").isPositive();
    assertThat(asTraced.latency().maxNs()).as("no message takes the other send's 100 µs").isLessThan(50_000);
    // the order of observation changes no sample: the distribution is that of the waits in posting order
    assertThat(asTraced.latency()).isEqualTo(replay(trace(Observed.WAITS_IN_POSTING_ORDER),
        ComputeMode.AS_TRACED).latency());
    assertThat(replay(trace(how), ComputeMode.SKIP).latency()).isEqualTo(replay(
        trace(Observed.WAITS_IN_POSTING_ORDER), ComputeMode.SKIP).latency());
  }

  /**
   * Rank 0 sends on a duplicate of the world, then 100 µs later on the world, both to rank 1 with tag 0; rank 1's
   * waitall observes the world's receive first. Until stop 75 it took the duplicate's send (the oldest of the source
   * and tag) and the duplicate's receive the world's: a negative latency.
   */
  @Test
  void messagesOfTwoCommunicatorsWithOneSourceAndTagKeepTheirSends() {
    TraceCall dup = new TraceCall.CommunicatorCall(CallKind.COMM_DUP, WORLD, DUP, 0, 0, at(1, 2));
    Trace t = SyntheticTrace.of(List.of(
        List.of(new TraceCall.Lifecycle(CallKind.INIT, at(0, 1)), dup,
            new TraceCall.PointToPoint(CallKind.SEND, 1, 0, DUP, 4, TraceCall.REQUEST_NULL, at(3, 4)),
            new TraceCall.PointToPoint(CallKind.SEND, 1, 0, WORLD, 4, TraceCall.REQUEST_NULL, at(104, 105)),
            new TraceCall.Lifecycle(CallKind.FINALIZE, at(120, 121))),
        List.of(new TraceCall.Lifecycle(CallKind.INIT, at(0, 1)), dup,
            new TraceCall.PointToPoint(CallKind.IRECV, 0, 0, WORLD, 4, 5, at(3, 4)),
            new TraceCall.PointToPoint(CallKind.IRECV, 0, 0, DUP, 4, 6, at(5, 6)),
            new TraceCall.Completion(CallKind.WAITALL, ImmutableLongArray.of(5, 6), ImmutableLongArray.of(5, 6), true,
                at(7, 110)),
            new TraceCall.Lifecycle(CallKind.FINALIZE, at(120, 121)))));
    ReplayResult r = replay(t, ComputeMode.AS_TRACED);
    assertThat(r.messages()).isEqualTo(2);
    assertThat(r.latency().minNs()).isPositive();
    assertThat(r.latency().maxNs()).isLessThan(50_000);
  }
}
