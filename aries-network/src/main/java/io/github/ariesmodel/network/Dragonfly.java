package io.github.ariesmodel.network;

import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.network.spi.Topology;

/**
 * A dragonfly of groups of routers, in the two shapes the project models.
 *
 * <p><b>Aries</b> ({@link #aries(int)}; aries-facts §1): a group is {@code rows × columns} routers (6 chassis × 16
 * blades [S10][S11]); rank-1 links join every two routers of a row (one link, 15 per router) [S10]; rank-2 links join
 * every two routers of a column ({@code rank2Links} = 3 parallel links per pair, 15 per router) [S10][S11]; each
 * router has {@code h} = 10 rank-3 optical ports to other groups [S10][S11]; 4 nodes per router [S10][S12]; 1 to 241
 * groups [S3]. Rates 5.25 GB/s electrical, 4.7 GB/s optical per direction [S3 via S1]. Injection: the NIC peak is
 * 10.2 GB/s of <em>payload</em> (64 B per 5 cycles at 800 MHz [S2 via S1]); the fabric charges its injection and
 * ejection links on wire bytes, so the Aries injection link runs at {@link #ARIES_INJECTION_WIRE_RATE} =
 * 10.2 GB/s × 84 / 64 (derived: a full 64-byte PUT request is 84 wire bytes), which carries exactly one full PUT
 * packet per 5 NIC cycles. The processor tiles are not modelled one by one. Wire latencies are <em>assumed</em> (rank-1 backplane 5 ns, rank-2 copper 10 ns, rank-3
 * optical 100 ns) so that with the fabric's 90 ns pipeline a quiet hop costs about 100 ns [S3 via S1].
 *
 * <p><b>Canonical</b> ({@link #canonical(int, int, int)}; Kim, Dally, Scott, Abts, ISCA 2008): {@code p} nodes per
 * router, {@code a} routers per group joined all-to-all (one row of {@code a} columns), {@code h} global ports per
 * router, {@code g ≤ a·h + 1} groups, every link at the injection rate.
 *
 * <p>Port numbering of a router at (row, column): ports {@code 0 .. columns-2} are rank-1 links to the other
 * columns in increasing order; then {@code (rows-1) × rank2Links} rank-2 ports, {@code rank2Links} per other row in
 * increasing order; then {@code h} global ports. Routers are numbered {@code group × rows × columns + row × columns +
 * column}; node {@code n} is on router {@code n / nodesPerRouter}. Global links follow a {@link GlobalArrangement};
 * when {@code a·h} is not a multiple of {@code g - 1}, or fewer links per pair are asked for, the leftover global
 * ports stay uncabled.
 *
 * <p><b>Minimal</b> means here what it means in Aries' minimal routing: one global hop between two groups and at most
 * {@link #maxLocalHops()} local hops in each group (on Aries at most 5 router hops, aries-facts §2 [S11]); it does not
 * mean shortest. {@link #minimalPorts} toward another group: by default a router with links to that group returns all
 * of its own, however far from the target each lands, and a router without one goes toward the exit router of the
 * group pair's link the hash picks, not the nearest; with {@link Builder#anyExitLink(boolean)} every router hashes
 * over all of the group pair's links (the route bound is the same). {@link #minimalHops} is the fewest hops of these
 * paths, not those of the route a packet takes: on {@code theta} the routes that follow {@link #minimalPorts} are
 * longer than it for about 40 % of the router pairs in different groups (docs/network.md, "What minimal means").
 *
 * <p>Link state is kept in one {@code int[]} over all ports, so the full 241-group Aries system (23,136 routers,
 * 925,440 ports) builds in a few megabytes.
 */
public final class Dragonfly implements Topology {
  /**
   * Wire rate of an Aries node's injection (and ejection) link, bytes per second: the NIC's 10.2 GB/s payload peak
   * [S2 via S1] scaled by a full PUT packet's wire bytes over its payload (84 / 64; derived), 13.39 GB/s: about one
   * 64-byte PUT packet per 5 cycles at 800 MHz. Exactly that would be 84 B per 6.25 ns, 13.44 GB/s; the link is
   * derived from the published, rounded 10.2 GB/s, so on the router fabric it, not the NIC's 10.24 GB/s issue rate
   * ({@code NicTiming.peakBytesPerSecond}), is the tighter bound, by 0.4 % (kept: changing it moves every
   * bandwidth figure by that much).
   */
  public static final double ARIES_INJECTION_WIRE_RATE = 10.2e9 * 84 / 64;


