package io.github.ariesmodel.iommu;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.PageTableEntries;
import io.github.ariesmodel.core.PageTableEntry;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.AddressTranslation.TranslationResult;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.iommu.internal.SetAssociativePteCache;
import java.util.Arrays;

/**
 * The page-table walker: where each level's PTE of a translation lies, and the fetch of a PTE line from host memory
 * on a PTE-cache miss through an outstanding fetch buffer (OFB) (aries-facts §4 [S6c]: a miss takes an OFB and marks
 * a way pending; misses to a pending line merge into its fetch; the fetch is one host-memory read of a line).
 *
 * <p>A fetch takes {@code pteFetchLatencyPs} (assumed, see {@link IommuConfig}); then the line is filled from the
 * tables as they are at that moment, the buffer is freed, and the requests that waited on it are handed, in the order
 * they arrived, to the {@link FillListener} (the {@link MissPipeline}). Fetch buffers are {@code fetchBuffers} (8)
 * small int-indexed records; the fill is its own event handler.
 *
 * <p>The untimed walk {@link #walkNow} reads the same tables straight from memory, bypassing the cache.
 */
final class PteWalker {

  /** Told when a fetched line is in the cache, with the requests that waited for it. */
  @FunctionalInterface
  interface FillListener {
    /**
     * @param now the fill time
     * @param firstWaiter the first request that waited (linked through {@link TranslationSlot#nextWaiter}), or null
     */
    void onLineFilled(long now, TranslationSlot firstWaiter);
  }

  private static final long LEAF_INDEX_MASK = PageTableBuilder.LEAF_INDEX_MASK;

  private final HostMemory memory;
  private final Scheduler scheduler;
  private final MddTable mdds;
  private final SetAssociativePteCache cache;
  private final FillListener fillListener;
  private final long fetchLatencyPs;
  private final long lineMask;
  private final int pteIndexMask;
  private final EventHandler fillHandler = this::onFill;

  private final int[] freeBuffers;
  private int freeBufferCount;
  private final int[] bufferLine;
  private final TranslationSlot[] firstWaiter;
  private final TranslationSlot[] lastWaiter;
  /** Buffer fetching each cache line, or -1. */
  private final int[] lineBuffer;
  private long fetches;

  PteWalker(HostMemory memory, Scheduler scheduler, MddTable mdds, SetAssociativePteCache cache, IommuConfig config,
      FillListener fillListener) {
    this.memory = memory;
    this.scheduler = scheduler;
    this.mdds = mdds;
    this.cache = cache;
    this.fillListener = fillListener;
    this.fetchLatencyPs = config.pteFetchLatencyPs();
    this.lineMask = -(long) config.lineBytes();
    this.pteIndexMask = config.ptesPerLine() - 1;
    int b = config.fetchBuffers();
    freeBuffers = new int[b];
    for (int i = 0; i < b; i++) {
      freeBuffers[i] = b - 1 - i;
    }
    freeBufferCount = b;
    bufferLine = new int[b];
    firstWaiter = new TranslationSlot[b];
    lastWaiter = new TranslationSlot[b];
    lineBuffer = new int[config.lines()];
    Arrays.fill(lineBuffer, -1);
  }

  // ------------------------------------------------------------------------------------------------ walk geometry

  /**
   * Sets a request's walk to its first level: the directory entry for 4 KB pages, the leaf entry for huge pages. A
   * zero-length access at the very end of a registration walks its last byte's page.
   */
  void start(TranslationSlot s) {
    MemoryDomainDescriptor d = mdds.get(s.mdh);
    int shift = d.pageSize().shift();
    long offset = s.offset;
    long walkOffset = walkOffset(d, offset, s.length);
    long page = mdds.firstPage(s.mdh) + (walkOffset >>> shift);
    s.relativePage = page;
    s.pageOffset = pageOffset(offset, walkOffset, shift);
    boolean twoLevel = shift == PageSize.SMALL_SHIFT;
    s.level = twoLevel ? TranslationSlot.Level.DIRECTORY : TranslationSlot.Level.LEAF;
    s.twoLevel = twoLevel;
    target(s, firstPteAddress(s.mdh, page, twoLevel));
  }

  /** Moves a walk from a present directory entry to the leaf entry it points at. */
  void descend(TranslationSlot s, long directoryPte) {
    s.level = TranslationSlot.Level.LEAF;
    target(s, leafPteAddress(directoryPte, s.relativePage));
  }

  private void target(TranslationSlot s, long pteAddress) {
    s.line = lineOf(pteAddress);
    s.pteIndex = pteIndexOf(pteAddress);
  }

  // The walk's arithmetic, shared by the slot-based walk above and the pipeline's hit fast path (which keeps the
  // same values in locals instead of writing a slot).

  /** The offset a walk translates: a zero-length access at the very end of a registration walks its last byte. */
  static long walkOffset(MemoryDomainDescriptor d, long offset, int length) {
    return length == 0 && offset == d.length() ? offset - 1 : offset;
  }

  /** The request's offset into the page its walk ends at. */
  static long pageOffset(long offset, long walkOffset, int shift) {
    return (walkOffset & ((1L << shift) - 1)) + (offset - walkOffset);
  }

  /**
   * The physical address of a walk's first PTE: the directory entry of page {@code page} of the registration's
   * tables (its first page plus the relative page, {@link MddTable#firstPage}) for 4 KB pages ({@code twoLevel}),
   * its leaf entry for huge pages.
   */
  long firstPteAddress(int mdh, long page, boolean twoLevel) {
    return twoLevel
        ? mdds.directoryBase(mdh) + (page >>> PageTableBuilder.ENTRIES_PER_TABLE_SHIFT) * PageTableEntry.BYTES
        : mdds.leafBase(mdh) + page * PageTableEntry.BYTES;
  }

