package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.Trace;
import io.github.ariesmodel.traces.TraceCall;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * A DUMPI trace recorded with CPU times only (libdumpi's {@code timestamps=cpu}) replays {@code --compute as-traced}
 * with the process's CPU time between two calls as its compute, as a wall-clock trace does with its gaps. Until stop
 * 75 the reader dropped CPU times and such a trace replayed as {@code skip}, with no word (the hunt of stop 75: a
 * 1 s gap gave 1,000,004.098 µs with wall-clock times, 3.841 µs with CPU times).
 */
class CpuTimeComputeReplayTest {

  private static final int WORLD = TraceCall.COMM_WORLD;

  /** Rank 0 computes 1 ms (its times' gap) before its send and 1 ms before its finalize; rank 1 receives (ns). */
  private static Trace trace(BiFunction<Long, Long, CallTiming> clock0, BiFunction<Long, Long, CallTiming> clock1) {
    return SyntheticTrace.of(List.of(
        List.of(new TraceCall.Lifecycle(CallKind.INIT, clock0.apply(0L, 1_000L)),
            new TraceCall.PointToPoint(CallKind.SEND, 1, 0, WORLD, 8, TraceCall.REQUEST_NULL,
                clock1.apply(1_001_000L, 1_002_000L)),
            new TraceCall.Lifecycle(CallKind.FINALIZE, clock1.apply(2_002_000L, 2_003_000L))),
        List.of(new TraceCall.Lifecycle(CallKind.INIT, CallTiming.NONE),
            new TraceCall.PointToPoint(CallKind.RECV, 0, 0, WORLD, 8, TraceCall.REQUEST_NULL, CallTiming.NONE),
            new TraceCall.Lifecycle(CallKind.FINALIZE, CallTiming.NONE))));
  }

  private static ReplayResult replay(Trace t) {
    AriesSystem sys = AriesSystem.builder().system("default").seed(1).build();
    return TraceReplay.builder(sys, t).compute(ComputeMode.AS_TRACED).build().run();
  }

  @Test
  void cpuTimesBetweenCallsAreReplayedAsComputeAsWallClockTimesAre() {
    ReplayResult wall = replay(trace(CallTiming::new, CallTiming::new));
    ReplayResult cpu = replay(trace(CallTiming::cpu, CallTiming::cpu));
    // 1 ms before the send and 1 ms before the finalize
    assertThat(wall.computePs().get(0)).isEqualTo(2_000_000_000L);
    assertThat(cpu.computePs().get(0)).isEqualTo(2_000_000_000L);
    assertThat(cpu.simulatedPs()).isEqualTo(wall.simulatedPs());
    assertThat(wall.wallClockGaps()).isEqualTo(2);
    assertThat(wall.cpuTimeGaps()).isZero();
    assertThat(cpu.cpuTimeGaps()).isEqualTo(2);
    assertThat(cpu.wallClockGaps()).isZero();
  }

  @Test
  void aGapBetweenTimesOfTwoClocksIsNotTaken() {
    // the init on the wall clock, the rest on CPU time: only the gap between the two CPU-timed calls counts
    ReplayResult mixed = replay(trace(CallTiming::new, CallTiming::cpu));
    assertThat(mixed.computePs().get(0)).isEqualTo(1_000_000_000L);
    assertThat(mixed.cpuTimeGaps()).isEqualTo(1);
    assertThat(mixed.wallClockGaps()).isZero();
  }

  @Test
  void withoutTimesNothingIsComputedAndNoGapIsCounted() {
    BiFunction<Long, Long, CallTiming> none = (a, b) -> CallTiming.NONE;
    ReplayResult r = replay(trace(none, none));
    assertThat(r.computePs().get(0)).isZero();
    assertThat(r.wallClockGaps() + r.cpuTimeGaps()).isZero();
    assertThat(r.compute()).isEqualTo(ComputeMode.AS_TRACED);
  }
}
