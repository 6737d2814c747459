package io.github.ariesmodel.traces;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.Maps;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one rank's stream holds and what the model leaves out.
 *
 * <p>Three sources are kept apart, so nothing is guessed:
 * <ul>
 *   <li>{@link #recorded()}: records present in the file, by the format's call name (read from the stream);
 *   <li>{@link #modelled()} and {@link #unmodelled()}: how those records were handled: returned as
 *       {@link TraceCall}s by kind, or skipped by name because the model has no such call;
 *   <li>{@link #footerCalls()} and {@link #footerIgnored()}: what the format itself says about the run, when it says
 *       anything (DUMPI's footer counts every call the application made and the calls the tracer did not record;
 *       SimGrid traces have no such summary, and these maps are empty).
 * </ul>
 *
 * @param rank the rank
 * @param recorded records in the stream by call name
 * @param modelled calls returned, by kind
 * @param unmodelled records skipped because the model has no such call, by call name
 * @param footerCalls calls the application made according to the format's own summary (empty if none)
 * @param footerIgnored calls the tracer saw but did not record, according to the format's summary (empty if none)
 * @param unknownBytesCalls modelled calls with a byte count of {@link TraceCall#UNKNOWN_BYTES}
 * @param complete whether the stream was read to its end
 */
public record RankCoverage(int rank, ImmutableSortedMap<String, Long> recorded, ImmutableMap<CallKind, Long> modelled,
    ImmutableSortedMap<String, Long> unmodelled, ImmutableSortedMap<String, Long> footerCalls,
    ImmutableSortedMap<String, Long> footerIgnored, long unknownBytesCalls, boolean complete) {

  /** Validates the counts. */
  public RankCoverage {
    checkArgument(rank >= 0, "rank must be >= 0, was %s", rank);
    checkNotNull(recorded, "recorded");
    checkNotNull(modelled, "modelled");
    checkNotNull(unmodelled, "unmodelled");
    checkNotNull(footerCalls, "footerCalls");
    checkNotNull(footerIgnored, "footerIgnored");
    checkArgument(unknownBytesCalls >= 0, "unknownBytesCalls must be >= 0, was %s", unknownBytesCalls);
  }

  /**
   * Builds a coverage from mutable tallies (copied).
   *
   * @param rank the rank
   * @param recorded records by call name
   * @param modelled calls returned by kind
   * @param unmodelled records skipped by call name
   * @param footerCalls the format's count of calls made, by name (empty if none)
   * @param footerIgnored the format's count of calls not recorded, by name (empty if none)
   * @param unknownBytesCalls calls with unknown byte counts
   * @param complete whether the stream was read to its end
   * @return the coverage
   */
  public static RankCoverage of(int rank, Map<String, Long> recorded, Map<CallKind, Long> modelled,
      Map<String, Long> unmodelled, Map<String, Long> footerCalls, Map<String, Long> footerIgnored,
      long unknownBytesCalls, boolean complete) {
    return new RankCoverage(rank, ImmutableSortedMap.copyOf(recorded), Maps.immutableEnumMap(modelled),
        ImmutableSortedMap.copyOf(unmodelled), ImmutableSortedMap.copyOf(footerCalls),
        ImmutableSortedMap.copyOf(footerIgnored), unknownBytesCalls, complete);
  }

  /** Whether the format carries its own count of the calls made (DUMPI's footer). */
  public boolean hasFooter() {
    return !footerCalls.isEmpty();
  }

  /** Total records in the stream. */
  public long recordedTotal() {
    return recorded.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Total calls returned as {@link TraceCall}s. */
  public long modelledTotal() {
    return modelled.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Total records skipped. */
  public long unmodelledTotal() {
    return unmodelled.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Calls made according to the footer, 0 without one. */
  public long footerCallsTotal() {
    return footerCalls.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Calls the tracer did not record according to the footer, 0 without one. */
  public long footerIgnoredTotal() {
    return footerIgnored.values().stream().mapToLong(Long::longValue).sum();
  }

  /**
   * Call names whose record count disagrees with the footer (calls made minus calls ignored), with the difference
   * (footer's expectation minus records found). Empty when the stream matches its footer, or has none, or was not
   * read to its end.
   *
   * @return mismatching names and by how much the stream falls short (negative: more records than the footer says)
   */
  public ImmutableSortedMap<String, Long> footerMismatches() {
    if (!hasFooter() || !complete) {
      return ImmutableSortedMap.of();
    }
    Map<String, Long> out = new TreeMap<>();
    for (Map.Entry<String, Long> e : footerCalls.entrySet()) {
      long expected = e.getValue() - footerIgnored.getOrDefault(e.getKey(), 0L);
      long found = recorded.getOrDefault(e.getKey(), 0L);
      if (expected != found) {
        out.put(e.getKey(), expected - found);
      }
    }
    for (Map.Entry<String, Long> e : recorded.entrySet()) {
      if (!footerCalls.containsKey(e.getKey()) && isCountedByFooter(e.getKey())) {
        out.put(e.getKey(), -e.getValue());
      }
    }
    return ImmutableSortedMap.copyOf(out);
  }

  private static boolean isCountedByFooter(String name) {
    // DUMPI's profiled-function markers are records without a footer slot.
    return name.startsWith("MPI");
  }

  /** An empty, mutable tally by kind, for readers. */
  public static Map<CallKind, Long> newKindTally() {
    return new EnumMap<>(CallKind.class);
  }
}