  /** Largest group count of an Aries system (aries-facts §1, S3). */
  public static final int ARIES_MAX_GROUPS = 241;

  private final int nodesPerRouter;
  private final int rows;
  private final int columns;
  private final int rank2Links;
  private final int globalPorts;
  private final int groups;
  private final int linksPerPair;
  private final boolean aries;
  private final double[] bandwidth; // per class: rank-1, rank-2, global
  private final long[] latencyPs;
  private final double injectionBandwidth;
  private final GlobalArrangement arrangement;
  private final String arrangementName;
  private final boolean anyExitLink;

  private final int routersPerGroup;
  /** Routers and nodes of the whole system, the bounds of the query methods' arguments. */
  private final int routers;
  private final int nodes;
  private final int radix;
  private final int rank2Base;
  private final int globalBase;
  private final int[] peer; // global port index router*radix+port of the other end, or -1
  // What routing needs on every hop without an integer division by a variable (tens of cycles each): a router's
  // group and a node's router by multiply and shift, a router's row and column from a table of 4 bytes a router.
  private final Divider byRoutersPerGroup;
  private final Divider byNodesPerRouter;
  /** A global slot's router within its group (slots are numbered router by router, {@code globalPorts} each). */
  private final Divider byGlobalPorts;
  /** A global port number's router ({@link #peer} holds {@code router × radix + port}). */
  private final Divider byRadix;
  /** Per router: its row in the group above bit 16, its column below. */
  private final int[] rowColumn;
  /** Ports of one group: routersPerGroup × radix (a global port index's group is the index divided by it). */
  private final int portsPerGroup;

  private Dragonfly(Builder b) {
    checkRange("nodesPerRouter", b.nodesPerRouter, 1, 64);
    checkRange("rows", b.rows, 1, 64);
    checkRange("columns", b.columns, 1, 128);
    checkRange("rank2Links", b.rank2Links, 1, 16);
    checkRange("globalPorts", b.globalPorts, 0, 64);
    int perGroup = b.rows * b.columns;
    if (perGroup < 1 || perGroup > 1024) {
      throw new IllegalArgumentException("rows × columns must be in [1, 1024] but was " + perGroup);
    }
    int slots = perGroup * b.globalPorts;
    int maxGroups = slots + 1;
    if (b.aries) {
      maxGroups = Math.min(maxGroups, ARIES_MAX_GROUPS);
    }
    if (b.groups < 1 || b.groups > maxGroups) {
      throw new IllegalArgumentException("groups must be in [1, " + maxGroups + "] (a·h + 1 = " + (slots + 1)
          + (b.aries ? ", Aries at most 241" : "") + ") but was " + b.groups);
    }
    long nodes = (long) b.groups * perGroup * b.nodesPerRouter;
    if (nodes > (1 << 18)) {
      throw new IllegalArgumentException("nodes (groups × routers × nodesPerRouter) must be at most 262144 (18-bit"
          + " node ids) but was " + nodes);
    }
    int maxLinks = b.groups > 1 ? slots / (b.groups - 1) : 0;
    int lpp = b.linksPerPairSet ? b.linksPerPair : maxLinks;
    if (b.linksPerPairSet && b.groups == 1) {
      throw new IllegalArgumentException("linksPerPair must not be set for a system of 1 group, which has no group"
          + " pairs, but was " + b.linksPerPair);
    }
    if (b.groups > 1 && (lpp < 1 || lpp > maxLinks)) {
      throw new IllegalArgumentException("linksPerPair must be in [1, " + maxLinks + "] (a·h / (g-1)) but was " + lpp);
    }
    for (int c = 0; c < 3; c++) {
      // (rates are checked by their setters, against RouterFabric.MIN_BANDWIDTH and MAX_BANDWIDTH)
      if (b.latencyPs[c] < 0 || b.latencyPs[c] > SimTime.MAX_LATENCY_PS) {
        // at most SimTime.MAX_LATENCY_PS (1 ms): beyond it a unit mistake, and sums overflow
        throw new IllegalArgumentException("link latency (class " + c + ") must be in [0, 1e9] ps but was "
            + b.latencyPs[c]);
      }
    }
    if (b.arrangement == null) {
      throw new IllegalArgumentException("arrangement must not be null");
    }
    this.nodesPerRouter = b.nodesPerRouter;
    this.rows = b.rows;
    this.columns = b.columns;
    this.rank2Links = b.rank2Links;
    this.globalPorts = b.globalPorts;
    this.groups = b.groups;
    this.linksPerPair = b.groups > 1 ? lpp : 0;
    this.aries = b.aries;
    this.bandwidth = b.bandwidth.clone();
    this.latencyPs = b.latencyPs.clone();
    this.injectionBandwidth = b.injectionBandwidth;
    this.arrangement = b.arrangement;
    this.arrangementName = b.arrangementName;
    this.anyExitLink = b.anyExitLink;
    this.routersPerGroup = perGroup;
    this.rank2Base = columns - 1;
    this.globalBase = rank2Base + (rows - 1) * rank2Links;
    this.radix = globalBase + globalPorts;
    this.peer = new int[groups * perGroup * radix];
    java.util.Arrays.fill(peer, -1);
    this.portsPerGroup = perGroup * radix;
    this.routers = groups * perGroup;
    this.nodes = routers * nodesPerRouter;
    this.byRoutersPerGroup = new Divider(perGroup, routers - 1);
    this.byNodesPerRouter = new Divider(nodesPerRouter, routers * nodesPerRouter - 1);
    this.byGlobalPorts = new Divider(Math.max(1, globalPorts), Math.max(0, perGroup * globalPorts - 1));
    this.byRadix = new Divider(Math.max(1, radix), Math.max(0, routers * radix - 1));
    this.rowColumn = new int[routers];
    for (int r = 0; r < routers; r++) {
      int i = r % perGroup;
      rowColumn[r] = (i / columns) << 16 | (i % columns);
    }
    wireLocal();
    wireGlobal();
  }

