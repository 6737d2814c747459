package io.github.ariesmodel.testkit.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.network.DeliveryObserver;
import io.github.ariesmodel.network.Dragonfly;
import io.github.ariesmodel.network.Routings;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.network.spi.Candidates;
import io.github.ariesmodel.network.spi.DragonflyPaths;
import io.github.ariesmodel.network.spi.RouterView;
import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.spi.RoutingProvider;
import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
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
 *   <li>its accounting matches the paths packets take: a packet the fabric counts as non-minimal (one that chose a
 *       candidate made with {@code Candidates.addNonMinimal}) really reaches every intermediate it committed to
 *       (its group, or the router itself for traffic inside one group: {@link DragonflyPaths#reached}; inside one
 *       group the destination may come first on a minimal way to the intermediate, and the packet is delivered
 *       there), and a packet
 *       counted as minimal takes a minimal dragonfly path (it visits only its source and destination groups, in at
 *       most L hops inside one group or 2L + 1 between groups, L = {@code Topology.maxLocalHops()});
 *   <li>a stated virtual-channel need ({@code RoutingAlgorithm.virtualChannelsNeeded()}, which the fabric's builder
 *       checks) covers every VC the routing uses;
 *   <li>it is deterministic: the same seed gives the same run, and the same run on one thread as on a thread per
 *       dragonfly group. On the partitioned engine every group routes with its own instance, made by the provider
 *       with the fabric's topology and a seed of its own, and the groups' threads call them at once: instances of one
 *       routing must share no mutable state (a static counter, a shared random stream or table). A routing that did
 *       passed the contract until stop 76, and its results then depended on the thread count.
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
      for (TrafficPattern pattern : patterns(t)) {
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
  void nonMinimalAccountingMatchesThePathsTaken() {
    List<String> violations = new ArrayList<>();
    long violationCount = 0;
    long nonMinimal = 0;
    long delivered = 0;
    for (Topology t : topologies()) {
      for (TrafficPattern pattern : patterns(t)) {
        for (double load : new double[] {0.3, 1.2}) {
          PathRecorder rec = new PathRecorder(create(t, 5), t);
          TrafficResult r = recordedRun(t, pattern, load, 5, rec);
          String what = routingName() + " on " + t.describe() + ", " + pattern.id() + " at " + load;
          assertThat(rec.checked).as("packets whose path was checked, " + what).isEqualTo(r.delivered());
          assertThat(rec.open).as("packets routed but never delivered, " + what).isEmpty();
          for (String v : rec.violations) {
            violations.add(v + " [" + what + "]");
          }
          violationCount += rec.violationCount;
          nonMinimal += rec.nonMinimal;
          delivered += rec.checked;
        }
      }
    }
    assertThat(delivered).isPositive();
    assertThat(violations)
        .as("%s: %s of %s packets counted non-minimal; %s paths do not match the accounting (the first of each run "
            + "shown)", routingName(), nonMinimal, delivered, violationCount)
        .isEmpty();
  }

  @Test
  void aStatedVirtualChannelNeedCoversEveryRoute() {
    for (Topology t : topologies()) {
      int need = create(t, 1).virtualChannelsNeeded();
      assertThat(need).as("virtualChannelsNeeded of %s on %s", routingName(), t.describe()).isPositive();
      if (need == 1) {
        continue; // no need stated: the fabric cannot check its VC count, nor can we
      }
      for (TrafficPattern pattern : patterns(t)) {
        PathRecorder rec = new PathRecorder(create(t, 11), t);
        recordedRun(t, pattern, 1.2, 11, rec);
        assertThat(rec.maxVc + 1).as("virtual channels %s used on %s under %s traffic, against the %s it states",
            routingName(), t.describe(), pattern.id(), need).isLessThanOrEqualTo(need);
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

  /**
   * On the engine each group has an instance of its own (made through the routing's provider, here from {@link
   * #create}), and on several threads the groups call theirs at once: the result is the same on one thread as on a
   * thread per group, each run twice. A routing whose instances share mutable state gives results that depend on how
   * the groups' calls interleave.
   */
  @Test
  void sameRunOnOneThreadAsOnAThreadPerGroup() {
    Topology t = Topologies.ariesSmall();
    RoutingProvider provider = new RoutingProvider() {
      @Override
      public String name() {
        return routingName();
      }

      @Override
      public RoutingAlgorithm create(Topology topology, long seed) {
        return RoutingContract.this.create(topology, seed);
      }
    };
    int groups = t.groupCount();
    List<String> runs = new ArrayList<>();
    for (int threads : new int[] {1, groups, 1, groups}) {
      TrafficResult r = TrafficExperiment.on(t).routing(provider).pattern(TrafficPattern.UNIFORM).load(0.9).seed(13)
          .warmupPs(200_000).measurePs(400_000).drain().fabric(f -> f.maxHops(Math.max(maxHops(), 1) * 4))
          .threads(threads).run();
      runs.add(String.format("events %d, packet-hops %d, delivered %d at %d ps; latency mean %s, p99 %s, max %s ns;"
              + " accepted %s, minimal %s, mean hops %s; links %s; VCs %s", r.events(), r.packetHops(), r.delivered(),
          r.simulatedPs(), r.latencyMeanNs(), r.latencyP99Ns(), r.latencyMaxNs(), r.acceptedLoad(),
          r.minimalFraction(), r.meanHops(), r.linkUtilization(), Arrays.toString(r.vcOccupancyBytes())));
    }
    assertThat(runs).as("%s on %s: the runs on 1, %s, 1 and %s threads (the groups' instances share no state)",
        routingName(), t.describe(), groups, groups).containsOnly(runs.get(0));
  }

  /**
   * Uniform traffic, and adversarial where the topology has a next group to send to (with one group it is refused;
   * it used to run uniform traffic under its name).
   */
  private static TrafficPattern[] patterns(Topology t) {
    return t.groupCount() >= 2 ? new TrafficPattern[] {TrafficPattern.UNIFORM, TrafficPattern.ADVERSARIAL}
        : new TrafficPattern[] {TrafficPattern.UNIFORM};
  }

  private TrafficResult run(Topology t, TrafficPattern pattern, double load, long seed) {
    return TrafficExperiment.on(t).routing(create(t, seed)).pattern(pattern).load(load).seed(seed)
        .warmupPs(200_000).measurePs(400_000).drain().fabric(f -> f.maxHops(Math.max(maxHops(), 1) * 4)).run();
  }

  private TrafficResult recordedRun(Topology t, TrafficPattern pattern, double load, long seed, PathRecorder rec) {
    return TrafficExperiment.on(t).routing(rec).pattern(pattern).load(load).seed(seed)
        .warmupPs(200_000).measurePs(400_000).drain()
        .fabric(f -> f.maxHops(Math.max(maxHops(), 1) * 4).observeDeliveries(rec)).run();
  }

  /**
   * Wraps the routing under test: records each packet's routers and the intermediates it commits to, and checks at
   * delivery that the fabric's minimal/non-minimal verdict matches the path.
   */
  private static final class PathRecorder implements RoutingAlgorithm, DeliveryObserver {
    private static final int MAX_VIOLATIONS = 5;

    final RoutingAlgorithm delegate;
    final Topology topology;
    final DragonflyPaths paths;
    final Map<Packet, Path> open = new IdentityHashMap<>();
    final List<String> violations = new ArrayList<>();
    long checked;
    long nonMinimal;
    long violationCount;
    int maxVc = -1;

    PathRecorder(RoutingAlgorithm delegate, Topology topology) {
      this.delegate = delegate;
      this.topology = topology;
      this.paths = new DragonflyPaths(topology);
    }

    @Override
    public void route(Packet packet, RouterView router, Candidates candidates) {
      delegate.route(packet, router, candidates);
    }

    @Override
    public int select(Packet packet, RouterView router, Candidates candidates) {
      int i = delegate.select(packet, router, candidates);
      Path path = open.computeIfAbsent(packet, k -> new Path());
      path.routers.add(router.router());
      if (i >= 0 && i < candidates.size()) {
        maxVc = Math.max(maxVc, candidates.vc(i));
        if (candidates.intermediate(i) >= 0) {
          path.commitAt.add(path.routers.size() - 1);
          path.commitTo.add(candidates.intermediate(i));
        }
      }
      return i;
    }

    @Override
    public int virtualChannelsNeeded() {
      return delegate.virtualChannelsNeeded();
    }

    @Override
    public void delivered(long nowPs, Packet packet, boolean nonMinimalVerdict) {
      Path path = open.remove(packet);
      if (path == null) {
        path = new Path(); // source and destination share a router: no routing decision
      }
      checked++;
      int destRouter = topology.routerOfNode(packet.destinationNode());
      List<Integer> routers = path.routers;
      routers.add(destRouter);
      if (packet.hops() != routers.size() - 1) {
        violate("%s took %s hops but visited routers %s", packet, packet.hops(), routers);
      }
      if (nonMinimalVerdict != !path.commitTo.isEmpty()) {
        violate("%s was counted %s but chose %s intermediate; path %s", packet,
            nonMinimalVerdict ? "non-minimal" : "minimal", path.commitTo.isEmpty() ? "no" : "an", routers);
      }
      if (nonMinimalVerdict) {
        nonMinimal++;
      }
      for (int k = 0; k < path.commitTo.size(); k++) {
        int inter = path.commitTo.get(k);
        int at = path.commitAt.get(k);
        boolean reached = false;
        for (int j = at + 1; j < routers.size() && !reached; j++) {
          reached = paths.reached(routers.get(j), inter, destRouter);
        }
        if (!reached && !destinationOnTheWay(routers.get(at), inter, destRouter, routers.size() - 1 - at)) {
          violate("%s committed to intermediate %s (group %s) at router %s but never reached it: path %s, groups %s",
              packet, inter, topology.groupOfRouter(inter), routers.get(at), routers, groups(routers));
        }
      }
      if (!nonMinimalVerdict) {
        int gs = topology.groupOfRouter(topology.routerOfNode(packet.sourceNode()));
        int gd = topology.groupOfRouter(destRouter);
        int local = topology.maxLocalHops();
        int bound = gs == gd ? local : 2 * local + 1;
        boolean otherGroup = false;
        for (int r : routers) {
          int g = topology.groupOfRouter(r);
          otherGroup |= g != gs && g != gd;
        }
        if (otherGroup || routers.size() - 1 > bound) {
          violate("%s was counted minimal but its path %s (groups %s) %s", packet, routers, groups(routers),
              otherGroup ? "passes through a third group" : "is longer than the minimal bound of " + bound + " hops");
        }
      }
    }

    /**
     * Inside one group the minimal way to an intermediate router may pass the destination router, where the fabric
     * ejects the packet: it kept its commitment if the destination lies on a minimal path to the intermediate and the
     * packet got there in minimal hops.
     */
    private boolean destinationOnTheWay(int from, int inter, int destRouter, int hopsTaken) {
      if (topology.groupOfRouter(inter) != topology.groupOfRouter(destRouter)) {
        return false;
      }
      int toDest = topology.minimalHops(from, destRouter);
      return hopsTaken == toDest
          && toDest + topology.minimalHops(destRouter, inter) == topology.minimalHops(from, inter);
    }

    private List<Integer> groups(List<Integer> routers) {
      List<Integer> g = new ArrayList<>();
      for (int r : routers) {
        g.add(topology.groupOfRouter(r));
      }
      return g;
    }

    private void violate(String format, Object... args) {
      violationCount++;
      if (violations.size() < MAX_VIOLATIONS) {
        violations.add(String.format(format, args));
      }
    }
  }

  /** The routers a packet was routed at and the intermediates it committed to (index into routers, router). */
  private static final class Path {
    final List<Integer> routers = new ArrayList<>();
    final List<Integer> commitAt = new ArrayList<>();
    final List<Integer> commitTo = new ArrayList<>();
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

    @Override
    public int intermediate() {
      return -1; // a packet at its source router
    }

    @Override
    public boolean nonMinimal() {
      return false;
    }
  }
}
