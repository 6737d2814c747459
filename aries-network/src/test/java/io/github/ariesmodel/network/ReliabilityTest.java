package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every built-in routing, on both small fabrics (and the small Aries one with interleaved links and
 * {@code exit=any}, whose routes take more local hops), under uniform and adversarial traffic at loads from light to 1.5
 * (at least 1.5 × the saturation load of every routing here, which is below 1.0): once injection stops the network
 * drains completely, every generated packet arrives exactly once, and every credit comes home.
 */
class ReliabilityTest {

  static final String ARIES_SMALL_ANY_EXIT = "aries:groups=3,rows=2,cols=4,h=2,arrangement=interleaved,exit=any";

  static Stream<Arguments> cases() {
    List<Arguments> list = new ArrayList<>();
    for (String routing : Routings.builtInNames()) {
      for (String topo : new String[] {"canonical-small", "aries-small", ARIES_SMALL_ANY_EXIT}) {
        for (TrafficPattern pattern : new TrafficPattern[] {TrafficPattern.UNIFORM, TrafficPattern.ADVERSARIAL}) {
          for (double load : new double[] {0.2, 0.8, 1.5}) {
            list.add(Arguments.of(routing, topo, pattern, load));
          }
        }
      }
    }
    return list.stream();
  }

  @ParameterizedTest(name = "{0} on {1}, {2} at {3}")
  @MethodSource("cases")
  void networkDrainsWithoutLossOrDuplicates(String routing, String topo, TrafficPattern pattern, double load) {
    Topology t = Topologies.parse(topo);
    TrafficResult r = TrafficExperiment.on(t).routing(routing).pattern(pattern).load(load).seed(11)
        .warmupPs(300_000).measurePs(700_000).drain().run();
    assertThat(r.generated()).isPositive();
    assertThat(r.delivered()).isEqualTo(r.generated());
    assertThat(r.duplicates()).isZero();
    assertThat(r.drained()).isTrue();
    assertThat(r.maxHops()).isLessThanOrEqualTo(8);
  }
}
