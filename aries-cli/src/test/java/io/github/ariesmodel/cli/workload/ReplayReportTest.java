package io.github.ariesmodel.cli.workload;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableMap;
import com.google.common.primitives.ImmutableIntArray;
import com.google.common.primitives.ImmutableLongArray;
import io.github.ariesmodel.system.replay.ComputeMode;
import io.github.ariesmodel.system.replay.ReplayResult;
import io.github.ariesmodel.traces.TraceCoverage;
import io.github.ariesmodel.traces.TraceFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a replay's report says beyond its figures: its notes on how compute was found. */
class ReplayReportTest {

  /** A replay's result of two ranks with the given compute, computed time and gaps. */
  private static ReplayResult result(ComputeMode compute, long computePs, long wallGaps, long cpuGaps) {
    return new ReplayResult(2, ImmutableIntArray.of(0, 1), 1_000_000, 1_000_000, ImmutableLongArray.of(10, 10),
        ImmutableLongArray.of(computePs, 0), 0, 0, 0, 0, ReplayResult.Latency.NONE, ImmutableMap.of(),
        ImmutableMap.of(), ImmutableMap.of(), ImmutableMap.of(), new TraceCoverage(TraceFormat.DUMPI, List.of()), 5,
        0, 0, 0, 0, compute, wallGaps, cpuGaps);
  }

  /**
   * Compute from a trace's CPU times (libdumpi's {@code timestamps=cpu}) is said to be so; a replay of compute that
   * found no time in the trace (no timestamps, no compute actions: {@code timestamps=none}) says it ran as skip
   * (until stop 75 both read as a replay of compute, silently the same as skip).
   */
  @Test
  void computeFromCpuTimesOrFromNothingIsNoted() {
    assertThat(ReplayWorkload.report(result(ComputeMode.AS_TRACED, 5, 0, 3)).notes())
        .contains(ReplayWorkload.CPU_TIME_GAPS);
    assertThat(ReplayWorkload.report(result(ComputeMode.scale(0.5), 0, 0, 0)).notes())
        .contains("no compute replayed: the trace records no time between calls (no timestamps, as DUMPI's"
            + " timestamps=none writes, and no compute or sleep actions), so --compute scale:0.5 ran as skip");
    // wall-clock gaps (of 0 ns even), compute from the trace's actions, or compute skipped: neither note
    for (ReplayResult r : List.of(result(ComputeMode.AS_TRACED, 0, 4, 0), result(ComputeMode.AS_TRACED, 7, 0, 0),
        result(ComputeMode.SKIP, 0, 0, 0))) {
      assertThat(ReplayWorkload.report(r).notes()).noneMatch(n -> n.startsWith("compute between calls from CPU")
          || n.startsWith("no compute replayed"));
    }
  }
}
