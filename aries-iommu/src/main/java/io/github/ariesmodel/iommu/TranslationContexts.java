package io.github.ariesmodel.iommu;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.PageTableEntries;
import io.github.ariesmodel.core.PageTableEntry;
import io.github.ariesmodel.core.spi.HostMemory;
import java.util.Map;
import java.util.TreeMap;

/**
 * The translation context registers (TCRs) of {@link PageTables#PER_CONTEXT}: for each context and page size, where
 * its root table lies and which ranges of its IO virtual address space the driver has handed to registrations
 * (aries-facts §4 [S6c]: 16 contexts, each with {@code pt_root_ptr}, {@code pg_mode} and {@code pg_size}; [S5]:
 * the job's IOMMU address space is limited, {@code iommu_limit}).
 *
 * <p>A context's space is {@link #spaceBytes} (twice the node's memory, rounded up to a power of two, at most 2^40
 * bytes): live registrations never need more IO virtual space than the frames they hold, so twice leaves room for
 * fragmentation (assumed). Its root table has an entry for each page of the space (huge pages, one level) or for each
 * 2 MB of it (4 KB pages: a directory entry a leaf table). Placement is first fit in pages: the lowest free range
 * long enough; freed ranges merge with their free neighbours. All of it is deterministic.
 *
 * <p>Cost: a context is made on its first registration; its root table is reserved in host memory then (in a
 * {@link io.github.ariesmodel.core.sim.SparsePhysicalMemory}, only the 4 KB pages written take heap). A placement
 * walks the free ranges below the highest page handed out.
 */
final class TranslationContexts {

  /** The most IO virtual space a context has: 2^40 bytes, the longest registration (derived: 40-bit offset). */
  static final long MAX_SPACE_BYTES = NetworkAddress.MAX_OFFSET + 1;

  private static final int CODES = 32;

  /** One context's table for one page size. */
  static final class Context {
    final PageSize pageSize;
    /** Pages in the space. */
    final long spacePages;
    /** Bytes of the root table, whole 4 KB tables. */
    final long rootBytes;
    /** Physical address of the root table, once the context is made. */
    long root;
    /** Pages [0, top) have been handed out at some time; every page from top up is free. */
    long top;
    /** Free ranges below {@code top}: first page to pages. */
    final TreeMap<Long, Long> holes = new TreeMap<>();

    Context(PageSize pageSize, long spaceBytes) {
      this.pageSize = pageSize;
      this.spacePages = Math.max(1, spaceBytes >>> pageSize.shift());
      long entries = pageSize.isHuge() ? spacePages
          : (spacePages + (1L << PageTableBuilder.ENTRIES_PER_TABLE_SHIFT) - 1)
              >>> PageTableBuilder.ENTRIES_PER_TABLE_SHIFT;
      this.rootBytes = PageTableBuilder.roundUpToTable(entries * PageTableEntry.BYTES);
    }

    /** @return the first page of the lowest free range of {@code pages} pages, or -1 when none is free */
    long find(long pages) {
      for (Map.Entry<Long, Long> h : holes.entrySet()) {
        if (h.getValue() >= pages) {
          return h.getKey();
        }
      }
      return pages <= spacePages - top ? top : -1;
    }

    /** Marks a range {@link #find} returned as handed out. */
    void take(long first, long pages) {
      if (first == top) {
        top += pages;
        return;
      }
      long hole = holes.remove(first);
      if (hole > pages) {
        holes.put(first + pages, hole - pages);
      }
    }

    /** Frees a handed-out range, merging it with free neighbours. */
    void free(long first, long pages) {
      long start = first;
      long length = pages;
      Map.Entry<Long, Long> below = holes.floorEntry(first);
      if (below != null && below.getKey() + below.getValue() == first) {
        start = below.getKey();
        length += below.getValue();
        holes.remove(start);
      }
      Long above = holes.remove(first + pages);
      if (above != null) {
        length += above;
      }
      if (start + length == top) {
        top = start;
      } else {
        holes.put(start, length);
      }
    }

    /** @return pages handed out and not freed */
    long pagesInUse() {
      long free = 0;
      for (long h : holes.values()) {
        free += h;
      }
      return top - free;
    }
  }

  /**
   * Where a registration would go, computed before anything changes.
   *
   * @param tc the translation context
   * @param context its table for the page size (a new one, not yet kept, when {@code newContext})
   * @param newContext whether the registration makes the context (and its root table)
   * @param firstPage the first page of its range in the context's space, or -1 when no free range is long enough
   * @param pages pages of the registration
   * @param newLeafTables 4 KB leaf tables to make (4 KB pages only): the 2 MB pieces of its range without one yet;
   *     when no range was found, the fewest it could need (its pages in whole tables, none made yet), so that a
   *     refusal for capacity names the tables it would need (until stop 74 it named none)
   */
  record Plan(int tc, Context context, boolean newContext, long firstPage, long pages, long newLeafTables) {

