package io.github.ariesmodel.network;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.FabricEndpoints;
import io.github.ariesmodel.core.sim.SerialChannel;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.network.spi.Candidates;
import io.github.ariesmodel.network.spi.DragonflyPaths;
import io.github.ariesmodel.network.spi.HopListener;
import io.github.ariesmodel.network.spi.RouterView;
import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.spi.RoutingProvider;
import io.github.ariesmodel.network.spi.Topology;
import java.util.Arrays;

/**
 * The packet-level router fabric: implements core's {@link Fabric} port over any {@link Topology}.
 *
 * <p><b>Fidelity.</b> Packets (whole, ≤ 84 wire bytes, {@code WireFormat}) move by virtual cut-through: a packet's
 * head reaches the next router one wire latency after it starts to serialize, is routed one pipeline latency later
 * and may leave before its tail has arrived. Each router input has, per virtual channel, a buffer of
 * {@code vcBufferBytes} bytes; the upstream output port holds one credit counter per downstream VC (bytes) and sends
 * only when the whole packet fits. Credits come back one wire latency after the packet's tail has left the buffer.
 * After routing a packet waits in a per-(output port, VC) FIFO; a free output link picks the next VC that has a
 * packet and credits, round-robin or oldest-first ({@link Arbitration}), and serializes it at the link's rate.
 * Packets at their destination router wait in a per-node ejection FIFO and serialize over the node's ejection link;
 * the NIC always accepts them. Injection: {@link #inject} takes a packet when the node's injection buffer
 * ({@code injectionBufferBytes}) has room, else returns false and calls {@link FabricEndpoint#injectionReady} once
 * room frees. Not modelled: flits, the tile structure, row/column buses, link-level retry, the DAMQ's sharing of one
 * buffer among VCs (each VC gets a fixed share).
 *
 * <p><b>Numbers.</b> 8 VCs [S6f]; pipeline 90 ns (<em>assumed</em>: with the topologies' assumed 5-100 ns wires a
 * quiet hop costs about 100 ns [S3 via S1]); 2,048 bytes per VC (<em>derived</em> from the 128-block DAMQ of 8
 * flits [S6f] at an assumed 16-byte flit, split over 8 VCs); injection buffer 4,096 bytes (<em>derived</em>: two
 * processor tiles per NIC [S15] × the 2,048 bytes a network input buffers per VC).
 *
 * <p><b>Deadlock freedom.</b> Every built-in routing puts a packet on VC = hops taken so far, so each packet climbs
 * the VCs strictly and the channel-dependency graph is acyclic (Dally and Seitz); it needs as many VCs as the longest
 * route has hops: 8 for Valiant on Aries (2 local + 1 global + 2 + 1 + 2). Each routing states that need ({@link
 * RoutingAlgorithm#virtualChannelsNeeded()}) and {@link Builder#build()} refuses fewer VCs. Ejection never blocks
 * (the NIC always accepts), so requests and responses can share the VCs without protocol deadlock.
 *
 * <p><b>Events.</b> Each kind of event has its own handler object, made once per fabric: a packet's head
 * <em>arrives</em> at a router (after wire and pipeline latency) and is routed or queued for ejection; an output
 * <em>link frees</em> and sends the next packet; a <em>credit returns</em> upstream for the VC the packet's tail left
 * (one handler per VC, the upstream port in the event and the byte count read from the packet); the node's
 * <em>injection buffer frees</em>; a packet is <em>delivered</em> to its node.
 *
 * <p>A link-free event is scheduled only when a packet will be able to go as the link frees (queued, with the credits
 * it needs); otherwise it would find nothing to send. On core's {@link DeterministicEventLoop} the fabric reserves the event's place in the loop's (time,
 * sequence) order when the link starts sending ({@link DeterministicEventLoop#reserveSequence()}) and schedules it
 * under that number only once a packet queues for the busy link, so every other event runs in exactly the order it
 * would with an event per send, and results are unchanged (docs/performance.md, "Events per packet-hop"). On other
 * schedulers it schedules one per send.
 *
 * <p>Buffer releases (credit returns and injection-buffer frees) go the same way further: each takes its reserved
 * place in the order when the packet's tail leaves, is kept in a per-owner list sorted by (time, sequence), and
 * takes effect <em>lazily</em>: every read of a port's credits or a node's injection room first applies the releases
 * that come before the running event (each fabric event knows its own number). Only a release that something may
 * wait for becomes an event: the credit that gives a waiting queue head enough room, the free a blocked node waits
 * for, a credit whose buffer might then be short of room for some packet, and a free that falls on the very
 * picosecond of an event already scheduled that might come to wait for it (the loop cannot schedule at the current
 * time under an earlier number). VC occupancy is
 * integrated as Σ Δ × (T − t), so changes may be applied out of time order. A caller's event that injects at the
 * very picosecond a buffer frees sees that free only if it is not its own (an injection at that instant is refused
 * and told when the room is there, as with an event per free). Results are bit-identical to an event per release
 * ({@code LazyReleaseProperties}); only the event count and, when a run ends, the loop's clock (which may stop before
 * the last credits come home: {@link #lastReleaseAtOrBefore}) differ.
 *
 * <p><b>Route state.</b> Each packet in flight has a record (a slot of pooled primitive arrays, from injection to
 * delivery): the input buffer and VC it occupies, the intermediate it is committed to and whether it was ever
 * committed (non-minimal). Routings read it through {@link RouterView#intermediate()} and {@link
 * RouterView#nonMinimal()} and change it only by the candidate they choose (see {@link Candidates}); the fabric clears
 * the intermediate on the arrival where {@link DragonflyPaths#reached} holds. The packet itself carries only the
 * transit record every fabric writes (hops, injection time). {@link DeliveryObserver}s learn per packet whether it
 * was routed non-minimally.
 *
 * <p>Other state lives in primitive arrays indexed by global port ({@code router × radix + port}) and by
 * {@code port × VCs + vc}; queued packets are linked lists through their slots. Forwarding a packet allocates nothing
 * once the pool has grown to the working set. Single-threaded.
 */
public final class RouterFabric implements Fabric {

  private final Topology topo;
  private final Scheduler scheduler;
  /** The scheduler when it is core's loop (link-free events are then scheduled only when needed), else null. */
  private final DeterministicEventLoop loop;
  /**
   * Whether buffer releases (credit returns, injection-buffer frees) are applied lazily and scheduled only when
   * needed: with {@link #loop}, every link of finite rate and every latency plus pipeline above 0 (so that each of
   * the fabric's own events can take a reserved place in the loop's order).
   */
  private final boolean lazy;
  private final RoutingAlgorithm[] routingByMode;
  private final String routingName;
  private final int vcs;
  private final int vcBufferBytes;
  private final int injectionBufferBytes;
  private final long pipelinePs;
  private final long injectionLatencyPs;
  private final Arbitration arbitration;
  private final int maxHops;
  private final DeliveryObserver observer;
  private final HopListener hopListener;
  private final DragonflyPaths paths;

  private final int radix;
  /** The largest packet injected so far, wire bytes. */
  private int maxWireBytes;
  private final int netPorts;
  private final int[] peer;
  private final byte[] portClass;
  private final double[] psPerByteClass;
  private final long[] latencyClass;
  private final double psPerByteInjection;

