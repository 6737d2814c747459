package io.github.ariesmodel.nic;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.packet.PacketPool;
import io.github.ariesmodel.core.sim.ConcurrentUseCheck;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.AddressTranslation.TranslationResult;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.Scheduler;
import java.util.Optional;

/**
 * One node's Aries NIC (aries-facts §3): the host interface after uGNI (register memory, create and destroy
 * completion queues, post FMA and BTE transactions), the source pipeline (local reads, ≤ 64-byte packetization,
 * transaction tracking with bounded request tags, back-pressure), the target pipeline (translation of incoming
 * requests, PUT writes, GET reads, the AMO unit) and completion events. It drives only core ports: {@link
 * AddressTranslation} for every memory access it makes, {@link HostMemory}, {@link Fabric} and {@link Scheduler}.
 *
 * <h2>Fidelity</h2>
 * Packet level. Each pipeline (request issue, request receive, response receive) handles one packet per
 * {@code packetCycles} (5 cycles at 800 MHz: 64 B per 6.25 ns, the published 10.2 GB/s peak [S2 via S1]); the host
 * interface is a pair of bandwidth-limited channels with latencies ({@link NicTiming}). Packets never cross a
 * 64-byte boundary of the remote address (cache-line packets; our assumption). Functional effects on memory happen at
 * a single simulated instant per packet, so an AMO is atomic against every other access through this NIC; the AMO
 * unit holds at most {@code amoRequestList} requests [S6d]. The CPU drives FMA: a per-post cost and the stores of
 * the data (PUT) or requests (GET) through the FMA window, one post at a time a process's FMA descriptor
 * ({@link NicTiming}, {@link #post(Post, int)}); the BTE keeps a
 * bounded number of host reads in flight per channel. Cached AMO commands ({@code _C}, {@code _SC}) use the AMO
 * cache ({@link AmoCacheConfig}), which the NIC's other accesses to host memory see coherently. Not modelled: write
 * combining, PI ordering flags, NTT.
 *
 * <h2>Transactions and events</h2>
 * A post becomes a transaction holding one of {@code requestTags} tags (64, the NPT [S6e]) while it is outstanding;
 * when none is free, posts wait in order. BTE posts run on {@code bteChannels} channels (round robin), one
 * transaction at a time per channel [S6a]; FMA transactions and the active BTE transactions share the issue pipeline
 * round robin. A fenced post makes later posts wait until it and every earlier post have completed [S5].
 *
 * <p>Events follow uGNI's CQ modes [S5]: LOCAL when every request has left; GLOBAL when every response has been
 * processed (GET data written locally); REMOTE at the target, on the CQ its registration names, when the post asked
 * for it (written when the transaction's last-issued request is processed there, so with adaptive routing it may
 * precede other packets' data, as [S5] warns for SMSG). A transaction that fails reports its first fault in a GLOBAL
 * event whatever its modes. Each event reaches the host one host-interface write after its cause; one bound for a
 * CQ also waits for the translation of its entry's address in the CQ's ring in host memory ({@link CompletionQueue}). Remote data is
 * never cached.
 *
 * <h2>Structure</h2>
 * This class is a façade over package-private stages named for the hardware, each with its own state:
 * {@link PostValidator} (checks a post), {@link TransactionTable} (request tags, admission, fences, BTE channels),
 * {@link IssuePipeline} (the issue slot shared by FMA and the BTE, local reads), {@link Injector} (offers packets to
 * the fabric, holds refused ones), {@link ResponseEngine} (responses to this NIC's requests), {@link TargetEngine}
 * (incoming requests: PUT writes, GET reads, CQ writes), {@link AmoUnit} and {@link CompletionWriter} (CQs and
 * events), joined by the {@link HostLink} (two serial channels over PCIe). Each kind of event is a handler object of
 * the stage it belongs to, and each reason to touch memory is an {@link AccessPurpose}.
 *
 * <p>Construction is cheap (the stages are built, and their tables allocated, on first use), so a 92,544-node
 * system can build one per node. The constructor attaches the NIC to the fabric. Not thread-safe: one simulation,
 * one thread.
 */
public final class Nic implements FabricEndpoint {

  private final int nodeId;
  private final Scheduler scheduler;
  private final HostMemory memory;
  private final AddressTranslation translation;
  private final Fabric fabric;
  /** Catches two threads using this NIC at once (see {@link ConcurrentUseCheck} for what it accepts). */
  private final ConcurrentUseCheck inUse;
  private final NicConfig config;
  private final NicStatistics stats = new NicStatistics();
  private CompletionListener listener;
  private CompletionListener[] probes = new CompletionListener[0];
  private final HostWriteProbes writeProbes = new HostWriteProbes();
  private PostedWrites posted;
  /** Host memory as the NIC's stages reach it (through its writes on their way and its AMO cache); null before. */
  private HostMemory stageMemory;

  // The stages, built on first use (see build()) so that an idle NIC of a 92,544-node system stays small.
  private HostLink host;
  private CompletionWriter completions;
  private PostValidator validator;
  private TransactionTable transactions;
  private Injector injector;
  private TargetEngine target;
  private ResponseEngine responses;
  private AmoUnit amoUnit;
  private CollectiveEngine collective;
  private AccessPool accesses;
  private PacketPool sharedPackets;
  /**
   * FMA descriptors attached to processes ({@link #attachFmaDescriptor}): descriptor d is bit d of {@code attachedLow}
   * (d below 64) or bit d - 64 of {@code attachedHigh}. Two fields, not an array: an idle NIC stays small.
   */
  private long attachedLow;
  private long attachedHigh;

