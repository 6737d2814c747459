package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceCall.Lifecycle;
import io.github.ariesmodel.traces.TraceCall.OneSided;
import io.github.ariesmodel.traces.TraceCall.WindowCall;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An accumulate of one 4-byte int into a 4-byte window (a counter), as MPI allows, replays: the replay's accumulate
 * combines whole 8-byte elements, and its window has room for that rounding. Until stop 74 the rounded length was
 * checked against the trace's window and the call refused; an operation larger than the trace's window still is.
 */
class SmallWindowAccumulateReplayTest {

  private static final CallTiming T = CallTiming.NONE;
  private static final int WIN = 7;

  private static ReplayResult replay(int windowBytes, int unit, long disp, int bytes) {
    List<List<TraceCall>> t = new ArrayList<>();
    for (int me = 0; me < 2; me++) {
      List<TraceCall> c = new ArrayList<>();
      c.add(new Lifecycle(CallKind.INIT, T));
      c.add(new WindowCall(CallKind.WIN_CREATE, WIN, TraceCall.COMM_WORLD, windowBytes, unit, TraceCall.GROUP_NULL,
          -1, false, 0, false, T));
      c.add(new WindowCall(CallKind.WIN_FENCE, WIN, TraceCall.COMM_NULL, 0, 1, TraceCall.GROUP_NULL, -1, false, 0,
          false, T));
      if (me == 1) {
        c.add(new OneSided(CallKind.ACCUMULATE, WIN, 0, disp, bytes, bytes, T));
      }
      c.add(new WindowCall(CallKind.WIN_FENCE, WIN, TraceCall.COMM_NULL, 0, 1, TraceCall.GROUP_NULL, -1, false, 0,
          false, T));
      c.add(new WindowCall(CallKind.WIN_FREE, WIN, TraceCall.COMM_NULL, 0, 1, TraceCall.GROUP_NULL, -1, false, 0,
          false, T));
      c.add(new Lifecycle(CallKind.FINALIZE, T));
      t.add(c);
    }
    return TraceReplay.builder(AriesSystem.builder().system("default").seed(11).build(), SyntheticTrace.of(t)).build()
        .run();
  }

  @Test
  void aFourByteAccumulateIntoAFourByteWindowReplays() {
    ReplayResult r = replay(4, 4, 0, 4);
    assertThat(r.calls(CallKind.ACCUMULATE)).isEqualTo(1);
    assertThat(r.oneSidedFolded()).isZero();
  }

  @Test
  void aFourByteAccumulateAtTheLastIntOfAWindowIsNotFolded() {
    ReplayResult r = replay(12, 4, 2, 4);
    assertThat(r.calls(CallKind.ACCUMULATE)).isEqualTo(1);
    assertThat(r.oneSidedFolded()).isZero();
  }

  @Test
  void anAccumulateLargerThanTheWindowIsStillRefused() {
    assertThatThrownBy(() -> replay(4, 4, 0, 8)).hasMessageContaining(
        "a ACCUMULATE of 8 bytes does not fit rank 0's window of 4 bytes");
  }
}
