package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.Scheduler;
import java.util.ArrayDeque;

/**
 * The NIC's transmit arbiter toward the network (TARB, aries-facts §3): requests from the {@link IssuePipeline} and
 * responses from the {@link TargetEngine} and {@link AmoUnit} are offered to the fabric in the order they are ready.
 * When the fabric refuses one (no credit at the router port), it and every later packet are held, in order, and
 * retried when the fabric signals {@code injectionReady}; the issue pipeline pauses while
 * {@link NicConfig#injectHoldLimit()} packets (assumed 8) are held. The TARB's flit credits [S6a] are not modelled
 * separately: the fabric's refusal stands for them.
 */
final class Injector {
  private final Scheduler scheduler;
  private final Fabric fabric;
  private final NicStatistics stats;
  private final TransactionTable table;
  private final EventHandler ready = new Ready();
  private IssuePipeline issue;
  private ArrayDeque<Packet> held;
  private boolean blocked;

  Injector(Scheduler scheduler, Fabric fabric, NicStatistics stats, TransactionTable table) {
    this.scheduler = scheduler;
    this.fabric = fabric;
    this.stats = stats;
    this.table = table;
  }

  /** Connects the pipeline that pauses while packets are held (the two refer to each other). */
  void issuePipeline(IssuePipeline pipeline) {
    this.issue = pipeline;
  }

  /**
   * Offers a packet to the fabric at a later time.
   *
   * @param at when the packet is ready to inject
   * @param p a request of this NIC's transactions, or a response to another node's request
   */
  void injectAt(long at, Packet p) {
    scheduler.scheduleAt(at, ready, p, 0);
  }

  /** @return refused packets waiting for the fabric */
  int held() {
    return held == null ? 0 : held.size();
  }

  private void inject(long now, Packet p) {
    if (held == null) {
      held = new ArrayDeque<>();
    }
    if (blocked || !held.isEmpty()) {
      held.add(p);
      return;
    }
    if (!offer(now, p)) {
      held.add(p);
    }
  }

  /** The fabric has room again: held packets go, in order, until one is refused. */
  void ready(long now) {
    if (held == null) {
      return;
    }
    blocked = false;
    while (!held.isEmpty() && offer(now, held.peek())) {
      held.poll();
    }
    issue.injectorDrained(now);
  }

  /**
   * Offers a packet to the fabric and counts it, or the refusal. What it counts is read before the offer: once the
   * fabric has the packet it is the fabric's and then its receiver's, which may give it back to a pool (see {@code
   * Nic.recyclePackets}) before {@code inject} returns.
   *
   * @return whether the fabric took it
   */
  private boolean offer(long now, Packet p) {
    int wireBytes = p.wireBytes();
    int payloadBytes = NicStatistics.carried(p);
    int requestTag = p.isRequest() ? RequestTag.tag(p.tag()) : -1;
    boolean collective = p.kind().isCollective();
    if (!fabric.inject(p)) {
      stats.injectionsRefused++;
      blocked = true;
      return false;
    }
    stats.sent(wireBytes, payloadBytes);
    if (collective) {
      return true; // counted by the collective engine; neither a request of a transaction nor a response
    }
    if (requestTag >= 0) {
      stats.requestsSent++;
      table.requestLeft(now, table.find(requestTag));
    } else {
      stats.responsesSent++;
    }
    return true;
  }

  /** A packet is ready to inject (ref: the packet). */
  private final class Ready implements EventHandler {
    @Override
    public void onEvent(long now, Object ref, long arg) {
      inject(now, (Packet) ref);
    }
  }
}