  /**
   * A NIC for a node, attached to the fabric at once.
   *
   * @param nodeId this node, 0 to fabric.nodeCount() - 1
   * @param scheduler the simulation clock
   * @param memory this node's physical memory
   * @param translation this node's address translation (IOMMU or flat)
   * @param fabric the network
   * @param config settings and timing
   * @throws IllegalArgumentException when an argument is null or the node id is outside the fabric
   * @throws IllegalStateException when the node is already attached to the fabric
   */
  public Nic(int nodeId, Scheduler scheduler, HostMemory memory, AddressTranslation translation, Fabric fabric,
      NicConfig config) {
    checkArgument(scheduler != null, "scheduler must not be null");
    checkArgument(memory != null, "memory must not be null");
    checkArgument(translation != null, "translation must not be null");
    checkArgument(fabric != null, "fabric must not be null");
    checkArgument(config != null, "config must not be null");
    checkArgument(nodeId >= 0 && nodeId < fabric.nodeCount(), "nodeId must be in [0, %s] but was %s",
        fabric.nodeCount() - 1, nodeId);
    this.nodeId = nodeId;
    this.scheduler = scheduler;
    this.memory = memory;
    this.translation = translation;
    this.fabric = fabric;
    this.config = config;
    this.inUse = new ConcurrentUseCheck("Nic of node " + nodeId);
    fabric.attach(nodeId, this);
  }

  /** Builds and connects the stages (once, on first use). */
  private void build() {
    host = new HostLink(config.timing(), stats);
    accesses = new AccessPool();
    if (sharedPackets != null) {
      accesses.packets = sharedPackets;
      accesses.recyclePackets = true;
    }
    // Every stage reaches host memory through the writes on their way (PostedWrites: the NIC sees its own writes at
    // once, the host when each is visible), and every stage but the AMO unit's cache through that cache's coherent view.
    PostedWrites posted = new PostedWrites(scheduler, this.memory);
    writeProbes.posted(posted);
    this.posted = posted;
    AmoCache amoCache = config.amoCache().enabled()
        ? new AmoCache(config.amoCache(), posted, stats, scheduler, host, writeProbes)
        : null;
    HostMemory memory = amoCache == null ? posted : amoCache.nicView();
    stageMemory = memory;
    completions = new CompletionWriter(nodeId, scheduler, host, memory, translation, config, stats, writeProbes);
    completions.listener(listener);
    completions.probes(probes);
    validator = new PostValidator(nodeId, fabric.nodeCount(), config, translation, completions);
    transactions = new TransactionTable(scheduler, config, host, completions, stats);
    injector = new Injector(scheduler, fabric, stats, transactions);
    IssuePipeline issue =
        new IssuePipeline(nodeId, scheduler, memory, translation, config, host, accesses, transactions, injector);
    transactions.issuePipeline(issue);
    injector.issuePipeline(issue);
    amoUnit = new AmoUnit(scheduler, memory, amoCache, config, host, accesses, completions, injector, stats,
        writeProbes);
    target = new TargetEngine(nodeId, scheduler, memory, translation, config.timing(), host, accesses, completions,
        injector, amoUnit, stats, config.protectionTag(), config.protectionKey(), writeProbes);
    responses = new ResponseEngine(nodeId, scheduler, memory, translation, config, host, accesses, transactions,
        writeProbes);
    // A GET waiting for a non-posted tag or an AMO waiting for room in the unit holds the physical address the IOMMU
    // gave it: memory given back under it would be read or written after another owner may hold it.
    posted.keepWhileWaiting(target::waitsToRead);
    posted.keepWhileWaiting(amoUnit::waitsToWork);
    collective = new CollectiveEngine(nodeId, scheduler, memory, translation, config, host, completions, transactions,
        injector, stats, writeProbes);
  }

  /**
   * When the first of this NIC's writes still on their way to host memory over {@code [physicalAddress,
   * physicalAddress + length)} lands there and the host can see it: a CPU that polls those bytes and has not seen what
   * it waits for looks again then. A write whose crossing of the host link is not booked yet (a memory AMO's result
   * before its answer) is not counted; the host-write probes ({@link #addHostWriteProbe}) announce it when it is.
   *
   * @param physicalAddress first byte
   * @param length bytes, at least 1
   * @return the time, picoseconds, at or after now (a write landing now whose event has not run yet); or -1 when no
   *     such write is on its way
   */
  public long nextHostWriteLanding(long physicalAddress, int length) {
    checkArgument(length >= 1, "length must be >= 1 but was %s", length);
    return posted == null ? -1 : posted.nextLanding(physicalAddress, length);
  }

  /** Package-private view for tests: the writes on their way to host memory, or null before the NIC is built. */
  PostedWrites postedWrites() {
    return posted;
  }

  /** Package-private view for tests: translated GETs waiting for a non-posted tag (0 before the NIC is built). */
  int waitingGetsForTest() {
    return target == null ? 0 : target.waitingForTag();
  }

  /** Package-private view for tests: translated AMOs waiting for room in the AMO unit (0 before the NIC is built). */
  int waitingAmosForTest() {
    return amoUnit == null ? 0 : amoUnit.waiting();
  }

  /** @return this node's id */
  public int nodeId() {
    return nodeId;
  }

  /** @return the settings */
  public NicConfig config() {
    return config;
  }

  /** @return the live counters */
  public NicStatistics statistics() {
    return stats;
  }

