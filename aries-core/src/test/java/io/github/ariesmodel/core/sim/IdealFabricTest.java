package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.core.packet.Packet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

class IdealFabricTest {

  private static final double RATE = 10.2e9; // NIC peak, aries-facts §7 [S2 via S1]
  private static final long LATENCY = 500_000;

  private record Arrival(long time, Packet packet) {}

  private static List<Arrival> attachRecorders(IdealFabric fabric) {
    List<Arrival> arrivals = new ArrayList<>();
    for (int n = 0; n < fabric.nodeCount(); n++) {
      fabric.attach(n, (now, p) -> arrivals.add(new Arrival(now, p)));
    }
    return arrivals;
  }

  @Test
  void deliveryIsSerializationPlusLatencyAndBackToBackPacketsQueueAtTheSource() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    IdealFabric fabric = new IdealFabric(loop, 3, LATENCY, RATE);
    List<Arrival> arrivals = attachRecorders(fabric);
    Packet p1 = Packet.synthetic(0, 1, 1, DeliveryMode.ADAPTIVE_0, 64);
    Packet p2 = Packet.synthetic(0, 2, 2, DeliveryMode.ADAPTIVE_0, 64);
    Packet other = Packet.synthetic(1, 2, 3, DeliveryMode.ADAPTIVE_0, 64);
    loop.scheduleAt(1_000, (now, r, a) -> {
      assertThat(fabric.inject(p1)).isTrue();
      assertThat(fabric.inject(p2)).isTrue();
      assertThat(fabric.inject(other)).isTrue();
    }, null, 0);
    loop.run();
    long ser = SimTime.serializationPs(p1.wireBytes(), RATE);
    assertThat(arrivals).containsExactly(
        new Arrival(1_000 + ser + LATENCY, p1),
        new Arrival(1_000 + ser + LATENCY, other),
        new Arrival(1_000 + 2 * ser + LATENCY, p2));
    assertThat(p2.injectedAtPs()).isEqualTo(1_000);
    assertThat(fabric.delivered()).isEqualTo(3);
  }

  /** A packet whose arrival would pass the clock's end is refused before it is marked in the fabric. */
  @Test
  void anArrivalBeyondTheClockIsRefusedAndLeavesThePacketAndTheSourceAsTheyWere() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    IdealFabric fabric = new IdealFabric(loop, 2, LATENCY, RATE);
    attachRecorders(fabric);
    Packet p = Packet.synthetic(0, 1, 1, DeliveryMode.ADAPTIVE_0, 64);
    List<Throwable> refused = new ArrayList<>();
    loop.scheduleAt(Long.MAX_VALUE - 50, (now, r, a) -> {
      try {
        fabric.inject(p);
      } catch (IllegalArgumentException e) {
        refused.add(e);
      }
    }, null, 0);
    loop.run();
    assertThat(refused).singleElement().extracting(Throwable::getMessage).asString()
        .startsWith("packet's arrival must be within the clock (Long.MAX_VALUE ps) but " + (Long.MAX_VALUE - 50));
    assertThat(p.inFabric()).isFalse();
    assertThat(loop.pending()).isZero();
  }

  /**
   * A packet injected again before its delivery is refused and nothing changes (the source's link is not taken); after
   * its delivery the same object may be injected again. The code before the check delivered it twice.
   */
  @Test
  void aPacketStillInTheFabricIsRefusedUntilItsDelivery() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    IdealFabric fabric = new IdealFabric(loop, 2, LATENCY, RATE);
    List<Arrival> arrivals = attachRecorders(fabric);
    Packet p = Packet.synthetic(0, 1, 1, DeliveryMode.ADAPTIVE_0, 64);
    assertThat(fabric.inject(p)).isTrue();
    assertThatThrownBy(() -> fabric.inject(p)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is in the fabric already");
    loop.run();
    long ser = SimTime.serializationPs(p.wireBytes(), RATE);
    assertThat(arrivals).containsExactly(new Arrival(ser + LATENCY, p));
    assertThat(p.inFabric()).isFalse();
    long again = loop.now();
    assertThat(fabric.inject(p)).isTrue();
    loop.run();
    assertThat(arrivals).hasSize(2);
    assertThat(arrivals.get(1).time()).isEqualTo(again + ser + LATENCY);
    assertThat(fabric.delivered()).isEqualTo(2);
  }

  private record Injection(long time, int source, int destination) {}

  @Test
  void eachSourcesPacketsArriveInInjectionOrderAtTheComputedTimes() {
    Gen<Injection> injections = longs().between(0, 50_000).zip(integers().between(0, 3), integers().between(0, 3),
        Injection::new);
    qt().withExamples(500).forAll(lists().of(injections).ofSizeBetween(0, 80), integers().between(0, 64))
        .checkAssert((list, bytes) -> {
          DeterministicEventLoop loop = new DeterministicEventLoop();
          IdealFabric fabric = new IdealFabric(loop, 4, LATENCY, RATE);
          List<Arrival> arrivals = attachRecorders(fabric);
          Map<Packet, Long> expectedArrival = new HashMap<>();
          long[] freeAt = new long[4];
          List<List<Packet>> injectedBySource = new ArrayList<>();
          for (int s = 0; s < 4; s++) {
            injectedBySource.add(new ArrayList<>());
          }
          List<Injection> sorted = new ArrayList<>(list);
          sorted.sort((x, y) -> Long.compare(x.time(), y.time()));
          for (int i = 0; i < sorted.size(); i++) {
            Injection inj = sorted.get(i);
            Packet p = Packet.synthetic(inj.source(), inj.destination(), i, DeliveryMode.IN_ORDER, bytes);
            long ser = SimTime.serializationPs(p.wireBytes(), RATE);
            long start = Math.max(inj.time(), freeAt[inj.source()]);
            freeAt[inj.source()] = start + ser;
            expectedArrival.put(p, start + ser + LATENCY);
            injectedBySource.get(inj.source()).add(p);
            loop.scheduleAt(inj.time(), (now, ref, arg) -> fabric.inject((Packet) ref), p, 0);
          }
          loop.run();
          assertThat(arrivals).hasSize(sorted.size());
          for (Arrival a : arrivals) {
            assertThat(a.time()).isEqualTo(expectedArrival.get(a.packet()));
          }
          for (int s = 0; s < 4; s++) {
            int src = s;
            assertThat(arrivals.stream().map(Arrival::packet).filter(p -> p.sourceNode() == src))
                .containsExactlyElementsOf(injectedBySource.get(s));
          }
        });
  }

  @Test
  void callerMistakesAreRejected() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    IdealFabric fabric = new IdealFabric(loop, 2, 0, Double.POSITIVE_INFINITY);
    fabric.attach(0, (now, p) -> {});
    assertThatThrownBy(() -> fabric.attach(0, (now, p) -> {}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("node 0 is already attached");
    assertThatThrownBy(() -> fabric.attach(2, (now, p) -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodeId must be in [0, 1] but was 2");
    assertThatThrownBy(() -> fabric.inject(Packet.synthetic(0, 5, 0, DeliveryMode.ADAPTIVE_0, 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("packet.destinationNode must be in [0, 1] but was 5");
    assertThatThrownBy(() -> new IdealFabric(loop, 0, 0, 1))
        .hasMessageContaining("nodeCount must be in [1, 262144] but was 0");
    assertThatThrownBy(() -> new IdealFabric(loop, 1, 0, 0))
        .hasMessage("injectionBytesPerSecond must be in [84000, 1e12] bytes/s or Infinity (no serialization time)"
            + " but was 0.0");
    assertThatThrownBy(() -> new IdealFabric(loop, 1, 0, Double.MIN_VALUE))
        .hasMessageEndingWith("but was " + Double.MIN_VALUE);
    assertThatThrownBy(() -> new IdealFabric(loop, 1, Long.MAX_VALUE, Double.POSITIVE_INFINITY))
        .hasMessage("latencyPs must be in [0, 1e9] ps (1 ms) but was " + Long.MAX_VALUE);
    // A packet for a node with no NIC is found at delivery time.
    fabric.inject(Packet.synthetic(0, 1, 0, DeliveryMode.ADAPTIVE_0, 0));
    assertThatThrownBy(loop::run)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("node 1 which has no endpoint attached");
  }
}
