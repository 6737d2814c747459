package io.github.ariesmodel.network;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.network.spi.Candidates;
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
 *       pick the least congested minimal port toward the current target.
 *   <li>{@code adaptive0..3}: Aries adaptive routing (aries-facts §2, S4, S6f): two minimal and two non-minimal
 *       candidates; congestion read as the 4-bit load value; the non-minimal value is shifted left by a mode's shift
 *       and gets an additive bias toward minimal; the lightest wins, minimal on ties. The choice is made at the source
 *       router and again at each further router of the source group while the packet is still minimal (progressive
 *       adaptive routing, S4); there the non-minimal candidates are this router's own global ports. Mode parameters
 *       (<em>assumed</em>; the sources give only their character [S9]): adaptive0 shift 0 bias 0 (no bias);
 *       adaptive1 shift 0 bias 3 × hops (grows every hop); adaptive2 shift 1 bias 2 (small fixed); adaptive3 shift 2
 *       bias 6 (large fixed).
 * </ul>
 */
final class BuiltInRouting implements RoutingAlgorithm {

  enum Kind {
    MINIMAL, IN_ORDER, VALIANT, NMIN_HASH, UGAL, ADAPTIVE
  }

  private static final int[] ADAPTIVE_SHIFT = {0, 0, 1, 2};
  private static final int[] ADAPTIVE_BIAS = {0, 0, 2, 6};
  private static final int ADAPTIVE1_BIAS_PER_HOP = 3;

  private final Kind kind;
  private final int mode;
  private final Topology t;
  private final SplittableRandom rnd;
  private final int[] ports;
  private final int[] ports2;

  BuiltInRouting(Kind kind, int mode, Topology topology, long seed) {
    if (topology == null) {
      throw new IllegalArgumentException("topology must not be null");
    }
    this.kind = kind;
    this.mode = mode;
    this.t = topology;
    this.rnd = new SplittableRandom(seed);
    this.ports = new int[Math.max(topology.maxMinimalPorts(), topology.portCount())];
    this.ports2 = new int[ports.length];
  }

  static int mix(long a) {
    long z = a + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z = z ^ (z >>> 31);
    return (int) z & 0x7FFF_FFFF;
  }

  private int flowHash(Packet p, boolean withAddress) {
    long h = ((long) p.sourceNode() << 20) ^ p.destinationNode();
    if (withAddress) {
      h = h * 31 + p.offset() + ((long) p.mdh() << 40);
    }
    return mix(h);
  }

  /** Same value at every hop of one packet, different across packets: keeps a packet's global link fixed. */
  private static int packetHash(Packet p) {
    return mix((((long) p.sourceNode() << 20) ^ p.destinationNode()) * 0x9E3779B97F4A7C15L + p.tag() * 31L
        + p.offset());
  }

