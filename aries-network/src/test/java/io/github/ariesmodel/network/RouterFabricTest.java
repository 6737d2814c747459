package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RouterFabricTest {

  private static final class Recorder implements FabricEndpoint {
    final List<Packet> packets = new ArrayList<>();
    final List<Long> times = new ArrayList<>();
    int ready;

    @Override
    public void deliver(long nowPs, Packet packet) {
      packets.add(packet);
      times.add(nowPs);
    }

    @Override
    public void injectionReady(long nowPs) {
      ready++;
    }
  }

  private static Recorder[] attachAll(RouterFabric f) {
    Recorder[] r = new Recorder[f.nodeCount()];
    for (int n = 0; n < r.length; n++) {
      r[n] = new Recorder();
      f.attach(n, r[n]);
    }
    return r;
  }

  @Test
  void aQuietHopCostsPipelinePlusWireAndSerializationIsPaidAtEjection() {
    Dragonfly t = Dragonfly.aries(1);
    DeterministicEventLoop loop = new DeterministicEventLoop();
    RouterFabric f = RouterFabric.builder(t, loop).routing("minimal").build();
    Recorder[] r = attachAll(f);
    int src = t.node(0, 0, 0, 0);
    int sameRouter = t.node(0, 0, 0, 1);
    int rank1 = t.node(0, 0, 5, 0);
    int rank2 = t.node(0, 3, 0, 0);
    long[] latency = new long[3];
    int[] dsts = {sameRouter, rank1, rank2};
    for (int i = 0; i < 3; i++) {
      long start = loop.now();
      assertThat(f.inject(Packet.synthetic(src, dsts[i], 0, DeliveryMode.MIN_HASH, 64))).isTrue();
      loop.run();
      latency[i] = r[dsts[i]].times.get(0) - start;
    }
    long ser = (long) Math.ceil(84 * 1e12 / 10.2e9);
    // injection wire + pipeline at the first router + ejection serialization
    assertThat(latency[0]).isEqualTo(5_000 + 90_000 + ser);
    // one rank-1 hop: backplane wire + pipeline; one rank-2 hop: copper wire + pipeline
    assertThat(latency[1] - latency[0]).isEqualTo(5_000 + 90_000);
    assertThat(latency[2] - latency[0]).isEqualTo(10_000 + 90_000);
    assertThat(r[rank1].packets.get(0).hops()).isEqualTo(1);
    assertThat(f.quiescent()).isTrue();
  }

  @Test
  void injectRefusesWhenTheInjectionBufferIsFullAndSignalsReadyLater() {
    Dragonfly t = Topologies.canonicalSmall();
    DeterministicEventLoop loop = new DeterministicEventLoop();
    RouterFabric f = RouterFabric.builder(t, loop).routing("minimal").injectionBufferBytes(200).build();
    Recorder[] r = attachAll(f);
    assertThat(f.inject(Packet.synthetic(0, 10, 1, DeliveryMode.ADAPTIVE_0, 64))).isTrue();
    assertThat(f.inject(Packet.synthetic(0, 10, 2, DeliveryMode.ADAPTIVE_0, 64))).isTrue();
    assertThat(f.inject(Packet.synthetic(0, 10, 3, DeliveryMode.ADAPTIVE_0, 64))).isFalse();
    loop.run();
    assertThat(r[0].ready).isEqualTo(1);
    assertThat(r[10].packets).extracting(Packet::tag).containsExactly(1, 2);
  }

  @Test
  void inOrderRoutingDeliversAFlowInOrder() {
    Dragonfly t = Topologies.ariesSmall();
    DeterministicEventLoop loop = new DeterministicEventLoop();
    RouterFabric f = RouterFabric.builder(t, loop).routing("in-order").build();
    Recorder[] r = attachAll(f);
    int dst = t.nodeCount() - 1;
    int sent = 0;
    for (int i = 0; i < 200; i++) {
      // background traffic from other nodes so queues differ between packets
      f.inject(Packet.synthetic(1 + i % 20, 40 + i % 30, 10_000 + i, DeliveryMode.ADAPTIVE_0, 64));
      if (f.inject(Packet.synthetic(0, dst, sent, DeliveryMode.IN_ORDER, 64))) {
        sent++;
      }
      loop.runUntil(loop.now() + 10_000);
    }
    loop.run();
    assertThat(r[dst].packets).extracting(Packet::tag).containsExactly(
        java.util.stream.IntStream.range(0, sent).boxed().toArray(Integer[]::new));
  }

  @Test
  void deliveryModesMapToRoutings() {
    assertThat(Routings.nameFor(DeliveryMode.ADAPTIVE_2)).isEqualTo("adaptive2");
    assertThat(Routings.nameFor(DeliveryMode.IN_ORDER)).isEqualTo("in-order");
    assertThat(Routings.nameFor(DeliveryMode.NMIN_HASH)).isEqualTo("nmin-hash");
    Dragonfly t = Topologies.canonicalSmall();
    DeterministicEventLoop loop = new DeterministicEventLoop();
    java.util.Map<Integer, Boolean> nonMinimalByTag = new java.util.HashMap<>();
    RouterFabric f = RouterFabric.builder(t, loop).routingByDeliveryMode()
        .observeDeliveries((now, p, nonMinimal) -> nonMinimalByTag.put(p.tag(), nonMinimal)).build();
    Recorder[] r = attachAll(f);
    f.inject(Packet.synthetic(0, t.nodeCount() - 1, 0, DeliveryMode.NMIN_HASH, 8));
    f.inject(Packet.synthetic(0, t.nodeCount() - 1, 1, DeliveryMode.IN_ORDER, 8));
    loop.run();
    List<Packet> got = r[t.nodeCount() - 1].packets;
    assertThat(got).hasSize(2);
    assertThat(nonMinimalByTag).containsEntry(0, true).containsEntry(1, false);
    assertThat(f.nonMinimalDelivered()).isEqualTo(1);
  }

  @Test
  void callerMistakesAreClearErrors() {
    Dragonfly t = Topologies.canonicalSmall();
    DeterministicEventLoop loop = new DeterministicEventLoop();
    RouterFabric f = RouterFabric.builder(t, loop).build();
    f.attach(0, new Recorder());
    assertThatThrownBy(() -> f.attach(0, new Recorder())).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("node 0 is already attached");
    assertThatThrownBy(() -> f.attach(72, new Recorder())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodeId must be in [0, 71] but was 72");
    assertThatThrownBy(() -> f.inject(Packet.synthetic(0, 100, 0, DeliveryMode.ADAPTIVE_0, 8)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("packet.destinationNode");
    assertThatThrownBy(() -> RouterFabric.builder(t, loop).routing("teleport").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("routing must be one of")
        .hasMessageContaining("teleport");
    assertThatThrownBy(() -> RouterFabric.builder(t, loop).vcs(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("vcs must be in [1, 16] but was 0");
  }

  @Test
  void aRoutingThatPicksAnIllegalPortIsReported() {
    Dragonfly t = Topologies.canonicalSmall();
    DeterministicEventLoop loop = new DeterministicEventLoop();
    RouterFabric f = RouterFabric.builder(t, loop).routing((p, v, c) -> c.add(99, 0)).build();
    attachAll(f);
    f.inject(Packet.synthetic(0, 70, 0, DeliveryMode.ADAPTIVE_0, 8));
    assertThatThrownBy(loop::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("chose port 99");
  }
}
