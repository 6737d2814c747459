package io.github.ariesmodel.system;

import io.github.ariesmodel.network.CabledDragonfly;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.network.spi.Topology;
import java.util.Locale;

/**
 * Built-in Aries systems, by name. Each is a dragonfly of Aries groups (6 chassis × 16 blades = 96 routers, 4 nodes
 * per router: aries-facts §1, S10/S11/S12), sized as the named installation. All but one are generated
 * ({@link Topologies#aries(int)}: global links spread evenly over the group pairs, an assumed arrangement);
 * {@link #EDISON_CABLED} is Edison as its link list says it was cabled ({@link CabledDragonfly#edison()}).
 */
public enum SystemPreset {
  /** One group (two cabinets), the smallest complete Aries group; the default of {@code run}. */
  DEFAULT("default", 1, "one full Aries group (2 cabinets, 96 routers, 384 nodes)"),
  /** Two groups: the smallest system with rank-3 (optical) traffic; the default job's system. */
  TWO_GROUPS("two-groups", 2, "two Aries groups joined by rank-3 optical links"),
  /** Theta (ALCF): 9 groups, 3,456 nodes (S11). */
  THETA("theta", 9, "ALCF Theta: 9 groups, 3,456 nodes (CODES dragonfly-custom, S11)"),
  /** Edison (NERSC): 15 groups, 5,760 nodes (S11). */
  EDISON("edison", 15, "NERSC Edison: 15 groups, 5,760 nodes (CODES dragonfly-custom, S11)"),
  /**
   * Edison as cabled: the same 15 groups and 5,760 nodes with the machine's real link list (24 optical links per
   * group pair; docs/network.md), read once per process from the resource shipped in aries-network.
   */
  EDISON_CABLED("edison-cabled", 15, "NERSC Edison as cabled: its link list, 24 optical links per group pair"),
  /** The largest Aries system: 241 groups, 92,544 nodes (derived, aries-facts §1). */
  FULL("full", 241, "the largest Aries system: 241 groups, 92,544 nodes (derived maximum)");

  /** Routers per group: 6 chassis × 16 blades. */
  public static final int ROUTERS_PER_GROUP = 96;
  /** Nodes per router (4 NICs per Aries). */
  public static final int NODES_PER_ROUTER = 4;

  private final String id;
  private final int groups;
  private final String description;

  SystemPreset(String id, int groups, String description) {
    this.id = id;
    this.groups = groups;
    this.description = description;
  }

  /**
   * The preset's topology: generated for every preset but {@link #EDISON_CABLED}, whose link list is read on first
   * use and shared afterwards (a {@link CabledDragonfly} is immutable).
   *
   * @return the topology ({@link #groups()} groups of {@link #ROUTERS_PER_GROUP} routers, {@link #NODES_PER_ROUTER}
   *     nodes each)
   */
  public Topology topology() {
    return this == EDISON_CABLED ? EdisonCabling.TOPOLOGY : Topologies.aries(groups);
  }

  /** @return whether the topology comes from a real machine's link list rather than from an assumed arrangement */
  public boolean cabled() {
    return this == EDISON_CABLED;
  }

  /** Holds Edison's link list, read when a system first asks for it (the class is loaded then). */
  private static final class EdisonCabling {
    static final CabledDragonfly TOPOLOGY = CabledDragonfly.edison();
  }

  /** @return the name used on the command line */
  public String id() {
    return id;
  }

  /** @return number of groups */
  public int groups() {
    return groups;
  }

  /** @return one line describing the system */
  public String description() {
    return description;
  }

  /** @return routers in the system */
  public int routers() {
    return groups * ROUTERS_PER_GROUP;
  }

  /** @return nodes in the system */
  public int nodes() {
    return routers() * NODES_PER_ROUTER;
  }

  /**
   * The preset with a command-line name.
   *
   * @param name e.g. {@code theta}
   * @return the preset
   * @throws IllegalArgumentException listing the names when none matches
   */
  public static SystemPreset byId(String name) {
    String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    for (SystemPreset p : values()) {
      if (p.id.equals(n)) {
        return p;
      }
    }
    StringBuilder names = new StringBuilder();
    for (SystemPreset p : values()) {
      names.append(names.length() == 0 ? "" : ", ").append(p.id);
    }
    throw new IllegalArgumentException("system must be one of " + names + " but was \"" + name + "\"");
  }
}