  // per output port
  private final long[] linkFreeAt;
  /** The loop sequence number reserved for the link-free event at {@link #linkFreeAt} (with {@link #loop}). */
  private final long[] linkFreeSeq;
  /** Whether that link-free event has been scheduled. */
  private final boolean[] linkFreeScheduled;
  private final int[] queuedBytes;
  private final int[] creditsUsed;
  private final int[] waiting;
  private final byte[] rr;
  // per output port × VC
  private final int[] credits;
  private final int[] qHead;
  private final int[] qTail;
  // per node
  private final FabricEndpoints endpoints;
  private final int[] injFree;
  private final long[] injLinkFreeAt;
  private final boolean[] injBlocked;
  private final int[] ejHead;
  private final int[] ejTail;
  private final long[] ejFreeAt;

  // per packet in flight: a pooled slot from injection to delivery
  private Packet[] slotPacket;
  /** Next slot in the queue the packet waits in (or in the free list). */
  private int[] slotNext;
  /** The input buffer the packet occupies: a global port, or {@code netPorts + node} for the injection buffer. */
  private int[] slotInput;
  /** The VC of that input buffer. */
  private int[] slotVc;
  /** The intermediate router the packet is on its way to, or -1. */
  private int[] slotIntermediate;
  /** Whether the packet was ever committed to an intermediate. */
  private boolean[] slotNonMinimal;
  /** The loop sequence number of the packet's pending arrival or delivery event (with {@link #lazy}). */
  private long[] slotSeq;
  private int freeSlot = -1;
  private int slotsUsed;

  // pending buffer releases: a pooled record each, in a list per owner sorted by (time, sequence)
  /** When the release takes effect (the credit reaches the upstream port, or the injection buffer frees). */
  private long[] relTime;
  /** The loop sequence number reserved for it when it was made: its place among events at equal times. */
  private long[] relSeq;
  /** Its owner: the upstream output port the credit returns to, or {@code netPorts + node} for an injection buffer. */
  private int[] relOwner;
  private int[] relVc;
  private int[] relBytes;
  private int[] relNext;
  /** {@link #REL_SCHEDULED} and {@link #REL_APPLIED} bits. */
  private byte[] relFlags;
  private int relFree = -1;
  private int relUsed;
  /** Per owner, the first pending release (earliest in (time, sequence) order), or -1. */
  private final int[] relHead;
  private static final byte REL_SCHEDULED = 1;
  private static final byte REL_APPLIED = 2;
  private static final byte REL_ACTED = 4;
  /**
   * The loop sequence number of the fabric event running now, or {@link Long#MAX_VALUE} outside the fabric's own
   * events (a caller's event, or between events): a release at the current time then counts as done.
   */
  private long curSeq = Long.MAX_VALUE;

  // one handler per kind of event (see the class comment)
  private final EventHandler arrival = this::arrive;
  private final EventHandler linkFree = this::linkFree;
  private final EventHandler creditReturn = this::creditReturn;
  private final EventHandler injectionBufferFree = this::injectionBufferFree;
  private final EventHandler delivery = this::deliver;

  private final View view = new View();
  private final Candidates candidates = new Candidates();

  // statistics
  private long injected;
  private long delivered;
  private long packetHops;
  private long nonMinimalDelivered;
  private long hopsDelivered;
  private int maxHopsSeen;
  /** Releases that had to be scheduled at the current time, after their place in the order (see scheduleRelease). */
  private long sameTimeReleases;
  private final long[] classBusyPs;
  private final long[] portBusyPs;
  /** Per VC, Σ Δoccupancy × time of change, so that the integral up to T is occupancy × T − this (any order). */
  private final long[] vcOccupancyTimeSum;
  private final long[] vcOccupancy;
  private final int[] classPortCount;

  private RouterFabric(Builder b) {
    this.topo = b.topology;
    this.scheduler = b.scheduler;
    this.loop = b.scheduler instanceof DeterministicEventLoop d ? d : null;
    this.vcs = b.vcs;
    this.vcBufferBytes = b.vcBufferBytes;
    this.injectionBufferBytes = b.injectionBufferBytes;
    this.pipelinePs = b.pipelinePs;
    this.injectionLatencyPs = b.injectionLatencyPs;
    this.arbitration = b.arbitration;
    this.maxHops = b.maxHops;
    this.observer = b.observer;
    this.hopListener = b.hopListener;
    this.paths = new DragonflyPaths(topo);
    this.routingByMode = b.routings();
    this.routingName = b.routingName();
    this.radix = topo.portCount();
    this.netPorts = topo.routerCount() * radix;
    int routers = topo.routerCount();
    int classes = topo.linkClassCount();
    this.peer = new int[netPorts];
    this.portClass = new byte[netPorts];
    this.classPortCount = new int[classes];
    for (int r = 0; r < routers; r++) {
      for (int p = 0; p < radix; p++) {
        int g = r * radix + p;
        int nr = topo.neighborRouter(r, p);
        peer[g] = nr < 0 ? -1 : nr * radix + topo.neighborPort(r, p);
        portClass[g] = (byte) topo.linkClass(r, p);
        if (nr >= 0) {
          classPortCount[portClass[g]]++;
        }
      }
    }
    this.psPerByteClass = new double[classes];
    this.latencyClass = new long[classes];
    for (int c = 0; c < classes; c++) {
      psPerByteClass[c] = SerialChannel.psPerByte(topo.linkBandwidth(c));
      latencyClass[c] = topo.linkLatencyPs(c);
    }
    this.psPerByteInjection = SerialChannel.psPerByte(topo.injectionBandwidth());
    boolean reservable = loop != null && psPerByteInjection > 0 && pipelinePs + injectionLatencyPs > 0;
    for (int c = 0; c < classes; c++) {
      reservable &= psPerByteClass[c] > 0 && latencyClass[c] + pipelinePs > 0;
    }
    this.lazy = reservable;
    this.linkFreeAt = new long[netPorts];
    this.linkFreeSeq = new long[loop != null ? netPorts : 0];
    this.linkFreeScheduled = new boolean[loop != null ? netPorts : 0];
    this.queuedBytes = new int[netPorts];
    this.creditsUsed = new int[netPorts];
    this.waiting = new int[netPorts];
    this.rr = new byte[netPorts];
    this.credits = new int[netPorts * vcs];
    Arrays.fill(credits, vcBufferBytes);
    this.qHead = new int[netPorts * vcs];
    this.qTail = new int[netPorts * vcs];
    Arrays.fill(qHead, -1);
    Arrays.fill(qTail, -1);
    int nodes = topo.nodeCount();
    this.endpoints = new FabricEndpoints(nodes);
    this.injFree = new int[nodes];
    Arrays.fill(injFree, injectionBufferBytes);
    this.injLinkFreeAt = new long[nodes];
    this.injBlocked = new boolean[nodes];
    this.ejHead = new int[nodes];
    this.ejTail = new int[nodes];
    Arrays.fill(ejHead, -1);
    Arrays.fill(ejTail, -1);
    this.ejFreeAt = new long[nodes];
    int initialSlots = 1024;
    slotPacket = new Packet[initialSlots];
    slotNext = new int[initialSlots];
    slotInput = new int[initialSlots];
    slotVc = new int[initialSlots];
    slotIntermediate = new int[initialSlots];
    slotNonMinimal = new boolean[initialSlots];
    slotSeq = new long[initialSlots];
    relTime = new long[initialSlots];
    relSeq = new long[initialSlots];
    relOwner = new int[initialSlots];
    relVc = new int[initialSlots];
    relBytes = new int[initialSlots];
    relNext = new int[initialSlots];
    relFlags = new byte[initialSlots];
    this.relHead = new int[netPorts + nodes];
    Arrays.fill(relHead, -1);
    this.classBusyPs = new long[classes];
    this.portBusyPs = new long[netPorts];
    this.vcOccupancyTimeSum = new long[vcs];
    this.vcOccupancy = new long[vcs];
  }

