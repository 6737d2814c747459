package io.github.ariesmodel.system;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.core.packet.PacketPool;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.PartitionedEngine;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.sim.IdealFabric;
import io.github.ariesmodel.core.cache.HostCacheConfig;
import io.github.ariesmodel.core.cache.SetAssociativeHostCache;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.HostCache;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.iommu.Iommu;
import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.network.RouterFabric;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.network.spi.RoutingAlgorithm;
import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.nic.Nic;
import io.github.ariesmodel.nic.NicConfig;
import io.github.ariesmodel.system.process.OsNoise;
import io.github.ariesmodel.system.process.ProcessRunner;
import io.github.ariesmodel.system.trace.PacketTrace;
import java.util.Locale;
import java.util.Optional;

/**
 * A whole simulated Aries system: one event loop, the fabric, and per node its physical memory, its NIC's IOMMU (or
 * a flat translator) and its NIC. This is the composition root of the model; every adapter is chosen here.
 *
 * <p>Nodes are built on first use ({@link #node(int)}): a 92,544-node system costs the fabric's arrays plus only the
 * nodes a workload touches. A workload must create (touch) every node it sends to before the traffic starts, which
 * {@link io.github.ariesmodel.system.shmem.ShmemJob} does for its processing elements.
 *
 * <p>The network is any dragonfly {@code aries-network} offers through its {@link Topology} port: a generated Aries or
 * canonical {@link io.github.ariesmodel.network.Dragonfly}, or a real machine's cabling
 * ({@link io.github.ariesmodel.network.CabledDragonfly}, e.g. the preset {@code edison-cabled} or {@code links:FILE}).
 * Node {@code n} sits on router {@code n / nodesPerRouter()} and routers are numbered group by group, as the port
 * defines.
 *
 * <p><b>One loop or a partitioned engine.</b> By default every component schedules on one
 * {@link DeterministicEventLoop} ({@link #loop()}). With {@link Builder#threads(int)} the system runs on a
 * {@link PartitionedEngine} instead: one scheduling group per dragonfly group, each node's NIC, IOMMU and processes on
 * its group's scheduler ({@link #scheduler(int)}), groups on that many threads in windows of the smallest latency of
 * a link between groups. Results are then the same for every thread count, and differ from the single loop's only in
 * the order of events of different groups at the same picosecond and in the routing's random streams, which are per
 * group (see docs/performance.md, "Threads for run and replay").
 *
 * <p>Build one with {@link #builder()}; same configuration and seed give the same run.
 */
public final class AriesSystem {

  /**
   * Packets, and payload arrays, a group's pool keeps on the engine (assumed: it bounds what a group can hoard at
   * about 1.5 MiB; a group with more packets in flight than this allocates the rest, which the collector takes back).
   */
  static final int GROUP_POOL_LIMIT = 8192;

  private final String name;
  private final Topology topology;
  /** The single event loop, or null on an engine. */
  private final DeterministicEventLoop loop;
  /** The partitioned engine, or null on the single loop. */
  private final PartitionedEngine engine;
  private final Fabric fabric;
  private final RouterFabric routerFabric;
  private final TranslatorKind translatorKind;
  private final IommuConfig iommuConfig;
  private final NicConfig nicConfig;
  /**
   * The packets the NICs take and give back ({@link Nic#recyclePackets}): one pool for the single loop, one per group
   * on an engine (a pool is used by one thread), or null when they are not reused.
   */
  private final PacketPool[] packets;
  private final long nodeMemoryBytes;
  private final long flatLatencyPs;
  private final Node[] nodes;
  private final TranslatorFactory translatorFactory;
  private final HostCacheFactory hostCacheFactory;
  private final String hostCacheText;
  private final OsNoise osNoise;
  private final String routingName;
  private final long seed;
  private int builtNodes;
  /** Jobs numbered so far ({@link #nextJobNumber()}). */
  private int jobsNumbered;

