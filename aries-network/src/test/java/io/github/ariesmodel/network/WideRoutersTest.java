package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.network.spi.Candidates;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficResult;
import org.junit.jupiter.api.Test;

/**
 * Routers whose minimal and non-minimal ports together number more than {@link Candidates#CAPACITY}: UGAL's source
 * decision offers them all, and stopped the run with "candidates must number at most 64" until the fabric sized its
 * candidate sets from the topology.
 */
class WideRoutersTest {

  /** A UGAL run drained to the end; {@code global} names the topology's class of links between groups. */
  private static void ugal(io.github.ariesmodel.network.spi.Topology t, String global) {
    assertThat(Candidates.capacityFor(t)).as("the routers are wide").isGreaterThan(Candidates.CAPACITY);
    TrafficResult r = TrafficExperiment.on(t).routing("ugal").load(0.3).seed(1).warmupPs(200_000).measurePs(1_000_000)
        .drain().run();
    // every packet arrives, once, and the network is left empty
    assertThat(r.drained()).isTrue();
    assertThat(r.duplicates()).isZero();
    assertThat(r.delivered()).isEqualTo(r.generated()).isPositive();
    assertThat(r.unfinishedPackets()).isZero();
    // the wide routers' global ports carry the packets between the groups
    assertThat(r.linkUtilization().get(global)).isPositive();
  }

  @Test
  void ugalRunsOnACanonicalDragonflyWithThirtyThreeGlobalPortsARouter() {
    for (int h : new int[] {33, 40}) {
      Dragonfly t = Dragonfly.canonicalBuilder(1, 2, h).groups(2).build();
      ugal(t, "global");
    }
  }

  @Test
  void ugalRunsOnACabledSystemWithThirtyNineGlobalPortsARouter() {
    ugal(Topologies.parseTopology("cabled:aries:groups=2,rows=1,cols=2,h=39"), "rank-3");
  }

  @Test
  void narrowRoutersKeepTheDefaultCapacity() {
    assertThat(Candidates.capacityFor(Topologies.canonicalSmall())).isEqualTo(Candidates.CAPACITY);
    assertThat(Candidates.capacityFor(Topologies.aries(9))).isEqualTo(2 * 40); // 15 rank-1, 15 rank-2, 10 rank-3
    assertThat(Candidates.capacityFor(Dragonfly.canonicalBuilder(1, 2, 33).groups(2).build())).isEqualTo(2 * 34);
    assertThat(new Candidates().capacity()).isEqualTo(Candidates.CAPACITY);
  }
}
