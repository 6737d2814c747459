package io.github.ariesmodel.traces;

import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What a whole trace holds and leaves out: the {@link RankCoverage} of every rank, with totals and a plain-text
 * report.
 *
 * @param format the trace's format
 * @param ranks coverage of each rank, in rank order
 */
public record TraceCoverage(TraceFormat format, ImmutableList<RankCoverage> ranks) {
  /** Validates and copies. */
  public TraceCoverage {
    checkNotNull(format, "format");
    checkNotNull(ranks, "ranks");
  }

  /**
   * Builds a coverage from per-rank coverages.
   *
   * @param format the trace's format
   * @param ranks coverage of each rank, in rank order
   */
  public TraceCoverage(TraceFormat format, List<RankCoverage> ranks) {
    this(format, ImmutableList.copyOf(ranks));
  }

  /** Records in all streams by call name. */
  public ImmutableSortedMap<String, Long> recorded() {
    return sum(RankCoverage::recorded);
  }

  /** Skipped records by call name. */
  public ImmutableSortedMap<String, Long> unmodelled() {
    return sum(RankCoverage::unmodelled);
  }

  /** The footers' calls made, by name (empty without footers). */
  public ImmutableSortedMap<String, Long> footerCalls() {
    return sum(RankCoverage::footerCalls);
  }

  /** The footers' calls not recorded, by name (empty without footers). */
  public ImmutableSortedMap<String, Long> footerIgnored() {
    return sum(RankCoverage::footerIgnored);
  }

  /** Calls returned by kind, over all ranks. */
  public Map<CallKind, Long> modelled() {
    Map<CallKind, Long> out = new EnumMap<>(CallKind.class);
    for (RankCoverage r : ranks) {
      r.modelled().forEach((k, v) -> out.merge(k, v, Long::sum));
    }
    return out;
  }

  private ImmutableSortedMap<String, Long> sum(Function<RankCoverage, Map<String, Long>> part) {
    Map<String, Long> out = new TreeMap<>();
    for (RankCoverage r : ranks) {
      part.apply(r).forEach((k, v) -> out.merge(k, v, Long::sum));
    }
    return ImmutableSortedMap.copyOf(out);
  }

  /**
   * A plain-text report of what the trace leaves out: calls the format's summary says were made but not recorded,
   * records the model skips, and any disagreement between a stream and its footer.
   *
   * @return report lines
   */
  public List<String> report() {
    List<String> lines = new ArrayList<>();
    long records = recorded().values().stream().mapToLong(Long::longValue).sum();
    lines.add(String.format(Locale.ROOT, "%s trace, %d ranks, %d records", format, ranks.size(), records));
    Map<String, Long> calls = footerCalls();
    if (!calls.isEmpty()) {
      Map<String, Long> ignored = footerIgnored();
      long made = calls.values().stream().mapToLong(Long::longValue).sum();
      long notRecorded = ignored.values().stream().mapToLong(Long::longValue).sum();
      lines.add(String.format(Locale.ROOT, "footers: %d calls made, %d not recorded by the tracer (%.1f%%)", made,
          notRecorded, made == 0 ? 0.0 : 100.0 * notRecorded / made));
      calls.forEach((name, n) -> {
        long ig = ignored.getOrDefault(name, 0L);
        if (ig > 0) {
          lines.add(String.format(Locale.ROOT, "  not recorded: %s %d of %d", name, ig, n));
        }
      });
    } else {
      lines.add("the format carries no count of the calls made: what the trace leaves out is unknown");
    }
    unmodelled().forEach((name, n) ->
        lines.add(String.format(Locale.ROOT, "  recorded, not modelled: %s %d", name, n)));
    for (RankCoverage r : ranks) {
      if (!r.footerMismatches().isEmpty()) {
        lines.add(String.format(Locale.ROOT, "  rank %d disagrees with its footer: %s", r.rank(),
            r.footerMismatches()));
      }
    }
    long unknown = ranks.stream().mapToLong(RankCoverage::unknownBytesCalls).sum();
    if (unknown > 0) {
      lines.add(String.format(Locale.ROOT, "  calls with unknown byte counts: %d", unknown));
    }
    return lines;
  }
}
