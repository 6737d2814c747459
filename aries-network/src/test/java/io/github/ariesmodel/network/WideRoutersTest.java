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

  private static TrafficResult ugal(io.github.ariesmodel.network.spi.Topology t) {
    return TrafficExperiment.on(t).routing("ugal").load(0.3).seed(1).warmupPs(200_000).measurePs(1_000_000).run();
  }

  @Test
  void ugalRunsOnACanonicalDragonflyWithThirtyThreeGlobalPortsARouter() {
    for (int h : new int[] {33, 40}) {
      Dragonfly t = Dragonfly.canonicalBuilder(1, 2, h).groups(2).build();
      TrafficResult r = ugal(t);
      assertThat(r.unfinishedPackets()).isGreaterThanOrEqualTo(0);
      assertThat(r.acceptedLoad()).isPositive();
    }
  }

  @Test
  void ugalRunsOnACabledSystemWithThirtyNineGlobalPortsARouter() {
    TrafficResult r = ugal(Topologies.parseTopology("cabled:aries:groups=2,rows=1,cols=2,h=39"));
    assertThat(r.acceptedLoad()).isPositive();
  }

  @Test
  void narrowRoutersKeepTheDefaultCapacity() {
    assertThat(Candidates.capacityFor(Topologies.canonicalSmall())).isEqualTo(Candidates.CAPACITY);
    assertThat(Candidates.capacityFor(Topologies.aries(9))).isEqualTo(2 * 40); // 15 rank-1, 15 rank-2, 10 rank-3
    assertThat(Candidates.capacityFor(Dragonfly.canonicalBuilder(1, 2, 33).groups(2).build())).isEqualTo(2 * 34);
    assertThat(new Candidates().capacity()).isEqualTo(Candidates.CAPACITY);
  }
}
