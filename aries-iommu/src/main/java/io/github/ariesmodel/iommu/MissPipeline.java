package io.github.ariesmodel.iommu;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.PageTableEntries;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.sim.HeldPlaces;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationListener;
import io.github.ariesmodel.iommu.IommuCounters.Event;
import io.github.ariesmodel.iommu.internal.SetAssociativePteCache;
import java.util.Arrays;

/**
 * The IOMMU's latency-hiding translation pipeline (aries-facts §4 [S6c]): an input FIFO, up to {@code maxInFlight}
 * (32) requests in flight, lookups in the shared PTE cache, misses handed to the {@link PteWalker}, hits completing
 * under outstanding misses, and stalls when no fetch buffer is free or every way of a set is pending (counted by
 * {@link StallCause}, each cause once per request and once more after it entered the pipeline).
 *
 * <p>Timing: requests are accepted in order, one per {@code issueIntervalPs}, while fewer than {@code maxInFlight}
 * are in flight. A request completes {@code hitLatencyPs} after its last needed line is valid (or after acceptance,
 * for a fault found by the MDD checks). A stalled request blocks those behind it (the hardware's {@code trp_hold})
 * and is retried in order whenever a fetch completes or a translation leaves. Next-line prefetch when the
 * configuration and the MDD's {@code mmu_prefetch} hint [S6b] allow it.
 *
 * <p>Each request is a pooled {@link TranslationSlot}; the FIFO, the blocked list and the pool are arrays of slots,
 * so once the pool has reached the largest backlog seen nothing is allocated. Three event handlers, created once:
 * completion, deferred drain, and (in the walker) fill.
 */
final class MissPipeline {

  private static final int INITIAL_QUEUE = 32;
  private static final int IN_FLIGHT_BIT = 1 << StallCause.IN_FLIGHT_LIMIT.ordinal();

  private final Scheduler scheduler;
  private final MddTable mdds;
  private final SetAssociativePteCache cache;
  private final PteWalker walker;
  private final int fetchBuffers;
  private final IommuCounters counters;
  private final long issueIntervalPs;
  private final long hitLatencyPs;
  private final int maxInFlight;
  private final int lineBytes;
  private final long ptesPerLine;
  /** Whether 4 KB registrations share leaf tables laid out by address space, not one after another. */
  private final boolean sharedLeafTables;
  private final boolean prefetchEnabled;
  private final EventHandler completeHandler = this::onComplete;
  /**
   * Completion events scheduled and not yet run. Each is due at most a hit latency ahead ({@link #finish}), so at or
   * before a fast hit granted now would complete: while one is pending no fast hit is granted, since its caller acts
   * at once and would act ahead of that earlier completion (stop 65).
   */
  private int completionsPending;
  private final EventHandler drainHandler = this::onDrain;

  // Free slots (a stack that grows when the backlog does).
  private TranslationSlot[] pool;
  private int poolSize;
  private int slotsMade;

  // Input FIFO (ring, grows by doubling); the head's stalls are counted in headStallMask.
  private TranslationSlot[] queue = new TranslationSlot[INITIAL_QUEUE];
  private int qHead;
  private int qSize;
  private int headStallMask;

  // Requests stalled after entering the pipeline (a later level could not allocate), served first, in order.
  private final TranslationSlot[] blocked;
  private int blockedHead;
  private int blockedSize;

  private long nextIssuePs;
  private long drainScheduledAt = -1;
  private int inFlight;

  // Fast hits (tryHit) in flight, each until its completion (they complete in the order they were taken).
  private final HeldPlaces fastHits;

