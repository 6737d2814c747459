package io.github.ariesmodel.core.spi;

/**
 * What a {@link HostCache} counts, one count per cache line an access touches (an access that spans two lines counts
 * twice).
 *
 * <p>Identities every implementation keeps: CPU loads = {@link #CPU_LOAD_HIT} + {@link #CPU_LOAD_MISS}; CPU stores =
 * {@link #CPU_STORE_HIT} + {@link #CPU_STORE_MISS}; NIC writes = {@link #NIC_WRITE_UPDATED} + {@link
 * #NIC_WRITE_INVALIDATED} + {@link #NIC_WRITE_MISS} + {@link #NIC_WRITE_BYPASSED} + {@link #NIC_WRITE_ALLOCATED}, of
 * which only the ones of the configured {@link NicWritePolicy} are non-zero ({@link NicWritePolicy#ALLOCATE} counts a
 * write to a cached line as updated, one to a line not cached as allocated); NIC reads = {@link #NIC_READ_CACHE} +
 * {@link #NIC_READ_MEMORY}.
 */
public enum HostCacheStatistic {
  /** A CPU load of a cached line. */
  CPU_LOAD_HIT,
  /** A CPU load that filled the line from memory. */
  CPU_LOAD_MISS,
  /** A CPU store to a cached line. */
  CPU_STORE_HIT,
  /** A CPU store that filled the line from memory first (write-allocate). */
  CPU_STORE_MISS,
  /**
   * A NIC write that updated a cached line in place ({@link NicWritePolicy#UPDATE}, or {@link NicWritePolicy#ALLOCATE}
   * on a cached line).
   */
  NIC_WRITE_UPDATED,
  /** A NIC write that dropped a cached line and went to memory ({@link NicWritePolicy#INVALIDATE}). */
  NIC_WRITE_INVALIDATED,
  /** A NIC write of a line not cached, under {@link NicWritePolicy#UPDATE} or {@link NicWritePolicy#INVALIDATE}. */
  NIC_WRITE_MISS,
  /** A NIC write under {@link NicWritePolicy#BYPASS}, cached or not. */
  NIC_WRITE_BYPASSED,
  /** A cached line dropped because a {@link NicWritePolicy#BYPASS} write went around it. */
  BACK_INVALIDATION,
  /** A NIC read served by the cache. */
  NIC_READ_CACHE,
  /** A NIC read served by memory. */
  NIC_READ_MEMORY,
  /** A valid line replaced to make room for another. */
  EVICTION,
  /** A dirty line copied back to memory (on eviction, invalidation, or a bypassing NIC read). */
  WRITEBACK,
  /** A NIC write that allocated a line that was not cached ({@link NicWritePolicy#ALLOCATE}). */
  NIC_WRITE_ALLOCATED
}
