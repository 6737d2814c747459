package io.github.ariesmodel.core.spi;

import io.github.ariesmodel.core.LittleEndian;

/**
 * A {@link HostMemory} whose reads and writes go through a {@link HostCache}, either on the CPU's path or on the NIC's,
 * with the latency dropped. Allocation is the memory's; giving memory back drops the cache's copies first. Not
 * thread-safe (one scratch word), like the cache itself.
 */
final class HostCacheView implements HostMemory {

  private final HostCache cache;
  private final boolean nic;
  private final byte[] word = new byte[8];

  /**
   * A view.
   *
   * @param cache the cache
   * @param nic true for the NIC's path ({@link HostCache#nicRead}, {@link HostCache#nicWrite}), false for the CPU's
   */
  HostCacheView(HostCache cache, boolean nic) {
    if (cache == null) {
      throw new IllegalArgumentException("cache must not be null");
    }
    this.cache = cache;
    this.nic = nic;
  }

  @Override
  public long capacity() {
    return cache.memory().capacity();
  }

  @Override
  public HostMemory physicalMemory() {
    return cache.memory().physicalMemory();
  }

  @Override
  public void read(long address, byte[] dst, int dstOffset, int length) {
    if (nic) {
      cache.nicRead(address, dst, dstOffset, length);
    } else {
      cache.cpuLoad(address, dst, dstOffset, length);
    }
  }

  @Override
  public void write(long address, byte[] src, int srcOffset, int length) {
    if (nic) {
      cache.nicWrite(address, src, srcOffset, length);
    } else {
      cache.cpuStore(address, src, srcOffset, length);
    }
  }

  @Override
  public long readLong(long address) {
    read(address, word, 0, 8);
    return LittleEndian.get(word, 0, 8);
  }

  @Override
  public void writeLong(long address, long value) {
    LittleEndian.put(word, 0, 8, value);
    write(address, word, 0, 8);
  }

  @Override
  public int readInt(long address) {
    read(address, word, 0, 4);
    return (int) LittleEndian.get(word, 0, 4);
  }

  @Override
  public void writeInt(long address, int value) {
    LittleEndian.put(word, 0, 4, value);
    write(address, word, 0, 4);
  }

  @Override
  public long allocate(long bytes, long alignment) {
    return cache.memory().allocate(bytes, alignment);
  }

  /**
   * {@inheritDoc}
   *
   * <p>The memory gives the range back first; only once it has (true) does the cache drop its copies ({@link
   * HostCache#discard}), so a refusal or a memory that keeps the bytes leaves the cache's newest data in place. A
   * cache that cannot drop lines ({@link HostCache#discards} false) keeps the memory reserved (false).
   */
  @Override
  public boolean free(long address, long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("bytes must be > 0 but was " + bytes);
    }
    if (!cache.discards() || !cache.memory().free(address, bytes)) {
      return false;
    }
    cache.discard(address, bytes);
    return true;
  }

  @Override
  public long allocatedBytes() {
    return cache.memory().allocatedBytes();
  }
}
