package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.LittleEndian;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.core.spi.TranslationClient;

/**
 * The request side of FMA and the BTE: FMA transactions and the active BTE transactions share one issue slot, round
 * robin, one request per {@code packetCycles} (5 cycles at 800 MHz: 64 B every 6.25 ns, the published 10.2 GB/s
 * peak [S2 via S1]). A request never crosses a 64-byte boundary of the remote address (cache-line packets, the
 * model's assumption). A PUT request first reads its data from local memory through translation
 * ({@link TranslationClient#LOCAL_READ}); BTE reads pay the host read round trip over the {@link HostLink}, FMA data
 * came with the post; a PUT of its value ({@link Post#putValue}) reads and translates nothing. Each request then
 * spends the transmit pipeline ({@code txPipelineCycles}, assumed 40 cycles) before the {@link Injector} offers it
 * to the fabric.
 *
 * <p>Two limits shape who may issue in a slot. An FMA transaction's request issues only once the CPU has stored it
 * through the FMA window ({@link Transaction#nextReadyPs()}). A BTE channel keeps at most
 * {@link NicTiming#bteReadsInFlight()} PUT requests between issue (its host read starts) and injection (its data
 * leaves the NIC's buffer); BTE PUTs are throttled by that window alone, so their reads stay in flight while the
 * fabric pushes back. Every other request pauses while the injector holds {@link NicConfig#injectHoldLimit()}
 * refused packets. A slot whose turn finds nobody eligible skips to the next eligible transaction.
 */
final class IssuePipeline {
  /**
   * GET requests the NIC keeps outstanding (issued, response not yet processed), FMA and BTE together: the model's
   * stand-in for the outstanding request buffer's GET entries. <em>Assumed</em>: the ORB's size is not published (the
   * BTE header's per-channel "max outstanding GETs" field is 11 bits wide [S6a], a ceiling, not the configured value).
   * It was first fitted to hold a one-hop GET stream near 8.5 GB/s; a GET stream is now bound by the target's
   * non-posted table ({@link TargetEngine#NPT_TAGS}), and this bound no longer binds at any distance {@code validate}
   * measures (its rows are identical with the bound removed). It stays so that a requester cannot pile an unbounded
   * number of GETs on one target.
   */
  static final int GET_REQUESTS_IN_FLIGHT = 192;

  private final int nodeId;
  private final Scheduler scheduler;
  private final HostMemory memory;
  private final NicConfig config;
  private final HostLink host;
  private final AccessPool accesses;
  private final TransactionTable table;
  private final Injector injector;
  private final long slotPs;
  private final long txLatencyPs;
  private final EventHandler slot = new Slot();
  private final PutDataRead putDataRead;

  private Transaction[] ring;
  private int ringSize;
  private int ringPos;
  private boolean slotScheduled;
  private boolean paused;
  private long nextSlotAt;
  private int[] readsInFlight;
  private int getsInFlight;
  private int maxReadsInFlight;

  IssuePipeline(int nodeId, Scheduler scheduler, HostMemory memory, AddressTranslation translation, NicConfig config,
      HostLink host, AccessPool accesses, TransactionTable table, Injector injector) {
    this.nodeId = nodeId;
    this.scheduler = scheduler;
    this.memory = memory;
    this.config = config;
    this.host = host;
    this.accesses = accesses;
    this.table = table;
    this.injector = injector;
    NicTiming t = config.timing();
    this.slotPs = t.cyclePs() * t.packetCycles();
    this.txLatencyPs = t.cyclePs() * t.txPipelineCycles();
    this.putDataRead = new PutDataRead(translation);
  }

  /** A transaction has started: its requests join the round robin. */
  void add(long now, Transaction t) {
    if (ring == null) {
      ring = new Transaction[config.requestTags()];
      readsInFlight = new int[config.bteChannels()];
    }
    ring[ringSize++] = t;
    scheduleSlot(now);
  }

  /** The injector has room again: issue resumes if it had paused. */
  void injectorDrained(long now) {
    if (paused && injector.held() < config.injectHoldLimit()) {
      paused = false;
      scheduleSlot(now);
    }
  }

  /**
   * A BTE PUT request of {@code channel} has left the NIC (or ended at the source): its read buffer frees.
   *
   * @param now current time
   * @param channel 0 to bteChannels - 1
   */
  void bteReadReleased(long now, int channel) {
    readsInFlight[channel]--;
    scheduleSlot(now);
  }

  /** A GET response has been processed: its request's entry frees. */
  void getAnswered(long now) {
    getsInFlight--;
    scheduleSlot(now);
  }

  /** @return GET requests outstanding (issued, response not processed) */
  int getsInFlight() {
    return getsInFlight;
  }

  /** @param channel a BTE channel @return its host reads in flight (issued, not yet injected) */
  int readsInFlight(int channel) {
    return readsInFlight == null ? 0 : readsInFlight[channel];
  }

  /** @return the most host reads one BTE channel has had in flight so far */
  int maxReadsInFlight() {
    return maxReadsInFlight;
  }

  /** @return transactions with requests left to issue */
  int issuing() {
    return ringSize;
  }

  /** @return whether issue has paused for refused injections */
  boolean paused() {
    return paused;
  }

  private void scheduleSlot(long now) {
    if (slotScheduled || ringSize == 0) {
      return;
    }
    slotScheduled = true;
    scheduler.scheduleAt(Math.max(now, nextSlotAt), slot, null, 0);
  }