  private void wireLocal() {
    for (int g = 0; g < groups; g++) {
      for (int i = 0; i < routersPerGroup; i++) {
        int r = g * routersPerGroup + i;
        int row = i / columns;
        int col = i % columns;
        for (int c = 0; c < columns; c++) {
          if (c != col) {
            int other = g * routersPerGroup + row * columns + c;
            peer[r * radix + rank1Port(col, c)] = other * radix + rank1Port(c, col);
          }
        }
        for (int w = 0; w < rows; w++) {
          if (w != row) {
            int other = g * routersPerGroup + w * columns + col;
            for (int m = 0; m < rank2Links; m++) {
              peer[r * radix + rank2Port(row, w, m)] = other * radix + rank2Port(w, row, m);
            }
          }
        }
      }
    }
  }

  private void wireGlobal() {
    int slots = routersPerGroup * globalPorts;
    for (int g = 0; g < groups; g++) {
      for (int d = g + 1; d < groups; d++) {
        for (int k = 0; k < linksPerPair; k++) {
          int sg = arrangement.slot(g, d, k, groups, linksPerPair);
          int sd = arrangement.slot(d, g, k, groups, linksPerPair);
          if (sg < 0 || sg >= slots || sd < 0 || sd >= slots) {
            throw new IllegalArgumentException("arrangement slot must be in [0, " + (slots - 1) + "] but was "
                + (sg < 0 || sg >= slots ? sg : sd) + " for groups " + g + "-" + d + " link " + k);
          }
          int pg = globalSlotPort(g, sg);
          int pd = globalSlotPort(d, sd);
          if (peer[pg] != -1 || peer[pd] != -1) {
            throw new IllegalArgumentException("arrangement must give distinct slots but slot " + sg + " of group " + g
                + " or slot " + sd + " of group " + d + " was used twice");
          }
          peer[pg] = pd;
          peer[pd] = pg;
        }
      }
    }
  }

  private int globalSlotPort(int group, int slot) {
    int index = byGlobalPorts.divide(slot);
    int router = group * routersPerGroup + index;
    return router * radix + globalBase + slot - index * globalPorts;
  }

