package io.github.ariesmodel.iommu;

import java.util.Locale;

/**
 * Counters of completed translations for one client, or for all (a snapshot; see {@link Iommu#statistics()}). They
 * mirror the Aries IOMMU's performance counters (aries-facts §4 [S6c]: PTE-cache hits, misses, evictions, 1-level and
 * 2-level translations completed, OFB and all-ways-pending stalls) plus what the model adds (merged misses, faults,
 * latency).
 *
 * <p>Each translation that walked the page table counts as exactly one of: a hit (every line it needed was valid), a
 * miss (it started at least one PTE-line fetch) or a merged miss (it waited for a fetch another request started).
 * Translations rejected by the MDD checks count only in {@code translations} and {@code faults}.
 *
 * @param translations completed translations, including faults
 * @param hits translations served from the cache alone
 * @param misses translations that fetched a PTE line
 * @param mergedMisses translations that waited for another request's fetch
 * @param evictions valid lines evicted to make room for this client's fetches (including its prefetches)
 * @param faults translations that completed with a fault status
 * @param stallsAllWaysPending requests that waited because every way of a set was pending
 * @param stallsNoFetchBuffer requests that waited for an outstanding fetch buffer
 * @param stallsInFlightLimit requests that waited because the in-flight limit was reached
 * @param oneLevelWalks successful translations through a one-level table (huge pages)
 * @param twoLevelWalks successful translations through a two-level table (4 KB pages)
 * @param prefetches next-line prefetches started on this client's misses
 * @param totalLatencyPs sum of latencies from {@code translate} to completion, picoseconds
 * @param latencyPs histogram of those latencies, picoseconds (until stop 74 an {@code org.HdrHistogram.Histogram}: the
 *     library's type is no longer part of the API)
 */
public record TranslationStatistics(
    long translations,
    long hits,
    long misses,
    long mergedMisses,
    long evictions,
    long faults,
    long stallsAllWaysPending,
    long stallsNoFetchBuffer,
    long stallsInFlightLimit,
    long oneLevelWalks,
    long twoLevelWalks,
    long prefetches,
    long totalLatencyPs,
    LatencyHistogram latencyPs) {

  /** Validates the histogram. */
  public TranslationStatistics {
    if (latencyPs == null) {
      throw new IllegalArgumentException("latencyPs must not be null");
    }
  }

  /** @return stalls of every cause */
  public long stalls() {
    return stallsAllWaysPending + stallsNoFetchBuffer + stallsInFlightLimit;
  }

  /** @param cause a cause @return stalls of that cause */
  public long stalls(StallCause cause) {
    if (cause == null) {
      throw new IllegalArgumentException("cause must not be null");
    }
    switch (cause) {
      case ALL_WAYS_PENDING:
        return stallsAllWaysPending;
      case NO_FETCH_BUFFER:
        return stallsNoFetchBuffer;
      default:
        return stallsInFlightLimit;
    }
  }

  /** @return hits / (hits + misses + merged misses), or 0 when nothing walked */
  public double hitRate() {
    long walked = hits + misses + mergedMisses;
    return walked == 0 ? 0 : (double) hits / walked;
  }

  /** @return mean latency in nanoseconds, or 0 when there were no translations */
  public double meanLatencyNs() {
    return translations == 0 ? 0 : totalLatencyPs / 1000.0 / translations;
  }

  /**
   * A latency percentile.
   *
   * @param percentile 0..100 (NaN is refused)
   * @return the latency at that percentile, nanoseconds (histogram precision: 3 significant digits)
   */
  public double latencyPercentileNs(double percentile) {
    if (!(percentile >= 0 && percentile <= 100)) { // NaN too
      throw new IllegalArgumentException("percentile must be in [0, 100] but was " + percentile);
    }
    return latencyPs.percentilePs(percentile) / 1000.0;
  }

  /**
   * One line: the counters, then the latency histogram as a summary (count, mean, p50, p99 and max, nanoseconds), for
   * example {@code translations=2 hits=1 misses=1 ... latency ns: count=2 mean=105.0 p50=10.0 p99=200.0 max=200.0}.
   */
  @Override
  public String toString() {
    long count = latencyPs.count();
    return "translations=" + translations + " hits=" + hits + " misses=" + misses + " merged=" + mergedMisses
        + " evictions=" + evictions + " faults=" + faults + " stalls(all-ways-pending=" + stallsAllWaysPending
        + " no-fetch-buffer=" + stallsNoFetchBuffer + " in-flight-limit=" + stallsInFlightLimit + ") one-level="
        + oneLevelWalks + " two-level=" + twoLevelWalks + " prefetches=" + prefetches + " latency ns: count=" + count
        + " mean=" + ns(meanLatencyNs()) + " p50=" + ns(latencyPercentileNs(50)) + " p99="
        + ns(latencyPercentileNs(99)) + " max=" + ns(latencyPs.maxPs() / 1000.0);
  }

  private static String ns(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }
}
