package io.github.ariesmodel.network;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.network.spi.Candidates;
import io.github.ariesmodel.network.spi.DragonflyPaths;
import io.github.ariesmodel.network.spi.RouterView;
import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.spi.Topology;
import java.util.SplittableRandom;

/**
 * The built-in routings, one class with a kind, sharing the dragonfly path logic. All put a packet on VC = hops taken
 * (see {@link RouterFabric} for why that is deadlock-free) and keep routes within 2·L + 2 + L router hops for a
 * topology with at most L local hops per group (8 on Aries, 5 on the canonical dragonfly).
 *
 * <ul>
 *   <li>{@code minimal}: minimal; among minimal next ports (Aries: row-first or column-first, the 3 parallel rank-2
 *       links, the global link between two groups) one is chosen by a hash of source, destination and address, so a
 *       flow keeps its path (Aries MIN_HASH, aries-facts §2).
 *   <li>{@code in-order}: minimal, hash of source and destination only: one path per pair, so delivery is in order
 *       (Aries IN_ORDER / MNON_HASH).
 *   <li>{@code valiant}: Valiant: a random intermediate router in a random group other than source and destination
 *       (same-group traffic: a random router of the group); minimal to the intermediate group, then minimal to the
 *       destination. {@code nmin-hash} is the same with the intermediate chosen by a flow hash (Aries NMIN_HASH).
 *   <li>{@code ugal}: UGAL-L (Kim et al. ISCA 2008): at the source router, the minimal next port against the
 *       non-minimal one toward a random intermediate, each scored by local output congestion × path hops; later hops
 *       pick the least congested minimal port toward the current target. The path hops are the textbook estimate
 *       ({@link Topology#minimalHops}, {@link DragonflyPaths#hopsVia}), not the hops of the routes taken: they put
 *       the non-minimal path at 2.00 times the minimal one where on {@code theta} and {@code edison} the routes
 *       taken are about 1.6 times (docs/network.md, "What minimal means").
 *   <li>{@code adaptive0..3}: Aries adaptive routing (aries-facts §2, S4, S6f): two minimal and two non-minimal
 *       candidates; load read as a 4-bit value from the credits the downstream router has not granted back beyond a
 *       quiet link's round trip plus this router's own queue for the port ({@link #creditLoad}; a flow the link
 *       carries as fast as it comes reads 0, one injected faster than the link drains reads as load); the
 *       non-minimal value is shifted left by a mode's shift and gets an additive bias toward minimal; the lightest
 *       wins, minimal on ties. Non-minimal candidates are those of Aries' route tables: inside one group one local
 *       port (the router beyond it is the intermediate, see {@link #localNonMinimal}); between groups an intermediate
 *       router in a third group, or, in a two-group system, a router of the source or destination group other than
 *       the two ends ({@link DragonflyPaths#chooseIntermediate}). The choice is made at the source router and again
 *       at each further router of the source group while the packet is still minimal (progressive adaptive routing,
 *       S4, with three groups or more); there the non-minimal candidates are this router's own global ports. Mode
 *       parameters (<em>assumed</em>: the sources give only their character [S9] and the hardware's form, a 0-2 bit
 *       left shift and a 6-bit additive bias per mode for the minimal and for the non-minimal value
 *       ({@code ar_rtr_inq_cfg_congest_ctrl} [S6f]), whose programmed values are not published): adaptive0 shift 0
 *       bias 0 (no bias); adaptive1 shift 0 bias 3 × hops (grows every hop); adaptive2 shift 1 bias 2 (small fixed);
 *       adaptive3 shift 2 bias 6 (large fixed). Cray's descriptions of the modes (no bias; increasing minimal bias;
 *       small and large bias against non-minimal paths) are quoted by GASNet's aries-conduit README [S9] and by the
 *       AWR library (De Sensi et al., SC19), which uses ADAPTIVE_3 for low latency below 4 KiB and ADAPTIVE_0 above
 *       (docs/calibration-sources.md rows 22-23).
 * </ul>
 *
 * <p>The path plumbing (intermediate choice, the "reached" rule, leg hashing, hop bounds) is {@link DragonflyPaths},
 * the helper user routings get too; the source decision is the first hop ({@code hops() == 0}), and the route state
 * (intermediate, non-minimal) comes from the fabric through the {@link RouterView}.
 */
final class BuiltInRouting implements RoutingAlgorithm {