  /** @return which of the links between two groups a hash picks, in [0, linksPerPair) (no division for one link) */
  private int linkOfHash(int hash) {
    return linksPerPair == 1 ? 0 : Math.floorMod(hash, linksPerPair);
  }

  private static int rank1Port(int fromCol, int toCol) {
    return toCol < fromCol ? toCol : toCol - 1;
  }

  private int rank2Port(int fromRow, int toRow, int m) {
    return rank2Base + (toRow < fromRow ? toRow : toRow - 1) * rank2Links + m;
  }

  // ---- factories ----

  /**
   * A builder for an Aries system of {@code groups} full groups (6 × 16 routers, 3 rank-2 links per pair, 10
   * optical ports per router, 4 nodes per router), to adjust before {@link Builder#build()}.
   *
   * @param groups 1 to 241
   * @return the builder
   */
  public static Builder ariesBuilder(int groups) {
    Builder b = new Builder(true);
    b.groups = groups;
    return b;
  }

  /**
   * A full-size Aries system.
   *
   * @param groups 1 to 241 (Theta 9, Edison 15 [S11])
   * @return the topology
   * @throws IllegalArgumentException when groups is outside [1, 241]
   */
  public static Dragonfly aries(int groups) {
    return ariesBuilder(groups).build();
  }

  /**
   * A builder for the canonical dragonfly of Kim et al., with the maximum {@code a·h + 1} groups unless changed.
   *
   * @param p nodes per router
   * @param a routers per group
   * @param h global ports per router
   * @return the builder
   */
  public static Builder canonicalBuilder(int p, int a, int h) {
    Builder b = new Builder(false);
    b.nodesPerRouter = p;
    b.rows = 1;
    b.columns = a;
    b.globalPorts = h;
    b.groups = a * h + 1;
    return b;
  }

  /**
   * The canonical dragonfly with {@code a·h + 1} groups.
   *
   * @param p nodes per router, ≥ 1
   * @param a routers per group, ≥ 1
   * @param h global ports per router, ≥ 0
   * @return the topology
   */
  public static Dragonfly canonical(int p, int a, int h) {
    return canonicalBuilder(p, a, h).build();
  }

  /** Settings of a {@link Dragonfly}; every setter returns the builder. */
  public static final class Builder {
    private final boolean aries;
    private int nodesPerRouter = 4;
    private int rows = 6;
    private int columns = 16;
    private int rank2Links = 3;
    private int globalPorts = 10;
    private int groups = 1;
    private int linksPerPair;
    private boolean linksPerPairSet;
    private final double[] bandwidth;
    private final long[] latencyPs;
    private double injectionBandwidth;
    private GlobalArrangement arrangement = GlobalArrangement.ABSOLUTE;
    private String arrangementName = "absolute";
    private boolean anyExitLink;

    private Builder(boolean aries) {
      this.aries = aries;
      if (aries) {
        bandwidth = new double[] {5.25e9, 5.25e9, 4.7e9};
        latencyPs = new long[] {5_000, 10_000, 100_000};
        injectionBandwidth = ARIES_INJECTION_WIRE_RATE;
      } else {
        bandwidth = new double[] {5.25e9, 5.25e9, 5.25e9};
        latencyPs = new long[] {10_000, 10_000, 100_000};
        injectionBandwidth = 5.25e9;
      }
    }

    /** @param n nodes per router, 1 to 64 @return this */
    public Builder nodesPerRouter(int n) {
      this.nodesPerRouter = n;
      return this;
    }

    /**
     * @param n rows per group (Aries chassis), 1 to 64; an Aries setting (a canonical dragonfly is one row of
     *     {@code a} routers, all joined)
     * @return this
     */
    public Builder rows(int n) {
      ariesOnly("rows", n);
      this.rows = n;
      return this;
    }

    /** A setting of the Aries layout on a canonical builder would change the topology behind its description. */
    private void ariesOnly(String setting, int n) {
      if (!aries) {
        throw new IllegalArgumentException(setting + " is a setting of the Aries layout; a canonical dragonfly has"
            + " one row of a routers, all joined (set a with canonicalBuilder or columns) but was given " + setting
            + " " + n);
      }
    }

