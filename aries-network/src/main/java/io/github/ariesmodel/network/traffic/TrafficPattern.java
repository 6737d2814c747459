package io.github.ariesmodel.network.traffic;

import java.util.Locale;

/** Where synthetic packets go. */
public enum TrafficPattern {
  /** Every packet to a node chosen uniformly among the others. */
  UNIFORM,
  /** A fixed random permutation: node n always sends to π(n) (a random derangement of the nodes, seeded). */
  PERMUTATION,
  /** Adversarial group shift: a node of group i sends to a uniformly random node of group i + 1 (mod groups). */
  ADVERSARIAL,
  /** Nearest neighbour: node n sends to node n + 1 (mod nodes), mostly on the same router. */
  NEIGHBOR,
  /** Hotspot: a packet goes to node 0 with probability 1/8, else uniformly (as {@link #UNIFORM}). */
  HOTSPOT,
  /** All-to-all: node n sends to n + 1, n + 2, ... (mod nodes, skipping itself) in turn. */
  ALL_TO_ALL;

  /**
   * Parses a pattern name ({@code uniform}, {@code permutation}, {@code adversarial}, {@code neighbor},
   * {@code hotspot}, {@code all-to-all}; case and '-' / '_' ignored).
   *
   * @param text the name
   * @return the pattern
   * @throws IllegalArgumentException listing the names
   */
  public static TrafficPattern parse(String text) {
    String n = text == null ? "" : text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    if (n.equals("NEAREST_NEIGHBOR") || n.equals("NEIGHBOUR")) {
      n = "NEIGHBOR";
    }
    if (n.equals("RANDOM")) {
      n = "UNIFORM";
    }
    for (TrafficPattern p : values()) {
      if (p.name().equals(n)) {
        return p;
      }
    }
    throw new IllegalArgumentException("pattern must be one of uniform, permutation, adversarial, neighbor, hotspot,"
        + " all-to-all but was \"" + io.github.ariesmodel.core.Texts.abbreviate(text) + "\"");
  }

  /** @return the command-line name */
  public String id() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
