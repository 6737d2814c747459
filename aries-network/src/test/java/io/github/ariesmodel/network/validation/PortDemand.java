package io.github.ariesmodel.network.validation;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.network.Dragonfly;
import io.github.ariesmodel.network.Routings;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.network.spi.Candidates;
import io.github.ariesmodel.network.spi.RouterView;
import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import java.util.Locale;

/**
 * Where a routing puts its load: runs one traffic point (3 µs warm-up, 1.5 µs window, seed 1, as the Theta sweep)
 * with the routing wrapped so that every decision is counted per (router, output port), and prints, per link rank,
 * the mean and largest <em>demand</em> (packets routed onto the port × 84 wire bytes / (port rate × simulated time);
 * above 1.0 means packets were sent to the port faster than it can serialize them, so they queued) and how many
 * links exceed 0.9; then the rank-3 demand split by how many links the port's router has to the same peer group.
 * Not a test; run like {@link ValidationSweep}:
 *
 * <pre>
 * java -cp $CP io.github.ariesmodel.network.validation.PortDemand theta valiant adversarial 0.6
 * </pre>
 */
public final class PortDemand {

  private PortDemand() {}

  /**
   * Runs the point and prints the table.
   *
   * @param args topology, routing, pattern, offered load
   */
  public static void main(String[] args) {
    Dragonfly t = Topologies.parse(args[0]);
    RoutingAlgorithm inner = Routings.create(args[1], t, 1);
    int radix = t.portCount();
    long[] count = new long[t.routerCount() * radix];
    RoutingAlgorithm counted = new RoutingAlgorithm() {
      @Override
      public void route(Packet p, RouterView v, Candidates c) {
        inner.route(p, v, c);
      }

      @Override
      public int select(Packet p, RouterView v, Candidates c) {
        int i = inner.select(p, v, c);
        count[v.router() * radix + c.port(i)]++;
        return i;
      }
    };
    TrafficResult r = TrafficExperiment.on(t).routing(counted).pattern(TrafficPattern.parse(args[2]))
        .load(Double.parseDouble(args[3])).seed(1).warmupPs(3_000_000L).measurePs(1_500_000L).run();
    System.out.printf(Locale.ROOT, "%s %s %s offered %.3f accepted %.4f%n", args[0], args[1], args[2],
        r.offeredLoad(), r.acceptedLoad());
    double seconds = r.simulatedPs() * 1e-12;
    int rpg = t.routersPerGroup();
    for (int cl = 0; cl < t.linkClassCount(); cl++) {
      int n = 0;
      int over = 0;
      int adjacentRows = 0;
      double sum = 0;
      double max = 0;
      for (int router = 0; router < t.routerCount(); router++) {
        for (int p = 0; p < radix; p++) {
          int nr = t.neighborRouter(router, p);
          if (nr < 0 || t.linkClass(router, p) != cl) {
            continue;
          }
          double u = count[router * radix + p] * 84.0 / t.linkBandwidth(cl) / seconds;
          n++;
          sum += u;
          max = Math.max(max, u);
          if (u > 0.9) {
            over++;
            int d = Math.abs((router % rpg) / t.columns() - (nr % rpg) / t.columns());
            if (t.groupOfRouter(nr) == t.groupOfRouter(router) && (d == 1 || (d == t.rows() - 1 && d > 0))) {
              adjacentRows++;
            }
          }
        }
      }
      System.out.printf(Locale.ROOT, "%s: %d links, demand mean %.3f max %.3f, over 0.9: %d (of them local links between"
          + " adjacent or first/last rows: %d)%n", t.linkClassName(cl), n, sum / n, max, over, adjacentRows);
    }
    int gb = t.firstGlobalPort();
    double[] sum = new double[3];
    int[] n = new int[3];
    for (int router = 0; router < t.routerCount(); router++) {
      for (int p = gb; p < radix; p++) {
        int nr = t.neighborRouter(router, p);
        if (nr < 0) {
          continue;
        }
        int same = 0;
        for (int q = gb; q < radix; q++) {
          int x = t.neighborRouter(router, q);
          if (x >= 0 && t.groupOfRouter(x) == t.groupOfRouter(nr)) {
            same++;
          }
        }
        int k = Math.min(same, 2);
        sum[k] += count[router * radix + p] * 84.0 / t.linkBandwidth(t.linkClass(router, p)) / seconds;
        n[k]++;
      }
    }
    for (int k = 1; k <= 2; k++) {
      if (n[k] > 0) {
        System.out.printf(Locale.ROOT, "global links on a router with %s link(s) to that group: %d, mean demand %.3f%n",
            k == 1 ? "1" : "2+", n[k], sum[k] / n[k]);
      }
    }
  }
}
