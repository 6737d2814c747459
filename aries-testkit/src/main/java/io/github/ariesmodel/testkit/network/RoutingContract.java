package io.github.ariesmodel.testkit.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.network.Dragonfly;
import io.github.ariesmodel.network.Routings;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.network.spi.Candidates;
import io.github.ariesmodel.network.spi.RouterView;
import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The contract every routing algorithm must meet, as a JUnit 5 test class to extend: name your routing in
 * {@link #routingName()} (registered through {@code META-INF/services/io.github.ariesmodel.network.spi.RoutingProvider}
 * or built in) and the inherited tests check that
 *
 * <ul>
 *   <li>it is found by name;
 *   <li>at any router, for any packet, it offers at least one candidate, only cabled ports and VCs below the
 *       fabric's VC count, and its selection picks one of its candidates;
 *   <li>on small fabrics (a canonical and an Aries dragonfly, with one, two and several groups), under uniform and
 *       adversarial traffic below and above saturation, the network drains once injection stops: every packet
 *       arrives exactly once, no deadlock, every credit home, and no packet takes more than {@link #maxHops()} hops;
 *   <li>it is deterministic: the same seed gives the same run.
 * </ul>
 *
 * <pre>{@code
 * class MyRoutingTest extends RoutingContract {
 *   protected String routingName() { return "my-routing"; }
 * }
 * }</pre>
 */
public abstract class RoutingContract {

  /** For subclasses. */
  protected RoutingContract() {}

  /** @return the name the routing is registered under */
  protected abstract String routingName();

  /** @return the most hops a packet may take (default 8: the fabric's 8 VCs with VC = hops) */
  protected int maxHops() {
    return 8;
  }

  /** @return the small fabrics the contract runs on; override to add or replace */
  protected List<Topology> topologies() {
    return List.of(
        Topologies.canonicalSmall(),
        Topologies.ariesSmall(),
        Dragonfly.ariesBuilder(2).rows(2).columns(3).globalPorts(1).build(),
        Dragonfly.ariesBuilder(1).rows(3).columns(3).build());
  }

  /** @param topology a topology @param seed a seed @return a fresh instance of the routing under test */
  protected RoutingAlgorithm create(Topology topology, long seed) {
    return Routings.create(routingName(), topology, seed);
  }

  @Test
  void isFoundByName() {
    assertThat(Routings.names()).anySatisfy(n -> assertThat(n).isEqualToIgnoringCase(routingName()));
    assertThat(create(Topologies.canonicalSmall(), 1)).isNotNull();
  }

  @Test
  void offersOnlyCabledPortsAndLegalVirtualChannels() {
    SplittableRandom rnd = new SplittableRandom(42);
    for (Topology t : topologies()) {
      RoutingAlgorithm alg = create(t, 7);
      StubView view = new StubView(t, rnd);
      Candidates c = new Candidates();
      for (int i = 0; i < 500; i++) {
        int src = rnd.nextInt(t.nodeCount());
        int dst = rnd.nextInt(t.nodeCount());
        if (t.routerOfNode(src) == t.routerOfNode(dst)) {
          continue;
        }
        Packet p = Packet.synthetic(src, dst, i, DeliveryMode.values()[i % DeliveryMode.values().length], 64);
        p.intermediate(-1);
        view.router = t.routerOfNode(src);
        c.clear();
        alg.route(p, view, c);
        assertThat(c.size()).as("candidates at the source router for %s on %s", p, t.describe()).isPositive();
        for (int k = 0; k < c.size(); k++) {
          int port = c.port(k);
          assertThat(port).as("port").isBetween(0, t.portCount() - 1);
          assertThat(t.neighborRouter(view.router, port)).as("port %s of router %s must be cabled", port,
              view.router).isNotNegative();
          assertThat(c.vc(k)).as("virtual channel").isBetween(0, view.vcCount() - 1);
        }
        assertThat(alg.select(p, view, c)).isBetween(0, c.size() - 1);
      }
    }
  }

  @Test
  void smallFabricsDrainWithoutLossDuplicatesOrDeadlock() {
    for (Topology t : topologies()) {
      for (TrafficPattern pattern : new TrafficPattern[] {TrafficPattern.UNIFORM, TrafficPattern.ADVERSARIAL}) {
        for (double load : new double[] {0.3, 1.2}) {
          TrafficResult r = run(t, pattern, load, 3);
          String what = routingName() + " on " + t.describe() + ", " + pattern.id() + " at " + load;
          assertThat(r.generated()).as(what).isPositive();
          assertThat(r.duplicates()).as("duplicates, " + what).isZero();
          assertThat(r.delivered()).as("delivered, " + what).isEqualTo(r.generated());
          assertThat(r.drained()).as("drained and at rest, " + what).isTrue();
          assertThat(r.maxHops()).as("max hops, " + what).isLessThanOrEqualTo(maxHops());
        }
      }
    }
  }

  @Test
  void sameSeedSameRun() {
    Topology t = Topologies.ariesSmall();
    TrafficResult a = run(t, TrafficPattern.UNIFORM, 0.5, 9);
    TrafficResult b = run(t, TrafficPattern.UNIFORM, 0.5, 9);
    assertThat(b.events()).isEqualTo(a.events());
    assertThat(b.latencyMeanNs()).isEqualTo(a.latencyMeanNs());
    assertThat(b.minimalFraction()).isEqualTo(a.minimalFraction());
  }

  private TrafficResult run(Topology t, TrafficPattern pattern, double load, long seed) {
    return TrafficExperiment.on(t).routing(create(t, seed)).pattern(pattern).load(load).seed(seed)
        .warmupPs(200_000).measurePs(400_000).drain().fabric(f -> f.maxHops(Math.max(maxHops(), 1) * 4)).run();
  }

  /** A router view with random congestion and full credits. */
  private static final class StubView implements RouterView {
    private final Topology topology;
    private final SplittableRandom rnd;
    int router;

    StubView(Topology topology, SplittableRandom rnd) {
      this.topology = topology;
      this.rnd = rnd;
    }

    @Override
    public int router() {
      return router;
    }

    @Override
    public int group() {
      return topology.groupOfRouter(router);
    }

    @Override
    public Topology topology() {
      return topology;
    }

    @Override
    public int vcCount() {
      return 8;
    }

    @Override
    public int vcBufferBytes() {
      return 2048;
    }

    @Override
    public long now() {
      return 0;
    }

    @Override
    public int congestion(int port) {
      return rnd.nextInt(4096);
    }

    @Override
    public int credits(int port, int vc) {
      return 2048;
    }

    @Override
    public int queuedBytes(int port) {
      return 0;
    }
  }
}
