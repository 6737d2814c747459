package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.Scheduler;
import java.util.ArrayDeque;

/**
 * The target's AMO unit (aries-facts §3.3): executes a translated AMO request's read-modify-write at one simulated
 * instant (so it is atomic against every other access through this NIC, and AMOs on one word take effect in the
 * order they reach the unit) with {@link AmoArithmetic}. At most {@link NicConfig#amoRequestList()} AMOs (64, the
 * 6-bit request list [S6d]) are in the unit; more wait in order.
 *
 * <p>An uncached command, or any command when the NIC has no {@link AmoCache}, is a memory AMO: it reads and writes
 * host memory and answers {@code amoUnitCycles} (assumed 8) after its read of the old value is back: a host read over
 * the {@link HostLink} (request and data cross it, then the read round trip), then writes the result back over the
 * link, a posted write (both booked on the link since stop 68). A cached command ({@code _C}, {@code _SC}) works on
 * the AMO cache: a miss fills an entry from host memory and answers like a memory AMO (its fill crosses the host link
 * the same way); a hit answers {@code amoUnitCycles} after the entry's value is available (after its fill, or after
 * the previous AMO on the word: AMOs on one cached word are served one after another, one every
 * {@link #ISSUE_CYCLES} cycles). When every entry has AMOs in flight a cached command misses without allocating and
 * runs as a memory AMO. docs/memory-hierarchy.md ("AMO cache") has the model
 * and its sources.
 */
final class AmoUnit {
  /**
   * Cycles between two AMOs the unit starts on one cached word: "The Aries AMO unit is capable of one operation every
   * two cycles. Rates of up to 400 million AMOs per second can be obtained when many processes update a single cached
   * variable" [S1 p.24]. Until stop 64 the next AMO on the word waited for the previous one's whole
   * {@code amoUnitCycles} (8, assumed), a 100 M/s ceiling that made cached AMOs on a hot word slower than uncached
   * ones (95 against 118 M/s in the 256-issuer hot spot of {@code run host-cache}).
   */
  static final int ISSUE_CYCLES = 2;
  private final Scheduler scheduler;
  private final HostMemory memory;
  private final AmoCache cache;
  private final NicConfig config;
  private final AccessPool accesses;
  private final CompletionWriter completions;
  private final Injector injector;
  private final NicStatistics stats;
  private final HostWriteProbes writes;
  /** The host link the unit's reads of host memory and its memory AMOs' result writes cross. */
  private final HostLink host;
  private final long unitPs;
  private final long issuePs;
  private final EventHandler answered = new Answered();
  /** Whether the cache writes a word back when its entry goes idle (the default), so held REMOTE events wait for it. */
  private final boolean idleWriteBack;
  /** REMOTE events held by cache entry, and how many (null until the first is held). */
  private int[] heldCount;
  private long[][] heldEvents;
  private final EventHandler cachedAnswered = new CachedAnswered();
  private int inFlight;
  private ArrayDeque<MemoryAccess> waiting;

  /**
   * The unit.
   *
   * @param memory host memory for memory AMOs (the AMO cache's {@link AmoCache#nicView() coherent view} when there is
   *     a cache)
   * @param cache the AMO cache, or null when the NIC has none
   */
  AmoUnit(Scheduler scheduler, HostMemory memory, AmoCache cache, NicConfig config, HostLink host,
      AccessPool accesses, CompletionWriter completions, Injector injector, NicStatistics stats,
      HostWriteProbes writes) {
    this.scheduler = scheduler;
    this.host = host;
    this.writes = writes;
    this.memory = memory;
    this.cache = cache;
    this.config = config;
    this.accesses = accesses;
    this.completions = completions;
    this.injector = injector;
    this.stats = stats;
    NicTiming t = config.timing();
    this.unitPs = t.cyclePs() * t.amoUnitCycles();
    this.issuePs = t.cyclePs() * Math.min(ISSUE_CYCLES, t.amoUnitCycles());
    this.idleWriteBack = cache != null && cache.writeBackPolicy() == AmoWriteBack.IDLE;
  }

  /**
   * A translated AMO request (its access holds the request and the physical address): executes now, or waits for
   * room in the request list.
   */
  void accept(long now, MemoryAccess a) {
    if (inFlight >= config.amoRequestList()) {
      if (waiting == null) {
        waiting = new ArrayDeque<>();
      }
      waiting.add(a);
    } else {
      execute(now, a);
    }
  }

  /** @return AMOs in the unit */
  int inFlight() {
    return inFlight;
  }

  /** @return AMOs waiting for room */
  int waiting() {
    return waiting == null ? 0 : waiting.size();
  }

  /**
   * @return whether a translated AMO waiting for room in the request list works on a byte of {@code [address, end)}:
   *     the memory must not be given back under it ({@link PostedWrites#free})
   */
  boolean waitsToWork(long address, long end) {
    if (waiting != null) {
      for (MemoryAccess a : waiting) {
        if (a.overlaps(address, end)) {
          return true;
        }
      }
    }
    return false;
  }