  private AriesSystem(Builder b) {
    this.name = b.name;
    this.topology = b.topology;
    this.seed = b.seed;
    if (b.threads > 0) {
      this.loop = null;
      this.engine = PartitionedEngine.of(topology.groupCount(), RouterFabric.engineLookaheadPs(topology),
          Math.min(b.threads, topology.groupCount()));
    } else {
      this.loop = new DeterministicEventLoop(1 << 12);
      this.engine = null;
    }
    if (b.fabricFactory != null) {
      this.routerFabric = null;
      this.routingName = "custom";
      Fabric custom = b.fabricFactory.create(topology, loop);
      if (custom == null || custom.nodeCount() != topology.nodeCount()) {
        throw new IllegalArgumentException("fabric factory must return a fabric of " + topology.nodeCount()
            + " nodes but returned " + (custom == null ? "null" : custom.nodeCount() + " nodes"));
      }
      this.fabric = b.trace == null ? custom : b.trace.wrap(custom);
    } else if (b.fabricKind == FabricKind.ROUTERS) {
      RouterFabric.Builder fb =
          (engine != null ? RouterFabric.builder(topology, engine) : RouterFabric.builder(topology, loop)).seed(b.seed);
      if (b.routingAlgorithm != null) {
        fb.routing(b.routingAlgorithm, b.routing);
      } else if (b.routingProvider != null) {
        fb.routing(b.routingProvider);
      } else if (b.routing == null || b.routing.equals(Builder.BY_DELIVERY_MODE)) {
        fb.routingByDeliveryMode();
      } else {
        fb.routing(b.routing);
      }
      // after the routing, as routerSettings' javadoc says: a routing set there wins (it was overridden)
      if (b.routerSettings != null) {
        b.routerSettings.accept(fb);
      }
      if (b.trace != null) {
        fb.addHopListener(b.trace.hopListener()); // beside a listener the settings gave, which used to replace it
      }
      this.routerFabric = fb.build();
      this.routingName = routerFabric.routingName();
      this.fabric = b.trace == null ? routerFabric : b.trace.wrap(routerFabric);
    } else {
      this.routerFabric = null;
      this.routingName = "ideal";
      // No serialization limit: the ideal network isolates the NIC pair, whose own pipelines set the rate.
      Fabric ideal = new IdealFabric(loop, topology.nodeCount(), b.idealLatencyPs, Double.POSITIVE_INFINITY);
      this.fabric = b.trace == null ? ideal : b.trace.wrap(ideal);
    }
    // NICs reuse the packets they are done with unless something may keep a delivered packet: a trace or a fabric of
    // the caller's. Router settings of the caller's do not turn reuse off (until stop 74 they did, and so a
    // concurrent replay's LinkTally did): what they may add keeps no packet past its delivery by contract (a routing
    // and a hop listener keep it no longer than its delivery, a delivery observer no longer than its call).
    if (b.trace == null && b.fabricFactory == null) {
      this.packets = new PacketPool[engine == null ? 1 : topology.groupCount()];
      for (int i = 0; i < packets.length; i++) {
        // one pool: it keeps no more than the system had in flight. A group's pool on the engine may take in more than
        // it gives out (a group that only receives PUTs keeps their payloads), so it is bounded.
        packets[i] = engine == null ? new PacketPool() : new PacketPool(GROUP_POOL_LIMIT);
      }
    } else {
      this.packets = null;
    }
    this.translatorKind = b.translatorKind;
    this.iommuConfig = b.iommuConfig;
    this.nicConfig = b.nicConfig;
    this.nodeMemoryBytes = b.nodeMemoryBytes;
    this.flatLatencyPs = b.flatLatencyPs;
    this.nodes = new Node[topology.nodeCount()];
    this.translatorFactory = b.translatorFactory;
    this.hostCacheFactory = b.hostCacheFactory;
    this.hostCacheText = b.hostCacheText;
    this.osNoise = b.osNoise;
    // Every node id names a node: one nobody touched yet is built when the first packet reaches it.
    fabric.attachOnDemand(id -> node(id));
  }

  /** Makes one node's host cache over its memory (see {@link Builder#hostCache(HostCacheConfig)}). */
  @FunctionalInterface
  public interface HostCacheFactory {
    /**
     * @param nodeId the node
     * @param memory its physical memory
     * @return the node's cache in front of that memory, never null
     */
    HostCache create(int nodeId, io.github.ariesmodel.core.spi.HostMemory memory);
  }

  /** Makes a user's fabric for a system (the port every NIC is attached to). */
  @FunctionalInterface
  public interface FabricFactory {
    /**
     * @param topology the system's topology (its node count is the fabric's)
     * @param scheduler the system's clock
     * @return the fabric
     */
    Fabric create(Topology topology, io.github.ariesmodel.core.spi.Scheduler scheduler);
  }

  /** Makes a user's address translation for one node. */
  @FunctionalInterface
  public interface TranslatorFactory {
    /**
     * @param nodeId the node
     * @param memory its physical memory
     * @param scheduler the system's clock
     * @return the node's translation, never null
     */
    AddressTranslation create(int nodeId, io.github.ariesmodel.core.spi.HostMemory memory,
        io.github.ariesmodel.core.spi.Scheduler scheduler);
  }

  /** @return a builder with the defaults: one Aries group, routers, routing by delivery mode, IOMMU, seed 1 */
  public static Builder builder() {
    return new Builder();
  }

  /** @return the system's name (the preset's id, or the topology spec) */
  public String name() {
    return name;
  }

  /**
   * @return the topology (a generated {@link io.github.ariesmodel.network.Dragonfly} or a cabled
   *     {@link io.github.ariesmodel.network.CabledDragonfly}; code that works on any system uses only the
   *     {@link Topology} port)
   */
  public Topology topology() {
    return topology;
  }

  /**
   * @return the event loop every component schedules on
   * @throws IllegalStateException when the system runs on a partitioned engine ({@link Builder#threads(int)}): use
   *     {@link #scheduler(int)}, {@link #now()}, {@link #eventsExecuted()} and {@link #newProcessRunner()}
   */
  public DeterministicEventLoop loop() {
    if (loop == null) {
      throw new IllegalStateException("system " + name + " runs on a partitioned engine (threads " + engine.threads()
          + "), not one event loop: use scheduler(node), now(), eventsExecuted() or newProcessRunner()");
    }
    return loop;
  }

  /** @return the partitioned engine the system runs on, or empty on the single event loop */
  public Optional<PartitionedEngine> engine() {
    return Optional.ofNullable(engine);
  }

  /** @return threads the system runs on: 1 on the single loop, the engine's partitions otherwise */
  public int threads() {
    return engine == null ? 1 : engine.threads();
  }

  /**
   * The clock a node's NIC, IOMMU and processes schedule on: the loop, or the node's group on an engine.
   *
   * @param nodeId 0 to nodeCount - 1
   * @return the scheduler
   */
  public io.github.ariesmodel.core.spi.Scheduler scheduler(int nodeId) {
    checkArgument(nodeId >= 0 && nodeId < nodes.length, "node id must be in [0, %s] but was %s", nodes.length - 1,
        nodeId);
    return engine == null ? loop : engine.group(groupOfNode(nodeId));
  }

  /**
   * @param nodeId 0 to nodeCount - 1
   * @return the dragonfly group of the node's router (its scheduling group on an engine)
   */
  public int groupOfNode(int nodeId) {
    checkArgument(nodeId >= 0 && nodeId < nodes.length, "node id must be in [0, %s] but was %s", nodes.length - 1,
        nodeId);
    return topology.groupOfRouter(nodeId / topology.nodesPerRouter());
  }

