package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.network.StuckPackets.WaitCause;
import io.github.ariesmodel.network.spi.Candidates;
import io.github.ariesmodel.network.spi.RouterView;
import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import org.junit.jupiter.api.Test;

/**
 * A drain that does not empty the network says what is stuck (issue 14): with a user's routing that deadlocks, every
 * packet left waits for a credit; with one that livelocks, the bound stops the run while packets still move.
 */
class StuckPacketsTest {

  /** One group, one row of four routers, all connected: routes go round the ring 0 → 1 → 2 → 3 → 0 on VC 0. */
  private static Dragonfly ring() {
    return Dragonfly.ariesBuilder(1).rows(1).columns(4).build();
  }

  /**
   * Always to the next router of the ring, on VC 0: the channels of the ring depend on each other in a cycle, so
   * under load with one-packet buffers every buffer fills with a packet waiting for the next (a deadlock).
   */
  private static final class RingRouting implements RoutingAlgorithm {
    private final Topology topo;
    private final boolean skipDestination;

    RingRouting(Topology topo, boolean skipDestination) {
      this.topo = topo;
      this.skipDestination = skipDestination;
    }

    @Override
    public void route(Packet packet, RouterView router, Candidates candidates) {
      int n = topo.routerCount();
      int next = (router.router() + 1) % n;
      if (skipDestination && next == topo.routerOfNode(packet.destinationNode())) {
        next = (next + 1) % n; // never arrives: a livelock
      }
      for (int p = 0; p < topo.portCount(); p++) {
        if (topo.neighborRouter(router.router(), p) == next) {
          candidates.add(p, 0);
          return;
        }
      }
      throw new IllegalStateException("no port from router " + router.router() + " to " + next);
    }
  }

  private static TrafficExperiment.Builder loaded(boolean livelock) {
    Dragonfly t = ring();
    // the deadlock needs load and one-packet buffers; the livelock light load and room, so that nothing blocks
    return TrafficExperiment.on(t).routing(new RingRouting(t, livelock)).pattern(TrafficPattern.UNIFORM)
        .load(livelock ? 0.05 : 1.0).warmupPs(20_000).measurePs(200_000).drain().drainLimitPs(2_000_000)
        .fabric(f -> f.vcBufferBytes(livelock ? 2048 : 128).maxHops(1024));
  }