  /**
   * A builder for a fabric on a topology, driven by a scheduler.
   *
   * @param topology the router graph
   * @param scheduler the clock (usually core's DeterministicEventLoop)
   * @return the builder
   */
  public static Builder builder(Topology topology, Scheduler scheduler) {
    return new Builder(topology, scheduler);
  }

  /**
   * Settings of a {@link RouterFabric}; every setter returns the builder. The routing is chosen once: a later
   * {@code routing(...)} or {@link #routingByDeliveryMode()} replaces an earlier one. {@link #build()} refuses a
   * routing that needs more virtual channels than {@link #vcs(int)} gives.
   */
  public static final class Builder {
    private final Topology topology;
    private final Scheduler scheduler;
    private String routing = "adaptive0";
    private RoutingAlgorithm algorithm;
    private RoutingProvider provider;
    private boolean byDeliveryMode;
    private DeliveryObserver observer;
    private HopListener hopListener;
    private long seed = 1;
    private int vcs = 8;
    private int vcBufferBytes = 2048;
    // Two processor tiles per NIC [S15], each buffering 2,048 bytes for the request VC as a network input does:
    // 4,096 bytes (derived). A 1 KB buffer left the NIC idle after every refused injection, so a single-path stream
    // filled only 83% of a rank-1 link (docs/validation.md).
    private int injectionBufferBytes = 4096;
    private long pipelinePs = 90_000;
    private long injectionLatencyPs = 5_000;
    private Arbitration arbitration = Arbitration.ROUND_ROBIN;
    private int maxHops = 64;

    private Builder(Topology topology, Scheduler scheduler) {
      if (topology == null) {
        throw new IllegalArgumentException("topology must not be null");
      }
      if (scheduler == null) {
        throw new IllegalArgumentException("scheduler must not be null");
      }
      this.topology = topology;
      this.scheduler = scheduler;
    }

    /**
     * @param name a routing name (see {@link Routings#names()}) used for every packet, or {@value
     *     Routings#BY_DELIVERY_MODE} (the same as {@link #routingByDeliveryMode()})
     * @return this
     */
    public Builder routing(String name) {
      if (name != null && name.trim().equalsIgnoreCase(Routings.BY_DELIVERY_MODE)) {
        return routingByDeliveryMode();
      }
      this.routing = name;
      this.algorithm = null;
      this.provider = null;
      this.byDeliveryMode = false;
      return this;
    }

    /** @param algorithm a routing instance used for every packet @return this */
    public Builder routing(RoutingAlgorithm algorithm) {
      if (algorithm == null) {
        throw new IllegalArgumentException("algorithm must not be null");
      }
      this.algorithm = algorithm;
      this.provider = null;
      this.byDeliveryMode = false;
      return this;
    }

    /**
     * A routing made by a provider with this builder's topology and {@link #seed(long)}, so a user's routing draws
     * its random choices from the same seed as the rest of the run.
     *
     * @param provider the provider, e.g. a user's registered one
     * @return this
     */
    public Builder routing(RoutingProvider provider) {
      if (provider == null) {
        throw new IllegalArgumentException("provider must not be null");
      }
      this.provider = provider;
      this.algorithm = null;
      this.byDeliveryMode = false;
      return this;
    }

    /**
     * Routes each packet by its {@link DeliveryMode} ({@link Routings#nameFor}): ADAPTIVE_n → adaptiveN, MIN_HASH →
     * minimal, NMIN_HASH → nmin-hash, IN_ORDER → in-order. The choice for a whole system of NICs.
     *
     * @return this
     */
    public Builder routingByDeliveryMode() {
      this.byDeliveryMode = true;
      this.algorithm = null;
      this.provider = null;
      return this;
    }

    /**
     * Adds an observer told of every delivered packet and whether it was routed non-minimally; several observers are
     * told in the order added.
     *
     * @param o the observer
     * @return this
     */
    public Builder observeDeliveries(DeliveryObserver o) {
      if (o == null) {
        throw new IllegalArgumentException("observer must not be null");
      }
      DeliveryObserver before = this.observer;
      this.observer = before == null ? o : (now, p, nonMinimal) -> {
        before.delivered(now, p, nonMinimal);
        o.delivered(now, p, nonMinimal);
      };
      return this;
    }

    /**
     * Tells a listener of every hop (router, output port, VC, time); a fabric without one pays a null check per hop.
     *
     * @param l the listener, or null for none
     * @return this
     */
    public Builder hopListener(HopListener l) {
      this.hopListener = l;
      return this;
    }

    /** @param s seed of the routing's random choices @return this */
    public Builder seed(long s) {
      this.seed = s;
      return this;
    }

    /** @param n virtual channels per port, 1 to 16 (Aries: 8 [S6f]) @return this */
    public Builder vcs(int n) {
      check("vcs", n, 1, 16);
      this.vcs = n;
      return this;
    }

    /** @param bytes buffer per VC per input, 128 to 2^20 (must hold the largest packet) @return this */
    public Builder vcBufferBytes(int bytes) {
      check("vcBufferBytes", bytes, 128, 1 << 20);
      this.vcBufferBytes = bytes;
      return this;
    }

    /**
     * @param bytes injection buffer per node, 128 to 2^20 (default 4,096: two processor tiles per NIC [S15] × the
     *     2,048 bytes a network input buffers per VC; derived)
     * @return this
     */
    public Builder injectionBufferBytes(int bytes) {
      check("injectionBufferBytes", bytes, 128, 1 << 20);
      this.injectionBufferBytes = bytes;
      return this;
    }

    /** @param ps router pipeline latency, 0 to 1 ms @return this */
    public Builder pipelinePs(long ps) {
      if (ps < 0 || ps > 1_000_000_000L) {
        throw new IllegalArgumentException("pipelinePs must be in [0, 1e9] but was " + ps);
      }
      this.pipelinePs = ps;
      return this;
    }

    /** @param ps NIC-to-router wire latency, 0 to 1 ms @return this */
    public Builder injectionLatencyPs(long ps) {
      if (ps < 0 || ps > 1_000_000_000L) {
        throw new IllegalArgumentException("injectionLatencyPs must be in [0, 1e9] but was " + ps);
      }
      this.injectionLatencyPs = ps;
      return this;
    }

    /** @param a output arbitration @return this */
    public Builder arbitration(Arbitration a) {
      if (a == null) {
        throw new IllegalArgumentException("arbitration must not be null");
      }
      this.arbitration = a;
      return this;
    }