  enum Kind {
    MINIMAL, IN_ORDER, VALIANT, NMIN_HASH, UGAL, ADAPTIVE;

    boolean nonMinimal() {
      return this != MINIMAL && this != IN_ORDER;
    }
  }

  private static final int[] ADAPTIVE_SHIFT = {0, 0, 1, 2};
  private static final int[] ADAPTIVE_BIAS = {0, 0, 2, 6};
  private static final int ADAPTIVE1_BIAS_PER_HOP = 3;

  private final Kind kind;
  private final int mode;
  private final Topology t;
  private final DragonflyPaths paths;
  private final SplittableRandom rnd;
  private final int[] ports;
  private final int[] ports2;
  /** Per link class, {@link #quietInFlightBytes}: the same number for every decision, so computed once. */
  private final long[] quietInFlight;

  BuiltInRouting(Kind kind, int mode, Topology topology, long seed) {
    if (topology == null) {
      throw new IllegalArgumentException("topology must not be null");
    }
    this.kind = kind;
    this.mode = mode;
    this.t = topology;
    this.paths = new DragonflyPaths(topology);
    this.rnd = new SplittableRandom(seed);
    this.ports = new int[Math.max(topology.maxMinimalPorts(), topology.portCount())];
    this.ports2 = new int[ports.length];
    this.quietInFlight = new long[topology.linkClassCount()];
    for (int c = 0; c < quietInFlight.length; c++) {
      quietInFlight[c] = quietInFlightBytes(topology, c);
    }
  }

  private static int mix(long a) {
    return DragonflyPaths.mix(a);
  }

  /** @return {@code x % n} for {@code x ≥ 0}, without a division for the one or two ports most routes offer */
  private static int pick(int x, int n) {
    return n == 1 ? 0 : n == 2 ? x & 1 : x % n;
  }

  @Override
  public Topology topology() {
    return t;
  }

  @Override
  public int virtualChannelsNeeded() {
    return paths.maxRouteHops(kind.nonMinimal());
  }

  @Override
  public void route(Packet p, RouterView view, Candidates c) {
    int router = view.router();
    int dest = t.routerOfNode(p.destinationNode());
    int vc = p.hops();
    boolean first = p.hops() == 0;
    switch (kind) {
      case MINIMAL:
      case IN_ORDER: {
        int h = DragonflyPaths.flowHash(p, kind == Kind.MINIMAL);
        int n = t.minimalPorts(router, dest, h, ports);
        c.add(ports[pick(mix(h + 0x51L * router), n)], vc);
        return;
      }
      case VALIANT:
      case NMIN_HASH: {
        int h = kind == Kind.VALIANT ? DragonflyPaths.packetHash(p) : DragonflyPaths.flowHash(p, true);
        if (first) {
          long r = kind == Kind.VALIANT ? rnd.nextLong() : DragonflyPaths.flowHash(p, true);
          int inter = paths.chooseIntermediate(router, dest, r & Long.MAX_VALUE);
          int n = paths.pathPorts(router, inter, dest, h, ports);
          int port = ports[pick(mix(h + 0x51L * router), n)];
          if (inter >= 0) {
            c.addNonMinimal(port, vc, 1, 0, inter);
          } else {
            c.add(port, vc);
          }
          return;
        }
        int n = paths.pathPorts(router, view.intermediate(), dest, h, ports);
        c.add(ports[pick(mix(h + 0x51L * router), n)], vc);
        return;
      }
      case UGAL: {
        int h = DragonflyPaths.packetHash(p);
        if (first) {
          int inter = paths.chooseIntermediate(router, dest, rnd.nextLong() & Long.MAX_VALUE);
          int hMin = t.minimalHops(router, dest);
          int n = t.minimalPorts(router, dest, h, ports);
          for (int i = 0; i < n; i++) {
            c.add(ports[i], vc, hMin, 0);
          }
          if (inter >= 0) {
            int hNon = paths.hopsVia(router, inter, dest);
            int m = paths.pathPorts(router, inter, dest, h, ports2);
            for (int i = 0; i < m; i++) {
              c.addNonMinimal(ports2[i], vc, hNon, 0, inter);
            }
          }
          return;
        }
        continuePath(view, router, dest, h, vc, c);
        return;
      }
      case ADAPTIVE:
        adaptive(p, view, router, dest, vc, first, c);
        return;
      default:
        throw new IllegalStateException("unknown routing kind " + kind);
    }
  }

