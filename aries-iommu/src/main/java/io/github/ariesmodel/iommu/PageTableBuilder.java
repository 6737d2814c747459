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
 * <p>The frames of one registration are contiguous and aligned to the page size, its leaf tables follow them,
 * contiguous and 4 KB aligned, and the directory follows the leaf tables, so a leaf PTE's address is
 * {@code leaf + relativePage × 8}. All three come from one {@link HostMemory#allocate} call ({@link Layout}), so a
 * registration the memory cannot hold reserves nothing; on a bump allocator that is the layout three calls (frames,
 * leaf tables, directory) gave, byte for byte, because the frames and the leaf tables are whole 4 KB pages. Writes go
 * out in 4 KB chunks, so a 1 TB registration is never held in one array.
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

  /**
   * The physical memory one registration takes, as {@link #build} lays it out: its frames, then its leaf tables (a
   * PTE of 8 bytes a page, in whole 4 KB tables), then for 4 KB pages its directory (an 8-byte entry a leaf table,
   * in whole 4 KB tables; none for huge pages).
   *
   * @param pages pages of the registration
   * @param dataBytes bytes of its frames, {@code pages × page size}
   * @param leafBytes bytes of its leaf tables
   * @param directoryBytes bytes of its directory, 0 for huge pages
   */
  record Layout(long pages, long dataBytes, long leafBytes, long directoryBytes) {

    /** @return bytes of page tables, leaf and directory */
    long tableBytes() {
      return leafBytes + directoryBytes;
    }

    /** @return bytes of physical memory in all: frames and tables */
    long totalBytes() {
      return dataBytes + leafBytes + directoryBytes;
    }

    /** @return the 4 KB pages of host memory the tables are written into */
    long tablePages() {
      return tableBytes() / TABLE_BYTES;
    }
  }

  private final HostMemory memory;

  PageTableBuilder(HostMemory memory) {
    this.memory = memory;
  }

  /**
   * The layout of {@code pages} pages of size {@code ps}. Exact, and without overflow for any page count a
   * registration can have (at most 2^28 pages, 2^40 bytes of frames).
   */
  static Layout layout(long pages, PageSize ps) {
    long leafBytes = roundUpToTable(pages * PageTableEntry.BYTES);
    long directoryBytes = 0;
    if (!ps.isHuge()) {
      long tables = (pages + (1L << ENTRIES_PER_TABLE_SHIFT) - 1) >>> ENTRIES_PER_TABLE_SHIFT;
      directoryBytes = roundUpToTable(tables * PageTableEntry.BYTES);
    }
    return new Layout(pages, pages << ps.shift(), leafBytes, directoryBytes);
  }

  /** @return the layout of a registration's pages */
  static Layout layout(MemoryRegistration r) {
    return layout(r.pageSize().pagesSpanned(0, r.length()), r.pageSize());
  }

  /**
   * Allocates frames and tables for a registration, in one call, and writes every entry.
   *
   * @throws IllegalStateException from {@link HostMemory#allocate} when the memory has no room left: nothing is
   *     reserved or written then
   */
  Tables build(MemoryRegistration r) {
    PageSize ps = r.pageSize();
    Layout l = layout(r);
    long data = memory.allocate(l.totalBytes(), ps.bytes());
    long leaf = data + l.dataBytes();
    writeTable(leaf, l.pages(), data, ps, r.writable(), true);
    long directory = 0;
    if (!ps.isHuge()) {
      directory = leaf + l.leafBytes();
      long tables = (l.pages() + (1L << ENTRIES_PER_TABLE_SHIFT) - 1) >>> ENTRIES_PER_TABLE_SHIFT;
      writeTable(directory, tables, leaf, PageSize.SIZE_4K, true, false);
    }
    return new Tables(data, directory, leaf, leaf + l.pages() * PageTableEntry.BYTES);
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
