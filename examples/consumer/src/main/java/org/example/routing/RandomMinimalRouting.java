package org.example.routing;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.network.spi.Candidates;
import io.github.ariesmodel.network.spi.RouterView;
import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.spi.Topology;

/**
 * A user's routing: minimal, spreading packets over every minimal path by a per-packet hash (so one flow's packets
 * take different paths), and offering all minimal next ports so that the default selection takes the least
 * congested. It uses VC = hops taken, which keeps the fabric deadlock-free.
 */
public final class RandomMinimalRouting implements RoutingAlgorithm {

  private final Topology topology;
  private final long seed;
  private final int[] ports;

  /**
   * @param topology the topology to route on
   * @param seed mixed into the per-packet hash
   */
  public RandomMinimalRouting(Topology topology, long seed) {
    this.topology = topology;
    this.seed = seed;
    this.ports = new int[topology.maxMinimalPorts()];
  }

  @Override
  public void route(Packet packet, RouterView router, Candidates candidates) {
    int target = topology.routerOfNode(packet.destinationNode());
    // the same hash at every hop of this packet, so it keeps the global link it started toward
    int hash = (int) ((packet.tag() * 0x9E3779B97F4A7C15L + packet.sourceNode() * 31L + seed) >>> 33);
    int n = topology.minimalPorts(router.router(), target, hash, ports);
    for (int i = 0; i < n; i++) {
      candidates.add(ports[i], packet.hops());
    }
  }
}