    /** @param n hops after which a packet is a routing error, 1 to 1024 @return this */
    public Builder maxHops(int n) {
      check("maxHops", n, 1, 1024);
      this.maxHops = n;
      return this;
    }

    /**
     * @return the fabric
     * @throws IllegalArgumentException for an unknown routing name, or when the routing needs more virtual channels
     *     than {@link #vcs(int)} gives
     */
    public RouterFabric build() {
      return new RouterFabric(this);
    }

    /** The routing of each delivery mode, checked against the VC count. */
    private RoutingAlgorithm[] routings() {
      RoutingAlgorithm[] byMode = new RoutingAlgorithm[DeliveryMode.values().length];
      if (byDeliveryMode) {
        for (DeliveryMode m : DeliveryMode.values()) {
          int i = m.ordinal();
          byMode[i] = Routings.create(Routings.nameFor(m), topology, seed + i * 0x9E3779B97F4A7C15L);
        }
      } else {
        RoutingAlgorithm alg = algorithm != null ? algorithm
            : provider != null ? provider.create(topology, seed) : Routings.create(routing, topology, seed);
        if (alg == null) {
          throw new IllegalArgumentException("routing provider " + provider.name() + " must make an algorithm but "
              + "returned null");
        }
        Arrays.fill(byMode, alg);
      }
      for (DeliveryMode m : DeliveryMode.values()) {
        int need = byMode[m.ordinal()].virtualChannelsNeeded();
        if (need > vcs) {
          String which = byDeliveryMode ? Routings.nameFor(m) + " (for " + m + ", by delivery mode)" : routingName();
          throw new IllegalArgumentException("vcs (" + vcs + ") must be at least the " + need
              + " virtual channels routing " + which + " needs on " + topology.describe()
              + ": raise vcs or choose a routing with shorter routes");
        }
      }
      return byMode;
    }

    private String routingName() {
      if (byDeliveryMode) {
        return Routings.BY_DELIVERY_MODE;
      }
      if (algorithm != null) {
        return algorithm.getClass().getSimpleName();
      }
      return provider != null ? provider.name() : routing;
    }

    private static void check(String name, int v, int lo, int hi) {
      if (v < lo || v > hi) {
        throw new IllegalArgumentException(name + " must be in [" + lo + ", " + hi + "] but was " + v);
      }
    }
  }

  // ---------------------------------------------------------------- Fabric port

  @Override
  public int nodeCount() {
    return endpoints.nodeCount();
  }

  @Override
  public void attach(int nodeId, FabricEndpoint endpoint) {
    endpoints.attach(nodeId, endpoint);
  }

  @Override
  public void attachOnDemand(java.util.function.IntConsumer attacher) {
    endpoints.attachOnDemand(attacher);
  }

  @Override
  public boolean inject(Packet packet) {
    endpoints.checkPacket(packet);
    int node = packet.sourceNode();
    int bytes = packet.wireBytes();
    long now = scheduler.now();
    int buffer = netPorts + node;
    // a caller's event (unknown number) at the very picosecond of a free is taken to come before it: the free was
    // made after that event was scheduled in every run measured; the node is then told at once (scheduleRelease)
    settle(buffer, now, curSeq == Long.MAX_VALUE ? 0 : curSeq);
    if (injFree[node] < bytes) {
      injBlocked[node] = true;
      // the earliest pending free will tell the node (a later-made free that comes earlier is scheduled when made)
      if (relHead[buffer] >= 0) {
        scheduleRelease(relHead[buffer], now);
      }
      return false;
    }
    injFree[node] -= bytes;
    maxWireBytes = Math.max(maxWireBytes, bytes);
    packet.hops(0);
    packet.injectedAtPs(now);
    int slot = allocSlot(packet, buffer);
    long start = Math.max(now, injLinkFreeAt[node]);
    injLinkFreeAt[node] = start + SerialChannel.serializationPs(bytes, psPerByteInjection);
    injected++;
    scheduleArrival(start + injectionLatencyPs + pipelinePs, packet, slot);
    return true;
  }

  // ---------------------------------------------------------------- events

  /**
   * Schedules the arrival or delivery of the packet in {@code slot}; with {@link #lazy} under a reserved number kept
   * in the slot, so that the event knows its place in the loop's order (the same place {@code scheduleAt} gives).
   */
  private void scheduleSlotEvent(long timePs, EventHandler handler, Packet p, int slot) {
    if (lazy) {
      long seq = loop.reserveSequence();
      slotSeq[slot] = seq;
      loop.scheduleReserved(timePs, seq, handler, p, slot);
    } else {
      scheduler.scheduleAt(timePs, handler, p, slot);
    }
  }

  private void scheduleArrival(long timePs, Packet p, int slot) {
    scheduleSlotEvent(timePs, arrival, p, slot);
  }

  /** Arrival: a packet's head has reached a router and passed its pipeline; {@code arg} is the packet's slot. */
  private void arrive(long now, Object ref, long arg) {
    int slot = (int) arg;
    curSeq = slotSeq[slot];
    int input = slotInput[slot];
    int router = input >= netPorts ? topo.routerOfNode(input - netPorts) : input / radix;
    Packet p = slotPacket[slot];
    int dest = p.destinationNode();
    int destRouter = topo.routerOfNode(dest);
    int inter = slotIntermediate[slot];
    if (inter >= 0 && paths.reached(router, inter, destRouter)) {
      slotIntermediate[slot] = -1;
    }
    slotNext[slot] = -1;
    if (router == destRouter) {
      if (ejTail[dest] < 0) {
        ejHead[dest] = slot;
      } else {
        slotNext[ejTail[dest]] = slot;
      }
      ejTail[dest] = slot;
      tryEject(now, dest);
    } else {
      route(now, p, slot, router);
    }
    curSeq = Long.MAX_VALUE;
  }

  private void route(long now, Packet p, int slot, int router) {
    if (p.hops() >= maxHops) {
      throw new IllegalStateException("routing " + routingName + " took more than maxHops (" + maxHops
          + ") hops for " + p + " (now at router " + router + (slotIntermediate[slot] >= 0
          ? ", still on its way to intermediate " + slotIntermediate[slot] : "") + ")");
    }
    RoutingAlgorithm alg = routingByMode[p.deliveryMode().ordinal()];
    view.router = router;
    view.now = now;
    view.slot = slot;
    candidates.clear();
    alg.route(p, view, candidates);
    if (candidates.size() == 0) {
      throw new IllegalStateException("routing " + routingName + " offered no candidate for " + p + " at router "
          + router);
    }
    int i = alg.select(p, view, candidates);
    if (i < 0 || i >= candidates.size()) {
      throw new IllegalStateException("routing " + routingName + " selected candidate " + i + " but candidates are [0, "
          + (candidates.size() - 1) + "]");
    }
    int port = candidates.port(i);
    int vc = candidates.vc(i);
    if (port < 0 || port >= radix || peer[router * radix + port] < 0) {
      throw new IllegalStateException("routing " + routingName + " chose port " + port + " at router " + router
          + " which must be a cabled port in [0, " + (radix - 1) + "]");
    }
    if (vc < 0 || vc >= vcs) {
      throw new IllegalStateException("routing " + routingName + " chose VC " + vc + " which must be in [0, "
          + (vcs - 1) + "] (hop " + p.hops() + " of " + p + ")");
    }
    int inter = candidates.intermediate(i);
    if (inter >= 0) {
      if (inter >= topo.routerCount()) {
        throw new IllegalStateException("routing " + routingName + " chose intermediate " + inter
            + " which must be a router in [0, " + (topo.routerCount() - 1) + "]");
      }
      slotIntermediate[slot] = inter;
      slotNonMinimal[slot] = true;
    }
    int gp = router * radix + port;
    int q = gp * vcs + vc;
    if (qTail[q] < 0) {
      qHead[q] = slot;
    } else {
      slotNext[qTail[q]] = slot;
    }
    qTail[q] = slot;
    queuedBytes[gp] += p.wireBytes();
    waiting[gp]++;
    if (qHead[q] == slot) {
      armCredit(now, gp, vc);
    }
    trySend(now, gp);
    wakeWhenLinkFrees(now, gp);
  }

