package io.github.ariesmodel.core.sim;

import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.core.spi.Scheduler;

/**
 * An ideal network: every packet reaches its destination a fixed latency after it has serialized out of its source
 * at the injection bandwidth. No routers, no contention between sources, never refuses an injection; packets of one
 * source arrive in the order they were injected. For testing a NIC on its own, and as the zero-hop baseline of the
 * calibration (the NIC pair alone, without routers).
 */
public final class IdealFabric implements Fabric {

  private final Scheduler scheduler;
  private final FabricEndpoints endpoints;
  private final long latencyPs;
  private final double bytesPerSecond;
  private final long[] sourceFreeAt;
  private final EventHandler arrive = this::arrive;
  private long delivered;

  /**
   * An ideal fabric.
   *
   * @param scheduler the clock
   * @param nodeCount number of nodes, 1 to 2^18
   * @param latencyPs fixed latency after serialization, in [0, {@link io.github.ariesmodel.core.SimTime#MAX_LATENCY_PS}]
   * @param injectionBytesPerSecond serialization rate of each source, in [{@link
   *     io.github.ariesmodel.core.SimTime#MIN_BYTES_PER_SECOND}, {@link
   *     io.github.ariesmodel.core.SimTime#MAX_BYTES_PER_SECOND}] ({@link Double#POSITIVE_INFINITY} for none)
   */
  public IdealFabric(Scheduler scheduler, int nodeCount, long latencyPs, double injectionBytesPerSecond) {
    if (scheduler == null) {
      throw new IllegalArgumentException("scheduler must not be null");
    }
    if (nodeCount < 1 || nodeCount > (1 << 18)) {
      throw new IllegalArgumentException("nodeCount must be in [1, 262144] but was " + nodeCount);
    }
    io.github.ariesmodel.core.SimTime.checkLatency("latencyPs", latencyPs);
    io.github.ariesmodel.core.SimTime.checkRate("injectionBytesPerSecond", injectionBytesPerSecond, true);
    this.scheduler = scheduler;
    this.endpoints = new FabricEndpoints(nodeCount);
    this.latencyPs = latencyPs;
    this.bytesPerSecond = injectionBytesPerSecond;
    this.sourceFreeAt = new long[nodeCount];
  }

  @Override
  public int nodeCount() {
    return endpoints.nodeCount();
  }

  @Override
  public void attach(int nodeId, FabricEndpoint endpoint) {
    endpoints.attach(nodeId, endpoint);
  }

  @Override
  public void attachOnDemand(java.util.function.IntConsumer attacher) {
    endpoints.attachOnDemand(attacher);
  }

  @Override
  public boolean inject(Packet packet) {
    endpoints.checkPacket(packet);
    long now = scheduler.now();
    long start = Math.max(now, sourceFreeAt[packet.sourceNode()]);
    long ser = Double.isInfinite(bytesPerSecond) ? 0 : SimTime.serializationPs(packet.wireBytes(), bytesPerSecond);
    long arrival = start + ser + latencyPs;
    if (arrival < start) { // refused before anything changes: the packet stays the caller's, the source as it was
      throw new IllegalArgumentException("packet's arrival must be within the clock (Long.MAX_VALUE ps) but " + start
          + " ps + " + ser + " ps of serialization + " + latencyPs + " ps of latency is beyond it");
    }
    packet.checkNotInFabric();
    scheduler.scheduleAt(arrival, arrive, packet, 0); // (may refuse: a scheduler of another thread, say)
    packet.enterFabric();
    sourceFreeAt[packet.sourceNode()] = start + ser;
    packet.injectedAtPs(now);
    return true;
  }

  /** @return packets delivered so far */
  public long delivered() {
    return delivered;
  }

  private void arrive(long now, Object ref, long arg) {
    Packet p = (Packet) ref;
    FabricEndpoint e = endpoints.endpointFor(p);
    delivered++;
    p.leaveFabric();
    e.deliver(now, p);
  }

}
