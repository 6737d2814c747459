package io.github.ariesmodel.iommu;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.NetworkAddresses;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.PageTableEntries;
import io.github.ariesmodel.core.PageTableEntry;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationListener;
import io.github.ariesmodel.iommu.internal.SetAssociativePteCache;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;

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
 *       [S6c {@code pg_mode}]. Modelling choice: each registration gets its own tables rooted at its MDD (the hardware
 *       roots them per translation context; the context is kept in the MDD but does not select a table).
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
 * <p><b>Cost.</b> Construction allocates only a few small objects; the MDD table grows with the highest MDH used, and
 * the cache and pipeline arrays are made on the first translation, so a system of 92,544 nodes pays for the IOMMUs
 * it uses. In steady state {@link #translate} allocates nothing. Single-threaded, like the scheduler that drives it.
 *
 * <p><b>Not modelled:</b> freeing physical memory on deregistration (host memory is a bump allocator), the vMDH CAM,
 * cached not-present PTE re-fetch, the three request queues' arbitration (one FIFO here).
 */
public final class Iommu implements AddressTranslation {

  private static final int MAX_MDDS = NetworkAddress.MAX_MDH + 1;
  private static final int TABLE_BYTES = 4096;
  private static final int ENTRIES_PER_TABLE_SHIFT = 9;
  private static final int CLIENTS = TranslationClient.values().length;
  private static final TranslationClient[] CLIENT_VALUES = TranslationClient.values();
  private static final Status[] STATUS_VALUES = Status.values();

  private static final int ST_TRANSLATIONS = 0;
  private static final int ST_HITS = 1;
  private static final int ST_MISSES = 2;
  private static final int ST_MERGED = 3;
  private static final int ST_EVICTIONS = 4;
  private static final int ST_FAULTS = 5;
  private static final int ST_STALL = 6; // + StallCause.ordinal()
  private static final int ST_ONE_LEVEL = 9;
  private static final int ST_TWO_LEVEL = 10;
  private static final int ST_PREFETCHES = 11;
  private static final int ST_LATENCY = 12;
  private static final int STATS = 13;

  private static final int DONE = 0;
  private static final int WAITING = 1;
  private static final int STALL_NO_FETCH_BUFFER = 2;
  private static final int STALL_ALL_WAYS_PENDING = 3;

  private static final int PHASE_DIRECTORY = 0;
  private static final int PHASE_LEAF = 1;

  private static final int F_WALKED = 1;
  private static final int F_FETCHED = 2;
  private static final int F_WAITED = 4;

  private final HostMemory memory;
  private final Scheduler scheduler;
  private final IommuConfig config;
  private final EventHandler fillHandler = this::onFill;
  private final EventHandler completeHandler = this::onComplete;
  private final EventHandler drainHandler = this::onDrain;

  // Shared empty tables (zero-length arrays cannot change), so an IOMMU that never registers allocates none.
  private static final MemoryDomainDescriptor[] NO_MDDS = new MemoryDomainDescriptor[0];
  private static final long[] NO_LONGS = new long[0];

  // MDD table, grown to the highest MDH in use.
  private MemoryDomainDescriptor[] mdds = NO_MDDS;
  private long[] dataBase = NO_LONGS;
  private long[] directoryBase = NO_LONGS;
  private long[] leafBase = NO_LONGS;
  private long[] leafEnd = NO_LONGS;
  private int nextMdh;

  // Made on first use.
  private SetAssociativePteCache cache;
  private long[] stats;
  private Histogram[] histograms;
  private long invalidations;
  private long invalidationCommands;
  private long pteFetches;

  // Input FIFO (ring, grows by doubling).
  private int qHead;
  private int qSize;
  private int qMask;
  private byte[] qClient;
  private int[] qMdh;
  private long[] qOffset;
  private int[] qLength;
  private boolean[] qWrite;
  private byte[] qStatus;
  private TranslationListener[] qListener;
  private Object[] qRef;
  private long[] qArg;
  private long[] qStart;
  private int headStallMask;

  // In-flight slots.
  private int[] freeSlots;
  private int freeSlotCount;
  private byte[] sClient;
  private int[] sMdh;
  private long[] sRelPage;
  private long[] sPageOffset;
  private int[] sLength;
  private boolean[] sWrite;
  private byte[] sStatus;
  private TranslationListener[] sListener;
  private Object[] sRef;
  private long[] sArg;
  private long[] sStart;
  private int[] sPhase;
  private long[] sLine;
  private int[] sPteIndex;
  private int[] sFlags;
  private int[] sStallMask;
  private int[] sNextWaiter;
  private int[] sLevels;
  private long[] sPhysical;
  private int[] sContiguous;

  // Slots stalled after entering the pipeline (their second level could not allocate), served first, in order.
  private int[] blocked;
  private int blockedHead;
  private int blockedSize;

  // Outstanding fetch buffers.
  private int[] freeBuffers;
  private int freeBufferCount;
  private int[] bufferLine;
  private int[] bufferFirstWaiter;
  private int[] bufferLastWaiter;
  private int[] lineBuffer;

  private long nextIssuePs;
  private long drainScheduledAt = -1;
  private int inFlight;

  /**
   * An IOMMU for one node.
   *
   * @param memory the node's physical memory: page tables and registered frames are allocated in it, PTE lines read
   *     from it
   * @param scheduler the simulation clock
   * @param config geometry, resources and timing
   */
  public Iommu(HostMemory memory, Scheduler scheduler, IommuConfig config) {
    if (memory == null || scheduler == null || config == null) {
      throw new IllegalArgumentException("memory, scheduler and config must not be null");
    }
    this.memory = memory;
    this.scheduler = scheduler;
    this.config = config;
  }

  /** @return the configuration */
  public IommuConfig config() {
    return config;
  }

  // ---------------------------------------------------------------------------------------------------- registration

  @Override
  public MemoryDomainDescriptor register(MemoryRegistration r) {
    if (r == null) {
      throw new IllegalArgumentException("registration must not be null");
    }
    int mdh = freeMdh();
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
    MemoryDomainDescriptor d = new MemoryDomainDescriptor(mdh, true, r.virtualBase(), r.length(), r.writable(),
        r.protectionTag(), r.protectionKey(), r.translationContext(), ps, r.completionQueue(), r.prefetch());
    ensureMddCapacity(mdh);
    mdds[mdh] = d;
    dataBase[mdh] = data;
    directoryBase[mdh] = directory;
    leafBase[mdh] = leaf;
    leafEnd[mdh] = leaf + pages * PageTableEntry.BYTES;
    return d;
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
        for (int b = 0; b < 8; b++) {
          chunk[i * 8 + b] = (byte) (pte >>> (8 * b));
        }
      }
      memory.write(table + done * PageTableEntry.BYTES, chunk, 0, n * PageTableEntry.BYTES);
      done += n;
    }
  }

  private int freeMdh() {
    for (int n = 0; n < MAX_MDDS; n++) {
      int mdh = (nextMdh + n) & NetworkAddress.MAX_MDH;
      if (mdh >= mdds.length || mdds[mdh] == null || !mdds[mdh].valid()) {
        nextMdh = (mdh + 1) & NetworkAddress.MAX_MDH;
        return mdh;
      }
    }
    throw new IllegalStateException("no free MDH: all 4096 memory domain descriptors are registered");
  }

  private void ensureMddCapacity(int mdh) {
    if (mdh < mdds.length) {
      return;
    }
    int n = Math.min(MAX_MDDS, Math.max(8, Integer.highestOneBit(mdh) << 1));
    mdds = Arrays.copyOf(mdds, n);
    dataBase = Arrays.copyOf(dataBase, n);
    directoryBase = Arrays.copyOf(directoryBase, n);
    leafBase = Arrays.copyOf(leafBase, n);
    leafEnd = Arrays.copyOf(leafEnd, n);
  }

  @Override
  public void deregister(int mdh) {
    NetworkAddresses.checkMdh(mdh);
    MemoryDomainDescriptor d = mdh < mdds.length ? mdds[mdh] : null;
    if (d == null || !d.valid()) {
      throw new IllegalArgumentException("mdh " + mdh + " is not registered");
    }
    mdds[mdh] = d.invalidated();
    invalidateMdd(mdh);
  }

  @Override
  public Optional<MemoryDomainDescriptor> descriptor(int mdh) {
    NetworkAddresses.checkMdh(mdh);
    return Optional.ofNullable(mdh < mdds.length ? mdds[mdh] : null);
  }

  /**
   * Clears the leaf PTE of the page holding an offset (the driver unmapping a page), so that later walks fault with
   * {@link Status#TRANSLATION_FAULT}. Like the hardware, cached copies stay until invalidated: call
   * {@link #invalidateRange} afterwards.
   *
   * @param mdh a registered MDH
   * @param offset an offset inside the registration
   */
  public void unmapPage(int mdh, long offset) {
    MemoryDomainDescriptor d = registered(mdh);
    if (offset < 0 || offset >= d.length()) {
      throw new IllegalArgumentException(
          "offset must be in [0, " + d.length() + ") but was " + offset);
    }
    memory.writeLong(leafBase[mdh] + (offset >>> d.pageSize().shift()) * PageTableEntry.BYTES,
        PageTableEntry.NOT_PRESENT);
  }

  /**
   * The physical address of a registration's first page frame (its frames are contiguous in this model).
   *
   * @param mdh a registered MDH
   * @return the physical base
   */
  public long physicalBase(int mdh) {
    registered(mdh);
    return dataBase[mdh];
  }

  /**
   * The physical address of the table a walk of this registration starts at: the directory for 4 KB pages, the single
   * table for huge pages.
   *
   * @param mdh a registered MDH
   * @return the root table's physical address
   */
  public long rootTable(int mdh) {
    MemoryDomainDescriptor d = registered(mdh);
    return d.pageSize().isHuge() ? leafBase[mdh] : directoryBase[mdh];
  }

  private MemoryDomainDescriptor registered(int mdh) {
    NetworkAddresses.checkMdh(mdh);
    MemoryDomainDescriptor d = mdh < mdds.length ? mdds[mdh] : null;
    if (d == null) {
      throw new IllegalArgumentException("mdh " + mdh + " was never registered");
    }
    return d;
  }

  // ---------------------------------------------------------------------------------------------------- invalidation

  /**
   * Invalidates every cached line of one MDD's page tables (the "invalidate MDD" command [S6c]).
   *
   * <p>Cost: a scan of the tag RAM, one set per issue interval, {@code sets × issueIntervalPs} (assumed). Lines with a
   * fetch outstanding are left alone; their fetch reads the table as it is when it completes.
   *
   * @param mdh an MDH, 0..4095
   * @return the command's cost, picoseconds
   */
  public long invalidateMdd(int mdh) {
    NetworkAddresses.checkMdh(mdh);
    invalidationCommands++;
    if (cache != null) {
      invalidations += cache.invalidateOwner(mdh);
    }
    return config.sets() * config.issueIntervalPs();
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
   */
  public long invalidateRange(int mdh, long offset, long length) {
    MemoryDomainDescriptor d = registered(mdh);
    if (offset < 0 || length < 1 || offset >= d.length() || length > d.length() - offset) {
      throw new IllegalArgumentException("offset + length must lie within [0, " + d.length() + ") with length >= 1"
          + " but were offset " + offset + ", length " + length);
    }
    invalidationCommands++;
    int shift = d.pageSize().shift();
    long lo = leafBase[mdh] + (offset >>> shift) * PageTableEntry.BYTES;
    long hi = leafBase[mdh] + ((offset + length - 1) >>> shift) * PageTableEntry.BYTES;
    int lineBytes = config.lineBytes();
    long lineLo = lo & -lineBytes;
    long lineHi = hi & -lineBytes;
    long lines = (lineHi - lineLo) / lineBytes + 1;
    if (cache != null) {
      if (lines <= config.lines()) {
        for (long a = lineLo; a <= lineHi; a += lineBytes) {
          invalidations += cache.invalidateLine(a);
        }
      } else {
        invalidations += cache.invalidateOwnerRange(mdh, lineLo, lineHi);
      }
    }
    return Math.min(lines, config.sets()) * config.issueIntervalPs();
  }

  /**
   * Invalidates the whole PTE cache.
   *
   * <p>Cost: {@code sets × issueIntervalPs} (assumed, as for an MDD).
   *
   * @return the command's cost, picoseconds
   */
  public long invalidateAll() {
    invalidationCommands++;
    if (cache != null) {
      invalidations += cache.invalidateAll();
    }
    return config.sets() * config.issueIntervalPs();
  }

  // ----------------------------------------------------------------------------------------------- untimed translate

  @Override
  public TranslationResult translateNow(
      int mdh, long offset, int length, AccessKind access, int protectionTag, int protectionKey) {
    Status s = preCheck(mdh, offset, length, access, protectionTag, protectionKey);
    if (s != Status.OK) {
      return TranslationResult.fault(s);
    }
    MemoryDomainDescriptor d = mdds[mdh];
    PageSize ps = d.pageSize();
    long walkOffset = length == 0 && offset == d.length() ? offset - 1 : offset;
    long rel = walkOffset >>> ps.shift();
    long pteAddress;
    if (ps.isHuge()) {
      pteAddress = leafBase[mdh] + rel * PageTableEntry.BYTES;
    } else {
      long dir = memory.readLong(directoryBase[mdh] + (rel >>> ENTRIES_PER_TABLE_SHIFT) * PageTableEntry.BYTES);
      if (!PageTableEntries.present(dir)) {
        return TranslationResult.fault(Status.TRANSLATION_FAULT);
      }
      pteAddress = PageTableEntries.physicalBase(dir)
          + (rel & ((1L << ENTRIES_PER_TABLE_SHIFT) - 1)) * PageTableEntry.BYTES;
    }
    long pte = memory.readLong(pteAddress);
    if (!PageTableEntries.present(pte)) {
      return TranslationResult.fault(Status.TRANSLATION_FAULT);
    }
    if (access.needsWritable() && !PageTableEntries.writable(pte)) {
      return TranslationResult.fault(Status.NOT_WRITABLE);
    }
    long pageOffset = (walkOffset & (ps.bytes() - 1)) + (offset - walkOffset);
    int contiguous = (int) Math.min(length, ps.bytes() - pageOffset);
    return new TranslationResult(Status.OK, PageTableEntries.physicalBase(pte) + pageOffset, contiguous);
  }

  private Status preCheck(int mdh, long offset, int length, AccessKind access, int tag, int key) {
    NetworkAddresses.checkMdh(mdh);
    if (length < 0) {
      throw new IllegalArgumentException("length must be >= 0 but was " + length);
    }
    if (access == null) {
      throw new IllegalArgumentException("access must not be null");
    }
    MemoryDomainDescriptor d = mdh < mdds.length ? mdds[mdh] : null;
    if (d == null) {
      return Status.INVALID_MDH;
    }
    return d.check(offset, length, access, tag, key);
  }

  // -------------------------------------------------------------------------------------------------- timed translate

  @Override
  public void translate(
      TranslationClient client, int mdh, long offset, int length, AccessKind access, int protectionTag,
      int protectionKey, TranslationListener listener, Object ref, long arg) {
    if (client == null || listener == null) {
      throw new IllegalArgumentException("client and listener must not be null");
    }
    Status s = preCheck(mdh, offset, length, access, protectionTag, protectionKey);
    if (cache == null) {
      start();
    }
    long now = scheduler.now();
    if (qSize == 0 && blockedSize == 0 && now >= nextIssuePs && freeSlotCount > 0 && s == Status.OK) {
      // Nothing waits ahead of this request: skip the FIFO (same behaviour, fewer copies on the hit path).
      int slot = freeSlots[--freeSlotCount];
      sClient[slot] = (byte) client.ordinal();
      sMdh[slot] = mdh;
      sLength[slot] = length;
      sWrite[slot] = access.needsWritable();
      sStatus[slot] = 0;
      sListener[slot] = listener;
      sRef[slot] = ref;
      sArg[slot] = arg;
      sStart[slot] = now;
      sStallMask[slot] = 0;
      sFlags[slot] = F_WALKED;
      prepareWalk(slot, mdh, offset, length);
      int r = advance(slot, now);
      if (r < STALL_NO_FETCH_BUFFER) {
        inFlight++;
        nextIssuePs = now + config.issueIntervalPs();
        return;
      }
      // Stalled: undo and queue it like any other request, so that stall accounting and order stay in one place.
      sListener[slot] = null;
      sRef[slot] = null;
      freeSlots[freeSlotCount++] = slot;
    }
    if (qSize == qMask + 1) {
      growQueue();
    }
    int i = (qHead + qSize) & qMask;
    qClient[i] = (byte) client.ordinal();
    qMdh[i] = mdh;
    qOffset[i] = offset;
    qLength[i] = length;
    qWrite[i] = access.needsWritable();
    qStatus[i] = (byte) s.ordinal();
    qListener[i] = listener;
    qRef[i] = ref;
    qArg[i] = arg;
    qStart[i] = now;
    qSize++;
    drain(now);
  }

  /** @return translations accepted into the pipeline and not yet completed */
  public int inFlight() {
    return inFlight;
  }

  /** @return translations waiting to enter the pipeline */
  public int queued() {
    return qSize;
  }

  private void start() {
    int ways = config.ways();
    int sets = config.sets();
    cache = new SetAssociativePteCache(ways, sets, config.ptesPerLine(),
        config.policy().create(sets, ways, config.seed()));
    stats = new long[CLIENTS * STATS];
    histograms = new Histogram[CLIENTS];
    int q = 32;
    qMask = q - 1;
    qClient = new byte[q];
    qMdh = new int[q];
    qOffset = new long[q];
    qLength = new int[q];
    qWrite = new boolean[q];
    qStatus = new byte[q];
    qListener = new TranslationListener[q];
    qRef = new Object[q];
    qArg = new long[q];
    qStart = new long[q];
    int n = config.maxInFlight();
    freeSlots = new int[n];
    for (int i = 0; i < n; i++) {
      freeSlots[i] = n - 1 - i;
    }
    freeSlotCount = n;
    sClient = new byte[n];
    sMdh = new int[n];
    sRelPage = new long[n];
    sPageOffset = new long[n];
    sLength = new int[n];
    sWrite = new boolean[n];
    sStatus = new byte[n];
    sListener = new TranslationListener[n];
    sRef = new Object[n];
    sArg = new long[n];
    sStart = new long[n];
    sPhase = new int[n];
    sLine = new long[n];
    sPteIndex = new int[n];
    sFlags = new int[n];
    sStallMask = new int[n];
    sNextWaiter = new int[n];
    sLevels = new int[n];
    sPhysical = new long[n];
    sContiguous = new int[n];
    blocked = new int[n];
    int b = config.fetchBuffers();
    freeBuffers = new int[b];
    for (int i = 0; i < b; i++) {
      freeBuffers[i] = b - 1 - i;
    }
    freeBufferCount = b;
    bufferLine = new int[b];
    bufferFirstWaiter = new int[b];
    bufferLastWaiter = new int[b];
    lineBuffer = new int[config.lines()];
    Arrays.fill(lineBuffer, -1);
  }

  private void growQueue() {
    int old = qMask + 1;
    int n = old * 2;
    byte[] client = new byte[n];
    int[] mdh = new int[n];
    long[] offset = new long[n];
    int[] length = new int[n];
    boolean[] write = new boolean[n];
    byte[] status = new byte[n];
    TranslationListener[] listener = new TranslationListener[n];
    Object[] ref = new Object[n];
    long[] arg = new long[n];
    long[] start = new long[n];
    for (int k = 0; k < qSize; k++) {
      int i = (qHead + k) & qMask;
      client[k] = qClient[i];
      mdh[k] = qMdh[i];
      offset[k] = qOffset[i];
      length[k] = qLength[i];
      write[k] = qWrite[i];
      status[k] = qStatus[i];
      listener[k] = qListener[i];
      ref[k] = qRef[i];
      arg[k] = qArg[i];
      start[k] = qStart[i];
    }
    qClient = client;
    qMdh = mdh;
    qOffset = offset;
    qLength = length;
    qWrite = write;
    qStatus = status;
    qListener = listener;
    qRef = ref;
    qArg = arg;
    qStart = start;
    qHead = 0;
    qMask = n - 1;
  }

  private void drain(long now) {
    while (true) {
      while (blockedSize > 0) {
        int s = blocked[blockedHead];
        int r = advance(s, now);
        if (r >= STALL_NO_FETCH_BUFFER) {
          sStallMask[s] = countStall(sClient[s], sStallMask[s], r);
          return;
        }
        blockedHead = blockedHead + 1 == blocked.length ? 0 : blockedHead + 1;
        blockedSize--;
      }
      if (qSize == 0) {
        return;
      }
      if (now < nextIssuePs) {
        if (drainScheduledAt != nextIssuePs) {
          drainScheduledAt = nextIssuePs;
          scheduler.scheduleAt(nextIssuePs, drainHandler, null, 0);
        }
        return;
      }
      int h = qHead;
      if (freeSlotCount == 0) {
        if ((headStallMask & (1 << StallCause.IN_FLIGHT_LIMIT.ordinal())) == 0) {
          headStallMask |= 1 << StallCause.IN_FLIGHT_LIMIT.ordinal();
          stats[qClient[h] * STATS + ST_STALL + StallCause.IN_FLIGHT_LIMIT.ordinal()]++;
        }
        return;
      }
      int s = freeSlots[--freeSlotCount];
      load(s, h);
      int r;
      if (sStatus[s] != 0) {
        finish(s, now, STATUS_VALUES[sStatus[s]], 0, 0);
        r = DONE;
      } else {
        sFlags[s] = F_WALKED;
        r = advance(s, now);
      }
      if (r >= STALL_NO_FETCH_BUFFER) {
        freeSlots[freeSlotCount++] = s;
        sListener[s] = null;
        sRef[s] = null;
        headStallMask = countStall(qClient[h], headStallMask, r);
        return;
      }
      inFlight++;
      qListener[h] = null;
      qRef[h] = null;
      qHead = (h + 1) & qMask;
      qSize--;
      headStallMask = 0;
      nextIssuePs = now + config.issueIntervalPs();
    }
  }

  private int countStall(int client, int mask, int result) {
    int cause = result == STALL_NO_FETCH_BUFFER
        ? StallCause.NO_FETCH_BUFFER.ordinal() : StallCause.ALL_WAYS_PENDING.ordinal();
    if ((mask & (1 << cause)) == 0) {
      stats[client * STATS + ST_STALL + cause]++;
      mask |= 1 << cause;
    }
    return mask;
  }

  private void load(int s, int h) {
    sClient[s] = qClient[h];
    int mdh = qMdh[h];
    sMdh[s] = mdh;
    int length = qLength[h];
    sLength[s] = length;
    sWrite[s] = qWrite[h];
    sStatus[s] = qStatus[h];
    sListener[s] = qListener[h];
    sRef[s] = qRef[h];
    sArg[s] = qArg[h];
    sStart[s] = qStart[h];
    sFlags[s] = 0;
    sStallMask[s] = 0;
    if (qStatus[h] != 0) {
      return;
    }
    prepareWalk(s, mdh, qOffset[h], length);
  }

  private void prepareWalk(int s, int mdh, long offset, int length) {
    MemoryDomainDescriptor d = mdds[mdh];
    int shift = d.pageSize().shift();
    long walkOffset = length == 0 && offset == d.length() ? offset - 1 : offset;
    long rel = walkOffset >>> shift;
    sRelPage[s] = rel;
    sPageOffset[s] = (walkOffset & ((1L << shift) - 1)) + (offset - walkOffset);
    long pteAddress;
    if (shift == PageSize.SMALL_SHIFT) {
      sPhase[s] = PHASE_DIRECTORY;
      sLevels[s] = 2;
      pteAddress = directoryBase[mdh] + (rel >>> ENTRIES_PER_TABLE_SHIFT) * PageTableEntry.BYTES;
    } else {
      sPhase[s] = PHASE_LEAF;
      sLevels[s] = 1;
      pteAddress = leafBase[mdh] + rel * PageTableEntry.BYTES;
    }
    setTarget(s, pteAddress);
  }

  private void setTarget(int s, long pteAddress) {
    sLine[s] = pteAddress & -(long) config.lineBytes();
    sPteIndex[s] = (int) ((pteAddress >>> 3) & (config.ptesPerLine() - 1));
  }

  /** Moves a slot's walk as far as the cache allows. */
  private int advance(int s, long now) {
    while (true) {
      long line = sLine[s];
      int l = cache.find(line);
      if (l >= 0) {
        if (cache.isPending(l)) {
          addWaiter(lineBuffer[l], s);
          sFlags[s] |= F_WAITED;
          return WAITING;
        }
        cache.touch(l, line);
        long pte = cache.pte(l, sPteIndex[s]);
        if (sPhase[s] == PHASE_DIRECTORY) {
          if (!PageTableEntries.present(pte)) {
            finish(s, now, Status.TRANSLATION_FAULT, 0, 0);
            return DONE;
          }
          sPhase[s] = PHASE_LEAF;
          setTarget(s, PageTableEntries.physicalBase(pte)
              + (sRelPage[s] & ((1L << ENTRIES_PER_TABLE_SHIFT) - 1)) * PageTableEntry.BYTES);
          continue;
        }
        if (!PageTableEntries.present(pte)) {
          finish(s, now, Status.TRANSLATION_FAULT, 0, 0);
        } else if (sWrite[s] && !PageTableEntries.writable(pte)) {
          finish(s, now, Status.NOT_WRITABLE, 0, 0);
        } else {
          int code = PageTableEntries.pageSizeCode(pte);
          long pageBytes = code == 0 ? 1L << PageSize.SMALL_SHIFT : 1L << (PageSize.MIN_HUGE_SHIFT + code - 1);
          long pageOffset = sPageOffset[s];
          finish(s, now, Status.OK, PageTableEntries.physicalBase(pte) + pageOffset,
              (int) Math.min(sLength[s], pageBytes - pageOffset));
        }
        return DONE;
      }
      if (freeBufferCount == 0) {
        return STALL_NO_FETCH_BUFFER;
      }
      int client = sClient[s];
      int mdh = sMdh[s];
      int victim = cache.allocate(line, mdh);
      if (victim < 0) {
        return STALL_ALL_WAYS_PENDING;
      }
      if (cache.lastAllocationEvicted()) {
        stats[client * STATS + ST_EVICTIONS]++;
      }
      addWaiter(startFetch(victim, now), s);
      sFlags[s] |= F_FETCHED;
      if (sPhase[s] == PHASE_LEAF && config.prefetch() && mdds[mdh].prefetch()) {
        prefetch(line + config.lineBytes(), mdh, client, now);
      }
      return WAITING;
    }
  }

  private void prefetch(long line, int mdh, int client, long now) {
    if (line >= leafEnd[mdh] || freeBufferCount == 0 || cache.find(line) >= 0) {
      return;
    }
    int victim = cache.allocate(line, mdh);
    if (victim < 0) {
      return;
    }
    if (cache.lastAllocationEvicted()) {
      stats[client * STATS + ST_EVICTIONS]++;
    }
    startFetch(victim, now);
    stats[client * STATS + ST_PREFETCHES]++;
  }

  private int startFetch(int line, long now) {
    int b = freeBuffers[--freeBufferCount];
    bufferLine[b] = line;
    bufferFirstWaiter[b] = -1;
    bufferLastWaiter[b] = -1;
    lineBuffer[line] = b;
    pteFetches++;
    scheduler.scheduleAt(now + config.pteFetchLatencyPs(), fillHandler, null, b);
    return b;
  }

  private void addWaiter(int buffer, int s) {
    sNextWaiter[s] = -1;
    int last = bufferLastWaiter[buffer];
    if (last < 0) {
      bufferFirstWaiter[buffer] = s;
    } else {
      sNextWaiter[last] = s;
    }
    bufferLastWaiter[buffer] = s;
  }

  private void finish(int s, long now, Status status, long physical, int contiguous) {
    sStatus[s] = (byte) status.ordinal();
    sPhysical[s] = physical;
    sContiguous[s] = contiguous;
    scheduler.scheduleAt(now + config.hitLatencyPs(), completeHandler, null, s);
  }

  private void onFill(long now, Object ref, long arg) {
    int b = (int) arg;
    int line = bufferLine[b];
    cache.fill(line, memory);
    lineBuffer[line] = -1;
    int w = bufferFirstWaiter[b];
    freeBuffers[freeBufferCount++] = b;
    while (w >= 0) {
      int next = sNextWaiter[w];
      int r = advance(w, now);
      if (r >= STALL_NO_FETCH_BUFFER) {
        sStallMask[w] = countStall(sClient[w], sStallMask[w], r);
        int tail = blockedHead + blockedSize;
        blocked[tail >= blocked.length ? tail - blocked.length : tail] = w;
        blockedSize++;
      }
      w = next;
    }
    drain(now);
  }

  private void onComplete(long now, Object ref, long arg) {
    int s = (int) arg;
    int client = sClient[s];
    Status status = STATUS_VALUES[sStatus[s]];
    int flags = sFlags[s];
    int base = client * STATS;
    stats[base + ST_TRANSLATIONS]++;
    if (status != Status.OK) {
      stats[base + ST_FAULTS]++;
    }
    if ((flags & F_WALKED) != 0) {
      if ((flags & F_FETCHED) != 0) {
        stats[base + ST_MISSES]++;
      } else if ((flags & F_WAITED) != 0) {
        stats[base + ST_MERGED]++;
      } else {
        stats[base + ST_HITS]++;
      }
      if (status == Status.OK) {
        stats[base + (sLevels[s] == 2 ? ST_TWO_LEVEL : ST_ONE_LEVEL)]++;
      }
    }
    long latency = now - sStart[s];
    stats[base + ST_LATENCY] += latency;
    Histogram h = histograms[client];
    if (h == null) {
      h = new Histogram(3);
      histograms[client] = h;
    }
    h.recordValue(latency);
    TranslationListener listener = sListener[s];
    Object r = sRef[s];
    long a = sArg[s];
    long physical = sPhysical[s];
    int contiguous = sContiguous[s];
    sListener[s] = null;
    sRef[s] = null;
    freeSlots[freeSlotCount++] = s;
    inFlight--;
    listener.onTranslated(now, status, physical, contiguous, r, a);
    drain(now);
  }

  private void onDrain(long now, Object ref, long arg) {
    if (drainScheduledAt == now) {
      drainScheduledAt = -1;
    }
    drain(now);
  }

  // ------------------------------------------------------------------------------------------------------ statistics

  /** @return a snapshot of the statistics, per client and in total */
  public IommuStatistics statistics() {
    Map<TranslationClient, TranslationStatistics> per = new EnumMap<>(TranslationClient.class);
    long[] sum = new long[STATS];
    Histogram all = new Histogram(3);
    for (TranslationClient c : CLIENT_VALUES) {
      long[] v = new long[STATS];
      if (stats != null) {
        System.arraycopy(stats, c.ordinal() * STATS, v, 0, STATS);
      }
      Histogram h = new Histogram(3);
      if (histograms != null && histograms[c.ordinal()] != null) {
        h.add(histograms[c.ordinal()]);
        all.add(histograms[c.ordinal()]);
      }
      per.put(c, of(v, h));
      for (int i = 0; i < STATS; i++) {
        sum[i] += v[i];
      }
    }
    return new IommuStatistics(per, of(sum, all), invalidations, invalidationCommands, pteFetches);
  }

  private static TranslationStatistics of(long[] v, Histogram h) {
    return new TranslationStatistics(v[ST_TRANSLATIONS], v[ST_HITS], v[ST_MISSES], v[ST_MERGED], v[ST_EVICTIONS],
        v[ST_FAULTS], v[ST_STALL + StallCause.ALL_WAYS_PENDING.ordinal()],
        v[ST_STALL + StallCause.NO_FETCH_BUFFER.ordinal()], v[ST_STALL + StallCause.IN_FLIGHT_LIMIT.ordinal()],
        v[ST_ONE_LEVEL], v[ST_TWO_LEVEL], v[ST_PREFETCHES], v[ST_LATENCY], h);
  }

  /** Zeroes every counter and histogram (the cache contents stay). */
  public void resetStatistics() {
    if (stats != null) {
      Arrays.fill(stats, 0);
      for (Histogram h : histograms) {
        if (h != null) {
          h.reset();
        }
      }
    }
    invalidations = 0;
    invalidationCommands = 0;
    pteFetches = 0;
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
