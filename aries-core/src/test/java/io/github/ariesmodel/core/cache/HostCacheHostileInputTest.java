package io.github.ariesmodel.core.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.HostCache;
import io.github.ariesmodel.core.spi.HostCacheStatistic;
import io.github.ariesmodel.core.spi.HostMemory;
import org.junit.jupiter.api.Test;

/** Hostile input to the host cache's adapters and configuration: one line naming the parameter, nothing changed. */
class HostCacheHostileInputTest {

  @Test
  void theNoneCacheNamesANullStatisticAndCountsOn() {
    HostCache none = HostCache.none(new SparsePhysicalMemory(1 << 20));
    none.cpuLoad(0, new byte[8], 0, 8);
    assertThatThrownBy(() -> none.count(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("statistic must not be null");
    assertThat(none.count(HostCacheStatistic.CPU_LOAD_MISS)).isEqualTo(1);
  }

  @Test
  void aNullArrayIsNamedAsNullNotAsARange() {
    SetAssociativeHostCache c = new SetAssociativeHostCache(new SparsePhysicalMemory(1 << 20), HostCacheConfig.xc40());
    assertThatThrownBy(() -> c.cpuLoad(0, null, 0, 8)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dst must not be null");
    assertThatThrownBy(() -> c.cpuStore(0, null, 0, 8)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("src must not be null");
    assertThatThrownBy(() -> c.nicWrite(0, null, 0, 8)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("src must not be null");
    assertThatThrownBy(() -> c.nicRead(0, null, 0, 8)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dst must not be null");
    assertThat(c.residentLines()).isZero();
    for (HostCacheStatistic s : HostCacheStatistic.values()) {
      assertThat(c.count(s)).as(s.name()).isZero();
    }
  }

  /** A memory of {@code capacity} bytes (any number, as the port allows), held in an array. */
  private static HostMemory arrayMemory(int capacity) {
    SparsePhysicalMemory backing = new SparsePhysicalMemory(4096);
    return new HostMemory() {
      @Override
      public long capacity() {
        return capacity;
      }

      private void check(long address, int length) {
        if (address < 0 || length < 0 || address > capacity - length) {
          throw new IllegalArgumentException("address " + address + " + " + length + " is outside " + capacity);
        }
      }

      @Override
      public void read(long address, byte[] dst, int dstOffset, int length) {
        check(address, length);
        backing.read(address, dst, dstOffset, length);
      }

      @Override
      public void write(long address, byte[] src, int srcOffset, int length) {
        check(address, length);
        backing.write(address, src, srcOffset, length);
      }

      @Override
      public long readLong(long address) {
        check(address, 8);
        return backing.readLong(address);
      }

      @Override
      public void writeLong(long address, long value) {
        check(address, 8);
        backing.writeLong(address, value);
      }

      @Override
      public int readInt(long address) {
        check(address, 4);
        return backing.readInt(address);
      }

      @Override
      public void writeInt(long address, int value) {
        check(address, 4);
        backing.writeInt(address, value);
      }

      @Override
      public long allocate(long bytes, long alignment) {
        throw new UnsupportedOperationException();
      }

      @Override
      public long allocatedBytes() {
        return 0;
      }
    };
  }

  @Test
  void aMemoryThatIsNotWholeLinesIsRefusedWhenTheCacheIsMade() {
    // A 100-byte memory's last line is cut short: a load of byte 96 (inside the memory) filled the whole line
    // 64-127 and failed with the memory's own error about bytes the caller never asked for.
    HostMemory odd = arrayMemory(100);
    assertThatThrownBy(() -> new SetAssociativeHostCache(odd, HostCacheConfig.xc40()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("memory.capacity() must be a multiple of lineBytes (64) but was 100");
    HostMemory whole = arrayMemory(128);
    SetAssociativeHostCache c = new SetAssociativeHostCache(whole, HostCacheConfig.xc40());
    byte[] b = new byte[4];
    assertThat(c.cpuLoad(124, b, 0, 4)).isEqualTo(HostCacheConfig.DEFAULT_MEMORY_PS);
  }
}
