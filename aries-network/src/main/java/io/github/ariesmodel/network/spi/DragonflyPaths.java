package io.github.ariesmodel.network.spi;

import io.github.ariesmodel.core.packet.Packet;

/**
 * The path plumbing of dragonfly routings, so that a routing states its policy (when to go non-minimal, which
 * candidate wins) and leaves the path to this helper. The built-in routings use it, and the router fabric uses its
 * {@link #reached} rule to clear a packet's intermediate.
 *
 * <p>A non-minimal (Valiant) route goes minimally to an <em>intermediate</em>, then minimally to the destination.
 * For traffic between groups the intermediate is a router of a third group and it counts as reached as soon as the
 * packet enters that group (the router itself is only a name for the group); for traffic inside one group it is
 * another router of the group and counts as reached at that router (the minimal way there may pass the destination
 * router, where the fabric delivers the packet: it chose the detour and counts as non-minimal, although its path was
 * minimal). {@link #chooseIntermediate} draws one,
 * {@link #reached} decides the rule, {@link #pathPorts} gives the minimal next ports toward whichever comes next,
 * and {@link #intermediateLegHash} keeps the leg toward the intermediate from reusing the link index of the leg
 * after it. The hash functions ({@link #mix}, {@link #packetHash}, {@link #flowHash}) are the ones the built-ins
 * use, so a user's routing can spread traffic the same way.
 *
 * <p>One instance per routing instance (it holds nothing but the topology); every method is allocation-free.
 */
public final class DragonflyPaths {

  private final Topology topology;

  /**
   * A helper for one topology.
   *
   * @param topology the topology routed on
   */
  public DragonflyPaths(Topology topology) {
    if (topology == null) {
      throw new IllegalArgumentException("topology must not be null");
    }
    this.topology = topology;
  }

  /** @return the topology */
  public Topology topology() {
    return topology;
  }

  /**
   * SplitMix64's finalizer folded to a non-negative int: a well-spread hash of any long.
   *
   * @param value any value
   * @return 0 to 2^31 - 1
   */
  public static int mix(long value) {
    long z = value + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z = z ^ (z >>> 31);
    return (int) z & 0x7FFF_FFFF;
  }

  /**
   * A flow hash: equal for every packet of a (source, destination) pair, and, with the address, of one target
   * address. Aries' hashed delivery modes keep a flow on one path this way (aries-facts §2).
   *
   * @param packet the packet
   * @param withAddress whether the target address (MDH and offset) enters the hash
   * @return 0 to 2^31 - 1
   * @throws IllegalArgumentException when {@code packet} is null
   */
  public static int flowHash(Packet packet, boolean withAddress) {
    if (packet == null) { // (free on this per-hop path: it replaces the null check of the field read below)
      throw new IllegalArgumentException("packet must not be null");
    }
    long h = ((long) packet.sourceNode() << 20) ^ packet.destinationNode();
    if (withAddress) {
      h = h * 31 + packet.offset() + ((long) packet.mdh() << 40);
    }
    return mix(h);
  }

  /**
   * A packet hash: equal at every hop of one packet and different across packets (it mixes in the tag), so a packet
   * keeps the global link it set out for while a flow's packets spread.
   *
   * @param packet the packet
   * @return 0 to 2^31 - 1
   * @throws IllegalArgumentException when {@code packet} is null
   */
  public static int packetHash(Packet packet) {
    if (packet == null) { // (free on this per-hop path: it replaces the null check of the field read below)
      throw new IllegalArgumentException("packet must not be null");
    }
    return mix((((long) packet.sourceNode() << 20) ^ packet.destinationNode()) * 0x9E3779B97F4A7C15L
        + packet.tag() * 31L + packet.offset());
  }

  /**
   * The hash to use on the way to the intermediate, derived from the one used afterwards. They must differ: with the
   * same value the packet would leave the intermediate group on the link with the same index it arrived on, which
   * under the consecutive arrangement ties each entry router to one exit router and funnels a shift pattern's
   * traffic through single local links.
   *
   * @param hash the packet's (or flow's) hash
   * @return the hash for the intermediate leg
   */
  public static int intermediateLegHash(int hash) {
    return mix(hash ^ 0x5BD1E995L);
  }