  /** @return the simulated time, picoseconds (on an engine: of its latest run's latest event, read between runs) */
  public long now() {
    return engine == null ? loop.now() : engine.now();
  }

  /**
   * Runs the events the system has pending until none is left, on the event loop or the engine alike: what a job's
   * run left in flight (its last credit returns, a stopped background job's messages, a failed run's operations)
   * lands, so that the job can be closed ({@code MpiJob.close}, {@code ShmemJob.close}). Between runs only; a process
   * of a job that never ends (a background job running) is not running then, so this ends.
   *
   * @return events run by this call
   * @throws IllegalStateException from a thread other than the one that runs the system, or when an event fails
   */
  public long runPending() {
    checkClockOwner("AriesSystem.runPending");
    return engine == null ? loop.run() : engine.runUntil(Long.MAX_VALUE);
  }

  /**
   * @return events waiting to run, on the event loop or the engine (read between runs): 0 once {@link #runPending()}
   *     has run, unless a job's process keeps scheduling (a background job running)
   */
  public long pendingEvents() {
    return engine == null ? loop.pending() : engine.pending();
  }

  /** @return events executed so far (on an engine: read between runs) */
  public long eventsExecuted() {
    return engine == null ? loop.eventsExecuted() : engine.eventsExecuted();
  }

  /**
   * Removes every pending event whose handler is {@code handler}, between runs: for code that schedules events of its
   * own through {@link #scheduler(int)} to watch or limit a run (a watchdog, a timeout), so that what is left of them
   * after the run neither runs in a later run nor moves the system's clock on to its time. Every other event keeps
   * its place ({@link DeterministicEventLoop#remove}, {@link PartitionedEngine#remove}).
   *
   * @param handler the handler whose events to remove
   * @return how many events were removed
   * @throws IllegalArgumentException when {@code handler} is null
   * @throws IllegalStateException on an engine during a run, or from a thread other than the one that runs the
   *     system
   */
  public int removePendingEvents(io.github.ariesmodel.core.spi.EventHandler handler) {
    return engine == null ? loop.remove(handler) : engine.remove(handler);
  }

  /**
   * Refuses a run from a thread other than the one the system's clock belongs to, before anything changes: the event
   * loop's owner ({@link DeterministicEventLoop#bindOwner}), or on an engine its controller and its groups' owners
   * ({@link PartitionedEngine#bindController}). The loop and the engine refuse such a thread themselves, but only at
   * its first scheduling call, inside the run: a SHMEM or MPI job then recorded a failed run and could never run again,
   * even once the clock was handed over. With no owner yet the calling thread will become it, and passes.
   *
   * @param call what was called, for the message ({@code "ShmemJob.run"})
   * @throws IllegalStateException naming both threads and how to hand the clock over
   */
  public void checkClockOwner(String call) {
    Thread me = Thread.currentThread();
    if (engine == null) {
      Thread owner = loop.owner();
      if (owner != null && owner != me) {
        throw new IllegalStateException("system " + name + "'s event loop is owned by thread \"" + owner.getName()
            + "\" but " + call + " was called from thread \"" + me.getName() + "\"; a system is run by one thread"
            + " (loop().bindOwner(thread) hands it over)");
      }
      return;
    }
    Thread owner = engine.controller();
    for (int g = 0; g < engine.groupCount() && (owner == null || owner == me); g++) {
      Thread groupOwner = engine.group(g).owner();
      owner = groupOwner == null ? owner : groupOwner;
    }
    if (owner != null && owner != me) {
      throw new IllegalStateException("system " + name + "'s engine is run by thread \"" + owner.getName() + "\" but "
          + call + " was called from thread \"" + me.getName() + "\"; a system is run by one thread"
          + " (engine().get().bindController(thread) hands it over)");
    }
  }

  /**
   * @return a runner for simulated processes on this system's clock: on the loop, or on the engine with one lane per
   *     group (spawn each node's processes in {@link #groupOfNode(int)})
   * @throws IllegalStateException when an event failed in an earlier run ({@link #checkNoFailedRun()})
   */
  public ProcessRunner newProcessRunner() {
    checkNoFailedRun();
    return engine == null ? new ProcessRunner(loop) : new ProcessRunner(engine);
  }

  /**
   * Numbers a job built on this system, so that jobs sharing its NICs can tell their own posts' completion events from
   * those of a job whose run failed with posts in flight (they finish in a later run, and reach whichever job has the
   * NIC's listener then): a {@code ShmemJob}, and each node's endpoint of an MPI job, puts its number in the high bits
   * of its post ids.
   *
   * @return 1 for the first call, then 2, 3, ...; after 2^23 - 1 calls, 1 again (never 0, which a job numbering its
   *     posts from 1 without a job number would share)
   */
  public synchronized int nextJobNumber() {
    jobsNumbered = jobsNumbered % ((1 << 23) - 1) + 1;
    return jobsNumbered;
  }

  /**
   * Simulated time a program keeps after its own compute or idle time for what it does next: 10^15 ps (1,000 s; the
   * bound {@code MpiJob.MAX_START_PS} and {@code TrafficExperiment.MAX_SPAN_PS} have, assumed: far more than a run
   * simulates after one compute). A PE's or rank's compute or idle time may end at most this long before the clock's
   * end ({@link #PROGRAM_CLOCK_END_PS}): one that ended at the clock's end itself left the NIC, IOMMU and fabric no
   * time for the next post, whose times wrapped to negative ones inside them and left the system unable to run again.
   */
  public static final long PROGRAM_CLOCK_RESERVE_PS = 1_000_000_000_000_000L;

  /**
   * The latest time a SHMEM PE's or MPI rank's compute or idle time ({@code Shmem.compute}, {@code Mpi.compute},
   * {@code MpiJob.idle}) may end: the clock's end, {@code Long.MAX_VALUE} ps (about 107 days), less
   * {@link #PROGRAM_CLOCK_RESERVE_PS}.
   */
  public static final long PROGRAM_CLOCK_END_PS = Long.MAX_VALUE - PROGRAM_CLOCK_RESERVE_PS;

