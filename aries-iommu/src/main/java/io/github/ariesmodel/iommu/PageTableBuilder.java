package io.github.ariesmodel.iommu;

import io.github.ariesmodel.core.LittleEndian;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
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
 * <p>With {@link PageTables#PER_REGISTRATION} (below) a registration's tables are its own; with
 * {@link PageTables#PER_CONTEXT} it is written into its translation context's tables at the range
 * {@link TranslationContexts} placed it at ({@link #build(MemoryRegistration, TranslationContexts.Plan,
 * TranslationContexts)}), and cleared from them at deregistration ({@link #release}).
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
  /** A page's index within its 4 KB leaf table. */
  static final long LEAF_INDEX_MASK = (1L << ENTRIES_PER_TABLE_SHIFT) - 1;

  /**
   * Where one registration's memory and tables lie. A walk of relative page {@code rel} uses page
   * {@code firstPage + rel} of the tables: its directory entry at {@code directory + (page >>> 9) × 8} (4 KB pages),
   * its leaf PTE at {@code leaf + page × 8} (huge pages, one level).
   *
   * @param data physical address of the first page frame
   * @param directory physical address of the directory table, 0 for huge pages (no directory)
   * @param leaf physical address of the first leaf PTE of the tables (huge pages: the one-level table); for 4 KB
   *     pages with {@link PageTables#PER_REGISTRATION}, the first of the registration's contiguous leaf tables
   * @param firstPage the registration's first page in the tables: 0 for tables of its own, its range's first page
   *     in its context's space for {@link PageTables#PER_CONTEXT}
   * @param pages pages of the registration
   */
  record Tables(long data, long directory, long leaf, long firstPage, long pages) {}

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
    return new Tables(data, directory, leaf, 0, l.pages());
  }

  /**
   * The layout of a registration placed in its context by {@code plan}: its frames, the leaf tables it makes (4 KB
   * pages: in {@code leafBytes}) and, if it makes the context, the context's root table (in {@code directoryBytes},
   * for huge pages too, where the root is the one-level table).
   */
  static Layout layout(TranslationContexts.Plan plan, PageSize ps) {
    return new Layout(plan.pages(), plan.pages() << ps.shift(), plan.leafBytes(), plan.rootBytes());
  }

  /**
   * Allocates the frames and the new tables of a registration placed in its context ({@link PageTables#PER_CONTEXT})
   * in one call, then writes its PTEs into the context's tables at its range: for huge pages into the one-level root
   * table, for 4 KB pages into the leaf table of each 2 MB piece of the range, making (and entering in the directory)
   * those the plan counted as missing. The block is laid out frames, root table (if new), new leaf tables.
   *
   * @throws IllegalStateException from {@link HostMemory#allocate} when the memory has no room left: nothing is
   *     reserved or written then
   */
  Tables build(MemoryRegistration r, TranslationContexts.Plan plan, TranslationContexts contexts) {
    PageSize ps = r.pageSize();
    Layout l = layout(plan, ps);
    long data = memory.allocate(l.totalBytes(), ps.bytes());
    long next = data + l.dataBytes();
    TranslationContexts.Context c = plan.context();
    long root = plan.newContext() ? next : c.root;
    if (plan.newContext()) {
      next += c.rootBytes;
    }
    contexts.take(plan, root);
    long first = plan.firstPage();
    if (ps.isHuge()) {
      writeTable(root + first * PageTableEntry.BYTES, plan.pages(), data, ps, r.writable(), true);
      return new Tables(data, 0, root, first, plan.pages());
    }
    long end = first + plan.pages();
    for (long page = first; page < end; ) {
      long region = page >>> ENTRIES_PER_TABLE_SHIFT;
      long regionEnd = Math.min(end, leafTableEnd(page));
      long entry = root + region * PageTableEntry.BYTES;
      long dir = memory.readLong(entry);
      long table;
      if (PageTableEntries.present(dir)) {
        table = PageTableEntries.physicalBase(dir);
      } else {
        table = next;
        next += TABLE_BYTES;
        memory.writeLong(entry, PageTableEntries.pack(true, true, false, 0, table >>> PageSize.SMALL_SHIFT));
      }
      writeTable(table + (page & LEAF_INDEX_MASK) * PageTableEntry.BYTES, regionEnd - page,
          data + ((page - first) << ps.shift()), ps, r.writable(), true);
      page = regionEnd;
    }
    return new Tables(data, root, 0, first, plan.pages());
  }

  /**
   * What the driver does at deregistration with {@link PageTables#PER_CONTEXT}: clears the registration's leaf PTEs
   * (not present) and frees its range of the context's space. Its leaf tables and directory entries stay.
   */
  void release(MemoryDomainDescriptor d, Tables t, TranslationContexts contexts) {
    PageSize ps = d.pageSize();
    long first = t.firstPage();
    long end = first + t.pages();
    byte[] zeros = new byte[TABLE_BYTES];
    for (long page = first; page < end; ) {
      // a 4 KB table's worth of PTEs at a time; for 4 KB pages, never past the leaf table's end
      long runEnd = Math.min(end, ps.isHuge() ? page + TABLE_BYTES / PageTableEntry.BYTES : leafTableEnd(page));
      long address = PteWalker.leafPteAddressNow(memory, t.directory(), t.leaf(), ps.isHuge(), page);
      memory.write(address, zeros, 0, (int) (runEnd - page) * PageTableEntry.BYTES);
      page = runEnd;
    }
    contexts.free(d.translationContext(), ps, first, t.pages());
  }

  /** @return the first page after the 2 MB piece of the space (one 4 KB leaf table of 512 PTEs) page {@code page} is in */
  static long leafTableEnd(long page) {
    return ((page >>> ENTRIES_PER_TABLE_SHIFT) + 1) << ENTRIES_PER_TABLE_SHIFT;
  }

  static long roundUpToTable(long bytes) {
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
