package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.network.Dragonfly;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Node pairs at each distance of a dragonfly, for latency-by-distance studies.
 *
 * <p>Aries (aries-facts §1): {@code same-router} (two NICs of one Aries: the 4 nodes of a blade), {@code rank-1}
 * (another blade of the same chassis, over the backplane), {@code rank-2} (the same slot in another chassis of the
 * group, over copper), {@code rank-3} (another group, over optical links; the minimal route may add local hops at
 * either end). Canonical dragonfly: {@code same-router}, {@code local} (another router of the group), {@code global}
 * (another group). Distances a system lacks (one group has no rank-3) are left out.
 */
public final class Distances {

  private Distances() {}

  /**
   * The pairs a topology has.
   *
   * @param t the topology
   * @return distance name → {first node, second node}, nearest first
   */
  public static Map<String, int[]> pairs(Dragonfly t) {
    Map<String, int[]> m = new LinkedHashMap<>();
    int p = t.nodesPerRouter();
    if (p >= 2) {
      m.put("same-router", new int[] {0, 1});
    }
    if (t.isAries()) {
      if (t.columns() >= 2) {
        m.put("rank-1", new int[] {0, p});
      }
      if (t.rows() >= 2) {
        m.put("rank-2", new int[] {0, t.columns() * p});
      }
      if (t.groupCount() >= 2) {
        m.put("rank-3", new int[] {0, t.routersPerGroup() * p});
      }
    } else {
      if (t.routersPerGroup() >= 2) {
        m.put("local", new int[] {0, p});
      }
      if (t.groupCount() >= 2) {
        m.put("global", new int[] {0, t.routersPerGroup() * p});
      }
    }
    return m;
  }

  /** @param t the topology @return the distance names it has, nearest first */
  public static List<String> names(Dragonfly t) {
    return new ArrayList<>(pairs(t).keySet());
  }

  /**
   * {@code count} nodes spread evenly over the system (every group, every row when possible).
   *
   * @param t the topology
   * @param count 1 to nodeCount
   * @return distinct node ids, ascending
   */
  public static int[] spread(Dragonfly t, int count) {
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
