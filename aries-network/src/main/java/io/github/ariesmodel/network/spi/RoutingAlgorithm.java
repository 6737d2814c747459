package io.github.ariesmodel.network.spi;

import io.github.ariesmodel.core.packet.Packet;

/**
 * A routing algorithm: the main extension point of the fabric. At every router a packet visits (except its
 * destination router, where it is ejected) the fabric calls {@link #route} to fill the candidate (port, VC) set, then
 * {@link #select} to pick one. The chosen candidate's intermediate becomes the packet's {@link Packet#intermediate()};
 * choosing a candidate with an intermediate ≥ 0 marks the packet as routed non-minimally.
 *
 * <p>An algorithm may read and write the packet's routing state ({@link Packet#routeFlags()}, {@link
 * Packet#intermediate()}; {@link Packet#hops()} counts hops taken) but nothing else. It must offer only cabled ports,
 * VCs below {@link RouterView#vcCount()}, and must reach the destination in a bounded number of hops; to be
 * deadlock-free its VC choice must make channel dependencies acyclic (the built-ins use VC = hops taken). The
 * {@code RoutingContract} in aries-testkit checks these properties.
 *
 * <p>Instances are made per fabric by a {@link RoutingProvider} and are used by one simulation thread. They must not
 * allocate per decision.
 */
public interface RoutingAlgorithm {

  /**
   * Offers candidates for a packet at a router. Called only when the router is not the destination's router.
   *
   * @param packet the packet
   * @param router the router, read-only
   * @param candidates an empty set to fill (at least one candidate)
   */
  void route(Packet packet, RouterView router, Candidates candidates);

  /**
   * Picks one candidate. The default takes the lowest {@code weight × congestion(port) + bias}, the first on ties.
   *
   * @param packet the packet
   * @param router the router
   * @param candidates the filled set
   * @return the index of the chosen candidate
   */
  default int select(Packet packet, RouterView router, Candidates candidates) {
    int best = 0;
    long bestScore = Long.MAX_VALUE;
    for (int i = 0; i < candidates.size(); i++) {
      long s = (long) candidates.weight(i) * router.congestion(candidates.port(i)) + candidates.bias(i);
      if (s < bestScore) {
        bestScore = s;
        best = i;
      }
    }
    return best;
  }
}