  private void runSlot(long now) {
    slotScheduled = false;
    if (ringSize == 0) {
      return;
    }
    boolean holdFull = injector.held() >= config.injectHoldLimit();
    if (ringPos >= ringSize) {
      ringPos = 0;
    }
    long earliest = Long.MAX_VALUE;
    int pick = -1;
    for (int k = 0; k < ringSize; k++) {
      int pos = ringPos + k;
      if (pos >= ringSize) {
        pos -= ringSize;
      }
      Transaction t = ring[pos];
      if (t.channel >= 0 && t.type == Post.PostType.PUT) {
        if (readsInFlight[t.channel] < config.timing().bteReadsInFlight()) {
          pick = pos;
          break;
        }
      } else if (!holdFull && (t.type != Post.PostType.GET || getsInFlight < GET_REQUESTS_IN_FLIGHT)) {
        long ready = t.nextReadyPs();
        if (ready <= now) {
          pick = pos;
          break;
        }
        earliest = Math.min(earliest, ready);
      }
    }
    if (pick < 0) {
      // Nobody may issue now: a read buffer freeing, the injector draining or the CPU's next store wakes the slot.
      paused = holdFull;
      if (earliest != Long.MAX_VALUE) {
        slotScheduled = true;
        scheduler.scheduleAt(earliest, slot, null, 0);
      }
      return;
    }
    paused = false;
    ringPos = pick;
    nextSlotAt = now + slotPs;
    Transaction t = ring[ringPos];
    int i = t.issued++;
    if (t.channel >= 0 && t.type == Post.PostType.PUT) {
      int n = ++readsInFlight[t.channel];
      if (n > maxReadsInFlight) {
        maxReadsInFlight = n;
      }
    }
    if (t.type == Post.PostType.GET) {
      getsInFlight++;
    }
    if (t.issued == t.packets) {
      System.arraycopy(ring, ringPos + 1, ring, ringPos, ringSize - ringPos - 1);
      ring[--ringSize] = null;
      if (t.channel >= 0) {
        table.channelIssued(now, t.channel);
      }
    } else {
      ringPos++;
    }
    issue(now, t, i);
    scheduleSlot(now);
  }

  private void issue(long now, Transaction t, int i) {
    int tagWord = t.tag | (i == t.packets - 1 && (t.modes & Post.REMOTE_EVENT) != 0 ? RequestTag.REMOTE_EVENT : 0);
    switch (t.type) {
      case PUT: {
        long start = t.packetStart(i);
        int len = t.packetLength(i, start);
        if (t.post.carriesValue()) { // Post.putValue: the data came with the post, nothing to read
          Packet p = accesses.packets.put(nodeId, t.remoteNode, t.remoteMdh, start, tagWord, t.mode, len,
              config.protectionTag(), config.protectionKey());
          LittleEndian.put(p.data(), 0, len, t.post.operand1());
          injector.injectAt(now + txLatencyPs, p);
          return;
        }
        MemoryAccess a = accesses.take(TranslationClient.LOCAL_READ, t.localMdh,
            t.localOffset + (start - t.remoteOffset), len, AccessKind.READ, config.protectionTag(),
            config.protectionKey());
        a.tx = t;
        a.remoteStart = start;
        a.tagWord = tagWord;
        putDataRead.start(a);
        return;
      }
      case GET: {
        long start = t.packetStart(i);
        int len = t.packetLength(i, start);
        Packet p = accesses.packets.get(nodeId, t.remoteNode, t.remoteMdh, start, tagWord, t.mode, len,
            config.protectionTag(), config.protectionKey());
        injector.injectAt(now + txLatencyPs, p);
        return;
      }
      case AMO: {
        Packet p = accesses.packets.amo(nodeId, t.remoteNode, t.remoteMdh, t.remoteOffset, tagWord, t.mode,
            t.post.amo(), t.post.operand1(), t.post.operand2(), config.protectionTag(), config.protectionKey());
        injector.injectAt(now + txLatencyPs, p);
        return;
      }
      case CQ_WRITE: {
        Packet p = accesses.packets.put(nodeId, t.remoteNode, t.remoteMdh, 0, tagWord | RequestTag.CQ_WRITE, t.mode,
            8, config.protectionTag(), config.protectionKey());
        LittleEndian.put(p.data(), 0, 8, t.post.operand1());
        injector.injectAt(now + txLatencyPs, p);
        return;
      }
      default:
        throw new AssertionError(t.type);
    }
  }

  /** The issue slot comes round (no ref, no arg). */
  private final class Slot implements EventHandler {
    @Override
    public void onEvent(long now, Object ref, long arg) {
      runSlot(now);
    }
  }

  /**
   * A PUT request's source data translated: read it (BTE: over the host link) and send the request. A fault ends the
   * request at the source: it counts as gone and answered, with the fault, and nothing is sent.
   */
  private final class PutDataRead extends AccessPurpose {
    PutDataRead(AddressTranslation translation) {
      super(translation, nodeId, memory);
    }

    @Override
    void translated(long now, MemoryAccess a, Status s) {
      Transaction t = a.tx;
      if (s.isError()) {
        t.failLocal(s);
        accesses.recycle(a);
        table.requestLeft(now, t);
        table.responseProcessed(now, t);
        return;
      }
      Packet p = accesses.packets.put(nodeId, t.remoteNode, t.remoteMdh, a.remoteStart, a.tagWord, t.mode, a.length,
          config.protectionTag(), config.protectionKey());
      a.read(memory, p.data());
      long ready = t.channel >= 0 ? host.read(now, a.length) : now;
      accesses.recycle(a);
      injector.injectAt(ready + txLatencyPs, p);
    }
  }
}
