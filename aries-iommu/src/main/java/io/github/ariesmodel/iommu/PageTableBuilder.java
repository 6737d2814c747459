package io.github.ariesmodel.iommu;

import io.github.ariesmodel.core.LittleEndian;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.PageTableEntries;
import io.github.ariesmodel.core.PageTableEntry;
import io.github.ariesmodel.core.spi.HostMemory;

/**
 * What the driver does when memory is registered: allocates the page frames and writes page tables for them into the
 * node's host memory, in core's {@link PageTableEntry} format (aries-facts §4 [S6c], {@code pg_mode}).
 *
 * <ul>
 *   <li>4 KB pages: two levels. A directory of table pointers, each pointing at a 4 KB leaf table of 512 PTEs.
 *   <li>Huge pages (2 MB … 64 GB): one level, a single table of leaf PTEs.
 * </ul>
 *
 * <p>The frames of one registration are contiguous and aligned to the page size, and its leaf tables contiguous and
 * 4 KB aligned (host memory is a bump allocator in this model), so a leaf PTE's address is
 * {@code leaf + relativePage × 8}. Writes go out in 4 KB chunks, so a 1 TB registration is never held in one array.
 */
final class PageTableBuilder {

  /** Bytes of one page table (and of one chunk written at a time). */
  static final int TABLE_BYTES = 4096;
  /** log2 of the PTEs in one 4 KB table (512). */
  static final int ENTRIES_PER_TABLE_SHIFT = 9;

  /**
   * Where one registration's memory and tables lie.
   *
   * @param data physical address of the first page frame
   * @param directory physical address of the directory table, 0 for huge pages (no directory)
   * @param leaf physical address of the first leaf PTE
   * @param leafEnd one past the last leaf PTE
   */
  record Tables(long data, long directory, long leaf, long leafEnd) {}

  private final HostMemory memory;

  PageTableBuilder(HostMemory memory) {
    this.memory = memory;
  }

  /** Allocates frames and tables for a registration and writes every entry. */
  Tables build(MemoryRegistration r) {
    PageSize ps = r.pageSize();
    long pages = ps.pagesSpanned(0, r.length());
    long data = memory.allocate(pages << ps.shift(), ps.bytes());
    long leaf = memory.allocate(roundUpToTable(pages * PageTableEntry.BYTES), TABLE_BYTES);
    writeTable(leaf, pages, data, ps, r.writable(), true);
    long directory = 0;
    if (!ps.isHuge()) {
      long tables = (pages + (1L << ENTRIES_PER_TABLE_SHIFT) - 1) >>> ENTRIES_PER_TABLE_SHIFT;
      directory = memory.allocate(roundUpToTable(tables * PageTableEntry.BYTES), TABLE_BYTES);
      writeTable(directory, tables, leaf, PageSize.SIZE_4K, true, false);
    }
    return new Tables(data, directory, leaf, leaf + pages * PageTableEntry.BYTES);
  }

  private static long roundUpToTable(long bytes) {
    return (bytes + TABLE_BYTES - 1) & -TABLE_BYTES;
  }

  /** Writes {@code count} consecutive entries pointing at consecutive pages (leaf) or 4 KB tables (directory). */
  private void writeTable(long table, long count, long firstTarget, PageSize ps, boolean writable, boolean leaf) {
    byte[] chunk = new byte[TABLE_BYTES];
    long step = leaf ? ps.bytes() : TABLE_BYTES;
    int sizeCode = leaf ? ps.code() : 0;
    for (long done = 0; done < count; ) {
      int n = (int) Math.min(count - done, TABLE_BYTES / PageTableEntry.BYTES);
      for (int i = 0; i < n; i++) {
        long pte = PageTableEntries.pack(true, writable, leaf, sizeCode,
            (firstTarget + (done + i) * step) >>> PageSize.SMALL_SHIFT);
        LittleEndian.put(chunk, i * PageTableEntry.BYTES, PageTableEntry.BYTES, pte);
      }
      memory.write(table + done * PageTableEntry.BYTES, chunk, 0, n * PageTableEntry.BYTES);
      done += n;
    }
  }
}
