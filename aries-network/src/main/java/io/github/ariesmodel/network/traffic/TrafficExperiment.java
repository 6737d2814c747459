package io.github.ariesmodel.network.traffic;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.network.RouterFabric;
import io.github.ariesmodel.network.StuckPackets;
import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.spi.RoutingProvider;
import io.github.ariesmodel.network.spi.Topology;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * One synthetic-traffic run on a {@link RouterFabric}: every node generates 64-byte PUT packets ({@link
 * Packet#synthetic}) by a Bernoulli process at the offered load (one trial per packet time at the injection rate:
 * load 0.5 = on average one packet every two packet times; loads above 1 add a second packet per slot with the excess
 * probability), queues them at the source without bound, and injects them as the fabric accepts.
 *
 * <p>Timeline: warm-up {@code [0, warmup)}, measurement {@code [warmup, warmup + measure)}. Statistics cover packets
 * created in the measurement window (latency from creation, so source queueing counts; hops; minimal fraction) and
 * the window itself (offered and accepted load, link utilization, VC occupancy). Afterwards the run either keeps
 * generating until every measured packet is delivered or {@code extra} time has passed (unfinished packets are
 * counted), or, with {@link Builder#drain()}, stops generating and runs until the network is empty, then checks that
 * every generated packet arrived exactly once and the fabric is at rest (the reliability check). A drain is bounded
 * ({@link Builder#drainLimitPs}); one that does not empty the network says what is left and what it waits for
 * ({@link TrafficResult#stuck()}).
 *
 * <p>Deterministic: the same settings and seed give the same result (all but the wall-clock fields).
 */
public final class TrafficExperiment {

  private final Topology topology;
  private final String routing;
  private final RoutingAlgorithm algorithm;
  private final RoutingProvider provider;
  private final TrafficPattern pattern;
  private final double load;
  private final long seed;
  private final long warmupPs;
  private final long measurePs;
  private final long extraPs;
  private final boolean drain;
  private final long drainLimitPs;

  /**
   * Default bound on a drain, simulated time after the window: 100 µs, far beyond the few µs a healthy network
   * needs (assumed), so that a livelocking routing stops with {@code drained == false} instead of running forever.
   */
  public static final long DEFAULT_DRAIN_LIMIT_PS = 100_000_000L;
  private final int payloadBytes;
  private final Consumer<RouterFabric.Builder> fabricSettings;

  private TrafficExperiment(Builder b) {
    this.topology = b.topology;
    this.routing = b.routing;
    this.algorithm = b.algorithm;
    this.provider = b.provider;
    this.pattern = b.pattern;
    this.load = b.load;
    this.seed = b.seed;
    this.warmupPs = b.warmupPs;
    this.measurePs = b.measurePs;
    this.extraPs = b.extraPs < 0 ? Math.max(b.measurePs, 5_000_000L) : b.extraPs;
    this.drain = b.drain;
    this.drainLimitPs = b.drainLimitPs;
    this.payloadBytes = b.payloadBytes;
    this.fabricSettings = b.fabricSettings;
  }

  /**
   * A builder for a run on a topology.
   *
   * @param topology the topology (at least 2 nodes)
   * @return the builder
   */
  public static Builder on(Topology topology) {
    return new Builder(topology);
  }

  /** Settings of a run; every setter returns the builder. */
  public static final class Builder {
    private final Topology topology;
    private String routing = "adaptive0";
    private RoutingAlgorithm algorithm;
    private RoutingProvider provider;
    private TrafficPattern pattern = TrafficPattern.UNIFORM;
    private double load = 0.5;
    private long seed = 1;
    private long warmupPs = 2_000_000L;
    private long measurePs = 5_000_000L;
    private long extraPs = -1;
    private boolean drain;
    private long drainLimitPs = DEFAULT_DRAIN_LIMIT_PS;
    private int payloadBytes = 64;
    private Consumer<RouterFabric.Builder> fabricSettings = b -> { };

    private Builder(Topology topology) {
      if (topology == null) {
        throw new IllegalArgumentException("topology must not be null");
      }
      if (topology.nodeCount() < 2) {
        throw new IllegalArgumentException("topology must have at least 2 nodes but had " + topology.nodeCount());
      }
      this.topology = topology;
    }

    /** @param name routing name @return this */
    public Builder routing(String name) {
      this.routing = name;
      this.algorithm = null;
      this.provider = null;
      return this;
    }

    /** @param a a routing instance (made for this topology) @return this */
    public Builder routing(RoutingAlgorithm a) {
      this.algorithm = a;
      this.provider = null;
      return this;
    }

    /**
     * @param p a provider; the fabric makes the routing with the run's topology and a seed derived from {@link
     *     #seed(long)}, as it does for a routing chosen by name
     * @return this
     */
    public Builder routing(RoutingProvider p) {
      if (p == null) {
        throw new IllegalArgumentException("provider must not be null");
      }
      this.provider = p;
      this.algorithm = null;
      return this;
    }

    /** @param p traffic pattern @return this */
    public Builder pattern(TrafficPattern p) {
      if (p == null) {
        throw new IllegalArgumentException("pattern must not be null");
      }
      this.pattern = p;
      return this;
    }

    /** @param l offered load, fraction of injection bandwidth, (0, 2] @return this */
    public Builder load(double l) {
      if (!(l > 0 && l <= 2)) {
        throw new IllegalArgumentException("load must be in (0, 2] but was " + l);
      }
      this.load = l;
      return this;
    }

    /** @param s seed of traffic and routing @return this */
    public Builder seed(long s) {
      this.seed = s;
      return this;
    }

    /** @param ps warm-up length, ≥ 0 @return this */
    public Builder warmupPs(long ps) {
      if (ps < 0) {
        throw new IllegalArgumentException("warmupPs must be >= 0 but was " + ps);
      }
      this.warmupPs = ps;
      return this;
    }

    /** @param ps measurement window, > 0 @return this */
    public Builder measurePs(long ps) {
      if (ps <= 0) {
        throw new IllegalArgumentException("measurePs must be > 0 but was " + ps);
      }
      this.measurePs = ps;
      return this;
    }

    /** @param ps most time after the window to wait for measured packets (default max(measure, 5 µs)) @return this */
    public Builder extraPs(long ps) {
      if (ps < 0) {
        throw new IllegalArgumentException("extraPs must be >= 0 but was " + ps);
      }
      this.extraPs = ps;
      return this;
    }

    /** Stop generating after the window and run until the network is empty (the reliability check). @return this */
    public Builder drain() {
      this.drain = true;
      return this;
    }

    /**
     * Bounds a drain: the run stops this long (simulated) after the window even if packets are still moving; the
     * result then has {@code drained == false} and counts the measured packets not delivered.
     *
     * @param ps 1 or more picoseconds
     * @return this
     */
    public Builder drainLimitPs(long ps) {
      if (ps < 1) {
        throw new IllegalArgumentException("drainLimitPs must be >= 1 but was " + ps);
      }
      this.drainLimitPs = ps;
      return this;
    }

    /** @param bytes payload per packet, 0 to 64 @return this */
    public Builder payloadBytes(int bytes) {
      if (bytes < 0 || bytes > 64) {
        throw new IllegalArgumentException("payloadBytes must be in [0, 64] but was " + bytes);
      }
      this.payloadBytes = bytes;
      return this;
    }

    /** @param settings more fabric settings (VCs, buffers, arbitration...) @return this */
    public Builder fabric(Consumer<RouterFabric.Builder> settings) {
      this.fabricSettings = settings == null ? b -> { } : settings;
      return this;
    }

    /** @return the experiment */
    public TrafficExperiment build() {
      return new TrafficExperiment(this);
    }

    /** @return the result of building and running the experiment */
    public TrafficResult run() {
      return build().run();
    }
  }

  /** @return the result of one run */
  public TrafficResult run() {
    return new Run().execute();
  }

  private final class Run implements EventHandler {
    final DeterministicEventLoop loop = new DeterministicEventLoop(1 << 14);
    final RouterFabric fabric;
    final int nodes = topology.nodeCount();
    final int groupNodes = topology.routersPerGroup() * topology.nodesPerRouter();
    final SplittableRandom rnd = new SplittableRandom(seed);
    final ArrayDeque<Packet>[] queues;
    final int[] permutation;
    final int[] allToAllNext;
    final double slotPs;
    final long measureStart = warmupPs;
    final long measureEnd = warmupPs + measurePs;
    final long genEnd;
    final Histogram latency = new Histogram(3);
    long[] created = new long[1 << 16];
    final BitSet seen = new BitSet();
    int nextTag;
    long generated;
    long deliveredTotal;
    long duplicates;
    long measured;
    long measuredDelivered;
    long measuredHops;
    long measuredMinimal;
    long deliveredInWindow;
    long generatedInWindow;
    /** How the fabric routed the packet it is delivering now (its {@code DeliveryObserver} says, just before). */
    boolean deliveringNonMinimal;
    long[] busyAtStart;
    long[] busyAtEnd;
    long[] vcAtStart;
    long[] vcAtEnd;

    @SuppressWarnings("unchecked")
    Run() {
      RouterFabric.Builder fb = RouterFabric.builder(topology, loop).seed(seed ^ 0x5DEECE66DL);
      if (algorithm != null) {
        fb.routing(algorithm);
      } else if (provider != null) {
        fb.routing(provider);
      } else {
        fb.routing(routing);
      }
      fabricSettings.accept(fb);
      fb.observeDeliveries((now, p, nonMinimal) -> deliveringNonMinimal = nonMinimal);
      fabric = fb.build();
      queues = new ArrayDeque[nodes];
      for (int n = 0; n < nodes; n++) {
        queues[n] = new ArrayDeque<>(4);
        fabric.attach(n, new NodePort(n));
      }
      permutation = pattern == TrafficPattern.PERMUTATION ? derangement() : null;
      allToAllNext = pattern == TrafficPattern.ALL_TO_ALL ? new int[nodes] : null;
      int wire = Packet.synthetic(0, 1, 0, DeliveryMode.ADAPTIVE_0, payloadBytes).wireBytes();
      slotPs = wire * 1e12 / topology.injectionBandwidth();
      genEnd = drain ? measureEnd : measureEnd + extraPs;
    }

    TrafficResult execute() {
      long wallStart = System.nanoTime();
      for (int n = 0; n < nodes; n++) {
        loop.scheduleAt(nextGap(), this, null, n);
      }
      loop.scheduleAt(measureStart, this, null, -1);
      loop.scheduleAt(measureEnd, this, null, -2);
      boolean drained = false;
      StuckPackets stuck = null;
      if (drain) {
        long deadline = measureEnd + drainLimitPs;
        loop.runWhile(() -> loop.nextEventTime() <= deadline);
        settleClock(deadline);
        boolean queuesEmpty = true;
        for (ArrayDeque<Packet> q : queues) {
          queuesEmpty &= q.isEmpty();
        }
        drained = queuesEmpty && fabric.quiescent() && deliveredTotal == generated;
        if (!drained) {
          stuck = fabric.stuck();
        }
      } else {
        long cap = measureEnd + extraPs;
        loop.runWhile(() -> loop.now() < measureEnd || (measuredDelivered < measured && loop.nextEventTime() <= cap));
        if (measuredDelivered < measured) {
          settleClock(cap);
        }
      }
      double wall = (System.nanoTime() - wallStart) / 1e9;
      if (busyAtEnd == null) {
        snapshotEnd();
      }
      double window = measurePs;
      double offered = generatedInWindow * slotPs / (nodes * window);
      double accepted = deliveredInWindow * slotPs / (nodes * window);
      Map<String, Double> util = new LinkedHashMap<>();
      for (int c = 0; c < fabric.linkClassCount(); c++) {
        int links = fabric.linkCount(c);
        if (links > 0) {
          util.put(topology.linkClassName(c), (busyAtEnd[c] - busyAtStart[c]) / (links * window));
        }
      }
      double[] vcOcc = new double[fabric.vcCount()];
      int inputs = Math.max(1, fabric.cabledPorts());
      for (int v = 0; v < vcOcc.length; v++) {
        vcOcc[v] = (vcAtEnd[v] - vcAtStart[v]) / (window * inputs);
      }
      boolean any = latency.getTotalCount() > 0;
      return new TrafficResult(
          offered,
          accepted,
          any ? latency.getMean() : Double.NaN,
          any ? latency.getValueAtPercentile(50) : Double.NaN,
          any ? latency.getValueAtPercentile(99) : Double.NaN,
          any ? latency.getMaxValue() : Double.NaN,
          measuredDelivered > 0 ? measuredHops / (double) measuredDelivered : Double.NaN,
          fabric.maxHopsSeen(),
          measuredDelivered > 0 ? measuredMinimal / (double) measuredDelivered : Double.NaN,
          measured,
          measured - measuredDelivered,
          util,
          vcOcc,
          generated,
          deliveredTotal,
          duplicates,
          drained,
          loop.now(),
          loop.eventsExecuted(),
          fabric.packetHops(),
          wall,
          queuedAtSources(),
          stuck);
    }

    /**
     * After a run that ran every event up to {@code limitPs}: moves the clock to the fabric's last buffer release up
     * to that limit, where an event per release would have left it (the fabric runs releases that nothing waits for
     * without events), so the simulated time reported does not depend on how the fabric schedules.
     */
    private void settleClock(long limitPs) {
      long last = fabric.lastReleaseAtOrBefore(limitPs);
      if (last > loop.now()) {
        loop.runUntil(last);
      }
    }

    private long queuedAtSources() {
      long n = 0;
      for (ArrayDeque<Packet> q : queues) {
        n += q.size();
      }
      return n;
    }

    private long nextGap() {
      if (load >= 1) {
        return loop.now() + Math.round(slotPs);
      }
      double u = rnd.nextDouble();
      long k = 1 + (long) Math.floor(Math.log1p(-u) / Math.log1p(-load));
      return loop.now() + Math.round(k * slotPs);
    }

    @Override
    public void onEvent(long now, Object ref, long arg) {
      if (arg == -1) {
        busyAtStart = busy();
        vcAtStart = vcIntegral(now);
        return;
      }
      if (arg == -2) {
        snapshotEnd();
        return;
      }
      int node = (int) arg;
      if (now >= genEnd) {
        return;
      }
      int count = 1;
      if (load > 1 && rnd.nextDouble() < load - 1) {
        count = 2;
      }
      for (int i = 0; i < count; i++) {
        generate(now, node);
      }
      loop.scheduleAt(nextGap(), this, null, node);
    }

    private void snapshotEnd() {
      busyAtEnd = busy();
      vcAtEnd = vcIntegral(loop.now());
    }

    private long[] busy() {
      long[] b = new long[fabric.linkClassCount()];
      for (int c = 0; c < b.length; c++) {
        b[c] = fabric.busyPs(c);
      }
      return b;
    }

    private long[] vcIntegral(long now) {
      long[] v = new long[fabric.vcCount()];
      for (int i = 0; i < v.length; i++) {
        v[i] = fabric.vcOccupancyIntegral(i, now);
      }
      return v;
    }

    private void generate(long now, int src) {
      int dst = destination(src);
      int tag = nextTag++;
      if (tag == created.length) {
        created = Arrays.copyOf(created, created.length * 2);
      }
      created[tag] = now;
      generated++;
      if (now >= measureStart && now < measureEnd) {
        measured++;
        generatedInWindow++;
      }
      queues[src].addLast(Packet.synthetic(src, dst, tag, DeliveryMode.ADAPTIVE_0, payloadBytes));
      if (queues[src].size() == 1) {
        pump(src);
      }
    }

    void pump(int node) {
      ArrayDeque<Packet> q = queues[node];
      while (!q.isEmpty() && fabric.inject(q.peekFirst())) {
        q.pollFirst();
      }
    }

    void delivered(long now, Packet p) {
      int tag = p.tag();
      if (seen.get(tag)) {
        duplicates++;
        return;
      }
      seen.set(tag);
      deliveredTotal++;
      if (now >= measureStart && now < measureEnd) {
        deliveredInWindow++;
      }
      long c = created[tag];
      if (c >= measureStart && c < measureEnd) {
        measuredDelivered++;
        latency.recordValue(Math.max(0, (now - c) / 1000));
        measuredHops += p.hops();
        if (!deliveringNonMinimal) {
          measuredMinimal++;
        }
      }
    }

    private int destination(int src) {
      switch (pattern) {
        case UNIFORM:
          return uniform(src);
        case PERMUTATION:
          return permutation[src];
        case ADVERSARIAL: {
          int groups = topology.groupCount();
          if (groups < 2) {
            return uniform(src);
          }
          int g = (src / groupNodes + 1) % groups;
          return g * groupNodes + rnd.nextInt(groupNodes);
        }
        case NEIGHBOR:
          return (src + 1) % nodes;
        case HOTSPOT:
          return src != 0 && rnd.nextInt(8) == 0 ? 0 : uniform(src);
        case ALL_TO_ALL: {
          int off = allToAllNext[src] + 1;
          if (off >= nodes) {
            off = 1;
          }
          allToAllNext[src] = off;
          return (src + off) % nodes;
        }
        default:
          throw new IllegalStateException("unknown pattern " + pattern);
      }
    }

    private int uniform(int src) {
      int d = rnd.nextInt(nodes - 1);
      return d >= src ? d + 1 : d;
    }

    private int[] derangement() {
      int[] p = new int[nodes];
      for (int i = 0; i < nodes; i++) {
        p[i] = i;
      }
      for (int i = nodes - 1; i > 0; i--) {
        int j = rnd.nextInt(i + 1);
        int t = p[i];
        p[i] = p[j];
        p[j] = t;
      }
      for (int i = 0; i < nodes; i++) {
        if (p[i] == i) {
          int j = (i + 1) % nodes;
          int t = p[i];
          p[i] = p[j];
          p[j] = t;
        }
      }
      return p;
    }

    private final class NodePort implements FabricEndpoint {
      private final int node;

      NodePort(int node) {
        this.node = node;
      }

      @Override
      public void deliver(long nowPs, Packet packet) {
        delivered(nowPs, packet);
      }

      @Override
      public void injectionReady(long nowPs) {
        pump(node);
      }
    }
  }
}