  /**
   * Refuses a program's compute or idle time that is negative or would end past {@link #PROGRAM_CLOCK_END_PS}, before
   * anything changes. A time of 0 is always taken (it moves nothing).
   *
   * @param name the parameter, for the message
   * @param nowPs the program's time now
   * @param ps the time asked for
   * @throws IllegalArgumentException naming the parameter, what is left of a program's clock from now, and the value
   */
  public static void checkProgramTime(String name, long nowPs, long ps) {
    long left = Math.max(PROGRAM_CLOCK_END_PS - nowPs, 0); // (none when the clock was run on past it some other way)
    if (ps < 0 || ps > left) {
      throw new IllegalArgumentException(name + " must be in [0, " + left + "] (what is left from now, " + nowPs
          + " ps, of a program's clock, which ends " + PROGRAM_CLOCK_RESERVE_PS + " ps before Long.MAX_VALUE to keep"
          + " time for the communication after it: AriesSystem.PROGRAM_CLOCK_END_PS) but was " + ps);
    }
  }

  /**
   * Bits of a post id below its job's number ({@link #nextJobNumber()}): 2^40 posts a job before two would share an id;
   * with the number's 23 bits, ids stay positive.
   */
  public static final int JOB_POST_ID_BITS = 40;

  /**
   * @param jobNumber from {@link #nextJobNumber()}
   * @return the first post id of that job: its number in the high bits, 1 below
   */
  public static long firstPostId(long jobNumber) {
    return (jobNumber << JOB_POST_ID_BITS) + 1;
  }

  /**
   * @param postId a LOCAL or GLOBAL event's post id (a REMOTE event's carries a request tag, not a post id)
   * @param jobNumber from {@link #nextJobNumber()}
   * @return whether the post was that job's ({@link #firstPostId})
   */
  public static boolean postOfJob(long postId, long jobNumber) {
    return postId >>> JOB_POST_ID_BITS == jobNumber;
  }

  /**
   * Refuses to start another run on a system one of whose events failed in an earlier run (a component's or a
   * user's plug-in's exception: a replacement policy, a translation, a routing). The failed event left its work half
   * done (a translation in flight that will never complete, a packet half handled), so a later job would wait for it
   * and be reported as a deadlock far from the cause; the partitioned engine refuses its next run the same way. A
   * rank's or PE's own exception is not an event's: it fails only its job.
   *
   * @throws IllegalStateException naming the earlier failure
   */
  public void checkNoFailedRun() {
    Throwable f = engine == null ? loop.handlerFailure() : null; // (an engine refuses its next run itself)
    if (f != null) {
      throw new IllegalStateException("system " + name + " cannot run again: an event failed in an earlier run ("
          + io.github.ariesmodel.core.Texts.abbreviate(String.valueOf(f)) + "), which leaves its NICs, IOMMUs and"
          + " fabric with work half done; build a new system");
    }
  }

  /** @return the fabric the NICs are attached to */
  public Fabric fabric() {
    return fabric;
  }

  /** @return the router fabric, or empty for an ideal network */
  public Optional<RouterFabric> routerFabric() {
    return Optional.ofNullable(routerFabric);
  }

  /** @return the routing's name ({@code by-delivery-mode}, a built-in name, or {@code ideal}) */
  public String routingName() {
    return routingName;
  }

  /** @return the seed */
  public long seed() {
    return seed;
  }

  /** @return number of nodes */
  public int nodeCount() {
    return nodes.length;
  }

  /**
   * What the built nodes' NICs hold because the fabric refused it ({@link io.github.ariesmodel.nic.Nic
   * #packetsHeldForFabric}), as a sentence to add to a deadlock's report: empty when none holds any. A fabric that
   * refuses an injection must call {@code injectionReady} once it has room; one that never does (a user's) leaves
   * the NIC waiting, and the program waiting for that NIC looks deadlocked.
   *
   * @return "" or the sentence
   */
  public String refusedInjectionsNote() {
    int nics = 0;
    long packets = 0;
    int first = -1;
    for (int id = 0; id < nodes.length; id++) {
      Node n = nodes[id];
      int held = n == null ? 0 : n.nic().packetsHeldForFabric();
      if (held > 0) {
        nics++;
        packets += held;
        first = first < 0 ? id : first;
      }
    }
    if (nics == 0) {
      return "";
    }
    return nics + (nics == 1 ? " NIC holds " : " NICs hold ") + packets + " packets the fabric refused and"
        + " has not taken since (node " + first + "'s first): a fabric must call injectionReady once it has room"
        + " again, or a NIC waits for ever";
  }

  /** @return each node's physical memory, bytes */
  public long nodeMemoryBytes() {
    return nodeMemoryBytes;
  }

  /** @return nodes built so far */
  public synchronized int builtNodes() {
    return builtNodes;
  }

  /** @return the translator kind */
  public TranslatorKind translatorKind() {
    return translatorKind;
  }

  /**
   * The node with an id, built on first use.
   *
   * @param id 0 to nodeCount - 1
   * @return the node
   */
  public Node node(int id) {
    checkArgument(id >= 0 && id < nodes.length, "node id must be in [0, %s] but was %s", nodes.length - 1, id);
    Node n = nodes[id];
    if (n == null) {
      n = build(id);
    }
    return n;
  }

