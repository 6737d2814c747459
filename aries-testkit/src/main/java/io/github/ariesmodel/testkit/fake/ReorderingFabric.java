package io.github.ariesmodel.testkit.fake;

import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.FabricEndpoints;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.core.spi.Scheduler;
import java.util.SplittableRandom;

/**
 * A {@link Fabric} that delivers every packet, each after {@code latency + U[0, jitter]} picoseconds drawn from a
 * seeded generator, so packets of one transfer arrive out of order as they may on adaptive Aries routes. For testing
 * that a NIC reassembles, counts responses and completes correctly whatever the arrival order. Never refuses an
 * injection; the same seed and the same injections give the same arrival order.
 *
 * <pre>{@code
 * DeterministicEventLoop loop = new DeterministicEventLoop();
 * ReorderingFabric fabric = new ReorderingFabric(loop, 2, 100_000, 50_000, 42L);
 * // attach NICs, post a multi-packet PUT, loop.run(): packets arrive shuffled
 * }</pre>
 */
public final class ReorderingFabric implements Fabric {

  private final Scheduler scheduler;
  private final FabricEndpoints endpoints;
  private final long latencyPs;
  private final long jitterPs;
  private final SplittableRandom random;
  private final EventHandler arrive = this::arrive;
  private long delivered;

  /**
   * A reordering fabric.
   *
   * @param scheduler the clock
   * @param nodeCount 1 to 2^18
   * @param latencyPs least latency, 0 to 10^9 ps (1 ms, the model's bound on a latency)
   * @param jitterPs the most extra latency, 0 to 10^9 ps (0 delivers in injection order)
   * @param seed seed of the delay generator
   */
  public ReorderingFabric(Scheduler scheduler, int nodeCount, long latencyPs, long jitterPs, long seed) {
    if (scheduler == null) {
      throw new IllegalArgumentException("scheduler must not be null");
    }
    if (nodeCount < 1 || nodeCount > (1 << 18)) {
      throw new IllegalArgumentException("nodeCount must be in [1, 262144] but was " + nodeCount);
    }
    // at most 1 ms each, as every latency a component of the model takes: a larger one (Long.MAX_VALUE) passed and
    // the first injection's arrival time wrapped to a negative time
    SimTime.checkLatency("latencyPs", latencyPs);
    SimTime.checkLatency("jitterPs", jitterPs);
    this.scheduler = scheduler;
    this.endpoints = new FabricEndpoints(nodeCount);
    this.latencyPs = latencyPs;
    this.jitterPs = jitterPs;
    this.random = new SplittableRandom(seed);
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
  public boolean inject(Packet packet) {
    endpoints.checkPacket(packet);
    long now = scheduler.now();
    packet.injectedAtPs(now);
    long delay = latencyPs + (jitterPs == 0 ? 0 : random.nextLong(jitterPs + 1));
    scheduler.scheduleAt(now + delay, arrive, packet, 0);
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
    e.deliver(now, p);
  }

}
