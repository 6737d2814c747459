package io.github.ariesmodel.core.spi;

/**
 * A node's coherent last-level cache in front of its {@link HostMemory} (a driven port): the host CPU loads and stores
 * through it, and the NIC's writes and reads of host memory meet it on their way to memory.
 *
 * <p>The system this project models is cache-coherent but caches only a node's own memory: remote data never enters a
 * cache except as local memory that a GET wrote. When the NIC writes a line the cache holds, the configured {@link
 * NicWritePolicy} decides what happens ({@link NicWritePolicy#UPDATE}, the default, updates the line in place).
 * Whatever the policy, every read returns the newest data, wherever it is (a dirty line in the cache, or memory).
 *
 * <p>Each access returns its latency in picoseconds; the caller decides how that time is spent (a CPU stalls, a NIC
 * write is posted). An access that spans several lines costs the slowest of its lines (line fills overlap; bandwidth
 * is not modelled). Zero-length accesses cost nothing and count nothing.
 *
 * <p>Adapters: {@link io.github.ariesmodel.core.cache.SetAssociativeHostCache} (a set-associative write-back cache
 * with LRU replacement) and {@link #none(HostMemory)} (no cache, no latency: the host as the model treated it before
 * there was a cache). Addresses out of the memory's range are caller mistakes, as for {@link HostMemory}.
 */
public interface HostCache {

  /** @return the memory behind the cache */
  HostMemory memory();

  /**
   * A CPU load.
   *
   * @param address first physical address
   * @param dst destination array
   * @param dstOffset first index written in dst
   * @param length bytes to load
   * @return latency in picoseconds
   */
  long cpuLoad(long address, byte[] dst, int dstOffset, int length);

  /**
   * A CPU store (write-back, write-allocate where the adapter caches).
   *
   * @param address first physical address
   * @param src source array
   * @param srcOffset first index read in src
   * @param length bytes to store
   * @return latency in picoseconds
   */
  long cpuStore(long address, byte[] src, int srcOffset, int length);

  /**
   * A NIC write of host memory (PUT data at the target, GET data at the initiator, AMO results, completion events),
   * handled by the configured {@link NicWritePolicy}.
   *
   * @param address first physical address
   * @param src source array
   * @param srcOffset first index read in src
   * @param length bytes to write
   * @return latency in picoseconds until the write is visible to the host
   */
  long nicWrite(long address, byte[] src, int srcOffset, int length);

  /**
   * A NIC read of host memory (PUT source data, GET responses, AMO operands; the IOMMU reads its page tables from memory, not through here): sees the newest data.
   *
   * @param address first physical address
   * @param dst destination array
   * @param dstOffset first index written in dst
   * @param length bytes to read
   * @return latency in picoseconds
   */
  long nicRead(long address, byte[] dst, int dstOffset, int length);

  /**
   * A counter.
   *
   * @param statistic which
   * @return its value, one per cache line touched
   */
  long count(HostCacheStatistic statistic);

  /**
   * Whether the cache can drop its copies of memory given back ({@link #discard}). The views give memory back only
   * through a cache that can ({@link #cpuView()}, {@link #nicView()}); the default is false, so they keep it reserved.
   *
   * @return true when {@link #discard} is implemented
   */
  default boolean discards() {
    return false;
  }

  /**
   * Drops the cache's copies of bytes memory has just given back ({@link HostMemory#free} answered true): a line
   * wholly inside the range goes without being written back (its data belongs to nobody any more); of a dirty line
   * the range covers in part, only the bytes outside the range are written back, so they keep their newest value and
   * the bytes given back stay zero. Counts nothing but those write-backs. Called by the views, after the memory
   * agreed; a cache that cannot drop lines says so ({@link #discards}) and is never asked.
   *
   * @param address first byte
   * @param bytes bytes, ≥ 0
   * @throws IllegalArgumentException when the range lies outside the memory; nothing is dropped then
   * @throws UnsupportedOperationException from the default, for a cache that does not {@link #discards}
   */
  default void discard(long address, long bytes) {
    throw new UnsupportedOperationException("this host cache cannot drop lines (discards() is false)");
  }

  /**
   * The host memory as the CPU sees it: reads are {@link #cpuLoad}s and writes {@link #cpuStore}s, latency dropped.
   * For code that needs the data and not the time (a programming model's untimed local access).
   *
   * @return a view over this cache
   */
  default HostMemory cpuView() {
    return new HostCacheView(this, false);
  }

  /**
   * The host memory as the NIC sees it: reads are {@link #nicRead}s and writes {@link #nicWrite}s, latency dropped.
   * Handing this view to a NIC (or IOMMU) in place of the raw memory routes all of its accesses through the cache.
   *
   * @return a view over this cache
   */
  default HostMemory nicView() {
    return new HostCacheView(this, true);
  }

  /**
   * No cache: every access goes to memory at no cost, CPU accesses count as misses and NIC ones as memory accesses.
   * For studies that ignore the host cache; it leaves a simulation's timing as it was without one.
   *
   * @param memory the node's memory
   * @return a pass-through cache
   */
  static HostCache none(HostMemory memory) {
    return new PassThroughHostCache(memory);
  }
}
