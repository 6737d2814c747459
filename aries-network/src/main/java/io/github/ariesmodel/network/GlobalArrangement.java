package io.github.ariesmodel.network;

/**
 * Which global port of a group carries which inter-group link. Link {@code k} (0 to linksPerPair - 1) between groups
 * G and D joins global slot {@code slot(G, D, k)} of group G to global slot {@code slot(D, G, k)} of group D. A group's
 * global slots are numbered router-major: slot {@code s} is global port {@code s % h} of the group's router
 * {@code s / h}. An arrangement must map each group's (peer, k) pairs to distinct slots; the topology checks it.
 *
 * <p>Built-ins (Camarero, Vallejo, Beivide, "Topological characterization of hamming and dragonfly networks", and
 * the dragonfly literature): {@link #ABSOLUTE} (consecutive) and {@link #RELATIVE} (palm tree). Implement the
 * interface for an explicit map.
 */
@FunctionalInterface
public interface GlobalArrangement {

  /**
   * @param group this group
   * @param peerGroup the other group, ≠ group
   * @param k link index between the two groups
   * @param groups number of groups
   * @param linksPerPair links between every two groups
   * @return the global slot of {@code group} that carries the link, 0 to a·h - 1
   */
  int slot(int group, int peerGroup, int k, int groups, int linksPerPair);

  /** Consecutive: a group's slots go to peer groups in increasing group number. */
  GlobalArrangement ABSOLUTE = (g, d, k, groups, l) -> (d < g ? d : d - 1) * l + k;

  /** Palm tree: a group's slots go to the groups after it, cyclically ({@code g+1, g+2, ...}). */
  GlobalArrangement RELATIVE = (g, d, k, groups, l) -> Math.floorMod(d - g - 1, groups) * l + k;

  /**
   * Interleaved: link {@code k} to every peer group comes before link {@code k + 1} to any, so the links between two
   * groups are spread over the whole group instead of sitting on a block of consecutive routers (with one link per
   * group pair it equals {@link #ABSOLUTE}).
   */
  GlobalArrangement INTERLEAVED = (g, d, k, groups, l) -> k * (groups - 1) + (d < g ? d : d - 1);

  /**
   * A built-in arrangement by name.
   *
   * @param name {@code absolute} (or {@code consecutive}), {@code relative} (or {@code palmtree}) or
   *     {@code interleaved}
   * @return the arrangement
   * @throws IllegalArgumentException for another name
   */
  static GlobalArrangement byName(String name) {
    switch (name == null ? "" : name.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "absolute":
      case "consecutive":
        return ABSOLUTE;
      case "relative":
      case "palmtree":
      case "palm-tree":
        return RELATIVE;
      case "interleaved":
        return INTERLEAVED;
      default:
        throw new IllegalArgumentException("arrangement must be one of absolute, consecutive, relative, palmtree,"
            + " interleaved but was \"" + io.github.ariesmodel.core.Texts.abbreviate(name) + "\"");
    }
  }
}