  @Override
  public void route(Packet p, RouterView view, Candidates c) {
    int router = view.router();
    int dest = t.routerOfNode(p.destinationNode());
    int vc = p.hops();
    int flags = p.routeFlags();
    boolean first = (flags & RouteFlags.DECIDED) == 0;
    if (first) {
      p.routeFlags(flags | RouteFlags.DECIDED);
    }
    switch (kind) {
      case MINIMAL:
      case IN_ORDER: {
        int h = flowHash(p, kind == Kind.MINIMAL);
        int n = t.minimalPorts(router, dest, h, ports);
        c.add(ports[mix(h + 0x51L * router) % n], vc);
        return;
      }
      case VALIANT:
      case NMIN_HASH: {
        int inter = p.intermediate();
        if (first) {
          long r = kind == Kind.VALIANT ? rnd.nextLong() : flowHash(p, true);
          inter = intermediate(router, dest, r & Long.MAX_VALUE);
        }
        int h = kind == Kind.VALIANT ? packetHash(p) : flowHash(p, true);
        continuePath(p, router, dest, inter, h, vc, c, false);
        return;
      }
      case UGAL: {
        int h = packetHash(p);
        if (first) {
          int inter = intermediate(router, dest, rnd.nextLong() & Long.MAX_VALUE);
          int hMin = t.minimalHops(router, dest);
          int n = t.minimalPorts(router, dest, h, ports);
          for (int i = 0; i < n; i++) {
            c.add(ports[i], vc, hMin, 0, -1);
          }
          if (inter >= 0) {
            int hNon = t.minimalHops(router, inter) + t.minimalHops(inter, dest);
            int m = t.minimalPorts(router, inter, h, ports2);
            for (int i = 0; i < m; i++) {
              c.add(ports2[i], vc, hNon, 0, inter);
            }
          }
          return;
        }
        continuePath(p, router, dest, p.intermediate(), h, vc, c, true);
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
    boolean progressive = !first && (p.routeFlags() & RouteFlags.NON_MINIMAL) == 0 && g == gs && gd != gs
        && p.hops() <= t.maxLocalHops() && t.groupCount() >= 3;
    int h = packetHash(p);
    if (!first && !progressive) {
      continuePath(p, router, dest, p.intermediate(), h, vc, c, true);
      return;
    }
    int n = t.minimalPorts(router, dest, h, ports);
    int start = mix(h + 7) % n;
    c.add(ports[start], vc, 1, 0, -1);
    if (n > 1) {
      c.add(ports[(start + 1) % n], vc, 1, 0, -1);
    }
    int weight = 1 << ADAPTIVE_SHIFT[mode];
    int bias = mode == 1 ? ADAPTIVE1_BIAS_PER_HOP * p.hops() : ADAPTIVE_BIAS[mode];
    if (first) {
      for (int k = 0; k < 2; k++) {
        int inter = intermediate(router, dest, rnd.nextLong() & Long.MAX_VALUE);
        if (inter >= 0) {
          int m = t.minimalPorts(router, inter, h, ports2);
          c.add(ports2[mix(h + k) % m], vc, weight, bias, inter);
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
          c.add(port, vc, weight, bias, nr);
          added++;
        }
      }
    }
  }

  /** Minimal toward the intermediate's group (or router, for same-group Valiant) then toward the destination. */
  private void continuePath(
      Packet p, int router, int dest, int inter, int hash, int vc, Candidates c, boolean adaptive) {
    int target = dest;
    if (inter >= 0) {
      boolean sameGroup = t.groupOfRouter(inter) == t.groupOfRouter(dest);
      boolean reached = sameGroup ? router == inter : t.groupOfRouter(router) == t.groupOfRouter(inter);
      if (reached) {
        inter = -1;
      } else {
        target = inter;
      }
    }
    int n = t.minimalPorts(router, target, hash, ports);
    if (adaptive) {
      for (int i = 0; i < n; i++) {
        c.add(ports[i], vc, 1, 0, inter);
      }
    } else {
      c.add(ports[mix(hash + 0x51L * router) % n], vc, 1, 0, inter);
    }
  }

  /** A random intermediate router: in a third group for inter-group traffic, else another router of the group. */
  private int intermediate(int router, int dest, long r) {
    int groups = t.groupCount();
    int per = t.routersPerGroup();
    int gs = t.groupOfRouter(router);
    int gd = t.groupOfRouter(dest);
    if (gs != gd) {
      if (groups < 3) {
        return -1;
      }
      int g = (int) (r % (groups - 2));
      int lo = Math.min(gs, gd);
      int hi = Math.max(gs, gd);
      if (g >= lo) {
        g++;
      }
      if (g >= hi) {
        g++;
      }
      return t.routerInGroup(g, (int) ((r / groups) % per));
    }
    if (per < 3) {
      return -1;
    }
    int i = (int) (r % (per - 2));
    int a = Math.min(router % per, dest % per);
    int b = Math.max(router % per, dest % per);
    if (i >= a) {
      i++;
    }
    if (i >= b) {
      i++;
    }
    return t.routerInGroup(gs, i);
  }

  @Override
  public int select(Packet packet, RouterView router, Candidates candidates) {
    if (kind != Kind.ADAPTIVE) {
      return RoutingAlgorithm.super.select(packet, router, candidates);
    }
    int best = 0;
    int bestScore = Integer.MAX_VALUE;
    for (int i = 0; i < candidates.size(); i++) {
      int s = candidates.weight(i) * router.congestionLevel(candidates.port(i)) + candidates.bias(i);
      if (s < bestScore) {
        bestScore = s;
        best = i;
      }
    }
    return best;
  }
}
