package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.network.spi.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Node pairs at each distance of a dragonfly, for latency-by-distance studies, found on the topology's cables through
 * the {@link Topology} port, so generated systems and real cabling ({@code edison-cabled}, {@code links:FILE}: groups
 * renumbered densely, ports left unused) get the same treatment.
 *
 * <p>The distances are named by the topology's link classes. Aries (aries-facts §1): {@code same-router} (two NICs of
 * one Aries: the 4 nodes of a blade), {@code rank-1} (another blade of the same chassis, over the backplane),
 * {@code rank-2} (another chassis of the group, over copper), {@code rank-3} (another group, over optical links; the
 * minimal route may add local hops at either end). Canonical dragonfly: {@code same-router}, {@code local} (another
 * router of the group), {@code global} (another group). Distances a system lacks (one group has no rank-3) are left
 * out.
 *
 * <p>The pairs: {@code same-router} is nodes 0 and 1. For each link class whose cables stay inside a group, the first
 * router of group 0 (by id) with a cable of the class, and the lowest-numbered router that cable class reaches from
 * it: one hop over that class (on a generated Aries system, node 0 and the next blade of its chassis for rank-1, node
 * 0 and the same slot of the next chassis for rank-2). For each class whose cables join groups, node 0 and the first
 * node of group 1.
 */
public final class Distances {

  private Distances() {}

  /**
   * The pairs a topology has.
   *
   * @param t the topology
   * @return distance name → {first node, second node}, nearest first (link classes in their order)
   */
  public static Map<String, int[]> pairs(Topology t) {
    Map<String, int[]> m = new LinkedHashMap<>();
    int p = t.nodesPerRouter();
    if (p >= 2) {
      m.put("same-router", new int[] {0, 1});
    }
    boolean[] local = new boolean[t.linkClassCount()];
    boolean[] global = new boolean[t.linkClassCount()];
    for (int r = 0; r < t.routerCount(); r++) {
      for (int port = 0; port < t.portCount(); port++) {
        int nb = t.neighborRouter(r, port);
        if (nb >= 0) {
          if (t.groupOfRouter(nb) == t.groupOfRouter(r)) {
            local[t.linkClass(r, port)] = true;
          } else {
            global[t.linkClass(r, port)] = true;
          }
        }
      }
    }
    for (int c = 0; c < t.linkClassCount(); c++) {
      if (local[c] && !global[c]) {
        int[] hop = firstHop(t, c);
        if (hop != null) {
          m.put(t.linkClassName(c), new int[] {hop[0] * p, hop[1] * p});
        }
      } else if (global[c] && t.groupCount() >= 2) {
        m.put(t.linkClassName(c), new int[] {0, t.routerInGroup(1, 0) * p});
      }
    }
    return m;
  }

  /** The first router of group 0 with a cable of the class, and the lowest router that class reaches from it. */
  private static int[] firstHop(Topology t, int linkClass) {
    for (int i = 0; i < t.routersPerGroup(); i++) {
      int r = t.routerInGroup(0, i);
      int best = -1;
      for (int port = 0; port < t.portCount(); port++) {
        int nb = t.neighborRouter(r, port);
        if (nb >= 0 && t.linkClass(r, port) == linkClass && (best < 0 || nb < best)) {
          best = nb;
        }
      }
      if (best >= 0) {
        return new int[] {r, best};
      }
    }
    return null;
  }

  /** @param t the topology @return the distance names it has, nearest first */
  public static List<String> names(Topology t) {
    return new ArrayList<>(pairs(t).keySet());
  }

  /**
   * The distances a workload's {@code distances} parameter asks for: every one of {@code pairs} for {@code all}, else
   * the listed ones, each of which must be among them.
   *
   * @param params the workload's parameters
   * @param pairs the system's pairs by distance ({@link #pairs})
   * @param fallback the parameter's default: {@code all} or one distance
   * @return distance names
   */
  static List<String> wanted(Params params, Map<String, int[]> pairs, String fallback) {
    List<String> names = new ArrayList<>(pairs.keySet());
    return params.string("distances", fallback).equals("all") ? names : params.choices("distances", fallback, names);
  }

  /**
   * {@code count} nodes spread evenly over the system (every group, every row when possible).
   *
   * @param t the topology
   * @param count 1 to nodeCount
   * @return distinct node ids, ascending
   */
  public static int[] spread(Topology t, int count) {
    int n = t.nodeCount();
    if (count < 1 || count > n) {
      throw new IllegalArgumentException("count must be in [1, " + n + "] but was " + count);
    }
    int[] out = new int[count];
    for (int i = 0; i < count; i++) {
      out[i] = (int) ((long) i * n / count);
    }
    return out;
  }
}
