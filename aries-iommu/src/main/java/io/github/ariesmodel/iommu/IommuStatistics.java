package io.github.ariesmodel.iommu;

import io.github.ariesmodel.core.spi.TranslationClient;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * A snapshot of an IOMMU's statistics: per {@link TranslationClient}, in total, and the cache-wide counters that
 * belong to no client (invalidations, PTE-line fetches).
 *
 * @param perClient statistics of each of the four clients, iterated in {@link TranslationClient}'s declared order
 * @param total the sum over clients
 * @param invalidations valid lines dropped by invalidation commands and deregistrations, and of page tables
 *     {@link Iommu#deregisterAndFree} gives back (those are no command)
 * @param invalidationCommands invalidation commands executed (each {@code invalidate*} call and each deregistration,
 *     and under {@link PageTables#PER_CONTEXT} each registration, whose placement drops the context's stale lines)
 * @param pteFetches PTE-line reads from host memory, prefetches included
 */
public record IommuStatistics(
    Map<TranslationClient, TranslationStatistics> perClient,
    TranslationStatistics total,
    long invalidations,
    long invalidationCommands,
    long pteFetches) {

  /**
   * Validates and copies the map so the snapshot cannot change.
   *
   * @throws IllegalArgumentException when an argument is null, or {@code perClient} lacks a client or maps one to
   *     null
   */
  public IommuStatistics {
    if (perClient == null) {
      throw new IllegalArgumentException("perClient must not be null");
    }
    if (total == null) {
      throw new IllegalArgumentException("total must not be null");
    }
    // In the clients' declared order on every run (Map.copyOf's order changes from one JVM run to the next), and, as
    // Map.copyOf did, refusing a missing client's statistics.
    // Every client, as client(c) and toString() need (an empty map failed in EnumMap with its own words, a client
    // missing answered null and printed "null", until stop 74).
    java.util.Set<TranslationClient> missing = java.util.EnumSet.allOf(TranslationClient.class);
    missing.removeAll(perClient.keySet());
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException("perClient must hold each of " + java.util.Arrays.toString(
          TranslationClient.values()) + " but lacked " + missing);
    }
    for (TranslationStatistics v : perClient.values()) { // (containsValue(null) throws on immutable maps)
      if (v == null) {
        throw new IllegalArgumentException("perClient must not map a client to null");
      }
    }
    perClient = Collections.unmodifiableMap(new EnumMap<>(perClient));
  }

  /** @param client a client @return its statistics */
  public TranslationStatistics client(TranslationClient client) {
    if (client == null) {
      throw new IllegalArgumentException("client must not be null");
    }
    return perClient.get(client);
  }

  /**
   * A few lines: each of the four clients (shown even when idle), the total, and the cache-wide counters; histograms
   * appear as summaries (see {@link TranslationStatistics#toString()}).
   */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("IommuStatistics\n");
    for (TranslationClient c : TranslationClient.values()) {
      b.append("  ").append(c).append(": ").append(perClient.get(c)).append('\n');
    }
    return b.append("  TOTAL: ").append(total).append('\n')
        .append("  invalidations=").append(invalidations).append(" invalidationCommands=")
        .append(invalidationCommands).append(" pteFetches=").append(pteFetches)
        .toString();
  }
}
