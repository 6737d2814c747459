package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.core.spi.Scheduler;
import java.util.SplittableRandom;

/**
 * A test fabric that delivers every packet after a random delay, so packets (and responses) of one transaction arrive
 * out of order, and that refuses every {@code refuseEvery}-th injection, announcing readiness a little later.
 */
final class ReorderingFabric implements Fabric {

  private final Scheduler scheduler;
  private final FabricEndpoint[] endpoints;
  private final SplittableRandom random;
  private final long maxDelayPs;
  private final int refuseEvery;
  private final EventHandler arrive = this::arrive;
  private final EventHandler ready = this::ready;
  private final boolean[] blocked;
  private long offered;
  long reordered;
  long refused;
  private long lastArrival;

  ReorderingFabric(Scheduler scheduler, int nodes, long seed, long maxDelayPs, int refuseEvery) {
    this.scheduler = scheduler;
    this.endpoints = new FabricEndpoint[nodes];
    this.random = new SplittableRandom(seed);
    this.maxDelayPs = maxDelayPs;
    this.refuseEvery = refuseEvery;
    this.blocked = new boolean[nodes];
  }

  @Override
  public int nodeCount() {
    return endpoints.length;
  }

  @Override
  public void attach(int nodeId, FabricEndpoint endpoint) {
    endpoints[nodeId] = endpoint;
  }

  @Override
  public boolean inject(Packet packet) {
    int src = packet.sourceNode();
    if (blocked[src]) {
      return false;
    }
    offered++;
    if (refuseEvery > 0 && offered % refuseEvery == 0) {
      refused++;
      blocked[src] = true;
      scheduler.scheduleAfter(1 + random.nextLong(maxDelayPs + 1), ready, null, src);
      return false;
    }
    long at = scheduler.now() + random.nextLong(maxDelayPs + 1);
    if (at < lastArrival) {
      reordered++;
    }
    lastArrival = Math.max(lastArrival, at);
    scheduler.scheduleAt(at, arrive, packet, 0);
    return true;
  }

  private void arrive(long now, Object ref, long arg) {
    Packet p = (Packet) ref;
    endpoints[p.destinationNode()].deliver(now, p);
  }

  private void ready(long now, Object ref, long arg) {
    blocked[(int) arg] = false;
    endpoints[(int) arg].injectionReady(now);
  }
}
