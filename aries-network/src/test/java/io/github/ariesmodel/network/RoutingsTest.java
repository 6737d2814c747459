package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.DeliveryMode;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoutingsTest {

  @Test
  void everyNameHasAOneLineDescriptionForHelpTexts() {
    Map<String, String> d = Routings.descriptions();
    assertThat(d.keySet()).startsWith(Routings.builtInNames().toArray(new String[0]));
    assertThat(d).containsKey(Routings.BY_DELIVERY_MODE);
    assertThat(d.keySet()).containsAll(Routings.names());
    assertThat(d.values()).allSatisfy(text -> assertThat(text).isNotBlank().doesNotContain("\n"));
    assertThat(Routings.builtInNames()).containsExactly(
        "minimal", "in-order", "valiant", "nmin-hash", "ugal", "adaptive0", "adaptive1", "adaptive2", "adaptive3");
  }

  @Test
  void everyDeliveryModeMapsToABuiltInName() {
    for (DeliveryMode m : DeliveryMode.values()) {
      assertThat(Routings.builtInNames()).contains(Routings.nameFor(m));
    }
  }

  @Test
  void namesAreCaseInsensitiveAndMinHashIsAnAlias() {
    assertThat(Routings.create(" UGAL ", Topologies.canonicalSmall(), 1).virtualChannelsNeeded()).isEqualTo(5);
    assertThat(Routings.create("min-hash", Topologies.canonicalSmall(), 1).virtualChannelsNeeded()).isEqualTo(3);
  }

  @Test
  void byDeliveryModeIsExplainedRatherThanUnknown() {
    assertThatThrownBy(() -> Routings.create("by-delivery-mode", Topologies.canonicalSmall(), 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("routingByDeliveryMode()");
    assertThatThrownBy(() -> Routings.create("teleport", Topologies.canonicalSmall(), 1))
        .hasMessageContaining("routing must be one of [minimal, in-order").hasMessageContaining("but was \"teleport\"");
  }

  /** A routing made for a canonical dragonfly ran on an Aries one and failed with "/ by zero". */
  @Test
  void aRoutingInstanceMadeForAnotherTopologyIsRefusedAtBuild() {
    io.github.ariesmodel.network.spi.RoutingAlgorithm other = Routings.create("minimal", Dragonfly.canonical(2, 4, 2), 1);
    assertThatThrownBy(() -> io.github.ariesmodel.network.traffic.TrafficExperiment.on(Topologies.ariesSmall())
        .routing(other).run())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("routing BuiltInRouting was made for canonical dragonfly p=2 a=4 h=2 g=9")
        .hasMessageContaining(", not for this fabric's topology aries dragonfly")
        .hasMessageEndingWith(": make the instance for the topology it routes (Routings.create(name, topology, seed)),"
            + " or give the routing's name or a RoutingProvider");
    // the same topology made twice is the same topology
    assertThat(io.github.ariesmodel.network.traffic.TrafficExperiment.on(Topologies.canonicalSmall()).routing(other)
        .measurePs(100_000).run().generated()).isPositive();
    // cabled systems: the same cables
    CabledDragonfly cabled = (CabledDragonfly) Topologies.parseTopology("cabled:aries-small");
    io.github.ariesmodel.network.spi.RoutingAlgorithm onCabled = Routings.create("minimal", cabled, 1);
    assertThat(RouterFabric.sameTopology(cabled, Topologies.parseTopology("cabled:aries-small"))).isTrue();
    assertThat(onCabled.topology()).isSameAs(cabled);
  }
}
