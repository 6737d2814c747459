package io.github.ariesmodel.cli.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.network.CabledDragonfly;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.system.SystemPreset;
import io.github.ariesmodel.testkit.network.LinkLists;
import java.io.IOException;
import java.io.StringReader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Node pairs by distance, found on the cables of generated and real topologies. */
class DistancesTest {

  @Test
  void generatedSystemsKeepTheirPairs() {
    // the pairs the coordinate rule gave before distances were found on the cables (golden outputs depend on them)
    Map<String, int[]> theta = Distances.pairs(Topologies.parse("theta"));
    assertThat(theta.keySet()).containsExactly("same-router", "rank-1", "rank-2", "rank-3");
    assertThat(theta.get("same-router")).containsExactly(0, 1);
    assertThat(theta.get("rank-1")).containsExactly(0, 4);
    assertThat(theta.get("rank-2")).containsExactly(0, 64);
    assertThat(theta.get("rank-3")).containsExactly(0, 384);
    assertThat(Distances.names(Topologies.parse("aries:groups=1"))).containsExactly("same-router", "rank-1", "rank-2");
    Map<String, int[]> canonical = Distances.pairs(Topologies.parse("canonical:p=2,a=4,h=2"));
    assertThat(canonical.keySet()).containsExactly("same-router", "local", "global");
    assertThat(canonical.get("local")).containsExactly(0, 2);
    assertThat(canonical.get("global")).containsExactly(0, 8);
  }

  @Test
  void onEdisonsCablingEachLocalPairIsOneHopOfItsRankAndRankThreeLeavesTheGroup() {
    Topology t = SystemPreset.EDISON_CABLED.topology();
    Map<String, int[]> pairs = Distances.pairs(t);
    assertThat(pairs.keySet()).containsExactly("same-router", "rank-1", "rank-2", "rank-3");
    assertOneHopOf(t, pairs.get("rank-1"), 0);
    assertOneHopOf(t, pairs.get("rank-2"), 1);
    int[] r3 = pairs.get("rank-3");
    assertThat(t.groupOfRouter(t.routerOfNode(r3[1]))).isEqualTo(1); // file group 1
    assertThat(t.minimalHops(t.routerOfNode(r3[0]), t.routerOfNode(r3[1]))).isEqualTo(1); // cabled directly
  }

  @Test
  void aSmallLinkListHasEveryDistance() throws IOException {
    CabledDragonfly t = CabledDragonfly.read(new StringReader(String.join("\n",
        LinkLists.regular(new int[] {2, 5}, 2, 3, 1, 1))), "small");
    Map<String, int[]> pairs = Distances.pairs(t);
    // one NIC a router: no same-router pair
    assertThat(pairs.keySet()).containsExactly("rank-1", "rank-2", "rank-3");
    assertOneHopOf(t, pairs.get("rank-1"), 0);
    assertOneHopOf(t, pairs.get("rank-2"), 1);
    assertThat(pairs.get("rank-3")).containsExactly(0, 6);
  }

  private static void assertOneHopOf(Topology t, int[] pair, int linkClass) {
    int a = t.routerOfNode(pair[0]);
    int b = t.routerOfNode(pair[1]);
    boolean cabled = false;
    for (int p = 0; p < t.portCount(); p++) {
      cabled |= t.neighborRouter(a, p) == b && t.linkClass(a, p) == linkClass;
    }
    assertThat(cabled).as("routers %s and %s joined by a %s cable", a, b, t.linkClassName(linkClass)).isTrue();
  }
}