  /**
   * A pipeline and its walker over one cache.
   *
   * @param memory host memory the walker fetches PTE lines from
   */
  MissPipeline(HostMemory memory, Scheduler scheduler, MddTable mdds, SetAssociativePteCache cache,
      IommuCounters counters, IommuConfig config) {
    this.scheduler = scheduler;
    this.mdds = mdds;
    this.cache = cache;
    this.walker = new PteWalker(memory, scheduler, mdds, cache, config, this::onLineFilled);
    this.counters = counters;
    this.issueIntervalPs = config.issueIntervalPs();
    this.fetchBuffers = config.fetchBuffers();
    this.hitLatencyPs = config.hitLatencyPs();
    this.maxInFlight = config.maxInFlight();
    this.lineBytes = config.lineBytes();
    this.ptesPerLine = config.ptesPerLine();
    this.sharedLeafTables = config.pageTables() == PageTables.PER_CONTEXT;
    this.prefetchEnabled = config.prefetch();
    blocked = new TranslationSlot[maxInFlight];
    fastHits = new HeldPlaces(maxInFlight);
    pool = new TranslationSlot[maxInFlight + INITIAL_QUEUE];
    for (int i = 0; i < pool.length; i++) {
      pool[i] = new TranslationSlot();
    }
    poolSize = pool.length;
    slotsMade = pool.length;
  }

  /** @return the walker this pipeline sends its misses to */
  PteWalker walker() {
    return walker;
  }

  /**
   * Takes a request. {@code preCheck} is the MDD checks' verdict: a fault passes through the pipeline and completes
   * with it, touching no memory.
   */
  void submit(TranslationClient client, int mdh, long offset, int length, AccessKind access, Status preCheck,
      TranslationListener listener, Object ref, long arg) {
    long now = scheduler.now();
    TranslationSlot s = take();
    s.client = client;
    s.mdh = mdh;
    s.offset = offset;
    s.length = length;
    s.write = access.needsWritable();
    s.preCheck = preCheck;
    s.descriptor = mdds.get(mdh);
    s.listener = listener;
    s.ref = ref;
    s.arg = arg;
    s.startPs = now;
    if (qSize == 0 && blockedSize == 0 && now >= nextIssuePs && inFlight(now) < maxInFlight
        && preCheck == Status.OK) {
      // Nothing waits ahead of this request: skip the FIFO (same behaviour, fewer steps on the hit path).
      s.stallMask = 0;
      s.walked = true;
      s.fetched = false;
      s.waited = false;
      walker.start(s);
      if (advance(s, now) == null) {
        inFlight++;
        nextIssuePs = now + issueIntervalPs;
        return;
      }
      // Stalled: queue it like any other request, so that stall accounting and order stay in one place.
    }
    if (qSize == queue.length) {
      queue = grow(queue, qHead, qSize);
      qHead = 0;
    }
    queue[(qHead + qSize) & (queue.length - 1)] = s;
    qSize++;
    drain(now);
  }

