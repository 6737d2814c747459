package io.github.ariesmodel.core.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.cache.HostCacheConfig;
import io.github.ariesmodel.core.cache.SetAssociativeHostCache;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Giving memory back through a cache's view: the memory agrees first, and only then does the cache drop its copies, so
 * a refusal, or a memory that keeps what it reserved, loses none of the cache's newest data.
 */
class HostCacheViewFreeTest {

  private static SetAssociativeHostCache cache(HostMemory memory) {
    return new SetAssociativeHostCache(memory, HostCacheConfig.xc40().withGeometry(64 << 10, 64, 4));
  }

  private static byte[] filled(int n, int value) {
    byte[] b = new byte[n];
    Arrays.fill(b, (byte) value);
    return b;
  }

  private static byte[] read(HostMemory m, long at, int n) {
    byte[] b = new byte[n];
    m.read(at, b, 0, n);
    return b;
  }

  @Test
  void aRefusedFreeLeavesTheCachesDirtyLinesAsTheyWere() {
    SetAssociativeHostCache c = cache(new SparsePhysicalMemory(8 << 20));
    HostMemory view = c.cpuView();
    long a = view.allocate(8192, 4096);
    view.write(a, filled(8192, 0x55), 0, 8192);
    assertThat(c.holdsDirty(a)).isTrue();
    assertThatThrownBy(() -> view.free(a, 8193)).as("one byte past the highest reservation")
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(read(view, a, 8192)).as("the bytes after the refusal").containsOnly((byte) 0x55);
  }

  @Test
  void aMemoryThatKeepsWhatItReservedKeepsTheCachesData() {
    SparsePhysicalMemory inner = new SparsePhysicalMemory(8 << 20);
    HostMemory keeping = new ForwardingHostMemory(inner) { // everything the inner memory's but free: the default
      @Override
      public boolean free(long address, long bytes) {
        if (bytes <= 0) {
          throw new IllegalArgumentException("bytes must be > 0 but was " + bytes);
        }
        return false; // the SPI's default: the memory keeps the bytes
      }
    };
    SetAssociativeHostCache c = cache(keeping);
    HostMemory view = c.cpuView();
    long a = view.allocate(4096, 4096);
    view.write(a, filled(4096, 0x66), 0, 4096);
    assertThat(view.free(a, 4096)).isFalse();
    assertThat(read(view, a, 4096)).containsOnly((byte) 0x66);
    assertThat(c.holdsDirty(a)).as("the line, still dirty in the cache").isTrue();
  }

  @Test
  void aDirtyLineTheRangeCoversInPartKeepsTheBytesOutsideIt() {
    SetAssociativeHostCache c = cache(new SparsePhysicalMemory(8 << 20));
    HostMemory view = c.cpuView();
    long b = view.allocate(100, 64); // bytes 0-99; its second line holds b's 36 last bytes and c's first 28
    long after = view.allocate(28, 1);
    assertThat(after).isEqualTo(b + 100);
    view.write(b, filled(100, 0x11), 0, 100);
    view.write(after, filled(28, 0x22), 0, 28);
    assertThat(view.free(b, 100)).isTrue();
    assertThat(c.holds(b)).as("the line wholly inside, dropped").isFalse();
    assertThat(c.holds(after)).as("the line shared with the other allocation, dropped after its write-back")
        .isFalse();
    assertThat(read(c.memory(), after, 28)).as("the other allocation's bytes, in memory").containsOnly((byte) 0x22);
    assertThat(read(view, after, 28)).as("the other allocation's bytes in the shared line").containsOnly((byte) 0x22);
    assertThat(read(view, b, 100)).as("the bytes given back").containsOnly((byte) 0);
  }

  @Test
  void aCacheThatCannotDropLinesKeepsTheMemoryReserved() {
    SparsePhysicalMemory memory = new SparsePhysicalMemory(8 << 20);
    HostCache plain = new HostCache() { // the SPI's defaults for discards() and discard
      @Override
      public HostMemory memory() {
        return memory;
      }

      @Override
      public long cpuLoad(long address, byte[] dst, int dstOffset, int length) {
        memory.read(address, dst, dstOffset, length);
        return 0;
      }

      @Override
      public long cpuStore(long address, byte[] src, int srcOffset, int length) {
        memory.write(address, src, srcOffset, length);
        return 0;
      }

      @Override
      public long nicWrite(long address, byte[] src, int srcOffset, int length) {
        memory.write(address, src, srcOffset, length);
        return 0;
      }

      @Override
      public long nicRead(long address, byte[] dst, int dstOffset, int length) {
        memory.read(address, dst, dstOffset, length);
        return 0;
      }

      @Override
      public long count(HostCacheStatistic statistic) {
        return 0;
      }
    };
    long a = plain.nicView().allocate(4096, 4096);
    plain.nicView().writeLong(a, 9);
    assertThat(plain.nicView().free(a, 4096)).isFalse();
    assertThat(memory.allocatedBytes()).isEqualTo(4096);
    assertThat(memory.readLong(a)).isEqualTo(9);
  }
}