  /**
   * Packets the fabric refused that this NIC holds until the fabric calls {@code injectionReady} (its port's signal
   * that it has room again). Zero once a run has drained on the built-in fabrics; a user fabric that refuses an
   * injection and never signals leaves them here, and the job waiting for them is reported deadlocked, naming this.
   *
   * @return refused packets held, ≥ 0
   */
  public int packetsHeldForFabric() {
    return injector.held();
  }

  /**
   * Registers memory through the translation port ({@code GNI_MemRegister}).
   *
   * @param registration what to register; its PTAG/PKEY must match a requester's for remote access
   * @return the descriptor; its {@code mdh()} names the memory in posts and network addresses
   * @throws IllegalArgumentException when its completion queue is not one of this NIC's, or is one a post has named
   *     for its own events (a CQ takes local or remote events, not both: {@code GNI_CqCreate} [S5]), or as the
   *     translation refuses it
   */
  public MemoryDomainDescriptor register(MemoryRegistration registration) {
    boolean entered = inUse.enter();
    try {
      checkArgument(registration != null, "registration must not be null");
      int cq = registration.completionQueue();
      if (cq != MemoryDomainDescriptor.NO_CQ) {
        checkArgument(completionQueue(cq) != null,
            "registration.completionQueue must name a CQ of node %s but was %s", nodeId, cq);
        completions.checkRemoteQueue(cq);
      }
      MemoryDomainDescriptor d = translation.register(registration);
      if (cq != MemoryDomainDescriptor.NO_CQ) {
        completions.remoteQueueNamed(cq);
      }
      return d;
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Deregisters memory ({@code GNI_MemDeregister}); later requests naming it fault with INVALID_MDH.
   *
   * @param mdh a registered MDH
   * @throws IllegalArgumentException when the MDH is a live completion queue's ring (destroy the queue instead; its
   *     events would otherwise be lost to a faulting ring), or as the translation refuses it
   */
  public void deregister(int mdh) {
    boolean entered = inUse.enter();
    try {
      int ringOf = completions == null ? -1 : completions.queueWithRing(mdh);
      checkArgument(ringOf < 0, "mdh %s of node %s is completion queue %s's ring: destroy the queue"
          + " (destroyCompletionQueue) instead of deregistering its ring", mdh, nodeId, ringOf);
      translation.deregister(mdh);
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Deregisters memory ({@code GNI_MemDeregister}) and gives its frames (and page tables of its own) back to the
   * node's memory, as the operating system does when the process that registered it exits: what a batch system's
   * end of a job does ({@code MpiJob.close}, {@code ShmemJob.close}). Once the memory has agreed, the NIC's copies
   * of the bytes go: the AMO cache's words and the host cache's lines are dropped unwritten (of a dirty line the range
   * covers in part, the bytes outside it are written back). A plain {@link #deregister} gives nothing back.
   *
   * <p>A request from the network that the IOMMU translated before the deregistration is served on the physical
   * address it was given, so the memory stays while one waits in the NIC (a GET for a tag of the non-posted table, an
   * AMO for room in the request list): until stop 74 it was served on the memory given back, perhaps another owner's.
   * A request arriving after the deregistration faults (an error response), as on the hardware.
   *
   * @param mdh a registered MDH
   * @return true when the memory was given back; false when it was not, now, the registration deregistered all the
   *     same: a NIC write into it is still on its way, a cached AMO on one of its words is in flight, a translated GET
   *     or AMO for it waits in the NIC, or the IOMMU is translating or fetching page-table lines (any
   *     registration's); the built-in translators then give it back at
   *     their next registration or {@code deregisterAndFree} that finds nothing on its way. Also false when the
   *     translation's frames are not its own ({@link AddressTranslation#deregisterAndFree})
   * @throws IllegalArgumentException as {@link #deregister} does; nothing is deregistered then
   */
  public boolean deregisterAndFree(int mdh) {
    boolean entered = inUse.enter();
    try {
      int ringOf = completions == null ? -1 : completions.queueWithRing(mdh);
      checkArgument(ringOf < 0, "mdh %s of node %s is completion queue %s's ring: destroy the queue"
          + " (destroyCompletionQueue) instead of deregistering its ring", mdh, nodeId, ringOf);
      return translation.deregisterAndFree(mdh, stageMemory != null ? stageMemory : memory);
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Creates a completion queue ({@code GNI_CqCreate}) whose ring is registered in host memory with 4 KB pages.
   * A queue takes the lowest free handle: 0, 1, 2, ... while none is destroyed, and a handle freed by {@link
   * #destroyCompletionQueue} again after that (at most 2,048 queues at once, the 11-bit CQ handle [S6e]).
   *
   * @param entries events the queue holds, 1 to 2^24 (the hardware's indices are 29 bits [S6e]; the model keeps the
   *     entries in an array, hence the smaller cap)
   * @return the queue
   * @throws IllegalStateException when 2,048 queues exist
   */
  public CompletionQueue createCompletionQueue(int entries) {
    return createCompletionQueue(entries, PageSize.SIZE_4K);
  }

  /**
   * Creates a completion queue whose ring of 8-byte entries is registered in host memory with pages of a given size
   * (it takes one MDH and {@code entries × 8} bytes rounded up to a page; see {@link CompletionQueue}).
   *
   * @param entries events the queue holds, 1 to 2^24
   * @param pageSize page size of the ring's registration
   * @return the queue
   * @throws IllegalStateException when 2,048 queues exist, or the translation has no free MDH or memory
   */
  public CompletionQueue createCompletionQueue(int entries, PageSize pageSize) {
    scheduler.checkCaller("Nic.createCompletionQueue");
    boolean entered = inUse.enter();
    try {
      if (completions == null) {
        build();
      }
      return completions.create(entries, pageSize);
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Destroys a completion queue ({@code GNI_CqDestroy} [S5]): its handle is free for the next {@link
   * #createCompletionQueue}, and its ring's registration is deregistered, so its MDH is free again.
   *
   * <p>uGNI refuses to destroy a CQ that endpoints are still bound to ({@code GNI_RC_ERROR_RESOURCE} [S5]). The model
   * has no endpoints; what may still write into a queue here is refused the same way, as an {@link
   * IllegalStateException} that names the handle and each user and changes nothing:
   * <ul>
   *   <li>a valid memory registration of this node that names the queue for remote events ({@code GNI_MemRegister}'s
   *       {@code dst_cq_hndl} [S5]; {@link MemoryDomainDescriptor#completionQueue()}): every request into it could
   *       write a REMOTE event there. Deregister it first.</li>
   *   <li>a post ({@link #post}, {@link #postCollective}) that names the queue and has not completed, including one
   *       still crossing the host interface or waiting for a tag: it writes its events when it completes, and a
   *       failed one writes a GLOBAL event whatever its modes. Wait for it (a host would wait for its events).</li>
   *   <li>an event already booked for the queue whose entry is not yet in the ring (its host write or the
   *       translation of its slot under way, or a REMOTE event waiting for a cached AMO's value to reach memory).
   *       Run the simulation on until it lands.</li>
   * </ul>
   * Refusing rather than discarding those writes keeps a later queue that reuses the handle from receiving the old
   * queue's events, which the model could not tell apart from its own (the handle is all a write carries).
   *
   * <p>Events written and not yet polled do not hold a queue: they go with it (the {@link CompletionQueue} object
   * keeps them and its counters, detached from the NIC). A peer's {@code GNI_PostCqWrite} that arrives for a destroyed
   * handle faults with {@code INVALID_MDH} as for any unknown handle, or, once the handle is reused, lands in the new
   * queue: as with a reused MDH, a stale handle is the host's mistake. (Simplified: a CQ write here names the queue by
   * its handle; uGNI's names a remote memory handle whose registration's {@code dst_cq_hndl} takes the event [S5], so
   * there a write late for a queue destroyed after its registration faults unless the memory handle was registered
   * again. {@code
   * CompletionQueueDestroyTest.aPeersCqWriteInFlightForADestroyedQueueLandsInTheQueueThatTakesItsHandle}.) {@link
   * NicStatistics} are untouched (none counts queues). The ring's host memory, which uGNI allocated for the queue,
   * is given back with its registration ({@link #deregisterAndFree}); it stays reserved only in the cases that method
   * names (the checks above leave none of the queue's own writes on their way).
   *
   * @param handle a queue of this NIC, one {@link #createCompletionQueue} returned and not yet destroyed
   * @throws IllegalArgumentException when this NIC has no queue with the handle (never created, already destroyed,
   *     or outside 0-2047), naming the handles it has
   * @throws IllegalStateException when a registration, an unfinished post or an event in flight still uses it
   */
  public void destroyCompletionQueue(int handle) {
    boolean entered = inUse.enter();
    try {
      if (completions == null) {
        throw new IllegalArgumentException("handle must name a completion queue of node " + nodeId
            + " (it has none) but was " + handle);
      }
      completions.destroy(handle);
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * The queue with a handle.
   *
   * @param handle a CQ handle
   * @return the queue, or null when this NIC has none with that handle (never created, or destroyed)
   */
  public CompletionQueue completionQueue(int handle) {
    return completions == null ? null : completions.queue(handle);
  }

  /** @return completion queues this NIC has now: created and not destroyed, 0 to 2,048 */
  public int completionQueueCount() {
    return completions == null ? 0 : completions.count();
  }

  /**
   * Sets the listener that sees every completion event of this NIC at its simulated time: the one consumer of its
   * events, which a host program's runtime takes for its own progress (a SHMEM or MPI job sets it when it is built and
   * again when it runs, replacing whatever was set). To watch the events beside a job, add a probe
   * ({@link #addCompletionProbe}) instead: a job never replaces one.
   *
   * @param l the listener, or null for none
   */
  public void completionListener(CompletionListener l) {
    boolean entered = inUse.enter();
    try {
      this.listener = l;
      if (completions != null) {
        completions.listener(l);
      }
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Adds an observer that sees every completion event of this NIC at its simulated time, after the listener
   * ({@link #completionListener}), in the order the probes were added. Unlike the listener, nothing of the library
   * replaces a probe: a study's or a test's watch over a NIC outlives the jobs that run on it. It runs on the thread
   * of the NIC's node; one probe given to NICs of several groups of an engine is called from several threads (see
   * {@link CompletionListener}).
   *
   * @param probe the observer, not null, not added already
   * @throws IllegalArgumentException for null or a probe added already
   */
  public void addCompletionProbe(CompletionListener probe) {
    checkArgument(probe != null, "probe must not be null");
    boolean entered = inUse.enter();
    try {
      for (CompletionListener p : probes) {
        checkArgument(p != probe, "probe %s was added to node %s's NIC already", probe, nodeId);
      }
      probes = java.util.Arrays.copyOf(probes, probes.length + 1);
      probes[probes.length - 1] = probe;
      if (completions != null) {
        completions.probes(probes);
      }
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Removes a probe ({@link #addCompletionProbe}).
   *
   * @param probe the observer
   * @return whether it was one of this NIC's probes
   */
  public boolean removeCompletionProbe(CompletionListener probe) {
    for (int i = 0; i < probes.length; i++) {
      if (probes[i] == probe) {
        CompletionListener[] rest = new CompletionListener[probes.length - 1];
        System.arraycopy(probes, 0, rest, 0, i);
        System.arraycopy(probes, i + 1, rest, i, rest.length - i);
        probes = rest;
        if (completions != null) {
          completions.probes(probes);
        }
        return true;
      }
    }
    return false;
  }

  /**
   * Adds an observer of every write this NIC makes into its node's host memory ({@link HostWriteListener}): what a
   * CPU polling its memory sees change. A SHMEM job adds one for each of its PEs while it runs, so that a PE waiting
   * for a word wakes when the NIC writes it; nothing of the library removes another's.
   *
   * @param probe the observer, not null, not added already
   * @throws IllegalArgumentException for null or a probe added already
   */
  public void addHostWriteProbe(HostWriteListener probe) {
    checkArgument(probe != null, "probe must not be null");
    checkArgument(writeProbes.add(probe), "this host-write probe was added to node %s's NIC already", nodeId);
  }

  /**
   * Removes an observer added by {@link #addHostWriteProbe}.
   *
   * @param probe the observer
   * @return whether it was one of this NIC's
   */
  public boolean removeHostWriteProbe(HostWriteListener probe) {
    return writeProbes.remove(probe);
  }

  /**
   * When the process that owns an FMA descriptor has done the stores of every post it made through it: the CPU time
   * of posting ({@link NicTiming#fmaPostPs()}, and an FMA PUT's data or an FMA GET's requests stored through the
   * window), which the NIC books per descriptor ({@link #post(Post, int)}). The NIC does not stop the process: a layer
   * that models it makes it wait until then after a post, since the core that stores into the FMA window does nothing
   * else meanwhile (the MPI and SHMEM layers do since stop 70; before, a process went on at once while the NIC booked
   * its post's CPU time beside it).
   *
   * @param descriptor an FMA descriptor, 0 to 126
   * @return the time, picoseconds; 0 before the descriptor's first post
   * @throws IllegalArgumentException for a descriptor outside 0-126
   */
  public long postStoresDoneAt(int descriptor) {
    checkDescriptor(descriptor);
    return transactions == null ? 0 : transactions.freeAt(descriptor);
  }

  private static void checkDescriptor(int descriptor) {
    checkArgument(descriptor >= 0 && descriptor < FMA_DESCRIPTORS,
        "descriptor must be in [0, %s] (the NIC's FMA descriptors [S1 p.19]) but was %s", FMA_DESCRIPTORS - 1,
        descriptor);
  }

  /** @return transactions holding a request tag now */
  public int outstandingTransactions() {
    return transactions == null ? 0 : transactions.outstanding();
  }

  /**
   * Posts accepted by {@link #post} whose transaction has not completed yet, including posts still crossing the host
   * interface: zero means every post so far has completed (what a SHMEM {@code quiet} waits for).
   *
   * @return unfinished posts
   */
  public long unfinishedPosts() {
    return transactions == null ? 0 : transactions.unfinished();
  }

  /** @return posts accepted but not yet started (waiting for a tag, a BTE channel or a fence) */
  public int queuedPosts() {
    return transactions == null ? 0 : transactions.queued();
  }

  /**
   * Posts a transaction ({@code GNI_PostFma}, {@code GNI_PostRdma}, {@code GNI_PostCqWrite}). Returns at once; the
   * NIC sees the post one host-interface write later and reports through the completion events the post asked
   * for.
   *
   * @param post what to do
   * @throws IllegalArgumentException naming the field, the valid range and the value when the post is invalid:
   *     remote node outside the fabric, unknown completion queue or one a registration names for remote events (a CQ
   *     takes local or remote events, not both [S5]), unknown, too short or read-only local registration or one of
   *     another protection domain than the NIC's (PTAG, PKEY), a zero-length GET, a GET (FMA or BTE) whose
   *     remote offset or length is not a multiple of 4 [S5][S6a], an AMO that is not naturally aligned, an AMO length
   *     other than its width, a remote range past 2^40, a PUT without a local buffer ({@link Post#putValue}) whose
   *     length is not 4 or 8, whose remote offset is not a multiple of it, with a local offset, or on the BTE
   */
  public void post(Post post) {
    post(post, 0);
  }

  /**
   * FMA descriptors a NIC has, one for each process of its node that posts ([S1 p.19]: "Each process is allocated its
   * own FMA descriptor allowing independent issue of remote memory access requests [...] each Aries NIC supports a
   * maximum of 127").
   */
  public static final int FMA_DESCRIPTORS = 127;

  /**
   * Gives a process of this node an FMA descriptor of its own: the lowest of the 127 that no process holds. uGNI
   * assigns each new communication domain a dedicated FMA descriptor and fails the domain's creation when none is free;
   * its {@code GNI_CDM_MODE_FMA_SHARED} mode lets domains of one protection domain share descriptors instead, so that
   * a node can have more of them than descriptors ([S5] {@code gni_pub.h}, the comment on {@code
   * GNI_CDM_MODE_FMA_DEDICATED}; S1 p.19: "Each process is allocated its own FMA descriptor", 127 a NIC). Layers
   * that may run several jobs on one node take their processes' descriptors here, so that two jobs never post through
   * one descriptor (whose posts would wait for each other's stores). {@link #post(Post, int)} does not ask for an
   * attached descriptor: a caller may also number its processes itself, as every job did before stop 72.
   *
   * @return the descriptor, 0 to 126
   * @throws IllegalStateException when processes hold all 127 (the dedicated mode's failure; sharing is the caller's
   *     choice, {@link #fmaDescriptorsAttached})
   */
  public int attachFmaDescriptor() {
    int d = tryAttachFmaDescriptor();
    if (d < 0) {
      throw new IllegalStateException("node " + nodeId + " has no free FMA descriptor: processes hold all "
          + FMA_DESCRIPTORS + " (S1 p.19: at most 127 a NIC); detach one (detachFmaDescriptor) or share");
    }
    return d;
  }

  /**
   * {@link #attachFmaDescriptor} for a layer that shares a descriptor when none is free (uGNI's {@code
   * GNI_CDM_MODE_FMA_SHARED}): the same lowest free descriptor, or -1 instead of a refusal.
   *
   * @return the descriptor, 0 to 126, or -1 when processes hold all 127
   */
  public int tryAttachFmaDescriptor() {
    boolean entered = inUse.enter();
    try {
      int d = attachedLow != -1L ? Long.numberOfTrailingZeros(~attachedLow)
          : 64 + Long.numberOfTrailingZeros(~attachedHigh);
      if (d >= FMA_DESCRIPTORS) {
        return -1;
      }
      setAttached(d, true);
      return d;
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  private boolean attached(int d) {
    return ((d < 64 ? attachedLow : attachedHigh) & 1L << d) != 0; // (a long shift takes d mod 64)
  }

  private void setAttached(int d, boolean on) {
    long bit = 1L << d;
    if (d < 64) {
      attachedLow = on ? attachedLow | bit : attachedLow & ~bit;
    } else {
      attachedHigh = on ? attachedHigh | bit : attachedHigh & ~bit;
    }
  }

  /**
   * Gives back a descriptor {@link #attachFmaDescriptor} gave (its process's communication domain is destroyed,
   * {@code GNI_CdmDestroy} [S5]); the next attach may hand it out again. Its posts that have not completed carry on:
   * a descriptor is the process's issue path, and what it issued is the NIC's.
   *
   * @param descriptor an attached descriptor
   * @throws IllegalArgumentException when the descriptor is outside 0-126 or is not attached (never, or detached)
   */
  public void detachFmaDescriptor(int descriptor) {
    boolean entered = inUse.enter();
    try {
      checkDescriptor(descriptor);
      checkArgument(attached(descriptor), "descriptor must be an FMA descriptor attached on node %s (%s) but was %s",
          nodeId, describeAttached(), descriptor);
      setAttached(descriptor, false);
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * @param descriptor an FMA descriptor, 0 to 126
   * @return whether a process holds it now ({@link #attachFmaDescriptor})
   * @throws IllegalArgumentException for a descriptor outside 0-126
   */
  public boolean fmaDescriptorAttached(int descriptor) {
    checkDescriptor(descriptor);
    return attached(descriptor);
  }

  /** @return how many FMA descriptors processes hold now ({@link #attachFmaDescriptor}), 0 to 127 */
  public int fmaDescriptorsAttached() {
    return Long.bitCount(attachedLow) + Long.bitCount(attachedHigh);
  }

  private String describeAttached() {
    int n = fmaDescriptorsAttached();
    if (n == 0) {
      return "none is";
    }
    StringBuilder b = new StringBuilder();
    int shown = 0;
    for (int d = 0; d < FMA_DESCRIPTORS && shown < 8; d++) {
      if (attached(d)) {
        b.append(shown++ == 0 ? "" : ", ").append(d);
      }
    }
    return "attached: " + b + (n > shown ? " and " + (n - shown) + " more" : "");
  }

  /**
   * Posts a transaction as {@link #post(Post)} does, from the process that owns FMA descriptor {@code descriptor}:
   * each descriptor's posts cost its own process's CPU time one after another ({@link NicTiming#fmaPostPs()} and the
   * FMA stores), so the processes of a node post concurrently [S1 p.19]; what follows the stores (the host link, the
   * request tags, the issue pipeline) they share. {@link #post(Post)} and {@link #postCollective(CePost)} use
   * descriptor 0.
   *
   * @param post what to do
   * @param descriptor the posting process's FMA descriptor, 0 to 126
   * @throws IllegalArgumentException as {@link #post(Post)}, or for a descriptor outside 0-126
   */
  public void post(Post post, int descriptor) {
    scheduler.checkCaller("Nic.post"); // (first: the table below counts and books the post before it schedules)
    boolean entered = inUse.enter();
    try {
      checkArgument(post != null, "post must not be null");
      checkDescriptor(descriptor);
      if (validator == null) {
        build();
      }
      Post p = validator.validate(post);
      stats.posts++;
      transactions.accept(p, descriptor);
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Makes the NIC take its packets from {@code pool} and give back to it every packet it is finished with: a request
   * once it has served it (its response made, its data written), a response once it has processed it (its data
   * landed). Give every NIC of a system the same pool (a request's payload is made by one NIC and finished with by
   * another), on the system's one event loop: the system then allocates no packet and no payload per packet once the
   * pool covers the packets in flight. Only for a system where nothing else keeps a delivered packet (no fabric or
   * observer that records packets, no packet trace): a kept packet would change under its keeper. Call before the
   * NIC is first used. Off by default (each NIC makes fresh packets); {@code AriesSystem} turns it on for its built-in
   * fabrics without a trace.
   *
   * @param pool the shared pool, or null for fresh packets
   * @throws IllegalStateException once the NIC has been used
   */
  public void recyclePackets(PacketPool pool) {
    if (accesses != null) {
      throw new IllegalStateException("recyclePackets must be set before node " + nodeId + "'s NIC is first used");
    }
    this.sharedPackets = pool;
  }

  /**
   * Accepts a packet from the fabric (called by the fabric; part of {@link FabricEndpoint}).
   *
   * <p>The port's contract is checked where breaking it would go unseen: a packet for another node (it would write
   * this node's memory, or answer a transaction of another's) and a time other than the clock's (the work would be
   * timed from then) are refused, naming the node, the packet and the times: a user's fabric's mistake, one compare
   * each.
   *
   * @param nowPs arrival time: the scheduler's {@code now()}
   * @param packet a request for this node's memory, or a response to one of this node's transactions
   * @throws IllegalArgumentException for a null packet
   * @throws IllegalStateException for a packet whose destination is another node, or a time other than now
   */
  @Override
  public void deliver(long nowPs, Packet packet) {
    checkArgument(packet != null, "packet must not be null");
    if (packet.destinationNode() != nodeId) {
      throw new IllegalStateException("node " + nodeId + "'s NIC was given a packet for node "
          + packet.destinationNode() + " (" + packet + "): a fabric delivers a packet to its destination");
    }
    if (nowPs != scheduler.now()) {
      throw new IllegalStateException("node " + nodeId + "'s NIC was given a packet at " + nowPs + " ps where its"
          + " clock is at " + scheduler.now() + " ps (" + packet + "): a fabric delivers at the scheduler's now()");
    }
    boolean entered = inUse.enter();
    try {
      if (target == null) {
        build();
      }
      stats.received(packet);
      if (packet.kind().isCollective()) {
        collective.receive(nowPs, packet);
      } else if (packet.isRequest()) {
        target.receive(nowPs, packet);
      } else {
        responses.receive(nowPs, packet);
      }
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * The fabric has room again after refusing an injection (part of {@link FabricEndpoint}): held packets are
   * retried in order.
   *
   * @param nowPs the time
   */
  @Override
  public void injectionReady(long nowPs) {
    // Guarded as the other entry points: the fabric calls it only after it refused an injection (back-pressure),
    // not once a packet, so the guard's few instructions stay off the per-packet path.
    boolean entered = inUse.enter();
    try {
      if (injector != null) {
        injector.ready(nowPs);
      }
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Invalidates the NIC's AMO cache (the AMO block's cache-invalidate setting [S6d]): dirty entries are written back
   * to host memory, and every entry is dropped (one with AMOs in flight once they have answered), so later cached
   * AMOs fill from memory again. Use it after host CPU stores to words that cached AMOs use, which the AMO cache does
   * not see (docs/memory-hierarchy.md, "AMO cache"). A no-op without an AMO cache or before the NIC's first use. The
   * write-backs are posted writes: they reach host memory when they have crossed the host link, so the host sees them
   * once the clock has run that far (since stop 69; they were in memory at once before).
   */
  public void invalidateAmoCache() {
    boolean entered = inUse.enter();
    try {
      if (amoUnit != null) {
        amoUnit.invalidateCache();
      }
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Takes a virtual collective-engine channel ({@code GNI_CeCreate} [S5]): the lowest of the NIC's four that is free.
   * See {@link CollectiveEngine} (docs/nic.md, "Collective engine") for what a channel does.
   *
   * @return the channel, 0 to 3
   * @throws IllegalStateException when all four are taken
   */
  public int createCollectiveChannel() {
    scheduler.checkCaller("Nic.createCollectiveChannel");
    boolean entered = inUse.enter();
    try {
      if (collective == null) {
        build();
      }
      return collective.create();
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Frees a collective-engine channel ({@code GNI_CeDestroy} [S5]).
   *
   * @param channel a channel taken with {@link #createCollectiveChannel}
   * @throws IllegalArgumentException when the channel is outside 0-3 or is not taken (never, or destroyed)
   * @throws IllegalStateException when a reduction is in progress on it
   */
  public void destroyCollectiveChannel(int channel) {
    scheduler.checkCaller("Nic.destroyCollectiveChannel");
    boolean entered = inUse.enter();
    try {
      if (collective == null) {
        throw CollectiveEngine.notCreated("channel", channel, nodeId);
      }
      collective.destroy(channel);
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Frees a collective-engine channel whose reduction can never complete, as the driver does when the processes that
   * took it exit (a job whose run failed before every process contributed: {@code MpiJob.close}): the reduction's
   * contributions go, and this node's posts that contributed and wait for its result never complete (no event is
   * written; their completion queues stop counting them as unfinished). {@link #destroyCollectiveChannel} refuses a
   * channel with a reduction in progress. Call it when nothing of the tree is in flight any more (the simulation has
   * no event pending, {@code AriesSystem.runPending()} having run): a contribution or result that reached the channel
   * later would be dropped as for a channel not created, or taken by a channel created again meanwhile.
   *
   * @param channel a channel taken with {@link #createCollectiveChannel}
   * @throws IllegalArgumentException when the channel is outside 0-3 or is not taken (never, or destroyed)
   * @throws IllegalStateException when a post of this node's to it is still on its way to the engine or its result is
   *     being written (events of it are pending); nothing changes then
   */
  public void abandonCollectiveChannel(int channel) {
    scheduler.checkCaller("Nic.abandonCollectiveChannel");
    boolean entered = inUse.enter();
    try {
      if (collective == null) {
        throw CollectiveEngine.notCreated("channel", channel, nodeId);
      }
      collective.abandon(channel);
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Whether a reduction is in progress on a channel: a contribution has reached it (a post of this node's or a child
   * channel's packet) and its result has not been sent on, or a post of this node's to it has not finished (it is
   * still on its way to the engine, or its result is not yet written into its buffer). {@link
   * #destroyCollectiveChannel} and {@link #configureCollectiveChannel} refuse the channel while so.
   *
   * @param channel a channel taken with {@link #createCollectiveChannel}
   * @return true while a reduction is in progress on it
   * @throws IllegalArgumentException when the channel is outside 0-3 or is not taken (never, or destroyed)
   */
  public boolean collectiveReductionInProgress(int channel) {
    boolean entered = inUse.enter();
    try {
      if (collective == null) {
        throw CollectiveEngine.notCreated("channel", channel, nodeId);
      }
      return collective.busy(channel);
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Wires a collective-engine channel into its reduction tree ({@code GNI_CeConfigure} [S5]): its children and
   * parent. Every channel of a tree must be configured before the first contribution reaches it; a packet for a
   * channel that is not (or not so) configured is dropped and counted.
   *
   * @param channel a channel taken with {@link #createCollectiveChannel}
   * @param config children, parent, rounding, routing mode
   * @throws IllegalArgumentException when the config is null, the channel is outside 0-3 or not taken, a node is
   *     outside the fabric, or the channel is its own parent or child
   * @throws IllegalStateException when a reduction is in progress on it
   */
  public void configureCollectiveChannel(int channel, CeChannelConfig config) {
    scheduler.checkCaller("Nic.configureCollectiveChannel");
    boolean entered = inUse.enter();
    try {
      checkArgument(config != null, "config must not be null");
      if (collective == null) {
        throw CollectiveEngine.notCreated("channel", channel, nodeId);
      }
      collective.configure(channel, config, fabric.nodeCount());
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Posts one process's contribution to a collective-engine reduction ({@code GNI_PostFma} with
   * {@code GNI_POST_CE} [S5]). Returns at once; when the reduction completes, the NIC writes the 24-byte result
   * into the post's result buffer and then a GLOBAL event (user data: result1; status: the reduction's) on its CQ.
   * Read the result with {@link #collectiveResult}.
   *
   * @param post the contribution
   * @throws IllegalArgumentException naming the field, range and value when the post is null, the channel is not
   *     taken (never, or destroyed) or not configured, the child is not a PE child of it, the CQ does not exist, or
   *     the result buffer is not registered, writable, 32-byte aligned and 24 bytes long
   */
  public void postCollective(CePost post) {
    postCollective(post, 0);
  }

  /**
   * Posts a contribution as {@link #postCollective(CePost)} does, from the process that owns FMA descriptor {@code
   * descriptor}: the post's descriptor stores and doorbell cost that process's CPU, after its earlier posts' ({@link
   * #postStoresDoneAt}), as an FMA post's do ({@code GNI_PostFma} is how a process posts to the engine [S5]). Until
   * stop 72 every engine post was booked on descriptor 0, whichever process made it.
   *
   * @param post the contribution
   * @param descriptor the posting process's FMA descriptor, 0 to 126
   * @throws IllegalArgumentException as {@link #postCollective(CePost)}, or for a descriptor outside 0-126
   */
  public void postCollective(CePost post, int descriptor) {
    scheduler.checkCaller("Nic.postCollective");
    boolean entered = inUse.enter();
    try {
      checkArgument(post != null, "post must not be null");
      checkDescriptor(descriptor);
      if (collective == null) {
        throw CollectiveEngine.notCreated("post.channel", post.channel(), nodeId);
      }
      collective.post(post, descriptor);
    } finally {
      if (entered) {
        inUse.exit();
      }
    }
  }

  /**
   * Reads a collective-engine result from a result buffer as the host would ({@code GNI_CeCheckResult} [S5]),
   * untimed. It decodes whatever the 24 bytes hold: the NIC writes them only when the reduction completes (the
   * post's GLOBAL event says when), and bytes it has not written are read as they are, so a zeroed buffer reads as
   * an OK result of reduction 0 with both results 0.
   *
   * @param mdh the buffer's registration
   * @param offset its offset there
   * @return the result
   * @throws IllegalArgumentException when the offset is negative or the 24 bytes run past the registration, the
   *     mdh is outside 0-4095 or the 24 bytes cannot be read through the translation (not registered, protection),
   *     or they do not start with a control word {@link CeResult#control()} makes (naming the mdh and offset)
   */
  public CeResult collectiveResult(int mdh, long offset) {
    checkArgument(offset >= 0, "offset must be >= 0 but was %s", offset);
    TranslationResult t = translation.translateNow(mdh, offset, CePost.RESULT_BYTES, AccessKind.READ,
        config.protectionTag(), config.protectionKey());
    if (t.status() == Status.OUT_OF_BOUNDS) {
      Optional<MemoryDomainDescriptor> d = translation.descriptor(mdh);
      if (d.isPresent()) {
        throw new IllegalArgumentException("offset + 24 must be <= " + d.get().length()
            + " (the registration's length) but was " + offset + " + 24");
      }
    }
    checkArgument(t.status() == Status.OK && t.contiguousBytes() >= CePost.RESULT_BYTES,
        "mdh %s offset %s of node %s cannot be read as a CE result: %s", mdh, offset, nodeId, t.status());
    long a = t.physicalAddress();
    try {
      return CeResult.decode(memory.readLong(a), memory.readLong(a + 8), memory.readLong(a + 16));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("mdh " + mdh + " offset " + offset + " of node " + nodeId
          + " does not hold a CE result: " + e.getMessage());
    }
  }

  /** @return the host link (its two channels), for tests of the host interface's timing; null before first use */
  HostLink hostLink() {
    return host;
  }

  @Override
  public String toString() {
    return "Nic{node=" + nodeId + ", outstanding=" + outstandingTransactions() + ", " + stats + "}";
  }
}
