package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficResult;
import org.junit.jupiter.api.Test;

/**
 * Link failures that lengthen the routes inside a group: a system stays routable only while its minimal routes fit the
 * fabric's most virtual channels, and a run whose minimal routes need more VCs than it has is refused with advice that
 * can be followed (it used to suggest --routing minimal to a user who had chosen it).
 */
class RoutableFailuresTest {

  private static final String ONE_GROUP = "cabled:aries:groups=1+failed=random:650:green+failed=random:650:black";

  @Test
  void minimalNeedingMoreVcsThanTheFabricHasIsRefusedWithoutSuggestingMinimal() {
    Topology t = Topologies.parseTopology(ONE_GROUP);
    assertThat(t.maxLocalHops()).isGreaterThan(8);
    assertThatThrownBy(() -> TrafficExperiment.on(t).routing("minimal").run())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("vcs (8) must be at least the " + t.maxLocalHops()
            + " virtual channels routing minimal needs on ")
        .hasMessageContaining("so every routing needs at least " + t.maxLocalHops() + " VCs; raise vcs"
            + " (RouterFabric.Builder.vcs, at most 16; the command line keeps Aries' 8)")
        .hasMessageNotContaining("such as minimal");
    // the advice can be followed: with enough VCs minimal delivers everything
    TrafficResult r = TrafficExperiment.on(t).routing("minimal").fabric(f -> f.vcs(16)).load(0.1).seed(2)
        .warmupPs(50_000).measurePs(150_000).drain().run();
    assertThat(r.drained()).isTrue();
    assertThat(r.duplicates()).isZero();
  }

  /** Minimal routes of several groups take L + 1 + L hops: L at most 7 fits 16 VCs. */
  @Test
  void randomFailuresKeepMinimalRoutesWithinSixteenVcs() {
    // these picks used to leave routers 14 hops apart, minimal routes of 29 hops that no fabric could run
    CabledDragonfly t = (CabledDragonfly) Topologies.parseTopology(
        "cabled:aries:groups=2+failed=random:1300:green+failed=random:1300:black");
    assertThat(t.failedLinkCount()).isEqualTo(2_600);
    assertThat(t.maxLocalHops()).isBetween(3, 7);
    assertThat(LinkFailures.maxLocalHops(2)).isEqualTo(7);
    assertThat(LinkFailures.maxLocalHops(1)).isEqualTo(16);
  }

  @Test
  void moreRandomFailuresThanCanGoWhileMinimalRoutesFitAreRefusedNamingTheBound() {
    // a group of 96 routers stays connected down to 95 of its 1,440 local links, but not within 16 hops
    assertThatThrownBy(() -> Topologies.parseTopology("cabled:aries:groups=1+failed=random:1345"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("links can fail in this spec's random order (seed 1) without cutting a group apart or"
            + " taking two of its routers more than 16 hops apart, but N was 1345");
  }

  /** It said "N must be a whole number of links, at least 1, but was 99999999999", which it is. */
  @Test
  void aCountTooLargeIsRefusedAsMoreThanTheLinksNotAsNoWholeNumber() {
    assertThatThrownBy(() -> Topologies.parseTopology("edison-cabled+failed=random:99999999999"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed links random:99999999999: N must be at most the 24120 links cabled now but was"
            + " 99999999999");
    String beyondLong = "9".repeat(30);
    assertThatThrownBy(() -> Topologies.parseTopology("edison-cabled+failed=random:" + beyondLong + ":blue"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith("N must be at most the 2520 blue links cabled now but was " + beyondLong);
    assertThatThrownBy(() -> Topologies.parseTopology("edison-cabled+failed=random:2x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed links random:2x: N must be a whole number of links, at least 1, but was \"2x\"");
  }
}