    /** @param n columns per group (Aries blades per chassis; canonical a), 1 to 128 @return this */
    public Builder columns(int n) {
      this.columns = n;
      return this;
    }

    /** @param n parallel rank-2 links per pair of routers in a column, 1 to 16; an Aries setting @return this */
    public Builder rank2Links(int n) {
      ariesOnly("rank2Links", n);
      this.rank2Links = n;
      return this;
    }

    /** @param n global ports per router (h), 0 to 64 @return this */
    public Builder globalPorts(int n) {
      this.globalPorts = n;
      return this;
    }

    /** @param n number of groups @return this */
    public Builder groups(int n) {
      this.groups = n;
      return this;
    }

    /**
     * @param n links between every two groups, 1 to a·h / (g − 1) (default: as many as the global ports allow); not
     *     to be set for one group, which has no pairs ({@link #build()} refuses either)
     * @return this
     */
    public Builder linksPerPair(int n) {
      this.linksPerPair = n;
      this.linksPerPairSet = true;
      return this;
    }

    /**
     * Link rates, each in [{@link RouterFabric#MIN_BANDWIDTH}, {@link RouterFabric#MAX_BANDWIDTH}] = [84,000,
     * 10^12] bytes/s: from the slowest at which the largest packet still serializes within the 1 ms bound on
     * latencies to the fastest the picosecond clock times to within a byte (derived; see those constants).
     *
     * @param rank1 rank-1 (canonical: local) link bandwidth, bytes/s
     * @param rank2 rank-2 link bandwidth, bytes/s
     * @param global global link bandwidth, bytes/s
     * @return this
     * @throws IllegalArgumentException naming the first rate outside the range (NaN and infinities are), leaving the
     *     builder unchanged
     */
    public Builder bandwidth(double rank1, double rank2, double global) {
      RouterFabric.checkBandwidth("rank1", rank1);
      RouterFabric.checkBandwidth("rank2", rank2);
      RouterFabric.checkBandwidth("global", global);
      bandwidth[0] = rank1;
      bandwidth[1] = rank2;
      bandwidth[2] = global;
      return this;
    }

    /**
     * @param rank1 rank-1 (canonical: local) wire latency, ps
     * @param rank2 rank-2 wire latency, ps
     * @param global global wire latency, ps
     * @return this
     */
    public Builder latencyPs(long rank1, long rank2, long global) {
      latencyPs[0] = rank1;
      latencyPs[1] = rank2;
      latencyPs[2] = global;
      return this;
    }

    /**
     * @param bytesPerSecond node injection/ejection bandwidth, in [{@link RouterFabric#MIN_BANDWIDTH}, {@link
     *     RouterFabric#MAX_BANDWIDTH}] = [84,000, 10^12] bytes/s (see {@link #bandwidth})
     * @return this
     * @throws IllegalArgumentException when the rate is outside the range, leaving the builder unchanged
     */
    public Builder injectionBandwidth(double bytesPerSecond) {
      RouterFabric.checkBandwidth("injectionBandwidth", bytesPerSecond);
      this.injectionBandwidth = bytesPerSecond;
      return this;
    }

    /**
     * Sets every link and the injection link to one rate (the canonical dragonfly's assumption).
     *
     * @param bytesPerSecond the rate, in [{@link RouterFabric#MIN_BANDWIDTH}, {@link RouterFabric#MAX_BANDWIDTH}] =
     *     [84,000, 10^12] bytes/s (see {@link #bandwidth})
     * @return this
     * @throws IllegalArgumentException when the rate is outside the range, leaving the builder unchanged
     */
    public Builder uniformBandwidth(double bytesPerSecond) {
      RouterFabric.checkBandwidth("uniformBandwidth", bytesPerSecond);
      java.util.Arrays.fill(bandwidth, bytesPerSecond);
      injectionBandwidth = bytesPerSecond;
      return this;
    }

    /**
     * @param arrangement global link arrangement
     * @param name its name for {@link #describe()}
     * @return this
     */
    public Builder arrangement(GlobalArrangement arrangement, String name) {
      if (arrangement == null) {
        throw new IllegalArgumentException("arrangement must not be null");
      }
      if (name == null) {
        throw new IllegalArgumentException("name must not be null");
      }
      this.arrangement = arrangement;
      this.arrangementName = name;
      return this;
    }