  /**
   * Builds a node. Synchronized: on an engine, a packet for a node nobody touched builds it on its group's thread.
   */
  private synchronized Node build(int id) {
    Node n = nodes[id];
    if (n == null) {
      io.github.ariesmodel.core.spi.Scheduler clock = scheduler(id);
      SparsePhysicalMemory mem = new SparsePhysicalMemory(nodeMemoryBytes);
      AddressTranslation t =
          translatorFactory != null
              ? translatorFactory.create(id, mem, clock)
              : translatorKind == TranslatorKind.IOMMU
                  ? new Iommu(mem, clock, iommuConfig)
                  : new FlatTranslation(mem, clock, flatLatencyPs);
      // a user's factory that makes nothing is named here, before the NIC attaches to the fabric (a null cache was a
      // bare NullPointerException, often at the first packet for the node)
      checkArgument(t != null, "the translator factory must return a translation but returned null for node %s", id);
      HostCache cache = hostCacheFactory.create(id, mem);
      checkArgument(cache != null, "the hostCache factory must return a cache but returned null for node %s", id);
      // The NIC reaches host memory through the cache's NIC path (PUT data, GET data, AMOs, CQ entries); the IOMMU
      // reads its page tables straight from memory: the driver writes them and no CPU access ever caches them.
      Nic nic = new Nic(id, clock, cache.nicView(), t, fabric, nicConfig);
      if (packets != null) {
        nic.recyclePackets(packets[engine == null ? 0 : groupOfNode(id)]);
      }
      n = new Node(id, mem, cache, t, nic);
      nodes[id] = n;
      builtNodes++;
    }
    return n;
  }

  /**
   * The pool of packets the NICs share and reuse, or empty when they allocate fresh ones: a packet trace or a fabric of
   * the caller's may keep delivered packets, so with either packets are not reused (router settings of the caller's
   * keep reuse on since stop 74: what they add keeps no packet past its delivery, by contract); on an engine there is one per group ({@link #packetPools()}) and this is empty.
   *
   * @return the pool, whose counters say how many packets and payloads the system allocated
   */
  public java.util.Optional<PacketPool> packetPool() {
    return packets == null || engine != null ? java.util.Optional.empty() : java.util.Optional.of(packets[0]);
  }

  /**
   * @return the packet pools: one on the single loop, one per group on an engine (a NIC uses its group's), none when
   *     packets are not reused
   */
  public java.util.List<PacketPool> packetPools() {
    return packets == null ? java.util.List.of() : java.util.List.of(packets);
  }

  /** The node with an id if it has been built, else null (statistics look at built nodes only). */
  Node builtNodeOrNull(int id) {
    return nodes[id];
  }

  /**
   * A snapshot of the whole system's statistics, summed over the nodes built so far: NIC packets, bytes and refused
   * injections; IOMMU translations, hits and misses by client; the router fabric's packets and link utilization by
   * rank; events executed.
   *
   * @return the snapshot
   * @throws IllegalStateException on an engine while it runs (the statistics are read between runs)
   */
  public SystemStatistics statistics() {
    if (engine != null && engine.isRunning()) {
      // (told here: the engine's own refusal named eventsExecuted, which the caller never called)
      throw new IllegalStateException("AriesSystem.statistics is read between runs of the engine, not while it runs");
    }
    return SystemStatistics.of(this);
  }

  /**
   * The node of a router's k-th NIC.
   *
   * @param router router id
   * @param k 0 to nodesPerRouter - 1
   * @return the node id
   */
  public int nodeOf(int router, int k) {
    checkArgument(router >= 0 && router < topology.routerCount(), "router must be in [0, %s] but was %s",
        topology.routerCount() - 1, router);
    checkArgument(k >= 0 && k < topology.nodesPerRouter(), "k must be in [0, %s] but was %s",
        topology.nodesPerRouter() - 1, k);
    return router * topology.nodesPerRouter() + k;
  }

  /**
   * @return the nodes' host cache: its configuration ({@link HostCacheConfig#toString()}), {@code none}, or
   *     {@code custom}
   */
  public String hostCache() {
    return hostCacheText;
  }

  /** @return the nodes' operating-system noise ({@link Builder#osNoise}) */
  public OsNoise osNoise() {
    return osNoise;
  }

  /**
   * When a node's CPU is there for the processes run on it ({@link ProcessRunner#spawn(String, int, OsNoise.CpuTime,
   * io.github.ariesmodel.system.process.ProcessBody)}): its detours under the system's noise, from the seed and its id.
   *
   * @param node a node id
   * @return its CPU time, or null without noise
   */
  public OsNoise.CpuTime cpuTime(int node) {
    checkArgument(node >= 0 && node < topology.nodeCount(), "node must be in [0, %s] but was %s",
        topology.nodeCount() - 1, node);
    return osNoise.forNode(seed, node);
  }

  /**
   * @return a multi-line inventory of the system: topology, links, fabric, routing, translation and seed, and with the
   *     IOMMU its PTE cache, replacement policy, prefetch, page tables, pipeline limits and timing
   */
  public String describe() {
    StringBuilder s = new StringBuilder();
    s.append("system ").append(name).append(": ").append(topology.describe()).append('\n');
    s.append(String.format(Locale.ROOT, "  groups %,d, routers %,d, nodes %,d%n", topology.groupCount(),
        topology.routerCount(), topology.nodeCount()));
    for (int c = 0; c < topology.linkClassCount(); c++) {
      s.append(String.format(Locale.ROOT, "  %-8s %6.2f GB/s per direction, wire latency %d ps%n",
          topology.linkClassName(c), topology.linkBandwidth(c) / 1e9, topology.linkLatencyPs(c)));
    }
    s.append(String.format(Locale.ROOT, "  injection %.2f GB/s per node%n", topology.injectionBandwidth() / 1e9));
    s.append("  fabric ").append(routerFabric != null ? "routers" : "ideal").append(", routing ").append(routingName)
        .append(", translation ").append(translatorFactory != null ? "custom" : translatorKind)
        .append(", seed ").append(seed).append('\n');
    if (translatorFactory == null && translatorKind == TranslatorKind.IOMMU) {
      IommuConfig c = iommuConfig;
      s.append(String.format(Locale.ROOT, "  iommu PTE cache %d ways × %d sets × %d PTEs a line (%,d PTEs), %s,"
          + " prefetch %s, page tables %s; %d in flight, %d fetch buffers, PTE fetch %s ns, hit %s ns, issue %s ns%n",
          c.ways(), c.sets(), c.ptesPerLine(), (long) c.ways() * c.sets() * c.ptesPerLine(), c.policyName(),
          c.prefetch() ? "on" : "off", c.pageTables().configName(), c.maxInFlight(), c.fetchBuffers(),
          ns(c.pteFetchLatencyPs()), ns(c.hitLatencyPs()), ns(c.issueIntervalPs())));
    }
    return s.toString();
  }