    /** @return whether a range was found */
    boolean placed() {
      return firstPage >= 0;
    }

    /** @return bytes of new leaf tables */
    long leafBytes() {
      return newLeafTables * PageTableBuilder.TABLE_BYTES;
    }

    /** @return bytes of a new root table, 0 when the context exists */
    long rootBytes() {
      return newContext ? context.rootBytes : 0;
    }
  }

  private final HostMemory memory;
  private final long spaceBytes;
  private final Context[] contexts = new Context[MemoryDomainDescriptor.TRANSLATION_CONTEXTS * CODES];

  TranslationContexts(HostMemory memory) {
    this.memory = memory;
    long capacity = Math.max(1, memory.capacity());
    long rounded = Long.highestOneBit(capacity) == capacity ? capacity : Long.highestOneBit(capacity) << 1;
    this.spaceBytes = rounded >= MAX_SPACE_BYTES / 2 ? MAX_SPACE_BYTES : rounded << 1;
  }

  /** @return bytes of IO virtual space in each context */
  long spaceBytes() {
    return spaceBytes;
  }

  /** @return the context's table for a page size, or null before its first registration */
  Context get(int tc, PageSize ps) {
    return contexts[tc * CODES + ps.code()];
  }

  /** Where a registration of {@code pages} pages would go; changes nothing. */
  Plan plan(int tc, PageSize ps, long pages) {
    Context c = get(tc, ps);
    boolean fresh = c == null;
    if (fresh) {
      c = new Context(ps, spaceBytes);
    }
    long first = c.find(pages);
    long newLeaves = 0;
    if (first < 0 && !ps.isHuge()) {
      newLeaves = (pages + (1L << PageTableBuilder.ENTRIES_PER_TABLE_SHIFT) - 1)
          >>> PageTableBuilder.ENTRIES_PER_TABLE_SHIFT;
    } else if (!ps.isHuge()) {
      long lo = first >>> PageTableBuilder.ENTRIES_PER_TABLE_SHIFT;
      long hi = (first + pages - 1) >>> PageTableBuilder.ENTRIES_PER_TABLE_SHIFT;
      for (long r = lo; r <= hi; r++) {
        if (fresh || !PageTableEntries.present(memory.readLong(c.root + r * PageTableEntry.BYTES))) {
          newLeaves++;
        }
      }
    }
    return new Plan(tc, c, fresh, first, pages, newLeaves);
  }

  /** Keeps a planned registration's context and marks its range handed out. */
  void take(Plan p, long root) {
    Context c = p.context();
    if (p.newContext()) {
      c.root = root;
      contexts[p.tc() * CODES + c.pageSize.code()] = c;
    }
    c.take(p.firstPage(), p.pages());
  }

  /** Frees a deregistered registration's range. */
  void free(int tc, PageSize ps, long first, long pages) {
    get(tc, ps).free(first, pages);
  }

  /**
   * Unmakes a context that holds no registration any more: the next registration in it makes it anew. Does nothing
   * while a registration is in it.
   *
   * @return its tables, for the caller to give back: its root and, for 4 KB pages, every leaf table its root enters,
   *     as {first byte, bytes} pairs; empty when the context was not unmade
   */
  java.util.List<long[]> unmakeIfEmpty(int tc, PageSize ps) {
    Context c = get(tc, ps);
    java.util.List<long[]> tables = new java.util.ArrayList<>();
    if (c == null || c.pagesInUse() > 0) {
      return tables;
    }
    if (!ps.isHuge()) {
      for (long e = 0; e < c.rootBytes; e += PageTableEntry.BYTES) {
        long entry = memory.readLong(c.root + e);
        if (PageTableEntries.present(entry)) {
          tables.add(new long[] {PageTableEntries.physicalBase(entry), PageTableBuilder.TABLE_BYTES});
        }
      }
    }
    tables.add(new long[] {c.root, c.rootBytes});
    contexts[tc * CODES + ps.code()] = null;
    return tables;
  }

  /** @return the message for a registration whose context has no free range long enough */
  String noRoom(Plan p) {
    PageSize ps = p.context().pageSize;
    return "translation context " + p.tc() + " has no free range of " + (p.pages() << ps.shift())
        + " bytes for " + ps + " pages: its IO virtual space is " + spaceBytes + " bytes ("
        + (spaceBytes == MAX_SPACE_BYTES ? "the 40-bit offset's limit" : "twice the node's memory") + "),"
        + " " + (p.context().pagesInUse() << ps.shift()) + " of them registered; deregister memory or use another"
        + " translation context";
  }
}
