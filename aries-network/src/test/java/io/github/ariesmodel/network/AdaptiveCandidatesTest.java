package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.network.spi.Candidates;
import io.github.ariesmodel.network.spi.RouterView;
import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.spi.Topology;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which non-minimal candidates Aries adaptive routing offers at the source router (the route tables' choices). */
class AdaptiveCandidatesTest {

  /** A quiet router: full credits, empty queues, a packet at its source. */
  private static final class QuietView implements RouterView {
    final Topology t;
    int router;

    QuietView(Topology t) {
      this.t = t;
    }

    @Override
    public int router() {
      return router;
    }

    @Override
    public int group() {
      return t.groupOfRouter(router);
    }

    @Override
    public Topology topology() {
      return t;
    }

    @Override
    public int vcCount() {
      return 8;
    }

    @Override
    public int vcBufferBytes() {
      return 2048;
    }

    @Override
    public long now() {
      return 0;
    }

    @Override
    public int congestion(int port) {
      return 0;
    }

    @Override
    public int credits(int port, int vc) {
      return 2048;
    }

    @Override
    public int queuedBytes(int port) {
      return 0;
    }

    @Override
    public int intermediate() {
      return -1;
    }

    @Override
    public boolean nonMinimal() {
      return false;
    }
  }

  /** Routes many packets from {@code srcNode} to {@code dstNode}; returns the non-minimal candidates' intermediates. */
  private static Set<Integer> detours(Topology t, int srcNode, int dstNode, int expectedLinkClass) {
    RoutingAlgorithm alg = Routings.create("adaptive0", t, 3);
    QuietView view = new QuietView(t);
    view.router = t.routerOfNode(srcNode);
    int dest = t.routerOfNode(dstNode);
    Candidates c = new Candidates();
    Set<Integer> intermediates = new HashSet<>();
    for (int i = 0; i < 400; i++) {
      c.clear();
      alg.route(Packet.synthetic(srcNode, dstNode, i, DeliveryMode.ADAPTIVE_0, 64), view, c);
      int nonMinimal = 0;
      for (int k = 0; k < c.size(); k++) {
        int inter = c.intermediate(k);
        if (inter < 0) {
          continue;
        }
        nonMinimal++;
        assertThat(inter).as("the intermediate is the router beyond the candidate's port")
            .isEqualTo(t.neighborRouter(view.router, c.port(k)));
        assertThat(inter).isNotEqualTo(dest);
        if (expectedLinkClass >= 0) {
          assertThat(t.linkClass(view.router, c.port(k))).as("the minimal hop's colour").isEqualTo(expectedLinkClass);
        }
        assertThat(t.minimalHops(inter, dest)).as("from the intermediate on, the route is minimal")
            .isGreaterThanOrEqualTo(t.minimalHops(view.router, dest));
        intermediates.add(inter);
      }
      assertThat(nonMinimal).as("two non-minimal candidates").isEqualTo(2);
      // a quiet network: every load is 0, so the minimal candidate wins the tie
      assertThat(c.intermediate(alg.select(Packet.synthetic(srcNode, dstNode, i, DeliveryMode.ADAPTIVE_0, 64), view,
          c))).isEqualTo(-1);
    }
    return intermediates;
  }

  @Test
  void aRank1PairDetoursThroughAnotherRouterOfItsChassisTwoHopsInAll() {
    Dragonfly t = Dragonfly.aries(1); // 6 rows x 16 columns
    int p = t.nodesPerRouter();
    Set<Integer> inters = detours(t, 0, p, 0); // router 0 -> router 1: one rank-1 hop
    for (int inter : inters) {
      assertThat(inter / 16).as("same row (chassis)").isZero();
      assertThat(t.minimalHops(inter, 1)).isEqualTo(1);
    }
    assertThat(inters).as("the row's other 14 routers are all used").hasSize(14);
  }

  @Test
  void aRank2PairDetoursThroughAnotherRouterOfItsColumn() {
    Dragonfly t = Dragonfly.aries(1);
    int p = t.nodesPerRouter();
    Set<Integer> inters = detours(t, 0, 16 * p, 1); // router 0 -> router 16: one rank-2 hop
    for (int inter : inters) {
      assertThat(inter % 16).as("same column (slot)").isZero();
    }
    assertThat(inters).hasSize(4); // the column's 6 routers less the two ends
  }

  @Test
  void aPairTwoLocalHopsApartDetoursOverAnyLocalPort() {
    Dragonfly t = Dragonfly.aries(1);
    int p = t.nodesPerRouter();
    Set<Integer> inters = detours(t, 0, 17 * p, -1); // router 0 -> router 17: another row and column
    Set<Integer> classes = new HashSet<>();
    for (int inter : inters) {
      classes.add(inter / 16 == 0 ? 0 : 1);
    }
    assertThat(classes).containsExactlyInAnyOrder(0, 1);
  }

  @Test
  void aTwoGroupSystemOffersNonMinimalCandidatesBetweenItsGroups() {
    Dragonfly t = Dragonfly.ariesBuilder(2).build();
    RoutingAlgorithm alg = Routings.create("adaptive0", t, 3);
    QuietView view = new QuietView(t);
    int srcNode = 0;
    int dstNode = t.routersPerGroup() * t.nodesPerRouter();
    Candidates c = new Candidates();
    Set<Integer> groups = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      c.clear();
      alg.route(Packet.synthetic(srcNode, dstNode, i, DeliveryMode.ADAPTIVE_0, 64), view, c);
      for (int k = 0; k < c.size(); k++) {
        if (c.intermediate(k) >= 0) {
          int inter = c.intermediate(k);
          assertThat(inter).isNotIn(0, t.routerOfNode(dstNode));
          groups.add(t.groupOfRouter(inter));
        }
      }
    }
    assertThat(groups).as("intermediates in the source group and in the destination group").containsExactlyInAnyOrder(0, 1);
  }
}