    /**
     * How a packet bound for another group picks its global link ({@link #minimalPorts}). {@code false} (the
     * default): a router with links to the target group uses one of its own (any of them: each is one global hop, but
     * they may land up to {@link #maxLocalHops()} local hops apart from the target), and only a router without one
     * hashes over the group pair's links. {@code true}: every router hashes over all the group pair's links, own
     * ones included, and reaches the chosen link's router over at most {@link #maxLocalHops()} local hops. The route
     * bound (and so deadlock freedom with VC = hops) is unchanged, since a router without its own link already took
     * those local hops. With many links per group pair spread over the group (the {@code interleaved} arrangement)
     * the own-link rule funnels traffic: under Valiant a router with two links from group <em>i</em> and one to group
     * <em>i+1</em> forwards both into the one, and a source router with one link to a group puts all its traffic for
     * that group on it; {@code true} spreads it at the cost of up to two more local hops per group.
     *
     * @param any whether to hash over all of a group pair's links
     * @return this
     */
    public Builder anyExitLink(boolean any) {
      this.anyExitLink = any;
      return this;
    }

    /** @return the topology @throws IllegalArgumentException naming the first bad setting */
    public Dragonfly build() {
      return new Dragonfly(this);
    }
  }

  // ---- Topology ----

  @Override
  public int nodeCount() {
    return nodes;
  }

  @Override
  public int routerCount() {
    return routers;
  }

  @Override
  public int nodesPerRouter() {
    return nodesPerRouter;
  }

  @Override
  public int groupCount() {
    return groups;
  }

  // The query methods below check their arguments with one compare (Args.outside) and build no message unless
  // it fails; routing calls several of them on every packet-hop, and the methods that call each other use the
  // private, unchecked forms.

  /** @throws IllegalArgumentException when {@code node} is outside [0, nodeCount) */
  @Override
  public int routerOfNode(int node) {
    if (Args.outside(node, nodes) < 0) {
      throw Args.outOfRange("node", node, nodes);
    }
    return byNodesPerRouter.divide(node);
  }

  /** @throws IllegalArgumentException when {@code router} is outside [0, routerCount) */
  @Override
  public int groupOfRouter(int router) {
    if (Args.outside(router, routers) < 0) {
      throw Args.outOfRange("router", router, routers);
    }
    return byRoutersPerGroup.divide(router);
  }

  /** @throws IllegalArgumentException when {@code group} or {@code index} is out of range */
  @Override
  public int routerInGroup(int group, int index) {
    if ((Args.outside(group, groups) | Args.outside(index, routersPerGroup)) < 0) {
      throw Args.outOfRange("group", group, groups, "index", index, routersPerGroup);
    }
    return group * routersPerGroup + index;
  }

  @Override
  public int routersPerGroup() {
    return routersPerGroup;
  }

  @Override
  public int portCount() {
    return radix;
  }

  /** @throws IllegalArgumentException when {@code router} or {@code port} is out of range */
  @Override
  public int neighborRouter(int router, int port) {
    checkPort(router, port);
    int q = peer[router * radix + port];
    return q < 0 ? -1 : byRadix.divide(q);
  }

  /** @throws IllegalArgumentException when {@code router} or {@code port} is out of range */
  @Override
  public int neighborPort(int router, int port) {
    checkPort(router, port);
    int q = peer[router * radix + port];
    return q < 0 ? -1 : q % radix;
  }

  /** @throws IllegalArgumentException when {@code router} or {@code port} is out of range */
  @Override
  public int linkClass(int router, int port) {
    checkPort(router, port);
    return port < rank2Base ? 0 : port < globalBase ? 1 : 2;
  }

  private void checkPort(int router, int port) {
    if ((Args.outside(router, routers) | Args.outside(port, radix)) < 0) {
      throw Args.outOfRange("router", router, routers, "port", port, radix);
    }
  }

  private static void checkLinkClass(int linkClass) {
    if (Args.outside(linkClass, 3) < 0) {
      throw Args.outOfRange("linkClass", linkClass, 3);
    }
  }