  /**
   * With {@link #loop}: schedules port {@code gp}'s link-free event under its reserved number if the link is busy and
   * a packet could go when it frees (a queue head with the credits it needs). Until the link frees, only this port's
   * sends take credits or queue heads away, so once that holds it holds at the event; route and credit return call
   * this after each change that can make it hold.
   */
  private void wakeWhenLinkFrees(long now, int gp) {
    if (loop == null || linkFreeScheduled[gp] || linkFreeAt[gp] <= now || waiting[gp] == 0) {
      return;
    }
    settle(gp, now, curSeq);
    if (linkFreeScheduled[gp] || linkFreeAt[gp] <= now || waiting[gp] == 0) {
      return; // a late credit settled just now has acted
    }
    int base = gp * vcs;
    for (int vc = 0; vc < vcs; vc++) {
      int h = qHead[base + vc];
      if (h >= 0 && credits[base + vc] >= slotPacket[h].wireBytes()) {
        linkFreeScheduled[gp] = true;
        loop.scheduleReserved(linkFreeAt[gp], linkFreeSeq[gp], linkFree, null, gp);
        return;
      }
    }
  }

  /** Link free: output port {@code arg} has finished serializing and may send again. */
  private void linkFree(long now, Object ref, long arg) {
    int gp = (int) arg;
    if (loop != null && linkFreeAt[gp] <= now) {
      // (a stale one, whose link a credit return at the same time has already restarted, leaves the flag alone)
      linkFreeScheduled[gp] = false;
    }
    if (lazy) {
      if (linkFreeAt[gp] > now) {
        return; // stale: nothing to send, as trySend would find
      }
      curSeq = linkFreeSeq[gp];
    }
    trySend(now, gp);
    curSeq = Long.MAX_VALUE;
  }

  /**
   * Credit return: the tail of a packet has left a router input, and the bytes of pending release {@code arg} come
   * back to the upstream output port. Scheduled only when the credit may let a packet go (see {@link #armCredit});
   * otherwise the release takes effect lazily ({@link #settle}).
   */
  private void creditReturn(long now, Object ref, long arg) {
    int e = (int) arg;
    int port = relOwner[e];
    curSeq = relSeq[e];
    boolean acted = (relFlags[e] & REL_ACTED) != 0;
    takeEffect(port, e, now);
    if (!acted && waiting[port] > 0) {
      trySend(now, port);
      wakeWhenLinkFrees(now, port);
    }
    curSeq = Long.MAX_VALUE;
  }

  /**
   * Injection buffer free: the tail of a packet has left node {@code relOwner[arg] - netPorts}'s injection buffer.
   * Scheduled only when the node waits for room; otherwise the release takes effect lazily.
   */
  private void injectionBufferFree(long now, Object ref, long arg) {
    int e = (int) arg;
    int buffer = relOwner[e];
    int node = buffer - netPorts;
    curSeq = relSeq[e];
    takeEffect(buffer, e, now);
    if (injBlocked[node]) {
      injBlocked[node] = false;
      FabricEndpoint ep = endpoints.endpointOrNull(node);
      if (ep != null) {
        ep.injectionReady(now);
      }
    }
    curSeq = Long.MAX_VALUE;
  }

  /** The scheduled release {@code e} runs: every earlier one of its owner first, then itself (unless already). */
  private void takeEffect(int owner, int e, long now) {
    if ((relFlags[e] & REL_APPLIED) == 0) {
      settle(owner, now, relSeq[e]);
      unlinkRelease(owner, e);
      applyRelease(e);
    }
    freeRelease(e);
  }

  /** Delivery: the packet in slot {@code arg} has crossed its node's ejection link. */
  private void deliver(long now, Object ref, long arg) {
    int slot = (int) arg;
    curSeq = slotSeq[slot];
    Packet p = slotPacket[slot];
    boolean nonMinimal = slotNonMinimal[slot];
    freeSlot(slot);
    int node = p.destinationNode();
    delivered++;
    hopsDelivered += p.hops();
    if (nonMinimal) {
      nonMinimalDelivered++;
    }
    if (observer != null) {
      observer.delivered(now, p, nonMinimal);
    }
    endpoints.endpointFor(p).deliver(now, p);
    tryEject(now, node);
    curSeq = Long.MAX_VALUE;
  }

  private void trySend(long now, int gp) {
    if (linkFreeAt[gp] > now || waiting[gp] == 0) {
      return;
    }
    settle(gp, now, curSeq);
    if (linkFreeAt[gp] > now || waiting[gp] == 0) {
      return; // a late credit settled just now has sent
    }
    int base = gp * vcs;
    int chosen = -1;
    if (arbitration == Arbitration.ROUND_ROBIN) {
      int start = rr[gp];
      for (int k = 0; k < vcs; k++) {
        int vc = start + k;
        if (vc >= vcs) {
          vc -= vcs;
        }
        int h = qHead[base + vc];
        if (h >= 0 && credits[base + vc] >= slotPacket[h].wireBytes()) {
          chosen = vc;
          break;
        }
      }
    } else {
      long oldest = Long.MAX_VALUE;
      for (int vc = 0; vc < vcs; vc++) {
        int h = qHead[base + vc];
        if (h >= 0 && credits[base + vc] >= slotPacket[h].wireBytes()
            && slotPacket[h].injectedAtPs() < oldest) {
          oldest = slotPacket[h].injectedAtPs();
          chosen = vc;
        }
      }
    }
    if (chosen < 0) {
      return; // a credit arrival retries
    }
    int q = base + chosen;
    int slot = qHead[q];
    qHead[q] = slotNext[slot];
    if (qHead[q] < 0) {
      qTail[q] = -1;
    }
    rr[gp] = (byte) (chosen + 1 == vcs ? 0 : chosen + 1);
    Packet p = slotPacket[slot];
    int input = slotInput[slot];
    int inputVc = slotVc[slot];
    int downstream = peer[gp];
    slotInput[slot] = downstream;
    slotVc[slot] = chosen;
    int bytes = p.wireBytes();
    credits[q] -= bytes;
    creditsUsed[gp] += bytes;
    occupancy(now, chosen, bytes);
    queuedBytes[gp] -= bytes;
    waiting[gp]--;
    if (qHead[q] >= 0) {
      armCredit(now, gp, chosen);
    }
    int cls = portClass[gp];
    long ser = SerialChannel.serializationPs(bytes, psPerByteClass[cls]);
    linkFreeAt[gp] = now + ser;
    classBusyPs[cls] += ser;
    portBusyPs[gp] += ser;
    packetHops++;
    int hops = p.hops() + 1;
    p.hops(hops);
    if (hops > maxHopsSeen) {
      maxHopsSeen = hops;
    }
    if (hopListener != null) {
      hopListener.hop(now, p, gp / radix, gp % radix, chosen, hops);
    }
    scheduleArrival(now + latencyClass[cls] + pipelinePs, p, slot);
    release(now, now + ser, input, inputVc, p);
    if (loop == null || ser == 0) {
      scheduler.scheduleAt(now + ser, linkFree, null, gp);
    } else {
      linkFreeSeq[gp] = loop.reserveSequence();
      linkFreeScheduled[gp] = false;
      wakeWhenLinkFrees(now, gp);
      if (lazy) {
        // a credit due exactly as the link frees, and ahead of the link-free event, may send first (as it would have)
        for (int e = relHead[gp]; e >= 0; e = relNext[e]) {
          if (relTime[e] == linkFreeAt[gp]) {
            scheduleRelease(e, now);
          }
        }
      }
    }
  }

