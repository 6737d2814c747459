package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import org.junit.jupiter.api.Test;

class TrafficExperimentTest {

  private static TrafficResult run(String routing, TrafficPattern pattern, double load) {
    return TrafficExperiment.on(Topologies.canonicalSmall()).routing(routing).pattern(pattern).load(load).seed(3)
        .warmupPs(1_000_000).measurePs(2_000_000).run();
  }

  @Test
  void adversarialTrafficCollapsesMinimalRoutingButNotValiant() {
    // canonical p=2, a=4: minimal gets one global link per group for a·p = 8 nodes, about 1/8 of injection
    TrafficResult min = run("minimal", TrafficPattern.ADVERSARIAL, 0.5);
    TrafficResult val = run("valiant", TrafficPattern.ADVERSARIAL, 0.3);
    assertThat(min.acceptedLoad()).isBetween(0.08, 0.17);
    assertThat(min.minimalFraction()).isEqualTo(1.0);
    assertThat(val.acceptedLoad()).isGreaterThan(0.27);
    assertThat(val.minimalFraction()).isLessThan(0.1);
  }

  /** With one group there is no next group: adversarial traffic is refused, where it ran uniform under its name. */
  @Test
  void adversarialTrafficNeedsTwoGroups() {
    assertThatThrownBy(() -> TrafficExperiment.on(Topologies.parse("aries:groups=1")).pattern(TrafficPattern.ADVERSARIAL))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pattern adversarial sends each group's nodes to the next group and needs at least 2 groups, but"
            + " the topology has 1; choose another pattern");
    // with two groups it runs, and is adversarial: under minimal routing every packet crosses a global link, where
    // uniform traffic sends about half of them within their group
    TrafficExperiment.Builder two = TrafficExperiment.on(Topologies.parse("aries:groups=2")).routing("minimal")
        .load(0.1).seed(3).warmupPs(100_000).measurePs(300_000).drain();
    TrafficResult adversarial = two.pattern(TrafficPattern.ADVERSARIAL).run();
    TrafficResult uniform = two.pattern(TrafficPattern.UNIFORM).run();
    assertThat(adversarial.drained()).isTrue();
    assertThat(adversarial.delivered()).isEqualTo(adversarial.generated()).isPositive();
    // (Aries names its global links' class rank-3)
    assertThat(adversarial.linkUtilization().get("rank-3"))
        .isGreaterThan(1.5 * uniform.linkUtilization().get("rank-3"));
  }

  /** Sources generate on slot boundaries: a 1 ps window reported an offered load of 9333.33. */
  @Test
  void aMeasureWindowShorterThanOnePacketSlotIsRefusedNamingTheSlot() {
    // canonical-small: 84 wire bytes at 5.25 GB/s, 16 ns a slot
    assertThatThrownBy(() -> TrafficExperiment.on(Topologies.canonicalSmall()).measurePs(1).run())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("measurePs must be at least one packet slot, 16000 ps here (84 wire bytes at the topology's"
            + " injection rate), but was 1");
    assertThatThrownBy(() -> TrafficExperiment.on(Topologies.canonicalSmall()).measurePs(15_999).run())
        .isInstanceOf(IllegalArgumentException.class).hasMessageEndingWith("but was 15999");
    TrafficResult r = TrafficExperiment.on(Topologies.canonicalSmall()).load(1).warmupPs(0).measurePs(16_000).run();
    assertThat(r.offeredLoad()).isBetween(0.0, 2.0);
  }

  /**
   * The slot callers check a window against before they build a run (the CLI's run traffic, in ns) is the one the run
   * refuses a window by: a window one picosecond shorter than it is refused, one as long runs.
   */
  @Test
  void theSlotCallersCheckAgainstIsTheOneTheRunRefusesBy() {
    assertThat(TrafficExperiment.slotPs(Topologies.canonicalSmall())).isEqualTo(16_000.0);
    for (String spec : new String[] {"canonical-small", "aries-small", "canonical:p=2,a=4,h=2,g=3"}) {
      var topology = Topologies.parseTopology(spec);
      long slot = (long) Math.ceil(TrafficExperiment.slotPs(topology));
      assertThatThrownBy(() -> TrafficExperiment.on(topology).measurePs(slot - 1).run()).as(spec)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("measurePs must be at least one packet slot, " + slot + " ps here");
      TrafficResult r = TrafficExperiment.on(topology).load(0.1).warmupPs(0).measurePs(slot).extraPs(0).run();
      assertThat(r.offeredLoad()).as(spec).isBetween(0.0, 2.0);
    }
    assertThat(TrafficExperiment.slotPs(Topologies.parseTopology("aries-small"))).as("not whole")
        .isNotEqualTo(Math.rint(TrafficExperiment.slotPs(Topologies.parseTopology("aries-small"))));
  }

  @Test
  void aSaturatedLinkClassIsBusyAtMostTheWholeWindow() {
    // Valiant at full uniform load keeps the global links busy all the time: a serialization that starts before the
    // window's end used to count whole, and global utilization came out at 1.0004 (stop 32, a plot refused it).
    TrafficResult r = TrafficExperiment.on(Topologies.canonicalSmall()).routing("valiant")
        .pattern(TrafficPattern.UNIFORM).load(1).seed(1).warmupPs(2_000_000).measurePs(5_000_000).run();
    assertThat(r.linkUtilization().get("global")).isBetween(0.99, 1.0);
    assertThat(r.linkUtilization().values()).allSatisfy(u -> assertThat(u).isBetween(0.0, 1.0));
  }

  @Test
  void lightUniformLoadIsAcceptedAndStatisticsAreConsistent() {
    TrafficResult r = run("minimal", TrafficPattern.UNIFORM, 0.2);
    assertThat(r.acceptedLoad()).isCloseTo(r.offeredLoad(), org.assertj.core.data.Offset.offset(0.03));
    assertThat(r.unfinishedPackets()).isZero();
    assertThat(r.latencyP50Ns()).isLessThanOrEqualTo(r.latencyP99Ns());
    assertThat(r.latencyP99Ns()).isLessThanOrEqualTo(r.latencyMaxNs());
    assertThat(r.meanHops()).isBetween(1.0, 3.0);
    assertThat(r.maxHops()).isLessThanOrEqualTo(3);
    assertThat(r.linkUtilization()).containsKeys("local", "global");
    assertThat(r.vcOccupancyBytes()[0]).isPositive();
    assertThat(r.vcOccupancyBytes()[7]).isZero();
  }

  @Test
  void sourcesReuseDeliveredPacketsAndResultsDoNotDependOnIt() {
    TrafficExperiment e = TrafficExperiment.on(Topologies.canonicalSmall()).routing("ugal")
        .pattern(TrafficPattern.UNIFORM).load(0.5).seed(3).warmupPs(1_000_000).measurePs(4_000_000).build();
    assertThat(e.packetsMade()).isEqualTo(-1);
    TrafficResult r = e.run();
    // a packet is made only while the pools fill up: at most what was in flight at once, far below what was generated
    assertThat(r.generated()).isGreaterThan(10_000);
    assertThat(e.packetsMade()).isPositive().isLessThan(r.generated() / 4);
    // a second run (its own pools) gives the same result; the golden runs compare with the build before the pools
    TrafficResult again = e.run();
    assertThat(again).usingRecursiveComparison().ignoringFields("wallSeconds").isEqualTo(r);
    assertThat(again.latencyMaxNs()).isPositive();
  }

  @Test
  void everyPatternDelivers() {
    for (TrafficPattern p : TrafficPattern.values()) {
      TrafficResult r = TrafficExperiment.on(Topologies.ariesSmall()).routing("adaptive2").pattern(p).load(0.1)
          .warmupPs(100_000).measurePs(300_000).drain().run();
      assertThat(r.drained()).as(p.id()).isTrue();
      assertThat(r.generated()).as(p.id()).isPositive();
    }
    assertThat(TrafficPattern.parse("all-to-all")).isEqualTo(TrafficPattern.ALL_TO_ALL);
    assertThatThrownBy(() -> TrafficPattern.parse("tornado")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tornado");
    assertThatThrownBy(() -> TrafficExperiment.on(Topologies.ariesSmall()).load(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("load must be in [1.0E-4, 2] but was 0.0");
    // a load whose gaps between packets overflow the clock (the CLI once let 1e-300 through to the event loop)
    assertThatThrownBy(() -> TrafficExperiment.on(Topologies.ariesSmall()).load(1e-300))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("but was 1.0E-300");
    // spans whose sum overflowed the clock's bookkeeping (an ArithmeticException in run)
    assertThatThrownBy(() -> TrafficExperiment.on(Topologies.ariesSmall()).warmupPs(Long.MAX_VALUE))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("warmupPs must be in [0, ");
    assertThatThrownBy(() -> TrafficExperiment.on(Topologies.ariesSmall()).extraPs(Long.MAX_VALUE))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("extraPs must be in [0, ");
    assertThatThrownBy(() -> Dragonfly.canonicalBuilder(2, 4, 2).latencyPs(1, 1, Long.MAX_VALUE).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("link latency (class 2) must be in [0, 1e9] ps but was " + Long.MAX_VALUE);
  }

  @Test
  void aRoutingFromAProviderDrawsFromTheRunsSeedLikeOneChosenByName() {
    io.github.ariesmodel.network.spi.RoutingProvider ugal = new io.github.ariesmodel.network.spi.RoutingProvider() {
      @Override
      public String name() {
        return "my-ugal";
      }

      @Override
      public io.github.ariesmodel.network.spi.RoutingAlgorithm create(
          io.github.ariesmodel.network.spi.Topology topology, long seed) {
        return Routings.create("ugal", topology, seed);
      }
    };
    TrafficExperiment.Builder base = TrafficExperiment.on(Topologies.ariesSmall()).load(0.6).seed(21)
        .warmupPs(100_000).measurePs(400_000);
    TrafficResult byName = base.routing("ugal").run();
    TrafficResult byProvider = base.routing(ugal).run();
    assertThat(byProvider.events()).isEqualTo(byName.events());
    assertThat(byProvider.minimalFraction()).isEqualTo(byName.minimalFraction()).isLessThan(1.0);
    assertThat(byProvider.latencyMeanNs()).isEqualTo(byName.latencyMeanNs());
  }
}
