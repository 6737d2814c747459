package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.PageTableEntry;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import org.junit.jupiter.api.Test;

/** Registration's page tables, read back from host memory in core's PTE format. */
class PageTableBuilderTest {

  private final SparsePhysicalMemory memory = new SparsePhysicalMemory(1L << 40);
  private final PageTableBuilder builder = new PageTableBuilder(memory);

  @Test
  void fourKilobytePagesGetADirectoryOfLeafTables() {
    // 1,000 pages: two leaf tables (512 + 488 PTEs), a directory of two entries.
    PageTableBuilder.Tables t = builder.build(MemoryRegistration.of(0, 1000 * 4096L, 1, 1));
    assertThat(t.data() % 4096).isZero();
    assertThat(t.leaf() % 4096).isZero();
    assertThat(t.directory() % 4096).isZero();
    assertThat(t.firstPage()).isZero();
    assertThat(t.pages()).isEqualTo(1000);
    PageTableEntry d0 = PageTableEntry.unpack(memory.readLong(t.directory()));
    PageTableEntry d1 = PageTableEntry.unpack(memory.readLong(t.directory() + 8));
    assertThat(d0.present()).isTrue();
    assertThat(d0.leaf()).isFalse();
    assertThat(d0.physicalBase()).isEqualTo(t.leaf());
    assertThat(d1.physicalBase()).isEqualTo(t.leaf() + 4096);
    assertThat(PageTableEntry.unpack(memory.readLong(t.directory() + 16)).present()).isFalse();
    for (int p : new int[] {0, 1, 511, 512, 999}) {
      assertThat(PageTableEntry.unpack(memory.readLong(t.leaf() + p * 8L)))
          .isEqualTo(PageTableEntry.page(t.data() + p * 4096L, PageSize.SIZE_4K, true));
    }
    assertThat(PageTableEntry.unpack(memory.readLong(t.leaf() + 1000 * 8L)).present()).isFalse();
  }

  @Test
  void hugePagesGetOneAlignedLevelAndKeepReadOnly() {
    PageTableBuilder.Tables t = builder.build(
        MemoryRegistration.of(0, 3 * (2L << 20) + 1, 1, 1).withPageSize(PageSize.SIZE_2M).withWritable(false));
    assertThat(t.directory()).isZero();
    assertThat(t.data() % (2L << 20)).isZero();
    assertThat(t.pages()).isEqualTo(4);
    for (int p = 0; p < 4; p++) {
      assertThat(PageTableEntry.unpack(memory.readLong(t.leaf() + p * 8L)))
          .isEqualTo(PageTableEntry.page(t.data() + p * (2L << 20), PageSize.SIZE_2M, false));
    }
  }

  @Test
  void oneAllocationLaysFramesAndTablesOutWhereThreeDid() {
    // After 100 bytes reserved, the frames start at the next page; leaf tables and directory follow them, as the
    // three allocations (frames, leaf tables, directory) placed them before registration became all or nothing.
    memory.allocate(100, 8);
    PageTableBuilder.Tables t = builder.build(MemoryRegistration.of(0, 1000 * 4096L, 1, 1));
    assertThat(t.data()).isEqualTo(8192);
    assertThat(t.leaf()).isEqualTo(8192 + 1000 * 4096L);
    assertThat(t.directory()).isEqualTo(t.leaf() + 2 * 4096);
    assertThat(memory.allocatedBytes()).isEqualTo(t.directory() + 4096 - SparsePhysicalMemory.FIRST_ALLOCATABLE);
    PageTableBuilder.Tables h = builder.build(MemoryRegistration.of(0, 3L << 21, 1, 1).withPageSize(PageSize.SIZE_2M));
    assertThat(h.data()).isEqualTo(2L << 21); // the next 2 MB boundary
    assertThat(h.leaf()).isEqualTo(h.data() + (3L << 21));
    assertThat(memory.allocatedBytes()).isEqualTo(h.leaf() + 4096 - SparsePhysicalMemory.FIRST_ALLOCATABLE);
  }

  @Test
  void entriesAreLittleEndianInMemory() {
    PageTableBuilder.Tables t = builder.build(MemoryRegistration.of(0, 4096, 1, 1));
    byte[] raw = new byte[8];
    memory.read(t.leaf(), raw, 0, 8);
    long pte = memory.readLong(t.leaf());
    for (int b = 0; b < 8; b++) {
      assertThat(raw[b]).as("byte %d", b).isEqualTo((byte) (pte >>> (8 * b)));
    }
    assertThat(pte).isNotZero();
  }
}
