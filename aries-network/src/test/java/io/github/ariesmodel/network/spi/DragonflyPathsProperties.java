package io.github.ariesmodel.network.spi;

import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.network.Dragonfly;
import io.github.ariesmodel.network.GlobalArrangement;
import org.junit.jupiter.api.Test;

class DragonflyPathsProperties {

  private static final Dragonfly[] TOPOLOGIES = {
    Dragonfly.ariesBuilder(5).rows(3).columns(4).globalPorts(3).build(),
    Dragonfly.ariesBuilder(4).rows(2).columns(3).globalPorts(2).anyExitLink(true).build(),
    Dragonfly.canonical(2, 4, 2),
    Dragonfly.canonicalBuilder(1, 3, 2).groups(5).arrangement(GlobalArrangement.RELATIVE, "relative").build(),
    Dragonfly.ariesBuilder(1).rows(3).columns(3).build(),
  };

  /**
   * Following {@code pathPorts} hop by hop (any of the offered ports) from any router through any drawn intermediate
   * reaches the intermediate under the {@code reached} rule and then the destination, within {@code
   * maxRouteHops(true)} hops; with no intermediate within {@code maxRouteHops(false)}. The one way to miss the
   * intermediate: inside one group, the destination lies on the minimal way to it (the fabric delivers there).
   */
  @Test
  void aPathThroughADrawnIntermediateReachesItAndEndsWithinTheBound() {
    qt().withExamples(2_000)
        .forAll(integers().between(0, TOPOLOGIES.length - 1), integers().between(0, Integer.MAX_VALUE - 1),
            integers().between(0, Integer.MAX_VALUE - 1), longs().between(0, Long.MAX_VALUE))
        .check((ti, a, b, random) -> {
          Dragonfly t = TOPOLOGIES[ti];
          DragonflyPaths paths = new DragonflyPaths(t);
          int src = a % t.routerCount();
          int dst = b % t.routerCount();
          if (src == dst) {
            return true;
          }
          int inter = paths.chooseIntermediate(src, dst, random);
          int hash = DragonflyPaths.mix(random);
          int[] ports = new int[Math.max(t.maxMinimalPorts(), 1)];
          int router = src;
          int current = inter;
          boolean reached = inter < 0;
          int hops = 0;
          while (router != dst) {
            if (current >= 0 && paths.reached(router, current, dst)) {
              current = -1;
              reached = true;
            }
            int n = paths.pathPorts(router, current, dst, hash, ports);
            int port = ports[DragonflyPaths.mix(hash + hops) % n];
            router = t.neighborRouter(router, port);
            hops++;
            if (router < 0 || hops > 64) {
              return false;
            }
          }
          if (current >= 0 && paths.reached(router, current, dst)) {
            reached = true;
          }
          boolean destinationOnTheWay = inter >= 0 && t.groupOfRouter(inter) == t.groupOfRouter(dst)
              && hops == t.minimalHops(src, dst)
              && t.minimalHops(src, dst) + t.minimalHops(dst, inter) == t.minimalHops(src, inter);
          return (reached || destinationOnTheWay) && hops <= paths.maxRouteHops(inter >= 0);
        });
  }
}
