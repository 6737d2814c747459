package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.network.spi.DragonflyPaths;
import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficResult;
import java.io.InputStream;
import java.io.Reader;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * A null given where the fabric, a topology or a run's builder takes an object is an IllegalArgumentException naming
 * the parameter, and the call changes nothing (a fuzz run of the library's API: {@code RouterFabric.inject(null)} was
 * a bare NullPointerException, and {@code TrafficExperiment.Builder.routing((RoutingAlgorithm) null)} silently ran
 * the routing named before).
 */
class NullArgumentsTest {

  @Test
  void theFabricRefusesANullPacketAndChangesNothing() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    RouterFabric f = RouterFabric.builder(Topologies.canonicalSmall(), loop).routing("minimal").build();
    refused("packet must not be null", () -> f.inject(null));
    assertThat(f.injected()).isZero();
    assertThat(f.quiescent()).isTrue();
    refused("endpoint must not be null", () -> f.attach(0, null));
    refused("topology must not be null", () -> RouterFabric.engineLookaheadPs(null));
    refused("topology must not be null", () -> RouterFabric.crossGroupLatencyPs(null));
    // a packet is still taken after the refusals
    f.attach(0, new io.github.ariesmodel.core.spi.FabricEndpoint() {
      @Override
      public void deliver(long nowPs, Packet packet) {}

      @Override
      public void injectionReady(long nowPs) {}
    });
    assertThat(f.inject(Packet.synthetic(1, 0, 0, DeliveryMode.MIN_HASH, 64))).isTrue();
    loop.run();
    assertThat(f.delivered()).isEqualTo(1);
  }

  @Test
  void theFabricsBuilderRefusesNulls() {
    RouterFabric.Builder b = RouterFabric.builder(Topologies.canonicalSmall(), new DeterministicEventLoop());
    refused("name must not be null", () -> b.routing((String) null));
    refused("algorithm must not be null", () -> b.routing((RoutingAlgorithm) null));
    refused("provider must not be null", () -> b.routing((io.github.ariesmodel.network.spi.RoutingProvider) null));
    refused("observer must not be null", () -> b.observeDeliveries(null));
    refused("arbitration must not be null", () -> b.arbitration(null));
    refused("topology must not be null", () -> RouterFabric.builder(null, new DeterministicEventLoop()));
    // the builder still builds with the routing it had
    assertThat(b.build().routingName()).isEqualTo("adaptive0");
  }

  @Test
  void aTrafficRunsBuilderRefusesNullsAndKeepsItsRouting() {
    TrafficExperiment.Builder b = TrafficExperiment.on(Topologies.ariesSmall()).routing("minimal").load(0.1)
        .warmupPs(100_000).measurePs(200_000);
    refused("name must not be null", () -> b.routing((String) null));
    refused("algorithm must not be null", () -> b.routing((RoutingAlgorithm) null));
    refused("pattern must not be null", () -> b.pattern(null));
    refused("settings must not be null", () -> b.fabric(null));
    refused("topology must not be null", () -> TrafficExperiment.on(null));
    // still the minimal routing: no packet routed non-minimally
    TrafficResult r = b.run();
    assertThat(r.measuredPackets()).isPositive();
    assertThat(r.minimalFraction()).isEqualTo(1.0);
  }

  @Test
  void topologyBuildersAndReadersRefuseNulls() {
    Dragonfly.Builder b = Dragonfly.canonicalBuilder(2, 4, 2);
    refused("arrangement must not be null", () -> b.arrangement(null, "mine"));
    refused("name must not be null", () -> b.arrangement(GlobalArrangement.RELATIVE, null));
    assertThat(b.build().describe()).contains("(absolute)");
    refused("in must not be null", () -> CabledDragonfly.read((InputStream) null, "links.txt"));
    refused("in must not be null", () -> CabledDragonfly.read((Reader) null, "links.txt"));
    refused("links file must not be null", () -> CabledDragonfly.read((java.nio.file.Path) null));
  }

  @Test
  void specAndHashHelpersAndResultRecordsRefuseNulls() {
    refused("spec must not be null", () -> Topologies.failuresAt(null));
    refused("spec must not be null", () -> Topologies.namesCabling(null));
    assertThat(Topologies.failuresAt("edison-cabled+failed=random:1")).isEqualTo(13);
    assertThat(Topologies.namesCabling("links:x.txt")).isTrue();
    refused("packet must not be null", () -> DragonflyPaths.flowHash(null, true));
    refused("packet must not be null", () -> DragonflyPaths.packetHash(null));
    Packet p = Packet.synthetic(1, 0, 0, DeliveryMode.MIN_HASH, 64);
    assertThat(DragonflyPaths.flowHash(p, false)).isEqualTo(DragonflyPaths.flowHash(p, false)).isNotNegative();
    Map<StuckPackets.WaitCause, Long> causes = new EnumMap<>(StuckPackets.WaitCause.class);
    refused("byCause must not be null", () -> new StuckPackets(0, 0, null, List.of(), 0, null));
    refused("places must not be null", () -> new StuckPackets(0, 0, causes, null, 0, null));
    refused("places must not hold null but held one at index 0",
        () -> new StuckPackets(0, 0, causes, java.util.Arrays.asList((StuckPackets.Place) null), 0, null));
    refused("linkUtilization must not be null", () -> result(null, new double[2], List.of()));
    refused("vcOccupancyBytes must not be null", () -> result(Map.of(), null, List.of()));
    refused("busiestLinks must not be null", () -> result(Map.of(), new double[2], null));
    refused("busiestLinks must not hold null but held one at index 0",
        () -> result(Map.of(), new double[2], java.util.Arrays.asList((LinkLoad) null)));
    assertThat(result(Map.of("local", 0.5), new double[2], List.of()).linkUtilization()).containsEntry("local", 0.5);
  }

  private static TrafficResult result(Map<String, Double> util, double[] vc, List<LinkLoad> busiest) {
    return new TrafficResult(0.1, 0.1, 1, 1, 1, 1, 2, 3, 1, 10, 0, util, vc, 10, 10, 0, true, 100, 50, 20, 0.01, 0,
        null, busiest);
  }

  private static void refused(String message, ThrowingCallable call) {
    assertThatThrownBy(call).as(message).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }
}