  /** The physical address of the leaf PTE of page {@code page} of the tables, under a present directory entry. */
  static long leafPteAddress(long directoryPte, long page) {
    return PageTableEntries.physicalBase(directoryPte) + (page & LEAF_INDEX_MASK) * PageTableEntry.BYTES;
  }

  /**
   * The physical address of the leaf PTE of relative page {@code rel} of a registration, read through the tables in
   * memory now (the driver's view: no cache, no time).
   *
   * @return the address, or -1 when a 4 KB page's directory entry is not present
   */
  static long leafPteAddressNow(HostMemory memory, MddTable mdds, int mdh, long rel) {
    return leafPteAddressNow(memory, mdds.directoryBase(mdh), mdds.leafBase(mdh),
        mdds.get(mdh).pageSize().isHuge(), mdds.firstPage(mdh) + rel);
  }

  /**
   * The physical address of the leaf PTE of page {@code page} of tables rooted at {@code directory} (4 KB pages) or
   * {@code leaf} (huge pages), read through the tables in memory now.
   *
   * @return the address, or -1 when a 4 KB page's directory entry is not present
   */
  static long leafPteAddressNow(HostMemory memory, long directory, long leaf, boolean huge, long page) {
    if (huge) {
      return leaf + page * PageTableEntry.BYTES;
    }
    long dir = memory.readLong(
        directory + (page >>> PageTableBuilder.ENTRIES_PER_TABLE_SHIFT) * PageTableEntry.BYTES);
    return PageTableEntries.present(dir) ? leafPteAddress(dir, page) : -1;
  }

  /** @return the address of the cache line holding a PTE */
  long lineOf(long pteAddress) {
    return pteAddress & lineMask;
  }

  /** @return a PTE's index within its cache line */
  int pteIndexOf(long pteAddress) {
    return (int) ((pteAddress >>> 3) & pteIndexMask);
  }

  /**
   * Walks a registration's tables in memory now, without the cache or time (the untimed port).
   *
   * @param mdh a valid MDH whose MDD checks passed
   * @return the translation, or the fault the tables give
   */
  static TranslationResult walkNow(
      HostMemory memory, MddTable mdds, int mdh, long offset, int length, boolean write) {
    MemoryDomainDescriptor d = mdds.get(mdh);
    PageSize ps = d.pageSize();
    long walkOffset = length == 0 && offset == d.length() ? offset - 1 : offset;
    long pteAddress = leafPteAddressNow(memory, mdds, mdh, walkOffset >>> ps.shift());
    if (pteAddress < 0) {
      return TranslationResult.fault(Status.TRANSLATION_FAULT);
    }
    long pte = memory.readLong(pteAddress);
    if (!PageTableEntries.present(pte)) {
      return TranslationResult.fault(Status.TRANSLATION_FAULT);
    }
    if (write && !PageTableEntries.writable(pte)) {
      return TranslationResult.fault(Status.NOT_WRITABLE);
    }
    long pageOffset = (walkOffset & (ps.bytes() - 1)) + (offset - walkOffset);
    int contiguous = (int) Math.min(length, ps.bytes() - pageOffset);
    return new TranslationResult(Status.OK, PageTableEntries.physicalBase(pte) + pageOffset, contiguous);
  }

  // ------------------------------------------------------------------------------------------------------ fetches

  /** @return whether an outstanding fetch buffer is free */
  boolean hasFreeBuffer() {
    return freeBufferCount > 0;
  }

  /**
   * Starts fetching a cache line that was just allocated (pending), taking a free buffer.
   *
   * @param line the cache line index ({@link SetAssociativePteCache#allocate})
   * @param now the time
   * @return the buffer, for {@link #addWaiter}
   * @throws IllegalStateException when no buffer is free (the caller checks {@link #hasFreeBuffer} first)
   */
  int startFetch(int line, long now) {
    if (freeBufferCount == 0) {
      throw new IllegalStateException("no free fetch buffer: check hasFreeBuffer() first");
    }
    int b = freeBuffers[--freeBufferCount];
    bufferLine[b] = line;
    firstWaiter[b] = null;
    lastWaiter[b] = null;
    lineBuffer[line] = b;
    fetches++;
    scheduler.scheduleAt(now + fetchLatencyPs, fillHandler, null, b);
    return b;
  }

  /** @return the buffer fetching a pending cache line */
  int bufferOf(int line) {
    return lineBuffer[line];
  }

  /** Queues a request on a buffer's fetch, behind those already waiting. */
  void addWaiter(int buffer, TranslationSlot s) {
    s.nextWaiter = null;
    TranslationSlot last = lastWaiter[buffer];
    if (last == null) {
      firstWaiter[buffer] = s;
    } else {
      last.nextWaiter = s;
    }
    lastWaiter[buffer] = s;
  }

  private void onFill(long now, Object ref, long arg) {
    int b = (int) arg;
    int line = bufferLine[b];
    cache.fill(line, memory);
    lineBuffer[line] = -1;
    TranslationSlot w = firstWaiter[b];
    firstWaiter[b] = null;
    lastWaiter[b] = null;
    freeBuffers[freeBufferCount++] = b;
    fillListener.onLineFilled(now, w);
  }

  /** @return PTE-line reads from host memory so far, prefetches included */
  long fetches() {
    return fetches;
  }

  /** @return the number of buffers free now */
  int freeBuffers() {
    return freeBufferCount;
  }

  void resetFetchCount() {
    fetches = 0;
  }
}
