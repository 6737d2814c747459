package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.network.spi.Candidates;
import io.github.ariesmodel.network.spi.DragonflyPaths;
import io.github.ariesmodel.network.spi.RouterView;
import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.spi.RoutingProvider;
import io.github.ariesmodel.network.spi.Topology;
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
    long ser = io.github.ariesmodel.core.sim.SerialChannel.serializationPs(84,
        io.github.ariesmodel.core.sim.SerialChannel.psPerByte(Dragonfly.ARIES_INJECTION_WIRE_RATE));
    // injection wire + pipeline at the first router + ejection serialization
    assertThat(latency[0]).isEqualTo(5_000 + 90_000 + ser);
    // one rank-1 hop: backplane wire + pipeline; one rank-2 hop: copper wire + pipeline
    assertThat(latency[1] - latency[0]).isEqualTo(5_000 + 90_000);
    assertThat(latency[2] - latency[0]).isEqualTo(10_000 + 90_000);
    assertThat(r[rank1].packets.get(0).hops()).isEqualTo(1);
    assertThat(f.quiescent()).isTrue();
  }

  /**
   * A port sends a queued packet only when its VC's downstream buffer has credits for that packet's own size: with
   * packets of two sizes queued behind one another into a buffer of 200 bytes, the credits a routing decision can see
   * never go below zero, and every packet arrives. Fails when the fabric tests a queue's new head against the size of
   * the head it replaced (the per-queue head size left stale at a send).
   */
  @Test
  void aQueueHeadOfAnotherSizeWaitsForItsOwnCredits() {
    Dragonfly t = Dragonfly.ariesBuilder(1).rows(1).columns(4).build();
    DeterministicEventLoop loop = new DeterministicEventLoop();
    RoutingAlgorithm minimal = Routings.create("minimal", t, 1);
    int[] lowest = {Integer.MAX_VALUE};
    int[] decisions = {0};
    RoutingAlgorithm watching = new RoutingAlgorithm() {
      @Override
      public void route(Packet packet, RouterView router, Candidates candidates) {
        decisions[0]++;
        for (int port = 0; port < t.portCount(); port++) {
          if (t.neighborRouter(router.router(), port) >= 0) {
            for (int vc = 0; vc < router.vcCount(); vc++) {
              lowest[0] = Math.min(lowest[0], router.credits(port, vc));
            }
          }
        }
        minimal.route(packet, router, candidates);
      }

      @Override
      public int select(Packet packet, RouterView router, Candidates candidates) {
        return minimal.select(packet, router, candidates);
      }
    };
    RouterFabric f = RouterFabric.builder(t, loop).routing(watching).vcBufferBytes(200).build();
    Recorder[] r = attachAll(f);
    int dst = t.node(0, 0, 1, 0);
    int sent = 0;
    for (int i = 0; i < 120; i++) {
      // the four nodes of router 0 to one node of router 1: 8-byte and 64-byte payloads in turn
      if (f.inject(Packet.synthetic(t.node(0, 0, 0, i % 4), dst, i, DeliveryMode.MIN_HASH, i % 3 == 0 ? 64 : 8))) {
        sent++;
      }
      loop.runUntil(loop.now() + 2_000);
    }
    loop.run();
    assertThat(sent).isGreaterThan(60);
    assertThat(decisions[0]).isEqualTo(sent); // one decision a packet: at router 0 (router 1 ejects)
    assertThat(lowest[0]).isGreaterThanOrEqualTo(0);
    assertThat(r[dst].packets).hasSize(sent);
  }

  /** One router and no network port (a = 1, h = 0): every packet goes in and out of the same router. */
  @Test
  void aSingleRouterWithoutNetworkPortsDeliversBetweenItsNodes() {
    Dragonfly t = Dragonfly.canonical(4, 1, 0);
    assertThat(t.portCount()).isZero();
    DeterministicEventLoop loop = new DeterministicEventLoop();
    RouterFabric f = RouterFabric.builder(t, loop).routing("ugal").build();
    Recorder[] r = attachAll(f);
    for (int i = 0; i < 12; i++) {
      assertThat(f.inject(Packet.synthetic(i % 4, (i + 1 + i / 4) % 4, i, DeliveryMode.ADAPTIVE_0, 64))).isTrue();
    }
    loop.run();
    assertThat(r[1].packets.size() + r[2].packets.size() + r[3].packets.size() + r[0].packets.size()).isEqualTo(12);
    assertThat(f.packetHops()).isZero();
    assertThat(f.quiescent()).isTrue();
  }

  /**
   * A packet injected a second time before its delivery is refused with one line and changes nothing: it is
   * delivered once, the injection buffer's room and the counts are those of one packet, and once delivered the same
   * object may be injected again (a traffic source reuses its packets so). On the code before the check the second
   * inject was accepted and the packet delivered twice.
   */
  @Test
  void aPacketStillInTheFabricIsRefusedAndTravelsOnce() {
    Dragonfly t = Dragonfly.aries(1);
    DeterministicEventLoop loop = new DeterministicEventLoop();
    RouterFabric f = RouterFabric.builder(t, loop).routing("minimal").build();
    Recorder[] r = attachAll(f);
    int src = t.node(0, 0, 0, 0);
    int dst = t.node(0, 2, 3, 1);
    Packet p = Packet.synthetic(src, dst, 7, DeliveryMode.MIN_HASH, 64);
    assertThat(p.inFabric()).isFalse();
    assertThat(f.inject(p)).isTrue();
    assertThat(p.inFabric()).isTrue();
    loop.runUntil(loop.now() + 50_000); // mid-flight
    assertThatThrownBy(() -> f.inject(p)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is in the fabric already (injected at 0 ps, not yet delivered)")
        .hasMessageNotContaining("\n");
    loop.run();
    assertThat(r[dst].packets).containsExactly(p);
    assertThat(p.inFabric()).isFalse();
    assertThat(f.quiescent()).isTrue();
    // delivered: the same object may travel again, and it is delivered once more
    assertThat(f.inject(p)).isTrue();
    loop.run();
    assertThat(r[dst].packets).containsExactly(p, p);
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

  /**
   * A routing that commits every packet to one intermediate at the source router and afterwards offers only plain
   * {@code add} candidates, recording the route state the fabric shows it at each hop.
   */
  private static final class CommitOnceRouting implements RoutingAlgorithm {
    final Topology t;
    final DragonflyPaths paths;
    final int intermediate;
    final int[] ports;
    final List<int[]> seen = new ArrayList<>(); // router, intermediate, nonMinimal

    CommitOnceRouting(Topology t, int intermediate) {
      this.t = t;
      this.paths = new DragonflyPaths(t);
      this.intermediate = intermediate;
      this.ports = new int[t.maxMinimalPorts()];
    }

    @Override
    public void route(Packet p, RouterView view, Candidates c) {
      seen.add(new int[] {view.router(), view.intermediate(), view.nonMinimal() ? 1 : 0});
      int dest = t.routerOfNode(p.destinationNode());
      if (p.hops() == 0) {
        paths.pathPorts(view.router(), intermediate, dest, 0, ports);
        c.addNonMinimal(ports[0], 0, 1, 0, intermediate);
        return;
      }
      paths.pathPorts(view.router(), view.intermediate(), dest, 0, ports);
      c.add(ports[0], p.hops());
    }
  }

  @Test
  void aPlainCandidateKeepsThePacketsIntermediateUntilTheFabricSeesItReached() {
    Dragonfly t = Topologies.ariesSmall(); // 3 groups of 2 x 4 routers
    DeterministicEventLoop loop = new DeterministicEventLoop();
    int inter = t.routerInGroup(2, 5);
    CommitOnceRouting routing = new CommitOnceRouting(t, inter);
    List<Boolean> verdicts = new ArrayList<>();
    RouterFabric f = RouterFabric.builder(t, loop).routing(routing)
        .observeDeliveries((now, p, nonMinimal) -> verdicts.add(nonMinimal)).build();
    Recorder[] r = attachAll(f);
    int src = t.node(0, 0, 0, 0);
    int dst = t.node(1, 1, 3, 0);
    f.inject(Packet.synthetic(src, dst, 0, DeliveryMode.ADAPTIVE_0, 64));
    loop.run();
    assertThat(r[dst].packets).hasSize(1);
    assertThat(verdicts).containsExactly(true);
    assertThat(f.nonMinimalDelivered()).isEqualTo(1);
    List<int[]> seen = routing.seen;
    assertThat(seen.get(0)).containsExactly(t.routerOfNode(src), -1, 0);
    boolean inGroup2 = false;
    for (int k = 1; k < seen.size(); k++) {
      int[] hop = seen.get(k);
      inGroup2 |= t.groupOfRouter(hop[0]) == 2;
      assertThat(hop[2]).as("non-minimal at hop %s", k).isEqualTo(1);
      assertThat(hop[1]).as("intermediate at hop %s (router %s)", k, hop[0]).isEqualTo(inGroup2 ? -1 : inter);
    }
    assertThat(inGroup2).as("the packet went through the intermediate group").isTrue();
    assertThat(r[dst].packets.get(0).hops()).isEqualTo(seen.size());
  }

  @Test
  void aRoutingThatNeedsMoreVirtualChannelsThanTheFabricHasIsRefusedAtBuild() {
    Dragonfly t = Topologies.ariesSmall();
    DeterministicEventLoop loop = new DeterministicEventLoop();
    assertThatThrownBy(() -> RouterFabric.builder(t, loop).vcs(2).routing("minimal").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("vcs (2) must be at least the 5 virtual channels routing minimal needs");
    assertThatThrownBy(() -> RouterFabric.builder(t, loop).vcs(7).routing("valiant").build())
        .hasMessageContaining("vcs (7) must be at least the 8 virtual channels routing valiant needs");
    assertThatThrownBy(() -> RouterFabric.builder(t, loop).vcs(4).routingByDeliveryMode().build())
        .hasMessageContaining("vcs (4)").hasMessageContaining("by delivery mode");
    // enough VCs for the routes this topology has: minimal on canonical needs 3, and one group's minimal 2
    assertThat(RouterFabric.builder(Topologies.canonicalSmall(), loop).vcs(3).routing("minimal").build().vcCount())
        .isEqualTo(3);
    Dragonfly oneGroup = Dragonfly.ariesBuilder(1).rows(3).columns(3).build();
    assertThat(RouterFabric.builder(oneGroup, loop).vcs(2).routing("in-order").build().vcCount()).isEqualTo(2);
    // a routing that states no need builds with any count
    assertThat(RouterFabric.builder(t, loop).vcs(1).routing((p, v, c) -> c.add(0, 0)).build().vcCount())
        .isEqualTo(1);
  }

  @Test
  void aProviderGetsTheFabricsSeedAndByDeliveryModeIsARoutingName() {
    Dragonfly t = Topologies.canonicalSmall();
    DeterministicEventLoop loop = new DeterministicEventLoop();
    long[] seedSeen = {0};
    RoutingProvider provider = new RoutingProvider() {
      @Override
      public String name() {
        return "seed-spy";
      }

      @Override
      public RoutingAlgorithm create(Topology topology, long seed) {
        seedSeen[0] = seed;
        return Routings.create("minimal", topology, seed);
      }
    };
    RouterFabric f = RouterFabric.builder(t, loop).seed(4242).routing(provider).build();
    assertThat(seedSeen[0]).isEqualTo(4242);
    assertThat(f.routingName()).isEqualTo("seed-spy");
    assertThat(RouterFabric.builder(t, loop).routing("By-Delivery-Mode").build().routingName())
        .isEqualTo(Routings.BY_DELIVERY_MODE);
  }

  /** A routing instance is named as its user names it, and an anonymous one by its class's full name (was blank). */
  @Test
  void aRoutingInstanceGoesByTheNameGivenOrItsClass() {
    Dragonfly t = Topologies.canonicalSmall();
    DeterministicEventLoop loop = new DeterministicEventLoop();
    RoutingAlgorithm anonymous = new RoutingAlgorithm() {
      private final RoutingAlgorithm minimal = Routings.create("minimal", t, 1);

      @Override
      public Topology topology() {
        return minimal.topology();
      }

      @Override
      public void route(Packet p, RouterView v, Candidates c) {
        minimal.route(p, v, c);
      }
    };
    assertThat(RouterFabric.builder(t, loop).routing(anonymous, " mine ").build().routingName()).isEqualTo("mine");
    assertThat(RouterFabric.builder(t, loop).routing(anonymous).build().routingName())
        .isEqualTo(anonymous.getClass().getName()).isNotBlank();
    assertThatThrownBy(() -> RouterFabric.builder(t, loop).routing(anonymous, " "))
        .hasMessage("routing name must not be blank but was \" \"");
  }

  @Test
  void anIntermediateOutsideTheTopologyIsReported() {
    Dragonfly t = Topologies.canonicalSmall();
    DeterministicEventLoop loop = new DeterministicEventLoop();
    RouterFabric f = RouterFabric.builder(t, loop).routing((p, v, c) -> c.addNonMinimal(0, 0, 1, 0, 10_000)).build();
    attachAll(f);
    f.inject(Packet.synthetic(0, 70, 0, DeliveryMode.ADAPTIVE_0, 8));
    assertThatThrownBy(loop::run).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("chose intermediate 10000 which must be a router in [0, 35]");
    assertThatThrownBy(() -> new Candidates().addNonMinimal(0, 0, 1, 0, -1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("intermediateRouter must be >= 0 but was -1");
  }

  /** A fuzz run of the library's API: busyPs(0, radix) read router 1's port 0, busyPs(3) an index error. */
  @Test
  void statisticsQueriesRefuseArgumentsOutOfRange() {
    RouterFabric f = RouterFabric.builder(Topologies.canonicalSmall(), new DeterministicEventLoop()).build();
    assertThatThrownBy(() -> f.busyPs(0, 5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("port must be in [0, 4] but was 5");
    assertThatThrownBy(() -> f.busyPs(36, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("router must be in [0, 35] but was 36");
    assertThatThrownBy(() -> f.busyPs(3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("linkClass must be in [0, 2] but was 3");
    assertThatThrownBy(() -> f.linkCount(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("linkClass must be in [0, 2] but was -1");
    assertThatThrownBy(() -> f.vcOccupancyIntegral(8, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("vc must be in [0, 7] but was 8");
    assertThatThrownBy(() -> f.vcOccupancyIntegral(0, -1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("nowPs must be >= 0 but was -1");
    assertThat(f.busyPs(35, 4)).isZero();
    assertThat(f.linkCount(2)).isEqualTo(72);
    // a time before now would subtract serializations that had not started (-5 gave a negative busy time)
    assertThatThrownBy(() -> f.busyPs(0, -5L)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("atPs must be >= now (0 ps) but was -5");
    assertThat(f.busyPs(0, 0L)).isZero();
  }

  /**
   * busyPs(2, 3) is router 2's port 3, not class 2 up to 3 ps (Java picks the overload by the argument's type): the two
   * have names of their own that say what they count, and the old overloads stay as they were.
   */
  @Test
  void theBusyTimesOfAClassAndOfAPortHaveNamesThatSayWhich() {
    Dragonfly t = Dragonfly.aries(1);
    DeterministicEventLoop loop = new DeterministicEventLoop();
    RouterFabric f = RouterFabric.builder(t, loop).routing("minimal").build();
    attachAll(f);
    // one packet over router 0's first rank-1 port (class 0) to column 1
    assertThat(f.inject(Packet.synthetic(t.node(0, 0, 0, 0), t.node(0, 0, 1, 0), 0, DeliveryMode.MIN_HASH, 64)))
        .isTrue();
    loop.run();
    long now = loop.now();
    assertThat(f.linkClassBusyPs(0, now)).isPositive().isEqualTo(f.busyPs(0, now)).isEqualTo(f.busyPs(0));
    assertThat(f.portBusyPs(0, 0)).isPositive().isEqualTo(f.busyPs(0, 0)).isEqualTo(f.linkClassBusyPs(0, now));
    assertThat(f.portBusyPs(2, 3)).isEqualTo(f.busyPs(2, 3)).isZero();
    assertThatThrownBy(() -> f.portBusyPs(0, 99)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("port must be in [0, 39] but was 99");
    assertThatThrownBy(() -> f.linkClassBusyPs(0, now - 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("atPs must be >= now (" + now + " ps) but was " + (now - 1));
  }
}