  private void adaptive(Packet p, RouterView view, int router, int dest, int vc, boolean first, Candidates c) {
    int srcRouter = t.routerOfNode(p.sourceNode());
    int g = t.groupOfRouter(router);
    int gs = t.groupOfRouter(srcRouter);
    int gd = t.groupOfRouter(dest);
    boolean progressive = !first && !view.nonMinimal() && g == gs && gd != gs
        && p.hops() <= t.maxLocalHops() && t.groupCount() >= 3;
    int h = DragonflyPaths.packetHash(p);
    if (!first && !progressive) {
      continuePath(view, router, dest, h, vc, c);
      return;
    }
    int n = t.minimalPorts(router, dest, h, ports);
    int start = pick(mix(h + 7), n);
    c.add(ports[start], vc, 1, 0);
    if (n > 1) {
      c.add(ports[(start + 1) % n], vc, 1, 0);
    }
    int weight = 1 << ADAPTIVE_SHIFT[mode];
    int bias = mode == 1 ? ADAPTIVE1_BIAS_PER_HOP * p.hops() : ADAPTIVE_BIAS[mode];
    if (first && gs == gd) {
      localNonMinimal(router, dest, t.linkClass(router, ports[start]), vc, weight, bias, c);
    } else if (first) {
      for (int k = 0; k < 2; k++) {
        int inter = paths.chooseIntermediate(router, dest, rnd.nextLong() & Long.MAX_VALUE);
        if (inter >= 0) {
          int m = paths.pathPorts(router, inter, dest, h, ports2);
          c.addNonMinimal(ports2[pick(mix(h + k), m)], vc, weight, bias, inter);
        }
      }
    } else {
      // progressive: this router's own global ports into a third group
      int radix = t.portCount();
      int off = mix(h + 13) % radix;
      int added = 0;
      for (int k = 0; k < radix && added < 2; k++) {
        int port = (off + k) % radix;
        int nr = t.neighborRouter(router, port);
        if (nr < 0) {
          continue;
        }
        int ng = t.groupOfRouter(nr);
        if (ng != g && ng != gd) {
          c.addNonMinimal(port, vc, weight, bias, nr);
          added++;
        }
      }
    }
  }

  /**
   * The two non-minimal candidates of traffic inside one group, as Aries' local non-minimal route tables offer them.
   * The router has non-minimal port lists per link colour (green = rank-1, black = rank-2, blue = rank-3:
   * {@code grn_nm_rt_tab}, {@code blk_nm_rt_tab}, {@code blu_nm_rt_tab} [S6f]), one of the four table sets (local and
   * global, minimal and non-minimal [S4 via S1]); an LFSR draws among the listed ports [S6f]. A non-minimal
   * candidate is therefore one local port, and the router at its far end is the packet's "root", after which the VC
   * table moves it on and it goes minimally [S6f]: a detour of one local hop plus a minimal route. Which colour's list
   * a packet uses is not published: the model draws, for a destination one hop away, among ports of that hop's
   * colour (a rank-1 pair detours through another router of its chassis, 2 hops; a rank-2 pair through another
   * router of its column, 2 hops), and for a destination two hops away among all local ports (<em>assumed</em>
   * reading). A drawn port is refused when its far router is the destination or on a minimal path to it.
   *
   * <p>Before this reading the intermediate was any router of the group: a detour of up to 4 hops, which could cross
   * the congested minimal link itself, and which made a rank-1 pair's large messages slower than a rank-3 pair's.
   */
  private void localNonMinimal(int router, int dest, int minimalClass, int vc, int weight, int bias, Candidates c) {
    int g = t.groupOfRouter(router);
    int radix = t.portCount();
    int minHops = t.minimalHops(router, dest);
    int firstPort = -1;
    // uniform draws with rejection: a scan from a random start would favour the port after each ineligible run
    for (int attempt = 0; attempt < LOCAL_DRAWS_PER_PORT * radix; attempt++) {
      int port = rnd.nextInt(radix);
      int nr = t.neighborRouter(router, port);
      if (port == firstPort || nr < 0 || nr == dest || t.groupOfRouter(nr) != g
          || t.minimalHops(nr, dest) < minHops || (minHops == 1 && t.linkClass(router, port) != minimalClass)) {
        continue;
      }
      c.addNonMinimal(port, vc, weight, bias, nr);
      if (firstPort >= 0) {
        return;
      }
      firstPort = port;
    }
  }

