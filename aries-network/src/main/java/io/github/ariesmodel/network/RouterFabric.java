package io.github.ariesmodel.network;

import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.core.Texts;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.FabricEndpoints;
import io.github.ariesmodel.core.sim.GroupScheduler;
import io.github.ariesmodel.core.sim.GroupWarmer;
import io.github.ariesmodel.core.sim.PartitionedEngine;
import io.github.ariesmodel.core.sim.SerialChannel;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.core.spi.ReadAhead;
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
 * flits [S6f] at an assumed 16-byte flit, split over 8 VCs); injection buffer 4,096 bytes (<em>assumed</em>: two
 * processor tiles per NIC [S15], each taken to buffer the 2,048 bytes a network input buffers per VC, which no source
 * gives; chosen so that a single-path NIC stream fills a rank-1 link, see docs/validation.md, "Calibration rows").
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
 * (one handler per VC, the upstream port and the byte count in the event's arg); the node's
 * <em>injection buffer frees</em>; a packet is <em>delivered</em> to its node.
 *
 * <p>A link-free event is scheduled only when a packet will be able to go as the link frees (queued, with the credits
 * it needs); otherwise it would find nothing to send. On core's {@link DeterministicEventLoop} the fabric reserves the event's place in the loop's (time,
 * sequence) order when the link starts sending ({@link DeterministicEventLoop#reserveSequence()}) and schedules it
 * under that number only once a packet queues for the busy link, so every other event runs in exactly the order it
 * would with an event per send, and results are unchanged (docs/performance.md, "Events per packet-hop"). On other
 * schedulers it schedules one per send.
 *
 * <p>Buffer releases (credit returns and injection-buffer frees) are events of their own. From stop 18 to stop 30
 * they were lazy on core's loop (applied when their owner's state was next read, an event only when something waited
 * for one): the same results with about a third fewer events, but the bookkeeping cost more time than the events it
 * saved. Without it a replay spread over the full system took 0.83 of the CPU and an Edison alltoall 0.83; no run
 * measured took longer (docs/performance.md, "Stop 31").
 *
 * <p><b>Route state.</b> Each packet in flight has a record (a pooled {@code Flight} that moves with it, from injection to
 * delivery): the input buffer and VC it occupies, the intermediate it is committed to and whether it was ever
 * committed (non-minimal). Routings read it through {@link RouterView#intermediate()} and {@link
 * RouterView#nonMinimal()} and change it only by the candidate they choose (see {@link Candidates}); the fabric clears
 * the intermediate on the arrival where {@link DragonflyPaths#reached} holds. The packet itself carries only the
 * transit record every fabric writes (hops, injection time). {@link DeliveryObserver}s learn per packet whether it
 * was routed non-minimally.
 *
 * <p>Other state lives in primitive arrays indexed by global port ({@code router × radix + port}) and by
 * {@code port × VCs + vc}; queued packets are linked lists through their records. Forwarding a packet allocates nothing
 * once the pool has grown to the working set. Single-threaded.
 *
 * <p><b>On a {@link PartitionedEngine}</b> ({@link #builder(Topology, PartitionedEngine)}) the fabric runs its
 * dragonfly groups on the engine's threads with results that are the same for every thread count. Each router's
 * state belongs to its group; an event that runs in another group (a packet's arrival over a global link, a credit
 * returning over one) is scheduled into that group, never less than {@link #crossGroupLatencyPs} ahead, which bounds
 * the engine's lookahead. Statistics are kept per group and summed in group order; each group has its own routing
 * instance (seeded from the seed and the group), its own scratch state and its own record pool. Observers, hop listeners and endpoints are called on the thread of the
 * group where the event happens (the destination's for a delivery, the source's for injection), so they must keep
 * their state per group. The fabric adds a {@link GroupWarmer} to the engine that reads a group's port state
 * before the group's window. Without an engine the fabric is single-threaded.
 */
public final class RouterFabric implements Fabric {

  /**
   * The fastest link or injection rate the fabric times correctly, bytes per second: 10^12, one byte a picosecond
   * (derived from the clock). The fabric keeps time in whole picoseconds and rounds each packet's serialization up
   * ({@link SerialChannel#serializationPs}), so at this rate or below the rounding adds less than one byte's time to a
   * packet, and a packet of b wire bytes still moves at b / (b + 1) of the rate or more: 98.8 % for a full 84-byte
   * packet, 85.7 % for the smallest (a 6-byte response). Above it the rounding takes over: at 10^13 a 6-byte
   * response took 1 ps instead of 0.6, and from 8.4·10^13 on every packet takes 1 ps whatever its size (a bound of
   * "the largest packet takes at least 1 ps" would keep that error). A synthetic source's gap between packets, also
   * whole picoseconds, stays at least 18 ps (a packet without payload) and never rounds to 0.
   */
  public static final double MAX_BANDWIDTH = 1e12;

  /**
   * The slowest link or injection rate, bytes per second: 84,000, at which the largest packet (84 wire bytes, a
   * 64-byte PUT request, {@link io.github.ariesmodel.core.packet.WireFormat}) serializes in exactly 1 ms (10^9 ps),
   * the bound on every latency the model's builders take (derived: 84 × 10^12 / 10^9). Slower, one packet would
   * hold a link longer than any latency the model admits; at 10^-300 B/s a serialization overflowed the clock and the
   * results were NaN.
   */
  public static final double MIN_BANDWIDTH = 84_000;

  /** The most wire latency a topology's link may have: 1 ms, as every latency a builder takes (assumed). */

  /**
   * The most virtual channels a port may have: 16 (twice Aries' 8 [S6f], assumed; a port's occupied VCs are bits of
   * one int).
   */
  public static final int MAX_VCS = 16;

  private final Topology topo;
  private final Scheduler scheduler;
  /** The scheduler when it is core's loop (link-free events are then scheduled only when needed), else null. */
  private final DeterministicEventLoop loop;
  /** Each group's scheduler when the fabric runs on a {@link PartitionedEngine}, else null. */
  private final GroupScheduler[] groupScheds;
  /** Whether link-free events are scheduled under reserved numbers (on core's loop or on an engine). */
  private final boolean reserving;
  /** Division of a router by the routers a group, of a port by ports a group and by the radix, without a divide. */
  private final Divider byRoutersPerGroup;
  private final Divider byPortsPerGroup;
  private final Divider byRadix;
  /** The routing of each delivery mode, per group (the same array for every group without an engine). */
  private final RoutingAlgorithm[][] routingByGroup;
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
  /** Per port, bit {@code vc} set while that VC's queue holds a packet (the builder allows at most 16 VCs). */
  private final int[] occupiedVcs;
  private final byte[] rr;
  // per output port × VC
  /**
   * Per VC queue {@code q}: at {@code 2q} the credits of the VC's downstream buffer, at {@code 2q + 1} the wire bytes
   * of the queue's head while the queue holds a packet (else stale), so that the credit test of a send, a credit
   * return and a wake-up reads one slot pair instead of the credits and then the head's record, often a cold line.
   */
  private final int[] vcCredit;
  private final Flight[] qHead;
  private final Flight[] qTail;
  // per node
  private final FabricEndpoints endpoints;
  private final int[] injFree;
  private final long[] injLinkFreeAt;
  private final boolean[] injBlocked;
  private final Flight[] ejHead;
  private final Flight[] ejTail;
  private final long[] ejFreeAt;

  /** Per group: the first free record of its pool (records freed at delivery join the destination's pool). */
  private final Flight[] freeFlights;
  /**
   * Per group: every record its pool ever made (records are reused, never dropped), so {@link #stuck()} can find the
   * packets on wires as well as the queued ones; grows only when a pool is empty.
   */
  private final java.util.List<java.util.List<Flight>> allFlights;

  // one handler per kind of event (see the class comment)
  private final EventHandler arrival = this::arrive;
  private final EventHandler linkFree = this::linkFree;
  private final EventHandler delivery = this::deliver;

  /** Per group: the view routings read, and the candidates they fill. */
  private final View[] views;
  private final Candidates[] candidates;
  /** Per VC: the handler of a credit return: the bytes and the upstream port. */
  private final EventHandler[] creditReturn;
  private final EventHandler injectionBufferFree = this::injectionBufferFree;

  // statistics
  // per group (summed in group order when read)
  private final long[] injected;
  private final long[] delivered;
  private final long[] packetHops;
  private final long[] nonMinimalDelivered;
  private final long[] hopsDelivered;
  private final int[] maxHopsSeen;
  /** [group][link class] */
  private final long[][] classBusyPs;
  private final long[] portBusyPs;
  /** Per VC, Σ Δoccupancy × time of change, so that the integral up to T is occupancy × T − this (any order). */
  private final long[][] vcOccupancyTimeSum;
  /** [group][vc] */
  private final long[][] vcOccupancy;
  private final int[] classPortCount;
  /** Per group, what {@link #warmGroup} read last, kept so the reads are not dropped; read by nothing. */
  private final long[] warmSums;
  /** Per group, its events run when {@link #warmGroup} was last called. */
  private final long[] ranAtWarm;
  /** The fewest events since the last call for which a group is swept: a quarter of its slice's cache lines. */
  private final long warmMinEvents;
  /** Network ports of a group (its routers × radix): a group's ports are one contiguous range of the port arrays. */
  private final int portsPerGroup;

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
    int groups = topo.groupCount();
    if (b.engine != null) {
      groupScheds = new GroupScheduler[groups];
      for (int g = 0; g < groups; g++) {
        groupScheds[g] = b.engine.group(g);
      }
    } else {
      groupScheds = null;
    }
    this.reserving = loop != null || groupScheds != null;
    this.routingByGroup = new RoutingAlgorithm[groups][];
    if (b.engine == null || (b.algorithm != null && b.engine.threads() == 1)) {
      Arrays.fill(routingByGroup, b.routings(b.seed));
    } else {
      for (int g = 0; g < groups; g++) {
        routingByGroup[g] = b.routings(b.seed + (g + 1) * 0xD1B54A32D192ED03L);
      }
    }
    this.views = new View[groups];
    this.candidates = new Candidates[groups];
    int candidateCapacity = Candidates.capacityFor(topo);
    for (int g = 0; g < groups; g++) {
      views[g] = new View();
      candidates[g] = new Candidates(candidateCapacity);
    }
    this.creditReturn = new EventHandler[b.vcs];
    for (int vc = 0; vc < b.vcs; vc++) {
      creditReturn[vc] = new CreditReturn(vc);
    }
    this.injected = new long[groups];
    this.delivered = new long[groups];
    this.packetHops = new long[groups];
    this.nonMinimalDelivered = new long[groups];
    this.hopsDelivered = new long[groups];
    this.maxHopsSeen = new int[groups];
    this.warmSums = new long[groups];
    this.ranAtWarm = new long[groups];
    // bytes a port in the swept arrays: three longs, four ints, three bytes, and per VC an int and two references
    this.portsPerGroup = topo.routersPerGroup() * topo.portCount();
    long sliceBytes = (long) portsPerGroup * (3 * 8 + 4 * 4 + 3 + b.vcs * 12L);
    this.warmMinEvents = sliceBytes / 64 / 4;
    this.routingName = b.routingName();
    this.radix = topo.portCount();
    int routersPerGroup = topo.routersPerGroup();
    this.byRoutersPerGroup = new Divider(routersPerGroup, topo.routerCount() - 1);
    // a single router without network ports (one group, a = 1, h = 0) has no port to divide: any divisor serves
    int lastPort = Math.max(0, topo.routerCount() * radix - 1);
    this.byPortsPerGroup = new Divider(Math.max(1, portsPerGroup), lastPort);
    this.byRadix = new Divider(Math.max(1, radix), lastPort);
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
        int np = nr < 0 ? -1 : topo.neighborPort(r, p);
        int c = topo.linkClass(r, p);
        checkPort(r, p, c, nr, np, routers, radix, classes);
        peer[g] = nr < 0 ? -1 : nr * radix + np;
        portClass[g] = (byte) c;
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
    this.linkFreeSeq = new long[reserving ? netPorts : 0];
    this.linkFreeScheduled = new boolean[reserving ? netPorts : 0];
    this.queuedBytes = new int[netPorts];
    this.creditsUsed = new int[netPorts];
    this.occupiedVcs = new int[netPorts];
    this.rr = new byte[netPorts];
    this.vcCredit = new int[2 * netPorts * vcs];
    for (int q = 0; q < netPorts * vcs; q++) {
      vcCredit[2 * q] = vcBufferBytes;
    }
    this.qHead = new Flight[netPorts * vcs];
    this.qTail = new Flight[netPorts * vcs];
    int nodes = topo.nodeCount();
    this.endpoints = new FabricEndpoints(nodes);
    this.injFree = new int[nodes];
    Arrays.fill(injFree, injectionBufferBytes);
    this.injLinkFreeAt = new long[nodes];
    this.injBlocked = new boolean[nodes];
    this.ejHead = new Flight[nodes];
    this.ejTail = new Flight[nodes];
    this.ejFreeAt = new long[nodes];
    this.freeFlights = new Flight[topo.groupCount()];
    this.allFlights = new java.util.ArrayList<>(topo.groupCount());
    for (int g = 0; g < topo.groupCount(); g++) {
      allFlights.add(new java.util.ArrayList<>());
    }
    this.classBusyPs = new long[groups][classes];
    this.portBusyPs = new long[netPorts];
    this.vcOccupancyTimeSum = new long[groups][vcs];
    this.vcOccupancy = new long[groups][vcs];
    if (b.engine != null) {
      long cross = crossGroupLatencyPs(topo);
      if (b.engine.lookaheadPs() > cross) {
        throw new IllegalArgumentException("engine lookahead must be at most the smallest latency of a link between "
            + "groups (" + cross + " ps) but was " + b.engine.lookaheadPs() + " ps");
      }
      b.engine.addWarmer(this::warmGroup);
    }
  }

  /**
   * Checks a link or injection rate against [{@link #MIN_BANDWIDTH}, {@link #MAX_BANDWIDTH}] (NaN and infinities are
   * outside it).
   *
   * @param name what the message calls the rate (a parameter's name)
   * @param bytesPerSecond the rate
   * @throws IllegalArgumentException naming the rate, the range and the value
   */
  static void checkBandwidth(String name, double bytesPerSecond) {
    if (!(bytesPerSecond >= MIN_BANDWIDTH && bytesPerSecond <= MAX_BANDWIDTH)) {
      throw new IllegalArgumentException(name + " must be in [84000, 1e12] bytes/s but was " + bytesPerSecond);
    }
  }

  /**
   * Checks the rates and latencies the fabric reads from a topology (a user's may give anything) against the bounds
   * the built-in topologies keep, so that a bad value is a message at build time rather than a wrong time mid-run.
   */
  private static void checkRates(Topology t) {
    int classes = t.linkClassCount();
    if (classes < 1 || classes > Byte.MAX_VALUE) {
      throw new IllegalArgumentException("topology linkClassCount() must be in [1, 127] but was " + classes);
    }
    for (int c = 0; c < classes; c++) {
      checkBandwidth("topology linkBandwidth(" + c + ")", t.linkBandwidth(c));
      long latency = t.linkLatencyPs(c);
      if (latency < 0 || latency > SimTime.MAX_LATENCY_PS) {
        throw new IllegalArgumentException("topology linkLatencyPs(" + c + ") must be in [0, 1e9] ps but was "
            + latency);
      }
    }
    checkBandwidth("topology injectionBandwidth()", t.injectionBandwidth());
  }

  /**
   * The most elements the fabric's largest array (two ints per port and VC, {@code vcCredit}) may have: the JVM's
   * largest array, {@code Integer.MAX_VALUE - 8} (derived: the bound {@code ArrayList} keeps).
   */
  static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

  /**
   * Checks that the per-port and per-(port, VC) arrays fit Java arrays: 2 × routers × radix × vcs ints at most
   * {@link #MAX_ARRAY}, which overflowed to a negative array size on a legal huge topology with 16 VCs.
   */
  private static void checkSizes(Topology t, int vcs) {
    long routers = t.routerCount();
    long radix = t.portCount();
    long slots = 2 * routers * radix * vcs;
    if (slots > MAX_ARRAY) {
      throw new IllegalArgumentException("topology routers × ports × vcs × 2 (credit slots) must be at most "
          + MAX_ARRAY + " but was " + routers + " × " + radix + " × " + vcs + " × 2 = " + slots
          + "; use fewer VCs or a smaller topology");
    }
  }

  /**
   * Whether a routing made for {@code a} routes {@code b}: the same object, or the same kind of topology with the same
   * description (a generated dragonfly's says all it is made of) and, for cabled systems, the same cables.
   */
  static boolean sameTopology(Topology a, Topology b) {
    if (a == b) {
      return true;
    }
    if (a.getClass() != b.getClass() || !a.describe().equals(b.describe())) {
      return false;
    }
    return !(a instanceof CabledDragonfly ca) || Arrays.equals(ca.peers(), ((CabledDragonfly) b).peers());
  }

  /**
   * Checks a port's link class and far end (router and port, or -1 for an uncabled port) as a topology gave them (a
   * user's may give anything).
   */
  private static void checkPort(int r, int p, int linkClass, int neighbor, int neighborPort, int routers, int radix,
      int classes) {
    if (linkClass < 0 || linkClass >= classes) {
      throw new IllegalArgumentException("topology linkClass(" + r + ", " + p + ") must be in [0, " + (classes - 1)
          + "] but was " + linkClass);
    }
    if (neighbor < -1 || neighbor >= routers) {
      throw new IllegalArgumentException("topology neighborRouter(" + r + ", " + p + ") must be -1 or in [0, "
          + (routers - 1) + "] but was " + neighbor);
    }
    if (neighbor >= 0 && (neighborPort < 0 || neighborPort >= radix)) {
      throw new IllegalArgumentException("topology neighborPort(" + r + ", " + p + ") must be in [0, " + (radix - 1)
          + "] but was " + neighborPort);
    }
  }

  /**
   * The engine's {@link GroupWarmer}: reads group {@code g}'s slice of every per-port array front to back, one word
   * a cache line, before the group runs a window. A group's ports are contiguous ({@code router × radix + port},
   * routers numbered group by group), so each slice is one sequential stream. On the full system with 8 VCs a slice is
   * about 530 KB (3,840 ports of 139 bytes; 129 MB over the 241 groups) and has left the caches since the group last
   * ran; its first events would otherwise fetch it line by line, each waiting, as routing and sends read it. The sum
   * only keeps the reads from being dropped; nothing reads it.
   *
   * <p>The sweep pays only when the window's events would have fetched a good part of the slice anyway. A group is
   * swept when, in the window it last ran (the events since the last call), it ran at least a quarter as many events
   * as the slice has lines ({@link #warmMinEvents}; derived: an arrival's routing and send read several ports'
   * credits, queue tails and link times, about four lines or more). A busy full system sweeps every group (about
   * 7,000 events a group-window against 2,085 at 10 % load); a sparse replay, whose groups run a few events a window,
   * sweeps none, where sweeping every group-window cost 1.37 of the CPU (docs/performance.md, "Stop 24").
   */
  private void warmGroup(int g) {
    long ran = groupScheds[g].eventsExecuted();
    long since = ran - ranAtWarm[g];
    ranAtWarm[g] = ran;
    if (since < warmMinEvents) {
      return; // a quiet group: its next window will likely touch few of the slice's lines
    }
    int from = g * portsPerGroup;
    int to = from + portsPerGroup;
    long sum = 0;
    // 8 longs, 16 ints or references (compressed), 64 bytes or booleans a line
    for (int i = from; i < to; i += 8) {
      sum += linkFreeAt[i] + linkFreeSeq[i] + portBusyPs[i];
    }
    for (int i = from; i < to; i += 16) {
      sum += queuedBytes[i] + creditsUsed[i] + occupiedVcs[i] + peer[i];
    }
    for (int i = from; i < to; i += 64) {
      sum += rr[i] + portClass[i] + (linkFreeScheduled[i] ? 1 : 0);
    }
    for (int i = from * vcs, end = to * vcs; i < end; i += 16) {
      sum += (qHead[i] == null ? 0 : 1) + (qTail[i] == null ? 0 : 1);
    }
    for (int i = 2 * from * vcs, end = 2 * to * vcs; i < end; i += 16) {
      sum += vcCredit[i];
    }
    warmSums[g] = sum;
  }

  /**
   * The lookahead a {@link PartitionedEngine} for this topology's groups should use: {@link #crossGroupLatencyPs},
   * or for one group (nothing to look ahead of) the smallest link latency, which keeps the windows short for checks
   * made between them, or 1 µs (assumed) when there is no link at all.
   *
   * @param topology the topology
   * @return the lookahead, picoseconds, ≥ 1
   * @throws IllegalArgumentException when a link between groups has no latency (groups cannot run in windows)
   */
  public static long engineLookaheadPs(Topology topology) {
    if (topology == null) {
      throw new IllegalArgumentException("topology must not be null");
    }
    long lookahead = crossGroupLatencyPs(topology);
    if (lookahead == Long.MAX_VALUE) {
      for (int c = 0; c < topology.linkClassCount(); c++) {
        lookahead = Math.min(lookahead, Math.max(1, topology.linkLatencyPs(c)));
      }
      if (lookahead == Long.MAX_VALUE) {
        lookahead = 1_000_000L;
      }
    }
    if (lookahead < 1) {
      throw new IllegalArgumentException("links between groups must have a latency of at least 1 ps to run groups "
          + "in windows, but one has " + lookahead + " ps");
    }
    return lookahead;
  }

  /**
   * The smallest wire latency of a link that joins two groups: no event the fabric schedules into another group
   * comes sooner (an arrival adds the pipeline to it, a credit the serialization before it), so it bounds the
   * lookahead of a {@link PartitionedEngine} running the fabric.
   *
   * @param topology a topology
   * @return picoseconds, or {@link Long#MAX_VALUE} when no link joins two groups
   */
  public static long crossGroupLatencyPs(Topology topology) {
    if (topology == null) {
      throw new IllegalArgumentException("topology must not be null");
    }
    long min = Long.MAX_VALUE;
    int radix = topology.portCount();
    for (int r = 0; r < topology.routerCount(); r++) {
      int g = topology.groupOfRouter(r);
      for (int p = 0; p < radix; p++) {
        int nr = topology.neighborRouter(r, p);
        if (nr >= 0 && topology.groupOfRouter(nr) != g) {
          min = Math.min(min, topology.linkLatencyPs(topology.linkClass(r, p)));
        }
      }
    }
    return min;
  }

  /**
   * A builder for a fabric on a topology, driven by a scheduler.
   *
   * @param topology the router graph
   * @param scheduler the clock (usually core's DeterministicEventLoop)
   * @return the builder
   */
  public static Builder builder(Topology topology, Scheduler scheduler) {
    return new Builder(topology, scheduler, null);
  }

  /**
   * A builder for a fabric whose groups run on a {@link PartitionedEngine} (see the class comment). The engine must
   * have one group per dragonfly group and a lookahead of at most {@link #crossGroupLatencyPs}; a routing instance
   * ({@link Builder#routing(RoutingAlgorithm)}) cannot be shared by threads, so it needs a one-thread engine (give a
   * {@link RoutingProvider} or a name instead).
   *
   * @param topology the router graph
   * @param engine the engine
   * @return the builder
   */
  public static Builder builder(Topology topology, PartitionedEngine engine) {
    if (engine == null) {
      throw new IllegalArgumentException("engine must not be null");
    }
    if (topology != null && engine.groupCount() != topology.groupCount()) {
      throw new IllegalArgumentException("engine groups must equal the topology's " + topology.groupCount()
          + " groups but were " + engine.groupCount());
    }
    return new Builder(topology, engine.group(0), engine);
  }

  /**
   * Settings of a {@link RouterFabric}; every setter returns the builder. The routing is chosen once: a later
   * {@code routing(...)} or {@link #routingByDeliveryMode()} replaces an earlier one. {@link #build()} refuses a
   * routing that needs more virtual channels than {@link #vcs(int)} gives.
   */
  public static final class Builder {
    private final Topology topology;
    private final Scheduler scheduler;
    private final PartitionedEngine engine;
    private String routing = "adaptive0";
    private RoutingAlgorithm algorithm;
    /** The name a user gave {@link #algorithm} for messages and reports, or null (its class's name is used). */
    private String algorithmName;
    private RoutingProvider provider;
    private boolean byDeliveryMode;
    private DeliveryObserver observer;
    private HopListener hopListener;
    private long seed = 1;
    private int vcs = 8;
    private int vcBufferBytes = 2048;
    // Assumed: two processor tiles per NIC [S15], each taken to buffer 2,048 bytes for the request VC as a network
    // input does (no published figure gives a processor tile's buffer), 4,096 bytes. Not independent of validate's
    // link-rate rows: a 1 KB buffer left the NIC idle after every refused injection, so a single-path stream filled
    // only 83% of a rank-1 link, and 4 KB was taken so that it fills it (docs/validation.md, "Calibration rows").
    private int injectionBufferBytes = 4096;
    private long pipelinePs = 90_000;
    private long injectionLatencyPs = 5_000;
    private Arbitration arbitration = Arbitration.ROUND_ROBIN;
    private int maxHops = 64;

    private Builder(Topology topology, Scheduler scheduler, PartitionedEngine engine) {
      if (topology == null) {
        throw new IllegalArgumentException("topology must not be null");
      }
      if (scheduler == null) {
        throw new IllegalArgumentException("scheduler must not be null");
      }
      this.topology = topology;
      this.scheduler = scheduler;
      this.engine = engine;
    }

    /**
     * @param name a routing name (see {@link Routings#names()}) used for every packet, or {@value
     *     Routings#BY_DELIVERY_MODE} (the same as {@link #routingByDeliveryMode()})
     * @return this
     */
    public Builder routing(String name) {
      if (name == null) {
        throw new IllegalArgumentException("name must not be null");
      }
      if (name.trim().equalsIgnoreCase(Routings.BY_DELIVERY_MODE)) {
        return routingByDeliveryMode();
      }
      this.routing = name;
      this.algorithm = null;
      this.provider = null;
      this.byDeliveryMode = false;
      return this;
    }

    /**
     * @param algorithm a routing instance used for every packet, made for this fabric's topology ({@link #build()}
     *     refuses one whose {@link RoutingAlgorithm#topology()} is another); its random stream goes on from where it
     *     is, so a second fabric given the same instance does not repeat the first one's choices (give a name or a
     *     {@link RoutingProvider} for a routing seeded by {@link #seed(long)})
     * @return this
     */
    public Builder routing(RoutingAlgorithm algorithm) {
      if (algorithm == null) {
        throw new IllegalArgumentException("algorithm must not be null");
      }
      this.algorithm = algorithm;
      this.algorithmName = null;
      this.provider = null;
      this.byDeliveryMode = false;
      return this;
    }

    /**
     * A routing instance, as {@link #routing(RoutingAlgorithm)}, under a name of the user's that the fabric's
     * messages and {@link RouterFabric#routingName()} use (else its class's simple name, which an anonymous class
     * lacks).
     *
     * @param algorithm the instance
     * @param name its name, not blank
     * @return this
     */
    public Builder routing(RoutingAlgorithm algorithm, String name) {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("routing name must not be blank but was " + (name == null ? "null"
            : "\"" + name + "\""));
      }
      routing(algorithm);
      this.algorithmName = name.trim();
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

    /**
     * Adds a listener of every hop beside the one set already ({@link #hopListener}), told after it.
     *
     * @param l the listener
     * @return this
     */
    public Builder addHopListener(HopListener l) {
      if (l == null) {
        throw new IllegalArgumentException("hop listener must not be null");
      }
      HopListener before = this.hopListener;
      this.hopListener = before == null ? l : (now, p, router, port, vc, hop) -> {
        before.hop(now, p, router, port, vc, hop);
        l.hop(now, p, router, port, vc, hop);
      };
      return this;
    }

    /** @param s seed of the routing's random choices @return this */
    public Builder seed(long s) {
      this.seed = s;
      return this;
    }

    /** @param n virtual channels per port, 1 to {@link #MAX_VCS} (Aries: 8 [S6f]) @return this */
    public Builder vcs(int n) {
      check("vcs", n, 1, MAX_VCS);
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
     *     2,048 bytes a network input buffers per VC; assumed, as no source gives a processor tile's buffer)
     * @return this
     */
    public Builder injectionBufferBytes(int bytes) {
      check("injectionBufferBytes", bytes, 128, 1 << 20);
      this.injectionBufferBytes = bytes;
      return this;
    }

    /** @param ps router pipeline latency, 0 to 1 ms @return this */
    public Builder pipelinePs(long ps) {
      if (ps < 0 || ps > SimTime.MAX_LATENCY_PS) {
        throw new IllegalArgumentException("pipelinePs must be in [0, 1e9] but was " + ps);
      }
      this.pipelinePs = ps;
      return this;
    }

    /** @param ps NIC-to-router wire latency, 0 to 1 ms @return this */
    public Builder injectionLatencyPs(long ps) {
      if (ps < 0 || ps > SimTime.MAX_LATENCY_PS) {
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
     * @throws IllegalArgumentException for an unknown routing name, when the routing needs more virtual channels
     *     than {@link #vcs(int)} gives, when 2 × routers × ports × VCs passes {@link #MAX_ARRAY} (the credit
     *     array), or when the topology gives a rate outside [{@link #MIN_BANDWIDTH}, {@link
     *     #MAX_BANDWIDTH}], a latency outside [0, 1 ms], or a link class or neighbour outside its own counts
     */
    public RouterFabric build() {
      checkRates(topology);
      checkSizes(topology, vcs);
      if (engine != null && algorithm != null && engine.threads() > 1) {
        throw new IllegalArgumentException("routing instance " + routingName() + " cannot be shared by the engine's "
            + engine.threads() + " threads: give a RoutingProvider or a routing name (one instance per group), or use "
            + "one thread");
      }
      return new RouterFabric(this);
    }

    /** The routing of each delivery mode, checked against the VC count. */
    private RoutingAlgorithm[] routings(long seed) {
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
        Topology madeFor = byMode[m.ordinal()].topology();
        if (madeFor != null && !sameTopology(madeFor, topology)) {
          throw new IllegalArgumentException("routing " + routingName() + " was made for "
              + Texts.abbreviate(madeFor.describe()) + ", not for this fabric's topology "
              + Texts.abbreviate(topology.describe()) + ": make the instance for the topology it routes"
              + " (Routings.create(name, topology, seed)), or give the routing's name or a RoutingProvider");
        }
        int need = byMode[m.ordinal()].virtualChannelsNeeded();
        if (need > vcs) {
          String which = byDeliveryMode ? Routings.nameFor(m) + " (for " + m + ", by delivery mode)" : routingName();
          int minimalNeeds = new DragonflyPaths(topology).maxRouteHops(false);
          if (minimalNeeds <= vcs) {
            throw new IllegalArgumentException("vcs (" + vcs + ") must be at least the " + need
                + " virtual channels routing " + which + " needs on " + topology.describe()
                + ": raise vcs (RouterFabric.Builder.vcs) or choose a routing with shorter routes, such as minimal (on"
                + " the command line, --routing minimal)");
          }
          // no routing has shorter routes than minimal: only more VCs or a topology with shorter routes will do
          throw new IllegalArgumentException("vcs (" + vcs + ") must be at least the " + need
              + " virtual channels routing " + which + " needs on " + topology.describe() + ": its minimal routes"
              + " take up to " + minimalNeeds + " router hops (up to " + topology.maxLocalHops() + " inside a group),"
              + " so every routing needs at least " + minimalNeeds + " VCs; "
              + (minimalNeeds <= MAX_VCS ? "raise vcs (RouterFabric.Builder.vcs, at most " + MAX_VCS + "; the"
                  + " command line keeps Aries' 8) or use" : "use") + " a topology whose groups have shorter routes"
              + " (on a cabled system, fail fewer rank-1 and rank-2 links)");
        }
      }
      return byMode;
    }

    private String routingName() {
      if (byDeliveryMode) {
        return Routings.BY_DELIVERY_MODE;
      }
      if (algorithm != null) {
        String simple = algorithm.getClass().getSimpleName();
        return algorithmName != null ? algorithmName : simple.isEmpty() ? algorithm.getClass().getName() : simple;
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

  /**
   * {@inheritDoc}
   *
   * <p>A packet in a fabric ({@link Packet#inFabric()}: accepted and not yet delivered) is refused before anything
   * changes: it would travel twice, be delivered twice and have its transit record overwritten.
   *
   * @throws IllegalArgumentException when the packet is null, its source or destination is not a node of the
   *     fabric, or it is in a fabric already
   */
  @Override
  public boolean inject(Packet packet) {
    if (packet == null) {
      throw new IllegalArgumentException("packet must not be null");
    }
    endpoints.checkPacket(packet);
    packet.checkNotInFabric();
    int node = packet.sourceNode();
    int bytes = packet.wireBytes();
    int g = groupOfRouter(topo.routerOfNode(node));
    long now = groupScheds == null ? scheduler.now() : groupScheds[g].now();
    int buffer = netPorts + node;
    if (injFree[node] < bytes) {
      injBlocked[node] = true; // the next free tells the node
      return false;
    }
    injFree[node] -= bytes;
    packet.enterFabric();
    packet.hops(0);
    packet.injectedAtPs(now);
    Flight slot = allocFlight(packet, buffer);
    long start = Math.max(now, injLinkFreeAt[node]);
    injLinkFreeAt[node] = start + SerialChannel.serializationPs(bytes, psPerByteInjection);
    injected[g]++;
    scheduleArrival(g, start + injectionLatencyPs + pipelinePs, topo.routerOfNode(node), packet, slot);
    return true;
  }

  // ---------------------------------------------------------------- events

  /** Schedules, from an event of group {@code from}, the arrival of a packet at {@code router}. */
  private void scheduleArrival(int from, long timePs, int router, Packet p, Flight slot) {
    scheduleInto(from, groupOfRouter(router), timePs, arrival, slot, 0);
  }

  // ---------------------------------------------------------------- scheduling by group

  private int groupOfRouter(int router) {
    return byRoutersPerGroup.divide(router);
  }

  /** The group of global port {@code gp}. */
  private int groupOfPort(int gp) {
    return byPortsPerGroup.divide(gp);
  }

  /** Schedules an event of group {@code g} (on the plain scheduler without an engine). */
  private void schedule(int g, long timePs, EventHandler h, Object ref, long arg) {
    if (groupScheds == null) {
      scheduler.scheduleAt(timePs, h, ref, arg);
    } else {
      groupScheds[g].scheduleAt(timePs, h, ref, arg);
    }
  }

  /** Schedules, from an event of group {@code from}, an event that runs in group {@code to}. */
  private void scheduleInto(int from, int to, long timePs, EventHandler h, Object ref, long arg) {
    if (groupScheds == null) {
      scheduler.scheduleAt(timePs, h, ref, arg);
    } else {
      groupScheds[from].scheduleInto(to, timePs, h, ref, arg);
    }
  }

  private long reserveSequence(int g) {
    return groupScheds == null ? loop.reserveSequence() : groupScheds[g].reserveSequence();
  }

  private void scheduleReserved(int g, long timePs, long seq, EventHandler h, Object ref, long arg) {
    if (groupScheds == null) {
      loop.scheduleReserved(timePs, seq, h, ref, arg);
    } else {
      groupScheds[g].scheduleReserved(timePs, seq, h, ref, arg);
    }
  }

  /** Arrival: a packet's head has reached a router and passed its pipeline; {@code ref} is its record. */
  private void arrive(long now, Object ref, long arg) {
    Flight slot = (Flight) ref;
    int input = slot.input;
    int router = routerOfInput(input);
    int dest = slot.dest;
    int destRouter = topo.routerOfNode(dest);
    int inter = slot.intermediate;
    if (inter >= 0 && paths.reached(router, inter, destRouter)) {
      slot.intermediate = -1;
    }
    slot.next = null;
    if (router == destRouter) {
      if (ejTail[dest] == null) {
        ejHead[dest] = slot;
      } else {
        ejTail[dest].next = slot;
      }
      ejTail[dest] = slot;
      tryEject(now, dest);
    } else {
      route(now, slot.packet, slot, router);
    }
  }

  private void route(long now, Packet p, Flight slot, int router) {
    if (p.hops() >= maxHops) {
      throw new IllegalStateException("routing " + routingName + " took more than maxHops (" + maxHops
          + ") hops for " + p + " (now at router " + router + (slot.intermediate >= 0
          ? ", still on its way to intermediate " + slot.intermediate : "") + ")");
    }
    int g = groupOfRouter(router);
    RoutingAlgorithm alg = routingByGroup[g][p.deliveryMode().ordinal()];
    View view = views[g];
    Candidates candidates = this.candidates[g];
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
      slot.intermediate = inter;
      slot.nonMinimal = true;
    }
    int gp = router * radix + port;
    int q = gp * vcs + vc;
    int occupied = occupiedVcs[gp];
    // the VC's bit says whether its queue holds a packet, so an empty queue's tail (often a cold line on a large
    // system) is written, not read
    if ((occupied & (1 << vc)) == 0) {
      qHead[q] = slot;
      vcCredit[2 * q + 1] = slot.bytes;
    } else {
      qTail[q].next = slot;
    }
    qTail[q] = slot;
    queuedBytes[gp] += slot.bytes;
    occupiedVcs[gp] = occupied | 1 << vc;
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
    int occupied = occupiedVcs[gp];
    if (!reserving || occupied == 0 || linkFreeScheduled[gp] || linkFreeAt[gp] <= now) {
      return;
    }
    if (firstWithCredits(gp * vcs, occupied) >= 0) {
      linkFreeScheduled[gp] = true;
      scheduleReserved(groupOfPort(gp), linkFreeAt[gp], linkFreeSeq[gp], linkFree, null, gp);
    }
  }

  /** Link free: output port {@code arg} has finished serializing and may send again. */
  private void linkFree(long now, Object ref, long arg) {
    int gp = (int) arg;
    if (reserving && linkFreeAt[gp] <= now) {
      // (a stale one, whose link a credit return at the same time has already restarted, leaves the flag alone)
      linkFreeScheduled[gp] = false;
    }
    trySend(now, gp);
  }

  /**
   * Credit return for one VC: the tail of a packet has left the buffer fed by an upstream port; the credit is back
   * now. {@code arg} is a {@link #releaseArg} of its bytes and that port.
   */
  private final class CreditReturn implements EventHandler {
    private final int vc;

    CreditReturn(int vc) {
      this.vc = vc;
    }

    @Override
    public void onEvent(long now, Object ref, long arg) {
      int port = (int) arg;
      int bytes = releasedBytes(arg);
      vcCredit[2 * (port * vcs + vc)] += bytes;
      creditsUsed[port] -= bytes;
      occupancy(groupOfPort(port), now, vc, -bytes);
      if (occupiedVcs[port] != 0) {
        trySend(now, port);
        wakeWhenLinkFrees(now, port);
      }
    }
  }

  /**
   * Injection buffer free: a packet has left a node's buffer; {@code arg} is a {@link #releaseArg} of its bytes and
   * the node.
   */
  private void injectionBufferFree(long now, Object ref, long arg) {
    int node = (int) arg;
    injFree[node] += releasedBytes(arg);
    if (injBlocked[node]) {
      injBlocked[node] = false;
      FabricEndpoint ep = endpoints.endpointOrNull(node);
      if (ep != null) {
        ep.injectionReady(now);
      }
    }
  }

  /** Delivery: the packet of record {@code ref} has crossed its node's ejection link. */
  private void deliver(long now, Object ref, long arg) {
    Flight slot = (Flight) ref;
    Packet p = slot.packet;
    p.leaveFabric();
    boolean nonMinimal = slot.nonMinimal;
    int node = p.destinationNode();
    int g = groupOfRouter(topo.routerOfNode(node));
    freeFlight(g, slot);
    delivered[g]++;
    hopsDelivered[g] += p.hops();
    if (nonMinimal) {
      nonMinimalDelivered[g]++;
    }
    if (observer != null) {
      observer.delivered(now, p, nonMinimal);
    }
    endpoints.endpointFor(p).deliver(now, p);
    tryEject(now, node);
  }

  /** @return the lowest VC of {@code bits} whose queue head has the credits it needs on port {@code base / vcs}, or -1 */
  private int firstWithCredits(int base, int bits) {
    for (; bits != 0; bits &= bits - 1) {
      int vc = Integer.numberOfTrailingZeros(bits);
      int q = 2 * (base + vc);
      if (vcCredit[q] >= vcCredit[q + 1]) {
        return vc;
      }
    }
    return -1;
  }

  private void trySend(long now, int gp) {
    int occupied = occupiedVcs[gp];
    if (occupied == 0 || linkFreeAt[gp] > now) {
      return;
    }
    int base = gp * vcs;
    int chosen = -1;
    if (arbitration == Arbitration.ROUND_ROBIN) {
      // the occupied VCs from the round-robin start up, then from 0 up to it: the order of a scan of every VC
      int start = rr[gp];
      chosen = firstWithCredits(base, occupied & (-1 << start));
      if (chosen < 0) {
        chosen = firstWithCredits(base, occupied & ((1 << start) - 1));
      }
    } else {
      long oldest = Long.MAX_VALUE;
      for (int bits = occupied; bits != 0; bits &= bits - 1) {
        int vc = Integer.numberOfTrailingZeros(bits);
        Flight h = qHead[base + vc];
        if (vcCredit[2 * (base + vc)] >= h.bytes && h.packet.injectedAtPs() < oldest) {
          oldest = h.packet.injectedAtPs();
          chosen = vc;
        }
      }
    }
    if (chosen < 0) {
      return; // a credit arrival retries
    }
    int q = base + chosen;
    Flight slot = qHead[q];
    Flight behind = slot.next;
    qHead[q] = behind;
    if (behind == null) {
      qTail[q] = null;
      occupiedVcs[gp] &= ~(1 << chosen);
    } else {
      vcCredit[2 * q + 1] = behind.bytes;
    }
    rr[gp] = (byte) (chosen + 1 == vcs ? 0 : chosen + 1);
    Packet p = slot.packet;
    int input = slot.input;
    int inputVc = slot.vc;
    int downstream = peer[gp];
    slot.input = downstream;
    slot.vc = chosen;
    int bytes = slot.bytes;
    vcCredit[2 * q] -= bytes;
    creditsUsed[gp] += bytes;
    int g = groupOfPort(gp);
    occupancy(g, now, chosen, bytes);
    queuedBytes[gp] -= bytes;
    int cls = portClass[gp];
    long ser = SerialChannel.serializationPs(bytes, psPerByteClass[cls]);
    linkFreeAt[gp] = now + ser;
    classBusyPs[g][cls] += ser;
    portBusyPs[gp] += ser;
    packetHops[g]++;
    int hops = p.hops() + 1;
    p.hops(hops);
    if (hops > maxHopsSeen[g]) {
      maxHopsSeen[g] = hops;
    }
    if (hopListener != null) {
      hopListener.hop(now, p, gp / radix, gp % radix, chosen, hops);
    }
    scheduleArrival(g, now + latencyClass[cls] + pipelinePs, byRadix.divide(downstream), p, slot);
    release(g, now + ser, input, inputVc, bytes);
    if (!reserving || ser == 0) {
      schedule(g, now + ser, linkFree, null, gp);
    } else {
      linkFreeSeq[gp] = reserveSequence(g);
      linkFreeScheduled[gp] = false;
      wakeWhenLinkFrees(now, gp);
    }
  }

  /**
   * The packet's tail leaves the input buffer it occupied at {@code tailGonePs}: the space returns upstream (a credit
   * one wire latency later, or the injection buffer's room at once), an event of its own in the owner's group (a
   * credit may cross to another group).
   */
  private void release(int g, long tailGonePs, int input, int vc, int bytes) {
    if (input >= netPorts) {
      schedule(g, tailGonePs, injectionBufferFree, null, releaseArg(bytes, input - netPorts));
    } else {
      int owner = peer[input];
      scheduleInto(g, groupOfPort(owner), tailGonePs + latencyClass[portClass[input]], creditReturn[vc], null,
          releaseArg(bytes, owner));
    }
  }

  private void tryEject(long now, int node) {
    if (ejFreeAt[node] > now || ejHead[node] == null) {
      return;
    }
    Flight slot = ejHead[node];
    ejHead[node] = slot.next;
    if (ejHead[node] == null) {
      ejTail[node] = null;
    }
    int input = slot.input;
    int vc = slot.vc;
    int bytes = slot.bytes;
    long ser = SerialChannel.serializationPs(bytes, psPerByteInjection);
    ejFreeAt[node] = now + ser;
    int g = groupOfRouter(topo.routerOfNode(node));
    release(g, now + ser, input, vc, bytes);
    scheduleInto(g, g, now + ser, delivery, slot, 0);
  }

  /** A change of VC {@code vc}'s occupancy at time {@code atPs}; changes may come in any time order. */
  private void occupancy(int g, long atPs, int vc, int delta) {
    vcOccupancy[g][vc] += delta;
    vcOccupancyTimeSum[g][vc] += delta * atPs;
  }

  /**
   * A record for a packet entering the fabric through input buffer {@code input} (VC 0), minimal so far, from the
   * pool of the group of that input.
   */
  private Flight allocFlight(Packet p, int input) {
    int g = groupOfRouter(routerOfInput(input));
    Flight f = freeFlights[g];
    if (f != null) {
      freeFlights[g] = f.next;
    } else {
      f = new Flight();
      allFlights.get(g).add(f);
    }
    f.packet = p;
    f.bytes = p.wireBytes();
    f.dest = p.destinationNode();
    f.next = null;
    f.input = input;
    f.vc = 0;
    f.intermediate = -1;
    f.nonMinimal = false;
    return f;
  }

  /** Returns a delivered packet's record to the pool of group {@code g} (its destination's). */
  private void freeFlight(int g, Flight f) {
    f.packet = null;
    f.next = freeFlights[g];
    freeFlights[g] = f;
  }

  /**
   * A packet in flight and its route state, from injection to delivery: its size and destination (copies of the
   * packet's), the input buffer it occupies (a global port,
   * or {@code netPorts + node} for the injection buffer) and its VC, the intermediate router it is on its way to (or
   * -1), whether it was ever committed to one, and the next record in the queue it waits in (or in a free list).
   */
  private static final class Flight implements ReadAhead {
    Packet packet;
    Flight next;
    /** The packet's wire bytes and destination node, kept here so queue scans and arrivals need not read it. */
    int bytes;
    int dest;
    int input;
    int vc;
    int intermediate;
    boolean nonMinimal;

    /**
     * Counts read-aheads that met a packet with a negative hop count or node id, which the fabric never writes: the
     * test only keeps the compiler from dropping the reads, and must neither fail nor change anything the
     * simulation reads.
     */
    int oddPacketsSeen;

    /**
     * Reads what an arrival's routing reads of the packet: its hop count, and the source and destination the
     * packet's hash is made of. A packet is 112 bytes, so these lie on two or three cache lines (HotSpot puts the
     * source and the offset before the five longs, the destination, tag and hops after them); the hops alone
     * fetched only the last, and the small run's routing still missed on the first (stop 36's profile). Reading the
     * packet's class instead of its fields cost 1.10 (1.03-1.21) in CPU on the full system (docs/performance.md,
     * "Stop 22").
     */
    @Override
    public void readAhead() {
      Packet p = packet;
      if (p != null && (p.hops() | p.sourceNode() | p.destinationNode()) < 0) {
        oddPacketsSeen++;
      }
    }
  }

  /**
   * The arg of a release (credit return or injection-buffer free): the bytes it gives back above bit 32, its
   * owner (the upstream port, or the node) below. The event needs nothing else, so it reads no packet, whose line
   * has long left the cache by then.
   */
  private static long releaseArg(int bytes, int owner) {
    return (long) bytes << 32 | owner;
  }

  /** @return the bytes of a {@link #releaseArg} */
  private static int releasedBytes(long arg) {
    return (int) (arg >>> 32);
  }

  // ---------------------------------------------------------------- router view

  private final class View implements RouterView {
    int router;
    long now;
    Flight slot;

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
      return vcCredit[2 * ((router * radix + port) * vcs + vc)];
    }

    @Override
    public int queuedBytes(int port) {
      return queuedBytes[router * radix + port];
    }

    @Override
    public int intermediate() {
      return slot.intermediate;
    }

    @Override
    public boolean nonMinimal() {
      return slot.nonMinimal;
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
    return sum(injected);
  }

  /** @return packets delivered to their node */
  public long delivered() {
    return sum(delivered);
  }

  /** @return packets inside the fabric (injected, not yet delivered) */
  public long inFlight() {
    return injected() - delivered();
  }

  /** @return router-to-router link traversals so far */
  public long packetHops() {
    return sum(packetHops);
  }

  /** @return sum of hop counts of delivered packets */
  public long hopsOfDelivered() {
    return sum(hopsDelivered);
  }

  /** @return delivered packets that were routed non-minimally */
  public long nonMinimalDelivered() {
    return sum(nonMinimalDelivered);
  }

  /** @return the most hops any packet has taken */
  public int maxHopsSeen() {
    int max = 0;
    for (int m : maxHopsSeen) {
      max = Math.max(max, m);
    }
    return max;
  }

  /** @return number of link classes (ranks) */
  public int linkClassCount() {
    return classPortCount.length;
  }

  /**
   * @param linkClass a class, 0 to {@link #linkClassCount()} - 1
   * @return cabled ports (link directions) of that class
   * @throws IllegalArgumentException when the class is out of range
   */
  public int linkCount(int linkClass) {
    checkLinkClass(linkClass);
    return classPortCount[linkClass];
  }

  /**
   * @param linkClass a class, 0 to {@link #linkClassCount()} - 1
   * @return picoseconds links of that class have spent serializing, summed
   * @throws IllegalArgumentException when the class is out of range
   */
  public long busyPs(int linkClass) {
    checkLinkClass(linkClass);
    long sum = 0;
    for (long[] group : classBusyPs) {
      sum += group[linkClass];
    }
    return sum;
  }

  /**
   * The time links of a class have spent serializing up to {@code atPs}, summed: {@link #busyPs(int)} counts a
   * packet's whole serialization when it starts, so this takes off the part of each link's current serialization
   * that lies beyond {@code atPs}. The difference of two calls is the busy time inside the interval, at most the
   * interval's length per link, which {@link #busyPs(int)} differences are not (a serialization that starts before
   * the interval's end counts whole). Costs a pass over the network ports; call it between events, at a time no
   * earlier than the last event run ({@code atPs >= now}).
   *
   * @param linkClass a class, 0 to {@link #linkClassCount()} - 1
   * @param atPs the time, picoseconds, no earlier than the last event run
   * @return busy picoseconds up to {@code atPs}
   * @throws IllegalArgumentException when the class is out of range, or {@code atPs} is before the scheduler's
   *     time (the sum would count serializations that had not started: -5 gave a negative busy time)
   */
  public long linkClassBusyPs(int linkClass, long atPs) {
    long sum = busyPs(linkClass);
    long now = scheduler.now();
    if (atPs < now) {
      throw new IllegalArgumentException("atPs must be >= now (" + now + " ps) but was " + atPs);
    }
    for (int gp = 0; gp < netPorts; gp++) {
      if (portClass[gp] == linkClass && linkFreeAt[gp] > atPs) {
        sum -= linkFreeAt[gp] - atPs;
      }
    }
    return sum;
  }

  /**
   * {@link #linkClassBusyPs(int, long)} under its first name. <b>Beware:</b> with an {@code int} time,
   * {@code busyPs(2, 3)} is {@link #busyPs(int, int)}, router 2's port 3, not class 2 up to 3 ps; Java picks the
   * overload by the argument's type. Prefer {@link #linkClassBusyPs}, whose name says what it counts.
   *
   * @param linkClass a class, 0 to {@link #linkClassCount()} - 1
   * @param atPs the time, picoseconds, a {@code long}, no earlier than the last event run
   * @return busy picoseconds up to {@code atPs}
   * @throws IllegalArgumentException as {@link #linkClassBusyPs(int, long)}
   */
  public long busyPs(int linkClass, long atPs) {
    return linkClassBusyPs(linkClass, atPs);
  }

  /**
   * Time-integrated buffer occupancy of a VC over all router inputs, byte·picoseconds, up to {@code nowPs}.
   *
   * @param vc a virtual channel, 0 to {@link #vcCount()} - 1
   * @param nowPs the current time, ≥ 0
   * @return the integral
   * @throws IllegalArgumentException when the VC is out of range or the time negative
   */
  public long vcOccupancyIntegral(int vc, long nowPs) {
    if (Args.outside(vc, vcs) < 0) {
      throw Args.outOfRange("vc", vc, vcs);
    }
    if (nowPs < 0) {
      throw new IllegalArgumentException("nowPs must be >= 0 but was " + nowPs);
    }
    // exact in long arithmetic even if the two terms overflow, as long as the integral itself fits
    long sum = 0;
    for (int g = 0; g < vcOccupancy.length; g++) {
      sum += vcOccupancy[g][vc] * nowPs - vcOccupancyTimeSum[g][vc];
    }
    return sum;
  }

  /**
   * {@link #portBusyPs(int, int)} under its first name. <b>Beware:</b> this overload, not {@link #busyPs(int, long)},
   * is what {@code busyPs(2, 3)} calls: router 2's port 3. Prefer {@link #portBusyPs}, whose name says what it counts.
   *
   * @param router a router
   * @param port one of its network ports
   * @return picoseconds the port's outgoing link has spent serializing so far
   * @throws IllegalArgumentException when the router or the port is out of range
   */
  public long busyPs(int router, int port) {
    return portBusyPs(router, port);
  }

  /**
   * @param router a router
   * @param port one of its network ports
   * @return picoseconds the port's outgoing link has spent serializing so far
   * @throws IllegalArgumentException when the router or the port is out of range
   */
  public long portBusyPs(int router, int port) {
    if ((Args.outside(router, topo.routerCount()) | Args.outside(port, radix)) < 0) {
      throw Args.outOfRange("router", router, topo.routerCount(), "port", port, radix);
    }
    return portBusyPs[router * radix + port];
  }

  /**
   * The link directions that have spent the most time sending, busiest first (ties by router, then port, so the list
   * is the same for every thread count): where a run's hot spots are. Reads the fabric's counters without changing
   * anything simulated; a pass over every port. Call it between runs, from the thread that owns the scheduler (or the
   * engine).
   *
   * @param n how many, at least 1
   * @return at most {@code n} link directions that sent anything, busiest first
   * @throws IllegalArgumentException when {@code n} is below 1
   */
  public java.util.List<LinkLoad> busiestLinks(int n) {
    return busiest(n, portBusyPs);
  }

  /**
   * The link directions that were busiest between two readings of {@link #portBusyPs(long)}, such as a measurement
   * window's start and end: as {@link #busiestLinks(int)}, with each {@link LinkLoad#busyPs()} the time between them.
   *
   * @param n how many, at least 1
   * @param from the earlier reading
   * @param to the later reading
   * @return at most {@code n} link directions that sent anything in between, busiest first
   * @throws IllegalArgumentException when {@code n} is below 1 or a reading is not this fabric's
   */
  public java.util.List<LinkLoad> busiestLinks(int n, long[] from, long[] to) {
    if (from == null || to == null || from.length != portBusyPs.length || to.length != portBusyPs.length) {
      throw new IllegalArgumentException("from and to must be readings of this fabric's portBusyPs, "
          + portBusyPs.length + " ports each");
    }
    long[] between = new long[to.length];
    for (int gp = 0; gp < between.length; gp++) {
      between[gp] = to[gp] - from[gp];
    }
    return busiest(n, between);
  }

  /**
   * Each link direction's busy time up to {@code atPs}, the part of a serialization beyond it left out (as
   * {@link #linkClassBusyPs(int, long)} per class): a reading for {@link #busiestLinks(int, long[], long[])}, indexed
   * {@code router × portCount + port}. Call it between events, from the thread that owns the scheduler (or the
   * engine).
   *
   * @param atPs a time not before now
   * @return a new array
   * @throws IllegalArgumentException when {@code atPs} is before now
   */
  public long[] portBusyPs(long atPs) {
    long now = scheduler.now();
    if (atPs < now) {
      throw new IllegalArgumentException("atPs must be >= now (" + now + " ps) but was " + atPs);
    }
    long[] b = portBusyPs.clone();
    for (int gp = 0; gp < b.length; gp++) {
      if (linkFreeAt[gp] > atPs) {
        b[gp] -= linkFreeAt[gp] - atPs;
      }
    }
    return b;
  }

  private java.util.List<LinkLoad> busiest(int n, long[] busy) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be at least 1 but was " + n);
    }
    // a min-heap of the n busiest so far: the least busy (and, at equal time, the last in port order) on top
    java.util.Comparator<Integer> busiestFirst = (a, b) -> busy[a] != busy[b]
        ? Long.compare(busy[b], busy[a]) : Integer.compare(a, b);
    java.util.PriorityQueue<Integer> top = new java.util.PriorityQueue<>(busiestFirst.reversed());
    for (int gp = 0; gp < busy.length; gp++) {
      if (busy[gp] <= 0 || peer[gp] < 0) {
        continue;
      }
      if (top.size() < n) {
        top.add(gp);
      } else if (busiestFirst.compare(gp, top.peek()) < 0) {
        top.poll();
        top.add(gp);
      }
    }
    java.util.List<Integer> ports = new java.util.ArrayList<>(top);
    ports.sort(busiestFirst);
    java.util.List<LinkLoad> out = new java.util.ArrayList<>(ports.size());
    for (int gp : ports) {
      out.add(new LinkLoad(gp / radix, gp % radix, portClass[gp], peer[gp] / radix, peer[gp] % radix, busy[gp]));
    }
    return out;
  }

  /**
   * What is inside the fabric now and what each packet waits for: the report of a drain that did not empty the
   * network (a deadlocking or livelocking routing, or too short a bound). Reads the fabric's state without changing
   * anything simulated; costs a pass over the queues and the packet records. Call it between runs, from the thread
   * that owns the scheduler (or the engine).
   *
   * @return the report (with no packets when the fabric is empty)
   */
  public StuckPackets stuck() {
    long now;
    if (groupScheds == null) {
      now = scheduler.now();
    } else {
      now = 0;
      for (GroupScheduler gs : groupScheds) {
        now = Math.max(now, gs.now());
      }
    }
    java.util.Map<StuckPackets.WaitCause, Long> byCause = new java.util.EnumMap<>(StuckPackets.WaitCause.class);
    for (StuckPackets.WaitCause c : StuckPackets.WaitCause.values()) {
      byCause.put(c, 0L);
    }
    java.util.Map<Flight, StuckPackets.WaitCause> cause = new java.util.IdentityHashMap<>();
    java.util.Map<Flight, Integer> output = new java.util.IdentityHashMap<>();
    for (int q = 0; q < qHead.length; q++) {
      Flight h = qHead[q];
      if (h == null) {
        continue;
      }
      StuckPackets.WaitCause c = vcCredit[2 * q] < h.packet.wireBytes() ? StuckPackets.WaitCause.CREDIT
          : StuckPackets.WaitCause.LINK;
      for (Flight f = h; f != null; f = f.next) {
        cause.put(f, c);
        output.put(f, (q / vcs) % radix);
      }
    }
    for (int node = 0; node < ejHead.length; node++) {
      for (Flight f = ejHead[node]; f != null; f = f.next) {
        cause.put(f, StuckPackets.WaitCause.EJECTION);
      }
    }
    java.util.Map<Long, long[]> places = new java.util.TreeMap<>();
    long count = 0;
    Flight oldest = null;
    for (java.util.List<Flight> pool : allFlights) {
      for (Flight f : pool) {
        Packet p = f.packet;
        if (p == null) {
          continue;
        }
        count++;
        StuckPackets.WaitCause c = cause.get(f);
        if (c == null) {
          // not queued: on a wire or in a pipeline, or crossing the ejection link at its destination router
          boolean ejecting = routerOfInput(f.input) == topo.routerOfNode(p.destinationNode())
              && ejFreeAt[p.destinationNode()] > now;
          c = ejecting ? StuckPackets.WaitCause.EJECTION : StuckPackets.WaitCause.IN_TRANSIT;
          cause.put(f, c);
        }
        byCause.merge(c, 1L, Long::sum);
        places.computeIfAbsent((long) f.input * vcs + f.vc, k -> new long[1])[0]++;
        if (oldest == null || p.injectedAtPs() < oldest.packet.injectedAtPs()
            || (p.injectedAtPs() == oldest.packet.injectedAtPs() && p.sourceNode() < oldest.packet.sourceNode())) {
          oldest = f;
        }
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
    if (oldest != null) {
      Packet p = oldest.packet;
      o = new StuckPackets.Packet(p.sourceNode(), p.destinationNode(), p.tag(), p.injectedAtPs(), p.hops(),
          routerOfInput(oldest.input), portOfInput(oldest.input), oldest.vc, output.getOrDefault(oldest, -1),
          cause.get(oldest));
    }
    return new StuckPackets(now, count, byCause, list, placeCount, o);
  }

  /** The router whose input buffer {@code input} is (a global port, or {@code netPorts + node}: its router). */
  private int routerOfInput(int input) {
    return input >= netPorts ? topo.routerOfNode(input - netPorts) : byRadix.divide(input);
  }

  private int portOfInput(int input) {
    return input >= netPorts ? -1 : input % radix;
  }

  private void checkLinkClass(int linkClass) {
    if (Args.outside(linkClass, classPortCount.length) < 0) {
      throw Args.outOfRange("linkClass", linkClass, classPortCount.length);
    }
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
   * byte home.
   *
   * @return true when quiescent
   */
  public boolean quiescent() {
    if (injected() != delivered()) {
      return false;
    }
    for (int occupied : occupiedVcs) {
      if (occupied != 0) {
        return false;
      }
    }
    for (int gp = 0; gp < netPorts; gp++) {
      if (creditsUsed[gp] != 0) {
        return false;
      }
    }
    for (int node = 0; node < injFree.length; node++) {
      if (injFree[node] != injectionBufferBytes) {
        return false;
      }
    }
    return true;
  }

  /** Sums per-group counters in group order. */
  private static long sum(long[] perGroup) {
    long sum = 0;
    for (long v : perGroup) {
      sum += v;
    }
    return sum;
  }
}
