package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DragonflyTest {

  @Test
  void ariesGroupHasTheRankStructureOfTheFactSheet() {
    Dragonfly t = Dragonfly.aries(2);
    assertThat(t.routersPerGroup()).isEqualTo(96);
    assertThat(t.portCount()).isEqualTo(40);
    assertThat(t.nodeCount()).isEqualTo(768);
    int[] perClass = new int[3];
    for (int p = 0; p < t.portCount(); p++) {
      perClass[t.linkClass(0, p)]++;
    }
    assertThat(perClass).containsExactly(15, 15, 10);
    // rank-1 ports reach the same row, rank-2 the same column (3 links to each other row)
    Map<Integer, Integer> rank2PerRouter = new HashMap<>();
    for (int p = 0; p < t.portCount(); p++) {
      int n = t.neighborRouter(0, p);
      if (t.linkClass(0, p) == 0) {
        assertThat(n / 16).isEqualTo(0);
      } else if (t.linkClass(0, p) == 1) {
        assertThat(n % 16).isEqualTo(0);
        rank2PerRouter.merge(n, 1, Integer::sum);
      } else {
        assertThat(t.groupOfRouter(n)).isEqualTo(1);
      }
    }
    assertThat(rank2PerRouter).hasSize(5).allSatisfy((r, c) -> assertThat(c).isEqualTo(3));
    assertThat(t.linksPerPair()).isEqualTo(960);
  }

  @Test
  void fullAriesSystemHas241GroupsAnd92544Nodes() {
    Dragonfly t = Dragonfly.aries(241);
    assertThat(t.nodeCount()).isEqualTo(92_544);
    assertThat(t.routerCount()).isEqualTo(23_136);
    assertThat(t.linksPerPair()).isEqualTo(4);
    assertLinksSymmetric(t);
  }

  @Test
  void canonicalDragonflyOfKimEtAl() {
    Dragonfly t = Dragonfly.canonical(4, 8, 4);
    assertThat(t.groupCount()).isEqualTo(33);
    assertThat(t.nodeCount()).isEqualTo(1056);
    assertThat(t.portCount()).isEqualTo(7 + 4);
    assertThat(t.linksPerPair()).isEqualTo(1);
    assertLinksSymmetric(t);
    assertThat(t.maxLocalHops()).isEqualTo(1);
  }

  @Test
  void everyPairOfGroupsIsJoinedByLinksPerPairLinksInBothArrangements() {
    for (GlobalArrangement a : new GlobalArrangement[] {GlobalArrangement.ABSOLUTE, GlobalArrangement.RELATIVE,
        GlobalArrangement.INTERLEAVED}) {
      Dragonfly t = Dragonfly.canonicalBuilder(2, 4, 2).arrangement(a, "x").build();
      assertLinksSymmetric(t);
      int[][] links = new int[t.groupCount()][t.groupCount()];
      for (int r = 0; r < t.routerCount(); r++) {
        for (int p = 0; p < t.portCount(); p++) {
          int n = t.neighborRouter(r, p);
          if (n >= 0 && t.groupOfRouter(n) != t.groupOfRouter(r)) {
            links[t.groupOfRouter(r)][t.groupOfRouter(n)]++;
          }
        }
      }
      for (int g = 0; g < t.groupCount(); g++) {
        for (int d = 0; d < t.groupCount(); d++) {
          assertThat(links[g][d]).isEqualTo(g == d ? 0 : 1);
        }
      }
    }
  }

  @Test
  void interleavedArrangementSpreadsAGroupPairsLinksOverTheGroup() {
    Dragonfly t = Dragonfly.ariesBuilder(9).arrangement(GlobalArrangement.INTERLEAVED, "interleaved").build();
    assertLinksSymmetric(t);
    java.util.Set<Integer> routersToGroup1 = new java.util.HashSet<>();
    for (int r = 0; r < 96; r++) {
      for (int p = t.firstGlobalPort(); p < t.portCount(); p++) {
        if (t.groupOfRouter(t.neighborRouter(r, p)) == 1) {
          routersToGroup1.add(r);
        }
      }
    }
    assertThat(routersToGroup1).hasSize(96);
    assertThat(Dragonfly.aries(9).linksPerPair()).isEqualTo(120);
  }

  @Test
  void relativeArrangementConnectsRouterZeroToTheNextGroup() {
    Dragonfly t = Dragonfly.canonicalBuilder(1, 4, 2).arrangement(GlobalArrangement.RELATIVE, "relative").build();
    int firstGlobal = t.firstGlobalPort();
    for (int g = 0; g < t.groupCount(); g++) {
      int r = t.routerInGroup(g, 0);
      assertThat(t.groupOfRouter(t.neighborRouter(r, firstGlobal))).isEqualTo((g + 1) % t.groupCount());
    }
  }

  @Test
  void followingMinimalPortsReachesTheTargetWithinTheHopBound() {
    for (Dragonfly t : new Dragonfly[] {Topologies.ariesSmall(), Topologies.canonicalSmall(), Dragonfly.aries(3)}) {
      int[] out = new int[t.maxMinimalPorts()];
      int bound = 2 * t.maxLocalHops() + 1;
      for (int r = 0; r < t.routerCount(); r += 7) {
        for (int target = 0; target < t.routerCount(); target += 5) {
          if (r == target) {
            continue;
          }
          int hash = r * 31 + target;
          for (int choice = 0; choice < 2; choice++) {
            int at = r;
            int hops = 0;
            while (at != target) {
              int n = t.minimalPorts(at, target, hash, out);
              assertThat(n).isPositive();
              at = t.neighborRouter(at, out[choice == 0 ? 0 : n - 1]);
              assertThat(at).isNotNegative();
              hops++;
              assertThat(hops).isLessThanOrEqualTo(bound);
            }
            assertThat(t.minimalHops(r, target)).isBetween(1, hops);
          }
        }
      }
    }
  }

  /**
   * Toward another group, a router with several own global links to it is as near as the nearest landing of them.
   * minimalHops used to take the first own link's landing: on {@code edison} router 7's port 38 (and 39) lands on
   * router 193 itself, yet minimalHops(7, 193) was 2; 6,951 router pairs of edison, 6,912 of the interleaved 9
   * groups and 16 of the small interleaved system were one or two hops too long, which UGAL multiplies into its
   * scores. CabledDragonfly, built from the same cables, computes the same quantity independently (its own loop over
   * the ports, breadth-first distances inside a group).
   */
  @Test
  void minimalHopsTakesTheNearestOfARoutersOwnLinks() {
    Dragonfly edison = Topologies.parse("edison");
    int port = -1;
    for (int p = edison.firstGlobalPort(); p < edison.portCount(); p++) {
      if (port < 0 && edison.neighborRouter(7, p) == 193) {
        port = p;
      }
    }
    assertThat(port).as("edison's router 7 has a link straight to router 193 (its first is port 38)").isEqualTo(38);
    assertThat(edison.minimalHops(7, 193)).isEqualTo(1);
    for (Dragonfly t : new Dragonfly[] {edison, Topologies.parse("aries:groups=9,arrangement=interleaved"),
        Topologies.parse("aries:groups=3,rows=2,cols=4,h=3,arrangement=interleaved")}) {
      CabledDragonfly cabled = CabledDragonfly.of(t);
      for (int r = 0; r < t.routerCount(); r++) {
        for (int target = 0; target < t.routerCount(); target++) {
          if (t.minimalHops(r, target) != cabled.minimalHops(r, target)) {
            throw new AssertionError(t.describe() + ": minimalHops(" + r + ", " + target + ") is "
                + t.minimalHops(r, target) + " but the cabled copy says " + cabled.minimalHops(r, target));
          }
        }
      }
    }
  }

  @Test
  void anyExitLinkSpreadsOverTheGroupPairsLinksWithinTheHopBound() {
    Dragonfly own = Topologies.parse("aries:groups=3,rows=2,cols=4,h=2,arrangement=interleaved");
    Dragonfly any = Topologies.parse("aries:groups=3,rows=2,cols=4,h=2,arrangement=interleaved,exit=any");
    assertThat(own.anyExitLink()).isFalse();
    assertThat(any.anyExitLink()).isTrue();
    assertThat(any.describe()).contains("any exit link");
    int[] out = new int[any.maxMinimalPorts()];
    int bound = 2 * any.maxLocalHops() + 1;
    int g1 = any.routerInGroup(1, 0);
    int router = any.routerInGroup(0, 0);
    // with interleaved links router 0 of group 0 has its own link to group 1: "own" always uses it
    assertThat(own.minimalPorts(router, g1, 0, out)).isEqualTo(1);
    assertThat(own.linkClass(router, out[0])).isEqualTo(2);
    java.util.Set<Integer> exits = new java.util.HashSet<>();
    for (int hash = 0; hash < any.linksPerPair(); hash++) {
      int at = router;
      int hops = 0;
      while (any.groupOfRouter(at) == 0) {
        int n = any.minimalPorts(at, g1, hash, out);
        assertThat(n).isPositive();
        int next = any.neighborRouter(at, out[n - 1]);
        if (any.groupOfRouter(next) != 0) {
          exits.add(at * any.portCount() + out[n - 1]);
        }
        at = next;
        hops++;
        assertThat(hops).isLessThanOrEqualTo(bound);
      }
      assertThat(any.groupOfRouter(at)).isEqualTo(1);
    }
    // every one of the group pair's links is used by some hash, not just the router's own
    assertThat(exits).hasSize(any.linksPerPair());
    assertThatThrownBy(() -> Topologies.parse("aries:groups=3,exit=some"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exit").hasMessageContaining("some");
  }

  @Test
  void nodeCoordinatesRoundTrip() {
    Dragonfly t = Dragonfly.aries(2);
    int node = t.node(1, 5, 15, 3);
    assertThat(node).isEqualTo(767);
    assertThat(t.routerOfNode(node)).isEqualTo(191);
    assertThat(t.groupOfRouter(t.routerOfNode(node))).isEqualTo(1);
    assertThatThrownBy(() -> t.node(0, 6, 0, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("row must be in [0, 5] but was 6");
  }

  @Test
  void badParametersAreClearErrors() {
    assertThatThrownBy(() -> Dragonfly.aries(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("groups must be in [1, 241]").hasMessageContaining("was 0");
    assertThatThrownBy(() -> Dragonfly.aries(242)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 242");
    assertThatThrownBy(() -> Dragonfly.canonicalBuilder(4, 8, 4).groups(34).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("groups must be in [1, 33]");
    assertThatThrownBy(() -> Dragonfly.canonical(0, 8, 4)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodesPerRouter must be in [1, 64] but was 0");
    assertThatThrownBy(() -> Dragonfly.canonicalBuilder(2, 4, 2).groups(3).linksPerPair(5).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("linksPerPair must be in [1, 4]");
    assertThatThrownBy(() -> Dragonfly.canonicalBuilder(2, 4, 2).arrangement((g, d, k, n, l) -> 0, "bad").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("distinct slots");
    assertThatThrownBy(() -> Topologies.parse("torus:x=1")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("topology kind must be");
    // the kind is judged before the options: "foo:bar" used to be told its option was no key=value
    assertThatThrownBy(() -> Topologies.parse("foo:bar")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith("but was \"foo\"");
    assertThatThrownBy(() -> Topologies.parse("theta:groups=2")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("topology theta is a preset and takes no options but was \"theta:groups=2\"");
    assertThatThrownBy(() -> Topologies.parse("canonical:p=4,a=8")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("h= is required");
    assertThatThrownBy(() -> Topologies.parse("aries:groups=2,colour=blue"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[colour]");
  }

  @Test
  void parseBuildsTheDescribedSystems() {
    assertThat(Topologies.parse("canonical:p=4,a=8,h=4").nodeCount()).isEqualTo(1056);
    assertThat(Topologies.parse("aries:groups=9").nodeCount()).isEqualTo(3456);
    assertThat(Topologies.parse("theta").nodeCount()).isEqualTo(3456);
    assertThat(Topologies.parse("edison").nodeCount()).isEqualTo(5760);
    Dragonfly relative = Topologies.parse("canonical:p=1,a=4,h=2,g=5,arrangement=relative");
    assertThat(relative.groupCount()).isEqualTo(5);
    assertThat(relative.linksPerPair()).isEqualTo(2);
  }

  static void assertLinksSymmetric(Dragonfly t) {
    for (int r = 0; r < t.routerCount(); r++) {
      for (int p = 0; p < t.portCount(); p++) {
        int n = t.neighborRouter(r, p);
        if (n < 0) {
          continue;
        }
        int np = t.neighborPort(r, p);
        if (t.neighborRouter(n, np) != r || t.neighborPort(n, np) != p) {
          throw new AssertionError("link " + r + ":" + p + " -> " + n + ":" + np + " does not lead back");
        }
        if (t.linkClass(n, np) != t.linkClass(r, p)) {
          throw new AssertionError("link " + r + ":" + p + " has different classes at its ends");
        }
      }
    }
  }

  /** An Aries layout setting on a canonical builder used to build 180 routers described as a = 4 (36). */
  @Test
  void ariesLayoutSettingsAreRefusedOnACanonicalBuilder() {
    assertThatThrownBy(() -> Dragonfly.canonicalBuilder(2, 4, 2).rows(5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("rows is a setting of the Aries layout").hasMessageEndingWith("but was given rows 5");
    assertThatThrownBy(() -> Dragonfly.canonicalBuilder(2, 4, 2).rank2Links(2))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("rank2Links is a setting of the Aries");
    assertThat(Dragonfly.ariesBuilder(1).rows(2).build().routersPerGroup()).isEqualTo(2 * 16);
  }
}
