package io.github.ariesmodel.iommu;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.NetworkAddresses;
import java.util.Arrays;

/**
 * The NIC's memory domain descriptor table: up to 4,096 MDDs chosen by the 12-bit MDH of a network address
 * (aries-facts §4 [S6b]: MDD table RAM address 12 bits, so 4,096 MDDs per NIC, derived), each with where its
 * registration's page frames and page tables lie in host memory.
 *
 * <p>The hardware MDD holds the translation context ({@code mmu_tc}) and a base ({@code mem_base}); beside each
 * descriptor this model keeps the roots of the tables its walks use and its first page in them: the registration's
 * own tables and page 0 ({@link PageTables#PER_REGISTRATION}), or its context's tables and its range's first page,
 * the base ({@link PageTables#PER_CONTEXT}). Handles are
 * handed out round-robin from the last one given, skipping those in use, so a deregistered MDH is not reused at once.
 *
 * <p>Cost: the arrays grow (doubling) to the highest MDH in use; an IOMMU that never registers allocates none.
 */
final class MddTable {

  static final int CAPACITY = NetworkAddress.MAX_MDH + 1;

  // Shared empty tables (zero-length arrays cannot change), so an IOMMU that never registers allocates none.
  private static final MemoryDomainDescriptor[] NO_MDDS = new MemoryDomainDescriptor[0];
  private static final long[] NO_LONGS = new long[0];

  private MemoryDomainDescriptor[] mdds = NO_MDDS;
  private long[] dataBase = NO_LONGS;
  private long[] directoryBase = NO_LONGS;
  private long[] leafBase = NO_LONGS;
  private long[] firstPage = NO_LONGS;
  private long[] pages = NO_LONGS;
  private int nextMdh;
  private int[] generation = new int[0];
  private final boolean reuse;

  /** A table that hands out deregistered MDHs again (the hardware's behaviour). */
  MddTable() {
    this(true);
  }

  /** @param reuse whether a deregistered MDH may be handed out again; false makes every MDH single-use */
  MddTable(boolean reuse) {
    this.reuse = reuse;
  }

  /**
   * How many registrations an MDH has held: 0 never registered, 1 its first owner, 2 or more means the handle was
   * reused and an old copy of it now reaches a newer owner.
   */
  int generation(int mdh) {
    NetworkAddresses.checkMdh(mdh);
    return mdh < generation.length ? generation[mdh] : 0;
  }

  /**
   * The next MDH not holding a valid descriptor, searching round-robin from the one after the last handed out. Only
   * {@link #put} moves the search on, so a registration that fails after asking hands the same MDH out next.
   *
   * @throws IllegalStateException when all 4,096 are valid
   */
  int freeMdh() {
    for (int n = 0; n < CAPACITY; n++) {
      int mdh = (nextMdh + n) & NetworkAddress.MAX_MDH;
      boolean free = mdh >= mdds.length || mdds[mdh] == null || !mdds[mdh].valid();
      if (free && (reuse || mdh >= generation.length || generation[mdh] == 0)) {
        return mdh;
      }
    }
    throw new IllegalStateException(reuse ? "no free MDH: all 4096 memory domain descriptors are registered"
        : "no unused MDH: all 4096 handles have been used once and IommuConfig.reuseMdhs is false");
  }

  /**
   * Stores a descriptor and the tables {@link PageTableBuilder} built for it, under {@code d.mdh()}, which becomes the
   * last MDH handed out.
   */
  void put(MemoryDomainDescriptor d, PageTableBuilder.Tables tables) {
    int mdh = d.mdh();
    ensureCapacity(mdh);
    nextMdh = (mdh + 1) & NetworkAddress.MAX_MDH;
    mdds[mdh] = d;
    generation[mdh]++;
    dataBase[mdh] = tables.data();
    directoryBase[mdh] = tables.directory();
    leafBase[mdh] = tables.leaf();
    firstPage[mdh] = tables.firstPage();
    pages[mdh] = tables.pages();
  }

  private void ensureCapacity(int mdh) {
    if (mdh < mdds.length) {
      return;
    }
    int n = Math.min(CAPACITY, Math.max(8, Integer.highestOneBit(mdh) << 1));
    mdds = Arrays.copyOf(mdds, n);
    dataBase = Arrays.copyOf(dataBase, n);
    directoryBase = Arrays.copyOf(directoryBase, n);
    leafBase = Arrays.copyOf(leafBase, n);
    firstPage = Arrays.copyOf(firstPage, n);
    pages = Arrays.copyOf(pages, n);
    generation = Arrays.copyOf(generation, n);
  }

  /** @return the descriptor at an MDH (valid or invalidated), or null when that MDH was never registered */
  MemoryDomainDescriptor get(int mdh) {
    return mdh < mdds.length ? mdds[mdh] : null;
  }

  /**
   * The valid descriptor of a registered MDH, for the driver's calls that write its tables or act on its range. A
   * deregistered MDH is refused: with {@link PageTables#PER_CONTEXT} its range may belong to a later registration by
   * now, whose PTEs a stale unmap would clear.
   *
   * @throws IllegalArgumentException when the MDH is out of range, was never registered or was deregistered
   */
  MemoryDomainDescriptor registered(int mdh) {
    MemoryDomainDescriptor d = known(mdh);
    if (!d.valid()) {
      throw new IllegalArgumentException("mdh " + mdh + " is not registered (it was deregistered)");
    }
    return d;
  }

  /**
   * The descriptor of an MDH that was registered at some time, valid or deregistered, for queries of where its last
   * registration lay.
   *
   * @throws IllegalArgumentException when the MDH is out of range or was never registered
   */
  MemoryDomainDescriptor known(int mdh) {
    NetworkAddresses.checkMdh(mdh);
    MemoryDomainDescriptor d = get(mdh);
    if (d == null) {
      throw new IllegalArgumentException("mdh " + mdh + " was never registered");
    }
    return d;
  }

  /**
   * Marks a valid descriptor invalid (deregistration); its tables stay where they are.
   *
   * @throws IllegalArgumentException when the MDH is out of range or not valid
   */
  void invalidate(int mdh) {
    NetworkAddresses.checkMdh(mdh);
    MemoryDomainDescriptor d = get(mdh);
    if (d == null || !d.valid()) {
      throw new IllegalArgumentException("mdh " + mdh + " is not registered");
    }
    mdds[mdh] = d.invalidated();
  }

  /** @return the physical address of the registration's first page frame */
  long dataBase(int mdh) {
    return dataBase[mdh];
  }

  /** @return the physical address of the directory table (4 KB pages), 0 for huge pages */
  long directoryBase(int mdh) {
    return directoryBase[mdh];
  }

  /**
   * @return the physical address of the first leaf PTE of the tables: the one-level table for huge pages; for 4 KB
   *     pages in tables of the registration's own, its first leaf table; 0 for 4 KB pages in a context's tables
   */
  long leafBase(int mdh) {
    return leafBase[mdh];
  }

  /** @return the registration's first page in its tables (0 in tables of its own) */
  long firstPage(int mdh) {
    return firstPage[mdh];
  }

  /** @return one past the registration's last page in its tables: next-line prefetch stops there */
  long pageEnd(int mdh) {
    return firstPage[mdh] + pages[mdh];
  }

  /** @return where the registration's tables lie, as {@link #put} was given them */
  PageTableBuilder.Tables tables(int mdh) {
    return new PageTableBuilder.Tables(dataBase[mdh], directoryBase[mdh], leafBase[mdh], firstPage[mdh], pages[mdh]);
  }
}
