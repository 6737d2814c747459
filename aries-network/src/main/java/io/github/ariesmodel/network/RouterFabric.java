package io.github.ariesmodel.network;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.FabricEndpoints;
import io.github.ariesmodel.core.sim.SerialChannel;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.network.spi.Candidates;
import io.github.ariesmodel.network.spi.DragonflyPaths;
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
  private final DragonflyPaths paths;

  private final int radix;
  private final int netPorts;
  private final int[] peer;
  private final byte[] portClass;
  private final double[] psPerByteClass;
  private final long[] latencyClass;
  private final double psPerByteInjection;

  // per output port
  private final long[] linkFreeAt;
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
  private int freeSlot = -1;
  private int slotsUsed;

  // one handler per kind of event (see the class comment)
  private final EventHandler arrival = this::arrive;
  private final EventHandler linkFree = this::linkFree;
  private final EventHandler[] creditReturn;
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
  private final long[] classBusyPs;
  private final long[] portBusyPs;
  private final long[] vcOccupancyIntegral;
  private final long[] vcOccupancy;
  private long vcLastChange;
  private final int[] classPortCount;

  private RouterFabric(Builder b) {
    this.topo = b.topology;
    this.scheduler = b.scheduler;
    this.vcs = b.vcs;
    this.vcBufferBytes = b.vcBufferBytes;
    this.injectionBufferBytes = b.injectionBufferBytes;
    this.pipelinePs = b.pipelinePs;
    this.injectionLatencyPs = b.injectionLatencyPs;
    this.arbitration = b.arbitration;
    this.maxHops = b.maxHops;
    this.observer = b.observer;
    this.paths = new DragonflyPaths(topo);
    this.routingByMode = b.routings();
    this.routingName = b.routingName();
    this.creditReturn = new EventHandler[vcs];
    for (int vc = 0; vc < vcs; vc++) {
      creditReturn[vc] = new CreditReturn(vc);
    }
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
    this.linkFreeAt = new long[netPorts];
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
    this.classBusyPs = new long[classes];
    this.portBusyPs = new long[netPorts];
    this.vcOccupancyIntegral = new long[vcs];
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
  public boolean inject(Packet packet) {
    endpoints.checkPacket(packet);
    int node = packet.sourceNode();
    int bytes = packet.wireBytes();
    if (injFree[node] < bytes) {
      injBlocked[node] = true;
      return false;
    }
    long now = scheduler.now();
    injFree[node] -= bytes;
    packet.hops(0);
    packet.injectedAtPs(now);
    int slot = allocSlot(packet, netPorts + node);
    long start = Math.max(now, injLinkFreeAt[node]);
    injLinkFreeAt[node] = start + SerialChannel.serializationPs(bytes, psPerByteInjection);
    injected++;
    scheduler.scheduleAt(start + injectionLatencyPs + pipelinePs, arrival, packet, slot);
    return true;
  }

  // ---------------------------------------------------------------- events

  /** Arrival: a packet's head has reached a router and passed its pipeline; {@code arg} is the packet's slot. */
  private void arrive(long now, Object ref, long arg) {
    int slot = (int) arg;
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
      return;
    }
    route(now, p, slot, router);
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
    trySend(now, gp);
  }

  /** Link free: output port {@code arg} has finished serializing and may send again. */
  private void linkFree(long now, Object ref, long arg) {
    trySend(now, (int) arg);
  }

  /** Credit return for one VC: the tail of packet {@code ref} has left the buffer fed by upstream port {@code arg}. */
  private final class CreditReturn implements EventHandler {
    private final int vc;

    CreditReturn(int vc) {
      this.vc = vc;
    }

    @Override
    public void onEvent(long now, Object ref, long arg) {
      int port = (int) arg;
      int bytes = ((Packet) ref).wireBytes();
      credits[port * vcs + vc] += bytes;
      creditsUsed[port] -= bytes;
      occupancy(now, vc, -bytes);
      if (waiting[port] > 0) {
        trySend(now, port);
      }
    }
  }

  /** Injection buffer free: the tail of packet {@code ref} has left node {@code arg}'s injection buffer. */
  private void injectionBufferFree(long now, Object ref, long arg) {
    int node = (int) arg;
    injFree[node] += ((Packet) ref).wireBytes();
    if (injBlocked[node]) {
      injBlocked[node] = false;
      FabricEndpoint e = endpoints.endpointOrNull(node);
      if (e != null) {
        e.injectionReady(now);
      }
    }
  }

  /** Delivery: the packet in slot {@code arg} has crossed its node's ejection link. */
  private void deliver(long now, Object ref, long arg) {
    int slot = (int) arg;
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
  }

  private void trySend(long now, int gp) {
    if (linkFreeAt[gp] > now || waiting[gp] == 0) {
      return;
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
    scheduler.scheduleAt(now + latencyClass[cls] + pipelinePs, arrival, p, slot);
    release(now + ser, input, inputVc, p);
    scheduler.scheduleAt(now + ser, linkFree, null, gp);
  }

  /** The packet's tail leaves the input buffer it occupied at {@code tailGonePs}: return the space upstream. */
  private void release(long tailGonePs, int input, int vc, Packet p) {
    if (input >= netPorts) {
      scheduler.scheduleAt(tailGonePs, injectionBufferFree, p, input - netPorts);
    } else {
      scheduler.scheduleAt(tailGonePs + latencyClass[portClass[input]], creditReturn[vc], p, peer[input]);
    }
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
    release(now + ser, input, vc, p);
    scheduler.scheduleAt(now + ser, delivery, p, slot);
  }

  private void occupancy(long now, int vc, int delta) {
    long dt = now - vcLastChange;
    if (dt > 0) {
      for (int v = 0; v < vcs; v++) {
        vcOccupancyIntegral[v] += vcOccupancy[v] * dt;
      }
      vcLastChange = now;
    }
    vcOccupancy[vc] += delta;
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
      return queuedBytes[gp] + creditsUsed[gp];
    }

    @Override
    public int credits(int port, int vc) {
      return credits[(router * radix + port) * vcs + vc];
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
    return vcOccupancyIntegral[vc] + vcOccupancy[vc] * Math.max(0, nowPs - vcLastChange);
  }

  /**
   * @param router a router
   * @param port one of its network ports
   * @return picoseconds the port's outgoing link has spent serializing so far
   */
  public long busyPs(int router, int port) {
    return portBusyPs[router * radix + port];
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
   * Whether the fabric is empty and at rest: nothing in flight, every credit home, every injection buffer free.
   *
   * @return true when quiescent
   */
  public boolean quiescent() {
    if (injected != delivered) {
      return false;
    }
    for (int c : creditsUsed) {
      if (c != 0) {
        return false;
      }
    }
    for (int w : waiting) {
      if (w != 0) {
        return false;
      }
    }
    for (int f : injFree) {
      if (f != injectionBufferBytes) {
        return false;
      }
    }
    return true;
  }
}