  /**
   * The hit fast path: when a request can be accepted now (nothing queued or blocked ahead of it, no earlier
   * request's completion event still to run, the issue interval past, an in-flight place free), passes its MDD
   * checks, finds every line its walk needs valid in the cache and its page holds the whole range with the access
   * allowed, it is accepted and completed here exactly as {@link #submit} would have done (the same cache touches in
   * the same order, the same counters, the same latency, the issue interval and an in-flight place held until it
   * completes) and the physical address is returned. Otherwise nothing
   * changes (the probe walk, kept in locals, touches nothing) and -1 is returned.
   *
   * <p>One approximation, at the in-flight limit only: a fast hit has no completion event, so its place counts as
   * free from its completion time on, for every event of that time. On the event path a request arriving at exactly
   * that time, from an event that runs before the completion event, finds the place still held: it is counted as an
   * in-flight-limit stall and enters when the completion event drains the queue, at the same time. So completion
   * times agree, and the in-flight-limit stall count may be lower by such ties ({@code FastHitProperties}).
   *
   * @return the physical address of the first byte, or -1 when the request must take {@link #submit}
   */
  long tryHit(TranslationClient client, MemoryDomainDescriptor d, int mdh, long offset, int length, boolean write,
      long now) {
    if (qSize != 0 || blockedSize != 0 || completionsPending != 0 || now < nextIssuePs
        || inFlight(now) >= maxInFlight) {
      return -1;
    }
    // The walk of PteWalker.start/descend, in locals: a probe walk needs no slot.
    int shift = d.pageSize().shift();
    long walkOffset = PteWalker.walkOffset(d, offset, length);
    long page = mdds.firstPage(mdh) + (walkOffset >>> shift);
    long pageOffset = PteWalker.pageOffset(offset, walkOffset, shift);
    boolean twoLevel = shift == PageSize.SMALL_SHIFT;
    long pteAddress = walker.firstPteAddress(mdh, page, twoLevel);
    long line = walker.lineOf(pteAddress);
    int l = cache.find(line);
    if (l < 0 || cache.isPending(l)) {
      return -1;
    }
    int directoryLine = -1;
    long directoryAddress = 0;
    if (twoLevel) {
      long dir = cache.pte(l, walker.pteIndexOf(pteAddress));
      if (!PageTableEntries.present(dir)) {
        return -1;
      }
      directoryLine = l;
      directoryAddress = line;
      pteAddress = PteWalker.leafPteAddress(dir, page);
      line = walker.lineOf(pteAddress);
      l = cache.find(line);
      if (l < 0 || cache.isPending(l)) {
        return -1;
      }
    }
    long pte = cache.pte(l, walker.pteIndexOf(pteAddress));
    if (!PageTableEntries.present(pte) || (write && !PageTableEntries.writable(pte))) {
      return -1;
    }
    // The page's extent is the registration's page size (the context's pg_size), as PteWalker.walkNow takes it, not
    // the PTE's size code: the driver writes the same, but an entry written by hand with another code must not widen
    // (or narrow) the range one walk covers (docs/iommu.md).
    long pageBytes = 1L << shift;
    if (length > pageBytes - pageOffset) {
      return -1;
    }
    if (twoLevel) {
      cache.touch(directoryLine, directoryAddress);
    }
    cache.touch(l, line);
    nextIssuePs = now + issueIntervalPs;
    fastHits.take(now + hitLatencyPs);
    counters.countFastHit(client, twoLevel, hitLatencyPs);
    return PageTableEntries.physicalBase(pte) + pageOffset;
  }

  /** @return the hit latency, picoseconds */
  long hitLatencyPs() {
    return hitLatencyPs;
  }

  /**
   * Translations in flight at a time: those accepted by {@link #submit} and not completed, and fast hits whose
   * completion time is still ahead (a fast hit completing exactly now has left).
   */
  private int inFlight(long now) {
    return inFlight + fastHits.held(now);
  }

  /** @return translations accepted and not yet completed */
  int inFlight() {
    return inFlight(scheduler.now());
  }

  /** @return translations waiting to enter the pipeline */
  int queued() {
    return qSize;
  }

  /**
   * @return whether nothing is under way: no translation waiting, blocked, in flight or completing (a fast hit whose
   *     completion time is ahead included), and no PTE line being fetched (a prefetch may outlive the translation
   *     that started it)
   */
  boolean idle() {
    return qSize == 0 && blockedSize == 0 && completionsPending == 0 && inFlight(scheduler.now()) == 0
        && walker.freeBuffers() == fetchBuffers;
  }

  /** @return slot objects made so far: grows only while the backlog reaches a new high */
  int slotsMade() {
    return slotsMade;
  }

  private TranslationSlot take() {
    if (poolSize > 0) {
      return pool[--poolSize];
    }
    slotsMade++;
    return new TranslationSlot();
  }

  private void give(TranslationSlot s) {
    s.release();
    if (poolSize == pool.length) {
      pool = Arrays.copyOf(pool, pool.length * 2);
    }
    pool[poolSize++] = s;
  }

  private static TranslationSlot[] grow(TranslationSlot[] ring, int head, int size) {
    TranslationSlot[] n = new TranslationSlot[ring.length * 2];
    for (int k = 0; k < size; k++) {
      n[k] = ring[(head + k) & (ring.length - 1)];
    }
    return n;
  }