  /**
   * The packet's tail leaves the input buffer it occupied at {@code tailGonePs}: the space returns upstream (a credit
   * one wire latency later, or the injection buffer's room at once). The release takes its place in the loop's order
   * now; with {@link #lazy} it is only scheduled when something may wait for it, else it takes effect when its owner's
   * state is next read ({@link #settle}).
   */
  private void release(long now, long tailGonePs, int input, int vc, Packet p) {
    boolean injection = input >= netPorts;
    int owner = injection ? input : peer[input];
    long t = injection ? tailGonePs : tailGonePs + latencyClass[portClass[input]];
    int e = allocRelease();
    relTime[e] = t;
    relOwner[e] = owner;
    relVc[e] = vc;
    relBytes[e] = p.wireBytes();
    relFlags[e] = 0;
    if (!lazy) {
      relSeq[e] = -1;
      relFlags[e] = REL_SCHEDULED;
      scheduler.scheduleAt(t, injection ? injectionBufferFree : creditReturn, null, e);
      return;
    }
    relSeq[e] = loop.reserveSequence();
    boolean tie = insertRelease(owner, e);
    // An event scheduled already for the very picosecond of this release, ahead of its place, may come to wait for
    // it (an arrival that queues a packet here, another release of this owner that sends, the delivery of the node's
    // pending packet whose node injects at once); the loop could not then schedule it at its place (no reserved
    // number at the current time). So a credit is scheduled now unless the buffer is sure to have room for any
    // packet then anyway, and a free when such an event exists. A release due as the port's link frees may send
    // ahead of the link-free event, and a node blocked on its injection buffer waits for every free.
    boolean schedule;
    if (injection) {
      int node = owner - netPorts;
      schedule = injBlocked[node] || tie || ejFreeAt[node] == t;
    } else {
      schedule = t == linkFreeAt[owner] || creditMayBeShort(owner, vc, e, now);
    }
    if (schedule) {
      scheduleRelease(e, now);
    } else if (!injection) {
      armCredit(now, owner, vc);
    }
  }

  /**
   * Whether a packet queued on (port {@code gp}, {@code vc}) could lack credits at the time of pending credit return
   * {@code e}, just before it: unless the credits held now plus the releases before {@code e}, less every byte the
   * port's link could send by then, still cover the largest packet injected so far.
   */
  private boolean creditMayBeShort(int gp, int vc, int e, long now) {
    long avail = credits[gp * vcs + vc];
    for (int c = relHead[gp]; c != e; c = relNext[c]) {
      if (relVc[c] == vc) {
        avail += relBytes[c];
      }
    }
    long t = relTime[e];
    long start = Math.max(now, linkFreeAt[gp]);
    long sendable = start > t ? 0 : (long) Math.ceil((t - start) / psPerByteClass[portClass[gp]]) + maxWireBytes;
    return avail - sendable < maxWireBytes;
  }

  /**
   * With {@link #lazy}: if the head of queue (port {@code gp}, {@code vc}) lacks credits, schedules the pending
   * credit return that will give it enough (the first, in (time, sequence) order, at which the running sum reaches
   * the packet's size). The head stays until it is sent, so the choice only moves earlier when a new release comes
   * earlier; {@link #release} calls this for every new credit, and route and send for every new head.
   */
  private void armCredit(long now, int gp, int vc) {
    if (!lazy) {
      return;
    }
    int q = gp * vcs + vc;
    int h = qHead[q];
    if (h < 0) {
      return;
    }
    settle(gp, now, curSeq);
    int need = slotPacket[h].wireBytes();
    int have = credits[q];
    if (have >= need) {
      return;
    }
    for (int e = relHead[gp]; e >= 0; e = relNext[e]) {
      if (relVc[e] == vc) {
        have += relBytes[e];
        if (have >= need) {
          scheduleRelease(e, now);
          return;
        }
      }
    }
  }

  /** Schedules pending release {@code e} (once) under its reserved number. */
  private void scheduleRelease(int e, long now) {
    if ((relFlags[e] & REL_SCHEDULED) != 0) {
      return;
    }
    relFlags[e] |= REL_SCHEDULED;
    EventHandler h = relOwner[e] >= netPorts ? injectionBufferFree : creditReturn;
    if (relTime[e] > now) {
      loop.scheduleReserved(relTime[e], relSeq[e], h, null, e);
    } else {
      // due now but after the running event: the loop takes no reserved number at the current time, so it runs
      // after the events already scheduled for now (the state it changes is right for them: they settle it first)
      sameTimeReleases++;
      loop.scheduleAt(now, h, null, e);
    }
  }

  /**
   * Applies every pending release of {@code owner} that comes before (time {@code now}, sequence {@code seq}) in the
   * loop's order, so that the owner's credits or injection-buffer room are what they would be had each release been
   * an event of its own.
   */
  private void settle(int owner, long now, long seq) {
    int e = relHead[owner];
    while (e >= 0 && (relTime[e] < now || (relTime[e] == now && relSeq[e] < seq))) {
      int next = relNext[e];
      relHead[owner] = next;
      applyRelease(e);
      if ((relFlags[e] & REL_SCHEDULED) == 0) {
        freeRelease(e);
      } else if (owner < netPorts && seq != Long.MAX_VALUE) {
        // a credit scheduled late (see scheduleRelease) is first seen by a later event of the same picosecond: it
        // acts here, before that event goes on, as it would have acted in its own place just before
        relFlags[e] |= REL_ACTED;
        long saved = curSeq;
        curSeq = relSeq[e];
        if (waiting[owner] > 0) {
          trySend(now, owner);
          wakeWhenLinkFrees(now, owner);
        }
        curSeq = saved;
      }
      e = relHead[owner];
    }
  }

  /** Settles every owner up to {@code now} (at equal times: those before sequence {@code seq}). */
  private void settleAll(long now, long seq) {
    for (int owner = 0; owner < relHead.length; owner++) {
      if (relHead[owner] >= 0) {
        settle(owner, now, seq);
      }
    }
  }

