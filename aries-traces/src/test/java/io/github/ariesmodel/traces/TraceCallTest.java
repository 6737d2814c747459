package io.github.ariesmodel.traces;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.primitives.ImmutableLongArray;
import org.junit.jupiter.api.Test;

/** Caller mistakes in building calls name the parameter, the valid range and the value. */
class TraceCallTest {
  @Test
  void aKindOfTheWrongFamilyIsRefused() {
    assertThatThrownBy(() -> new TraceCall.PointToPoint(CallKind.BCAST, 0, 0, 0, 8, TraceCall.REQUEST_NULL,
        CallTiming.NONE)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("kind must be of family POINT_TO_POINT, was BCAST (COLLECTIVE)");
  }

  @Test
  void negativeBytesOtherThanUnknownAreRefused() {
    assertThatThrownBy(() -> new TraceCall.Collective(CallKind.ALLTOALLV, 0, -1, 0, 0, ImmutableLongArray.of(4, -2),
        ImmutableLongArray.of(), 0, CallTiming.NONE)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sendBytesPerRank[1] must be >= 0 or UNKNOWN_BYTES (-1), was -2");
    assertThat(new TraceCall.PointToPoint(CallKind.RECV, 1, 0, 0, TraceCall.UNKNOWN_BYTES, TraceCall.REQUEST_NULL,
        CallTiming.NONE).bytes()).isEqualTo(-1);
  }

  @Test
  void aCompletionWithoutARecordedOutcomeCompletesNothing() {
    assertThatThrownBy(() -> new TraceCall.Completion(CallKind.TEST, ImmutableLongArray.of(3),
        ImmutableLongArray.of(3), false, CallTiming.NONE)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("completed must be empty when the outcome is not recorded, was [3]");
  }

  @Test
  void aStartOrAFreeNamesOneRequestAndAStartallAnyNumber() {
    assertThatThrownBy(() -> new TraceCall.RequestCall(CallKind.START, ImmutableLongArray.of(3, 4), CallTiming.NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("requests of START must hold one request, was [3, 4]");
    assertThatThrownBy(() -> new TraceCall.RequestCall(CallKind.REQUEST_FREE, ImmutableLongArray.of(),
        CallTiming.NONE)).hasMessage("requests of REQUEST_FREE must hold one request, was []");
    assertThatThrownBy(() -> new TraceCall.RequestCall(CallKind.WAIT, ImmutableLongArray.of(3), CallTiming.NONE))
        .hasMessage("kind must be of family REQUEST, was WAIT (COMPLETION)");
    assertThat(new TraceCall.RequestCall(CallKind.STARTALL, ImmutableLongArray.of(), CallTiming.NONE).requests()
        .isEmpty()).isTrue();
  }

  @Test
  void timingMustNotRunBackwards() {
    assertThatThrownBy(() -> new CallTiming(10, 9)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("exitNanos must be >= entryNanos (10), was 9");
    assertThat(new CallTiming(10, 25).durationNanos()).isEqualTo(15);
    assertThat(CallTiming.NONE.isRecorded()).isFalse();
    assertThat(CallTiming.NONE.durationNanos()).isZero();
  }

  @Test
  void everyKindHasItsFamilysRecord() {
    for (CallKind k : CallKind.values()) {
      assertThat(k.family()).isNotNull();
    }
    assertThat(CallKind.SENDRECV.family()).isEqualTo(CallKind.Family.SEND_RECEIVE);
    assertThat(new TraceCall.SendReceive(1, 0, 8, 1, 0, 8, 0, CallTiming.NONE).kind()).isEqualTo(CallKind.SENDRECV);
  }
}
