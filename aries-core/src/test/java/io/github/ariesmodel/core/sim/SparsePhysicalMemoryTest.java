package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SparsePhysicalMemoryTest {

  @Test
  void aHugeMemoryCostsNothingUntilWrittenAndReadsZero() {
    SparsePhysicalMemory mem = new SparsePhysicalMemory(1L << 52);
    assertThat(mem.capacity()).isEqualTo(1L << 52);
    assertThat(mem.readLong((1L << 52) - 8)).isZero();
    assertThat(mem.materializedPages()).isZero();
    mem.writeLong((1L << 52) - 8, 0x0102030405060708L);
    assertThat(mem.materializedPages()).isEqualTo(1);
    assertThat(mem.readInt((1L << 52) - 8)).isEqualTo(0x05060708);
    assertThat(mem.readInt((1L << 52) - 4)).isEqualTo(0x01020304);
  }

  @Test
  void wordsAreLittleEndianAcrossAPageBoundary() {
    SparsePhysicalMemory mem = new SparsePhysicalMemory(1 << 16);
    mem.writeLong(4092, 0x1122334455667788L);
    byte[] b = new byte[8];
    mem.read(4092, b, 0, 8);
    assertThat(b).containsExactly(0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11);
    assertThat(mem.materializedPages()).isEqualTo(2);
  }

  @Test
  void aNullArrayOrAnOffsetPastTheArrayIsRefusedAndNothingIsWritten() {
    SparsePhysicalMemory mem = new SparsePhysicalMemory(1 << 16);
    assertThatThrownBy(() -> mem.write(4096, null, 0, 8))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("src must not be null");
    assertThatThrownBy(() -> mem.read(4096, null, 0, 8))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("dst must not be null");
    // srcOffset + length overflowed int and passed the check; System.arraycopy then threw an index exception.
    assertThatThrownBy(() -> mem.write(4096, new byte[8], Integer.MAX_VALUE, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("srcOffset + length must be within src (8 bytes) but were 2147483647 + 1");
    assertThatThrownBy(() -> mem.read(4096, new byte[8], Integer.MAX_VALUE, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dstOffset + length must be within dst (8 bytes) but were 2147483647 + 1");
    assertThat(mem.materializedPages()).isZero();
  }

  @Test
  void outOfRangeAccessesAndBadArgumentsAreRejected() {
    SparsePhysicalMemory mem = new SparsePhysicalMemory(8192);
    assertThatThrownBy(() -> mem.readLong(8188))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0x1ffc")
        .hasMessageContaining("0x2000");
    assertThatThrownBy(() -> mem.writeInt(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> mem.read(0, new byte[4], 2, 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("dstOffset + length");
    assertThatThrownBy(() -> new SparsePhysicalMemory(4097))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but was 4097");
    assertThatThrownBy(() -> mem.allocate(0, 8)).hasMessageContaining("bytes must be > 0 but was 0");
    assertThatThrownBy(() -> mem.allocate(8, 3)).hasMessageContaining("power of two but was 3");
  }

  @Test
  void allocationNeverHandsOutAddressZeroAndStopsAtCapacity() {
    SparsePhysicalMemory mem = new SparsePhysicalMemory(3 * 4096);
    assertThat(mem.allocate(1, 1)).isEqualTo(SparsePhysicalMemory.FIRST_ALLOCATABLE);
    assertThat(mem.allocate(4096, 4096)).isEqualTo(8192);
    assertThatThrownBy(() -> mem.allocate(1, 1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("physical memory exhausted");
  }
}
