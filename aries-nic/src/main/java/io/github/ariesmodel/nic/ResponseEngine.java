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
 * The receive side of the NIC's own transactions (the ORB's role, aries-facts §3: it tracks network responses): a
 * response pipeline that takes one packet per {@code packetCycles} and spends {@code rxPipelineCycles} (assumed 40)
 * on it, then matches it to its transaction by request tag. ACKs and errors are counted at once; GET data and a
 * fetching AMO's old value land in local memory through translation ({@link TranslationClient#NETWORK_RESPONSE})
 * and a posted write over the {@link HostLink}. Responses may arrive in any order; the {@link TransactionTable}
 * completes the transaction when the last has been processed.
 */
final class ResponseEngine {
  private final int nodeId;
  private final Scheduler scheduler;
  private final HostMemory memory;
  private final NicConfig config;
  private final HostLink host;
  private final AccessPool accesses;
  private final TransactionTable table;
  private final HostWriteProbes writes;
  private final long slotPs;
  private final long rxLatencyPs;
  private final EventHandler received = new Received();
  private final ResponseLanding landing;
  private long freeAt;

  ResponseEngine(int nodeId, Scheduler scheduler, HostMemory memory, AddressTranslation translation, NicConfig config,
      HostLink host, AccessPool accesses, TransactionTable table, HostWriteProbes writes) {
    this.nodeId = nodeId;
    this.writes = writes;
    this.scheduler = scheduler;
    this.memory = memory;
    this.config = config;
    this.host = host;
    this.accesses = accesses;
    this.table = table;
    NicTiming t = config.timing();
    this.slotPs = t.cyclePs() * t.packetCycles();
    this.rxLatencyPs = t.cyclePs() * t.rxPipelineCycles();
    this.landing = new ResponseLanding(translation);
  }

  /** A response has arrived from the fabric: it enters the response pipeline. */
  void receive(long now, Packet response) {
    long start = Math.max(now, freeAt);
    freeAt = start + slotPs;
    scheduler.scheduleAt(start + rxLatencyPs, received, response, 0);
  }

  private void process(long now, Packet p) {
    Transaction t = table.find(RequestTag.tag(p.tag()));
    if (t == null || !t.active || p.sourceNode() != t.remoteNode) {
      throw new IllegalStateException("node " + nodeId + " received a response for no outstanding transaction: " + p);
    }
    switch (p.kind()) {
      case ERROR_RESPONSE -> {
        t.fail(p.status());
        table.responseProcessed(now, t);
        accesses.done(p);
      }
      case ACK_RESPONSE -> {
        table.responseProcessed(now, t);
        accesses.done(p);
      }
      case DATA_RESPONSE -> {
        // the payload lands from the packet's own array: the packet is done once it has landed
        MemoryAccess a = landing(t, t.localOffset + (p.offset() - t.remoteOffset), p.dataLength());
        a.data = p.data();
        a.packet = p;
        landing.start(a);
      }
      case AMO_RESPONSE -> {
        t.fetched = p.operand1();
        if (t.localMdh == Post.NO_LOCAL) {
          table.responseProcessed(now, t);
        } else {
          int w = p.amo().operandBytes();
          MemoryAccess a = landing(t, t.localOffset, w);
          LittleEndian.put(a.word, 0, w, p.operand1());
          a.data = a.word;
          landing.start(a);
        }
        accesses.done(p);
      }
      default -> throw new AssertionError(p.kind());
    }
  }

  private MemoryAccess landing(Transaction t, long localOffset, int length) {
    MemoryAccess a = accesses.take(TranslationClient.NETWORK_RESPONSE, t.localMdh, localOffset, length,
        AccessKind.WRITE, config.protectionTag(), config.protectionKey());
    a.tx = t;
    return a;
  }

  /** A response has left the response pipeline (ref: the packet). */
  private final class Received implements EventHandler {
    @Override
    public void onEvent(long now, Object ref, long arg) {
      process(now, (Packet) ref);
    }
  }

  /** Response data translated: write it into local memory (a fault fails the transaction), and count the response. */
  private final class ResponseLanding extends AccessPurpose {
    ResponseLanding(AddressTranslation translation) {
      super(translation, nodeId, memory);
    }

    @Override
    void translated(long now, MemoryAccess a, Status s) {
      Transaction t = a.tx;
      if (s.isError()) {
        t.fail(s);
      } else {
        a.write(memory, a.data);
        writes.wrote(host.write(now, a.length), a);
      }
      Packet p = a.packet;
      accesses.recycle(a);
      if (p != null) {
        accesses.done(p);
      }
      table.responseProcessed(now, t);
    }
  }
}