  private void execute(long now, MemoryAccess a) {
    Packet p = a.packet;
    if (cache != null && p.amo().cached() && executeCached(now, a)) {
      return;
    }
    long pa = a.pa[0];
    long old;
    long updated;
    if (p.amo().widthBits() == 64) {
      old = memory.readLong(pa);
      updated = AmoArithmetic.apply(p.amo(), old, p.operand1(), p.operand2());
      memory.writeLong(pa, updated);
      writes.deferNewest(); // it reaches memory with its result write (Answered), not with another write's
    } else {
      old = Integer.toUnsignedLong(memory.readInt(pa));
      updated = AmoArithmetic.apply(p.amo(), old, p.operand1(), p.operand2());
      memory.writeInt(pa, (int) updated);
      writes.deferNewest();
    }
    stats.amosExecuted++;
    inFlight++;
    accesses.recycle(a);
    // The unit has the result once its read of the old value has crossed the host link (its request one way, the
    // data back, and the read round trip) and its cycles have passed; then it writes the result back over the link,
    // a posted write, in the answer's event (Answered), and the host sees it when the write has crossed. Until stop
    // 68 neither the read nor the write was booked on the link (their latencies were charged, not their bytes). The
    // REMOTE event is booked in an event after the answer's, so its CQ entry crosses after the value: until stop 67
    // it was booked as the AMO executed, a read round trip before the value could be in memory (the arithmetic hunt
    // of stop 67: 510 ns before a cached miss's event, which costs the same read).
    int bytes = p.amo().operandBytes();
    long answerAt = host.read(now, bytes) + unitPs;
    scheduler.scheduleAt(answerAt, answered, accesses.packets.amoResult(p, old), pa);
    completions.remoteEventAfter(answerAt, p);
    accesses.done(p);
  }

  /**
   * A cached command: works on its word's entry (a hit) or on a newly filled one (a miss).
   *
   * @return false when it missed and no entry was free: the caller runs it as a memory AMO
   */
  private boolean executeCached(long now, MemoryAccess a) {
    Packet p = a.packet;
    long pa = a.pa[0];
    long w = AmoCache.wordOf(pa);
    int i = cache.lookup(w);
    long start;
    if (i >= 0) {
      stats.amoCacheHits++;
      start = Math.max(now, cache.readyAt(i));
    } else {
      stats.amoCacheMisses++;
      i = cache.allocate(w);
      if (i < 0) {
        return false;
      }
      start = host.read(now, 8); // the fill: the whole word, over the host link
      cache.filled(i, start);
    }
    int width = p.amo().widthBits();
    long old = cache.operand(i, pa, width);
    cache.store(i, pa, width, AmoArithmetic.apply(p.amo(), old, p.operand1(), p.operand2()));
    long answerAt = start + unitPs;
    cache.begin(i, start + issuePs);
    stats.amosExecuted++;
    inFlight++;
    accesses.recycle(a);
    scheduler.scheduleAt(answerAt, cachedAnswered, accesses.packets.amoResult(p, old), i);
    // The value reaches host memory when the entry goes idle (under the default write-back): at this AMO's answer at
    // the earliest, later when the next AMO on the word started before it (a chain). Its REMOTE event must not be
    // visible before that, or a poller it wakes reads the old value and waits for an event that never comes
    // (docs/memory-hierarchy.md, "AMO cache"), so under the idle write-back it is held with the entry and booked when
    // the entry goes idle (stop 64's review: it was booked at the answer, before a chain's write-back).
    long held = completions.holdRemoteEvent(p);
    if (held >= 0) {
      if (idleWriteBack) {
        hold(i, held);
      } else {
        completions.remoteEventHeld(answerAt, held);
      }
    }
    accesses.done(p);
    return true;
  }

  /** Invalidates the AMO cache (a no-op without one); see {@link AmoCache#invalidateAll()}. */
  void invalidateCache() {
    if (cache != null) {
      cache.invalidateAll();
    }
  }

  private void answer(long now, Packet response) {
    inFlight--;
    injector.injectAt(now, response);
    if (waiting != null && !waiting.isEmpty()) {
      execute(now, waiting.poll());
    }
  }

  /**
   * A memory AMO's response is ready (ref: the response, arg: the word's physical address): the result is written to
   * host memory over the host link, the AMO leaves the unit, and a waiting AMO enters.
   */
  private final class Answered implements EventHandler {
    @Override
    public void onEvent(long now, Object ref, long arg) {
      Packet response = (Packet) ref;
      int bytes = response.amo().operandBytes();
      writes.wroteDeferred(host.write(now, bytes), arg, bytes);
      answer(now, response);
    }
  }

  /**
   * A cached AMO's response is ready (ref: the response, arg: its AMO-cache entry): the entry may go idle (and be
   * written back), the AMO leaves the unit, and a waiting AMO enters.
   */
  private final class CachedAnswered implements EventHandler {
    @Override
    public void onEvent(long now, Object ref, long arg) {
      int i = (int) arg;
      cache.end(i);
      if (heldCount != null && heldCount[i] > 0 && cache.busy(i) == 0) {
        // idle: its value has just been written back; the chain's REMOTE events are visible from now
        for (int k = 0; k < heldCount[i]; k++) {
          completions.remoteEventHeld(now, heldEvents[i][k]);
        }
        heldCount[i] = 0;
      }
      answer(now, (Packet) ref);
    }
  }

  /** Holds a REMOTE event with cache entry {@code i} until it goes idle (arrays made on first use, reused after). */
  private void hold(int i, long event) {
    if (heldCount == null) {
      heldCount = new int[cache.capacity()];
      heldEvents = new long[cache.capacity()][];
    }
    long[] e = heldEvents[i];
    if (e == null) {
      e = heldEvents[i] = new long[4];
    } else if (heldCount[i] == e.length) {
      e = heldEvents[i] = java.util.Arrays.copyOf(e, e.length * 2);
    }
    e[heldCount[i]++] = event;
  }
}