  /** Random port draws per port of the radix before a router with too few eligible ports offers fewer than two. */
  private static final int LOCAL_DRAWS_PER_PORT = 4;

  /** After the source decision: every minimal port toward the packet's intermediate, or its destination once past. */
  private void continuePath(RouterView view, int router, int dest, int hash, int vc, Candidates c) {
    int n = paths.pathPorts(router, view.intermediate(), dest, hash, ports);
    for (int i = 0; i < n; i++) {
      c.add(ports[i], vc, 1, 0);
    }
  }

  /**
   * Credit round trip of a quiet hop beyond the wire's two ways, picoseconds: the fabric's 90 ns pipeline plus one
   * packet's serialization, rounded to the published ~100 ns per hop [S3 via S1] (derived).
   */
  static final long QUIET_CREDIT_ROUND_TRIP_PS = 100_000;

  /**
   * The load of an output port as Aries estimates it [S4 via S1: near-end link load plus downstream and far-end link
   * load, each a 4-bit value, summed with saturation], squeezed to 0 to 15 (a full VC buffer's worth or more at 15).
   * Two parts, in bytes: the downstream part is what the downstream input buffers hold as far as this router's
   * credits say (the VC buffers minus the credits granted) less what a quiet link keeps ungranted at full rate (the
   * link's bytes per credit round trip: two wire latencies plus {@link #QUIET_CREDIT_ROUND_TRIP_PS}), so a flow the
   * link carries as fast as it arrives reads 0 there (US 9,614,786 claim 7: credit round trip as the congestion
   * indicator); the near-end part is this router's own queue for the port, from its first byte. A queue forms only
   * when packets arrive faster than the link drains them: a stream of FMA posts (3.7 GB/s of stores) never queues on
   * a 5.25 GB/s link, while a BTE transfer injected at 10.2 GB/s queues on a single rank-1 link, which is the
   * oversubscription adaptive routing exists to spread. (Until the local non-minimal candidates followed the route
   * tables, the queue counted only beyond a quarter of a VC buffer, an assumed allowance the published estimate does
   * not have; with it, a rank-1 pair's messages of 32 KiB and more were slower than a rank-3 pair's.)
   *
   * @param view the router deciding
   * @param port one of its network ports
   * @return 0 to 15
   */
  static int creditLoad(RouterView view, int port) {
    Topology topo = view.topology();
    return creditLoad(view, port, quietInFlightBytes(topo, topo.linkClass(view.router(), port)));
  }

  /**
   * {@link #creditLoad(RouterView, int)} with the quiet link's ungranted bytes given. The bytes the downstream input
   * buffers hold are the port's congestion less its queue ({@link RouterView#congestion}'s contract), the same number
   * as the sum of every VC's buffer less its credits, read without the port's line of credits: on the full system that
   * line had often left the cache (docs/performance.md, "Stop 37").
   */
  private static int creditLoad(RouterView view, int port, long inFlight) {
    int buffer = view.vcBufferBytes();
    long queued = view.queuedBytes(port);
    long held = view.congestion(port) - queued;
    long excess = Math.max(0, held - inFlight) + queued;
    return (int) Math.min(15, excess * 16 / Math.max(1, buffer));
  }

  /** The bytes a quiet link of class {@code cls} keeps ungranted at full rate: its bandwidth × the credit round trip. */
  private static long quietInFlightBytes(Topology topo, int cls) {
    double roundTripPs = 2.0 * topo.linkLatencyPs(cls) + QUIET_CREDIT_ROUND_TRIP_PS;
    return (long) (topo.linkBandwidth(cls) * roundTripPs / 1e12);
  }

  @Override
  public int select(Packet packet, RouterView router, Candidates candidates) {
    if (kind != Kind.ADAPTIVE) {
      return RoutingAlgorithm.super.select(packet, router, candidates);
    }
    int best = 0;
    int bestScore = Integer.MAX_VALUE;
    for (int i = 0; i < candidates.size(); i++) {
      int port = candidates.port(i);
      int s = candidates.weight(i) * creditLoad(router, port, quietInFlight[t.linkClass(router.router(), port)])
          + candidates.bias(i);
      if (s < bestScore) {
        bestScore = s;
        best = i;
      }
    }
    return best;
  }
}
