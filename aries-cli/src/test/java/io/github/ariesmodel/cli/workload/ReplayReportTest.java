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

/**
 * What a replay's report says beyond its figures: the counts of what it could not take from the trace, and its notes
 * on how compute was found.
 */
class ReplayReportTest {

  /** A replay's result of two ranks with the given compute, computed time and gaps. */
  private static ReplayResult result(ComputeMode compute, long computePs, long wallGaps, long cpuGaps) {
    return result(compute, computePs, wallGaps, cpuGaps, new long[5]);
  }

  /**
   * The same with the trace's counts: requests not started, already completed, unknown sizes, receives unmatched,
   * one-sided operations folded.
   */
  private static ReplayResult result(ComputeMode compute, long computePs, long wallGaps, long cpuGaps, long[] counts) {
    return new ReplayResult(2, ImmutableIntArray.of(0, 1), 1_000_000, 1_000_000, ImmutableLongArray.of(10, 10),
        ImmutableLongArray.of(computePs, 0), 0, 0, 0, 0, ReplayResult.Latency.NONE, ImmutableMap.of(),
        ImmutableMap.of(), ImmutableMap.of(), ImmutableMap.of(), new TraceCoverage(TraceFormat.DUMPI, List.of()), 5,
        counts[0], counts[1], counts[2], counts[3], counts[4], compute, wallGaps, cpuGaps, 1e9, 0);
  }

  private static double metric(WorkloadReport rep, String name) {
    return rep.metrics().stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow().value();
  }

  /** The rate flops were replayed at is said when flops were replayed (it is assumed: a trace names no machine). */
  @Test
  void theFlopRateIsNotedWhenFlopsWereReplayed() {
    ReplayResult flops = new ReplayResult(2, ImmutableIntArray.of(0, 1), 1_000_000, 1_000_000,
        ImmutableLongArray.of(10, 10), ImmutableLongArray.of(5, 0), 0, 0, 0, 0, ReplayResult.Latency.NONE,
        ImmutableMap.of(), ImmutableMap.of(), ImmutableMap.of(), ImmutableMap.of(),
        new TraceCoverage(TraceFormat.SIMGRID, List.of()), 5, 0, 0, 0, 0, 0, ComputeMode.scale(0.5), 0, 0, 1e9, 3);
    assertThat(ReplayWorkload.report(flops).notes()).contains("flops (compute actions, reductions) replayed at 1"
        + " Gflop/s a rank (assumed: the trace names no machine; scale:F scales them, and not a sleep)");
    assertThat(ReplayWorkload.report(result(ComputeMode.AS_TRACED, 5, 2, 0)).notes())
        .noneMatch(n -> n.startsWith("flops"));
  }

  /**
   * What the replay could not take from the trace as it stands is written as metrics, 0 when nothing, and each that
   * is not 0 gets a note. Until stop 75 the counts were kept in the result and reported nowhere: a send of a datatype
   * missing from the trace's size table moved 0 bytes without a word.
   */
  @Test
  void theTracesCountsAreMetricsAndNotesWhenNotZero() {
    WorkloadReport none = ReplayWorkload.report(result(ComputeMode.SKIP, 0, 0, 0));
    List<String> names = List.of("unknownSizes", "requestsNotStarted", "requestsAlreadyCompleted",
        "receivesUnmatched", "oneSidedFolded");
    for (String n : names) {
      assertThat(metric(none, n)).as(n).isZero();
      assertThat(none.notes()).noneMatch(x -> x.startsWith(n + ":"));
    }
    WorkloadReport some = ReplayWorkload.report(result(ComputeMode.SKIP, 0, 0, 0, new long[] {2, 3, 1_234, 5, 6}));
    assertThat(metric(some, "requestsNotStarted")).isEqualTo(2);
    assertThat(metric(some, "requestsAlreadyCompleted")).isEqualTo(3);
    assertThat(metric(some, "unknownSizes")).isEqualTo(1_234);
    assertThat(metric(some, "receivesUnmatched")).isEqualTo(5);
    assertThat(metric(some, "oneSidedFolded")).isEqualTo(6);
    for (String n : names) {
      assertThat(some.notes()).as(n).filteredOn(x -> x.startsWith(n + ":")).hasSize(1);
    }
    assertThat(some.notes()).contains("unknownSizes: 1,234 calls' byte counts the trace could not give (a datatype"
        + " its size table lacks): their sends were replayed as 0 bytes, their receives as large as the trace's"
        + " largest message");
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
