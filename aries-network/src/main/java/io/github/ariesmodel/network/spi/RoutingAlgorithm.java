package io.github.ariesmodel.network.spi;

import io.github.ariesmodel.core.packet.Packet;

/**
 * A routing algorithm: the main extension point of the fabric. At every router a packet visits (except its
 * destination router, where it is ejected) the fabric calls {@link #route} to fill the candidate (port, VC) set, then
 * {@link #select} to pick one.
 *
 * <p>Route state lives in the fabric, not in the packet. Choosing a candidate added with {@link
 * Candidates#addNonMinimal} commits the packet to an intermediate and counts it as routed non-minimally; candidates
 * added with {@code add} keep whatever the packet had. The fabric clears the intermediate when the packet arrives
 * where {@link DragonflyPaths#reached} holds. At each decision {@link RouterView#intermediate()} and {@link
 * RouterView#nonMinimal()} give that state and {@link Packet#hops()} the hops taken (0 at the source router).
 * {@link DragonflyPaths} holds the rest of the path plumbing (intermediate choice, leg hashing, hop bounds).
 *
 * <p>An algorithm reads the packet but never writes it, and keeps no reference to it beyond the packet's delivery
 * (the system's NICs reuse delivered packets for new ones; per-packet state belongs in the fabric's route state). It must offer only cabled ports, VCs below {@link
 * RouterView#vcCount()}, and must reach the destination in a bounded number of hops; to be deadlock-free its VC
 * choice must make channel dependencies acyclic (the built-ins use VC = hops taken). A packet it counts as
 * non-minimal must reach its intermediate, and one it counts as minimal must take a minimal path. The {@code
 * RoutingContract} in aries-testkit checks these properties.
 *
 * <p>Instances are made by a {@link RoutingProvider}: one for a fabric on a single event loop, and one per dragonfly
 * group, each with a seed of its own, for a fabric on the partitioned engine (core's {@code PartitionedEngine}, which
 * {@code ./aries traffic} uses). Each instance is called by one simulation thread, but the instances of one fabric run
 * on the groups' threads at once: they must share no mutable state (no static counter, random stream or table written
 * while routing), or the results depend on the thread count. The {@code RoutingContract} runs a routing on one thread
 * and on a thread per group and compares (it did not until stop 76). Instances must not allocate per decision.
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
   * The fewest virtual channels the fabric must have for this routing on its topology; the fabric refuses to build
   * with fewer. A routing that puts a packet on VC = hops taken needs its longest route's hop count ({@link
   * DragonflyPaths#maxRouteHops}).
   *
   * @return at least 1 (the default: no stated need)
   */
  default int virtualChannelsNeeded() {
    return 1;
  }

  /**
   * The topology this instance was made for, so a fabric can refuse an instance made for another (a built-in made for
   * a canonical dragonfly failed on an Aries one with a division by zero). The built-ins answer; a user's routing may.
   *
   * @return the topology, or null when the routing does not say (the default; the fabric then cannot check it)
   */
  default Topology topology() {
    return null;
  }

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
