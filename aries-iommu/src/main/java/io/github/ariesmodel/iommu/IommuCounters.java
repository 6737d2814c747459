package io.github.ariesmodel.iommu;

import io.github.ariesmodel.core.spi.TranslationClient;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;

/**
 * The IOMMU's performance counters, per {@link TranslationClient}, each kind keyed by an enum so a new stall cause
 * or event gets its own counter (aries-facts §4 [S6c] lists the hardware's: PTE-cache hits, misses, evictions,
 * 1-level and 2-level translations, OFB and all-ways-pending stalls; the model adds merged misses, faults, prefetches
 * and latency). Latency histograms are made on a client's first completion.
 *
 * <p>The live histograms are HdrHistogram's {@code PackedHistogram}: the same buckets as {@code Histogram} (so every
 * statistic is the same), but counts kept in a packed array that takes room only for the buckets holding counts. A
 * flat {@code Histogram} holds a long for every bucket up to the largest value recorded: 49,664 B for one 27 ns
 * latency, 139,776 B with a 40 us one (measured, HdrHistogram 2.2.2), up to four per node, so a run that touched
 * every node of a large system held hundreds of MB of them (stop 78). A packed one took 320 B for those, 7,328 B for
 * a million latencies spread over 0.5-2.5 us (flat: 107,008 B). Snapshots copy into flat histograms, as before, so
 * reading percentiles from them stays as fast; the copy reads every bucket of the packed array, slower than from a
 * flat one (~0.4 against ~0.035 ms a client with a 40 us maximum), but a snapshot's own flat histograms cost as much
 * (768 snapshots of a 256-PE gups run: 454 ms with packed live histograms, 667 ms with flat ones).
 */
final class IommuCounters {

  /** What is counted per client, apart from stalls (counted by {@link StallCause}). */
  enum Event {
    TRANSLATIONS,
    HITS,
    MISSES,
    MERGED_MISSES,
    EVICTIONS,
    FAULTS,
    ONE_LEVEL_WALKS,
    TWO_LEVEL_WALKS,
    PREFETCHES,
    /** Not an event count: the sum of latencies, picoseconds. */
    LATENCY_PS
  }

  private static final TranslationClient[] CLIENTS = TranslationClient.values();
  private static final int EVENTS = Event.values().length;
  private static final int CAUSES = StallCause.values().length;

  private final long[][] events = new long[CLIENTS.length][EVENTS];
  private final long[][] stalls = new long[CLIENTS.length][CAUSES];
  private final Histogram[] latency = new Histogram[CLIENTS.length];
  // Fast hits not yet counted, per client and walk depth (index 2 × client + 1 for two-level walks): all of one
  // latency (the hit latency), added to the event counters, the latency sum and the histogram in one step when the
  // latency changes (or dropped when they are zeroed). Sums and histograms hold counts, so when a value was added does not
  // matter: the statistics are those of counting each hit at once. One increment per fast hit. Reading adds the
  // pending hits to the reader's copy and writes nothing (a snapshot taken on another thread during a run used to add
  // them to the counters from that thread, racing the run's own increments, and changed the run's final counts).
  private final long[] pendingFastHits = new long[2 * CLIENTS.length];
  private long pendingLatencyPs = -1;

  /** Adds one to an event counter. */
  void count(TranslationClient client, Event event) {
    events[client.ordinal()][event.ordinal()]++;
  }

  /** Adds one to a stall counter. */
  void countStall(TranslationClient client, StallCause cause) {
    stalls[client.ordinal()][cause.ordinal()]++;
  }

  /**
   * Counts a hit completed by the fast path: a translation, a hit, its walk and its latency, as the completion event
   * of the event path counts them (batched: see {@link #flushFastHits}).
   */
  void countFastHit(TranslationClient client, boolean twoLevel, long latencyPs) {
    if (latencyPs != pendingLatencyPs) {
      flushFastHits();
      pendingLatencyPs = latencyPs;
    }
    pendingFastHits[2 * client.ordinal() + (twoLevel ? 1 : 0)]++;
  }

  /** Adds the pending fast hits to the event counters, the latency sums and the histograms. */
  private void flushFastHits() {
    for (int c = 0; c < CLIENTS.length; c++) {
      long oneLevel = pendingFastHits[2 * c];
      long twoLevel = pendingFastHits[2 * c + 1];
      long n = oneLevel + twoLevel;
      if (n > 0) {
        long[] e = events[c];
        e[Event.TRANSLATIONS.ordinal()] += n;
        e[Event.HITS.ordinal()] += n;
        e[Event.ONE_LEVEL_WALKS.ordinal()] += oneLevel;
        e[Event.TWO_LEVEL_WALKS.ordinal()] += twoLevel;
        e[Event.LATENCY_PS.ordinal()] += n * pendingLatencyPs;
        histogram(c).recordValueWithCount(pendingLatencyPs, n);
        pendingFastHits[2 * c] = 0;
        pendingFastHits[2 * c + 1] = 0;
      }
    }
  }

  private Histogram histogram(int c) {
    Histogram h = latency[c];
    if (h == null) {
      h = new PackedHistogram(LatencyHistogram.DIGITS);
      latency[c] = h;
    }
    return h;
  }

