package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import org.junit.jupiter.api.Test;

class DragonflyProperties {

  @Test
  void everyLegalCanonicalDragonflyIsSymmetricAndDrainsUnderEveryRouting() {
    qt().withExamples(25)
        .forAll(integers().between(1, 3), integers().between(2, 5), integers().between(1, 3),
            integers().between(0, 1000))
        .check((p, a, h, x) -> {
          int groups = 1 + x % (a * h + 1);
          Dragonfly t = Dragonfly.canonicalBuilder(p, a, h).groups(groups)
              .arrangement(x % 2 == 0 ? GlobalArrangement.ABSOLUTE : GlobalArrangement.RELATIVE, "x").build();
          DragonflyTest.assertLinksSymmetric(t);
          if (t.nodeCount() < 2) {
            return true;
          }
          String routing = Routings.builtInNames().get(x % Routings.builtInNames().size());
          TrafficResult r = TrafficExperiment.on(t).routing(routing).pattern(TrafficPattern.UNIFORM).load(0.7)
              .seed(x).warmupPs(100_000).measurePs(300_000).drain().run();
          return r.drained() && r.delivered() == r.generated() && r.duplicates() == 0;
        });
  }

  @Test
  void sameSeedSameResult() {
    for (String routing : new String[] {"ugal", "adaptive1", "valiant"}) {
      TrafficResult a = run(routing, 5);
      TrafficResult b = run(routing, 5);
      assertThat(a.latencyMeanNs()).isEqualTo(b.latencyMeanNs());
      assertThat(a.latencyP99Ns()).isEqualTo(b.latencyP99Ns());
      assertThat(a.acceptedLoad()).isEqualTo(b.acceptedLoad());
      assertThat(a.events()).isEqualTo(b.events());
      assertThat(a.minimalFraction()).isEqualTo(b.minimalFraction());
      assertThat(a.vcOccupancyBytes()).containsExactly(b.vcOccupancyBytes());
      assertThat(run(routing, 6).events()).isNotEqualTo(a.events());
    }
  }

  private static TrafficResult run(String routing, long seed) {
    return TrafficExperiment.on(Topologies.ariesSmall()).routing(routing).load(0.4).seed(seed)
        .warmupPs(200_000).measurePs(500_000).run();
  }
}