  private void applyRelease(int e) {
    int owner = relOwner[e];
    int bytes = relBytes[e];
    if (owner >= netPorts) {
      injFree[owner - netPorts] += bytes;
    } else {
      int vc = relVc[e];
      credits[owner * vcs + vc] += bytes;
      creditsUsed[owner] -= bytes;
      occupancy(relTime[e], vc, -bytes);
    }
    relFlags[e] |= REL_APPLIED;
  }

  /**
   * Inserts pending release {@code e} into its owner's list in (time, sequence) order (its sequence is the newest).
   *
   * @return whether another pending release of the owner has the same time
   */
  private boolean insertRelease(int owner, int e) {
    long t = relTime[e];
    int prev = -1;
    int cur = relHead[owner];
    while (cur >= 0 && relTime[cur] <= t) {
      prev = cur;
      cur = relNext[cur];
    }
    relNext[e] = cur;
    if (prev < 0) {
      relHead[owner] = e;
    } else {
      relNext[prev] = e;
    }
    return prev >= 0 && relTime[prev] == t;
  }

  private void unlinkRelease(int owner, int e) {
    int prev = -1;
    for (int cur = relHead[owner]; cur >= 0; prev = cur, cur = relNext[cur]) {
      if (cur == e) {
        if (prev < 0) {
          relHead[owner] = relNext[e];
        } else {
          relNext[prev] = relNext[e];
        }
        return;
      }
    }
  }

  private int allocRelease() {
    int e = relFree;
    if (e >= 0) {
      relFree = relNext[e];
      return e;
    }
    if (relUsed == relTime.length) {
      int n = relTime.length * 2;
      relTime = Arrays.copyOf(relTime, n);
      relSeq = Arrays.copyOf(relSeq, n);
      relOwner = Arrays.copyOf(relOwner, n);
      relVc = Arrays.copyOf(relVc, n);
      relBytes = Arrays.copyOf(relBytes, n);
      relNext = Arrays.copyOf(relNext, n);
      relFlags = Arrays.copyOf(relFlags, n);
    }
    return relUsed++;
  }

  private void freeRelease(int e) {
    relNext[e] = relFree;
    relFree = e;
  }

  private void tryEject(long now, int node) {
    if (ejFreeAt[node] > now || ejHead[node] < 0) {
      return;
    }
    int slot = ejHead[node];
    ejHead[node] = slotNext[slot];
    if (ejHead[node] < 0) {
      ejTail[node] = -1;
    }
    Packet p = slotPacket[slot];
    int input = slotInput[slot];
    int vc = slotVc[slot];
    int bytes = p.wireBytes();
    long ser = SerialChannel.serializationPs(bytes, psPerByteInjection);
    ejFreeAt[node] = now + ser;
    release(now, now + ser, input, vc, p);
    scheduleSlotEvent(now + ser, delivery, p, slot);
  }

  /** A change of VC {@code vc}'s occupancy at time {@code atPs}; changes may come in any time order. */
  private void occupancy(long atPs, int vc, int delta) {
    vcOccupancy[vc] += delta;
    vcOccupancyTimeSum[vc] += delta * atPs;
  }

  /** A slot for a packet entering the fabric through input buffer {@code input} (VC 0), minimal so far. */
  private int allocSlot(Packet p, int input) {
    int s = freeSlot;
    if (s >= 0) {
      freeSlot = slotNext[s];
    } else {
      if (slotsUsed == slotPacket.length) {
        int n = slotPacket.length * 2;
        slotPacket = Arrays.copyOf(slotPacket, n);
        slotNext = Arrays.copyOf(slotNext, n);
        slotInput = Arrays.copyOf(slotInput, n);
        slotVc = Arrays.copyOf(slotVc, n);
        slotIntermediate = Arrays.copyOf(slotIntermediate, n);
        slotNonMinimal = Arrays.copyOf(slotNonMinimal, n);
        slotSeq = Arrays.copyOf(slotSeq, n);
      }
      s = slotsUsed++;
    }
    slotPacket[s] = p;
    slotNext[s] = -1;
    slotInput[s] = input;
    slotVc[s] = 0;
    slotIntermediate[s] = -1;
    slotNonMinimal[s] = false;
    return s;
  }

  private void freeSlot(int s) {
    slotPacket[s] = null;
    slotNext[s] = freeSlot;
    freeSlot = s;
  }

  // ---------------------------------------------------------------- router view

  private final class View implements RouterView {
    int router;
    long now;
    int slot;

    @Override
    public int router() {
      return router;
    }

    @Override
    public int group() {
      return topo.groupOfRouter(router);
    }

    @Override
    public Topology topology() {
      return topo;
    }

    @Override
    public int vcCount() {
      return vcs;
    }

    @Override
    public int vcBufferBytes() {
      return vcBufferBytes;
    }

    @Override
    public long now() {
      return now;
    }

    @Override
    public int congestion(int port) {
      int gp = router * radix + port;
      settle(gp, now, curSeq);
      return queuedBytes[gp] + creditsUsed[gp];
    }

    @Override
    public int credits(int port, int vc) {
      int gp = router * radix + port;
      settle(gp, now, curSeq);
      return credits[gp * vcs + vc];
    }

    @Override
    public int queuedBytes(int port) {
      return queuedBytes[router * radix + port];
    }

    @Override
    public int intermediate() {
      return slotIntermediate[slot];
    }

    @Override
    public boolean nonMinimal() {
      return slotNonMinimal[slot];
    }
  }

  // ---------------------------------------------------------------- observation

  /** @return the topology */
  public Topology topology() {
    return topo;
  }

  /** @return the routing's name ({@code by-delivery-mode} when routed per packet mode) */
  public String routingName() {
    return routingName;
  }

  /** @return virtual channels per port */
  public int vcCount() {
    return vcs;
  }

  /** @return packets accepted by {@link #inject} */
  public long injected() {
    return injected;
  }

  /** @return packets delivered to their node */
  public long delivered() {
    return delivered;
  }

  /** @return packets inside the fabric (injected, not yet delivered) */
  public long inFlight() {
    return injected - delivered;
  }

  /** @return router-to-router link traversals so far */
  public long packetHops() {
    return packetHops;
  }

  /** @return sum of hop counts of delivered packets */
  public long hopsOfDelivered() {
    return hopsDelivered;
  }

  /** @return delivered packets that were routed non-minimally */
  public long nonMinimalDelivered() {
    return nonMinimalDelivered;
  }

  /** @return the most hops any packet has taken */
  public int maxHopsSeen() {
    return maxHopsSeen;
  }

  /** @return number of link classes (ranks) */
  public int linkClassCount() {
    return classBusyPs.length;
  }

  /** @param linkClass a class @return cabled ports (link directions) of that class */
  public int linkCount(int linkClass) {
    return classPortCount[linkClass];
  }

  /** @param linkClass a class @return picoseconds links of that class have spent serializing, summed */
  public long busyPs(int linkClass) {
    return classBusyPs[linkClass];
  }

  /**
   * Time-integrated buffer occupancy of a VC over all router inputs, byte·picoseconds, up to {@code nowPs}.
   *
   * @param vc a virtual channel
   * @param nowPs the current time
   * @return the integral
   */
  public long vcOccupancyIntegral(int vc, long nowPs) {
    // releases at nowPs itself add nothing to the integral up to nowPs, whatever their order
    settleAll(nowPs, 0);
    // exact in long arithmetic even if the two terms overflow, as long as the integral itself fits
    return vcOccupancy[vc] * nowPs - vcOccupancyTimeSum[vc];
  }

