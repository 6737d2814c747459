package io.github.ariesmodel.iommu;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.NetworkAddresses;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.PageTableEntry;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.sim.ConcurrentUseCheck;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationHit;
import io.github.ariesmodel.core.spi.TranslationListener;
import io.github.ariesmodel.iommu.internal.SetAssociativePteCache;
import io.github.ariesmodel.iommu.spi.ReplacementPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The Aries NIC's IOMMU, one per node: memory registration into an MDD table, page tables built in the node's host
 * memory, and timed translation through a set-associative PTE cache with a latency-hiding miss pipeline.
 *
 * <p><b>What is modelled, and from what</b> (aries-facts.md §4):
 *
 * <ul>
 *   <li>MDD table of up to 4,096 descriptors chosen by a 12-bit MDH [S6b]; the pre-translation checks are core's
 *       {@link MemoryDomainDescriptor#check} (valid, bounds, writable, protection), in the contract's order.
 *   <li>Page tables in host memory in core's {@link PageTableEntry} format: 4 KB pages through two levels (a
 *       directory of table pointers, then 4 KB leaf tables of 512 PTEs), huge pages (2 MB … 64 GB) through one level
 *       [S6c {@code pg_mode}]. Where they lie is {@link IommuConfig#pageTables()}: by default
 *       ({@link PageTables#PER_CONTEXT}) each translation context and page size has one set of tables, as the
 *       hardware's translation context registers root them, and the driver places each registration at a range of
 *       the context's IO virtual space ({@link #ioVirtualBase}); with {@link PageTables#PER_REGISTRATION} each
 *       registration gets tables of its own rooted at its MDD.
 *   <li>A PTE cache of {@code ways × sets} lines of {@code ptesPerLine} PTEs (default 4 × 32 lines of 8 PTEs,
 *       derived from the RAM widths [S6c]), indexed by the line's physical address. Directory and leaf lines share
 *       it: a 4 KB translation looks up the directory line, then the leaf line its entry points to.
 *   <li>The miss pipeline [S6c]: up to {@code maxInFlight} (32) requests in flight; a miss takes an outstanding fetch
 *       buffer and marks a way pending; later misses to a pending line merge into its fetch; hits complete under
 *       outstanding misses; when no buffer is free or every way of the set is pending, the pipeline stalls (counted by
 *       {@link StallCause}). A PTE fetch is a host-memory read of one line that takes {@code pteFetchLatencyPs}.
 *       Optional next-line prefetch when the MDD's {@code mmu_prefetch} hint is set [S6b].
 *   <li>Invalidation per MDD, per range and of everything [S6c command queue], each returning its cost.
 * </ul>
 *
 * <p><b>Timing.</b> Requests enter a FIFO and are accepted in order, one per {@code issueIntervalPs}, while fewer
 * than {@code maxInFlight} are in flight. A request whose lines are valid completes {@code hitLatencyPs} after it is
 * accepted; one that misses completes {@code hitLatencyPs} after the last line it needed arrived. A stalled request
 * blocks those behind it (as the hardware's {@code trp_hold} does) and is retried, in order, whenever a fetch
 * completes or a translation leaves the pipeline. Requests rejected by the MDD checks pass through the pipeline too
 * and complete after {@code hitLatencyPs} with their fault, touching no memory.
 *
 * <p><b>Structure.</b> This class is a façade over package-private stages named for the hardware, each testable
 * alone: {@code MddTable} (the descriptors by MDH), {@code PageTableBuilder} (the tables a registration writes into
 * host memory), {@code PteWalker} (where each level's PTE lies, and the fetch of PTE lines through fetch buffers),
 * {@code MissPipeline} (FIFO, in-flight limit, stalls, completion) over the shared
 * {@link SetAssociativePteCache}, and {@code IommuCounters} (the performance counters, keyed by enums).
 *
 * <p><b>Registration refuses what cannot fit, before it changes anything.</b> A registration's frames and page
 * tables are computed exactly first (a leaf PTE of 8 bytes a page in whole 4 KB tables and, for 4 KB pages, an 8-byte
 * directory entry a leaf table in whole 4 KB tables). More than the memory's whole capacity is a caller mistake
 * ({@link IllegalArgumentException} naming the largest length that fits); tables that need more Java heap than the
 * JVM has left, in a {@link SparsePhysicalMemory} (at least {@link SparsePhysicalMemory#HEAP_BYTES_PER_PAGE} a 4 KB
 * page of tables), are refused with an {@link IllegalStateException} naming the bytes and suggesting larger pages,
 * instead of an {@link OutOfMemoryError} part way through; more than the memory has left is the memory's own
 * {@link IllegalStateException}. Frames and tables are reserved in one allocation and the MDH is taken only once they
 * are built, so a refused registration leaves the IOMMU and the memory as they were. The heap check compares a lower
 * bound of the tables' heap with all the heap left (after a collection), so it never refuses a registration that
 * would have succeeded; it only turns an {@link OutOfMemoryError} into a message. It does not see other
 * {@link HostMemory} implementations' heap, and cannot foresee heap other threads take meanwhile.
 *
 * <p><b>Cost.</b> Construction allocates only a few small objects; the MDD table grows with the highest MDH used, and
 * the cache and pipeline arrays are made on the first translation, so a system of 92,544 nodes pays for the IOMMUs
 * it uses. In steady state {@link #translate} allocates nothing. Single-threaded, like the scheduler that drives it.
 *
 * <p><b>Memory given back.</b> {@link #deregister} keeps the registration's frames and tables reserved (the memory
 * is still its process's); {@link #deregisterAndFree} gives them back, as when the process exits.
 *
 * <p><b>Not modelled:</b> the vMDH CAM, cached not-present PTE re-fetch, the three request queues' arbitration (one
 * FIFO here).
 */
public final class Iommu implements AddressTranslation {

  private final HostMemory memory;
  private final Scheduler scheduler;
  private final IommuConfig config;
  private final MddTable mdds;
  /** Catches two threads using this IOMMU at once (see {@link ConcurrentUseCheck} for what it accepts). */
  private final ConcurrentUseCheck inUse = new ConcurrentUseCheck("Iommu");
  private final PageTableBuilder tableBuilder;
  /** The translation contexts' tables, with {@link PageTables#PER_CONTEXT}; null with tables per registration. */
  private final TranslationContexts contexts;
  private final HeapGauge heap;

  // Made on the first translation.
  private SetAssociativePteCache cache;
  private IommuCounters counters;
  private MissPipeline pipeline;

  private long invalidations;
  private long invalidationCommands;

  /**
   * An IOMMU for one node.
   *
   * @param memory the node's physical memory: page tables and registered frames are allocated in it, PTE lines read
   *     from it
   * @param scheduler the simulation clock
   * @param config geometry, resources and timing
   */
  public Iommu(HostMemory memory, Scheduler scheduler, IommuConfig config) {
    this(memory, scheduler, config, HeapGauge.RUNTIME);
  }

  /** An IOMMU that asks {@code heap} how much Java heap is left (tests stand in for the JVM). */
  Iommu(HostMemory memory, Scheduler scheduler, IommuConfig config, HeapGauge heap) {
    if (memory == null || scheduler == null || config == null) {
      throw new IllegalArgumentException("memory, scheduler and config must not be null");
    }
    this.mdds = new MddTable(config.reuseMdhs());
    this.memory = memory;
    this.scheduler = scheduler;
    this.config = config;
    this.tableBuilder = new PageTableBuilder(memory);
    this.contexts = config.pageTables() == PageTables.PER_CONTEXT ? new TranslationContexts(memory) : null;
    this.heap = heap;
  }

  /** @return the configuration */
  public IommuConfig config() {
    return config;
  }

  // ---------------------------------------------------------------------------------------------------- registration

  /**
   * {@inheritDoc}
   *
   * <p>Refused before anything changes (see the class comment): the next registration then gets the MDH, frames and
   * tables it would have got had this call not been made.
   *
   * @throws IllegalArgumentException for a null registration, or one whose frames and page tables exceed the memory's
   *     whole capacity (naming the largest length that fits)
   * @throws IllegalStateException when all MDHs are in use, when the page tables need more Java heap than the JVM
   *     has left (naming the bytes, and larger pages that need fewer), or when the memory has no room left for them
   */
  @Override
  public MemoryDomainDescriptor register(MemoryRegistration r) {
    boolean entered = inUse.enter();
    try {
      return registerChecked(r);
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  private MemoryDomainDescriptor registerChecked(MemoryRegistration r) {
    if (r == null) {
      throw new IllegalArgumentException("registration must not be null");
    }
    giveBackDeferred(); // (memory deregisterAndFree could not give back before: this registration may take it)
    PageTableBuilder.Tables tables;
    int mdh;
    if (contexts == null) {
      PageTableBuilder.Layout layout = PageTableBuilder.layout(r);
      checkCapacity(r, layout, null);
      mdh = mdds.freeMdh();
      checkHeap(r, layout, layout.tablePages());
      tables = tableBuilder.build(r);
    } else {
      PageSize ps = r.pageSize();
      TranslationContexts.Plan plan = contexts.plan(r.translationContext(), ps, ps.pagesSpanned(0, r.length()));
      PageTableBuilder.Layout layout = PageTableBuilder.layout(plan, ps);
      checkCapacity(r, layout, plan);
      mdh = mdds.freeMdh();
      if (!plan.placed()) {
        throw new IllegalStateException(contexts.noRoom(plan));
      }
      // Pages the registration certainly writes: its new leaf tables (4 KB pages), or the root table's pages its
      // PTEs fill (huge pages); the root's other pages stay unwritten, so they take no heap.
      long written = ps.isHuge()
          ? (plan.pages() * PageTableEntry.BYTES + PageTableBuilder.TABLE_BYTES - 1) / PageTableBuilder.TABLE_BYTES
          : plan.newLeafTables();
      checkHeap(r, layout, written);
      tables = tableBuilder.build(r, plan, contexts);
    }
    MemoryDomainDescriptor d = new MemoryDomainDescriptor(mdh, true, r.virtualBase(), r.length(), r.writable(),
        r.protectionTag(), r.protectionKey(), r.translationContext(), r.pageSize(), r.completionQueue(),
        r.prefetch());
    mdds.put(d, tables);
    if (contexts != null) {
      dropStaleLines(mdh, tables, r.pageSize());
    }
    return d;
  }

  /**
   * What the driver does after writing a registration into its context's tables: it invalidates the cached lines
   * that may hold what the tables said before, the leaf lines of its range (a neighbour's walk may have cached them
   * as not present, or as an earlier owner's range) and the directory lines of its range (it may have entered new
   * leaf tables there). One "invalidate IOMMU pages" command, counted in the statistics. Tables per registration do
   * without it: they lie in memory nobody's tables used since its lines were dropped, when {@link #deregisterAndFree}
   * gave it back.
   */
  private void dropStaleLines(int mdh, PageTableBuilder.Tables tables, PageSize ps) {
    invalidationCommands++;
    invalidatePages(mdh, 0, tables.pages() - 1);
    if (cache != null && !ps.isHuge()) {
      int lineBytes = config.lineBytes();
      long lo = (tables.firstPage() >>> PageTableBuilder.ENTRIES_PER_TABLE_SHIFT) * PageTableEntry.BYTES;
      long hi = ((tables.firstPage() + tables.pages() - 1) >>> PageTableBuilder.ENTRIES_PER_TABLE_SHIFT)
          * PageTableEntry.BYTES;
      for (long a = (tables.directory() + lo) & -lineBytes; a <= tables.directory() + hi; a += lineBytes) {
        invalidations += cache.invalidateLine(a);
      }
    }
  }

  /**
   * Refuses a registration whose frames and tables exceed the memory's whole capacity: it can never fit. With a
   * context's tables ({@code plan} not null) the largest length named is the largest whose frames, leaf tables over
   * the same first page and (for a new context) root table fit: those it would make, counting none as made already.
   */
  private void checkCapacity(MemoryRegistration r, PageTableBuilder.Layout layout, TranslationContexts.Plan plan) {
    long capacity = memory.capacity();
    if (layout.totalBytes() <= capacity) {
      return;
    }
    PageSize ps = r.pageSize();
    long max;
    if (plan == null) {
      max = largestLength(ps, capacity);
    } else {
      long first = Math.max(0, plan.firstPage());
      long root = plan.rootBytes();
      max = largestLength(ps, capacity, pages -> {
        long leaves = ps.isHuge() || pages == 0 ? 0
            : ((first + pages - 1) >>> PageTableBuilder.ENTRIES_PER_TABLE_SHIFT)
                - (first >>> PageTableBuilder.ENTRIES_PER_TABLE_SHIFT) + 1;
        return (pages << ps.shift()) + leaves * PageTableBuilder.TABLE_BYTES + root;
      });
    }
    String needs = " (" + layout.dataBytes() + " bytes of frames and " + layout.tableBytes() + " of page tables)";
    throw new IllegalArgumentException(max == 0
        ? "no length fits a memory of " + capacity + " bytes with " + ps + " pages and their page tables" + needs
            + " but length was " + r.length() + "; use smaller pages"
        : "length must be in [1, " + max + "] to fit a memory of " + capacity + " bytes with " + ps + " pages and"
            + " their page tables" + needs + " but was " + r.length());
  }

  /**
   * The largest registration, a whole number of pages of {@code ps}, whose frames and page tables, laid out as
   * {@link #register} lays them out in tables of its own ({@link PageTables#PER_REGISTRATION}), fit {@code capacity}
   * bytes of memory (at most a registration's 2^40): a binary search, as the total grows with the pages. Callers that
   * must size a registration before making it (the CLI's table checks) ask here rather than repeat the layout. In a
   * context's tables ({@link PageTables#PER_CONTEXT}) a registration needs at most one 4 KB leaf table more, and
   * the first of its context and page size also makes the context's root table (an 8-byte entry for each page, or
   * each 2 MB for 4 KB pages, of a space twice the memory: at most 4 MiB) instead of a directory of its own; leave
   * room for those.
   *
   * @param ps the page size
   * @param capacity bytes of memory free for the registration, ≥ 0
   * @return the largest length in bytes, 0 when not even one page fits
   * @throws IllegalArgumentException for a null page size or a negative capacity
   */
  public static long largestLength(PageSize ps, long capacity) {
    if (ps == null) {
      throw new IllegalArgumentException("ps must not be null");
    }
    if (capacity < 0) {
      // (the unsigned shift below made -1 a length of 2^40 pages' worth, a wrong answer)
      throw new IllegalArgumentException("capacity must be >= 0 but was " + capacity);
    }
    return largestLength(ps, capacity, pages -> PageTableBuilder.layout(pages, ps).totalBytes());
  }

  /** The binary search of {@link #largestLength(PageSize, long)} over any total that grows with the pages. */
  private static long largestLength(PageSize ps, long capacity, java.util.function.LongUnaryOperator total) {
    long lo = 0;
    long hi = Math.min(capacity, NetworkAddress.MAX_OFFSET + 1) >>> ps.shift(); // a registration's longest: 2^40
    while (lo < hi) {
      long mid = (lo + hi + 1) >>> 1;
      if (total.applyAsLong(mid) <= capacity) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo << ps.shift();
  }

  /**
   * Refuses a registration whose page tables the Java heap cannot hold. Only a {@link SparsePhysicalMemory} is
   * checked, whose cost per written page is known: every 4 KB page of the new tables is materialized as it is
   * written, each costing at least {@link SparsePhysicalMemory#HEAP_BYTES_PER_PAGE}. The pages the memory holds
   * already are subtracted (one of them could lie where the tables go, if it was written before it was allocated),
   * so the figure is a lower bound, and it is compared with all the heap left: the check refuses only what would run
   * out of heap, never what would succeed.
   */
  private void checkHeap(MemoryRegistration r, PageTableBuilder.Layout layout, long writtenTablePages) {
    if (!(memory instanceof SparsePhysicalMemory sparse)) {
      return;
    }
    long newPages = writtenTablePages - sparse.materializedPages();
    if (newPages <= 0) {
      return;
    }
    long needed = newPages * SparsePhysicalMemory.HEAP_BYTES_PER_PAGE;
    long left = heap.bytesLeft(needed);
    if (needed <= left) {
      return;
    }
    PageSize ps = r.pageSize();
    PageSize larger = ps.compareTo(PageSize.SIZE_2M) < 0 ? PageSize.SIZE_2M
        : ps.compareTo(PageSize.SIZE_1G) < 0 ? PageSize.SIZE_1G : null;
    String advice = larger == null ? "give the JVM more heap (-Xmx)"
        : "register with larger pages (withPageSize(PageSize.SIZE_" + larger + "): "
            + PageTableBuilder.layout(larger.pagesSpanned(0, r.length()), larger).tableBytes()
            + " bytes of page tables) or give the JVM more heap (-Xmx)";
    throw new IllegalStateException("registration of " + r.length() + " bytes with " + ps + " pages needs "
        + layout.tableBytes() + " bytes of page tables (" + layout.pages() + " PTEs of 8 bytes"
        + (layout.directoryBytes() > 0 ? " and a directory of " + layout.directoryBytes() + " bytes" : "")
        + "), at least " + needed + " bytes of Java heap in SparsePhysicalMemory, but the JVM has " + left
        + " bytes of heap left (Runtime.maxMemory() less the heap in use); " + advice);
  }

  @Override
  public void deregister(int mdh) {
    boolean entered = inUse.enter();
    try {
      mdds.invalidate(mdh);
      if (contexts != null) {
        tableBuilder.release(mdds.get(mdh), mdds.tables(mdh), contexts);
      }
      invalidationCommands++;
      dropLinesOf(mdh);
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>With tables per registration ({@link PageTables#PER_REGISTRATION}) the frames and the registration's own
   * leaf tables and directory go back, one range as {@link #register} reserved them; in a context's tables
   * ({@link PageTables#PER_CONTEXT}) its frames, and the context's tables (root and leaf tables) with the context's
   * last registration (the next registration in it makes it anew). As tables go back, the PTE cache's lines of them
   * are invalidated (counted in the statistics' invalidations, not as a command): deregistration invalidated the
   * lines it found valid, but a line whose fetch was under way then is filled afterwards, and a later owner of the
   * bytes must not find it (until stop 74 it did, with tables per registration: a walk read the old directory where
   * the new owner's leaf table lay, and translated to the wrong frame with status OK). Given back later (false now)
   * while any translation or PTE-line fetch is under way in this IOMMU (a walk or a prefetch could still read the
   * tables, and fill a line with what a later owner of the bytes wrote), or while {@code memory} keeps the bytes (a
   * NIC write into them on its way): at the IOMMU's next {@link #register} or {@code deregisterAndFree} that finds
   * nothing under way ({@link #bytesAwaitingRelease}); the registration is deregistered at once all the same.
   *
   * <p>A {@code memory} that is a view of another memory ({@link HostMemory#physicalMemory}: another node's, whose
   * capacity is the same) is refused too, before anything changes (until stop 74 the registration was deregistered
   * and the free refused after, or another node's memory gave back its own registration's bytes); where either memory
   * does not say, one that reports other bytes reserved than this IOMMU's memory is refused. A free that throws (the memory says the bytes are not reserved)
   * throws from this call, or from the {@link #register} or {@code deregisterAndFree} that gives them back, once:
   * what was given back before it is not listed again, and the refused range is dropped from the list (it stays
   * reserved in this IOMMU's memory).
   */
  @Override
  public boolean deregisterAndFree(int mdh, HostMemory memory) {
    if (memory == null || memory.capacity() != this.memory.capacity()) {
      throw new IllegalArgumentException("memory must be this IOMMU's memory or a view of it (capacity "
          + this.memory.capacity() + ") but was " + (memory == null ? "null" : "of capacity " + memory.capacity()));
    }
    // Every node's memory has the same capacity. A view says which memory it views (HostMemory.physicalMemory, since
    // stop 74): another node's is refused before anything changes (it gave back that node's registration). Where a
    // memory does not say, a view reserves through the memory it wraps and reports the same bytes reserved, so one
    // that reports others is another (an unrelated one refused the free after the deregistration).
    HostMemory below = memory.physicalMemory();
    HostMemory mine = this.memory.physicalMemory();
    if (below != null && mine != null) {
      if (below != mine) {
        throw new IllegalArgumentException("memory must be this IOMMU's memory or a view of it but is a view of"
            + " another memory (another node's?); mdh " + mdh + " stays registered");
      }
    } else if (memory != this.memory && memory.allocatedBytes() != this.memory.allocatedBytes()) {
      throw new IllegalArgumentException("memory must be this IOMMU's memory or a view of it (" + this.memory
          .allocatedBytes() + " bytes reserved) but was another memory of the same capacity, with "
          + memory.allocatedBytes() + " bytes reserved");
    }
    boolean entered = inUse.enter();
    try {
      MemoryDomainDescriptor d = mdds.registered(mdh);
      PageTableBuilder.Tables t = mdds.tables(mdh);
      deregister(mdh);
      PageSize ps = d.pageSize();
      long bytes = contexts == null ? PageTableBuilder.layout(t.pages(), ps).totalBytes() : t.pages() << ps.shift();
      // With tables per registration the block ends with its tables (from its first leaf table on).
      long tables = contexts == null ? t.leaf() : t.data() + bytes;
      Deferred frames = new Deferred(t.data(), bytes, tables, memory, -1, null);
      deferred.add(frames);
      if (contexts != null) {
        // the context's tables go with its last registration (whether it was the last is seen as the frees run)
        deferred.add(new Deferred(0, 0, 0, memory, d.translationContext(), ps));
      }
      giveBackDeferred();
      return !deferred.contains(frames);
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Memory {@link #deregisterAndFree} could not give back at once: a range, where page tables begin in it
   * ({@code address + bytes} when it holds none), and the view to give it back through; or (with {@code ps} set) a
   * translation context whose tables go if it is empty by then.
   */
  private record Deferred(long address, long bytes, long tables, HostMemory through, int tc, PageSize ps) {}

  /** What {@link #deregisterAndFree} could not give back yet, in the order asked. */
  private final List<Deferred> deferred = new ArrayList<>();

  /**
   * Gives back what {@link #deregisterAndFree} could not, once nothing is under way in the pipeline: at every
   * {@link #register} and {@link #deregisterAndFree}. A range a view still keeps (a NIC write into it on its way)
   * stays listed for the next time.
   */
  private void giveBackDeferred() {
    if (deferred.isEmpty() || (pipeline != null && !pipeline.idle())) {
      return;
    }
    // Each entry leaves the list before its free, so a free that throws (its memory says the bytes are not reserved
    // there: never given back through it, however often asked) leaves listed only what is still to give back, and
    // the next registration does not meet the same refusal. Until stop 74 the list was cleared after the loop: a
    // throw left the entries freed before it listed, to be freed again.
    List<Deferred> still = new ArrayList<>();
    try {
      while (!deferred.isEmpty()) {
        Deferred x = deferred.remove(0);
        if (x.ps() == null) {
          dropLines(x.tables(), x.address() + x.bytes() - x.tables());
          if (!x.through().free(x.address(), x.bytes())) {
            still.add(x);
          }
          continue;
        }
        for (long[] table : contexts.unmakeIfEmpty(x.tc(), x.ps())) {
          dropLines(table[0], table[1]);
          if (!x.through().free(table[0], table[1])) {
            still.add(new Deferred(table[0], table[1], table[0], x.through(), -1, null));
          }
        }
      }
    } finally {
      deferred.addAll(0, still);
    }
  }

  /**
   * Invalidates the PTE cache's lines of page tables about to be given back, valid ones all (nothing is pending: the
   * pipeline is idle), counted in the statistics' invalidations: a later owner of the bytes may write tables or data
   * there, and a walk must read those, not a line of the old tables.
   */
  private void dropLines(long address, long bytes) {
    if (cache != null && bytes > 0) {
      int lineBytes = config.lineBytes();
      invalidations += cache.invalidateRange(address & -lineBytes, (address + bytes - 1) & -lineBytes);
    }
  }

  /**
   * @return bytes of frames and tables {@link #deregisterAndFree} has not given back yet (it gives them back at this
   *     IOMMU's next registration or {@code deregisterAndFree} that finds nothing under way); a context's tables
   *     count once its last registration's frames are given back
   */
  public long bytesAwaitingRelease() {
    long n = 0;
    for (Deferred x : deferred) {
      n += x.bytes();
    }
    return n;
  }

  /**
   * How many registrations an MDH has held: 0 never registered, 1 only its first owner; 2 or more means the handle
   * was handed out again, so a copy kept from an earlier registration now reaches the newer owner's memory (the
   * hardware has the same hazard; turn reuse off with {@link IommuConfig.Builder#reuseMdhs}).
   *
   * @param mdh 0 to 4095
   * @return the MDH's generation
   */
  public int mdhGeneration(int mdh) {
    return mdds.generation(mdh);
  }

  @Override
  public Optional<MemoryDomainDescriptor> descriptor(int mdh) {
    NetworkAddresses.checkMdh(mdh);
    return Optional.ofNullable(mdds.get(mdh));
  }

  /**
   * Clears the leaf PTE of the page holding an offset (the driver unmapping a page), so that later walks fault with
   * {@link Status#TRANSLATION_FAULT}. Like the hardware, cached copies stay until invalidated: call
   * {@link #invalidateRange} afterwards.
   *
   * @param mdh a registered MDH
   * @param offset an offset inside the registration
   * @throws IllegalArgumentException when the MDH was never registered or was deregistered (with
   *     {@link PageTables#PER_CONTEXT} its range may be a later registration's by now), or the offset is outside
   *     the registration; nothing is written
   */
  public void unmapPage(int mdh, long offset) {
    boolean entered = inUse.enter();
    try {
      MemoryDomainDescriptor d = mdds.registered(mdh);
      if (offset < 0 || offset >= d.length()) {
        throw new IllegalArgumentException(
            "offset must be in [0, " + d.length() + ") but was " + offset);
      }
      long pte = PteWalker.leafPteAddressNow(memory, mdds, mdh, offset >>> d.pageSize().shift());
      if (pte >= 0) {
        memory.writeLong(pte, PageTableEntry.NOT_PRESENT);
      }
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * The physical address of a registration's first page frame (its frames are contiguous in this model).
   *
   * @param mdh an MDH registered now or before (a deregistered one answers for its last registration)
   * @return the physical base
   */
  public long physicalBase(int mdh) {
    mdds.known(mdh);
    return mdds.dataBase(mdh);
  }

  /**
   * Where a registration lies in its translation context's IO virtual address space: the MDD's {@code mem_base}
   * (aries-facts §4), the address of its first byte there. A walk of offset {@code o} translates the context's
   * address {@code ioVirtualBase + o} through {@link #rootTable}. It is 0 with {@link PageTables#PER_REGISTRATION},
   * where every registration's tables are its own; with {@link PageTables#PER_CONTEXT} it is the range the driver
   * placed the registration at, a multiple of its page size.
   *
   * @param mdh an MDH registered now or before (a deregistered one answers for its last registration, whose range
   *     a later registration may hold by now)
   * @return the IO virtual base, bytes
   */
  public long ioVirtualBase(int mdh) {
    MemoryDomainDescriptor d = mdds.known(mdh);
    return mdds.firstPage(mdh) << d.pageSize().shift();
  }

  /**
   * The physical address of the table a walk of this registration starts at: the directory for 4 KB pages, the single
   * table for huge pages. With {@link PageTables#PER_CONTEXT} that is its context's root table, which other
   * registrations of the context and page size share.
   *
   * @param mdh an MDH registered now or before (a deregistered one answers for its last registration)
   * @return the root table's physical address
   */
  public long rootTable(int mdh) {
    MemoryDomainDescriptor d = mdds.known(mdh);
    return d.pageSize().isHuge() ? mdds.leafBase(mdh) : mdds.directoryBase(mdh);
  }

  // ---------------------------------------------------------------------------------------------------- invalidation

  /**
   * Invalidates every cached line of one MDD's page tables (the "invalidate MDD" command [S6c]).
   *
   * <p>Cost: a scan of the tag RAM, one set per issue interval, {@code sets × issueIntervalPs} (assumed). Lines with a
   * fetch outstanding are left alone; their fetch reads the table as it is when it completes.
   *
   * <p>With {@link PageTables#PER_CONTEXT} a deregistered MDH has nothing left to invalidate: its lines went when it
   * was deregistered, and the tables it used may belong to a later registration by now, whose lines stay.
   *
   * @param mdh an MDH, 0..4095
   * @return the command's cost, picoseconds
   */
  public long invalidateMdd(int mdh) {
    boolean entered = inUse.enter();
    try {
      NetworkAddresses.checkMdh(mdh);
      invalidationCommands++;
      MemoryDomainDescriptor d = mdds.get(mdh);
      if (contexts == null || (d != null && d.valid())) {
        dropLinesOf(mdh);
      }
      return config.sets() * config.issueIntervalPs();
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Drops the cached lines of one MDD's page tables: by owner with tables per registration, else the lines holding
   * the registration's PTEs, read from its tables as they are now (deregistration calls this after releasing them).
   */
  private void dropLinesOf(int mdh) {
    if (cache != null) {
      if (contexts == null) {
        invalidations += cache.invalidateOwner(mdh);
      } else if (mdds.get(mdh) != null) {
        // The registration's PTEs share lines and tables with its neighbours: drop the lines that hold any of them.
        invalidatePages(mdh, 0, mdds.pageEnd(mdh) - mdds.firstPage(mdh) - 1);
      }
    }
  }

  /**
   * Invalidates the cached leaf PTEs of the pages an offset range of an MDD touches (the "invalidate IOMMU pages"
   * command [S6c]).
   *
   * <p>Cost: one tag probe per issue interval for each leaf line the range covers, at most a full scan:
   * {@code min(lines covered, sets) × issueIntervalPs} (assumed).
   *
   * @param mdh a registered MDH
   * @param offset first byte of the range, ≥ 0
   * @param length bytes, ≥ 1
   * @return the command's cost, picoseconds
   * @throws IllegalArgumentException when the MDH was never registered or was deregistered (its lines went when it
   *     was; use {@link #invalidateMdd}, which takes any MDH), or the range is outside the registration; nothing is
   *     invalidated or counted
   */
  public long invalidateRange(int mdh, long offset, long length) {
    boolean entered = inUse.enter();
    try {
      MemoryDomainDescriptor d = mdds.registered(mdh);
      if (offset < 0 || length < 1 || offset >= d.length() || length > d.length() - offset) {
        throw new IllegalArgumentException("offset + length must lie within [0, " + d.length() + ") with length >= 1"
            + " but were offset " + offset + ", length " + length);
      }
      invalidationCommands++;
      int shift = d.pageSize().shift();
      long lines = invalidatePages(mdh, offset >>> shift, (offset + length - 1) >>> shift);
      return Math.min(lines, config.sets()) * config.issueIntervalPs();
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Invalidates the cached lines holding the leaf PTEs of a registration's relative pages {@code lo..hi}: line by line
   * when they are no more than the cache's lines, else by a scan of the tags for each run of lines.
   *
   * @return the lines those PTEs lie in (the command's probes)
   */
  private long invalidatePages(int mdh, long lo, long hi) {
    // The runs of consecutive PTE lines: one for huge pages or a registration's own leaf tables, one for each leaf
    // table of its context's it uses for 4 KB pages.
    int lineBytes = config.lineBytes();
    long[] runs = new long[8];
    int n = 0;
    long page = lo;
    while (page <= hi) {
      long runEnd = hi;
      if (contexts != null && !mdds.get(mdh).pageSize().isHuge()) {
        long first = mdds.firstPage(mdh);
        runEnd = Math.min(hi, PageTableBuilder.leafTableEnd(first + page) - first - 1);
      }
      long a = PteWalker.leafPteAddressNow(memory, mdds, mdh, page);
      long b = PteWalker.leafPteAddressNow(memory, mdds, mdh, runEnd);
      page = runEnd + 1;
      if (a < 0) {
        continue; // no leaf table there, so nothing of it can be cached
      }
      long lineLo = a & -lineBytes;
      long lineHi = b & -lineBytes;
      if (n == runs.length) {
        runs = java.util.Arrays.copyOf(runs, n * 2);
      }
      runs[n++] = lineLo;
      runs[n++] = lineHi;
    }
    long lines = 0;
    for (int i = 0; i < n; i += 2) {
      lines += (runs[i + 1] - runs[i]) / lineBytes + 1;
    }
    if (cache != null) {
      for (int i = 0; i < n; i += 2) {
        if (lines <= config.lines()) {
          for (long a = runs[i]; a <= runs[i + 1]; a += lineBytes) {
            invalidations += cache.invalidateLine(a);
          }
        } else {
          invalidations += cache.invalidateRange(runs[i], runs[i + 1]);
        }
      }
    }
    return lines;
  }

  /**
   * Invalidates the whole PTE cache.
   *
   * <p>Cost: {@code sets × issueIntervalPs} (assumed, as for an MDD).
   *
   * @return the command's cost, picoseconds
   */
  public long invalidateAll() {
    boolean entered = inUse.enter();
    try {
      invalidationCommands++;
      if (cache != null) {
        invalidations += cache.invalidateAll();
      }
      return config.sets() * config.issueIntervalPs();
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  // ----------------------------------------------------------------------------------------------- untimed translate

  @Override
  public TranslationResult translateNow(
      int mdh, long offset, int length, AccessKind access, int protectionTag, int protectionKey) {
    Status s = preCheck(mdh, offset, length, access, protectionTag, protectionKey);
    if (s != Status.OK) {
      return TranslationResult.fault(s);
    }
    return PteWalker.walkNow(memory, mdds, mdh, offset, length, access.needsWritable());
  }

  private Status preCheck(int mdh, long offset, int length, AccessKind access, int tag, int key) {
    checkArguments(mdh, length, access);
    MemoryDomainDescriptor d = mdds.get(mdh);
    if (d == null) {
      return Status.INVALID_MDH;
    }
    return d.check(offset, length, access, tag, key);
  }

  /** The caller mistakes every translate entry point throws for. */
  private static void checkArguments(int mdh, int length, AccessKind access) {
    NetworkAddresses.checkMdh(mdh);
    if (length < 0) {
      throw new IllegalArgumentException("length must be >= 0 but was " + length);
    }
    if (access == null) {
      throw new IllegalArgumentException("access must not be null");
    }
  }

  // -------------------------------------------------------------------------------------------------- timed translate

  @Override
  public void translate(
      TranslationClient client, int mdh, long offset, int length, AccessKind access, int protectionTag,
      int protectionKey, TranslationListener listener, Object ref, long arg) {
    if (client == null || listener == null) {
      throw new IllegalArgumentException("client and listener must not be null");
    }
    // A thread other than the clock's owner is refused here, before the walk takes a PTE-cache line as pending: the
    // scheduling call's own refusal came after, and the line stayed pending for good. One compare a translation that
    // schedules events anyway; translateHit has no such check, as it schedules nothing and so is never refused half
    // done.
    scheduler.checkCaller("Iommu.translate");
    boolean entered = inUse.enter();
    try {
      Status s = preCheck(mdh, offset, length, access, protectionTag, protectionKey);
      if (cache == null) {
        start();
      }
      pipeline.submit(client, mdh, offset, length, access, s, listener, ref, arg);
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>For the IOMMU: a request the pipeline can accept at once (nothing queued ahead, the issue interval past, an
   * in-flight place free) whose MDD checks pass, whose walk finds every line valid in the PTE cache and whose page
   * holds the whole range completes here: the cache, the statistics (a hit, its walk, a latency of {@code
   * hitLatencyPs}) and the pipeline (the issue interval, an in-flight place until {@code now + hitLatencyPs}) change
   * as {@link #translate} would change them, and {@code hit} gets the physical address and {@code now +
   * hitLatencyPs}. Anything else (a fault, a miss, a pending line, a page-straddling range, a busy pipeline) returns
   * false and changes nothing. Allocation-free; no event is scheduled.
   */
  @Override
  public boolean translateHit(
      TranslationClient client, int mdh, long offset, int length, AccessKind access, int protectionTag,
      int protectionKey, TranslationHit hit) {
    if (client == null || hit == null) {
      throw new IllegalArgumentException("client and hit must not be null");
    }
    boolean entered = inUse.enter();
    try {
      // preCheck's checks, keeping the descriptor for the walk.
      checkArguments(mdh, length, access);
      MemoryDomainDescriptor d = mdds.get(mdh);
      if (d == null || d.check(offset, length, access, protectionTag, protectionKey) != Status.OK) {
        return false;
      }
      if (cache == null) {
        start();
      }
      long now = scheduler.now();
      long physical = pipeline.tryHit(client, d, mdh, offset, length, access.needsWritable(), now);
      if (physical < 0) {
        return false;
      }
      hit.set(physical, now + pipeline.hitLatencyPs());
      return true;
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /** @return translations accepted into the pipeline and not yet completed */
  public int inFlight() {
    return pipeline == null ? 0 : pipeline.inFlight();
  }

  /** @return translations waiting to enter the pipeline */
  public int queued() {
    return pipeline == null ? 0 : pipeline.queued();
  }

  private void start() {
    int ways = config.ways();
    int sets = config.sets();
    ReplacementPolicy policy = config.policy().create(sets, ways, config.seed());
    if (policy == null) { // the configuration's probe had one: a factory that answers differently the second time
      throw new IllegalStateException("policy " + config.policy().getClass().getName() + " made no policy (null) for"
          + " sets " + sets + " and ways " + ways + " at the IOMMU's first translation");
    }
    cache = new SetAssociativePteCache(ways, sets, config.ptesPerLine(), policy);
    counters = new IommuCounters();
    pipeline = new MissPipeline(memory, scheduler, mdds, cache, counters, config);
  }

  // ------------------------------------------------------------------------------------------------------ statistics

  /**
   * A snapshot of the statistics, per client (all four, zeros included) and in total. It writes nothing, so it takes
   * no part in the concurrent-use guard: taken on another thread while the IOMMU translates, it may mix counts of
   * before and after a translation, but it changes nothing and fails nobody. (For a few hours of stop 77 it held the
   * guard, and a reader on another thread made the running job's next translation fail as concurrent use.)
   *
   * @return the snapshot
   */
  public IommuStatistics statistics() {
    return IommuCounters.snapshot(counters, invalidations, invalidationCommands,
        pipeline == null ? 0 : pipeline.walker().fetches());
  }

  /** Zeroes every counter and histogram (the cache contents stay). */
  public void resetStatistics() {
    boolean entered = inUse.enter();
    try {
      if (counters != null) {
        counters.reset();
        pipeline.walker().resetFetchCount();
      }
      invalidations = 0;
      invalidationCommands = 0;
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /** @return whether the cache and pipeline have been built (on the first translation) */
  public boolean started() {
    return cache != null;
  }

  /** Package-private view for tests: the cache, or null before the first translation. */
  SetAssociativePteCache cache() {
    return cache;
  }
}
