package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.primitives.ImmutableIntArray;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceCall.GroupCall;
import io.github.ariesmodel.traces.TraceCall.Lifecycle;
import io.github.ariesmodel.traces.TraceCall.OneSided;
import io.github.ariesmodel.traces.TraceCall.WindowCall;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Legal traces whose window assertions a trace kept for some ranks only replay to the end: libdumpi stores an
 * assertion of several bits as DUMPI_MODE_ERROR, read as none, so a fence's NOSUCCEED|NOSTORE on one rank reads as
 * nothing while the other's NOSUCCEED stays, and a post's NOCHECK|NOSTORE as nothing against its start's NOCHECK. The
 * replay leaves out the assertions that change synchronization (docs/replay.md). Until stop 74 the first ended in a
 * false deadlock report in win_free and the second "with communication unfinished".
 */
class WindowAssertionReplayTest {

  private static final CallTiming T = CallTiming.NONE;
  private static final int WIN = 7;

  private static WindowCall create() {
    return new WindowCall(CallKind.WIN_CREATE, WIN, TraceCall.COMM_WORLD, 1 << 16, 8, TraceCall.GROUP_NULL, -1, false,
        0, false, T);
  }

  private static WindowCall sync(CallKind kind, int assertion, int group) {
    return new WindowCall(kind, WIN, TraceCall.COMM_NULL, 0, 1, group, -1, false, assertion, false, T);
  }

  private static ReplayResult replay(List<List<TraceCall>> t) {
    return TraceReplay.builder(AriesSystem.builder().system("default").seed(11).build(), SyntheticTrace.of(t)).build()
        .run();
  }

  /** Two ranks put to each other in a fence epoch; the closing fence asserts {@code closing[rank]}. */
  private static List<List<TraceCall>> fences(int[] closing) {
    List<List<TraceCall>> t = new ArrayList<>();
    for (int me = 0; me < 2; me++) {
      List<TraceCall> c = new ArrayList<>();
      c.add(new Lifecycle(CallKind.INIT, T));
      c.add(create());
      c.add(sync(CallKind.WIN_FENCE, TraceCall.MODE_NOPRECEDE, TraceCall.GROUP_NULL));
      c.add(new OneSided(CallKind.PUT, WIN, 1 - me, 0, 8, 8, T));
      c.add(sync(CallKind.WIN_FENCE, closing[me], TraceCall.GROUP_NULL));
      c.add(sync(CallKind.WIN_FREE, 0, TraceCall.GROUP_NULL));
      c.add(new Lifecycle(CallKind.FINALIZE, T));
      t.add(c);
    }
    return t;
  }

  @Test
  void aFenceNoSucceedTheTraceKeptForOneRankOnly() {
    ReplayResult r = replay(fences(new int[] {TraceCall.MODE_NOSUCCEED, 0}));
    assertThat(r.calls(CallKind.WIN_FREE)).isEqualTo(2);
    // the same as no rank asserting it, and as every rank asserting it: the assertion is left out
    assertThat(r.simulatedPs()).isEqualTo(replay(fences(new int[] {0, 0})).simulatedPs())
        .isEqualTo(replay(fences(new int[] {TraceCall.MODE_NOSUCCEED, TraceCall.MODE_NOSUCCEED})).simulatedPs());
  }

  @Test
  void aStartNoCheckWhosePostTheTraceKeptAsNone() {
    List<List<TraceCall>> t = new ArrayList<>();
    for (int me = 0; me < 2; me++) {
      List<TraceCall> c = new ArrayList<>();
      c.add(new Lifecycle(CallKind.INIT, T));
      c.add(create());
      c.add(new GroupCall(CallKind.COMM_GROUP, TraceCall.COMM_WORLD, TraceCall.GROUP_NULL, TraceCall.GROUP_NULL,
          ImmutableIntArray.of(), 100, T));
      c.add(new GroupCall(CallKind.GROUP_INCL, TraceCall.COMM_NULL, 100, TraceCall.GROUP_NULL,
          ImmutableIntArray.of(1 - me), 101, T));
      if (me == 1) {
        c.add(sync(CallKind.WIN_POST, 0, 101)); // NOCHECK|NOSTORE in the program, DUMPI_MODE_ERROR in the trace
        c.add(sync(CallKind.WIN_WAIT, 0, TraceCall.GROUP_NULL));
      } else {
        c.add(sync(CallKind.WIN_START, TraceCall.MODE_NOCHECK, 101));
        c.add(new OneSided(CallKind.PUT, WIN, 1, 0, 8, 8, T));
        c.add(sync(CallKind.WIN_COMPLETE, 0, TraceCall.GROUP_NULL));
      }
      c.add(sync(CallKind.WIN_FREE, 0, TraceCall.GROUP_NULL));
      c.add(new Lifecycle(CallKind.FINALIZE, T));
      t.add(c);
    }
    ReplayResult r = replay(t);
    assertThat(r.calls(CallKind.WIN_FREE)).isEqualTo(2);
    assertThat(r.calls(CallKind.WIN_WAIT)).isEqualTo(1);
  }
}