  /**
   * Draws an intermediate for a packet at {@code router} going to {@code destinationRouter}: between groups, a router
   * of a group other than both ends (group {@code random mod (groups - 2)} among them, router
   * {@code (random / groups) mod routersPerGroup} in it); between the two groups of a two-group system, which has no
   * third group, a router of either end group other than the deciding router and the destination's router
   * ({@code random mod 2} picks the group, the rest the router): through a router of the source group the packet
   * leaves on that router's global links, through one of the destination group it enters on other routers' links
   * and then crosses the destination group; inside one group, a router of the group other than both ends.
   *
   * @param router the router deciding (normally the source router)
   * @param destinationRouter the destination's router
   * @param random a non-negative random or hashed value that fixes the choice
   * @return the intermediate router, or -1 when there is none (fewer than 3 routers in the group for traffic inside
   *     one group, or a single router per group between two groups)
   */
  public int chooseIntermediate(int router, int destinationRouter, long random) {
    if (random < 0) {
      throw new IllegalArgumentException("random must be >= 0 but was " + random);
    }
    int groups = topology.groupCount();
    int per = topology.routersPerGroup();
    int gs = topology.groupOfRouter(router);
    int gd = topology.groupOfRouter(destinationRouter);
    if (gs != gd && groups < 3) {
      if (per < 2) {
        return -1;
      }
      boolean inSource = random % 2 == 0;
      int end = inSource ? router : destinationRouter;
      int i = (int) ((random / 2) % (per - 1));
      if (i >= end % per) {
        i++;
      }
      return topology.routerInGroup(inSource ? gs : gd, i);
    }
    if (gs != gd) {
      int g = (int) (random % (groups - 2));
      int lo = Math.min(gs, gd);
      int hi = Math.max(gs, gd);
      if (g >= lo) {
        g++;
      }
      if (g >= hi) {
        g++;
      }
      return topology.routerInGroup(g, (int) ((random / groups) % per));
    }
    if (per < 3) {
      return -1;
    }
    int i = (int) (random % (per - 2));
    int a = Math.min(router % per, destinationRouter % per);
    int b = Math.max(router % per, destinationRouter % per);
    if (i >= a) {
      i++;
    }
    if (i >= b) {
      i++;
    }
    return topology.routerInGroup(gs, i);
  }

  /**
   * Whether a packet at {@code router} has reached its intermediate: it is in the intermediate's group, or, when the
   * intermediate is in the destination's group (traffic inside one group) or the topology has fewer than three
   * groups (between two groups the intermediate is a router of one of the two end groups), at the intermediate
   * itself. The router fabric applies this rule on every arrival and clears the packet's intermediate once it holds.
   *
   * @param router where the packet is
   * @param intermediate its intermediate router, ≥ 0
   * @param destinationRouter the destination's router
   * @return whether the intermediate leg is over
   */
  public boolean reached(int router, int intermediate, int destinationRouter) {
    int gi = topology.groupOfRouter(intermediate);
    if (gi == topology.groupOfRouter(destinationRouter) || topology.groupCount() < 3) {
      return router == intermediate;
    }
    return topology.groupOfRouter(router) == gi;
  }

  /**
   * The minimal next ports of a route through an intermediate: toward the intermediate (hashed with {@link
   * #intermediateLegHash}) until it is {@link #reached}, then toward the destination (hashed with {@code hash}).
   *
   * @param router where the packet is, not the destination's router
   * @param intermediate the packet's intermediate, or -1 for none
   * @param destinationRouter the destination's router
   * @param hash the packet's or flow's hash
   * @param out receives ports; room for {@link Topology#maxMinimalPorts()}
   * @return how many ports were written, ≥ 1
   */
  public int pathPorts(int router, int intermediate, int destinationRouter, int hash, int[] out) {
    int target = intermediate >= 0 && !reached(router, intermediate, destinationRouter)
        ? intermediate : destinationRouter;
    return topology.minimalPorts(router, target, target == destinationRouter ? hash : intermediateLegHash(hash), out);
  }

  /**
   * Router hops of the route through an intermediate, each leg minimal, as UGAL's hop count of the non-minimal path
   * estimates them (Kim et al., ISCA 2008): the sum of two {@link Topology#minimalHops}, each the fewest, and the first
   * counted to the intermediate router itself, while a packet between groups has {@link #reached} it on entering its
   * group. So it is not the length of the route {@link #pathPorts} leads a packet on: on {@code theta} it averages
   * 2.00 times the minimal estimate where the routes taken average about 1.6 times the minimal routes taken
   * (docs/network.md, "What minimal means").
   *
   * @param router where the packet is
   * @param intermediate the intermediate router
   * @param destinationRouter the destination's router
   * @return minimal hops to the intermediate plus minimal hops from it to the destination
   */
  public int hopsVia(int router, int intermediate, int destinationRouter) {
    return topology.minimalHops(router, intermediate) + topology.minimalHops(intermediate, destinationRouter);
  }

  /**
   * The most router hops a route takes on this topology, with L = {@link Topology#maxLocalHops()} local hops per
   * group at most: a minimal route takes at most L (one group) or 2L + 1 (local, global, local); a route through an
   * intermediate at most 2L inside one group, 3L + 2 between groups (a third group's L local hops and a second
   * global hop added), or 3L + 1 between the two groups of a two-group system (L more local hops in one end group). A routing that puts a packet on VC = hops taken needs this many virtual channels.
   *
   * @param nonMinimal whether routes may go through an intermediate
   * @return the bound, ≥ 1
   */
  public int maxRouteHops(boolean nonMinimal) {
    int local = topology.maxLocalHops();
    int groups = topology.groupCount();
    int hops = groups > 1 ? 2 * local + 1 : local;
    if (nonMinimal) {
      if (topology.routersPerGroup() >= 3) {
        hops = Math.max(hops, 2 * local);
      }
      if (groups >= 3) {
        hops = Math.max(hops, 3 * local + 2);
      } else if (groups == 2 && topology.routersPerGroup() >= 2) {
        hops = Math.max(hops, 3 * local + 1);
      }
    }
    return Math.max(1, hops);
  }
}
