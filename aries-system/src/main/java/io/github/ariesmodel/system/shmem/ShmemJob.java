package io.github.ariesmodel.system.shmem;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.AmoKind;
import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.LittleEndian;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.AddressTranslation.TranslationResult;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.iommu.Iommu;
import io.github.ariesmodel.nic.CeOperation;
import io.github.ariesmodel.nic.CePost;
import io.github.ariesmodel.nic.CeTree;
import io.github.ariesmodel.nic.CompletionQueue;
import io.github.ariesmodel.nic.HostWriteListener;
import io.github.ariesmodel.nic.Nic;
import io.github.ariesmodel.nic.NicConfig;
import io.github.ariesmodel.nic.Post;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.Node;
import io.github.ariesmodel.system.mpi.MpiConfig;
import io.github.ariesmodel.system.process.ProcessRunner;
import io.github.ariesmodel.system.process.SimProcess;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * A SHMEM-like job on a simulated Aries system: processing elements (PEs) on chosen nodes, a symmetric heap
 * registered with every PE's NIC, and PE code written as ordinary Java ({@link ShmemProgram}) that runs in simulated
 * time over the real NIC, IOMMU and fabric models.
 *
 * <pre>{@code
 * AriesSystem system = AriesSystem.builder().preset(SystemPreset.DEFAULT).build();
 * ShmemJob job = ShmemJob.builder(system).nodes(0, 4).build();
 * Symmetric counter = job.allocate(8);
 * job.run(pe -> {
 *   pe.atomicFetchAdd(counter, 0, 1, 0);   // every PE adds 1 on PE 0
 *   pe.barrierAll();
 * });
 * }</pre>
 *
 * <p>Each PE registers every symmetric allocation at the same virtual address (its own MDH), a staging buffer for
 * puts and gets of Java arrays, and a completion queue for remote events (written only in a job built with
 * {@link Builder#remoteEvents(boolean) remoteEvents(true)}); its NIC's completion events, and its NIC's writes of the
 * word it waits on ({@link Shmem#waitUntil}), wake its process. Host CPU loads and stores of registered memory go
 * through the node's host cache (data, cache state and statistics) and are untimed, except the poll of
 * {@link Shmem#waitUntil}: the load that sees the awaited value costs its cache latency (a hit when the NIC updated
 * the cached line in place, a miss when its write dropped the line). Memory and the host cache take a NIC write's
 * bytes when the host can see them, at the end of the write's crossing of the host link (the NIC's posted writes land
 * when visible, since stop 69: docs/nic.md), so {@code waitUntil} and a program's own {@link Shmem#localLong} loop
 * alike see them from then and not before. Model other local work with {@link Shmem#compute(long)}.
 *
 * <p>A get whose remote offset or length is not a multiple of 4 reads the 4-byte words that hold its range, as every
 * GET must [S5][S6a], lands the words beyond the range in a bounce slot of the PE's and copies only the bytes asked
 * into the destination, whose other bytes never change (since stop 75, after libfabric's uGNI provider: {@code
 * WordGet}; until then the job posted it as asked and the NIC model took it on FMA).
 *
 * <p>Several PEs a node ({@link Builder#pesPerNode(int)}, block placement: PE i on {@code nodes[i / pesPerNode]}, as
 * ALPS places a job's PEs by default) are each a process of their own: their own simulated CPU, completion queue,
 * registrations (MDHs) of every symmetric object and FMA descriptor, through which they post concurrently
 * ({@link Nic#post(Post, int)}, [S1 p.19]); they share the node's NIC (its host link, request tags and issue
 * pipeline), host memory and host cache. The NIC's completion listener is the node's: it hands each event of a post
 * to the PE that made it (the post id carries the PE's index on its node, {@link #LOCAL_PE_SHIFT}).
 *
 * <p>A put or get between two PEs of one node is, by default ({@link Builder#sharedMemory(boolean)}, since stop 71),
 * a CPU copy by the PE that makes it through the other PE's segment mapped into its address space, as Cray
 * OpenSHMEMX's SMP-DMAPP transport on XC moves on-node data with XPMEM, on by default when a node has more than one PE
 * (docs/using-the-library.md, "On-node puts and gets"): the copy costs the initiating PE its bytes at {@link
 * Builder#memcpyBytesPerSecond} (the MPI layer's host copy rate) and then the cache latency of its slowest line, its
 * bytes are in the target's memory (through the node's host cache) when they have been copied, a PE waiting on a
 * word of them ({@link Shmem#waitUntil}) wakes then, and it is complete when the call returns: the NIC sees none of
 * it (no post, no completion event, no REMOTE event). Atomics stay on the NIC (so that they stay atomic with the
 * NIC's atomics on the same words), and so does a PE's put or get to itself. With {@code sharedMemory(false)}, and
 * with one PE a node, every put and get goes through the NIC (a PE of the same node: a loopback through it), as
 * before stop 71.
 */
public final class ShmemJob {

  /** Virtual address of the symmetric heap's first allocation. */
  public static final long HEAP_BASE = 0x1000_0000_0000L;
  private static final int BARRIER_ROUNDS = 64;
  /** Bytes of the barrier words at the start of the job's internal object ({@link #barrier}). */
  private static final long BARRIER_BYTES = 8L * BARRIER_ROUNDS;
  /**
   * Bytes of a bounce slot: where a get that is not in whole 4-byte words lands the words it reads beyond the bytes
   * asked (a GET reads whole 4-byte words of remote memory, FMA and BTE alike [S5][S6a]; {@link WordGet}). A widened
   * range of at most this goes whole into the slot; a longer one lands its interior in place and its head and tail
   * words here (8 bytes). Assumed, after libfabric's uGNI provider, which reads an unaligned read shorter than 60 bytes
   * whole into a buffer of its own (docs/aries-facts.md §3.2).
   */
  static final int BOUNCE_SLOT_BYTES = 64;
  /**
   * Bounce slots a PE has, after the barrier words in the same registration: 512 + 56 × 64 bytes fill the one 4 KiB
   * page the barrier words took alone (so the job's memory layout, and every result of a job without unaligned gets,
   * is as before stop 75). A PE with this many unaligned gets in flight settles its oldest before posting another
   * (assumed: how many such gets DMAPP keeps in flight is not published).
   */
  static final int BOUNCE_SLOTS = 56;
  /** Bytes of the job's internal object: the barrier words, then the bounce slots. */
  private static final long INTERNAL_BYTES = BARRIER_BYTES + (long) BOUNCE_SLOTS * BOUNCE_SLOT_BYTES;
  /**
   * Bit of a post id where the posting PE's index on its node starts: below it, 2^33 posts a PE; above it, up to 127
   * PEs a node ({@link Nic#FMA_DESCRIPTORS}), all within the 40 bits a job's post ids have below its number
   * ({@link AriesSystem#JOB_POST_ID_BITS}). A node's first PE numbers its posts as a job of one PE a node always has.
   */
  public static final int LOCAL_PE_SHIFT = 33;
  /** Most PEs a node: one FMA descriptor each, and an Aries NIC has 127 [S1 p.19]. */
  public static final int MAX_PES_PER_NODE = Nic.FMA_DESCRIPTORS;
  /** Entries of each PE's completion queue for remote events. */
  private static final int REMOTE_CQ_ENTRIES = 1024;
  /**
   * Bytes an on-node copy moves through the host cache at a time (a buffer of the model's, not a hardware size: the
   * copy's time is its bytes at the copy rate, whatever the chunk).
   */
  private static final int ON_NODE_CHUNK = 1 << 20;

  private final AriesSystem system;
  /**
   * This job's number on its system ({@link AriesSystem#nextJobNumber()}): the high bits of its post ids. A job whose
   * run failed leaves its posts in flight, and they finish in the system's next run; their completion events reach
   * the NIC's listener, which a later job on the nodes has taken, and that job ignores events of posts not its own
   * (until stop 67 both numbered their posts from 1, and the old posts' events counted as the new job's: its quiet
   * returned early).
   */
  private final int jobNumber;
  private final int[] peNodes;
  /** PEs a node ({@link Builder#pesPerNode}). */
  private final int pesPerNode;
  /** The PEs of each node, in the order the builder named the nodes. */
  private final NodePes[] nodeGroups;
  private final PageSize pageSize;
  /** Routing of PUTs and AMOs: DMAPP's default is deterministic (MIN_HASH) [S8]; one mode for all if the builder set one. */
  private final DeliveryMode putMode;
  /** Routing of GETs: DMAPP's default is adaptive (ADAPTIVE_0) [S8]. */
  private final DeliveryMode getMode;
  private final long stagingBytes;
  /**
   * The completion modes of the program's puts and atomics: GLOBAL, and REMOTE when the builder asked for them (the
   * software barrier's atomics ask for GLOBAL alone, {@code barrierArrive}).
   */
  private final int putModes;
  /** Whether puts and gets between two PEs of one node are CPU copies ({@link Builder#sharedMemory}). */
  private final boolean sharedMemory;
  /** The rate of those copies, bytes a second ({@link Builder#memcpyBytesPerSecond}). */
  private final double memcpyBytesPerSecond;
  private final Pe[] pes;
  private final List<Symmetric> objects = new ArrayList<>();
  /**
   * The job's internal words on every PE: the barrier words ({@link #BARRIER_BYTES}), then the PE's bounce slots
   * ({@link #BOUNCE_SLOTS}), in one page.
   */
  private final Symmetric barrier;
  private final Symmetric staging;
  /** Where the collective engine writes each PE's barrier result, or null when barriers are software. */
  private final Symmetric ceResult;
  /** Each node's collective-engine channel (when {@link #ceResult} is set), by node index. */
  private final int[] ceChannel;
  private long nextVirtual = HEAP_BASE;
  private ProcessRunner runner;
  /** The thread that called {@link #run} while it lasts, else null: named when another thread's call is refused. */
  private volatile Thread runCaller;
  private long lastRunStartPs;
  private long lastRunEndPs;

  private ShmemJob(Builder b) {
    this.system = b.system;
    this.jobNumber = system.nextJobNumber();
    this.pesPerNode = b.pesPerNode;
    this.peNodes = new int[b.nodes.length * pesPerNode];
    for (int i = 0; i < peNodes.length; i++) {
      peNodes[i] = b.nodes[i / pesPerNode];
    }
    this.nodeGroups = new NodePes[b.nodes.length];
    this.pageSize = b.pageSize;
    this.putMode = b.deliveryMode != null ? b.deliveryMode : defaultPutMode();
    this.getMode = b.deliveryMode != null ? b.deliveryMode : defaultGetMode();
    this.stagingBytes = b.stagingBytes;
    this.putModes = Post.GLOBAL_EVENT | (b.remoteEvents ? Post.REMOTE_EVENT : 0);
    this.sharedMemory = b.sharedMemory;
    this.memcpyBytesPerSecond = b.memcpyBytesPerSecond;
    this.pes = new Pe[peNodes.length];
    // What a build takes is given back if it fails, its memory included, but a failure part-way costs the work done,
    // so the build first checks, taking nothing, what can be known to fail; then the CE channels; then the queues and
    // registrations, giving back channels, registrations and queues (with their memory) if one still fails.
    checkRoom(b.collectiveEngineRadix > 0);
    int[] channels = null;
    if (b.collectiveEngineRadix > 0) {
      List<Nic> nics = new ArrayList<>();
      for (int node : b.nodes) {
        nics.add(system.node(node).nic());
      }
      // the node's first PE alone posts to its channel, for the node's PEs (barrierAll's node phase)
      int[] one = new int[b.nodes.length];
      java.util.Arrays.fill(one, 1);
      try {
        channels = CeTree.wire(nics, one, b.collectiveEngineRadix, putMode);
      } catch (IllegalStateException x) {
        // a node with no free CE channel: CeTree freed what it took, and nothing else was taken yet
        throw new IllegalStateException("ShmemJob could not set up collectiveEngine: " + x.getMessage() + " (each"
            + " job using the engine takes one of a node's 4 channels until it is closed, ShmemJob.close); nothing was"
            + " taken", x);
      }
    }
    this.ceChannel = channels;
    int queues = 0;
    try {
      for (int i = 0; i < peNodes.length; i++) {
        Node node = system.node(peNodes[i]);
        CompletionQueue cq;
        try {
          cq = node.nic().createCompletionQueue(REMOTE_CQ_ENTRIES);
        } catch (RuntimeException e) {
          // the NIC's refusal names only the ring's bytes, which the caller never gave
          throw new IllegalStateException("ShmemJob could not create the remote-event completion queue of PE " + i
              + " (node " + peNodes[i] + ", " + REMOTE_CQ_ENTRIES + " entries, " + REMOTE_CQ_ENTRIES
              * CompletionQueue.ENTRY_BYTES + " bytes of host memory): " + e.getMessage(), e);
        }
        if (i % pesPerNode == 0) {
          nodeGroups[i / pesPerNode] = new NodePes(i / pesPerNode, node);
        }
        // A descriptor of the PE's own, or, when the NIC has none free (other jobs' processes hold all 127), the one
        // numbered by its index on the node, shared as GNI_CDM_MODE_FMA_SHARED lets processes share them [S5], which
        // every PE took before stop 72
        pes[i] = new Pe(i, node, cq, nodeGroups[i / pesPerNode], node.nic().tryAttachFmaDescriptor());
        queues++;
      }
      this.barrier = allocate(INTERNAL_BYTES);
      this.staging = allocate(stagingBytes);
      this.ceResult = channels != null ? allocate(CePost.RESULT_BYTES) : null;
    } catch (RuntimeException | Error e) {
      throw undoBuild(e, queues);
    }
    // Only a job that was built takes its NICs' completion listener (a failed build took those of the jobs before)
    for (NodePes g : nodeGroups) {
      g.listen();
    }
  }

  /**
   * @return how many of the node's NIC's memory domain handles name no valid (registered) descriptor, counted up to
   *     {@code enough} (a fresh node's first handles are free, so a build's check looks at a few, not all 4,096)
   */
  private static int freeMdhs(Node node, int enough) {
    int n = 0;
    for (int mdh = 0; mdh <= NetworkAddress.MAX_MDH && n < enough; mdh++) {
      if (node.translation().descriptor(mdh).filter(MemoryDomainDescriptor::valid).isEmpty()) {
        n++;
      }
    }
    return n;
  }

  /** @return whether the node's NIC has at least {@code needed} memory domain handles with no valid descriptor */
  private static boolean hasFreeMdhs(Node node, int needed) {
    return freeMdhs(node, needed) >= needed;
  }

  /**
   * Refuses, taking nothing, a build that would fail part-way for want of room a node's state shows: a NIC with all
   * 2,048 completion queues (11-bit handle [S6e]), a NIC whose translation has too few of its 4,096 memory domain
   * handles left for the PEs' registrations (a build could take all of them until stop 71 and fail at its 11th job of
   * 127 PEs a node, keeping the frames it took), or a node whose free memory cannot hold even the frames the PE
   * registers there. Those frames are a lower bound (page tables are not counted: derived from how the system's own
   * translators allocate, frames aligned to the page size, at most 2 MiB for the flat translator, from the memory's
   * highest reservation up; where a closed job gave memory back, only their sum against all the memory free), so
   * this refuses no build that would have succeeded; memory is checked only for the system's own translators, which
   * take their frames from the node's memory (a user's translation may not). CE channels are taken first, and given
   * back, instead.
   */
  private void checkRoom(boolean collectiveEngine) {
    long align = Math.min(pageSize.bytes(), PageSize.SIZE_2M.bytes());
    long ring = PageSize.SIZE_4K.alignUp((long) REMOTE_CQ_ENTRIES * CompletionQueue.ENTRY_BYTES);
    int k = pesPerNode;
    for (int first = 0; first < peNodes.length; first += k) {
      int nodeId = peNodes[first];
      Node node = system.node(nodeId);
      String who = k == 1 ? "PE " + first : "PEs " + first + "-" + (first + k - 1);
      if (node.nic().completionQueueCount() + k - 1 > MemoryDomainDescriptor.MAX_CQ) {
        throw new IllegalStateException("ShmemJob could not create the remote-event completion queue of " + who
            + " (node " + nodeId + "): its NIC has " + (k == 1 ? "all " : node.nic().completionQueueCount() + " of its ")
            + (MemoryDomainDescriptor.MAX_CQ + 1) + " completion queues (11-bit handle)" + (k == 1 ? "" : " and the"
            + " node's PEs need one each") + "; nothing was taken");
      }
      // each PE registers its remote-event queue's ring, its barrier words, its staging buffer and, with the engine,
      // its CE result, each under an MDH of its own (12 bits: 4,096 a NIC [S6e])
      int perPe = collectiveEngine ? 4 : 3;
      if (!hasFreeMdhs(node, perPe * k)) {
        int registered = NetworkAddress.MAX_MDH + 1 - freeMdhs(node, NetworkAddress.MAX_MDH + 1);
        throw new IllegalStateException("ShmemJob could not register the memory of " + who + " (node " + nodeId
            + "): its NIC's translation has " + registered + " of its " + (NetworkAddress.MAX_MDH + 1) + " memory"
            + " domain handles registered (12-bit MDH) and the build takes " + perPe + " a PE (its remote-event queue,"
            + " barrier words, staging buffer" + (collectiveEngine ? ", collective-engine result" : "") + "), "
            + perPe * k + " for " + (k == 1 ? "it" : "the node's " + k + " PEs") + "; nothing was taken");
      }
      if (!(node.translation() instanceof Iommu
          || node.translation() instanceof FlatTranslation)) {
        continue;
      }
      SparsePhysicalMemory memory = node.memory();
      long next = memory.nextUnreserved();
      long free = memory.capacity() - next;
      long totalFree = memory.capacity() - SparsePhysicalMemory.FIRST_ALLOCATABLE - memory.allocatedBytes();
      long perPeWithoutStaging = ring + pageSize.alignUp(INTERNAL_BYTES)
          + (collectiveEngine ? pageSize.alignUp(CePost.RESULT_BYTES) : 0);
      boolean holes = memory.freedBytes() > 0;
      if (holes && k * (perPeWithoutStaging + pageSize.alignUp(stagingBytes)) <= totalFree) {
        // memory a closed job gave back lies below: the PEs' allocations may fit there (first fit), which the layout
        // above the highest reservation (below) does not show; a registration that does not fit undoes the build
        continue;
      }
      // the node's PEs' rings (4 KB pages), then each registration on a boundary of its pages, in the build's order:
      // every PE's barrier words, every PE's staging buffer, every PE's CE result; sizes at most 2^30: no overflow
      String has = "node " + nodeId + " has " + totalFree + " bytes free in its memory of " + memory.capacity()
          + " bytes (AriesSystem nodeMemoryBytes)" + (holes ? ", " + free + " of them above its highest reservation"
          : "");
      long ringEnd = next;
      for (int j = 0; j < k; j++) {
        ringEnd = PageSize.SIZE_4K.alignUp(ringEnd) + ring;
        if (ringEnd > memory.capacity()) {
          throw new IllegalStateException("ShmemJob could not create the remote-event completion queue of PE "
              + (first + j) + " (node " + nodeId + ", " + REMOTE_CQ_ENTRIES + " entries, " + ring + " bytes of host"
              + " memory): " + has + (j == 0 ? "" : " before the queues of its node's PEs " + first + "-"
              + (first + j - 1)) + "; nothing was taken");
        }
      }
      long barriersEnd = ringEnd;
      for (int j = 0; j < k; j++) {
        barriersEnd = alignUp(barriersEnd, align) + pageSize.alignUp(INTERNAL_BYTES);
      }
      long stagingStart = alignUp(barriersEnd, align);
      // the staging buffers are whole pages from a boundary, so the CE results that follow need no padding
      long after = collectiveEngine ? pageSize.alignUp(CePost.RESULT_BYTES) : 0;
      long end = stagingStart + k * (pageSize.alignUp(stagingBytes) + after);
      if (end <= memory.capacity()) {
        continue;
      }
      long stagingMax = Math.max(0, memory.capacity() - stagingStart - k * after) / k / pageSize.bytes()
          * pageSize.bytes();
      if (holes) {
        // what all the memory free could hold (the bound the check above uses), at least what the space above holds
        stagingMax = Math.max(stagingMax,
            Math.max(0, totalFree - k * perPeWithoutStaging) / k / pageSize.bytes() * pageSize.bytes());
      }
      String takes = (k == 1 ? "a " + ring + "-byte remote-event queue, barrier words" + (collectiveEngine ? ", a"
          + " collective-engine result" : "") + " and its staging buffer" : "each a " + ring + "-byte remote-event"
          + " queue, barrier words" + (collectiveEngine ? ", a collective-engine result" : "") + " and a staging"
          + " buffer") + ", in " + pageSize + " pages";
      if (stagingMax >= 64) {
        throw new IllegalStateException("ShmemJob stagingBytes must be at most " + Math.min(stagingMax, 1L << 30)
            + " (less what page tables take) for " + who + " on node " + nodeId + " but was " + stagingBytes
            + ": " + has + ", and " + (k == 1 ? "the PE registers " : "its " + k + " PEs register ") + takes
            + " there; nothing was taken");
      }
      throw new IllegalStateException("ShmemJob " + who + " " + (k == 1 ? "does" : "do") + " not fit on node "
          + nodeId + " even with the least stagingBytes (64): " + (k == 1 ? "it registers" : "they register")
          + " at least " + (stagingStart + k * (pageSize.bytes() + after) - next) + " bytes there (" + takes
          + ", before page tables) but " + has + "; choose other nodes" + (k == 1 ? "" : ", fewer pesPerNode")
          + " or raise nodeMemoryBytes; nothing was taken");
    }
  }

  private static long alignUp(long x, long align) {
    return (x + align - 1) & -align;
  }

  /**
   * Gives back what a build that failed after {@link #checkRoom} took (a failure the check could not foresee, such as
   * page tables, MDHs or the Java heap running out): every registration, then the remote-event completion queues,
   * which those registrations named (a queue a registration names cannot be destroyed), and the CE channels, with
   * the host memory they took ({@link Nic#deregisterAndFree}).
   */
  private RuntimeException undoBuild(Throwable e, int queues) {
    for (Symmetric o : objects) {
      for (int k = 0; k < pes.length; k++) {
        pes[k].node.nic().deregisterAndFree(o.mdh(k));
      }
    }
    // Nothing was posted yet, so only the registrations just undone named the queues; an Error inside allocate can
    // leave one of its registrations, whose queue is then refused: it stays, and the refusal goes with the failure.
    List<Integer> kept = new ArrayList<>();
    for (int k = 0; k < queues; k++) {
      if (pes[k].ownsDescriptor) {
        pes[k].node.nic().detachFmaDescriptor(pes[k].descriptor);
      }
      try {
        pes[k].node.nic().destroyCompletionQueue(pes[k].remoteCq.handle());
      } catch (RuntimeException x) {
        kept.add(k);
        e.addSuppressed(x);
      }
    }
    if (ceChannel != null) {
      for (int k = 0; k < ceChannel.length; k++) {
        system.node(peNodes[k * pesPerNode]).nic().destroyCollectiveChannel(ceChannel[k]);
      }
    }
    String undone = "; its collective-engine channels, registrations"
        + (queues == 0 ? "" : " and the remote-event completion queues and FMA descriptors of PE"
            + (queues == 1 ? " 0" : "s 0-" + (queues - 1))) + " were given back"
        + (kept.isEmpty() ? "" : " but for the queues of PEs " + kept
            + ", still in use (see the failure's suppressed exceptions)") + ", with the host memory they took";
    if (e instanceof Error err) {
      err.addSuppressed(new IllegalStateException("ShmemJob build failed" + undone));
      throw err;
    }
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return e instanceof IllegalArgumentException
        ? new IllegalArgumentException(m + undone, e)
        : new IllegalStateException(m + undone, e);
  }

  /**
   * A builder for a job on a system.
   *
   * @param system the system
   * @return the builder (PEs on nodes 0 and 1 unless {@link Builder#nodes} says otherwise)
   */
  public static Builder builder(AriesSystem system) {
    checkArgument(system != null, "system must not be null");
    return new Builder(system);
  }

  /** @return whether the job's puts and atomics ask for REMOTE events ({@link Builder#remoteEvents(boolean)}) */
  public boolean remoteEvents() {
    return (putModes & Post.REMOTE_EVENT) != 0;
  }

  /**
   * @return whether a put or get between two PEs of one node is a CPU copy through shared memory ({@link
   *     Builder#sharedMemory(boolean)}; it matters only with {@link #pesPerNode()} above 1)
   */
  public boolean sharedMemory() {
    return sharedMemory;
  }

  /** @return the rate of on-node copies, bytes a second ({@link Builder#memcpyBytesPerSecond}) */
  public double memcpyBytesPerSecond() {
    return memcpyBytesPerSecond;
  }

  /**
   * @return puts and gets so far, over all runs, that were CPU copies between two PEs of one node ({@link
   *     Builder#sharedMemory(boolean)}), not NIC transactions
   */
  public long onNodeCopies() {
    long n = 0;
    for (Pe pe : pes) {
      n += pe.onNodeCopies; // counted per PE, as faults are
    }
    return n;
  }

  /** @return number of PEs */
  public int nPes() {
    return pes.length;
  }

  /** @return PEs on each node ({@link Builder#pesPerNode}) */
  public int pesPerNode() {
    return pesPerNode;
  }

  /** @param pe a PE @return its node */
  public int nodeOf(int pe) {
    checkPe("pe", pe);
    return peNodes[pe];
  }

  /** @return the system the job runs on */
  public AriesSystem system() {
    return system;
  }

  /**
   * Allocates a symmetric object on every PE (before or between runs).
   *
   * <p>When a PE's registration is refused (its node's memory, MDHs or the Java heap run out), the registrations
   * already made on the PEs before it are deregistered, so no PE holds a handle of an object that does not exist, and
   * the refusal names the PE and node. Their memory is given back with them ({@link Nic#deregisterAndFree}).
   *
   * @param bytes bytes per PE, in [1, 2^40] (a registration's longest)
   * @return the object
   * @throws IllegalStateException when a PE's node refuses the registration (the cause holds its reason), or when
   *     called while the job runs
   */
  public Symmetric allocate(long bytes) {
    checkArgument(bytes >= 1 && bytes <= NetworkAddress.MAX_OFFSET + 1,
        "bytes must be in [1, 2^40] (a registration's longest) but was %s", bytes);
    if (runner != null) {
      // misuse of state, not a bad argument: the same call succeeds once run returns
      throw new IllegalStateException(
          "allocate may not be called while the job runs: allocate before run or after it returns");
    }
    if (closed) {
      throw new IllegalStateException("allocate may not be called on a closed job (ShmemJob.close gave back its"
          + " registrations); build a new ShmemJob on the system");
    }
    // (before any registration: from a thread other than the clock's, while another job runs, its registrations
    // changed NICs under that run and killed it)
    system.checkClockOwner("ShmemJob.allocate");
    long length = pageSize.alignUp(bytes);
    long base = pageSize.alignUp(nextVirtual);
    int[] mdhs = new int[pes.length];
    for (int i = 0; i < pes.length; i++) {
      Nic nic = pes[i].node.nic();
      NicConfig c = nic.config();
      MemoryRegistration r = new MemoryRegistration(base, length, pageSize, true, c.protectionTag(),
          c.protectionKey(), 0, pes[i].remoteCq.handle(), false);
      MemoryDomainDescriptor d;
      try {
        d = nic.register(r);
      } catch (RuntimeException e) {
        for (int k = 0; k < i; k++) {
          pes[k].node.nic().deregisterAndFree(mdhs[k]);
        }
        throw new IllegalStateException("allocate of " + bytes + " bytes a PE was refused on PE " + i + " (node "
            + pes[i].node.id() + ")" + (i > 0 ? "; its registrations on PEs 0-" + (i - 1) + " were undone" : "")
            + ": " + e.getMessage(), e);
      }
      mdhs[i] = d.mdh();
    }
    nextVirtual = base + length;
    Symmetric s = new Symmetric(this, objects.size(), bytes, base, mdhs);
    objects.add(s);
    return s;
  }

  /**
   * Where a call refused while this job runs comes from, for its message: one of its own PEs (its program, or its
   * {@code waitUntil} condition being tested), the thread that runs it (an event's handler), or another thread, named
   * with the one that runs it. Every such call was said to come "from one of its own PEs", an unrelated thread's too
   * (stop 77's concurrency hunt). Only the refusal pays for it.
   */
  private String callerWhileRunning() {
    Thread me = Thread.currentThread();
    for (Pe pe : pes) {
      if (pe.thread == me || pe.polling == me) {
        return "from its own PE " + pe.index;
      }
    }
    Thread runs = runCaller;
    if (runs == me) {
      return "from inside its run, on thread \"" + me.getName() + "\" that runs it";
    }
    return "from thread \"" + me.getName() + "\" while " + (runs == null ? "another thread" : "thread \""
        + runs.getName() + "\"") + " runs it";
  }

  /**
   * Runs the program on every PE until all have returned.
   *
   * @param program the PE code
   * @throws IllegalStateException when PEs are left waiting forever (a deadlock in the program)
   * @throws ProcessRunner.ProcessFailedException when a PE's code threw
   * @throws IllegalStateException also when a run of this job failed before (its state is then undefined: build a
   *     new job) or when called from inside its own run; and, changing nothing, when called from a thread other than
   *     the one the system's clock belongs to ({@link AriesSystem#checkClockOwner})
   */
  public void run(ShmemProgram program) {
    checkArgument(program != null, "program must not be null");
    if (runner != null) {
      throw new IllegalStateException("run was called while this job runs (" + callerWhileRunning() + "): a job runs"
          + " one program at a time");
    }
    if (closed) {
      throw new IllegalStateException("this job cannot run again: it was closed (ShmemJob.close gave back its"
          + " registrations, queues and descriptors); build a new ShmemJob on the system");
    }
    if (failedRun != null) {
      throw new IllegalStateException("this job cannot run again: a run of it failed (" + failedRun + "), which"
          + " leaves its PEs' barrier and message state undefined; build a new ShmemJob on the system");
    }
    // before anything changes: the loop's own refusal came from inside the run, which then counted as failed and the
    // job could never run again, even once the loop was handed to this thread
    system.checkClockOwner("ShmemJob.run");
    // kept in the fields only when the run completes: a failed run set the start and not the end, and lastRunPs()
    // was then negative
    long startPs = system.now();
    // A NIC has one completion listener: another job built on these nodes since this one took them has it now, and
    // this run's PEs would never be woken (a correct program was reported as deadlocked). Take it back for the run.
    for (NodePes g : nodeGroups) {
      g.listen();
    }
    try (ProcessRunner r = system.newProcessRunner()) {
      // Each PE watches its NIC's host writes while the run lasts, for waitUntil (each PE its own words, a job one
      // program at a time; the finally below removes them)
      for (Pe pe : pes) {
        pe.node.nic().addHostWriteProbe(pe.writeWatch);
      }
      runCaller = Thread.currentThread();
      runner = r;
      for (Pe pe : pes) {
        // each PE runs in its node's group: on a system with threads, its group's thread runs it
        pe.process = r.spawn("pe" + pe.index, system.groupOfNode(pe.node.id()),
            system.cpuTime(pe.node.id()), self -> {
          pe.thread = Thread.currentThread();
          program.run(pe);
          pe.finishedAtPs = self.now();
          // a get the program never waited for still lands its bytes before the run ends, as one in whole words does
          // (it is not in lastRunPs either): the library's copies out of its bounce slots
          pe.settleBouncedGets();
        });
      }
      r.run();
      List<SimProcess> stuck = r.unfinished();
      if (!stuck.isEmpty()) {
        String held = system.refusedInjectionsNote();
        throw new IllegalStateException("SHMEM program deadlocked: " + stuck.size() + " PEs still waiting, e.g. "
            + stuck.get(0).name() + (held.isEmpty() ? "" : "; " + held));
      }
    } catch (RuntimeException | Error e) {
      failedRun = firstLine(e);
      throw e;
    } finally {
      runner = null;
      runCaller = null;
      for (Pe pe : pes) {
        pe.process = null;
        pe.thread = null;
        pe.watchedWord = -1;
        pe.node.nic().removeHostWriteProbe(pe.writeWatch);
      }
    }
    lastRunStartPs = startPs;
    lastRunEndPs = pes.length == 0 ? startPs : maxFinish(startPs);
  }

  private long maxFinish(long startPs) {
    long m = startPs;
    for (Pe pe : pes) {
      m = Math.max(m, pe.finishedAtPs);
    }
    return m;
  }

  /** What the failed run said, first line (the job cannot run again), or null. */
  private String failedRun;
  /** Whether {@link #close} gave back what the job took (it cannot run again). */
  private boolean closed;

  /**
   * Ends the job on its nodes, as a batch system ends one, so that later jobs can be built there with what it held:
   * every symmetric object's registrations (the job's barrier words, staging buffers and collective-engine results
   * among them, {@code GNI_MemDeregister}), each PE's remote-event completion queue ({@code GNI_CqDestroy}) and FMA
   * descriptor ({@code GNI_CdmDestroy}), and with the collective engine each node's channel ({@code GNI_CeDestroy}).
   * A node's NIC has 4,096 memory handles, 2,048 queues, 127 descriptors and 4 engine channels [S5, S6e, S1 p.19]:
   * without this the jobs built one after another on a node run out of them (the fifth using the engine; with 127
   * PEs a node the eleventh, for want of handles), and jobs left open make later ones share FMA descriptors. The
   * job's counters ({@link #faults}, {@link #lastRunPs}) stay readable; its objects' memory does not (read results
   * before closing). It cannot run or allocate again, and closing it again does nothing.
   *
   * <p>The host memory those registrations and queues took goes back to each node's memory with them ({@link
   * Nic#deregisterAndFree}, as when a process exits), so a later job can be built there in it. A NIC keeps it reserved
   * only if the IOMMU is translating for another job on the node at that moment (docs/iommu.md, "Memory given
   * back").
   *
   * <p>Refused, changing nothing, while a run of the job is under way, while one of its PEs' operations may still be
   * in flight (a run that failed can leave some; they complete as the simulation runs on, {@link
   * AriesSystem#runPending()}), while the NIC may still write into a PE's queue, or while a reduction is in progress
   * on one of its channels. A job whose run failed with a collective-engine reduction that a PE never contributed to
   * (it never completes) closes once nothing is pending in the system ({@link AriesSystem#pendingEvents()} 0, after
   * {@link AriesSystem#runPending()}): its channels are abandoned ({@link Nic#abandonCollectiveChannel}), as the
   * driver frees them when the processes exit (until stop 74 it could not be closed). Not closable: a job whose
   * registrations, queue or descriptors were given back outside it through the NIC. Refused also from a thread that
   * does not own the system's clock (a process of another job running on the system).
   *
   * @throws IllegalStateException naming the PE or node and what is still in flight, or the run under way
   */
  public void close() {
    if (closed) {
      return;
    }
    if (runner != null) {
      throw new IllegalStateException("this job cannot be closed while it runs (close was called "
          + callerWhileRunning() + "): close it after run returns");
    }
    // (a process of another job, running on the system, would change this job's NICs from its group's thread)
    system.checkClockOwner("ShmemJob.close");
    for (Pe pe : pes) {
      Nic nic = pe.node.nic();
      String lost = pe.ownsDescriptor && !nic.fmaDescriptorAttached(pe.descriptor)
          ? "its FMA descriptor " + pe.descriptor + " was detached outside the job (Nic.detachFmaDescriptor)"
          : nic.completionQueue(pe.remoteCq.handle()) != pe.remoteCq
              ? "its completion queue was destroyed outside the job" : null;
      for (int k = 0; k < objects.size() && lost == null; k++) {
        int mdh = objects.get(k).mdh(pe.index);
        if (pe.node.translation().descriptor(mdh).filter(d -> d.valid()).isEmpty()) {
          lost = "its registration mdh " + mdh + " was deregistered outside the job";
        }
      }
      if (lost != null) {
        throw new IllegalStateException("this job cannot be closed: PE " + pe.index + " on node " + pe.node.id()
            + ": " + lost + "; nothing was given back");
      }
    }
    // A failed run may leave a collective-engine reduction a PE never contributed to: it can never complete. Once
    // nothing is pending in the system (nothing of the job in flight), its channels are abandoned, as the driver frees
    // them when the processes exit, so that the job closes (until stop 74 it kept its NIC resources).
    if (ceChannel != null && failedRun != null && system.pendingEvents() == 0) {
      for (int k = 0; k < ceChannel.length; k++) {
        Nic nic = pes[k * pesPerNode].node.nic();
        if (ceChannel[k] >= 0 && nic.collectiveReductionInProgress(ceChannel[k])) {
          nic.abandonCollectiveChannel(ceChannel[k]);
          ceChannel[k] = -1; // the NIC's no more
        }
      }
    }
    for (Pe pe : pes) {
      // A PE counts its posts until their GLOBAL events; when another job has taken the NIC's listener since a failed
      // run, the events of this job's last posts are not seen here, but then a NIC with no unfinished post at all
      // shows that none of them is left.
      if (pe.outstanding > 0 && pe.node.nic().unfinishedPosts() > 0 || pe.remoteCq.writesPending()) {
        throw new IllegalStateException("this job cannot be closed yet: PE " + pe.index + " on node " + pe.node.id()
            + " has an operation not complete or an event on its way into its completion queue (they land as the"
            + " simulation runs on: AriesSystem.runPending()); nothing was given back");
      }
    }
    if (ceChannel != null) {
      for (int k = 0; k < ceChannel.length; k++) {
        Nic nic = pes[k * pesPerNode].node.nic();
        if (ceChannel[k] >= 0 && nic.collectiveReductionInProgress(ceChannel[k])) {
          throw new IllegalStateException("this job cannot be closed yet: node " + nic.nodeId() + " has a"
              + " collective-engine reduction in progress on its channel " + ceChannel[k] + " (run the simulation on"
              + " until it completes: AriesSystem.runPending()" + (failedRun != null ? "; the job's run failed, so a"
              + " PE may never contribute: once nothing is pending, close abandons the reduction" : "")
              + "); nothing was given back");
        }
      }
    }
    for (Symmetric o : objects) {
      for (int k = 0; k < pes.length; k++) {
        pes[k].node.nic().deregisterAndFree(o.mdh(k));
      }
    }
    for (Pe pe : pes) {
      pe.node.nic().destroyCompletionQueue(pe.remoteCq.handle());
      if (pe.ownsDescriptor) {
        pe.node.nic().detachFmaDescriptor(pe.descriptor);
      }
    }
    if (ceChannel != null) {
      for (int k = 0; k < ceChannel.length; k++) {
        if (ceChannel[k] >= 0) {
          pes[k * pesPerNode].node.nic().destroyCollectiveChannel(ceChannel[k]);
        }
      }
    }
    closed = true;
  }

  /** @return whether {@link #close} has given back what the job took */
  public boolean closed() {
    return closed;
  }

  private static String firstLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  /**
   * The program's time. A PE's puts that it never waited for ({@code quiet}, {@code barrierAll}) still complete
   * before {@link #run} returns, but after the PE returned, so they are not in this figure: time puts with a {@code
   * quiet()} at the end (a run of one 1 MiB putmemNbi and no quiet gives 0 here; with the quiet, the put's 200 µs; a
   * blocking putmem returns when its source has been read, since stop 74).
   *
   * @return simulated time from the start of the last run that completed until its last PE returned, picoseconds (0
   *     before any; a run that failed leaves the figure of the run before it)
   */
  public long lastRunPs() {
    return lastRunEndPs - lastRunStartPs;
  }

  /** @return operations that completed with a modelled fault, over all runs */
  public long faults() {
    long n = 0;
    for (Pe pe : pes) {
      n += pe.faults; // counted per PE: on a system with threads, PEs of different groups complete concurrently
    }
    return n;
  }

  /** @return the first fault seen (the earliest; at one picosecond, the lowest PE's), or OK */
  public Status firstFault() {
    Pe first = null;
    for (Pe pe : pes) {
      if (pe.firstFault != Status.OK && (first == null || pe.firstFaultAtPs < first.firstFaultAtPs)) {
        first = pe;
      }
    }
    return first == null ? Status.OK : first.firstFault;
  }

  private void checkPe(String what, int pe) {
    if (pe < 0 || pe >= pes.length) {
      throw new IllegalArgumentException(what + " must be in [0, " + (pes.length - 1) + "] but was " + pe);
    }
  }

  /**
   * How many NIC transactions a {@link Shmem#putmem}, {@link Shmem#getmem} or {@link Shmem#getmemNbi} is posted as,
   * and so how many remote events a putmem writes at its target: 1 up to 2^32 - 1 bytes (the BTE's 32-bit
   * {@code xfer_len} [S6a]), more beyond, cut on 64-byte boundaries of the remote offset (an assumed cut that
   * changes no packet: DMAPP's own is not published).
   *
   * @param remoteOffset the remote object's offset (putmem's {@code destOffset}, a get's {@code srcOffset}), in
   *     [0, 2^40 - 1]
   * @param length the transfer's bytes, in [0, 2^40 - remoteOffset]
   * @return the transactions, at least 1
   */
  public static long nicTransactions(long remoteOffset, long length) {
    checkArgument(remoteOffset >= 0 && remoteOffset <= NetworkAddress.MAX_OFFSET,
        "remoteOffset must be in [0, 2^40 - 1] but was %s", remoteOffset);
    checkArgument(length >= 0 && length <= NetworkAddress.MAX_OFFSET + 1 - remoteOffset,
        "length must be in [0, 2^40 - remoteOffset] = [0, %s] but was %s", NetworkAddress.MAX_OFFSET + 1 - remoteOffset,
        length);
    return TransferSplit.parts(remoteOffset, length);
  }

  /** @return routing of PUTs and AMOs when the builder sets none: MIN_HASH, DMAPP's default [S8] */
  public static DeliveryMode defaultPutMode() {
    return DeliveryMode.MIN_HASH;
  }

  /** @return routing of GETs when the builder sets none: ADAPTIVE_0, DMAPP's default [S8] */
  public static DeliveryMode defaultGetMode() {
    return DeliveryMode.ADAPTIVE_0;
  }

  /** Settings of a job. */
  public static final class Builder {
    private final AriesSystem system;
    private int[] nodes = {0, 1};
    private boolean nodesGiven;
    private int pesPerNode = 1;
    // assumed: no source read here says which pages Cray SHMEM's symmetric heap uses by default (huge pages come with
    // a craype-hugepages module); MpiConfig's default is 2 MB for Cray MPICH. docs/nic.md's gups figures show the gap
    private PageSize pageSize = PageSize.SIZE_4K;
    private DeliveryMode deliveryMode; // null: DMAPP's defaults, PUTs and AMOs MIN_HASH, GETs ADAPTIVE_0 [S8]
    private long stagingBytes = 1L << 20;
    private int collectiveEngineRadix; // 0: software barriers
    private boolean remoteEvents; // false: as DMAPP's puts and AMOs, nothing written at the target but the data [S8]
    // true: Cray OpenSHMEMX on XC (SMP-DMAPP) copies on-node data with XPMEM, on by default with several PEs a node
    // (SHMEM_LOCALITY_ONNODE, SHMEM_USE_SMP; docs/using-the-library.md, "On-node puts and gets")
    private boolean sharedMemory = true;
    // the MPI layer's host copy rate (assumed there, docs/mpi.md): the same thing, one core's memory copy on a node
    private double memcpyBytesPerSecond = MpiConfig.defaults().memcpyBytesPerSecond();

    private Builder(AriesSystem system) {
      this.system = system;
    }

    /**
     * @param n the nodes, distinct, within the system: PE i runs on {@code n[i / pesPerNode]} ({@link #pesPerNode})
     * @return this builder
     */
    public Builder nodes(int... n) {
      checkArgument(n != null && n.length >= 1, "nodes must name at least one node");
      java.util.Set<Integer> seen = new java.util.HashSet<>();
      for (int x : n) {
        checkArgument(x >= 0 && x < system.nodeCount(), "node must be in [0, %s] but was %s",
            system.nodeCount() - 1, x);
        checkArgument(seen.add(x), "nodes must be distinct but %s appears twice", x);
      }
      this.nodes = n.clone();
      this.nodesGiven = true;
      return this;
    }

    /**
     * PEs on each node, each a process of its own with its own FMA descriptor (an Aries NIC has 127 [S1 p.19]), placed
     * in blocks as ALPS places a job's PEs by default ({@code aprun -N}, assumed here as for MPI ranks): PEs 0 to k - 1
     * on the first node of {@link #nodes}, PEs k to 2k - 1 on the second, and so on. Unset, one PE a node.
     *
     * @param k PEs a node, 1 to 127
     * @return this builder
     */
    public Builder pesPerNode(int k) {
      checkArgument(k >= 1 && k <= MAX_PES_PER_NODE, "pesPerNode must be in [1, %s] (one FMA descriptor a PE, 127 a"
          + " NIC [S1 p.19]) but was %s", MAX_PES_PER_NODE, k);
      this.pesPerNode = k;
      return this;
    }

    /** @param s page size of every registration @return this builder */
    public Builder pageSize(PageSize s) {
      checkArgument(s != null, "pageSize must not be null");
      this.pageSize = s;
      return this;
    }

    /**
     * The delivery mode of every post. It chooses the route only on a system routed by delivery mode (the system
     * builder's default); {@link #build()} refuses it on a system built with an explicit {@code routing(...)}, which
     * routes every packet alike whatever its mode.
     *
     * @param m delivery mode of every post (unset: DMAPP's defaults [S8], PUTs and AMOs deterministic MIN_HASH, GETs
     *     ADAPTIVE_0)
     * @return this builder
     */
    public Builder deliveryMode(DeliveryMode m) {
      checkArgument(m != null, "deliveryMode must not be null");
      this.deliveryMode = m;
      return this;
    }

    /** @param bytes staging buffer per PE for array puts and gets, 64 B to 1 GiB @return this builder */
    public Builder stagingBytes(long bytes) {
      checkArgument(bytes >= 64 && bytes <= (1L << 30), "stagingBytes must be in [64, 2^30] but was %s", bytes);
      this.stagingBytes = bytes;
      return this;
    }

    /**
     * Runs {@link Shmem#barrierAll()} on the NICs' collective engine (docs/nic.md, "Collective engine"), as Cray
     * SHMEM's barrier over DMAPP may: one CE channel on each PE's node, in a tree of {@code radix} children a channel
     * (GASNet's published default for its Aries CE barrier is 2 [S9]). Unset, barriers are software (a dissemination
     * barrier of remote atomics).
     *
     * @param radix child channels a channel has, 1 to 31
     * @return this builder
     */
    public Builder collectiveEngine(int radix) {
      checkArgument(radix >= 1 && radix <= 31, "collectiveEngine radix must be in [1, 31] but was %s", radix);
      this.collectiveEngineRadix = radix;
      return this;
    }

    /**
     * Whether every put and atomic of the program asks for a REMOTE event at its target (uGNI's {@code
     * GNI_CQMODE_REMOTE_EVENT} [S5]), so that {@link Shmem#remoteEvents()} counts the transactions that arrived at a PE
     * and {@link Shmem#waitRemoteEvents} can wait for them: a uGNI-level program's way to learn that data arrived. The
     * atomics of {@link Shmem#barrierAll()}'s software barrier ask for none either way (since stop 74; they were
     * counted with the program's, and cost their targets a queue entry each). Unset, a job
     * does as Cray SHMEM over DMAPP: its puts and atomics carry no notification (DMAPP's put and AMO calls have no
     * argument for one [S8]), a PE learns of remote writes by testing its memory ({@link Shmem#waitUntil}, woken when
     * the NIC writes the word), and the target's NIC writes no completion-queue entry for them. Until stop 67 every job
     * asked for the events: each put and atomic cost its target a completion-queue entry (its translation and an
     * event), and each atomic an 8-byte write over the host link (a put's event is visible with its data's write).
     *
     * @param on whether puts and atomics ask for REMOTE events
     * @return this builder
     */
    public Builder remoteEvents(boolean on) {
      this.remoteEvents = on;
      return this;
    }

    /**
     * How a put or get between two PEs of one node moves ({@link #pesPerNode} above 1). On (the default, since stop
     * 71): a CPU copy by the PE that makes it, through the other PE's segment mapped into its address space, as Cray
     * OpenSHMEMX on XC does with XPMEM (its SMP-DMAPP transport; {@code SHMEM_LOCALITY_ONNODE}, on by default with more
     * than one PE a node, and no size limit by default, {@code SHMEM_SMP_SIZE_LIMIT} -1; docs/using-the-library.md,
     * "On-node puts and gets"). The NIC sees none of it. Atomics go through the NIC either way. Off: through the NIC,
     * a loopback (as until stop 71; OpenSHMEMX's {@code SHMEM_LOCALITY_ONNODE=0}). With one PE a node it changes
     * nothing.
     *
     * @param on true for CPU copies through shared memory, false for the NIC loopback
     * @return this builder
     */
    public Builder sharedMemory(boolean on) {
      this.sharedMemory = on;
      return this;
    }

    /**
     * The rate of on-node copies ({@link #sharedMemory(boolean)}): one core copying between two processes' memory
     * on a node. Unset, the MPI layer's {@link MpiConfig#memcpyBytesPerSecond()} (16 GB/s, assumed there: docs/mpi.md,
     * "Software costs"), the rate of the same physical thing in Cray MPICH's on-node copies.
     *
     * @param bytesPerSecond in [84000, 1e12], or Infinity for copies that take only their cache latency
     * @return this builder
     */
    public Builder memcpyBytesPerSecond(double bytesPerSecond) {
      SimTime.checkRate("memcpyBytesPerSecond", bytesPerSecond, true);
      this.memcpyBytesPerSecond = bytesPerSecond;
      return this;
    }

    /**
     * Builds the job: each PE's NIC gets a remote-event completion queue, its staging buffer and barrier words are
     * registered, and with {@link #collectiveEngine} one CE channel a node is taken.
     *
     * <p>A build that cannot complete leaves the system as if it had not been tried, so a later build gets what it
     * would have got: before anything is taken it refuses a node whose NIC has all 2,048 completion queues or whose
     * free memory cannot hold the frames the PE registers there (naming the PE, the node, {@link #stagingBytes}' bound
     * and value and the node's free bytes), and it takes the CE channels before anything else. A failure no check can
     * foresee (page tables, MDHs or the Java heap running out, a user's translation) gives back the channels,
     * registrations and the completion queues already made ({@link Nic#destroyCompletionQueue}), with the host
     * memory they took; the refusal says so.
     *
     * @return the job
     * @throws IllegalArgumentException naming both settings when {@link #deliveryMode} was given for a system whose
     *     router fabric has an explicit routing (the mode would silently have no effect on the route), or when
     *     {@link #remoteEvents(boolean) remoteEvents(true)} was given with {@link #pesPerNode} above 1 and {@link
     *     #sharedMemory(boolean)} on (an on-node put writes no REMOTE event: {@link Shmem#waitRemoteEvents} would
     *     wait for ever), or when no {@link #nodes} were given and the system lacks the default's node 1
     * @throws IllegalStateException when a PE's node has no room for it (above), or has no free CE channel
     */
    public ShmemJob build() {
      // first: building takes completion queues, channels and descriptors on the nodes' NICs, which a thread other
      // than the clock's would change under a run of another job
      system.checkClockOwner("ShmemJob.Builder.build");
      if (!nodesGiven && system.nodeCount() < nodes.length) {
        // the default names a node the system lacks: refused here, naming the default, before any PE takes a queue
        // (it failed as "node id must be in [0, 0] but was 1" after node 0's NIC had made a completion queue)
        throw new IllegalArgumentException("ShmemJob nodes must be given for a system of " + system.nodeCount()
            + " node: the default, nodes(0, 1), names node 1, which it does not have (give nodes(0) for one PE)");
      }
      if (remoteEvents && sharedMemory && pesPerNode > 1) {
        throw new IllegalArgumentException("ShmemJob remoteEvents(true) cannot be combined with pesPerNode("
            + pesPerNode + ") and sharedMemory(true): a put between two PEs of one node is then a CPU copy, which writes"
            + " no REMOTE event at its target; give sharedMemory(false) to send on-node puts through the NIC, or one PE a"
            + " node");
      }
      String routing = system.routingName();
      if (deliveryMode != null && system.routerFabric().isPresent()
          && !routing.equals(AriesSystem.Builder.BY_DELIVERY_MODE)) {
        throw new IllegalArgumentException("ShmemJob deliveryMode(" + deliveryMode + ") cannot be combined with "
            + "AriesSystem routing(\"" + routing + "\"): that routing routes every packet alike, so the delivery "
            + "mode would not choose the route; give one of them (routing(\"" + AriesSystem.Builder.BY_DELIVERY_MODE
            + "\") lets the delivery mode choose)");
      }
      return new ShmemJob(this);
    }
  }

  /**
   * The PEs of one node and the node's share of its NIC: as the NIC's one completion listener it hands each event of
   * a post to the PE that made it (by the post id's {@link #LOCAL_PE_SHIFT} bits), and each REMOTE event to every PE
   * of the node, which counts it if its own queue holds it; with the collective engine it holds the node phase of
   * {@link Shmem#barrierAll()}.
   */
  private final class NodePes {
    final int index;
    final Node node;
    final Pe[] members = new Pe[pesPerNode];
    /** Arrivals of the node's other PEs at engine barriers so far (node phase, shared memory). */
    long arrivals;
    /** The last engine barrier whose result the node's first PE has released to the others. */
    long released;

    NodePes(int index, Node node) {
      this.index = index;
      this.node = node;
    }

    /** Takes the node's NIC's completion listener for this job. */
    void listen() {
      node.nic().completionListener(this::onEvent);
    }

    void onEvent(CompletionEvent e) {
      if (e.type() == CompletionType.REMOTE) {
        for (Pe pe : members) {
          pe.onEvent(e);
        }
        return;
      }
      if (!AriesSystem.postOfJob(e.postId(), jobNumber)) {
        return; // another job's post, left in flight by its failed run (see jobNumber)
      }
      members[(int) (e.postId() >>> LOCAL_PE_SHIFT) & 0x7F].onEvent(e);
    }

    /** Wakes the node's first PE, which waits on {@link #arrivals}. */
    void wakeFirst() {
      Pe first = members[0];
      if (first.process != null && runner != null) {
        runner.wake(first.process);
      }
    }

    /** Wakes the node's PEs but one (they wait on {@link #released}). */
    void wakeAllBut(Pe me) {
      for (Pe pe : members) {
        if (pe != me && pe.process != null && runner != null) {
          runner.wake(pe.process);
        }
      }
    }
  }

  private final class Pe implements Shmem {
    final int index;
    final Node node;
    final CompletionQueue remoteCq;
    /** This PE's node and its index among the node's PEs. */
    final NodePes group;
    final int local;
    /**
     * The FMA descriptor this PE posts through, attached on its NIC as the job was built: its own, as uGNI gives each
     * process's communication domain [S5 {@code gni_pub.h}; S1 p.19]. The node's first job takes 0 to pesPerNode - 1
     * in PE order, as every job did (its local index) until stop 72; a job built beside another takes free ones, and
     * with none free shares the one its local index names ({@link #ownsDescriptor} false).
     */
    final int descriptor;
    /** Whether {@link #descriptor} was attached for this PE (and is detached when the job closes). */
    final boolean ownsDescriptor;
    SimProcess process;
    /** The thread of this PE's program while a run lasts (set as the program starts), else null. */
    Thread thread;
    /** The thread testing this PE's {@link #waitUntil} condition now (the runner may test it on another's), else null. */
    Thread polling;
    /** Whether this PE's {@link #waitUntil} condition, the program's code, is being tested now ({@link #notInCondition}). */
    boolean inCondition;
    long nextPostId; // no two jobs on a system share a post id, no two PEs of a node
    int outstanding;
    /**
     * Posts of a blocking put ({@link #putmem}, {@link #put}) whose source the NIC may still read: each leaves at its
     * first event (LOCAL when every request has left, or an error; the GLOBAL event comes after), and the put returns
     * when none is left, as {@code shmem_putmem} returns when its source may be reused.
     */
    final java.util.Set<Long> sourcePending = new java.util.HashSet<>();
    final Map<Long, CompletionEvent> awaited = new HashMap<>();
    /** Transfers posted as several NIC transactions ({@link TransferSplit}) with parts still outstanding. */
    final SplitTransfers splits = new SplitTransfers();
    /** This PE's bounce slots in use: bit s for slot s of {@link #BOUNCE_SLOTS}. */
    long bounceSlotsInUse;
    /**
     * This PE's gets that read words beyond the bytes asked ({@link WordGet}) and whose bytes have not yet been copied
     * out of their bounce slot, oldest first: a blocking get settles its own before it returns, {@link #quiet()}
     * every one.
     */
    final java.util.ArrayDeque<BouncedGet> bounced = new java.util.ArrayDeque<>();
    Status lastStatus = Status.OK;
    /** Latency of the last local access through the host cache (its slowest part), picoseconds. */
    long lastHostLatencyPs;
    long barrierEpoch;
    long remoteEvents;
    /**
     * The physical address of the word this PE's {@link #waitUntil} tests while it waits, else -1: a write of the NIC's
     * to it wakes the PE when the host can see it ({@link #onHostWrite}), as a CPU spinning on the word would see it.
     */
    long watchedWord = -1;
    /** The last landing time {@link #lookAgainWhenALandingWriteIsVisible} scheduled a test for. */
    long lookAgainAtPs = -1;
    /** The physical address of the first byte of the last host access ({@link #hostAccess}). */
    long lastAccessPa;
    /** This PE's observer of its NIC's host writes, added while a run lasts. */
    final HostWriteListener writeWatch = this::onHostWrite;
    long faults;
    /** This PE's puts and gets that were CPU copies to or from another PE of its node. */
    long onNodeCopies;
    /** The buffer this PE's on-node copies move their bytes through, grown to the largest chunk copied so far. */
    private byte[] onNodeBuffer = new byte[0];
    Status firstFault = Status.OK;
    long firstFaultAtPs;
    /** The node's clock: the loop, or its group's scheduler on a system with threads. */
    final io.github.ariesmodel.core.spi.Scheduler clock;
    long finishedAtPs;

    Pe(int index, Node node, CompletionQueue remoteCq, NodePes group, int attached) {
      this.index = index;
      this.ownsDescriptor = attached >= 0;
      this.descriptor = attached >= 0 ? attached : index % pesPerNode;
      this.node = node;
      this.clock = system.scheduler(node.id());
      this.remoteCq = remoteCq;
      this.group = group;
      this.local = index % pesPerNode;
      this.nextPostId = AriesSystem.firstPostId(jobNumber) + ((long) local << LOCAL_PE_SHIFT);
      group.members[local] = this;
    }

    void onEvent(CompletionEvent e) {
      if (e.type() != CompletionType.REMOTE && !AriesSystem.postOfJob(e.postId(), jobNumber)) {
        return; // another job's post, left in flight by its failed run (see jobNumber)
      }
      if (e.type() == CompletionType.REMOTE) {
        // Counted from this PE's own queue, which its registrations name: the listener also sees the REMOTE events of
        // another job's registrations on the node (a failed run's puts in flight), which land in that job's queue.
        takeRemoteEvents();
      } else {
        SplitTransfers.Transfer split = splits.isEmpty() ? null : splits.of(e.postId());
        if (e.isError()) {
          lastStatus = e.status();
          // An operation's fault is counted on its GLOBAL event, which every SHMEM post asks for and a failed
          // transaction always reports; a put's LOCAL event may carry the same fault when the error response beat its
          // last request out, and counting that too made one fault two (stop 64's fault hunt). A split transfer is
          // one operation: its first faulting part counts it, as a single post's fault would.
          if (e.type() == CompletionType.GLOBAL && (split == null || split.faulted())) {
            faults++;
            if (firstFault == Status.OK) {
              firstFault = e.status();
              firstFaultAtPs = clock.now();
            }
          }
        }
        if (!sourcePending.isEmpty()) {
          sourcePending.remove(e.postId()); // its requests have left (or ended): its source may be reused
        }
        if (awaited.containsKey(e.postId()) && (e.type() == CompletionType.GLOBAL || e.isError())) {
          awaited.put(e.postId(), e);
        }
        if (e.type() == CompletionType.GLOBAL) {
          outstanding--;
          if (split != null) {
            splits.partCompleted(split);
          }
        }
      }
      if (process != null && runner != null) {
        runner.wake(process);
      }
    }

    /**
     * The NIC wrote host memory of this node: when the write covers the word this PE waits on, the PE wakes when the
     * host can see it (now, or by an event then) and tests its condition again.
     */
    private void onHostWrite(long visiblePs, long physicalAddress, int length) {
      long w = watchedWord;
      if (w < 0 || physicalAddress >= w + 8 || physicalAddress + length <= w || process == null || runner == null) {
        return;
      }
      if (visiblePs <= clock.now()) {
        runner.wake(process);
      } else {
        clock.scheduleAt(visiblePs, WRITE_VISIBLE, this, 0);
      }
    }

    /**
     * The watched word has a NIC write on its way that was made before this PE began to wait (so {@link #onHostWrite}
     * did not see it): tests again when it lands, once a landing time.
     */
    private void lookAgainWhenALandingWriteIsVisible() {
      long landing = node.nic().nextHostWriteLanding(watchedWord, 8);
      // (a landing now has not run yet: it was scheduled before this test's event, so a look scheduled now follows it)
      if (landing >= clock.now() && landing != lookAgainAtPs) {
        lookAgainAtPs = landing;
        clock.scheduleAt(landing, WRITE_VISIBLE, this, 0);
      }
    }

    /** A write this PE waits for is visible now ({@link #onHostWrite}): wakes it if it still runs and waits. */
    void writeVisible() {
      if (process != null && runner != null && watchedWord >= 0) {
        runner.wake(process);
      }
    }

    private long post(Post p) {
      return post(p, false);
    }

    /**
     * Posts, and with {@code await} registers the post's GLOBAL event for {@link #awaitGlobal} first: the PE waits for
     * its post's stores here, and an event that completes meanwhile (an operating-system detour can hold the PE that
     * long) must find the registration, or the wait after would never end.
     */
    private long post(Post p, boolean await) {
      if (await) {
        awaited.put(p.postId(), null);
      }
      node.nic().post(p, descriptor); // this PE's own FMA descriptor: it posts concurrently with its node's others
      outstanding++;
      // the PE's core is busy with the post's stores into the FMA window until they are done (since stop 70)
      long busy = node.nic().postStoresDoneAt(descriptor) - clock.now();
      if (busy > 0) {
        self().sleep(busy);
      }
      return p.postId();
    }

    /**
     * Posts a transfer longer than one NIC transaction as its parts ({@link TransferSplit}), consecutive post ids, in
     * order; each part counts as outstanding until its GLOBAL event, as a single post does.
     *
     * @param remoteOffset the transfer's first remote byte (the parts are cut on its 64-byte boundaries)
     * @param length the transfer's bytes, more than one transaction's
     * @param await whether the caller waits for every part ({@link #awaitParts}): registered before the first post
     * @param part makes the post of a part from its id, its offset into the transfer and its length
     * @return the split
     */
    private SplitTransfers.Transfer postParts(long remoteOffset, long length, boolean await, PartPost part) {
      SplitTransfers.Transfer s = splits.open(nextPostId, (int) TransferSplit.parts(remoteOffset, length));
      nextPostId += s.parts;
      if (await) {
        for (int k = 0; k < s.parts; k++) {
          awaited.put(s.firstId + k, null);
        }
      }
      long done = 0;
      for (int k = 0; k < s.parts; k++) {
        long n = TransferSplit.partLength(remoteOffset, done, length);
        post(part.post(s.firstId + k, done, n));
        done += n;
      }
      return s;
    }

    /** Waits until every part of a split posted with {@code await} has completed (or faulted). */
    private void awaitParts(SplitTransfers.Transfer s) {
      self().waitUntil(() -> {
        for (int k = 0; k < s.parts; k++) {
          if (awaited.get(s.firstId + k) == null) {
            return false;
          }
        }
        return true;
      });
      for (int k = 0; k < s.parts; k++) {
        awaited.remove(s.firstId + k);
      }
    }

    /** The PE's process, to a call from its own program ({@link #checkCaller}). */
    private SimProcess self() {
      checkCaller();
      return process;
    }

    /**
     * Refuses a call that is not from this PE's own program in a run of its job, before it changes anything: a handle
     * kept past its run (it dropped puts in silence, stop 31), another PE's (its puts were posted from that PE's NIC
     * in silence, and an array put overwrote that PE's staging buffer), or another job's. The condition of this PE's
     * {@link #waitUntil} may call it too: the runner tests it on whichever thread runs the event that wakes the PE.
     * One compare on each call, and a thread of another group never equals either field, so the check holds on a
     * partitioned engine too.
     */
    private void checkCaller() {
      Thread me = Thread.currentThread();
      if (me != thread && me != polling) {
        throw new IllegalStateException(misuse(me));
      }
    }

    /**
     * Refuses, before it posts, waits or lets time pass, a call of {@code method} from this PE's {@link #waitUntil}
     * condition: the runner tests a condition on whichever thread runs the event that wakes the PE, where the PE cannot
     * be suspended, so such a call failed in different ways as the condition was tested first on the PE's thread or
     * later from an event (a reported deadlock, a refusal naming the process, or a post already at the NIC). The
     * refusal reaches the program from its waitUntil either way ({@code ProcessRunner} hands a condition's failure to
     * the waiting process).
     */
    private void notInCondition(String method) {
      if (inCondition) {
        throw new IllegalStateException(method + " may not be called from a waitUntil condition (PE " + index + "):"
            + " a condition only reads, with now, myPe, nPes, node, localLong, localBytes, remoteEvents and lastStatus"
            + " (or stores with localLong and localBytes); it may not post, wait or let time pass, so call " + method
            + " after waitUntil returns");
      }
    }

    /** Whose this handle is and who used it, as far as this job can tell. */
    private String misuse(Thread user) {
      String handle = "PE " + index + "'s handle";
      if (process == null) {
        return handle + " was used outside its job's run, on thread " + user.getName() + " (keep no Shmem handle"
            + " after run returns, and use none of another job)";
      }
      for (Pe other : pes) {
        if (other.thread == user) {
          return handle + " was used by PE " + other.index + "'s program (each PE's program uses the Shmem handle"
              + " its run gives it)";
        }
      }
      return handle + " was used on thread " + user.getName() + ", which runs none of its job's PEs (another job's"
          + " program, or code outside the run)";
    }

    /** Checks that {@code s} is an object of this job and that the range lies in it. */
    private void own(Symmetric s, String what, long offset, long length) {
      checkArgument(s != null, "%s must not be null", what);
      checkArgument(s.job() == ShmemJob.this, "%s must be a symmetric object this job allocated but was %s, one of"
          + " another job", what, s);
      s.checkRange(what, offset, length);
    }

    private NetworkAddress remote(Symmetric s, long offset, int pe) {
      checkPe("pe", pe);
      return NetworkAddress.of(peNodes[pe], s.mdh(pe), offset);
    }

    /**
     * Whether a put or get of this PE to PE {@code pe} (a valid index) is a CPU copy through shared memory: another PE
     * of this node, in a job with {@link Builder#sharedMemory(boolean)} on. A PE's transfers to itself stay on the NIC,
     * as they are with one PE a node.
     */
    private boolean onNode(int pe) {
      return sharedMemory && pe != index && peNodes[pe] == node.id();
    }

    /** Picoseconds this PE's core takes to copy {@code bytes} at the job's copy rate (as the MPI layer's copies). */
    private long copyPs(long bytes) {
      double rate = memcpyBytesPerSecond;
      return bytes <= 0 || Double.isInfinite(rate) ? 0 : (long) Math.ceil(bytes * 1e12 / rate);
    }

    /**
     * A put or get between two PEs of this node, by this PE's core through the mapped segment (XPMEM): the bytes at
     * the copy rate, then, at the copy's end, its loads of PE {@code fromPe}'s {@code src} and stores into PE {@code
     * toPe}'s {@code dest} through the node's host cache (the target's memory holds the bytes from then, and a PE
     * waiting on a word of them wakes), then the latency of the slowest line they touched, as MPI charges its on-node
     * copies (docs/mpi.md, "On one node"). No NIC post, no completion event: complete when this returns.
     */
    private void copyOnNode(Symmetric src, int fromPe, long srcOffset, Symmetric dest, int toPe, long destOffset,
        long length) {
      if (onNodeFault(src, fromPe, srcOffset, length, false) || onNodeFault(dest, toPe, destOffset, length, true)) {
        return;
      }
      sleepIfAny(copyPs(length));
      Pe target = pes[toPe];
      int chunk = (int) Math.min(length, ON_NODE_CHUNK);
      if (onNodeBuffer.length < chunk) {
        onNodeBuffer = new byte[chunk];
      }
      byte[] buf = onNodeBuffer;
      long worst = 0;
      for (long done = 0; done < length; ) {
        int n = (int) Math.min(buf.length, length - done);
        worst = Math.max(worst, hostAccess(src, fromPe, srcOffset + done, buf, n, false, null));
        worst = Math.max(worst, hostAccess(dest, toPe, destOffset + done, buf, n, true, target));
        done += n;
      }
      onNodeCopies++;
      sleepIfAny(worst);
    }

    /**
     * Checks, before an on-node copy touches anything, that every byte of PE {@code owner}'s range translates for the
     * access (the model translates a PE's memory through its node's translation, as for its own loads and stores); on
     * a fault the operation counts it as the NIC path's GLOBAL event would ({@link #lastStatus}, {@link
     * ShmemJob#faults()}, {@link ShmemJob#firstFault()}), copies nothing and takes no time, as {@link Shmem} promises of
     * a fault at the target.
     *
     * @return true when the range faults (the operation is then done)
     */
    private boolean onNodeFault(Symmetric obj, int owner, long offset, long length, boolean write) {
      NicConfig c = node.nic().config();
      long done = 0;
      while (done < length) {
        int ask = (int) Math.min(length - done, Integer.MAX_VALUE);
        TranslationResult r = node.translation().translateNow(obj.mdh(owner), offset + done, ask,
            write ? AccessKind.WRITE : AccessKind.READ, c.protectionTag(), c.protectionKey());
        if (!r.ok()) {
          lastStatus = r.status();
          faults++;
          if (firstFault == Status.OK) {
            firstFault = r.status();
            firstFaultAtPs = clock.now();
          }
          return true;
        }
        done += Math.min(ask, r.contiguousBytesFrom(node.translation(), obj.mdh(owner), offset + done));
      }
      return false;
    }

    /**
     * A put of bytes this PE holds (a Java array, or {@code putLong}'s word in a register) into another PE of its node:
     * as {@link #copyOnNode}, with stores only.
     */
    private void storeOnNode(byte[] data, Symmetric dest, int toPe, long destOffset) {
      if (onNodeFault(dest, toPe, destOffset, data.length, true)) {
        return;
      }
      sleepIfAny(copyPs(data.length));
      long worst = hostAccess(dest, toPe, destOffset, data, data.length, true, pes[toPe]);
      onNodeCopies++;
      sleepIfAny(worst);
    }

    /**
     * Another PE of this node stored {@code length} bytes at {@code physicalAddress} of this PE's memory (an on-node
     * put): wakes this PE now when they cover the word its {@link #waitUntil} tests, as {@link #onHostWrite} does for
     * the NIC's writes (a CPU's store is visible to the node's other cores at once: one coherent cache).
     */
    void peerStored(long physicalAddress, int length) {
      long w = watchedWord;
      if (w >= 0 && physicalAddress < w + 8 && physicalAddress + length > w && process != null && runner != null) {
        runner.wake(process);
      }
    }

    /** Waits for the GLOBAL event of a post registered before it was made ({@link #post(Post, boolean)}). */
    private CompletionEvent awaitGlobal(long postId) {
      checkState(awaited.containsKey(postId), "post %s was not registered before it was made", postId);
      self().waitUntil(() -> awaited.get(postId) != null);
      return awaited.remove(postId);
    }

    @Override
    public int myPe() {
      return index;
    }

    @Override
    public int nPes() {
      return pes.length;
    }

    @Override
    public int node() {
      return node.id();
    }

    @Override
    public long now() {
      checkCaller();
      return clock.now();
    }

    @Override
    public void compute(long ps) {
      checkCaller();
      notInCondition("compute");
      SimProcess p = self();
      // (a compute to the clock's end was taken, and the next post failed inside the NIC with a wrapped time)
      AriesSystem.checkProgramTime("ps", p.now(), ps);
      p.sleep(ps);
    }

    @Override
    public void putmem(Symmetric dest, long destOffset, Symmetric src, long srcOffset, long length, int pe) {
      checkedPutmem("putmem", dest, destOffset, src, srcOffset, length, pe, true);
    }

    @Override
    public void putmemNbi(Symmetric dest, long destOffset, Symmetric src, long srcOffset, long length, int pe) {
      checkedPutmem("putmemNbi", dest, destOffset, src, srcOffset, length, pe, false);
    }

    /** The public puts' checks, naming {@code method} in a refusal, then the put, blocking or not. */
    private void checkedPutmem(String method, Symmetric dest, long destOffset, Symmetric src, long srcOffset,
        long length, int pe, boolean blocking) {
      checkCaller();
      notInCondition(method);
      own(dest, "dest", destOffset, length);
      own(src, "src", srcOffset, length);
      NetworkAddress to = remote(dest, destOffset, pe); // (checks pe before the post takes an id)
      putmem(dest, destOffset, src, srcOffset, length, pe, to, blocking);
    }

    /**
     * A put of this PE's {@code src} into PE {@code pe}'s {@code dest} (checked), through the NIC or, on the node, a
     * copy; with {@code blocking}, returns when the NIC has read the whole source: every post asks for its LOCAL event
     * (every request has left, docs/nic.md "Events") and the put waits for it. The NIC reads a put's source as each
     * packet issues, an FMA PUT's too (docs/nic.md, "Source pipeline"; the FMA window's stores are not modelled), so
     * the end of the post's CPU stores is not yet the end of the reads.
     */
    private void putmem(Symmetric dest, long destOffset, Symmetric src, long srcOffset, long length, int pe,
        NetworkAddress to, boolean blocking) {
      if (onNode(pe)) {
        copyOnNode(src, index, srcOffset, dest, pe, destOffset, length);
        return;
      }
      int modes = blocking ? Post.LOCAL_EVENT | putModes : putModes;
      if (length <= TransferSplit.MAX_PART) {
        long id = nextPostId++;
        if (blocking) {
          sourcePending.add(id); // before the post: its LOCAL event may come while the PE does the post's stores
        }
        post(Post.put(id, src.mdh(index), srcOffset, to, length)
            .withDeliveryMode(putMode)
            .withCompletion(Post.NO_CQ, modes));
      } else {
        int from = src.mdh(index);
        postParts(destOffset, length, false, (id, done, n) -> {
          if (blocking) {
            sourcePending.add(id);
          }
          return Post.put(id, from, srcOffset + done, remote(dest, destOffset + done, pe), n)
              .withDeliveryMode(putMode)
              .withCompletion(Post.NO_CQ, modes);
        });
      }
      if (blocking) {
        self().waitUntil(sourcePending::isEmpty);
      }
    }

    @Override
    public void put(Symmetric dest, long destOffset, byte[] data, int pe) {
      checkCaller();
      notInCondition("put");
      checkArgument(data != null, "data must not be null");
      checkArgument(data.length <= stagingBytes, "data.length must be at most the staging buffer's %s bytes but was %s",
          stagingBytes, data.length);
      own(dest, "dest", destOffset, data.length);
      NetworkAddress to = remote(dest, destOffset, pe); // (checks pe before the staging buffer is written)
      if (onNode(pe)) {
        // straight from the array (the program's own memory) into the peer's object: no staging buffer
        storeOnNode(data, dest, pe, destOffset);
        return;
      }
      localBytes(staging, 0, data);
      long id = nextPostId++;
      sourcePending.add(id);
      post(Post.put(id, staging.mdh(index), 0, to, data.length)
          .withDeliveryMode(putMode)
          .withCompletion(Post.NO_CQ, Post.LOCAL_EVENT | putModes));
      // Like shmem_put: return once the source (the staging buffer) may be reused.
      self().waitUntil(sourcePending::isEmpty);
    }

    @Override
    public void putLong(Symmetric dest, long destOffset, long value, int pe) {
      checkCaller();
      notInCondition("putLong");
      checkArgument((destOffset & 7) == 0, "destOffset must be 8-byte aligned but was %s", destOffset);
      own(dest, "dest", destOffset, 8);
      checkPe("pe", pe);
      if (onNode(pe)) {
        storeOnNode(LittleEndian.ofLong(value), dest, pe, destOffset); // one store of the word
        return;
      }
      // shmem_long_p: an 8-byte FMA PUT whose data the CPU stores with the descriptor (Post.putValue)
      post(Post.putValue(nextPostId++, remote(dest, destOffset, pe), value, 8)
          .withDeliveryMode(putMode)
          .withCompletion(Post.NO_CQ, putModes));
    }

    @Override
    public void getmem(Symmetric dest, long destOffset, Symmetric src, long srcOffset, long length, int pe) {
      checkCaller();
      notInCondition("getmem");
      own(dest, "dest", destOffset, length);
      own(src, "src", srcOffset, length);
      NetworkAddress from = remote(src, srcOffset, pe);
      if (length == 0) {
        return; // a get of nothing does nothing, as OpenSHMEM's; uGNI refuses a zero-length GET [S5], so none is posted
      }
      if (onNode(pe)) {
        copyOnNode(src, pe, srcOffset, dest, index, destOffset, length);
        return;
      }
      if (!WordGet.inWholeWords(srcOffset, length)) {
        settle(List.of(postWordGet(dest, destOffset, src, srcOffset, length, pe)));
        return;
      }
      if (length <= TransferSplit.MAX_PART) {
        long id = post(Post.get(nextPostId++, dest.mdh(index), destOffset, from, length).withDeliveryMode(getMode),
            true);
        awaitGlobal(id);
        return;
      }
      awaitParts(postGetParts(dest, destOffset, src, srcOffset, length, pe, true));
    }

    /**
     * Posts a get whose remote offset or length is not a multiple of 4 as GETs of whole words ({@link WordGet}): the
     * words beyond the bytes asked land in a bounce slot of this PE's, never in {@code dest}, whose bytes outside the
     * range asked do not change. The get is settled ({@link #settle}) once its posts have completed. Each post asks
     * for its GLOBAL event (registered before it is made); two or more are one operation, as a split's parts.
     */
    private BouncedGet postWordGet(Symmetric dest, long destOffset, Symmetric src, long srcOffset, long length,
        int pe) {
      WordGet w = WordGet.of(srcOffset, length);
      int slot = takeBounceSlot();
      long bounce = BARRIER_BYTES + (long) slot * BOUNCE_SLOT_BYTES;
      int into = barrier.mdh(index);
      int posts = w.posts();
      long first = nextPostId;
      nextPostId += posts;
      if (posts > 1) {
        splits.open(first, posts);
      }
      for (int k = 0; k < posts; k++) {
        awaited.put(first + k, null);
      }
      BouncedGet g = new BouncedGet(first, posts, slot, dest, destOffset, w);
      bounced.addLast(g);
      long id = first;
      if (w.whole()) {
        post(Post.get(id, into, bounce, remote(src, w.first(), pe), w.end() - w.first()).withDeliveryMode(getMode));
        return g;
      }
      if (w.head()) {
        post(Post.get(id++, into, bounce, remote(src, w.first(), pe), 4).withDeliveryMode(getMode));
      }
      long from = w.interiorStart();
      long n = w.interiorEnd() - from;
      for (long done = 0; done < n; ) {
        long part = TransferSplit.partLength(from, done, n);
        post(Post.get(id++, dest.mdh(index), destOffset + (from - srcOffset) + done, remote(src, from + done, pe),
            part).withDeliveryMode(getMode));
        done += part;
      }
      if (w.tail()) {
        post(Post.get(id, into, bounce + 4, remote(src, w.end() - 4, pe), 4).withDeliveryMode(getMode));
      }
      return g;
    }

    /** A free bounce slot, taken; with none free, the oldest unaligned get is settled first to free its own. */
    private int takeBounceSlot() {
      if (bounceSlotsInUse == (1L << BOUNCE_SLOTS) - 1) {
        settle(List.of(bounced.peekFirst()));
      }
      int slot = Long.numberOfTrailingZeros(~bounceSlotsInUse);
      bounceSlotsInUse |= 1L << slot;
      return slot;
    }

    /**
     * Waits until every post of the given unaligned gets has completed, then copies the bytes asked that landed in
     * their bounce slots into their destinations, as the library's CPU copy of them all (as an on-node copy: their
     * bytes at the copy rate, then its loads and stores through the host cache, then the slowest one's latency), and
     * frees their slots. A get with a fault copies nothing (as a faulted get touches no memory, {@link Shmem}).
     */
    private void settle(List<BouncedGet> gets) {
      self().waitUntil(() -> {
        for (BouncedGet g : gets) {
          for (int k = 0; k < g.posts(); k++) {
            if (awaited.get(g.firstId() + k) == null) {
              return false;
            }
          }
        }
        return true;
      });
      List<BouncedGet> copied = new ArrayList<>(gets.size());
      long bytes = 0;
      for (BouncedGet g : gets) {
        boolean ok = true;
        for (int k = 0; k < g.posts(); k++) {
          ok &= !awaited.remove(g.firstId() + k).isError();
        }
        if (ok) {
          copied.add(g);
          bytes += g.words().copiedBytes();
        }
      }
      sleepIfAny(copyPs(bytes));
      byte[] buf = new byte[BOUNCE_SLOT_BYTES];
      long worst = 0;
      for (BouncedGet g : copied) {
        WordGet w = g.words();
        long bounce = BARRIER_BYTES + (long) g.slot() * BOUNCE_SLOT_BYTES;
        for (int c = 0; c < w.copies(); c++) {
          int n = w.copyLength(c);
          worst = Math.max(worst, hostAccess(barrier, index, bounce + w.copyFrom(c), buf, n, false));
          worst = Math.max(worst, hostAccess(g.dest(), index, g.destOffset() + w.copyTo(c), buf, n, true));
        }
      }
      for (BouncedGet g : gets) {
        bounced.remove(g);
        bounceSlotsInUse &= ~(1L << g.slot());
      }
      sleepIfAny(worst);
    }

    /** Settles every unaligned get of this PE still open ({@link #settle}), as one copy. */
    void settleBouncedGets() {
      if (!bounced.isEmpty()) {
        settle(new ArrayList<>(bounced));
      }
    }

    /** The parts of a GET longer than one transaction, into this PE's {@code dest} from PE {@code pe}'s {@code src}. */
    private SplitTransfers.Transfer postGetParts(Symmetric dest, long destOffset, Symmetric src, long srcOffset,
        long length, int pe, boolean await) {
      int into = dest.mdh(index);
      return postParts(srcOffset, length, await, (id, done, n) ->
          Post.get(id, into, destOffset + done, remote(src, srcOffset + done, pe), n).withDeliveryMode(getMode));
    }

    @Override
    public void getmemNbi(Symmetric dest, long destOffset, Symmetric src, long srcOffset, long length, int pe) {
      checkCaller();
      notInCondition("getmemNbi");
      own(dest, "dest", destOffset, length);
      own(src, "src", srcOffset, length);
      NetworkAddress from = remote(src, srcOffset, pe);
      if (length == 0) {
        return; // as getmem's: nothing to post, nothing for quiet to wait for
      }
      if (onNode(pe)) {
        // a CPU copy cannot be left to run on: it is complete when the call returns, so quiet has nothing to wait for
        copyOnNode(src, pe, srcOffset, dest, index, destOffset, length);
        return;
      }
      if (!WordGet.inWholeWords(srcOffset, length)) {
        postWordGet(dest, destOffset, src, srcOffset, length, pe); // its bytes are copied into dest at quiet
        return;
      }
      if (length <= TransferSplit.MAX_PART) {
        post(Post.get(nextPostId++, dest.mdh(index), destOffset, from, length).withDeliveryMode(getMode));
        return;
      }
      postGetParts(dest, destOffset, src, srcOffset, length, pe, false);
    }

    @Override
    public long remoteEvents() {
      checkCaller();
      checkRemoteEvents("remoteEvents()");
      takeRemoteEvents();
      checkOverrun("remoteEvents()");
      return remoteEvents;
    }

    @Override
    public void waitRemoteEvents(long count) {
      checkCaller();
      notInCondition("waitRemoteEvents");
      checkArgument(count >= 0, "count must be >= 0 but was %s", count); // (a negative one returned at once)
      checkRemoteEvents("waitRemoteEvents");
      takeRemoteEvents();
      checkOverrun("waitRemoteEvents");
      // (a dropped event reaches the listener too, and wakes the PE: a wait for one never counted would be for ever)
      self().waitUntil(() -> remoteEvents >= count || remoteCq.overrun());
      checkOverrun("waitRemoteEvents");
    }

    /**
     * Counts the events waiting in this PE's remote-event queue, taking them as uGNI's {@code GNI_CqGetEvent} does
     * [S5]: the listener does so as each is written, and the calls about the count do so first, for the events written
     * while another job built on the node held its NIC's listener (until stop 76 those were never counted).
     */
    private void takeRemoteEvents() {
      while (remoteCq.getEvent() != null) {
        remoteEvents++;
      }
    }

    /**
     * Fails the PE, in one line, when its remote-event queue has overrun: the events it dropped are in no count, and
     * uGNI's {@code GNI_CqGetEvent} answers {@code GNI_RC_ERROR_RESOURCE} then [S5]. A count of REMOTE events has no
     * fallback to recover them (libfabric's uGNI provider recovers from an overrun of its receive queue because there
     * an event only says which mailbox to look at, and it looks at all of them: {@code __nic_rx_overrun} in
     * {@code prov/gni/src/gnix_nic.c}; the MPI layer fails its rank as this does, {@code Rank.checkOverrun}).
     */
    private void checkOverrun(String call) {
      if (remoteCq.overrun()) {
        throw new IllegalStateException("PE " + index + "'s remote-event completion queue overran: "
            + remoteCq.droppedEvents() + " REMOTE events were dropped (it holds " + remoteCq.capacity() + " and"
            + " fills only while no run of this job takes its events), so " + call + " cannot count them (uGNI's"
            + " GNI_CqGetEvent answers GNI_RC_ERROR_RESOURCE)");
      }
    }

    /** Refuses a call about REMOTE events in a job whose puts ask for none (it would count 0, or wait for ever). */
    private void checkRemoteEvents(String call) {
      if ((putModes & Post.REMOTE_EVENT) == 0) {
        throw new IllegalStateException(call + " needs a job built with ShmemJob.Builder.remoteEvents(true): this"
            + " job's puts and atomics ask for no REMOTE event (as Cray SHMEM's over DMAPP); wait for a word with"
            + " waitUntil instead");
      }
    }

    @Override
    public byte[] get(Symmetric src, long srcOffset, int length, int pe) {
      checkCaller();
      notInCondition("get");
      checkArgument(length >= 0 && length <= stagingBytes, "length must be in [0, %s] (the job's stagingBytes, the"
          + " buffer a get(src, ...) lands in; getmem into an object of your own has no such limit) but was %s",
          stagingBytes, length);
      own(src, "src", srcOffset, length);
      checkPe("pe", pe); // (both before the staging buffer is cleared through the host cache)
      if (length == 0) {
        return new byte[0]; // as getmem's: nothing posted, the staging buffer untouched
      }
      localBytes(staging, 0, new byte[length]);
      getmem(staging, 0, src, srcOffset, length, pe);
      return localBytes(staging, 0, length);
    }

    @Override
    public long atomic(AmoOperation op, Symmetric dest, long offset, long operand1, long operand2, int pe) {
      checkCaller();
      notInCondition("atomic");
      checkArgument(op != null, "op must not be null");
      own(dest, "dest", offset, op.operandBytes());
      // named here as the caller wrote it (the NIC's own check names its post's post.remote.offset)
      checkArgument(offset % op.operandBytes() == 0, "offset must be a multiple of %s for %s but was %s",
          op.operandBytes(), op, offset);
      NetworkAddress to = remote(dest, offset, pe);
      Post p = Post.amo(nextPostId++, op, to, operand1, operand2)
          .withDeliveryMode(putMode)
          .withCompletion(Post.NO_CQ, putModes);
      long id = post(p, op.fetching());
      if (!op.fetching()) {
        return 0;
      }
      CompletionEvent e = awaitGlobal(id);
      return e.isError() ? 0 : e.userData();
    }

    @Override
    public long atomicFetchAdd(Symmetric dest, long offset, long value, int pe) {
      checkCaller();
      notInCondition("atomicFetchAdd");
      return atomic(AmoOperation.of(AmoKind.IADD, true, 64), dest, offset, value, 0, pe);
    }

    @Override
    public void atomicAdd(Symmetric dest, long offset, long value, int pe) {
      checkCaller();
      notInCondition("atomicAdd");
      atomic(AmoOperation.of(AmoKind.IADD, false, 64), dest, offset, value, 0, pe);
    }

    @Override
    public long atomicCompareSwap(Symmetric dest, long offset, long expected, long desired, int pe) {
      checkCaller();
      notInCondition("atomicCompareSwap");
      return atomic(AmoOperation.of(AmoKind.CSWAP, true, 64), dest, offset, expected, desired, pe);
    }

    @Override
    public void quiet() {
      checkCaller();
      notInCondition("quiet");
      self().waitUntil(() -> outstanding == 0);
      settleBouncedGets();
    }

    @Override
    public void fence() {
      checkCaller();
      notInCondition("fence");
      quiet();
    }

    @Override
    public void barrierAll() {
      checkCaller();
      notInCondition("barrierAll");
      quiet();
      int n = pes.length;
      barrierEpoch++;
      long epoch = barrierEpoch;
      if (ceResult != null && n > 1) {
        if (local != 0) {
          arriveOnNode(epoch);
          return;
        }
        if (pesPerNode > 1) {
          awaitNodeArrivals(epoch);
        }
        long id = nextPostId++;
        awaited.put(id, null);
        node.nic().postCollective(CePost.of(id, ceChannel[group.index], 0, CeOperation.AND, -1L,
            epoch & io.github.ariesmodel.core.packet.Packet.MAX_REDUCTION_ID, ceResult.mdh(index), 0, Post.NO_CQ),
            descriptor);
        outstanding++;
        awaitGlobal(id);
        if (pesPerNode > 1) {
          releaseNode(epoch);
        }
        return;
      }
      for (int k = 0, dist = 1; dist < n; k++, dist <<= 1) {
        int round = k;
        barrierArrive(8L * round, (index + dist) % n);
        waitUntil(barrier, 8L * round, v -> v >= epoch);
      }
      quiet();
    }

    /**
     * A software barrier's arrival at PE {@code pe}: a non-fetching add of 1 to its barrier word, asking for the GLOBAL
     * event alone, whatever {@link Builder#remoteEvents(boolean)} says. The barrier is the library's synchronisation
     * (OpenSHMEM's {@code shmem_barrier_all} is a quiet and a synchronisation of the PEs), not a put or atomic of the
     * program's: its atomics asked for REMOTE events as the program's do until stop 74, and those counted in {@link
     * Shmem#remoteEvents()}, so a {@code waitRemoteEvents(1)} after a barrier returned before the put it waited for.
     */
    private void barrierArrive(long offset, int pe) {
      post(Post.amo(nextPostId++, AmoOperation.of(AmoKind.IADD, false, 64), remote(barrier, offset, pe), 1, 0)
          .withDeliveryMode(putMode)
          .withCompletion(Post.NO_CQ, Post.GLOBAL_EVENT));
    }

    /*
     * The node phase of an engine barrier with several PEs a node, as MPI's (docs/mpi.md, "Collective engine"; S1 p.24:
     * a node contributes "the result of a local shared memory reduction"): the node's other PEs count their arrival in
     * a word of the first PE's barrier object through shared memory (a CPU read-modify-write through the node's host
     * cache; the barrier words are otherwise unused with the engine), the first PE waits for them all, alone posts to
     * the node's channel, and releases them by storing the barrier's number in the next word, which they poll. Each
     * access costs its host-cache latency; the one that sees the awaited value is the poll that ends a wait.
     */

    /** A PE but the node's first: counts itself in and waits for the first PE's release. */
    private void arriveOnNode(long epoch) {
      int first = index - local;
      byte[] word = new byte[8];
      long ps = hostAccess(barrier, first, 0, word, 8, false);
      LittleEndian.put(word, 0, 8, LittleEndian.get(word, 0, 8) + 1);
      ps = Math.max(ps, hostAccess(barrier, first, 0, word, 8, true));
      sleepIfAny(ps);
      group.arrivals++;
      group.wakeFirst(); // only the node's first PE waits on arrivals
      self().waitUntil(() -> group.released >= epoch);
      sleepIfAny(hostAccess(barrier, first, 8, new byte[8], 8, false));
    }

    /** The node's first PE: waits until every other PE of the node has arrived at barrier {@code epoch}. */
    private void awaitNodeArrivals(long epoch) {
      long others = (long) (pesPerNode - 1) * epoch;
      self().waitUntil(() -> group.arrivals >= others);
      sleepIfAny(hostAccess(barrier, index, 0, new byte[8], 8, false));
    }

    /** The node's first PE, the engine's result in: lets the node's other PEs leave barrier {@code epoch}. */
    private void releaseNode(long epoch) {
      sleepIfAny(hostAccess(barrier, index, 8, LittleEndian.ofLong(epoch), 8, true));
      group.released = epoch;
      group.wakeAllBut(this);
    }

    private void sleepIfAny(long ps) {
      if (ps > 0) {
        self().sleep(ps);
      }
    }

    @Override
    public void waitUntil(Symmetric obj, long offset, LongPredicate condition) {
      checkCaller();
      notInCondition("waitUntil");
      checkArgument(condition != null, "condition must not be null");
      word(obj, offset); // before waiting: the first test of the condition used to find these mistakes
      // The first poll that saw the value took a CPU load through the host cache: a hit when the NIC updated the cached
      // line in place, a miss when the write dropped it (0 without a cache). The runner may test the condition again
      // before the process resumes; those re-tests hit and are not what the poller paid.
      long[] observed = {-1};
      try {
        self().waitUntil(() -> {
          Thread before = polling;
          polling = Thread.currentThread();
          boolean seen;
          long latency;
          try {
            long value = localLong(obj, offset);
            latency = lastHostLatencyPs; // (the condition may read other words)
            watchedWord = lastAccessPa; // the NIC's writes to it wake this PE from now
            // a write the host cannot see yet is not in memory yet (the NIC's posted writes land when visible, since
            // stop 69): a WRITE_VISIBLE event, after the write has landed, tests again then; it is scheduled as the
            // NIC announces the write (onHostWrite) while the PE waits, and here for a write made before it waited
            inCondition = true;
            try {
              seen = condition.test(value);
            } finally {
              inCondition = false;
            }
            if (!seen) {
              lookAgainWhenALandingWriteIsVisible();
            }
          } finally {
            polling = before;
          }
          if (!seen) {
            observed[0] = -1;
          } else if (observed[0] < 0) {
            observed[0] = latency;
          }
          return seen;
        });
      } finally {
        watchedWord = -1;
      }
      if (observed[0] > 0) {
        self().sleep(observed[0]);
      }
    }

    @Override
    public long localLong(Symmetric obj, long offset) {
      checkCaller();
      word(obj, offset);
      return LittleEndian.getLong(localBytes(obj, offset, 8));
    }

    @Override
    public void localLong(Symmetric obj, long offset, long value) {
      checkCaller();
      word(obj, offset);
      localBytes(obj, offset, LittleEndian.ofLong(value));
    }

    /**
     * Checks a 64-bit word of this PE's own object as its javadoc asks: in this job's object and 8-byte aligned (an
     * unaligned word was read across two words, and a misaligned waitUntil could never see a putLong's value whole).
     */
    private void word(Symmetric obj, long offset) {
      own(obj, "obj", offset, 8);
      checkArgument((offset & 7) == 0, "offset must be 8-byte aligned but was %s", offset);
    }

    @Override
    public byte[] localBytes(Symmetric obj, long offset, int length) {
      checkCaller();
      own(obj, "obj", offset, length);
      byte[] out = new byte[length];
      hostAccess(obj, offset, out, length, false);
      return out;
    }

    @Override
    public void localBytes(Symmetric obj, long offset, byte[] data) {
      checkCaller();
      checkArgument(data != null, "data must not be null");
      own(obj, "obj", offset, data.length);
      hostAccess(obj, offset, data, data.length, true);
    }

    private void hostAccess(Symmetric obj, long offset, byte[] buf, int length, boolean write) {
      lastHostLatencyPs = hostAccess(obj, index, offset, buf, length, write);
    }

    /**
     * A CPU access to PE {@code owner}'s copy of {@code obj}, this PE's or, through shared memory, another's of its
     * node, through the node's host cache; it sets {@link #lastAccessPa}.
     *
     * @return the latency of its slowest part, picoseconds
     */
    private long hostAccess(Symmetric obj, int owner, long offset, byte[] buf, int length, boolean write) {
      return hostAccess(obj, owner, offset, buf, length, write, null);
    }

    /**
     * {@link #hostAccess(Symmetric, int, long, byte[], int, boolean)}, telling {@code storedTo} (the owner's PE, for
     * an on-node put; else null) where each store went.
     */
    private long hostAccess(Symmetric obj, int owner, long offset, byte[] buf, int length, boolean write,
        Pe storedTo) {
      NicConfig c = node.nic().config();
      int done = 0;
      long worst = 0;
      while (done < length) {
        TranslationResult r = node.translation().translateNow(obj.mdh(owner), offset + done, length - done,
            write ? AccessKind.WRITE : AccessKind.READ, c.protectionTag(), c.protectionKey());
        if (!r.ok()) {
          throw new IllegalStateException("host access to its own symmetric memory failed: " + r.status());
        }
        int n = Math.min(length - done, r.contiguousBytesFrom(node.translation(), obj.mdh(owner), offset + done));
        if (done == 0) {
          lastAccessPa = r.physicalAddress();
        }
        long latency = write
            ? node.hostCache().cpuStore(r.physicalAddress(), buf, done, n)
            : node.hostCache().cpuLoad(r.physicalAddress(), buf, done, n);
        if (storedTo != null) {
          storedTo.peerStored(r.physicalAddress(), n);
        }
        worst = Math.max(worst, latency);
        done += n;
      }
      return worst;
    }

    @Override
    public Status lastStatus() {
      checkCaller();
      return lastStatus;
    }
  }

  /** A write a PE waits for has become visible to its host (ref: the PE). */
  private static final EventHandler WRITE_VISIBLE = (now, ref, arg) -> ((Pe) ref).writeVisible();

  /** Makes the post of one part of a split transfer. */
  @FunctionalInterface
  private interface PartPost {
    Post post(long postId, long done, long length);
  }

  /** An unaligned get in flight: its posts (consecutive ids), its bounce slot, where its bytes go, and its words. */
  private record BouncedGet(long firstId, int posts, int slot, Symmetric dest, long destOffset, WordGet words) {}

  /**
   * How a get whose remote offset or length is not a multiple of 4 is posted as GETs of whole 4-byte words, which is
   * all a GET can read (uGNI refuses another with {@code GNI_RC_ALIGNMENT_ERROR}, FMA and BTE alike [S5][S6a]), the
   * way libfabric's uGNI provider reads an unaligned range (docs/aries-facts.md §3.2): the asked range is widened to
   * the words that hold it, {@code [first, end)}. A widened range of at most {@link #BOUNCE_SLOT_BYTES} is read whole
   * into a bounce slot ({@link #whole()}); a longer one reads its interior words straight into the destination (in
   * parts, as {@link TransferSplit} cuts a long transfer) and its head and tail words, where the range starts or ends
   * inside one, into bytes 0-3 and 4-7 of the slot. The bytes asked are then copied out of the slot ({@link
   * #copies()}). Both lie within the remote registration: a symmetric object's registration is whole pages, so the
   * word holding its last byte is in it even when the object's size is not a multiple of 4 (that word's extra bytes
   * are the registration's, read and dropped). Pure arithmetic.
   *
   * @param offset the first remote byte asked
   * @param length the bytes asked, at least 1
   * @param first the first byte of the first word read
   * @param end the byte after the last word read
   */
  record WordGet(long offset, long length, long first, long end) {

    /**
     * @param offset a remote offset, ≥ 0
     * @param length bytes, ≥ 0
     * @return whether a GET of them is in whole 4-byte words (posted as asked)
     */
    static boolean inWholeWords(long offset, long length) {
      return ((offset | length) & 3) == 0;
    }

    /**
     * @param offset the first remote byte asked, ≥ 0
     * @param length the bytes asked, ≥ 1
     * @return the words of the range
     */
    static WordGet of(long offset, long length) {
      checkArgument(offset >= 0 && length >= 1 && length <= NetworkAddress.MAX_OFFSET + 1 - offset,
          "offset and length must be >= 0 and >= 1 with offset + length <= 2^40 but were %s and %s", offset, length);
      return new WordGet(offset, length, offset & -4L, (offset + length + 3) & -4L);
    }

    /** @return whether the widened range is read whole into the bounce slot */
    boolean whole() {
      return end - first <= BOUNCE_SLOT_BYTES;
    }

    /** @return whether the range starts inside a word, read into bytes 0-3 of the slot (not {@link #whole()}) */
    boolean head() {
      return !whole() && (offset & 3) != 0;
    }

    /** @return whether the range ends inside a word, read into bytes 4-7 of the slot (not {@link #whole()}) */
    boolean tail() {
      return !whole() && ((offset + length) & 3) != 0;
    }

    /** @return the first remote byte of the words read straight into the destination (none when whole) */
    long interiorStart() {
      return whole() ? first : (offset + 3) & -4L;
    }

    /** @return the byte after them */
    long interiorEnd() {
      return whole() ? first : (offset + length) & -4L;
    }

    /** @return the GETs it is posted as: 1 when whole, else the interior's parts and the head and tail words */
    int posts() {
      if (whole()) {
        return 1;
      }
      long n = interiorEnd() - interiorStart();
      return (int) TransferSplit.parts(interiorStart(), n) + (head() ? 1 : 0) + (tail() ? 1 : 0);
    }

    /** @return the copies out of the bounce slot: 1 when whole, else one for the head and one for the tail word */
    int copies() {
      return whole() ? 1 : (head() ? 1 : 0) + (tail() ? 1 : 0);
    }

    /** @param c a copy, 0 to copies() - 1 @return its first byte in the bounce slot */
    long copyFrom(int c) {
      return whole() || c == 0 && head() ? offset - first : 4;
    }

    /** @param c a copy @return its first byte's place in the destination, from the destination offset */
    long copyTo(int c) {
      return whole() || c == 0 && head() ? 0 : interiorEnd() - offset;
    }

    /** @param c a copy @return its bytes */
    int copyLength(int c) {
      if (whole()) {
        return (int) length;
      }
      return c == 0 && head() ? (int) (interiorStart() - offset) : (int) (offset + length - interiorEnd());
    }

    /** @return the bytes copied out of the bounce slot */
    long copiedBytes() {
      long n = 0;
      for (int c = 0; c < copies(); c++) {
        n += copyLength(c);
      }
      return n;
    }
  }
}