  /** Picoseconds as nanoseconds with no trailing zeros ({@code 1.25}, {@code 500}), the same in every locale. */
  private static String ns(long ps) {
    return java.math.BigDecimal.valueOf(ps, 3).stripTrailingZeros().toPlainString();
  }

  /** Settings of a system; every one has a documented default. */
  public static final class Builder {
    /** The routing name meaning "route each packet by the delivery mode its NIC gave it". */
    public static final String BY_DELIVERY_MODE = "by-delivery-mode";

    private String name = SystemPreset.DEFAULT.id();
    private Topology topology;
    private FabricKind fabricKind = FabricKind.ROUTERS;
    private String routing = BY_DELIVERY_MODE;
    private RoutingAlgorithm routingAlgorithm;
    private io.github.ariesmodel.network.spi.RoutingProvider routingProvider;
    private TranslatorKind translatorKind = TranslatorKind.IOMMU;
    private IommuConfig iommuConfig = IommuConfig.defaults();
    private NicConfig nicConfig = NicConfig.defaults();
    private long nodeMemoryBytes = 64L << 30;
    private long flatLatencyPs = 0;
    private long idealLatencyPs = 0;
    private long seed = 1;
    private PacketTrace trace;
    private int threads;
    private java.util.function.Consumer<RouterFabric.Builder> routerSettings;
    private FabricFactory fabricFactory;
    private TranslatorFactory translatorFactory;
    private HostCacheFactory hostCacheFactory = (node, memory) ->
        new SetAssociativeHostCache(memory, HostCacheConfig.xc40());
    private String hostCacheText = HostCacheConfig.xc40().toString();
    private OsNoise osNoise = OsNoise.none();
    // Settings given explicitly, as the calls that gave them, so build() can name both sides of a conflict.
    private String fabricKindGiven;
    private String routingGiven;
    private String translatorKindGiven;
    private String iommuGiven;
    private String idealLatencyGiven;
    private String flatLatencyGiven;

    private Builder() {}

    /**
     * Uses a user's fabric instead of the built-in ones (the NICs attach to it through core's {@code Fabric} port).
     *
     * @param factory makes the fabric from the topology and the clock, or null for the built-ins
     * @return this builder
     */
    public Builder fabric(FabricFactory factory) {
      this.fabricFactory = factory;
      return this;
    }

    /**
     * Uses a user's address translation instead of the IOMMU or the flat translator.
     *
     * @param factory makes each node's translation, or null for the built-ins
     * @return this builder
     */
    public Builder translator(TranslatorFactory factory) {
      this.translatorFactory = factory;
      return this;
    }

    /**
     * Gives every node a set-associative host cache ({@link SetAssociativeHostCache}) with this configuration; each
     * node's cache is built with the node, on first use, and materializes its sets as the CPU touches them. The default
     * is {@link HostCacheConfig#xc40()}: an XC40 Haswell-EP socket's L3 with the {@code update} NIC write policy.
     *
     * @param config geometry, latencies and NIC write policy
     * @return this builder
     */
    public Builder hostCache(HostCacheConfig config) {
      checkArgument(config != null, "hostCache config must not be null (use noHostCache() for none)");
      this.hostCacheFactory = (node, memory) -> new SetAssociativeHostCache(memory, config);
      this.hostCacheText = config.toString();
      return this;
    }

    /**
     * Gives every node operating-system noise ({@link OsNoise}, docs/mpi.md "Operating-system noise"): every process
     * run on a node, an MPI rank's or a SHMEM PE's, has its work stretched over the node's detours and goes on after
     * a wait only outside them. None by default.
     *
     * @param noise the noise, {@link OsNoise#none()} for none
     * @return this builder
     */
    public Builder osNoise(OsNoise noise) {
      checkArgument(noise != null, "osNoise must not be null (OsNoise.none() for no noise)");
      this.osNoise = noise;
      return this;
    }

    /**
     * Gives every node no host cache ({@link HostCache#none}): CPU accesses and NIC writes go straight to memory and
     * cost nothing, as before the model had a cache.
     *
     * @return this builder
     */
    public Builder noHostCache() {
      this.hostCacheFactory = (node, memory) -> HostCache.none(memory);
      this.hostCacheText = "none";
      return this;
    }

    /**
     * Uses a user's host cache.
     *
     * @param factory makes each node's cache over its memory
     * @return this builder
     */
    public Builder hostCache(HostCacheFactory factory) {
      checkArgument(factory != null, "hostCache factory must not be null");
      this.hostCacheFactory = factory;
      this.hostCacheText = "custom";
      return this;
    }

