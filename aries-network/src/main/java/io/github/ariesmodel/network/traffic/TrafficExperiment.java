package io.github.ariesmodel.network.traffic;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.packet.PacketPool;
import io.github.ariesmodel.core.sim.GroupScheduler;
import io.github.ariesmodel.core.sim.PartitionedEngine;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.network.LinkLoad;
import io.github.ariesmodel.network.RouterFabric;
import io.github.ariesmodel.network.StuckPackets;
import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.spi.RoutingProvider;
import io.github.ariesmodel.network.spi.Topology;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * One synthetic-traffic run on a {@link RouterFabric}: every node generates 64-byte PUT packets ({@link
 * Packet#synthetic}) by a Bernoulli process at the offered load (one trial per packet time at the injection rate:
 * load 0.5 = on average one packet every two packet times; loads above 1 add a second packet per slot with the excess
 * probability), queues them at the source without bound, and injects them as the fabric accepts. Load beyond what
 * the fabric accepts piles up there, one packet object each, so memory grows with nodes × simulated time × the
 * excess: at the fastest injection rate ({@link RouterFabric#MAX_BANDWIDTH}, 10^12 B/s) credits, not links, hold a
 * node of the canonical dragonfly to about 10 GB/s (a 2,048-byte VC buffer per credit round trip of some 200 ns), so
 * at load 0.5 each source queues about 6,000 packets a microsecond (at 10^13 B/s, ten times that ran a fuzz run out
 * of memory).
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
 * <p>Deterministic: the same settings and seed give the same result (all but the wall-clock fields), for every
 * thread count. The run uses a {@link PartitionedEngine} with one group per dragonfly group and the smallest latency
 * of a link between groups as its lookahead ({@link RouterFabric#crossGroupLatencyPs}); each group draws its
 * sources' random choices from its own stream (seeded from the seed and the group), and events at equal times run
 * in the engine's (time, scheduling group, that group's counter) order. The end of the run (all measured packets
 * delivered, in the extra time after the window) is checked at the engine's window boundaries, one lookahead apart
 * (on a one-group topology, the smallest link latency apart).
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
  private final int busiestLinks;
  private final long drainLimitPs;
  private final int threads;

  /**
   * Default bound on a drain, simulated time after the window: 100 µs, far beyond the few µs a healthy network
   * needs (assumed), so that a livelocking routing stops with {@code drained == false} instead of running forever.
   */
  public static final long DEFAULT_DRAIN_LIMIT_PS = 100_000_000L;

  /**
   * The lowest offered load. A source's gap between packets is geometric with mean 1/load packet times; from about
   * 1e-14 down its longest draws no longer fit the clock's picoseconds (derived), and below 1e-4 a node offers under
   * one packet per 100 µs, too few to measure anything in a run of usual length. The CLI's {@code traffic --load}
   * and {@code run traffic -p loads=} have the same bound.
   */
  public static final double MIN_LOAD = 0.0001;

  /**
   * The longest warm-up, window or wait after it: 1,000 s (10^15 ps, the CLI's 10^9 µs), so that their sum and the
   * per-picosecond bookkeeping stay inside a {@code long} (a window of {@code Long.MAX_VALUE} overflowed).
   */
  public static final long MAX_SPAN_PS = 1_000_000_000_000_000L;

  /**
   * Packets a group's pool keeps for reuse (assumed: enough for the packets a group has in flight at the loads
   * studied; a group that receives more than it sends lets the collector take the rest).
   */
  static final int POOL_LIMIT = 1 << 14;
  private final int payloadBytes;
  private final Consumer<RouterFabric.Builder> fabricSettings;
  private long packetsMade = -1;

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
    this.busiestLinks = b.busiestLinks;
    this.drainLimitPs = b.drainLimitPs;
    this.threads = b.threads;
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

  /**
   * The packet slot of a run with the default 64-byte payload ({@link Builder#payloadBytes}): one synthetic packet's
   * wire bytes at the topology's injection rate, the time between a source's generation trials (16,000 ps on {@code
   * canonical-small}, about 6,274.5 on {@code aries-small}). A run refuses a measurement window shorter than this,
   * naming {@code measurePs}; a caller that takes the window in its own unit and name checks it against this first.
   * The same figure the run computes; nothing here is used by a run.
   *
   * @param topology the topology
   * @return the slot, picoseconds (not always whole)
   */
  public static double slotPs(Topology topology) {
    if (topology == null) {
      throw new IllegalArgumentException("topology must not be null");
    }
    int wire = Packet.synthetic(0, 1, 0, DeliveryMode.ADAPTIVE_0, 64).wireBytes();
    return wire * 1e12 / topology.injectionBandwidth();
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
    private int busiestLinks;
    private long drainLimitPs = DEFAULT_DRAIN_LIMIT_PS;
    private int threads = 1;
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

    /** @param name routing name (see {@link io.github.ariesmodel.network.Routings#names()}) @return this */
    public Builder routing(String name) {
      if (name == null) {
        throw new IllegalArgumentException("name must not be null");
      }
      this.routing = name;
      this.algorithm = null;
      this.provider = null;
      return this;
    }

    /**
     * @param algorithm a routing instance, made for this topology (the run refuses one whose {@link
     *     RoutingAlgorithm#topology()} is another); its random stream goes on from where the last run left it, so two
     *     runs with the same instance differ where the routing draws (give a name or a {@link RoutingProvider} for a
     *     routing seeded by {@link #seed(long)} at every run)
     * @return this
     */
    public Builder routing(RoutingAlgorithm algorithm) {
      if (algorithm == null) {
        throw new IllegalArgumentException("algorithm must not be null");
      }
      this.algorithm = algorithm;
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

    /**
     * @param p traffic pattern; {@link TrafficPattern#ADVERSARIAL} (group i to group i + 1) needs at least 2 groups
     * @return this
     */
    public Builder pattern(TrafficPattern p) {
      if (p == null) {
        throw new IllegalArgumentException("pattern must not be null");
      }
      if (p == TrafficPattern.ADVERSARIAL && topology.groupCount() < 2) {
        // it ran uniform traffic and reported it as adversarial
        throw new IllegalArgumentException("pattern adversarial sends each group's nodes to the next group and needs"
            + " at least 2 groups, but the topology has " + topology.groupCount() + "; choose another pattern");
      }
      this.pattern = p;
      return this;
    }

    /** @param l offered load, fraction of injection bandwidth, [{@link #MIN_LOAD}, 2] @return this */
    public Builder load(double l) {
      if (!(l >= MIN_LOAD && l <= 2)) {
        throw new IllegalArgumentException("load must be in [" + MIN_LOAD + ", 2] but was " + l);
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
      if (ps < 0 || ps > MAX_SPAN_PS) {
        throw new IllegalArgumentException("warmupPs must be in [0, " + MAX_SPAN_PS + "] but was " + ps);
      }
      this.warmupPs = ps;
      return this;
    }

    /**
     * @param ps measurement window, 1 ps to {@code MAX_SPAN_PS}; a run refuses one shorter than a packet slot (a
     *     packet's wire bytes at the topology's injection rate: 16 ns on {@code canonical-small})
     * @return this
     */
    public Builder measurePs(long ps) {
      if (ps <= 0 || ps > MAX_SPAN_PS) {
        throw new IllegalArgumentException("measurePs must be in [1, " + MAX_SPAN_PS + "] but was " + ps);
      }
      this.measurePs = ps;
      return this;
    }

    /** @param ps most time after the window to wait for measured packets (default max(measure, 5 µs)) @return this */
    public Builder extraPs(long ps) {
      if (ps < 0 || ps > MAX_SPAN_PS) {
        throw new IllegalArgumentException("extraPs must be in [0, " + MAX_SPAN_PS + "] but was " + ps);
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
     * Lists the link directions that were busiest during the measurement window ({@link TrafficResult#busiestLinks()},
     * from {@link RouterFabric#busiestLinks(int, long[], long[])}).
     *
     * @param n how many, 0 (the default: none) to 1,000
     * @return this
     */
    public Builder busiestLinks(int n) {
      if (n < 0 || n > 1000) {
        throw new IllegalArgumentException("busiestLinks must be in [0, 1000] but was " + n);
      }
      this.busiestLinks = n;
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

    /**
     * Runs the groups on this many threads ({@link PartitionedEngine}); the result is the same for every count. A
     * count above the topology's groups uses one thread per group. A routing instance ({@link
     * #routing(RoutingAlgorithm)}) needs one thread.
     *
     * @param n 1 or more (default 1)
     * @return this
     */
    public Builder threads(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("threads must be >= 1 but was " + n);
      }
      this.threads = n;
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
      if (settings == null) {
        throw new IllegalArgumentException("settings must not be null");
      }
      this.fabricSettings = settings;
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
    try (Run r = new Run()) {
      r.checkWindow();
      TrafficResult result = r.execute();
      long made = 0;
      for (PacketPool p : r.pools) {
        made += p.made();
      }
      packetsMade = made;
      return result;
    }
  }

  /**
   * @return packets the last {@link #run()} allocated (every other packet its sources made was a delivered one taken
   *     back), or -1 before a run
   */
  public long packetsMade() {
    return packetsMade;
  }

  /** What a run counts, per group (a source's group for what it generates, a destination's for what arrives). */
  private enum Count {
    GENERATED,
    GENERATED_IN_WINDOW,
    MEASURED,
    DELIVERED,
    DUPLICATES,
    DELIVERED_IN_WINDOW,
    MEASURED_DELIVERED,
    MEASURED_HOPS,
    MEASURED_MINIMAL
  }

  /**
   * One group's packets by tag: a byte each, set when the packet is delivered, so a second delivery is seen as a
   * duplicate. In chunks that never move once made: a destination in another group (on another thread) marks the
   * entry of a packet made in an earlier window while the source keeps adding entries; bytes are written whole, so
   * marks of neighbouring tags by different threads never disturb each other. (The creation time rides in the packet,
   * {@link Packet#createdAtPs()}: reading it here was a cache miss per delivery on the full system.)
   */
  static final class DeliveryMarks {
    static final int CHUNK_BITS = 16;
    /** Group g's chunk c at {@code g * perGroup + c}: one table, so a mark reads one cached reference, not three. */
    final byte[][] chunks;
    final int perGroup;
    /** Group g's next tag at {@code g << 4}: a line a group, as the groups' threads write them. */
    final int[] size;

    DeliveryMarks(int groups, long maxEntries) {
      long capped = Math.min(maxEntries, Integer.MAX_VALUE);
      perGroup = (int) ((capped >> CHUNK_BITS) + 1);
      chunks = new byte[Math.multiplyExact(groups, perGroup)][];
      size = new int[groups << 4];
    }

    /** @return group {@code g}'s next packet's tag */
    int add(int g) {
      int tag = size[g << 4];
      int c = tag >>> CHUNK_BITS;
      if (c >= perGroup) {
        throw new IllegalStateException("more packets generated in a group than the bound " + tag);
      }
      int k = g * perGroup + c;
      if (chunks[k] == null) {
        chunks[k] = new byte[1 << CHUNK_BITS];
      }
      size[g << 4] = tag + 1;
      return tag;
    }

    /** Marks group {@code g}'s {@code tag} delivered. @return whether it was already */
    boolean mark(int g, int tag) {
      byte[] chunk = chunks[g * perGroup + (tag >>> CHUNK_BITS)];
      int i = tag & ((1 << CHUNK_BITS) - 1);
      boolean before = chunk[i] != 0;
      chunk[i] = 1;
      return before;
    }
  }

  /**
   * One run on a {@link PartitionedEngine} with one group per dragonfly group: each node's traffic source belongs to
   * its group and draws from its group's random stream; counts are kept per group and summed in group order, and the
   * latency histograms of the groups are added in group order; so the result is the same for every thread count.
   */
  private final class Run implements EventHandler, AutoCloseable {
    final PartitionedEngine engine;
    final RouterFabric fabric;
    final int nodes = topology.nodeCount();
    final int groups = topology.groupCount();
    final int groupNodes = topology.routersPerGroup() * topology.nodesPerRouter();
    final SplittableRandom[] rnd;
    final GroupScheduler[] scheds;
    final ArrayDeque<Packet>[] queues;
    /**
     * Per group, the packets its sources take and its nodes give back once a packet is delivered and counted: the
     * fabric hands a delivered packet to its endpoint, and no hop listener or observer keeps one past delivery (their
     * contracts). Bounded, as a group may receive more than it sends (a hot spot).
     */
    final PacketPool[] pools;
    final int[] permutation;
    final int[] allToAllNext;
    final double slotPs;
    /** The geometric gap draws (null at load 1 and above, where every slot has a packet). */
    final GeometricGaps gaps = load < 1 ? new GeometricGaps(load) : null;
    final long measureStart = warmupPs;
    final long measureEnd = warmupPs + measurePs;
    final long genEnd;
    final Histogram[] latency;
    final DeliveryMarks marks;
    final long[][] counts;
    /** Per destination group: how the fabric routed the packet it is delivering now (its observer says, just before). */
    final boolean[] deliveringNonMinimal;
    long[] busyAtStart;
    /** The window's busiest link directions, when asked for ({@link Builder#busiestLinks}). */
    List<LinkLoad> hot = List.of();
    long[] busyAtEnd;
    long[] vcAtStart;
    long[] vcAtEnd;

    @SuppressWarnings("unchecked")
    Run() {
      long lookahead = RouterFabric.engineLookaheadPs(topology);
      engine = PartitionedEngine.of(groups, lookahead, Math.min(threads, groups));
      RouterFabric.Builder fb = RouterFabric.builder(topology, engine).seed(seed ^ 0x5DEECE66DL);
      if (algorithm != null) {
        fb.routing(algorithm);
      } else if (provider != null) {
        fb.routing(provider);
      } else {
        fb.routing(routing);
      }
      fabricSettings.accept(fb);
      deliveringNonMinimal = new boolean[groups];
      fb.observeDeliveries((now, p, nonMinimal) -> deliveringNonMinimal[groupOfNode(p.destinationNode())] = nonMinimal);
      fabric = fb.build();
      rnd = new SplittableRandom[groups];
      pools = new PacketPool[groups];
      scheds = new GroupScheduler[groups];
      latency = new Histogram[groups];
      counts = new long[groups][Count.values().length];
      int wire = Packet.synthetic(0, 1, 0, DeliveryMode.ADAPTIVE_0, payloadBytes).wireBytes();
      slotPs = wire * 1e12 / topology.injectionBandwidth();
      genEnd = drain ? measureEnd : measureEnd + extraPs;
      // at most two packets per generation event, and generation events at least one packet time apart
      long gap = Math.max(1, Math.round(slotPs));
      long perNode = 2 * (genEnd / gap + 2);
      long perGroup = perNode > Long.MAX_VALUE / groupNodes ? Long.MAX_VALUE : perNode * groupNodes;
      marks = new DeliveryMarks(groups, perGroup);
      for (int g = 0; g < groups; g++) {
        rnd[g] = new SplittableRandom(mix(seed, g));
        pools[g] = new PacketPool(POOL_LIMIT);
        scheds[g] = engine.group(g);
        latency[g] = new Histogram(3);
      }
      queues = new ArrayDeque[nodes];
      for (int n = 0; n < nodes; n++) {
        queues[n] = new ArrayDeque<>(4);
        fabric.attach(n, new NodePort(n));
      }
      permutation = pattern == TrafficPattern.PERMUTATION ? derangement(new SplittableRandom(seed)) : null;
      allToAllNext = pattern == TrafficPattern.ALL_TO_ALL ? new int[nodes] : null;
    }

    int groupOfNode(int node) {
      return node / groupNodes;
    }

    /**
     * Refuses a measurement window shorter than one packet slot, after the fabric's own settings are checked (so
     * their refusals come first, as before): sources generate on slot boundaries, so such a window holds a whole
     * slot's packets or none, and its offered load came out as thousands (9333.33 for 1 ps on canonical-small).
     */
    void checkWindow() {
      if (measurePs < slotPs) {
        int wire = Packet.synthetic(0, 1, 0, DeliveryMode.ADAPTIVE_0, payloadBytes).wireBytes();
        throw new IllegalArgumentException("measurePs must be at least one packet slot, " + (long) Math.ceil(slotPs)
            + " ps here (" + wire + " wire bytes at the topology's injection rate), but was " + measurePs);
      }
    }

    @Override
    public void close() {
      engine.close();
    }

    TrafficResult execute() {
      long wallStart = System.nanoTime();
      for (int n = 0; n < nodes; n++) {
        int g = groupOfNode(n);
        scheds[g].scheduleAt(nextGap(g), this, null, n);
      }
      // the window's statistics are read between events: before every event of its first and after every event
      // before its end
      if (measureStart > 0) {
        engine.runUntil(measureStart - 1);
      }
      busyAtStart = busy(measureStart);
      vcAtStart = vcIntegral(measureStart);
      long[] portsAtStart = busiestLinks > 0 ? fabric.portBusyPs(measureStart) : null;
      engine.runUntil(measureEnd - 1);
      busyAtEnd = busy(measureEnd);
      vcAtEnd = vcIntegral(measureEnd);
      hot = busiestLinks > 0 ? fabric.busiestLinks(busiestLinks, portsAtStart, fabric.portBusyPs(measureEnd))
          : List.of();
      boolean drained = false;
      StuckPackets stuck = null;
      if (drain) {
        long deadline = measureEnd + drainLimitPs;
        engine.runWhile(deadline, () -> true);
        boolean queuesEmpty = true;
        for (ArrayDeque<Packet> q : queues) {
          queuesEmpty &= q.isEmpty();
        }
        drained = queuesEmpty && fabric.quiescent() && total(Count.DELIVERED) == total(Count.GENERATED);
        if (!drained) {
          stuck = fabric.stuck();
        }
      } else {
        long cap = measureEnd + extraPs;
        engine.runWhile(cap, () -> total(Count.MEASURED_DELIVERED) < total(Count.MEASURED));
      }
      double wall = (System.nanoTime() - wallStart) / 1e9;
      double window = measurePs;
      double offered = total(Count.GENERATED_IN_WINDOW) * slotPs / (nodes * window);
      double accepted = total(Count.DELIVERED_IN_WINDOW) * slotPs / (nodes * window);
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
      Histogram all = new Histogram(3);
      for (Histogram h : latency) {
        all.add(h);
      }
      long measured = total(Count.MEASURED);
      long measuredDelivered = total(Count.MEASURED_DELIVERED);
      boolean any = all.getTotalCount() > 0;
      return new TrafficResult(
          offered,
          accepted,
          any ? all.getMean() : Double.NaN,
          any ? all.getValueAtPercentile(50) : Double.NaN,
          any ? all.getValueAtPercentile(99) : Double.NaN,
          any ? all.getMaxValue() : Double.NaN,
          measuredDelivered > 0 ? total(Count.MEASURED_HOPS) / (double) measuredDelivered : Double.NaN,
          fabric.maxHopsSeen(),
          measuredDelivered > 0 ? total(Count.MEASURED_MINIMAL) / (double) measuredDelivered : Double.NaN,
          measured,
          measured - measuredDelivered,
          util,
          vcOcc,
          total(Count.GENERATED),
          total(Count.DELIVERED),
          total(Count.DUPLICATES),
          drained,
          engine.now(),
          engine.eventsExecuted(),
          fabric.packetHops(),
          wall,
          queuedAtSources(),
          stuck,
          hot);
    }

    /** A count summed over groups in group order (between windows). */
    long total(Count c) {
      long sum = 0;
      for (long[] g : counts) {
        sum += g[c.ordinal()];
      }
      return sum;
    }

    private long queuedAtSources() {
      long n = 0;
      for (ArrayDeque<Packet> q : queues) {
        n += q.size();
      }
      return n;
    }

    private long nextGap(int g) {
      long now = scheds[g].now();
      if (load >= 1) {
        return now + Math.round(slotPs);
      }
      double u = rnd[g].nextDouble();
      long k = gaps.slots(u);
      return now + Math.round(k * slotPs);
    }

    /** A node's generation event: {@code arg} is the node. */
    @Override
    public void onEvent(long now, Object ref, long arg) {
      int node = (int) arg;
      if (now >= genEnd) {
        return;
      }
      int g = groupOfNode(node);
      int count = 1;
      if (load > 1 && rnd[g].nextDouble() < load - 1) {
        count = 2;
      }
      for (int i = 0; i < count; i++) {
        generate(now, node, g);
      }
      scheds[g].scheduleAt(nextGap(g), this, null, node);
    }

    /** Busy time of each link class up to {@code atPs}, the part of a serialization beyond it left out. */
    private long[] busy(long atPs) {
      long[] b = new long[fabric.linkClassCount()];
      for (int c = 0; c < b.length; c++) {
        b[c] = fabric.linkClassBusyPs(c, atPs);
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

    private void generate(long now, int src, int g) {
      int dst = destination(src, rnd[g]);
      int tag = marks.add(g);
      long[] c = counts[g];
      c[Count.GENERATED.ordinal()]++;
      if (now >= measureStart && now < measureEnd) {
        c[Count.MEASURED.ordinal()]++;
        c[Count.GENERATED_IN_WINDOW.ordinal()]++;
      }
      Packet p = pools[g].synthetic(src, dst, tag, DeliveryMode.ADAPTIVE_0, payloadBytes);
      p.createdAtPs(now);
      queues[src].addLast(p);
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
      int g = groupOfNode(p.destinationNode());
      long[] c = counts[g];
      if (marks.mark(groupOfNode(p.sourceNode()), p.tag())) {
        c[Count.DUPLICATES.ordinal()]++;
        return;
      }
      long stamp = p.createdAtPs();
      c[Count.DELIVERED.ordinal()]++;
      if (now >= measureStart && now < measureEnd) {
        c[Count.DELIVERED_IN_WINDOW.ordinal()]++;
      }
      if (stamp >= measureStart && stamp < measureEnd) {
        c[Count.MEASURED_DELIVERED.ordinal()]++;
        latency[g].recordValue(Math.max(0, (now - stamp) / 1000));
        c[Count.MEASURED_HOPS.ordinal()] += p.hops();
        if (!deliveringNonMinimal[g]) {
          c[Count.MEASURED_MINIMAL.ordinal()]++;
        }
      }
    }

    private int destination(int src, SplittableRandom r) {
      switch (pattern) {
        case UNIFORM:
          return uniform(src, r);
        case PERMUTATION:
          return permutation[src];
        case ADVERSARIAL: {
          int g = (src / groupNodes + 1) % groups;
          return g * groupNodes + r.nextInt(groupNodes);
        }
        case NEIGHBOR:
          return (src + 1) % nodes;
        case HOTSPOT:
          return src != 0 && r.nextInt(8) == 0 ? 0 : uniform(src, r);
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

    private int uniform(int src, SplittableRandom r) {
      int d = r.nextInt(nodes - 1);
      return d >= src ? d + 1 : d;
    }

    private int[] derangement(SplittableRandom r) {
      int[] p = new int[nodes];
      for (int i = 0; i < nodes; i++) {
        p[i] = i;
      }
      for (int i = nodes - 1; i > 0; i--) {
        int j = r.nextInt(i + 1);
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
      /** Its group's pool, used on its group's thread only. */
      private final PacketPool pool;

      NodePort(int node) {
        this.node = node;
        this.pool = pools[groupOfNode(node)];
      }

      @Override
      public void deliver(long nowPs, Packet packet) {
        delivered(nowPs, packet);
        pool.release(packet);
      }

      @Override
      public void injectionReady(long nowPs) {
        pump(node);
      }
    }
  }

  /** A group's seed: the run's seed and the group id, mixed (SplitMix64's finalizer). */
  private static long mix(long seed, int group) {
    long z = seed + (group + 1) * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
