package io.github.ariesmodel.network.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.network.Dragonfly;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DragonflyPathsTest {

  private static final Dragonfly ARIES3 = Dragonfly.ariesBuilder(3).rows(2).columns(4).globalPorts(2).build();

  @Test
  void anIntermediateBetweenGroupsIsInEveryThirdGroupButNeverAnEnd() {
    Dragonfly t = Dragonfly.canonical(2, 4, 2); // 9 groups of 4 routers
    DragonflyPaths paths = new DragonflyPaths(t);
    int src = t.routerInGroup(2, 1);
    int dst = t.routerInGroup(5, 3);
    Set<Integer> groups = new HashSet<>();
    Set<Integer> routers = new HashSet<>();
    for (long r = 0; r < 2_000; r++) {
      int inter = paths.chooseIntermediate(src, dst, r * 7919);
      groups.add(t.groupOfRouter(inter));
      routers.add(inter);
    }
    assertThat(groups).doesNotContain(2, 5).hasSize(7);
    assertThat(routers).hasSize(7 * 4);
  }

  @Test
  void anIntermediateInsideOneGroupIsAnotherRouterOfIt() {
    DragonflyPaths paths = new DragonflyPaths(ARIES3);
    int src = ARIES3.routerInGroup(1, 0);
    int dst = ARIES3.routerInGroup(1, 5);
    Set<Integer> seen = new HashSet<>();
    for (long r = 0; r < 500; r++) {
      seen.add(paths.chooseIntermediate(src, dst, r));
    }
    Set<Integer> expected = new HashSet<>();
    for (int i = 0; i < 8; i++) {
      if (i != 0 && i != 5) {
        expected.add(ARIES3.routerInGroup(1, i));
      }
    }
    assertThat(seen).isEqualTo(expected);
  }

  @Test
  void betweenTwoGroupsTheIntermediateIsARouterOfEitherEndGroupButNotAnEnd() {
    Dragonfly two = Dragonfly.ariesBuilder(2).rows(2).columns(3).globalPorts(1).build(); // 6 routers per group
    DragonflyPaths paths = new DragonflyPaths(two);
    int src = two.routerInGroup(0, 4);
    int dst = two.routerInGroup(1, 2);
    Set<Integer> seen = new HashSet<>();
    for (long r = 0; r < 2_000; r++) {
      seen.add(paths.chooseIntermediate(src, dst, r * 7919));
    }
    Set<Integer> expected = new HashSet<>();
    for (int i = 0; i < 6; i++) {
      if (i != 4) {
        expected.add(two.routerInGroup(0, i)); // another global link of the source group
      }
      if (i != 2) {
        expected.add(two.routerInGroup(1, i)); // another way into the destination group
      }
    }
    assertThat(seen).isEqualTo(expected);
  }

  @Test
  void thereIsNoIntermediateWithoutAnotherRouterToGoThrough() {
    Dragonfly twoGroups = Dragonfly.ariesBuilder(2).rows(1).columns(2).globalPorts(1).build();
    DragonflyPaths paths = new DragonflyPaths(twoGroups);
    assertThat(paths.chooseIntermediate(0, 1, 12345)).isEqualTo(-1); // 2 routers per group: none besides the ends
    assertThat(paths.chooseIntermediate(0, 2, 0)).isEqualTo(1); // even: the source group's other router
    assertThat(paths.chooseIntermediate(0, 2, 1)).isEqualTo(3); // odd: the destination group's other router
    assertThatThrownBy(() -> paths.chooseIntermediate(0, 2, -1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("random must be >= 0 but was -1");
  }

  @Test
  void betweenTwoGroupsAnIntermediateIsReachedOnlyAtItselfEvenInTheSourceGroup() {
    Dragonfly two = Dragonfly.ariesBuilder(2).rows(2).columns(3).globalPorts(1).build();
    DragonflyPaths paths = new DragonflyPaths(two);
    int interInSource = two.routerInGroup(0, 3);
    int dest = two.routerInGroup(1, 0);
    assertThat(paths.reached(two.routerInGroup(0, 0), interInSource, dest)).isFalse();
    assertThat(paths.reached(interInSource, interInSource, dest)).isTrue();
    int interInDest = two.routerInGroup(1, 5);
    assertThat(paths.reached(two.routerInGroup(1, 1), interInDest, dest)).isFalse();
    assertThat(paths.reached(interInDest, interInDest, dest)).isTrue();
  }

  @Test
  void anIntermediateGroupIsReachedOnEntryAnIntermediateRouterOnlyAtItself() {
    DragonflyPaths paths = new DragonflyPaths(ARIES3);
    int inter = ARIES3.routerInGroup(2, 3);
    int destOtherGroup = ARIES3.routerInGroup(0, 0);
    assertThat(paths.reached(ARIES3.routerInGroup(2, 7), inter, destOtherGroup)).isTrue();
    assertThat(paths.reached(ARIES3.routerInGroup(1, 3), inter, destOtherGroup)).isFalse();
    int destSameGroup = ARIES3.routerInGroup(2, 0);
    assertThat(paths.reached(ARIES3.routerInGroup(2, 7), inter, destSameGroup)).isFalse();
    assertThat(paths.reached(inter, inter, destSameGroup)).isTrue();
  }

  @Test
  void pathPortsSteerTowardTheIntermediateWithItsOwnHashThenTowardTheDestination() {
    DragonflyPaths paths = new DragonflyPaths(ARIES3);
    int router = ARIES3.routerInGroup(0, 0);
    int inter = ARIES3.routerInGroup(2, 0);
    int dest = ARIES3.routerInGroup(1, 0);
    int hash = 77;
    int[] got = new int[ARIES3.maxMinimalPorts()];
    int[] want = new int[ARIES3.maxMinimalPorts()];
    int n = paths.pathPorts(router, inter, dest, hash, got);
    int m = ARIES3.minimalPorts(router, inter, DragonflyPaths.intermediateLegHash(hash), want);
    assertThat(java.util.Arrays.copyOf(got, n)).containsExactly(java.util.Arrays.copyOf(want, m));
    // no intermediate, or one already reached: straight to the destination with the packet's own hash
    n = paths.pathPorts(router, -1, dest, hash, got);
    m = ARIES3.minimalPorts(router, dest, hash, want);
    assertThat(java.util.Arrays.copyOf(got, n)).containsExactly(java.util.Arrays.copyOf(want, m));
    int reachedInter = ARIES3.routerInGroup(0, 5);
    n = paths.pathPorts(router, reachedInter, dest, hash, got);
    assertThat(java.util.Arrays.copyOf(got, n)).containsExactly(java.util.Arrays.copyOf(want, m));
    assertThat(DragonflyPaths.intermediateLegHash(hash)).isNotEqualTo(hash);
  }

  @Test
  void routeHopBoundsFollowTheLocalHopCount() {
    // Aries: L = 2; canonical: L = 1
    assertThat(new DragonflyPaths(ARIES3).maxRouteHops(false)).isEqualTo(5);
    assertThat(new DragonflyPaths(ARIES3).maxRouteHops(true)).isEqualTo(8);
    Dragonfly canonical = Dragonfly.canonical(2, 4, 2);
    assertThat(new DragonflyPaths(canonical).maxRouteHops(false)).isEqualTo(3);
    assertThat(new DragonflyPaths(canonical).maxRouteHops(true)).isEqualTo(5);
    Dragonfly oneGroup = Dragonfly.ariesBuilder(1).rows(3).columns(3).build();
    assertThat(new DragonflyPaths(oneGroup).maxRouteHops(false)).isEqualTo(2);
    assertThat(new DragonflyPaths(oneGroup).maxRouteHops(true)).isEqualTo(4);
    Dragonfly twoGroups = Dragonfly.ariesBuilder(2).rows(2).columns(3).globalPorts(1).build();
    assertThat(new DragonflyPaths(twoGroups).maxRouteHops(false)).isEqualTo(5);
    assertThat(new DragonflyPaths(twoGroups).maxRouteHops(true)).isEqualTo(7); // 3L + 1: L more in an end group
  }

  @Test
  void hashesAreNonNegativeAndSpread() {
    Set<Integer> seen = new HashSet<>();
    for (long v = -500; v < 500; v++) {
      int h = DragonflyPaths.mix(v);
      assertThat(h).isNotNegative();
      seen.add(h);
    }
    assertThat(seen).hasSize(1000);
  }
}
