package org.example.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import io.github.ariesmodel.testkit.network.RoutingContract;
import org.junit.jupiter.api.Test;

/** The custom routing proves itself with the contract from aries-testkit, plus a test of its own. */
class RandomMinimalRoutingTest extends RoutingContract {

  @Override
  protected String routingName() {
    return "random-minimal";
  }

  @Test
  void routesEveryPacketMinimally() {
    TrafficResult r = TrafficExperiment.on(Topologies.canonicalSmall()).routing("random-minimal")
        .pattern(TrafficPattern.UNIFORM).load(0.3).warmupPs(200_000).measurePs(500_000).run();
    assertThat(r.minimalFraction()).isEqualTo(1.0);
    assertThat(r.maxHops()).isLessThanOrEqualTo(3);
  }
}
