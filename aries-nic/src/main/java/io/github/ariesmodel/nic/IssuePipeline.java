package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.LittleEndian;
import io.github.ariesmodel.core.NetworkAddress;
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
 * came with the post. Each request then spends the transmit pipeline ({@code txPipelineCycles}, assumed 40 cycles)
 * before the {@link Injector} offers it to the fabric. Issue pauses while the injector holds
 * {@link NicConfig#injectHoldLimit()} refused packets.
 */
final class IssuePipeline {
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

  /** @return transactions with requests left to issue */
  int issuing() {
    return ringSize;
  }

  /** @return whether issue has paused for refused injections */
  boolean paused() {
    return paused;
  }

  private void scheduleSlot(long now) {
    if (slotScheduled || paused || ringSize == 0) {
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
    if (injector.held() >= config.injectHoldLimit()) {
      paused = true;
      return;
    }
    nextSlotAt = now + slotPs;
    if (ringPos >= ringSize) {
      ringPos = 0;
    }
    Transaction t = ring[ringPos];
    int i = t.issued++;
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
        Packet p = Packet.get(nodeId, NetworkAddress.of(t.remoteNode, t.remoteMdh, start), tagWord, t.mode, len,
            config.protectionTag(), config.protectionKey());
        injector.injectAt(now + txLatencyPs, p);
        return;
      }
      case AMO: {
        Packet p = Packet.amo(nodeId, NetworkAddress.of(t.remoteNode, t.remoteMdh, t.remoteOffset), tagWord, t.mode,
            t.post.amo(), t.post.operand1(), t.post.operand2(), config.protectionTag(), config.protectionKey());
        injector.injectAt(now + txLatencyPs, p);
        return;
      }
      case CQ_WRITE: {
        Packet p = Packet.put(nodeId, NetworkAddress.of(t.remoteNode, t.remoteMdh, 0), tagWord | RequestTag.CQ_WRITE,
            t.mode, LittleEndian.ofLong(t.post.operand1()), config.protectionTag(), config.protectionKey());
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
      super(translation);
    }

    @Override
    void translated(long now, MemoryAccess a, Status s) {
      Transaction t = a.tx;
      if (s.isError()) {
        t.fail(s);
        accesses.recycle(a);
        table.requestLeft(now, t);
        table.responseProcessed(now, t);
        return;
      }
      byte[] data = new byte[a.length];
      a.read(memory, data);
      long ready = t.channel >= 0 ? host.read(now, a.length) : now;
      Packet p = Packet.put(nodeId, NetworkAddress.of(t.remoteNode, t.remoteMdh, a.remoteStart), a.tagWord, t.mode,
          data, config.protectionTag(), config.protectionKey());
      accesses.recycle(a);
      injector.injectAt(ready + txLatencyPs, p);
    }
  }
}