  private void drain(long now) {
    while (true) {
      while (blockedSize > 0) {
        TranslationSlot s = blocked[blockedHead];
        StallCause stall = advance(s, now);
        if (stall != null) {
          s.stallMask = countStall(s.client, s.stallMask, stall);
          return;
        }
        blocked[blockedHead] = null;
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
      TranslationSlot s = queue[qHead];
      if (inFlight(now) >= maxInFlight) {
        if ((headStallMask & IN_FLIGHT_BIT) == 0) {
          headStallMask |= IN_FLIGHT_BIT;
          counters.countStall(s.client, StallCause.IN_FLIGHT_LIMIT);
        }
        if (fastHits.held(now) > 0) {
          // A fast hit holds a place and has no completion event of its own: wake up when the first one leaves.
          long at = fastHits.nextFree();
          if (drainScheduledAt != at) {
            drainScheduledAt = at;
            scheduler.scheduleAt(at, drainHandler, null, 0);
          }
        }
        return;
      }
      s.stallMask = 0;
      s.walked = false;
      s.fetched = false;
      s.waited = false;
      StallCause stall = null;
      if (s.preCheck != Status.OK) {
        finish(s, now, s.preCheck, 0, 0);
      } else if (deregistered(s)) {
        finish(s, now, Status.INVALID_MDH, 0, 0);
      } else {
        s.walked = true;
        walker.start(s);
        stall = advance(s, now);
      }
      if (stall != null) {
        // It stays at the head; a retry starts its walk again from the first level.
        headStallMask = countStall(s.client, headStallMask, stall);
        return;
      }
      inFlight++;
      queue[qHead] = null;
      qHead = (qHead + 1) & (queue.length - 1);
      qSize--;
      headStallMask = 0;
      nextIssuePs = now + issueIntervalPs;
    }
  }

  private int countStall(TranslationClient client, int mask, StallCause cause) {
    int bit = 1 << cause.ordinal();
    if ((mask & bit) == 0) {
      counters.countStall(client, cause);
      mask |= bit;
    }
    return mask;
  }

  /**
   * Moves a request's walk as far as the cache allows.
   *
   * @return why it stalled, or null when it completed or now waits for a fetch
   */
  private StallCause advance(TranslationSlot s, long now) {
    if (deregistered(s)) {
      finish(s, now, Status.INVALID_MDH, 0, 0);
      return null;
    }
    while (true) {
      long line = s.line;
      int l = cache.find(line);
      if (l >= 0) {
        if (cache.isPending(l)) {
          walker.addWaiter(walker.bufferOf(l), s);
          s.waited = true;
          return null;
        }
        cache.touch(l, line);
        long pte = cache.pte(l, s.pteIndex);
        if (s.level == TranslationSlot.Level.DIRECTORY) {
          if (!PageTableEntries.present(pte)) {
            finish(s, now, Status.TRANSLATION_FAULT, 0, 0);
            return null;
          }
          walker.descend(s, pte);
          continue;
        }
        if (!PageTableEntries.present(pte)) {
          finish(s, now, Status.TRANSLATION_FAULT, 0, 0);
        } else if (s.write && !PageTableEntries.writable(pte)) {
          finish(s, now, Status.NOT_WRITABLE, 0, 0);
        } else {
          long pageBytes = s.descriptor.pageSize().bytes(); // the registration's page size, as tryHit and walkNow
          long pageOffset = s.pageOffset;
          finish(s, now, Status.OK, PageTableEntries.physicalBase(pte) + pageOffset,
              (int) Math.min(s.length, pageBytes - pageOffset));
        }
        return null;
      }
      if (!walker.hasFreeBuffer()) {
        return StallCause.NO_FETCH_BUFFER;
      }
      int victim = cache.allocate(line, s.mdh);
      if (victim < 0) {
        return StallCause.ALL_WAYS_PENDING;
      }
      if (cache.lastAllocationEvicted()) {
        counters.count(s.client, Event.EVICTIONS);
      }
      walker.addWaiter(walker.startFetch(victim, now), s);
      s.fetched = true;
      if (s.level == TranslationSlot.Level.LEAF && prefetchEnabled && mdds.get(s.mdh).prefetch()) {
        prefetch(line + lineBytes, s.relativePage, s.twoLevel, s.mdh, s.client, now);
      }
      return null;
    }
  }

  /**
   * Fetches the PTE line after a leaf line that missed, if it holds PTEs of the same registration: its first page
   * (the next multiple of {@code ptesPerLine} after {@code page}) before the registration's end and, for 4 KB pages
   * in a context's tables, in the same leaf table (the next table in memory maps another part of the space).
   */
  private void prefetch(long line, long page, boolean twoLevel, int mdh, TranslationClient client, long now) {
    long nextFirstPage = (page & -ptesPerLine) + ptesPerLine;
    if (nextFirstPage >= mdds.pageEnd(mdh)
        || (sharedLeafTables && twoLevel
            && (nextFirstPage >>> PageTableBuilder.ENTRIES_PER_TABLE_SHIFT)
                != (page >>> PageTableBuilder.ENTRIES_PER_TABLE_SHIFT))
        || !walker.hasFreeBuffer() || cache.find(line) >= 0) {
      return;
    }
    int victim = cache.allocate(line, mdh);
    if (victim < 0) {
      return;
    }
    if (cache.lastAllocationEvicted()) {
      counters.count(client, Event.EVICTIONS);
    }
    walker.startFetch(victim, now);
    counters.count(client, Event.PREFETCHES);
  }

  private void finish(TranslationSlot s, long now, Status status, long physical, int contiguous) {
    s.status = status;
    s.physical = physical;
    s.contiguous = contiguous;
    scheduler.scheduleAt(now + hitLatencyPs, completeHandler, s, 0);
    completionsPending++; // (after scheduling: a refused schedule leaves no completion pending)
  }

  private void onLineFilled(long now, TranslationSlot first) {
    TranslationSlot w = first;
    while (w != null) {
      TranslationSlot next = w.nextWaiter;
      StallCause stall = advance(w, now);
      if (stall != null) {
        w.stallMask = countStall(w.client, w.stallMask, stall);
        int tail = blockedHead + blockedSize;
        blocked[tail >= blocked.length ? tail - blocked.length : tail] = w;
        blockedSize++;
      }
      w = next;
    }
    drain(now);
  }

  /**
   * Whether the request's registration was deregistered (or its MDH handed to a newer one) since it entered the
   * pipeline: the context's tables at its IO-virtual addresses may map another registration's memory by now (stop
   * 64's fault hunt found a PUT landing in the next registration's memory with status OK), so its walk stops there.
   */
  private boolean deregistered(TranslationSlot s) {
    return mdds.get(s.mdh) != s.descriptor;
  }

  private void onComplete(long now, Object ref, long arg) {
    completionsPending--;
    TranslationSlot s = (TranslationSlot) ref;
    TranslationClient client = s.client;
    if (s.status == Status.OK && deregistered(s)) {
      s.status = Status.INVALID_MDH; // deregistered after its walk, before it completed
      s.physical = 0;
      s.contiguous = 0;
    }
    Status status = s.status;
    counters.count(client, Event.TRANSLATIONS);
    if (status != Status.OK) {
      counters.count(client, Event.FAULTS);
    }
    if (s.walked) {
      if (s.fetched) {
        counters.count(client, Event.MISSES);
      } else if (s.waited) {
        counters.count(client, Event.MERGED_MISSES);
      } else {
        counters.count(client, Event.HITS);
      }
      if (status == Status.OK) {
        counters.count(client, s.twoLevel ? Event.TWO_LEVEL_WALKS : Event.ONE_LEVEL_WALKS);
      }
    }
    counters.recordLatency(client, now - s.startPs);
    TranslationListener listener = s.listener;
    Object r = s.ref;
    long a = s.arg;
    long physical = s.physical;
    int contiguous = s.contiguous;
    give(s);
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
}