  /** Adds a completed translation's latency to the sum and the histogram. */
  void recordLatency(TranslationClient client, long latencyPs) {
    int c = client.ordinal();
    events[c][Event.LATENCY_PS.ordinal()] += latencyPs;
    histogram(c).recordValue(latencyPs);
  }

  /** @return the bytes HdrHistogram estimates the live latency histograms hold, all clients together */
  long latencyHistogramFootprintBytes() {
    long bytes = 0;
    for (Histogram h : latency) {
      bytes += h == null ? 0 : h.getEstimatedFootprintInBytes();
    }
    return bytes;
  }

  /** @return one counter's value, the pending fast hits included (read-only) */
  long get(TranslationClient client, Event event) {
    int c = client.ordinal();
    return events[c][event.ordinal()] + pendingOf(event.ordinal(), pendingFastHits[2 * c],
        pendingFastHits[2 * c + 1], pendingLatencyPs);
  }

  /** What a client's pending fast hits add to one event counter. */
  private static long pendingOf(int event, long oneLevel, long twoLevel, long latencyPs) {
    long n = oneLevel + twoLevel;
    if (n == 0) {
      return 0;
    }
    if (event == Event.TRANSLATIONS.ordinal() || event == Event.HITS.ordinal()) {
      return n;
    } else if (event == Event.ONE_LEVEL_WALKS.ordinal()) {
      return oneLevel;
    } else if (event == Event.TWO_LEVEL_WALKS.ordinal()) {
      return twoLevel;
    } else if (event == Event.LATENCY_PS.ordinal()) {
      return n * latencyPs;
    }
    return 0;
  }

  /** @return one stall counter's value */
  long get(TranslationClient client, StallCause cause) {
    return stalls[client.ordinal()][cause.ordinal()];
  }

  /** Zeroes every counter and histogram. */
  void reset() {
    Arrays.fill(pendingFastHits, 0);
    for (int c = 0; c < CLIENTS.length; c++) {
      Arrays.fill(events[c], 0);
      Arrays.fill(stalls[c], 0);
      if (latency[c] != null) {
        latency[c].reset();
      }
    }
  }

  /**
   * A snapshot, per client and summed; a null {@code counters} (an IOMMU that never translated) gives zeros.
   *
   * @return statistics of each client (all four, zeros included), of all together, and the cache-wide counters given
   */
  static IommuStatistics snapshot(
      IommuCounters counters, long invalidations, long invalidationCommands, long pteFetches) {
    // Read-only: the pending fast hits are added to the copies below, the counters keep them (see pendingFastHits).
    long latencyPs = counters == null ? 0 : counters.pendingLatencyPs;
    Map<TranslationClient, TranslationStatistics> per = new EnumMap<>(TranslationClient.class);
    long[] totalEvents = new long[EVENTS];
    long[] totalStalls = new long[CAUSES];
    Histogram all = new Histogram(LatencyHistogram.DIGITS);
    for (TranslationClient c : CLIENTS) {
      long[] e = new long[EVENTS];
      long[] s = new long[CAUSES];
      Histogram h = new Histogram(LatencyHistogram.DIGITS);
      if (counters != null) {
        int i = c.ordinal();
        System.arraycopy(counters.events[i], 0, e, 0, EVENTS);
        System.arraycopy(counters.stalls[i], 0, s, 0, CAUSES);
        long oneLevel = counters.pendingFastHits[2 * i];
        long twoLevel = counters.pendingFastHits[2 * i + 1];
        for (int k = 0; k < EVENTS; k++) {
          e[k] += pendingOf(k, oneLevel, twoLevel, latencyPs);
        }
        if (counters.latency[i] != null) {
          h.add(counters.latency[i]);
        }
        if (oneLevel + twoLevel > 0) {
          h.recordValueWithCount(latencyPs, oneLevel + twoLevel);
        }
        all.add(h);
      }
      per.put(c, statistics(e, s, h));
      for (int k = 0; k < EVENTS; k++) {
        totalEvents[k] += e[k];
      }
      for (int k = 0; k < CAUSES; k++) {
        totalStalls[k] += s[k];
      }
    }
    return new IommuStatistics(per, statistics(totalEvents, totalStalls, all), invalidations, invalidationCommands,
        pteFetches);
  }

  private static TranslationStatistics statistics(long[] e, long[] s, Histogram h) {
    return new TranslationStatistics(e[Event.TRANSLATIONS.ordinal()], e[Event.HITS.ordinal()],
        e[Event.MISSES.ordinal()], e[Event.MERGED_MISSES.ordinal()], e[Event.EVICTIONS.ordinal()],
        e[Event.FAULTS.ordinal()], s[StallCause.ALL_WAYS_PENDING.ordinal()], s[StallCause.NO_FETCH_BUFFER.ordinal()],
        s[StallCause.IN_FLIGHT_LIMIT.ordinal()], e[Event.ONE_LEVEL_WALKS.ordinal()],
        e[Event.TWO_LEVEL_WALKS.ordinal()], e[Event.PREFETCHES.ordinal()], e[Event.LATENCY_PS.ordinal()],
        new LatencyHistogram(h));
  }
}