  @Override
  public int linkClassCount() {
    return 3;
  }

  /** @throws IllegalArgumentException when {@code linkClass} is outside [0, 2] */
  @Override
  public String linkClassName(int linkClass) {
    checkLinkClass(linkClass);
    if (aries) {
      return linkClass == 0 ? "rank-1" : linkClass == 1 ? "rank-2" : "rank-3";
    }
    return linkClass == 0 ? "local" : linkClass == 1 ? "local-2" : "global";
  }

  /** @throws IllegalArgumentException when {@code linkClass} is outside [0, 2] */
  @Override
  public double linkBandwidth(int linkClass) {
    checkLinkClass(linkClass);
    return bandwidth[linkClass];
  }

  /** @throws IllegalArgumentException when {@code linkClass} is outside [0, 2] */
  @Override
  public long linkLatencyPs(int linkClass) {
    checkLinkClass(linkClass);
    return latencyPs[linkClass];
  }

  @Override
  public double injectionBandwidth() {
    return injectionBandwidth;
  }

  @Override
  public int maxMinimalPorts() {
    return Math.max(globalPorts, 1 + rank2Links);
  }

  @Override
  public int maxLocalHops() {
    return (rows > 1 ? 1 : 0) + (columns > 1 ? 1 : 0);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Preconditions, not checked (this is called at every packet-hop, and a check there costs every run): {@code
   * out} is not null and has room for {@link #maxMinimalPorts()} ports; a null array fails with a {@link
   * NullPointerException} and a shorter one with an {@link ArrayIndexOutOfBoundsException}, perhaps only for some
   * routers.
   *
   * @throws IllegalArgumentException when {@code router} or {@code target} is out of range
   */
  @Override
  public int minimalPorts(int router, int target, int hash, int[] out) {
    checkRouters(router, target);
    int gr = byRoutersPerGroup.divide(router);
    int gt = byRoutersPerGroup.divide(target);
    if (gr == gt) {
      return localPorts(router, target, out);
    }
    if (anyExitLink) {
      int slot = arrangement.slot(gr, gt, linkOfHash(hash), groups, linksPerPair);
      int index = byGlobalPorts.divide(slot);
      int exit = gr * routersPerGroup + index;
      if (exit == router) {
        out[0] = globalBase + slot - index * globalPorts;
        return 1;
      }
      return localPorts(router, exit, out);
    }
    int n = 0;
    int base = router * radix + globalBase;
    int lo = gt * portsPerGroup;
    int hi = lo + portsPerGroup;
    for (int k = 0; k < globalPorts; k++) {
      int q = peer[base + k];
      if (q >= lo && q < hi) {
        out[n++] = globalBase + k;
      }
    }
    if (n > 0) {
      return n;
    }
    return localPorts(router, exitRouter(gr, gt, hash), out);
  }

  private int exitRouter(int gr, int gt, int hash) {
    int slot = arrangement.slot(gr, gt, linkOfHash(hash), groups, linksPerPair);
    return gr * routersPerGroup + byGlobalPorts.divide(slot);
  }

  private int localPorts(int router, int target, int[] out) {
    int rc = rowColumn[router];
    int trc = rowColumn[target];
    int row = rc >>> 16;
    int col = rc & 0xFFFF;
    int trow = trc >>> 16;
    int tcol = trc & 0xFFFF;
    int n = 0;
    if (tcol != col) {
      out[n++] = rank1Port(col, tcol);
    }
    if (trow != row) {
      for (int m = 0; m < rank2Links; m++) {
        out[n++] = rank2Port(row, trow, m);
      }
    }
    return n;
  }

  private int localHops(int router, int target) {
    int d = rowColumn[router] ^ rowColumn[target];
    return ((d & 0xFFFF) != 0 ? 1 : 0) + ((d >>> 16) != 0 ? 1 : 0);
  }

  private void checkRouters(int router, int target) {
    if ((Args.outside(router, routers) | Args.outside(target, routers)) < 0) {
      throw Args.outOfRange("router", router, routers, "target", target, routers);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Inside one group the local hops (0 to {@link #maxLocalHops()}: a column, a row). Toward another group, from a router with links to
   * it: one plus the local hops from the nearest landing of those links to the target; from a router without one:
   * the fewest over all the group pair's links of local hops to its exit, one, and local hops from its landing. With
   * {@link Builder#anyExitLink(boolean)} the same count, although the packet then follows the hashed link.
   *
   * @throws IllegalArgumentException when {@code router} or {@code target} is out of range
   */
  @Override
  public int minimalHops(int router, int target) {
    checkRouters(router, target);
    int gr = byRoutersPerGroup.divide(router);
    int gt = byRoutersPerGroup.divide(target);
    if (gr == gt) {
      return localHops(router, target);
    }
    int base = router * radix + globalBase;
    int lo = gt * portsPerGroup;
    int hi = lo + portsPerGroup;
    int best = Integer.MAX_VALUE;
    for (int k = 0; k < globalPorts; k++) {
      int q = peer[base + k];
      if (q >= lo && q < hi) {
        // the nearest landing of all own links, not the first: they may land on different routers of the group
        best = Math.min(best, 1 + localHops(byRadix.divide(q), target));
      }
    }
    if (best != Integer.MAX_VALUE) {
      return best;
    }
    for (int k = 0; k < linksPerPair; k++) {
      int slot = arrangement.slot(gr, gt, k, groups, linksPerPair);
      int exit = gr * routersPerGroup + byGlobalPorts.divide(slot);
      int entry = byRadix.divide(peer[globalSlotPort(gr, slot)]);
      best = Math.min(best, localHops(router, exit) + 1 + localHops(entry, target));
    }
    return best;
  }

  /** @return whether this is an Aries-shaped system (rank names rank-1..3, Aries limits) */
  public boolean isAries() {
    return aries;
  }

  /** @return rows per group */
  public int rows() {
    return rows;
  }

  /** @return columns per group */
  public int columns() {
    return columns;
  }

  /** @return global ports per router (h) */
  public int globalPorts() {
    return globalPorts;
  }

  /** @return whether every router hashes over all of a group pair's links (see {@link Builder#anyExitLink}) */
  public boolean anyExitLink() {
    return anyExitLink;
  }

  /** @return global links between every two groups (0 with one group) */
  public int linksPerPair() {
    return linksPerPair;
  }

  /** @return the first global port number of every router */
  public int firstGlobalPort() {
    return globalBase;
  }

  /**
   * The node at a position, the inverse of the numbering (for placing endpoints at chosen distances).
   *
   * @param group group
   * @param row row in the group
   * @param column column in the row
   * @param index node on the router, 0 to nodesPerRouter - 1
   * @return the node id
   * @throws IllegalArgumentException when a coordinate is out of range
   */
  public int node(int group, int row, int column, int index) {
    checkRange("group", group, 0, groups - 1);
    checkRange("row", row, 0, rows - 1);
    checkRange("column", column, 0, columns - 1);
    checkRange("index", index, 0, nodesPerRouter - 1);
    return ((group * routersPerGroup + row * columns + column) * nodesPerRouter) + index;
  }

  @Override
  public String describe() {
    if (aries) {
      return String.format(java.util.Locale.ROOT,
          "aries dragonfly: %d groups × (%d rows × %d columns) routers, %d nodes/router, %d rank-2 links/pair, "
              + "%d global ports/router, %d links/group pair (%s); %d routers, %d nodes",
          groups, rows, columns, nodesPerRouter, rank2Links, globalPorts, linksPerPair,
          anyExitLink ? arrangementName + ", any exit link" : arrangementName, routerCount(), nodeCount());
    }
    return String.format(java.util.Locale.ROOT,
        "canonical dragonfly p=%d a=%d h=%d g=%d, %d links/group pair (%s); %d routers, %d nodes",
        nodesPerRouter, columns, globalPorts, groups, linksPerPair,
        anyExitLink ? arrangementName + ", any exit link" : arrangementName, routerCount(), nodeCount());
  }

  @Override
  public String toString() {
    return describe();
  }

  private static void checkRange(String name, int v, int lo, int hi) {
    if (v < lo || v > hi) {
      throw new IllegalArgumentException(name + " must be in [" + lo + ", " + hi + "] but was " + v);
    }
  }
}
