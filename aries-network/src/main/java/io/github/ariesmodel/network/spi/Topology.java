package io.github.ariesmodel.network.spi;

/**
 * A router graph the fabric can simulate (a driven port a user may implement for a topology of their own).
 *
 * <p>Numbering is dense and uniform: routers {@code 0..routerCount()-1}, each with {@link #portCount()} network ports
 * ({@code 0..portCount()-1}) and {@link #nodesPerRouter()} nodes; node {@code n} sits on router
 * {@code n / nodesPerRouter()}; routers are numbered group by group, so router {@code r} is in group
 * {@code r / routersPerGroup()}. A port is one bidirectional link: port {@code p} of router {@code r} reaches port
 * {@link #neighborPort(int, int)} of router {@link #neighborRouter(int, int)}, and that port leads back. Every link
 * belongs to a link class (a rank) that fixes its bandwidth and latency.
 *
 * <p>Besides the graph, a topology answers the one routing question every built-in routing needs: which ports are on
 * a minimal path toward a router ({@link #minimalPorts}). Built-in routings use only this interface, so they run on
 * a user's topology as long as its minimal paths stay within the hop bound the fabric's virtual channels allow.
 *
 * <p>Arguments: a router, port, node, group or link class outside its range is a caller's mistake. The built-in
 * topologies ({@code Dragonfly}, {@code CabledDragonfly}) and the default methods here refuse it with an
 * {@link IllegalArgumentException} naming the parameter, the range and the value, never an index error or a wrong
 * answer; a user's topology should do the same. Routing calls these methods on every packet-hop, so the built-ins'
 * checks are one integer compare per method and build no message unless they fail.
 */
public interface Topology {

  /** @return number of nodes (NICs) */
  int nodeCount();

  /** @return number of routers */
  int routerCount();

  /** @return nodes attached to each router */
  int nodesPerRouter();

  /** @return number of groups */
  int groupCount();

  /** @return routers in each group */
  int routersPerGroup();

  /** @return network ports per router (the radix, without node ports) */
  int portCount();

  /**
   * @param router a router
   * @param port one of its network ports
   * @return the router at the other end, or -1 when the port is not cabled
   */
  int neighborRouter(int router, int port);

  /**
   * @param router a router
   * @param port one of its network ports
   * @return the port number at the other end, or -1 when the port is not cabled
   */
  int neighborPort(int router, int port);

  /**
   * @param router a router
   * @param port one of its network ports
   * @return the link class (rank) of the port, 0 to {@link #linkClassCount()} - 1
   */
  int linkClass(int router, int port);

  /** @return number of link classes */
  int linkClassCount();

  /** @param linkClass a link class @return its name, e.g. {@code rank-1} */
  String linkClassName(int linkClass);

  /**
   * @param linkClass a link class
   * @return its bandwidth per direction, bytes per second, in [{@link
   *     io.github.ariesmodel.network.RouterFabric#MIN_BANDWIDTH}, {@link
   *     io.github.ariesmodel.network.RouterFabric#MAX_BANDWIDTH}] (the fabric refuses a topology with another)
   */
  double linkBandwidth(int linkClass);

  /**
   * @param linkClass a link class
   * @return its wire latency, picoseconds, 0 to 10^9 (1 ms; the fabric refuses a topology with another)
   */
  long linkLatencyPs(int linkClass);

  /**
   * @return bandwidth of a node's injection (and ejection) link, bytes per second, in the range of {@link
   *     #linkBandwidth}
   */
  double injectionBandwidth();

  /**
   * Fills {@code out} with the ports of {@code router} that continue a minimal route toward {@code target}: one
   * within the topology's hop bound, on a dragonfly one global hop between groups and at most {@link #maxLocalHops()}
   * local hops in each group, as Aries' minimal routing takes them. Minimal does not mean shortest: the built-in
   * dragonflies offer every one of a router's own global links to the target's group, however far from the target
   * each lands, so following these ports may take more hops than {@link #minimalHops}. When several global links join
   * two groups the topology uses {@code hash} to pick one (the same hash must lead to the same link at every router
   * of the group, so a route never wanders).
   *
   * @param router current router
   * @param target target router, not {@code router}
   * @param hash a flow or packet hash
   * @param out receives port numbers; not null and with room for {@link #maxMinimalPorts()} (the built-ins do not
   *     check either, as this is called at every packet-hop: a null or short array fails with a {@link
   *     NullPointerException} or an {@link ArrayIndexOutOfBoundsException})
   * @return how many ports were written, ≥ 1
   */
  int minimalPorts(int router, int target, int hash, int[] out);

  /** @return the most ports {@link #minimalPorts} ever writes */
  int maxMinimalPorts();

  /**
   * The fewest hops of a minimal route, an estimate for weighing routes (UGAL's hop counts): a packet that follows
   * {@link #minimalPorts} may take more.
   *
   * @param router from
   * @param target to
   * @return router-to-router hops of the shortest minimal path (0 when equal)
   */
  int minimalHops(int router, int target);

  /** @return the most hops a minimal route takes inside one group (L; a minimal route between groups: 2L + 1) */
  int maxLocalHops();

  /** @return a one-line description */
  String describe();

  /**
   * @param node a node, 0 to {@link #nodeCount()} - 1
   * @return its router
   * @throws IllegalArgumentException when {@code node} is out of range
   */
  default int routerOfNode(int node) {
    int n = nodeCount();
    if (node < 0 || node >= n) {
      throw outOfRange("node", node, n);
    }
    return node / nodesPerRouter();
  }

  /**
   * @param router a router, 0 to {@link #routerCount()} - 1
   * @return its group
   * @throws IllegalArgumentException when {@code router} is out of range
   */
  default int groupOfRouter(int router) {
    int n = routerCount();
    if (router < 0 || router >= n) {
      throw outOfRange("router", router, n);
    }
    return router / routersPerGroup();
  }

  /**
   * @param group a group, 0 to {@link #groupCount()} - 1
   * @param index 0 to routersPerGroup - 1
   * @return the router
   * @throws IllegalArgumentException when {@code group} or {@code index} is out of range
   */
  default int routerInGroup(int group, int index) {
    int per = routersPerGroup();
    int n = groupCount();
    if (group < 0 || group >= n) {
      throw outOfRange("group", group, n);
    }
    if (index < 0 || index >= per) {
      throw outOfRange("index", index, per);
    }
    return group * per + index;
  }

  private static IllegalArgumentException outOfRange(String name, int v, int n) {
    return new IllegalArgumentException(name + " must be in [0, " + (n - 1) + "] but was " + v);
  }
}
