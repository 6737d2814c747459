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
  void aWindowCallRefusesAWrongFamilyANegativeSizeAUnitBelowOneAndUnknownAssertionBits() {
    CallTiming none = CallTiming.NONE;
    int noGroup = TraceCall.GROUP_NULL;
    assertThatThrownBy(() -> new TraceCall.WindowCall(CallKind.PUT, 1, 0, 0, 1, noGroup, -1, false, 0, false, none))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("kind must be of family WINDOW, was PUT (ONE_SIDED)");
    assertThatThrownBy(() -> new TraceCall.WindowCall(CallKind.WIN_CREATE, 1, 0, -1, 1, noGroup, -1, false, 0, false,
        none)).isInstanceOf(IllegalArgumentException.class).hasMessage("bytes must be >= 0, was -1");
    assertThatThrownBy(() -> new TraceCall.WindowCall(CallKind.WIN_CREATE, 1, 0, 64, 0, noGroup, -1, false, 0, false,
        none)).isInstanceOf(IllegalArgumentException.class).hasMessage("displacementUnit must be >= 1, was 0");
    assertThatThrownBy(() -> new TraceCall.WindowCall(CallKind.WIN_FENCE, 1, -1, 0, 1, noGroup, -1, false, 32, false,
        none)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("assertion must hold only the MODE_* bits (0 to 31), was 32");
    assertThatThrownBy(() -> new TraceCall.WindowCall(CallKind.WIN_FENCE, 1, -1, 0, 1, noGroup, -1, false, -1, false,
        none)).hasMessage("assertion must hold only the MODE_* bits (0 to 31), was -1");
    assertThatThrownBy(() -> new TraceCall.WindowCall(CallKind.WIN_WAIT, 1, -1, 0, 1, noGroup, -1, false, 0, false,
        null)).isInstanceOf(NullPointerException.class).hasMessage("timing");
    int all = TraceCall.MODE_NOCHECK | TraceCall.MODE_NOSTORE | TraceCall.MODE_NOPUT | TraceCall.MODE_NOPRECEDE
        | TraceCall.MODE_NOSUCCEED;
    assertThat(all).isEqualTo(31);
    assertThat(new TraceCall.WindowCall(CallKind.WIN_FENCE, 1, -1, 0, 1, noGroup, -1, false, all, false, none)
        .assertion()).isEqualTo(31);
  }

  @Test
  void aOneSidedCallRefusesAWrongFamilyANegativeDisplacementAndBadByteCounts() {
    CallTiming none = CallTiming.NONE;
    assertThatThrownBy(() -> new TraceCall.OneSided(CallKind.WIN_FENCE, 1, 0, 0, 8, 8, none))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("kind must be of family ONE_SIDED, was WIN_FENCE (WINDOW)");
    assertThatThrownBy(() -> new TraceCall.OneSided(CallKind.PUT, 1, 0, -3, 8, 8, none))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("displacement must be >= 0, was -3");
    assertThatThrownBy(() -> new TraceCall.OneSided(CallKind.GET, 1, 0, 0, -2, 8, none))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("originBytes must be >= 0 or UNKNOWN_BYTES (-1), was -2");
    assertThatThrownBy(() -> new TraceCall.OneSided(CallKind.ACCUMULATE, 1, 0, 0, 8, -5, none))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("targetBytes must be >= 0 or UNKNOWN_BYTES (-1), was -5");
    assertThatThrownBy(() -> new TraceCall.OneSided(CallKind.PUT, 1, 0, 0, 8, 8, null))
        .isInstanceOf(NullPointerException.class).hasMessage("timing");
    assertThat(new TraceCall.OneSided(CallKind.PUT, 1, TraceCall.PROC_NULL, 0, TraceCall.UNKNOWN_BYTES,
        TraceCall.UNKNOWN_BYTES, none).originBytes()).isEqualTo(TraceCall.UNKNOWN_BYTES);
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
    assertThat(CallKind.values()).filteredOn(k -> k.family() == CallKind.Family.WINDOW).containsExactly(
        CallKind.WIN_CREATE, CallKind.WIN_FREE, CallKind.WIN_FENCE, CallKind.WIN_LOCK, CallKind.WIN_UNLOCK,
        CallKind.WIN_POST, CallKind.WIN_START, CallKind.WIN_COMPLETE, CallKind.WIN_WAIT, CallKind.WIN_TEST,
        CallKind.WIN_GET_GROUP);
    assertThat(CallKind.values()).filteredOn(k -> k.family() == CallKind.Family.ONE_SIDED)
        .containsExactly(CallKind.PUT, CallKind.GET, CallKind.ACCUMULATE);
    assertThat(new TraceCall.SendReceive(1, 0, 8, 1, 0, 8, 0, CallTiming.NONE).kind()).isEqualTo(CallKind.SENDRECV);
  }
}
