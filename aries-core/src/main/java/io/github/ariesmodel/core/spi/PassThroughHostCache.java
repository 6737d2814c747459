package io.github.ariesmodel.core.spi;


/**
 * No cache ({@link HostCache#none}): every access goes straight to memory and costs nothing, so a simulation keeps the
 * timing it had before the host cache existed. CPU accesses count as misses, NIC writes as {@link
 * HostCacheStatistic#NIC_WRITE_MISS} and NIC reads as {@link HostCacheStatistic#NIC_READ_MEMORY}, one per 64-byte
 * line touched.
 */
final class PassThroughHostCache implements HostCache {

  private static final int LINE_SHIFT = 6;

  private final HostMemory memory;
  private final long[] counts = new long[HostCacheStatistic.values().length];

  /** @param memory the node's memory */
  PassThroughHostCache(HostMemory memory) {
    if (memory == null) {
      throw new IllegalArgumentException("memory must not be null");
    }
    this.memory = memory;
  }

  @Override
  public HostMemory memory() {
    return memory;
  }

  @Override
  public long cpuLoad(long address, byte[] dst, int dstOffset, int length) {
    memory.read(address, dst, dstOffset, length);
    counts[HostCacheStatistic.CPU_LOAD_MISS.ordinal()] += lines(address, length);
    return 0;
  }

  @Override
  public long cpuStore(long address, byte[] src, int srcOffset, int length) {
    memory.write(address, src, srcOffset, length);
    counts[HostCacheStatistic.CPU_STORE_MISS.ordinal()] += lines(address, length);
    return 0;
  }

  @Override
  public long nicWrite(long address, byte[] src, int srcOffset, int length) {
    memory.write(address, src, srcOffset, length);
    counts[HostCacheStatistic.NIC_WRITE_MISS.ordinal()] += lines(address, length);
    return 0;
  }

  @Override
  public long nicRead(long address, byte[] dst, int dstOffset, int length) {
    memory.read(address, dst, dstOffset, length);
    counts[HostCacheStatistic.NIC_READ_MEMORY.ordinal()] += lines(address, length);
    return 0;
  }

  @Override
  public boolean discards() {
    return true;
  }

  /** Holds no copies: only checks the range. */
  @Override
  public void discard(long address, long bytes) {
    long capacity = memory.capacity();
    if (bytes < 0 || address < 0 || address > capacity - bytes) {
      throw new IllegalArgumentException("physical range [0x" + Long.toHexString(address) + ", +" + bytes
          + ") must lie within [0, 0x" + Long.toHexString(capacity) + ")");
    }
  }

  @Override
  public long count(HostCacheStatistic statistic) {
    if (statistic == null) {
      throw new IllegalArgumentException("statistic must not be null");
    }
    return counts[statistic.ordinal()];
  }

  @Override
  public String toString() {
    return "none";
  }

  private static long lines(long address, int length) {
    return length == 0 ? 0 : ((address + length - 1) >>> LINE_SHIFT) - (address >>> LINE_SHIFT) + 1;
  }
}