  /**
   * @param router a router
   * @param port one of its network ports
   * @return picoseconds the port's outgoing link has spent serializing so far
   */
  public long busyPs(int router, int port) {
    return portBusyPs[router * radix + port];
  }

  /**
   * The time of the latest buffer release (credit return or injection-buffer free) still pending at or before a
   * limit. Releases that nothing waits for take effect without an event of their own, so when a run stops (the loop
   * empty, or every event up to a limit run) its clock may stand before the last of them; a caller that wants the
   * clock where an event per release would have left it moves it there.
   *
   * @param limitPs the latest time of interest
   * @return that time, or {@link Long#MIN_VALUE} when none is pending at or before {@code limitPs}
   */
  public long lastReleaseAtOrBefore(long limitPs) {
    long last = Long.MIN_VALUE;
    for (int owner = 0; owner < relHead.length; owner++) {
      for (int e = relHead[owner]; e >= 0 && relTime[e] <= limitPs; e = relNext[e]) {
        last = Math.max(last, relTime[e]);
      }
    }
    return last;
  }

  /**
   * Buffer releases that had to be scheduled at the current time after their place in the loop's order (a queue head
   * found its enabling credit, or a refused node its free, due at the very picosecond of the running event). Each may
   * move a send or an injection a few events later within that picosecond; 0 in the runs of {@code
   * LazyReleaseProperties} and in the traffic runs of docs/performance.md.
   *
   * @return how many so far
   */
  public long sameTimeReleases() {
    return sameTimeReleases;
  }

  /**
   * What is inside the fabric now and what each packet waits for: the report of a drain that did not empty the
   * network (a deadlocking or livelocking routing, or too short a bound). Reads the fabric's state without changing
   * anything simulated; costs a pass over the ports and the packets in flight.
   *
   * @return the report (with no packets when the fabric is empty)
   */
  public StuckPackets stuck() {
    long now = scheduler.now();
    settleAll(now, curSeq);
    java.util.Map<StuckPackets.WaitCause, Long> byCause = new java.util.EnumMap<>(StuckPackets.WaitCause.class);
    for (StuckPackets.WaitCause c : StuckPackets.WaitCause.values()) {
      byCause.put(c, 0L);
    }
    StuckPackets.WaitCause[] cause = new StuckPackets.WaitCause[slotsUsed];
    int[] output = new int[slotsUsed];
    Arrays.fill(output, -1);
    for (int q = 0; q < qHead.length; q++) {
      int h = qHead[q];
      if (h < 0) {
        continue;
      }
      StuckPackets.WaitCause c = credits[q] < slotPacket[h].wireBytes() ? StuckPackets.WaitCause.CREDIT
          : StuckPackets.WaitCause.LINK;
      for (int s = h; s >= 0; s = slotNext[s]) {
        cause[s] = c;
        output[s] = (q / vcs) % radix;
      }
    }
    for (int node = 0; node < ejHead.length; node++) {
      for (int s = ejHead[node]; s >= 0; s = slotNext[s]) {
        cause[s] = StuckPackets.WaitCause.EJECTION;
      }
    }
    java.util.Map<Long, long[]> places = new java.util.HashMap<>();
    long count = 0;
    int oldest = -1;
    for (int s = 0; s < slotsUsed; s++) {
      Packet p = slotPacket[s];
      if (p == null) {
        continue;
      }
      count++;
      StuckPackets.WaitCause c = cause[s];
      if (c == null) {
        // not queued: on a wire or in a pipeline, or crossing the ejection link at its destination router
        int input = slotInput[s];
        int at = input >= netPorts ? topo.routerOfNode(input - netPorts) : input / radix;
        boolean ejecting = at == topo.routerOfNode(p.destinationNode()) && ejFreeAt[p.destinationNode()] > now;
        c = ejecting ? StuckPackets.WaitCause.EJECTION : StuckPackets.WaitCause.IN_TRANSIT;
        cause[s] = c;
      }
      byCause.merge(c, 1L, Long::sum);
      long key = (long) slotInput[s] * vcs + slotVc[s];
      places.computeIfAbsent(key, k -> new long[1])[0]++;
      if (oldest < 0 || p.injectedAtPs() < slotPacket[oldest].injectedAtPs()) {
        oldest = s;
      }
    }
    java.util.List<StuckPackets.Place> list = new java.util.ArrayList<>();
    for (java.util.Map.Entry<Long, long[]> e : places.entrySet()) {
      int input = (int) (e.getKey() / vcs);
      int vc = (int) (e.getKey() % vcs);
      list.add(new StuckPackets.Place(routerOfInput(input), portOfInput(input), vc, e.getValue()[0]));
    }
    list.sort(java.util.Comparator.comparingLong(StuckPackets.Place::packets).reversed()
        .thenComparingInt(StuckPackets.Place::router).thenComparingInt(StuckPackets.Place::port)
        .thenComparingInt(StuckPackets.Place::vc));
    int placeCount = list.size();
    if (list.size() > StuckPackets.MAX_PLACES) {
      list = list.subList(0, StuckPackets.MAX_PLACES);
    }
    StuckPackets.Packet o = null;
    if (oldest >= 0) {
      Packet p = slotPacket[oldest];
      int input = slotInput[oldest];
      o = new StuckPackets.Packet(p.sourceNode(), p.destinationNode(), p.tag(), p.injectedAtPs(), p.hops(),
          routerOfInput(input), portOfInput(input), slotVc[oldest], output[oldest], cause[oldest]);
    }
    return new StuckPackets(now, count, byCause, list, placeCount, o);
  }

  private int routerOfInput(int input) {
    return input >= netPorts ? topo.routerOfNode(input - netPorts) : input / radix;
  }

  private int portOfInput(int input) {
    return input >= netPorts ? -1 : input % radix;
  }

  /** @return number of cabled network ports (input buffers) */
  public int cabledPorts() {
    int n = 0;
    for (int c : classPortCount) {
      n += c;
    }
    return n;
  }

  /**
   * Whether the fabric is empty and at rest: no packet in flight or waiting, and every credit and injection-buffer
   * byte home or on its way home. (A credit still on the wire, whose return nothing can hold up any more, counts as
   * home: releases that nothing waits for take effect without an event of their own, so the loop may run dry before
   * their time.)
   *
   * @return true when quiescent
   */
  public boolean quiescent() {
    if (injected != delivered) {
      return false;
    }
    for (int w : waiting) {
      if (w != 0) {
        return false;
      }
    }
    for (int gp = 0; gp < netPorts; gp++) {
      if (creditsUsed[gp] != pendingBytes(gp)) {
        return false;
      }
    }
    for (int node = 0; node < injFree.length; node++) {
      if (injFree[node] + pendingBytes(netPorts + node) != injectionBufferBytes) {
        return false;
      }
    }
    return true;
  }

  /** Bytes of the releases still pending for an owner (port or injection buffer). */
  private int pendingBytes(int owner) {
    int bytes = 0;
    for (int e = relHead[owner]; e >= 0; e = relNext[e]) {
      bytes += relBytes[e];
    }
    return bytes;
  }
}