    /**
     * Tunes the router fabric beyond the defaults (VC count, buffer sizes, pipeline latency, arbitration, ...).
     *
     * <p>The NICs reuse delivered packets with these settings as without them (since stop 74), so a routing, hop
     * listener or delivery observer set here must keep no packet beyond what its contract allows: a routing or a hop
     * listener beyond the packet's delivery, a delivery observer beyond its call. Something that
     * keeps packets longer (a recorder of every packet) belongs in a {@link #trace} or a fabric of the caller's
     * ({@link #fabric(FabricFactory)}), with which packets are not reused.
     *
     * @param settings applied to the fabric's builder before it is built, after seed and routing are set (a routing
     *     set here replaces the system's, and the system reports it); not null (leave the call out for the defaults)
     * @return this builder
     */
    public Builder routerSettings(java.util.function.Consumer<RouterFabric.Builder> settings) {
      checkArgument(settings != null, "routerSettings must not be null (leave it out for the router fabric's"
          + " defaults)");
      this.routerSettings = settings;
      return this;
    }

    /**
     * @param t a trace that records the packets its filter chooses (and, on the router fabric, their hops, beside any
     *     hop listener given in {@link #routerSettings}, which until stop 64 replaced the trace's), or null for none
     *     (the default; null takes back a trace given before, as {@link #fabric(FabricFactory)} and
     *     {@link #translator(TranslatorFactory)} take null for the built-ins)
     * @return this builder
     */
    public Builder trace(PacketTrace t) {
      this.trace = t;
      return this;
    }

    /**
     * Runs the system on a {@link PartitionedEngine}: one scheduling group per dragonfly group, the groups on this
     * many threads (at most the group count; more are taken as that many). Results are the same for every count, and
     * differ from the single loop's (the default) as the class documentation says. Needs the built-in router fabric
     * and no packet trace: a user's fabric, the ideal fabric and the trace are single-loop components.
     *
     * @param n threads, at least 1
     * @return this builder
     */
    public Builder threads(int n) {
      checkArgument(n >= 1, "threads must be at least 1 but was %s", n);
      this.threads = n;
      return this;
    }

    /** @param p a preset @return this builder, with the preset's topology and name */
    public Builder preset(SystemPreset p) {
      checkArgument(p != null, "preset must not be null");
      this.name = p.id();
      this.topology = p.topology();
      return this;
    }

    /**
     * @param spec a preset name ({@link SystemPreset}), a topology spec ({@code aries:groups=G},
     *     {@code canonical:p=..,a=..,h=..}), or {@code links:FILE}: a real machine's cabling read from a link list
     *     ({@link io.github.ariesmodel.network.CabledDragonfly}; {@code .gz} allowed); a cabled system may be followed
     *     by failed links, {@code edison-cabled+failed=random:24:blue}
     *     ({@link io.github.ariesmodel.network.CabledDragonfly#withFailedLinks})
     * @return this builder
     * @throws IllegalArgumentException naming the bad part; for a link list, the file, line and problem
     */
    public Builder system(String spec) {
      checkArgument(spec != null && !spec.isBlank(), "system must not be blank");
      for (SystemPreset p : SystemPreset.values()) {
        // in any case, as the systems command reads them: DEFAULT was refused as no preset, and Theta ran as
        // aries-network's theta but was named "Theta" (until stop 75)
        if (p.id().equalsIgnoreCase(spec.trim())) {
          return preset(p);
        }
      }
      try {
        this.topology = Topologies.parseTopology(SystemPreset.topologySpec(spec));
      } catch (IllegalArgumentException e) {
        if (Topologies.namesCabling(spec)) {
          // the link list's or the failure's own message names the file, line or link and the problem; the preset
          // list would bury it
          throw e;
        }
        throw new IllegalArgumentException("system must be a preset (" + presetNames() + "), a topology spec or"
            + " links:FILE: " + e.getMessage(), e);
      }
      this.name = spec.trim();
      return this;
    }

    private static String presetNames() {
      StringBuilder names = new StringBuilder();
      for (SystemPreset p : SystemPreset.values()) {
        names.append(names.length() == 0 ? "" : ", ").append(p.id());
      }
      return names.toString();
    }

    /**
     * @param t any topology of the {@link Topology} port (generated, cabled, or a user's own)
     * @param systemName its name in reports, not blank
     * @return this builder
     */
    public Builder topology(Topology t, String systemName) {
      checkArgument(t != null, "topology must not be null");
      checkArgument(systemName != null && !systemName.isBlank(), "systemName must not be blank");
      this.topology = t;
      this.name = systemName;
      return this;
    }

    /** @param k routers or ideal @return this builder */
    public Builder fabric(FabricKind k) {
      checkArgument(k != null, "fabric must not be null");
      this.fabricKind = k;
      this.fabricKindGiven = "fabric(" + k + ")";
      return this;
    }

    /** @param name a built-in or registered routing name, or {@value #BY_DELIVERY_MODE} @return this builder */
    public Builder routing(String name) {
      checkArgument(name != null && !name.isBlank(), "routing must not be blank");
      this.routing = name.trim();
      this.routingAlgorithm = null;
      this.routingProvider = null;
      this.routingGiven = routing.equals(BY_DELIVERY_MODE) ? null : "routing(\"" + routing + "\")";
      return this;
    }

    /**
     * @param algorithm a user's routing algorithm instance
     * @param algorithmName its name in reports
     * @return this builder
     */
    public Builder routing(RoutingAlgorithm algorithm, String algorithmName) {
      checkArgument(algorithm != null, "routing algorithm must not be null");
      checkArgument(algorithmName != null && !algorithmName.isBlank(), "routing name must not be blank");
      this.routingAlgorithm = algorithm;
      this.routingProvider = null;
      this.routing = algorithmName.trim();
      this.routingGiven = "routing(algorithm, \"" + algorithmName + "\")";
      return this;
    }

    /**
     * A user's routing made by its provider for each partition of the fabric (one instance per group on an engine,
     * so it runs with {@link #threads}, which refuse a single shared instance), seeded by the system's seed; reported
     * under the provider's {@code name()}.
     *
     * @param provider the provider
     * @return this builder
     */
    public Builder routing(io.github.ariesmodel.network.spi.RoutingProvider provider) {
      checkArgument(provider != null, "routing provider must not be null");
      this.routingProvider = provider;
      this.routingAlgorithm = null;
      this.routing = provider.name();
      this.routingGiven = "routing(provider \"" + provider.name() + "\")";
      return this;
    }