  @Test
  void aDeadlockedDrainReportsPacketsWaitingForCredits() {
    TrafficResult r = loaded(false).run();
    assertThat(r.drained()).isFalse();
    StuckPackets s = r.stuck();
    assertThat(s).isNotNull();
    assertThat(s.packets()).isPositive().isEqualTo(r.generated() - r.delivered() - r.queuedAtSources());
    assertThat(s.byCause().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(s.packets());
    // a deadlock: nothing moves any more, every packet left waits for room downstream
    assertThat(s.byCause().get(WaitCause.CREDIT)).isEqualTo(s.packets());
    assertThat(s.places()).isNotEmpty();
    assertThat(s.places().get(0).packets()).isGreaterThanOrEqualTo(s.places().get(s.places().size() - 1).packets());
    assertThat(s.places().stream().mapToLong(StuckPackets.Place::packets).sum()).isLessThanOrEqualTo(s.packets());
    StuckPackets.Packet o = s.oldest();
    assertThat(o.cause()).isEqualTo(WaitCause.CREDIT);
    assertThat(o.outputPort()).isBetween(0, ring().portCount() - 1);
    assertThat(ring().neighborRouter(o.router(), o.outputPort())).isEqualTo((o.router() + 1) % 4);
    assertThat(o.injectedAtPs()).isLessThan(s.atPs());
    String packets = String.format(java.util.Locale.ROOT, "%,d", s.packets());
    assertThat(s.summary()).startsWith(packets + " packets stuck (credit " + packets + ", link 0, ejection 0,"
        + " in transit 0)").contains("oldest " + o.source() + "->" + o.destination()).endsWith("waits for credit");
  }

  @Test
  void aLivelockIsStoppedByTheBoundWithPacketsStillMoving() {
    TrafficResult r = loaded(true).run();
    assertThat(r.drained()).isFalse();
    StuckPackets s = r.stuck();
    // only packets for a node on their source's router arrive (they need no route)
    assertThat(s.packets()).isEqualTo(r.generated() - r.delivered() - r.queuedAtSources()).isPositive();
    assertThat(s.atPs()).isGreaterThan(220_000 + 1_000_000);
    // packets still travel: some on wires or in pipelines or queued behind a busy link, and the oldest has gone round
    assertThat(s.byCause().get(WaitCause.IN_TRANSIT) + s.byCause().get(WaitCause.LINK)).isPositive();
    assertThat(s.byCause().get(WaitCause.EJECTION)).isZero();
    assertThat(s.oldest().hops()).isGreaterThan(4);
    assertThat(s.summary()).contains("packets stuck (credit 0,");
  }

  /**
   * The line groups its counts' thousands as the CLI prints every count (it printed "2186 packets stuck" and "2512 ns
   * old"; until stop 73), under any locale; the numbers that name a node, tag, router, port or VC stay plain.
   */
  @Test
  void theSummaryGroupsTheThousandsOfItsCountsWhateverTheLocale() {
    java.util.Map<WaitCause, Long> byCause = new java.util.EnumMap<>(WaitCause.class);
    byCause.put(WaitCause.CREDIT, 1_750L);
    byCause.put(WaitCause.LINK, 0L);
    byCause.put(WaitCause.EJECTION, 0L);
    byCause.put(WaitCause.IN_TRANSIT, 436L);
    StuckPackets s = new StuckPackets(3_000_000, 2_186, byCause,
        java.util.List.of(new StuckPackets.Place(1203, 7, 0, 1_012)), 1_564,
        new StuckPackets.Packet(1017, 20480, 4096, 487_500, 3, 1203, 7, 0, 2, WaitCause.CREDIT));
    String expected = "2,186 packets stuck (credit 1,750, link 0, ejection 0, in transit 436) in 1,564 buffers, most"
        + " at router 1203 port 7 VC 0 (1,012); oldest 1017->20480 tag 4096, 2,512 ns old, 3 hops, at router 1203"
        + " port 7 VC 0, queued for port 2, waits for credit";
    java.util.Locale format = java.util.Locale.getDefault(java.util.Locale.Category.FORMAT);
    try {
      for (String tag : new String[] {"en-US", "de-DE", "fr-FR", "ar-EG"}) {
        java.util.Locale.setDefault(java.util.Locale.Category.FORMAT, java.util.Locale.forLanguageTag(tag));
        assertThat(s.summary()).as(tag).isEqualTo(expected);
      }
    } finally {
      java.util.Locale.setDefault(java.util.Locale.Category.FORMAT, format);
    }
  }

  /** The counts by cause iterate in the causes' declared order in every JVM (a Map.copyOf's order is the JVM's). */
  @Test
  void theCountsByCauseIterateInTheCausesOrder() {
    java.util.Map<WaitCause, Long> byCause = new java.util.LinkedHashMap<>();
    WaitCause[] causes = WaitCause.values();
    for (int i = causes.length - 1; i >= 0; i--) {
      byCause.put(causes[i], (long) i);
    }
    StuckPackets s = new StuckPackets(1, 0, byCause, java.util.List.of(), 0, null);
    assertThat(s.byCause().keySet()).containsExactly(causes);
    byCause.put(causes[0], 99L);
    assertThat(s.byCause().get(causes[0])).isZero(); // a copy
  }

  @Test
  void aDrainThatEmptiesTheNetworkReportsNothingStuck() {
    TrafficResult r = TrafficExperiment.on(ring()).routing("minimal").load(0.3).warmupPs(20_000).measurePs(100_000)
        .drain().run();
    assertThat(r.drained()).isTrue();
    assertThat(r.stuck()).isNull();
    assertThat(r.queuedAtSources()).isZero();
  }
}
