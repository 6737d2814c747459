package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Link and injection rates stay inside [{@link RouterFabric#MIN_BANDWIDTH}, {@link RouterFabric#MAX_BANDWIDTH}]
 * (a fuzz run of the library's API: 10^13 B/s ran the JVM out of memory, 10^-300 B/s gave NaN results), and the
 * model works at both ends of the range.
 */
class BandwidthBoundsTest {

  @Test
  void ratesOutsideWhatTheClockTimesAreRefusedNamingTheRateTheRangeAndTheValue() {
    Dragonfly.Builder b = Dragonfly.canonicalBuilder(2, 4, 2);
    assertThatThrownBy(() -> b.bandwidth(5.25e9, 1e13, 5.25e9)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("rank2 must be in [84000, 1e12] bytes/s but was 1.0E13");
    assertThatThrownBy(() -> b.bandwidth(1e-300, 5.25e9, 5.25e9)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("rank1 must be in [84000, 1e12] bytes/s but was 1.0E-300");
    assertThatThrownBy(() -> b.bandwidth(5.25e9, 5.25e9, Double.NaN)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("global must be in [84000, 1e12] bytes/s but was NaN");
    assertThatThrownBy(() -> b.injectionBandwidth(Double.POSITIVE_INFINITY))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("injectionBandwidth must be in [84000, 1e12] bytes/s but was Infinity");
    assertThatThrownBy(() -> b.uniformBandwidth(83_999.9)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("uniformBandwidth must be in [84000, 1e12] bytes/s but was 83999.9");
    assertThatThrownBy(() -> b.uniformBandwidth(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith("but was 0.0");
    // the failed calls changed nothing
    Dragonfly t = b.build();
    assertThat(t.linkBandwidth(0)).isEqualTo(5.25e9);
    assertThat(t.linkBandwidth(1)).isEqualTo(5.25e9);
    assertThat(t.linkBandwidth(2)).isEqualTo(5.25e9);
    assertThat(t.injectionBandwidth()).isEqualTo(5.25e9);
    // the bounds themselves are rates
    Dragonfly edges = Dragonfly.ariesBuilder(1).bandwidth(RouterFabric.MIN_BANDWIDTH, RouterFabric.MAX_BANDWIDTH,
        RouterFabric.MAX_BANDWIDTH).injectionBandwidth(RouterFabric.MIN_BANDWIDTH).build();
    assertThat(edges.linkBandwidth(0)).isEqualTo(84_000);
    assertThat(edges.linkBandwidth(1)).isEqualTo(1e12);
    // a topology spec names the option its user typed
    assertThatThrownBy(() -> Topologies.parse("canonical:p=2,a=4,h=2,bw=1e13"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("topology option bw must be in [84000, 1e12] bytes/s but was 1.0E13");
  }

  @Test
  void aTopologyOfAUsersWithARateLatencyOrPortOutsideTheBoundsIsRefusedByTheFabric() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    Topology fast = new DelegatingTopology(Topologies.canonicalSmall()) {
      @Override
      public double linkBandwidth(int linkClass) {
        return linkClass == 2 ? 1e13 : super.linkBandwidth(linkClass);
      }
    };
    assertThatThrownBy(() -> RouterFabric.builder(fast, loop).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("topology linkBandwidth(2) must be in [84000, 1e12] bytes/s but was 1.0E13");
    Topology slow = new DelegatingTopology(Topologies.canonicalSmall()) {
      @Override
      public double injectionBandwidth() {
        return 1e-300;
      }
    };
    assertThatThrownBy(() -> RouterFabric.builder(slow, loop).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("topology injectionBandwidth() must be in [84000, 1e12] bytes/s but was 1.0E-300");
    Topology late = new DelegatingTopology(Topologies.canonicalSmall()) {
      @Override
      public long linkLatencyPs(int linkClass) {
        return Long.MAX_VALUE;
      }
    };
    assertThatThrownBy(() -> RouterFabric.builder(late, loop).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("topology linkLatencyPs(0) must be in [0, 1e9] ps but was " + Long.MAX_VALUE);
    Topology badClass = new DelegatingTopology(Topologies.canonicalSmall()) {
      @Override
      public int linkClass(int router, int port) {
        return router == 5 && port == 1 ? 3 : super.linkClass(router, port);
      }
    };
    assertThatThrownBy(() -> RouterFabric.builder(badClass, loop).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("topology linkClass(5, 1) must be in [0, 2] but was 3");
    Topology badNeighbor = new DelegatingTopology(Topologies.canonicalSmall()) {
      @Override
      public int neighborRouter(int router, int port) {
        return router == 2 && port == 0 ? 36 : super.neighborRouter(router, port);
      }
    };
    assertThatThrownBy(() -> RouterFabric.builder(badNeighbor, loop).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("topology neighborRouter(2, 0) must be -1 or in [0, 35] but was 36");
    // the same topology with its own values builds
    assertThat(RouterFabric.builder(new DelegatingTopology(Topologies.canonicalSmall()), loop).build().nodeCount())
        .isEqualTo(72);
  }

  /** A 64-byte PUT between two nodes of one router: injection wire, pipeline, then the ejection's serialization. */
  @Test
  void aPacketAtTheFastestAndAtTheSlowestRateTakesExactlyItsSerialization() {
    double[] rates = {RouterFabric.MAX_BANDWIDTH, RouterFabric.MIN_BANDWIDTH};
    long[] serializationPs = {84, 1_000_000_000L};
    for (int i = 0; i < rates.length; i++) {
      Dragonfly t = Dragonfly.canonicalBuilder(2, 4, 2).uniformBandwidth(rates[i]).build();
      DeterministicEventLoop loop = new DeterministicEventLoop();
      RouterFabric f = RouterFabric.builder(t, loop).routing("minimal").build();
      List<Long> times = new ArrayList<>();
      for (int n = 0; n < f.nodeCount(); n++) {
        f.attach(n, new FabricEndpoint() {
          @Override
          public void deliver(long nowPs, Packet packet) {
            times.add(nowPs);
          }

          @Override
          public void injectionReady(long nowPs) {}
        });
      }
      Packet p = Packet.synthetic(0, 1, 0, DeliveryMode.MIN_HASH, 64);
      assertThat(p.wireBytes()).isEqualTo(84);
      assertThat(f.inject(p)).isTrue();
      loop.run();
      assertThat(times).as("rate %s", rates[i]).containsExactly(5_000 + 90_000 + serializationPs[i]);
      assertThat(f.quiescent()).isTrue();
    }
  }

  /**
   * At 10^12 B/s the credits, not the links, limit a node: a 2,048-byte VC buffer per credit round trip of some
   * 200 ns, about 10 GB/s. A load of 0.5 % (5 GB/s a node) is carried whole, at the latency of wires and pipelines.
   */
  @Test
  void trafficAtTheFastestRateFinishesWithSaneNumbers() {
    Dragonfly t = Dragonfly.canonicalBuilder(2, 4, 2).uniformBandwidth(RouterFabric.MAX_BANDWIDTH).build();
    TrafficResult r = TrafficExperiment.on(t).routing("adaptive0").load(0.005).seed(5).warmupPs(1_000_000)
        .measurePs(2_000_000).drain().run();
    assertThat(r.drained()).isTrue();
    assertThat(r.duplicates()).isZero();
    assertThat(r.delivered()).isEqualTo(r.generated()).isGreaterThan(5_000);
    assertThat(r.offeredLoad()).isCloseTo(0.005, offset(0.0005));
    assertThat(r.acceptedLoad()).isCloseTo(r.offeredLoad(), offset(0.0005));
    // at least the injection wire and one pipeline (95 ns), at most a few quiet hops of about 100 ns each
    assertThat(r.latencyMeanNs()).isBetween(95.0, 1_000.0);
    assertThat(r.latencyMaxNs()).isLessThan(2_000.0);
    assertThat(r.linkUtilization().values()).allSatisfy(u -> assertThat(u).isBetween(0.0, 0.05));
  }

  /** At 84,000 B/s a 64-byte PUT holds a link for 1 ms; a run of 20 ms carries a few hundred of them. */
  @Test
  void trafficAtTheSlowestRateFinishesWithSaneNumbers() {
    Dragonfly t = Dragonfly.canonicalBuilder(2, 4, 2).uniformBandwidth(RouterFabric.MIN_BANDWIDTH).build();
    TrafficResult r = TrafficExperiment.on(t).routing("adaptive0").load(0.3).seed(5).warmupPs(0)
        .measurePs(20_000_000_000L).drain().drainLimitPs(100_000_000_000L).run();
    assertThat(r.drained()).isTrue();
    assertThat(r.duplicates()).isZero();
    assertThat(r.delivered()).isEqualTo(r.generated()).isGreaterThan(200);
    assertThat(r.offeredLoad()).isCloseTo(0.3, offset(0.05));
    assertThat(r.acceptedLoad()).isCloseTo(r.offeredLoad(), offset(0.05));
    // a packet takes one serialization (1 ms: cut-through pays it once) plus wires, pipelines and queueing
    assertThat(r.latencyP50Ns()).isBetween(1_000_000.0, 2_000_000.0);
    assertThat(r.latencyMaxNs()).isLessThan(10_000_000.0);
    assertThat(r.linkUtilization().values()).allSatisfy(u -> assertThat(u).isBetween(0.1, 0.5));
  }
}