    /** @param k IOMMU or flat @return this builder */
    public Builder translator(TranslatorKind k) {
      checkArgument(k != null, "translator must not be null");
      this.translatorKind = k;
      this.translatorKindGiven = "translator(" + k + ")";
      return this;
    }

    /** @param c the IOMMU configuration of every node @return this builder */
    public Builder iommu(IommuConfig c) {
      checkArgument(c != null, "iommu config must not be null");
      this.iommuConfig = c;
      this.iommuGiven = "iommu(config)";
      return this;
    }

    /** @param c the NIC configuration of every node @return this builder */
    public Builder nic(NicConfig c) {
      checkArgument(c != null, "nic config must not be null");
      this.nicConfig = c;
      return this;
    }

    /**
     * @param bytes physical memory per node, a positive multiple of 4096 up to 2^52 (a physical address's reach)
     * @return this builder
     */
    public Builder nodeMemoryBytes(long bytes) {
      // the node memory's own bound, here where the user sets it (it used to surface at the first node built, under
      // the memory's parameter name)
      checkArgument(bytes > 0 && bytes % 4096 == 0 && bytes <= io.github.ariesmodel.core.PhysicalAddress.MAX + 1,
          "nodeMemoryBytes must be a positive multiple of 4096 up to 2^52 but was %s", bytes);
      this.nodeMemoryBytes = bytes;
      return this;
    }

    /** @param ps latency of the ideal fabric, ≥ 0 @return this builder */
    public Builder idealLatencyPs(long ps) {
      // at most 1 ms (assumed, as RouterFabric's injection latency): beyond it a unit mistake, and times overflow
      checkArgument(ps >= 0 && ps <= SimTime.MAX_LATENCY_PS, "idealLatencyPs must be in [0, 1e9] but was %s", ps);
      this.idealLatencyPs = ps;
      this.idealLatencyGiven = "idealLatencyPs(" + ps + ")";
      return this;
    }

    /** @param ps latency of the flat translator, ≥ 0 @return this builder */
    public Builder flatLatencyPs(long ps) {
      checkArgument(ps >= 0 && ps <= SimTime.MAX_LATENCY_PS, "flatLatencyPs must be in [0, 1e9] but was %s", ps);
      this.flatLatencyPs = ps;
      this.flatLatencyGiven = "flatLatencyPs(" + ps + ")";
      return this;
    }

    /** @param s the seed of every random choice in the system @return this builder */
    public Builder seed(long s) {
      this.seed = s;
      return this;
    }

    /**
     * Builds the system.
     *
     * @return the system
     * @throws IllegalArgumentException naming both settings when two settings conflict or one cannot take effect:
     *     a fabric kind and a fabric factory; a translator kind and a translator factory; router settings or a
     *     routing with an ideal or user fabric; an ideal-fabric latency with routers or a user fabric; an IOMMU
     *     configuration or a flat-translator latency with a translator that does not use it; also when the trace's
     *     filter names a node the system lacks ({@link PacketTrace.Filter#checkNodes})
     */
    public AriesSystem build() {
      checkConsistent();
      if (topology == null) {
        preset(SystemPreset.DEFAULT);
      }
      if (trace != null) {
        // before any part is made (a user's fabric factory or router settings run): wrap checks it again
        trace.filter().checkNodes(topology.nodeCount());
      }
      return new AriesSystem(this);
    }

    private void checkConsistent() {
      String routerSettingsGiven = routerSettings == null ? null : "routerSettings(...)";
      if (fabricFactory != null) {
        String factory = "fabric(factory)";
        refuse(fabricKindGiven, factory, "give one fabric");
        refuse(routingGiven, factory, "a user's fabric does its own routing");
        refuse(routerSettingsGiven, factory, "router settings apply to the built-in router fabric only");
        refuse(idealLatencyGiven, factory, "the ideal fabric's latency applies to the ideal fabric only");
      } else if (fabricKind == FabricKind.IDEAL) {
        refuse(routingGiven, fabricKindGiven, "the ideal fabric has no routers to route");
        refuse(routerSettingsGiven, fabricKindGiven, "the ideal fabric has no routers");
      } else {
        refuse(idealLatencyGiven, "fabric(ROUTERS)", "the ideal fabric's latency applies to the ideal fabric only");
      }
      if (threads > 0) {
        String engineGiven = "threads(" + threads + ")";
        refuse(fabricFactory == null ? null : "fabric(factory)", engineGiven,
            "a user's fabric runs on the single event loop");
        refuse(fabricKind == FabricKind.IDEAL ? "fabric(IDEAL)" : null, engineGiven,
            "the ideal fabric runs on the single event loop; threads need the router fabric");
        refuse(trace == null ? null : "trace(...)", engineGiven, "the packet trace numbers packets on one loop");
      }
      if (translatorFactory != null) {
        String factory = "translator(factory)";
        refuse(translatorKindGiven, factory, "give one translator");
        refuse(iommuGiven, factory, "the IOMMU configuration applies to the built-in IOMMU only");
        refuse(flatLatencyGiven, factory, "the flat translator's latency applies to the flat translator only");
      } else if (translatorKind == TranslatorKind.FLAT) {
        refuse(iommuGiven, translatorKindGiven, "the flat translator has no IOMMU");
      } else {
        refuse(flatLatencyGiven, "translator(IOMMU)",
            "the flat translator's latency applies to the flat translator only");
      }
    }

    private static void refuse(String setting, String other, String why) {
      if (setting != null) {
        throw new IllegalArgumentException(setting + " cannot be combined with " + other + ": " + why);
      }
    }
  }
}
