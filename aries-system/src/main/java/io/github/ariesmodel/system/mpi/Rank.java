package io.github.ariesmodel.system.mpi;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.LittleEndian;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.spi.AddressTranslation.TranslationResult;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.nic.CeOperation;
import io.github.ariesmodel.nic.CePost;
import io.github.ariesmodel.nic.CeResult;
import io.github.ariesmodel.nic.CompletionQueue;
import io.github.ariesmodel.nic.NicConfig;
import io.github.ariesmodel.nic.Post;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.Node;
import io.github.ariesmodel.system.process.SimProcess;
import io.github.ariesmodel.system.mpi.CollectiveLedger.Kind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * One MPI rank: its registered memory (mailboxes for every sender, then internal buffers), its two completion queues
 * (an rx ring for the remote events its registration receives, a tx ring for the source events of its own posts), the
 * send and receive protocols, the posted-receive and unexpected-message queues and the progress engine. Collectives
 * live in {@link Collectives}; this class implements {@link Mpi} by delegating to them.
 *
 * <h2>Wire protocol</h2>
 * Every message starts with an SMSG-style mailbox message: an FMA PUT of a 64-byte header (plus the data for the
 * SHORT protocol) into the slot {@code seq mod slots} of the receiver's mailbox for this sender, asking for a remote
 * event. The header holds the per-pair sequence number and a checksum over the rest, so that the receiver takes a
 * slot only when all of it has landed (with adaptive routing the remote event may come before the last data
 * [S5]); slots are taken strictly in sequence order, which gives MPI's non-overtaking order per pair. The receiver
 * gives credits back in batches of half the slots with a CQ write; eager acknowledgements and rendezvous FINs are
 * CQ writes too (6-byte values [S5]).
 *
 * <h2>On one node</h2>
 * Two ranks of one node (with {@link MpiConfig#sharedMemory()} on) use the same mailbox slots, sequence numbers and
 * credits, so matching and non-overtaking are those of the NIC path, but every transfer is a CPU access to the node's
 * shared memory and the NIC sees none of it: the sender stores the header (and a short message's data) into the
 * receiver's slot and rings it; a longer message below {@link MpiConfig#singleCopyBytes()} waits in the sender's
 * internal buffer for the receiver's copy (two copies, as Cray MPICH's buffered path); a longer one is copied once,
 * straight from the sender's buffer (XPMEM), once matched. Credits, buffer releases and FINs are stores into the
 * peer's doorbell (the unused mailbox of messages to itself).
 *
 * <h2>Completion queues</h2>
 * Two CQs per rank, each a ring of {@link MpiConfig#completionQueueEntries()} entries in host memory, registered and
 * written by the NIC through the IOMMU: uGNI lets a CQ take locally generated events or remote events "but not both"
 * (the notes of {@code GNI_CqCreate} [S5]), so, as Cray's libfabric GNI provider keeps a {@code tx_cq} and an {@code
 * rx_cq} per NIC and UCX's uGNI transport a {@code local_cq} and a {@code remote_cq}, a rank has
 * <ul>
 *   <li>an <b>rx</b> ring ({@link #rxCq}), which its registration names ({@code GNI_MemRegister}'s {@code
 *       dst_cq_hndl}; its user-buffer segments too) and its peers' control CQ writes aim at: the remote events of
 *       mailbox PUTs, and credits, eager acknowledgements and FINs;</li>
 *   <li>a <b>tx</b> ring ({@link #txCq}), which its own posts name as their source CQ (a post descriptor's {@code
 *       src_cq_hndl}): a mailbox PUT's and a GET's GLOBAL event, a silent CQ write's failure.</li>
 * </ul>
 * A rank makes its rx ring, then its tx ring, then its registration, in that order in its node's memory; a set-up
 * that fails part-way, and a job build that fails after it, give them back ({@link #giveBack(Throwable)}).
 * The progress engine takes entries ({@code GNI_CqGetEvent}) from the tx ring until it is empty, then from the rx
 * ring until it is empty, each in ring order, and repeats while either has more: the order of libfabric's
 * {@code _gnix_nic_progress} (tx CQ, then rx CQ). Completing its own posts first hands back staging buffers and
 * delivers landed GET data (which sends its acknowledgement or FIN) before the rank takes new arrivals, which may
 * need that buffer space; events of the two rings that land together never depend on each other's order (a FIN and
 * the source event of the same send's mailbox PUT each free what is theirs). A source event's handler is found by post
 * id (what {@code GNI_GetCompleted} returns). Each ring keeps its own poll count, so the load of each entry (through
 * the host cache) is of that ring's own slot; an overrun of either ring fails the rank.
 *
 * <h2>Host cache</h2>
 * The rank's polls (each mailbox header it reads, each CQ entry it takes, each doorbell value) and the copies it
 * makes (into an internal buffer, out of a mailbox slot or a GET's landing buffer, from an on-node peer) are CPU
 * accesses through the node's host cache and cost their latency (the slowest line touched; a copy adds its bytes at
 * {@link MpiConfig#memcpyBytesPerSecond()}). A poll of a line the NIC just updated in place hits; under the {@code
 * invalidate} policy it misses. Accesses that only stand in for data the model keeps elsewhere (the FMA message the
 * CPU's stores form, a rendezvous user buffer) are untimed.
 */
final class Rank implements Mpi {

  /**
   * A mailbox message's header, little-endian: sequence number (bytes 0-7), checksum of bytes 16-63 and the payload
   * (8-15), kind (16-19), context's low half (20-23), tag (24-27), source world rank (28-31), length (32-39), offset
   * of the data in the sender's memory (40-47), send id (48-55), context's high half (56-59), MDH of the registration
   * the data lies in (60-63: the rank's own, or a user-buffer segment's). Its size, one cache line, is assumed: no
   * source read here gives Cray MPICH's SMSG header size; it decides how many packets a message takes (an 8-byte
   * message is 72 bytes on the wire), and its cost is inside the calibrated per-message overheads.
   */
  static final int HEADER_BYTES = 64;
  private static final byte[] NO_BYTES = new byte[0];
  /** Arrays of requests up to this long are checked for a repeated one pair by pair, with nothing allocated. */
  private static final int DISTINCT_BY_PAIRS = 8;
  private static final int KIND_SHORT = 1;
  private static final int KIND_EAGER = 2;
  private static final int KIND_RTS = 3;
  /** On-node, buffered: the data waits in the sender's internal buffer for the receiver's copy. */
  private static final int KIND_SHM = 4;
  /** On-node request-to-send: the receiver copies straight from the sender's buffer once matched. */
  private static final int KIND_SINGLE = 5;
  /**
   * Added to the kind of a buffered (short, eager or on-node) message sent synchronously: the receiver acknowledges
   * the match ({@link #CQ_SYNC_ACK}), and only that completes the send (MPICH CH3's eager-sync packet).
   */
  private static final int KIND_SYNC = 0x100;
  /** The protocol kind's bits of the header's kind word (the rest: {@link #KIND_SYNC} and the RMA packet's word). */
  private static final int KIND_MASK = 0xFF;
  /**
   * Where a one-sided packet's word ({@link OneSided}: its operation, flags, reduction) sits in the header's kind
   * word; zero for every two-sided message.
   */
  static final int RMA_SHIFT = 16;
  private static final long CQ_CREDIT = 1;
  private static final long CQ_EAGER_ACK = 2;
  private static final long CQ_FIN = 3;
  /** The receiver has matched a synchronous buffered message (MPICH CH3's eager-sync acknowledgement). */
  private static final long CQ_SYNC_ACK = 4;
  /** A one-sided target's answer to an origin (a lock granted, operations done): {@link OneSided#control}. */
  static final long CQ_RMA = 5;
  /** A receiver's answer to a send's cancellation: the send id, shifted left once, and 1 when it was taken back. */
  private static final long CQ_CANCEL_ANSWER = 6;
  /**
   * The header word of a send's cancellation request (MPICH CH3's {@code CANCEL_SEND_REQ} packet): a short message of
   * the send's id, on the send's context, after its request-to-send in the pair's order.
   */
  private static final int CANCEL_WORD = 0x8000;
  private static final int CQ_KIND_SHIFT = 44;
  private static final long CQ_PAYLOAD_MASK = (1L << CQ_KIND_SHIFT) - 1;

  final MpiJob job;
  final MpiConfig config;
  final int worldRank;
  final NodeEndpoint endpoint;
  /** The FMA descriptor this rank posts through, its own on its node ({@link NodeEndpoint#add}). */
  private final int fmaDescriptor;
  final Node node;
  /** The rx ring: remote events of this rank's registration and its peers' CQ writes. */
  final CompletionQueue rxCq;
  /** The tx ring: source events of this rank's own posts. */
  final CompletionQueue txCq;
  final int mdh;
  final int slotBytes;
  final int worldSize;
  final BufferHeap heap;
  /** Where this rank's user buffers of rendezvous and single-copy messages stand in its node's memory. */
  private final UserBuffers userBuffers;
  final Communicator world;
  final Collectives collectives;
  /** This rank's one-sided communication: its windows, as origin and as target. */
  final OneSided oneSided = new OneSided(this);
  SimProcess process;
  /** The thread of this rank's program while a run lasts (set as it starts), else null. */
  Thread thread;

  /**
   * The rank's simulated process, or a refusal when the handle is used outside its job's run (it gave a
   * NullPointerException, stop 47), as SHMEM's handle refuses.
   */
  private SimProcess self() {
    SimProcess p = process;
    if (p == null) {
      throw new IllegalStateException("rank " + worldRank + "'s handle was used outside its job's run (keep no Mpi"
          + " handle after run returns)");
    }
    return p;
  }

  /**
   * Refuses a call that is not from this rank's own program in a run of its job, before it changes anything: another
   * rank's handle (it posted from that rank's NIC and matched that rank's queues, in silence), or one kept past its run
   * or of another job. One compare a call; each rank's program runs on a thread of its own.
   *
   * @return the rank's simulated process
   */
  private SimProcess caller() {
    SimProcess p = self();
    Thread me = Thread.currentThread();
    if (me != thread) {
      for (Rank other : job.ranks()) {
        if (other.thread == me) {
          throw new IllegalStateException("rank " + worldRank + "'s handle was used by rank " + other.worldRank
              + "'s program (each rank's program uses the Mpi handle its run gives it)");
        }
      }
      throw new IllegalStateException("rank " + worldRank + "'s handle was used on thread " + me.getName()
          + ", which runs none of its job's ranks (another job's program, or code outside the run)");
    }
    return p;
  }

  long finishedAtPs;
  /** When this rank's code threw in the current run, or {@link Long#MAX_VALUE}. */
  long failedAtPs = Long.MAX_VALUE;
  String waitingOn = "nothing";
  /**
   * What a {@link DeadlockWatch} reads (in the rank's own group, between its events): whether the rank is suspended
   * until an event or a peer gives it work, how often it resumed from such a wait, how many runs it finalized, and
   * the collective-engine reductions it posted (counted without wrapping) and the one it waits for, or -1. A rank
   * that is not its node's first posts none itself: it counts each engine collective it enters, whose value its
   * node's first rank posts for it (docs/mpi.md, "Collective engine"), so that every rank of a job has the same count
   * once the reduction is posted.
   */
  boolean parked;
  long resumes;
  long finalizedRuns;
  long cePosts;
  long ceAwaited = -1;
  /** The collective this rank is in, for a deadlock's report, or null outside one. */
  private String inCall;
  /** Whether this rank's program has returned and the rank is in finalize ({@link #finalizeRun}). */
  private boolean finalizing;
  /** Where in the program the current calls come from ({@link Mpi#callSite}), or 0. */
  long site;
  /**
   * The call site each sender had named ({@link Mpi#callSite}) for the messages in this rank's mailbox slots, by
   * {@link #siteKey}: written by the sender when it names one (a trace replay), taken by this rank with the slot's
   * message, for {@link Request#senderCallSite}. It travels beside the simulated message, not in it: no simulated
   * time or byte depends on it. Senders of other groups write it on their own threads (a window before the message
   * can arrive, on a partitioned engine) while this rank takes from it on its own, so its methods are synchronized;
   * its entries are primitive (a {@code ConcurrentHashMap<Long, Long>} until stop 78 boxed a key and a value for
   * every message of a trace replay, which names a site for every call).
   */
  private final LongLongMap sendersSites = new LongLongMap();
  /**
   * This rank's share of the job's counters ({@link MpiJob#messages}, {@link MpiJob#bytesSent},
   * {@link MpiJob#bytesDelivered}, {@link MpiJob#unexpectedMessages}), summed by the job between runs: ranks of different groups run on different
   * threads at once on a partitioned engine, so each counts only what it does itself.
   */
  final long[] messagesByProtocol = new long[Protocol.values().length];
  long bytesSent;
  /**
   * Payload bytes of other ranks' messages whose data has reached this rank ({@link #delivered}): counted by the
   * receiver, where {@link #bytesSent} is counted by the sender as it posts.
   */
  long bytesDelivered;
  long unexpectedMessages;
  /** Matches of synchronous buffered messages this rank acknowledged ({@link MpiJob#synchronousAcknowledgements}). */
  long syncAcks;
  /** The clock of this rank's node: the system's loop, or the node's group on a partitioned engine. */
  private final Scheduler clock;

  /** Mailbox sequence numbers and credits, per peer this rank has exchanged messages with. */
  private final PeerTable peers = new PeerTable();
  private final BitSet dirtySenders = new BitSet();
  /**
   * Per peer node, remote events of mailbox PUTs seen less messages taken from its ranks' slots (negative while a
   * message was taken before its event was); a node whose count is back to zero leaves the map, so a poll's pass over
   * it costs the nodes with something outstanding, not every node ever heard from (an alltoall's N).
   */
  private final Map<Integer, Integer> unreadEvents = new HashMap<>();
  /** Control values on-node peers stored in this rank's doorbell (credits, buffer releases, FINs), in order. */
  private final ArrayDeque<Long> doorbell = new ArrayDeque<>();
  private final ArrayDeque<NodeEndpoint.PendingPost> completedPosts = new ArrayDeque<>();
  private final LinkedList<Request> posted = new LinkedList<>();
  private final LinkedList<Incoming> unexpected = new LinkedList<>();
  private final Map<Long, long[]> eagerBuffers = new HashMap<>();
  private final Map<Long, RendezvousSend> rendezvousSends = new HashMap<>();
  /** Rendezvous and single-copy sends whose cancellation request is on its way, by send id. */
  private final Set<Long> cancelsAsked = new HashSet<>();
  /** Cancellation requests waiting for a mailbox credit, in the order they were made. */
  private final List<QueuedCancel> cancelsQueued = new ArrayList<>();
  private boolean sendingCancels;
  /** Synchronous buffered sends until the receiver's acknowledgement of the match, by the id their header carries. */
  private final Map<Long, Request> syncSends = new HashMap<>();
  /** The attached buffer's size ({@code MPI_Buffer_attach}), or -1 when none is attached. */
  private long bsendCapacity = -1;
  /** Its space taken by buffered sends still in flight. */
  private long bsendUsed;
  /** Buffered sends in flight: each the standard send made from the attached buffer, and the space it holds. */
  private final List<BufferedSend> bufferedSends = new ArrayList<>();
  private long nextId = 1;
  private boolean repoll;
  /** An on-node peer has stored a message or a control value for this rank since its last progress pass. */
  private boolean localWork;
  /**
   * Where polls that only stand in for a load (a doorbell, a CQ entry: the values come by other means) put their
   * bytes, and where a mailbox slot's header is read: one buffer each per rank, not one per poll (used only by this
   * rank's process, and a header is read in full before the next poll).
   */
  private final byte[] pollScratch = new byte[Math.max(8, CompletionQueue.ENTRY_BYTES)];
  private final byte[] header = new byte[HEADER_BYTES];

  /** Entries polled from the rx ring so far: the next one is in slot {@code rxCq.entryOffset(rxPolled)}. */
  private long rxPolled;
  /** Entries polled from the tx ring so far: the next one is in slot {@code txCq.entryOffset(txPolled)}. */
  private long txPolled;
  /** Source events of this rank's posts taken from its completion queues so far. */
  private long sourceEvents;
  /** The NIC has written (or dropped) an entry of either completion queue since this rank last emptied them. */
  private boolean cqReady;
  /** Cache latency of the last host access (the slowest line it touched), picoseconds. */
  private long lastHostPs;
  private String failure;
  /** Whether the job's world barrier and small allreduces use the collective engine. */
  private boolean ceJob;
  /**
   * This rank's collective-engine channel on its node when it is the node's first rank (the channel's only PE
   * child), else -1: the node's other ranks reach the engine through it.
   */
  private int ceChannel = -1;
  /** This rank's child index in that channel. */
  private int ceChild;
  /** Where, in this rank's registration, the engine writes its results (32-byte aligned). */
  private long ceResultOffset;
  /** Heap bytes the result buffer holds for the whole job (not a transfer's: finalize does not wait for them). */
  private long ceHeapBytes;
  /** The next reduction id this rank gives the engine (every node's first rank counts the job's alike). */
  private long ceReductionId;

  Rank(MpiJob job, int worldRank, NodeEndpoint endpoint, long virtualBase) {
    this.job = job;
    this.config = job.config();
    this.worldRank = worldRank;
    this.endpoint = endpoint;
    this.node = endpoint.node();
    this.clock = job.system().scheduler(node.id());
    this.worldSize = job.size();
    this.rxCq = node.nic().createCompletionQueue(config.completionQueueEntries());
    CompletionQueue tx = null;
    int registered = -1;
    try {
      tx = node.nic().createCompletionQueue(config.completionQueueEntries());
      this.txCq = tx;
      this.slotBytes = slotBytes(config);
      long mailboxBytes = mailboxBytes(config, worldSize);
      long length = registrationBytes(config, worldSize);
      NicConfig c = node.nic().config();
      MemoryRegistration r = new MemoryRegistration(virtualBase, length, config.pageSize(), true, c.protectionTag(),
          c.protectionKey(), 0, rxCq.handle(), false);
      registered = node.nic().register(r).mdh();
      this.mdh = registered;
      this.heap = new BufferHeap(mailboxBytes, length - mailboxBytes);
      this.userBuffers = new UserBuffers(node.nic(), r, virtualBase + length, virtualBase + MpiJob.RANK_SPAN,
          worldRank, node.id());
      this.world = new Communicator(0, job.worldRanks(), worldRank, this);
      this.collectives = new Collectives(this);
      this.fmaDescriptor = endpoint.add(this); // last: a refusal here leaves the endpoint as it was
    } catch (RuntimeException | Error e) {
      giveBack(node, registered, rxCq, tx, e);
      throw e;
    }
  }

  /**
   * Gives back what a rank's set-up took before it failed, or what a set-up rank took when its job's build failed
   * later: its registration (which names its rx ring), then its rings ({@code GNI_MemDeregister}, {@code
   * GNI_CqDestroy} [S5]), with the host memory they took. A refusal to give
   * something back is added to {@code failure} as suppressed rather than thrown over it.
   *
   * @param node the rank's node
   * @param mdh its registration, or -1 for none
   * @param rx its rx ring
   * @param tx its tx ring, or null for none
   * @param failure what made the set-up fail
   */
  static void giveBack(Node node, int mdh, CompletionQueue rx, CompletionQueue tx, Throwable failure) {
    if (mdh >= 0) {
      attempt(() -> node.nic().deregisterAndFree(mdh), failure);
    }
    if (tx != null) {
      attempt(() -> node.nic().destroyCompletionQueue(tx.handle()), failure);
    }
    attempt(() -> node.nic().destroyCompletionQueue(rx.handle()), failure);
  }

  private static void attempt(Runnable step, Throwable failure) {
    try {
      step.run();
    } catch (RuntimeException x) {
      failure.addSuppressed(x);
    }
  }

  /**
   * Gives back what this rank took (see {@link #giveBack(Node, int, CompletionQueue, CompletionQueue, Throwable)}),
   * for a job whose build failed after the rank was set up; the rank has not run.
   *
   * @param failure what made the build fail
   */
  void giveBack(Throwable failure) {
    giveBack(node, mdh, rxCq, txCq, failure);
  }

  /**
   * @return whether the NIC may still write into one of this rank's completion queues: a post of the rank's not
   *     complete, or an event on its way into either ring
   */
  boolean nicWritesPending() {
    return rxCq.writesPending() || txCq.writesPending();
  }

  /**
   * @return what of the rank's NIC resources was given back outside the job (its registrations deregistered, its
   *     rings destroyed through the NIC), for {@link MpiJob#close}'s refusal, or null when all are still the rank's
   */
  String resourcesLost() {
    io.github.ariesmodel.nic.Nic nic = node.nic();
    if (nic.completionQueue(rxCq.handle()) != rxCq || nic.completionQueue(txCq.handle()) != txCq) {
      return "one of its completion queues was destroyed outside the job";
    }
    List<Integer> mdhs = new ArrayList<>(userBuffers.mdhs());
    mdhs.add(mdh);
    for (int m : mdhs) {
      if (node.translation().descriptor(m).filter(d -> d.valid()).isEmpty()) {
        return "its registration mdh " + m + " was deregistered outside the job";
      }
    }
    return null;
  }

  /**
   * Gives back, for {@link MpiJob#close}, what the rank took on its node's NIC: its user-buffer segments'
   * registrations and its own ({@code GNI_MemDeregister}), then its two rings ({@code GNI_CqDestroy}), which those
   * registrations named. The caller checked that nothing may still write into the rings.
   */
  void close() {
    userBuffers.deregisterAll();
    node.nic().deregisterAndFree(mdh);
    node.nic().destroyCompletionQueue(txCq.handle());
    node.nic().destroyCompletionQueue(rxCq.handle());
  }

  /** @return the node's collective-engine channel this rank posts to, or -1 when it posts to none */
  int collectiveEngineChannel() {
    return ceChannel;
  }

  /** The job's close has abandoned this rank's channel (a failed run's reduction): it is the NIC's no more. */
  void collectiveEngineChannelAbandoned() {
    ceChannel = -1;
  }

  /** One mailbox slot: the header and the largest short message's payload, in whole 64-byte lines. */
  static int slotBytes(MpiConfig config) {
    return (HEADER_BYTES + config.shortMaxBytes() + 63) / 64 * 64;
  }

  /** A rank's mailboxes: a slot per credit for each rank of the world. */
  static long mailboxBytes(MpiConfig config, int worldSize) {
    return (long) worldSize * config.mailboxSlots() * slotBytes(config);
  }

  /** The one registration a rank makes on its node: its mailboxes and its buffer heap, in whole pages. */
  static long registrationBytes(MpiConfig config, int worldSize) {
    return config.pageSize().alignUp(mailboxBytes(config, worldSize) + config.heapBytes());
  }

  // -------------------------------------------------------------------------------------------- event plumbing

  /**
   * Called by the node's listener after the NIC wrote (or dropped) an event: wakes this rank when either of its
   * completion queues holds an entry or has overrun.
   */
  void completionQueueWritten() {
    if (txCq.size() == 0 && rxCq.size() == 0 && !txCq.overrun() && !rxCq.overrun()) {
      return;
    }
    cqReady = true;
    job.wake(this);
  }

  void silentPostFailed(CompletionEvent e) {
    failure = "a transfer of node " + node.id() + " failed with " + e.status();
    job.wake(this);
  }

  private boolean hasWork() {
    return cqReady || !completedPosts.isEmpty() || localWork || failure != null;
  }

  /**
   * Whether the rank waits with nothing to do: suspended until something wakes it, and nothing has. Only an event of
   * its NIC or an on-node peer's store can wake it then.
   */
  boolean waitsIdle() {
    return parked && !hasWork();
  }

  /** Waits, making progress, until the condition holds. */
  void waitFor(String what, BooleanSupplier condition) {
    while (true) {
      progress();
      if (condition.getAsBoolean()) {
        waitingOn = "nothing";
        return;
      }
      waitingOn = what;
      if (hasWork()) {
        continue;
      }
      if (repoll) {
        self().sleep(config.pollIntervalPs());
      } else {
        parked = true;
        self().waitUntil(this::hasWork);
        parked = false;
        resumes++;
      }
    }
  }

  /** One pass of the progress engine: completions, control messages, mailboxes. */
  void progress() {
    if (failure != null) {
      throw new IllegalStateException("MPI rank " + worldRank + ": " + failure);
    }
    do {
      localWork = false;
      NodeEndpoint.PendingPost p;
      while ((p = completedPosts.poll()) != null) {
        p.done(); // an empty GET: nothing was posted
      }
      takeCompletionEvents();
      Long v;
      while ((v = doorbell.poll()) != null) {
        // the load that sees the peer's store: the line is in the node's cache unless evicted since
        spend(hostAccess(mdh, doorbellOffset(), pollScratch, 0, 8, false));
        controlValue(v);
      }
      pollMailboxes();
    } while (!completedPosts.isEmpty() || cqReady || !doorbell.isEmpty() || localWork);
    sendQueuedCancels();
    oneSided.progress(); // MPICH's RMA progress hook: issue what a grant allows, answer GETs
  }

  /** @return entries taken from both completion queues so far, remote and source events */
  long completionEventsTaken() {
    return rxPolled + txPolled;
  }

  /** @return entries taken from the rx ring so far (remote events) */
  long rxEventsTaken() {
    return rxPolled;
  }

  /** @return entries taken from the tx ring so far (source events and failures of this rank's posts) */
  long txEventsTaken() {
    return txPolled;
  }

  /** @return source (GLOBAL) events of this rank's own posts taken from its completion queues so far */
  long sourceEventsTaken() {
    return sourceEvents;
  }

  /**
   * Takes every event waiting in the tx ring, then every event waiting in the rx ring (the class comment says why
   * this order), each in slot order, as {@code GNI_CqGetEvent} would; each costs the load of its entry through the
   * host cache. A remote event says a mailbox may hold a message, or carries a control value (CQ write); a source
   * event runs the handler its post left (a GET's data has landed, a mailbox PUT's staging buffer is free). A failed
   * transfer, or a queue that overran and lost events, fails the rank. Entries written while the rank takes these
   * wake it again ({@link #cqReady}), and {@link #progress} comes back for them.
   */
  private void takeCompletionEvents() {
    cqReady = false;
    checkOverrun(txCq, "tx", "the source events of its own posts");
    checkOverrun(rxCq, "rx", "remote events of its registration and its peers' CQ writes");
    takeEvents(txCq, true);
    takeEvents(rxCq, false);
  }

  /** Fails the rank, in one line naming the ring and the setting that sizes it, when a ring has lost events. */
  private void checkOverrun(CompletionQueue q, String which, String takes) {
    if (q.overrun()) {
      throw new IllegalStateException("MPI rank " + worldRank + ": its " + which + " completion queue (" + takes
          + ") overran (" + q.droppedEvents() + " events dropped; MpiConfig.completionQueueEntries, the size of each"
          + " of its two rings, is " + q.capacity() + ")");
    }
  }

  /** Takes every event waiting in one ring, in slot order. */
  private void takeEvents(CompletionQueue q, boolean tx) {
    CompletionEvent e;
    while ((e = q.getEvent()) != null) {
      pollCompletionQueueEntry(q, tx ? txPolled++ : rxPolled++);
      if (e.isError()) {
        throw new IllegalStateException("MPI rank " + worldRank + ": a transfer failed with " + e.status());
      }
      if (e.type() == CompletionType.REMOTE) {
        remoteEvent(e);
      } else if (e.type() == CompletionType.GLOBAL) {
        sourceEvents++;
        NodeEndpoint.PendingPost p = endpoint.takePending(e.postId());
        if (p != null) {
          p.event = e;
          p.done();
        }
      }
    }
  }

  /**
   * The CPU load of the CQ entry an event was taken from ({@code GNI_CqGetEvent} reads the ring in host memory): a
   * hit when the NIC updated a cached line in place, a miss when its write dropped the line or the line was never
   * loaded (the first entry of each line).
   *
   * @param q the ring the event was taken from
   * @param n entries taken from that ring before this one
   */
  private void pollCompletionQueueEntry(CompletionQueue q, long n) {
    NicConfig c = node.nic().config();
    TranslationResult r = node.translation().translateNow(q.ring().mdh(), q.entryOffset(n),
        CompletionQueue.ENTRY_BYTES, AccessKind.READ, c.protectionTag(), c.protectionKey());
    if (r.ok()) {
      spend(node.hostCache().cpuLoad(r.physicalAddress(), pollScratch, 0, CompletionQueue.ENTRY_BYTES));
    }
  }

  /** Byte offset, in this rank's registration, of its doorbell: the unused mailbox of messages to itself. */
  private long doorbellOffset() {
    return mailboxOffset(worldRank, 0);
  }

  /**
   * Whether this rank and another exchange messages through shared memory: they share a node and the on-node path
   * is on.
   */
  boolean sharesMemoryWith(int otherWorld) {
    return config.sharedMemory() && otherWorld != worldRank && job.nodeOfRank(otherWorld) == node.id();
  }

  /** Something of this rank's own is left to do (a GET to answer), so that its wait makes another progress pass. */
  void moreLocalWork() {
    localWork = true;
  }

  /** An on-node peer has stored a message in this rank's mailbox for it (called in the peer's process). */
  void sharedMemoryArrival(int fromWorld) {
    dirtySenders.set(fromWorld);
    localWork = true;
    job.wake(this);
  }

  /** An on-node peer has stored a control value in this rank's doorbell (called in the peer's process). */
  void sharedMemoryControl(long value) {
    doorbell.add(value);
    localWork = true;
    job.wake(this);
  }

  private void remoteEvent(CompletionEvent e) {
    long v = e.userData();
    if (v == 0) {
      unreadEvents.merge(e.peerNode(), 1, Rank::sumOrNone);
      markNicSendersDirty(e.peerNode());
      return;
    }
    controlValue(v);
  }

  /** @return peer nodes whose mailbox PUTs' events and messages taken do not yet match (what a poll passes over) */
  int peersWithUnreadEvents() {
    return unreadEvents.size();
  }

  /** A count's new value, or null (the entry leaves the map) at zero. */
  private static Integer sumOrNone(Integer count, Integer delta) {
    int sum = count + delta;
    return sum == 0 ? null : sum;
  }

  /** The ranks of a node that send to this one through the NIC may have a message in their mailbox. */
  private void markNicSendersDirty(int peerNode) {
    for (Rank r : job.endpoint(peerNode).ranks()) {
      if (!sharesMemoryWith(r.worldRank)) {
        dirtySenders.set(r.worldRank);
      }
    }
  }

  /** A control message (credits, an eager buffer's release, a rendezvous FIN), by CQ write or on-node doorbell. */
  private void controlValue(long v) {
    long kind = v >>> CQ_KIND_SHIFT;
    long payload = v & CQ_PAYLOAD_MASK;
    if (kind == CQ_CREDIT) {
      int from = (int) (payload & 0x3F_FFFF);
      peers.creditsBack[peers.of(from)] += payload >>> 22;
    } else if (kind == CQ_EAGER_ACK) {
      long[] b = eagerBuffers.remove(payload);
      heap.release(b[0], b[1]);
    } else if (kind == CQ_FIN) {
      RendezvousSend s = rendezvousSends.remove(payload);
      if (s.length > 0) {
        userBuffers.release(s.place, s.length);
      }
      markComplete(s.request);
    } else if (kind == CQ_SYNC_ACK) {
      markComplete(syncSends.remove(payload));
    } else if (kind == CQ_RMA) {
      oneSided.control(payload);
    } else if (kind == CQ_CANCEL_ANSWER) {
      cancelAnswered(payload >>> 1, (payload & 1) == 1);
    } else {
      throw new IllegalStateException("MPI rank " + worldRank + ": unknown control value " + v);
    }
  }

  private void pollMailboxes() {
    repoll = false;
    if (dirtySenders.isEmpty()) {
      return;
    }
    for (int s = dirtySenders.nextSetBit(0); s >= 0; s = dirtySenders.nextSetBit(s + 1)) {
      dirtySenders.clear(s);
      while (takeSlot(s)) {
        // keep taking this sender's messages in sequence
      }
    }
    for (Map.Entry<Integer, Integer> u : unreadEvents.entrySet()) {
      if (u.getValue() > 0) {
        repoll = true;
        markNicSendersDirty(u.getKey());
      }
    }
  }

  /** The key of a sender's message of mailbox sequence number {@code seq} in {@link #sendersSites}. */
  private static long siteKey(int sender, long seq) {
    return (long) sender << 40 | seq; // (2^40 messages of one pair: beyond any run)
  }

  private long mailboxOffset(int sender, long seq) {
    return ((long) sender * config.mailboxSlots() + seq % config.mailboxSlots()) * slotBytes;
  }

  private boolean takeSlot(int s) {
    int peer = peers.of(s);
    long at = mailboxOffset(s, peers.recvSeq[peer]);
    // The poll: a CPU load of the slot's header, a hit when the writer (the NIC under the `update` policy, or an
    // on-node peer's stores) left the line in the node's cache.
    byte[] h = header;
    spend(hostAccess(mdh, at, h, 0, HEADER_BYTES, false));
    if (LittleEndian.get(h, 0, 8) != peers.recvSeq[peer]) {
      return false;
    }
    int kindWord = (int) LittleEndian.get(h, 16, 4);
    int kind = kindWord & KIND_MASK;
    long length = LittleEndian.get(h, 32, 8);
    int payloadLength = kind == KIND_SHORT ? (int) length : 0;
    byte[] payload = payloadLength == 0 ? NO_BYTES : hostRead(mdh, at + HEADER_BYTES, payloadLength);
    long payloadPs = payloadLength == 0 ? 0 : lastHostPs;
    if (LittleEndian.get(h, 8, 8) != checksum(h, payload)) {
      return false; // the header has landed but not all of the data yet
    }
    peers.recvSeq[peer]++;
    boolean local = sharesMemoryWith(s);
    if (!local) {
      unreadEvents.merge(job.nodeOf(s), -1, Rank::sumOrNone);
    }
    Protocol protocol = switch (kind) {
      case KIND_SHORT -> local ? Protocol.SHARED_MEMORY : Protocol.SHORT;
      case KIND_EAGER -> Protocol.EAGER;
      case KIND_RTS -> Protocol.RENDEZVOUS;
      case KIND_SHM -> Protocol.SHARED_MEMORY;
      case KIND_SINGLE -> Protocol.SINGLE_COPY;
      default -> throw new IllegalStateException("MPI rank " + worldRank + ": unknown message kind " + kind);
    };
    Incoming m = new Incoming(protocol, LittleEndian.get(h, 20, 4) | LittleEndian.get(h, 56, 4) << 32, s,
        (int) LittleEndian.get(h, 24, 4), (int) length);
    m.inline = kind == KIND_SHORT;
    m.sync = (kindWord & KIND_SYNC) != 0;
    m.rma = kindWord >>> RMA_SHIFT;
    m.remoteOffset = LittleEndian.get(h, 40, 8);
    m.remoteMdh = (int) LittleEndian.get(h, 60, 4);
    m.sendId = LittleEndian.get(h, 48, 8);
    m.payload = payload;
    if (m.inline) {
      delivered(m); // (the data came with the header)
    }
    if (!sendersSites.isEmpty()) {
      m.senderSite = sendersSites.remove(siteKey(s, peers.recvSeq[peer] - 1), 0); // (0: none named)
    }
    // the copy out of the mailbox: its first line's cache latency, then the bytes at the copy rate
    self().sleep(config.recvOverheadPs() + payloadPs + copyPs(payloadLength));
    if (m.protocol == Protocol.EAGER) {
      startGet(m, new EagerDataArrived(m));
    }
    arrive(m);
    // The slot is released once its message has been taken (uGNI's order: GNI_SmsgGetNext, the message's use, then
    // GNI_SmsgRelease, which frees the slot's credit [Cray's SMSG example]), so a credit return, every half of the
    // slots, follows the copy out, the eager GET's post and the hand-over. Until stop 71 it came first, and its post
    // (a process wait since stop 70) delayed all three by 133 ns (docs/validation.md, the 6-node allreduce).
    if (++peers.creditsOwed[peer] >= Math.max(1, config.mailboxSlots() / 2)) {
      control(s, CQ_CREDIT, ((long) peers.creditsOwed[peer] << 22) | worldRank);
      peers.creditsOwed[peer] = 0;
    }
    return true;
  }

  private static long checksum(byte[] header, byte[] payload) {
    long x = 0xcbf29ce484222325L;
    for (int i = 16; i < HEADER_BYTES; i++) {
      x = (x ^ (header[i] & 0xFF)) * 0x100000001b3L;
    }
    for (byte b : payload) {
      x = (x ^ (b & 0xFF)) * 0x100000001b3L;
    }
    return x;
  }

  void control(int toWorld, long kind, long payload) {
    Rank to = job.rank(toWorld);
    long value = (kind << CQ_KIND_SHIFT) | payload;
    if (sharesMemoryWith(toWorld)) {
      // a store into the peer's doorbell line in the node's memory, through the cache
      spend(hostAccess(to.mdh, to.doorbellOffset(), LittleEndian.ofLong(value), 0, 8, true));
      to.sharedMemoryControl(value);
      return;
    }
    // into the peer's rx ring; silent (no source event), but a failure is written into this rank's tx ring
    endpoint.postSilently(Post.cqWrite(endpoint.nextPostId(), to.node.id(), to.rxCq.handle(),
        value).withDeliveryMode(config.deliveryMode()).withCompletion(txCq.handle(), 0), fmaDescriptor);
    spendPostStores();
  }

  // -------------------------------------------------------------------------------------------- one-sided

  @Override
  public Window winCreate(byte[] base, int displacementUnit, Communicator comm) {
    checkArgument(base != null, "base must not be null");
    checkArgument(displacementUnit >= 1, "displacementUnit must be >= 1 but was %s", displacementUnit);
    checkComm(comm);
    return oneSided.create(base, displacementUnit, comm);
  }

  @Override
  public void winFree(Window win) {
    caller();
    oneSided.free(win);
  }

  @Override
  public void put(byte[] origin, int offset, int length, int target, long targetDisp, Window win) {
    checkBuffer("origin", origin, offset, length);
    caller();
    oneSided.put(origin, offset, length, target, targetDisp, win);
  }

  @Override
  public void get(byte[] origin, int offset, int length, int target, long targetDisp, Window win) {
    checkBuffer("origin", origin, offset, length);
    caller();
    oneSided.get(origin, offset, length, target, targetDisp, win);
  }

  @Override
  public void accumulate(long[] origin, int target, long targetDisp, ReduceOp op, Window win) {
    checkArgument(origin != null, "origin must not be null");
    ElementType.checkCount("origin", origin.length);
    checkArgument(op != null, "op must not be null");
    caller();
    oneSided.accumulate(ElementType.pack(origin), ElementType.LONG, op, target, targetDisp, win);
  }

  @Override
  public void accumulate(double[] origin, int target, long targetDisp, ReduceOp op, Window win) {
    checkArgument(origin != null, "origin must not be null");
    ElementType.checkCount("origin", origin.length);
    checkArgument(op != null, "op must not be null");
    checkArgument(op != ReduceOp.BAND && op != ReduceOp.BOR && op != ReduceOp.BXOR,
        "op must be SUM, PROD, MIN or MAX on doubles but was %s", op);
    caller();
    oneSided.accumulate(ElementType.pack(origin), ElementType.DOUBLE, op, target, targetDisp, win);
  }

  @Override
  public void winFence(int assertion, Window win) {
    caller();
    oneSided.fence(assertion, win);
  }

  @Override
  public void winLock(boolean exclusive, int target, int assertion, Window win) {
    caller();
    oneSided.lock(exclusive, target, assertion, win);
  }

  @Override
  public void winUnlock(int target, Window win) {
    caller();
    oneSided.unlock(target, win);
  }

  @Override
  public void winFlush(int target, Window win) {
    caller();
    oneSided.flush(target, win);
  }

  @Override
  public void winFlushLocal(int target, Window win) {
    caller();
    oneSided.flushLocal(target, win);
  }

  @Override
  public void winLockAll(int assertion, Window win) {
    caller();
    oneSided.lockAll(assertion, win);
  }

  @Override
  public void winUnlockAll(Window win) {
    caller();
    oneSided.unlockAll(win);
  }

  @Override
  public void winFlushAll(Window win) {
    caller();
    oneSided.flushAll(true, win);
  }

  @Override
  public void winFlushLocalAll(Window win) {
    caller();
    oneSided.flushAll(false, win);
  }

  @Override
  public void winPost(int[] group, int assertion, Window win) {
    caller();
    oneSided.post(group, assertion, win);
  }

  @Override
  public void winStart(int[] group, int assertion, Window win) {
    caller();
    oneSided.start(group, assertion, win);
  }

  @Override
  public void winComplete(Window win) {
    caller();
    oneSided.complete(win);
  }

  @Override
  public void winWait(Window win) {
    caller();
    oneSided.waitExposure(win);
  }

  @Override
  public boolean winTest(Window win) {
    caller();
    return oneSided.testExposure(win);
  }

  // -------------------------------------------------------------------------------------------- matching

  private void arrive(Incoming m) {
    if (m.rma == CANCEL_WORD) {
      cancelArrived(m);
      return;
    }
    messagesByProtocol[m.protocol.ordinal()]++;
    if (m.rma != 0) {
      oneSided.arrive(m); // a one-sided packet: handled by its window, never matched
      return;
    }
    for (Iterator<Request> it = posted.iterator(); it.hasNext(); ) {
      Request r = it.next();
      if (r.matches(m.context, m.sourceWorld, m.tag)) {
        it.remove();
        bind(r, m);
        return;
      }
    }
    m.unexpected = true;
    unexpectedMessages++;
    if (m.protocol == Protocol.SHARED_MEMORY && !m.inline) {
      // As Nemesis does with an unexpected message, copy it out of shared memory so that the sender's buffer comes
      // back at once (its credits already have): a sender's buffers are not held by receives posted late.
      m.payload = new byte[m.length];
      spend(hostAccess(m.remoteMdh, m.remoteOffset, m.payload, 0, m.length, false)
          + copyPs(m.length));
      delivered(m);
      control(m.sourceWorld, CQ_EAGER_ACK, m.sendId);
      m.inline = true;
    }
    unexpected.add(m);
  }

  Request postReceive(byte[] buf, int offset, int capacity, int sourceWorld, int tag, long context,
      Communicator comm) {
    Request r = new Request(Request.Kind.RECEIVE, nextId++, comm, context, sourceWorld, tag, buf, offset, capacity);
    for (Iterator<Incoming> it = unexpected.iterator(); it.hasNext(); ) {
      Incoming m = it.next();
      if (r.matches(m.context, m.sourceWorld, m.tag)) {
        it.remove();
        bind(r, m);
        return r;
      }
    }
    posted.add(r);
    return r;
  }

  void bind(Request r, Incoming m) {
    if (m.length > r.capacity) {
      throw new IllegalStateException("MPI_ERR_TRUNCATE at rank " + worldRank + ": a message of " + m.length
          + " bytes from rank " + r.comm.rankOfWorld(m.sourceWorld) + " (tag " + m.tag
          + ") matched a receive of capacity " + r.capacity);
    }
    r.status = new MpiStatus(r.comm.rankOfWorld(m.sourceWorld), m.tag, m.length);
    r.senderSite = m.senderSite;
    m.boundTo = r;
    if (m.protocol == Protocol.SELF) {
      markComplete(m.selfSender); // a send to itself completes at its match, whatever its mode
    }
    if (m.sync) {
      // a synchronous buffered message: the match is what its sender waits for (MPICH's eager-sync ack)
      syncAcks++;
      if (m.protocol != Protocol.SELF) {
        control(m.sourceWorld, CQ_SYNC_ACK, m.sendId);
      }
    }
    switch (m.protocol) {
      case SHORT, SELF -> deliverInline(r, m);
      case SHARED_MEMORY -> {
        if (m.inline) {
          deliverInline(r, m);
        } else {
          copyFromPeer(r, m);
          control(m.sourceWorld, CQ_EAGER_ACK, m.sendId); // the sender may reuse its buffer
          markComplete(r);
        }
      }
      case SINGLE_COPY -> {
        copyFromPeer(r, m);
        control(m.sourceWorld, CQ_FIN, m.sendId);
        markComplete(r);
      }
      case EAGER -> {
        if (m.dataReady) {
          deliverEager(m);
        }
      }
      case RENDEZVOUS -> {
        if (m.length == 0) {
          control(m.sourceWorld, CQ_FIN, m.sendId);
          markComplete(r);
        } else {
          startGet(m, new RendezvousDataArrived(m));
        }
      }
    }
  }

  private void deliverInline(Request r, Incoming m) {
    if (m.unexpected) {
      self().sleep(copyPs(m.length)); // out of the unexpected buffer
    }
    System.arraycopy(m.payload, 0, r.buffer, r.offset, m.length);
    markComplete(r);
  }

  /**
   * The receiver's copy of an on-node message straight from the sender's buffer (the shared-memory buffer of a
   * buffered message, or the user buffer itself for a single copy): the first line's cache latency, then the bytes
   * at the copy rate.
   */
  private void copyFromPeer(Request r, Incoming m) {
    byte[] data = new byte[m.length];
    long ps = hostAccess(m.remoteMdh, m.remoteOffset, data, 0, m.length, false);
    spend(ps + copyPs(m.length));
    System.arraycopy(data, 0, r.buffer, r.offset, m.length);
    delivered(m);
  }

  /**
   * Counts a message's payload as delivered ({@link MpiJob#bytesDelivered}): its data has reached this rank, in its
   * mailbox slot (a short message, or an on-node one stored there), in the buffer its GET landed in (eager,
   * rendezvous), or copied from an on-node sender's memory. Each message passes one of these places once; a message
   * to the rank itself is not counted, as {@link #bytesSent} does not count it.
   */
  private void delivered(Incoming m) {
    bytesDelivered += m.length;
  }

  private void startGet(Incoming m, NodeEndpoint.PendingPost handler) {
    if (m.length == 0) {
      m.localChunk = -1;
      handler.event = null;
      completedPosts.add(handler);
      return;
    }
    long getLength = getLength(m.length);
    // Eager data lands in an internal buffer, rendezvous data in the receive buffer (the user's memory). When the
    // internal buffers are full of unexpected eager data, more of it lands in memory of the process's own (MPICH
    // keeps unexpected messages in buffers it allocates), here a place among the user-buffer segments: running out of
    // heapBytes inside the progress engine failed the rank (about 2,000 unexpected 8 KiB messages by default).
    long inHeap = m.protocol == Protocol.RENDEZVOUS ? -1 : heap.allocate(getLength);
    if (inHeap >= 0) {
      m.localChunk = inHeap;
      m.localMdh = mdh;
      m.localOffset = inHeap;
    } else {
      m.localChunk = userBuffers.allocate(getLength);
      m.inUserMemory = true;
      m.localMdh = userBuffers.mdh(m.localChunk);
      m.localOffset = UserBuffers.offset(m.localChunk);
    }
    Rank from = job.rank(m.sourceWorld);
    Post p = Post.get(endpoint.nextPostId(), m.localMdh, m.localOffset, NetworkAddress.of(from.node.id(),
        m.remoteMdh, m.remoteOffset), getLength)
        .withEngine(getLength > config.rdmaThresholdBytes() ? Post.Engine.BTE : Post.Engine.FMA)
        .withDeliveryMode(config.deliveryMode())
        .withCompletion(txCq.handle(), Post.GLOBAL_EVENT);
    endpoint.post(p, fmaDescriptor, handler);
    spendPostStores();
  }

  /**
   * @return the bytes a GET of a {@code length}-byte message moves: whole 4-byte words [S6a], counted in long (a
   *     message of 2^31 - 3 bytes or more, which a Java array holds, moves 2^31: the int sum wrapped to -2^31)
   */
  static long getLength(int length) {
    return ((long) length + 3) / 4 * 4;
  }

  /** Gives a GET's landing place back, to the internal heap or the user-buffer segments it came from. */
  private void releaseLanding(Incoming m) {
    if (m.inUserMemory) {
      userBuffers.release(m.localChunk, getLength(m.length));
    } else {
      heap.release(m.localChunk, getLength(m.length));
    }
  }

  private void deliverEager(Incoming m) {
    Request r = m.boundTo;
    if (m.length > 0) {
      byte[] data = hostRead(m.localMdh, m.localOffset, m.length);
      self().sleep(lastHostPs + copyPs(m.length));
      System.arraycopy(data, 0, r.buffer, r.offset, m.length);
      releaseLanding(m);
    }
    markComplete(r);
  }

  /** The eager data has landed in this rank's buffer: acknowledge, and deliver if already matched. */
  private final class EagerDataArrived extends NodeEndpoint.PendingPost {
    private final Incoming m;

    EagerDataArrived(Incoming m) {
      super(Rank.this);
      this.m = m;
    }

    @Override
    void done() {
      m.dataReady = true;
      delivered(m);
      control(m.sourceWorld, CQ_EAGER_ACK, m.sendId);
      if (m.cancelWanted) {
        m.cancelWanted = false;
        boolean taken = m.boundTo == null && unexpected.remove(m);
        if (taken) {
          releaseLanding(m);
        }
        control(m.sourceWorld, CQ_CANCEL_ANSWER, m.sendId << 1 | (taken ? 1 : 0));
      }
      if (m.boundTo != null) {
        deliverEager(m);
      }
    }
  }

  /** The rendezvous data has landed in place: tell the sender (FIN) and complete the receive. */
  private final class RendezvousDataArrived extends NodeEndpoint.PendingPost {
    private final Incoming m;

    RendezvousDataArrived(Incoming m) {
      super(Rank.this);
      this.m = m;
    }

    @Override
    void done() {
      delivered(m);
      control(m.sourceWorld, CQ_FIN, m.sendId);
      Request r = m.boundTo;
      // The receive buffer stands for the user's registered buffer: the GET wrote it in place, no host copy.
      byte[] data = hostRead(m.localMdh, m.localOffset, m.length);
      System.arraycopy(data, 0, r.buffer, r.offset, m.length);
      releaseLanding(m);
      markComplete(r);
    }
  }

  /** The mailbox PUT has completed at its target: its source buffer may be reused. */
  private final class ReleaseBuffer extends NodeEndpoint.PendingPost {
    private final long chunk;
    private final long length;

    ReleaseBuffer(long chunk, long length) {
      super(Rank.this);
      this.chunk = chunk;
      this.length = length;
    }

    @Override
    void done() {
      heap.release(chunk, length);
    }
  }

  /** A buffered send's standard send from the attached buffer, and the attached space it holds until it completes. */
  private record BufferedSend(Request send, long space) {}

  /** A rendezvous or single-copy send until its FIN: its request, and its buffer's place ({@link UserBuffers}). */
  private record RendezvousSend(Request request, long place, long length) {}

  // -------------------------------------------------------------------------------------------- sending

  Request startSend(byte[] buf, int offset, int length, int destWorld, int tag, long context, Communicator comm) {
    return startSend(buf, offset, length, destWorld, tag, context, comm, false);
  }

  /**
   * A send. A synchronous one ({@code MPI_Ssend}) takes the protocol a standard send of its length takes, as MPICH
   * CH3's {@code MPID_Ssend} does (its eager-sync packet up to the eager threshold, the rendezvous above): a buffered
   * one (short, eager, on-node) is marked synchronous and completes when the receiver acknowledges the match, a
   * rendezvous or single-copy one when its data has moved (after the match anyway). To the rank itself a send of
   * either mode completes when a receive matches it, at once if one is posted (MPICH CH3's {@code MPIDI_Isend_self},
   * {@code src/mpid/ch3/src/mpidi_isend_self.c}); a blocking one that finds none fails
   * ({@link #failUnmatchedSelfSend}).
   */
  Request startSend(byte[] buf, int offset, int length, int destWorld, int tag, long context, Communicator comm,
      boolean synchronous) {
    return startSend(buf, offset, length, destWorld, tag, context, comm, synchronous, 0);
  }

  /** A send as above that carries a one-sided packet's word ({@link OneSided}) in its header, or 0 for none. */
  Request startSend(byte[] buf, int offset, int length, int destWorld, int tag, long context, Communicator comm,
      boolean synchronous, int rmaWord) {
    Request req = new Request(Request.Kind.SEND, nextId++, comm, context, destWorld, tag, null, 0, 0);
    self().sleep(config.sendOverheadPs());
    if (destWorld == worldRank) {
      // MPICH CH3's MPIDI_Isend_self, of every mode: a receive already posted takes the data and both complete; else
      // the message waits among the unexpected ones and the send stays incomplete until a receive matches it (CH3
      // buffers nothing). The bytes are taken now, at the cost the model has always charged here.
      Incoming m = new Incoming(Protocol.SELF, context, worldRank, tag, length);
      m.payload = java.util.Arrays.copyOfRange(buf, offset, offset + length);
      self().sleep(copyPs(length));
      m.sync = synchronous;
      m.selfSender = req;
      m.senderSite = site;
      arrive(m);
      return req;
    }
    boolean local = sharesMemoryWith(destWorld);
    Protocol protocol = local ? (length >= config.singleCopyBytes() ? Protocol.SINGLE_COPY : Protocol.SHARED_MEMORY)
        : length <= config.shortMaxBytes() ? Protocol.SHORT
        : length <= config.eagerMaxBytes() ? Protocol.EAGER : Protocol.RENDEZVOUS;
    boolean inline = protocol == Protocol.SHORT
        || (protocol == Protocol.SHARED_MEMORY && length <= config.shortMaxBytes());
    // (rendezvous and single-copy sends complete only after the match whatever their mode)
    boolean syncAck = synchronous && protocol != Protocol.RENDEZVOUS && protocol != Protocol.SINGLE_COPY;
    int slots = config.mailboxSlots();
    int peer = peers.of(destWorld);
    waitFor("a mailbox credit for rank " + destWorld,
        () -> peers.sendSeq[peer] - 1 - peers.creditsBack[peer] < slots);
    long seq = peers.sendSeq[peer]++;
    int payloadLength = inline ? length : 0;
    byte[] msg = new byte[HEADER_BYTES + payloadLength];
    LittleEndian.put(msg, 0, 8, seq);
    LittleEndian.put(msg, 16, 4, (inline ? KIND_SHORT : switch (protocol) {
      case EAGER -> KIND_EAGER;
      case SHARED_MEMORY -> KIND_SHM;
      case SINGLE_COPY -> KIND_SINGLE;
      default -> KIND_RTS;
    }) | (syncAck ? KIND_SYNC : 0) | rmaWord << RMA_SHIFT);
    // The context's low half, and its high half in bytes the header leaves unused (zero below 2^32).
    LittleEndian.put(msg, 20, 4, context);
    LittleEndian.put(msg, 56, 4, context >>> 32);
    LittleEndian.put(msg, 24, 4, tag);
    LittleEndian.put(msg, 28, 4, worldRank);
    LittleEndian.put(msg, 32, 8, length);
    if (inline) {
      System.arraycopy(buf, offset, msg, HEADER_BYTES, length);
      self().sleep(copyPs(length));
      if (syncAck) {
        long id = nextId++;
        syncSends.put(id, req);
        LittleEndian.put(msg, 48, 8, id);
      } else {
        markComplete(req);
      }
    } else if (protocol == Protocol.EAGER || protocol == Protocol.SHARED_MEMORY) {
      // the sender's copy into an internal buffer: through the cache, then the bytes at the copy rate
      long chunk = allocate(length);
      self().sleep(hostAccess(mdh, chunk, buf, offset, length, true) + copyPs(length));
      long id = nextId++;
      eagerBuffers.put(id, new long[] {chunk, length});
      LittleEndian.put(msg, 40, 8, chunk);
      LittleEndian.put(msg, 48, 8, id);
      LittleEndian.put(msg, 60, 4, mdh);
      if (syncAck) {
        syncSends.put(id, req); // (the buffer comes back on its own ack, the request on the match's)
      } else {
        markComplete(req);
      }
    } else {
      // The user's buffer is registered (or, on one node, attached with XPMEM) where it is, a registration-cache
      // hit, untimed: its place in the modelled host memory is the user's (UserBuffers), never the internal heap, so
      // the send waits for nothing, and the copy below only puts its bytes there.
      long place = length == 0 ? 0 : userBuffers.allocate(length);
      if (length > 0) {
        int placeMdh = userBuffers.mdh(place);
        long placeOffset = UserBuffers.offset(place);
        hostAccess(placeMdh, placeOffset, buf, offset, length, true);
        LittleEndian.put(msg, 40, 8, placeOffset);
        LittleEndian.put(msg, 60, 4, placeMdh);
      }
      rendezvousSends.put(req.id, new RendezvousSend(req, place, length));
      LittleEndian.put(msg, 48, 8, req.id);
    }
    LittleEndian.put(msg, 8, 8, checksum(msg, java.util.Arrays.copyOfRange(msg, HEADER_BYTES, msg.length)));
    Rank to = job.rank(destWorld);
    if (site != 0) {
      to.sendersSites.put(siteKey(worldRank, seq), site); // (out of band: see sendersSites)
    }
    bytesSent += length;
    if (local) {
      // Stores of the header (and inline data) into the receiver's mailbox slot in the node's shared memory: no NIC.
      spend(hostAccess(to.mdh, to.mailboxOffset(worldRank, seq), msg, 0, msg.length, true));
      to.sharedMemoryArrival(worldRank);
      return req;
    }
    // The FMA message stands in host memory only so that the NIC model can read it (FMA is driven by the CPU's
    // stores, which the NIC model times): untimed here.
    long staging = allocate(msg.length);
    hostAccess(mdh, staging, msg, 0, msg.length, true);
    Post p = Post.put(endpoint.nextPostId(), mdh, staging, NetworkAddress.of(to.node.id(), to.mdh,
        to.mailboxOffset(worldRank, seq)), msg.length)
        .withEngine(Post.Engine.FMA)
        .withDeliveryMode(config.deliveryMode())
        .withCompletion(txCq.handle(), Post.GLOBAL_EVENT | Post.REMOTE_EVENT);
    endpoint.post(p, fmaDescriptor, new ReleaseBuffer(staging, msg.length));
    spendPostStores();
    return req;
  }

  /** MPI_Finalize's local part: every rendezvous send matched and every internal buffer back. */
  private void drain() {
    waitFor("its transfers to complete in finalize (an unmatched rendezvous or synchronous send, or an eager"
        + " message never received, holds a buffer)", () -> rendezvousSends.isEmpty() && eagerBuffers.isEmpty()
        && syncSends.isEmpty() && heap.inUse() == ceHeapBytes && userBuffers.inUse() == 0);
  }

  // -------------------------------------------------------------------------------------------- memory

  /**
   * Takes internal buffer space for a send (a user call), waiting for buffers to come back. (The progress engine
   * never waits for the heap: a GET that finds it full lands in the user-buffer segments, {@link #startGet}.)
   */
  private long allocate(long bytes) {
    long at = heap.allocate(bytes);
    if (at >= 0) {
      return at;
    }
    if (bytes > heap.capacity()) {
      // no amount of waiting frees more than the whole heap: say so instead of deadlocking
      throw new IllegalArgumentException("MPI rank " + worldRank + ": a message of " + bytes + " bytes needs more"
          + " internal buffer space than the rank's whole heap (" + heap.capacity() + " bytes); raise"
          + " MpiConfig.heapBytes");
    }
    long[] got = {-1};
    waitFor("internal buffer space (" + bytes + " bytes)", () -> (got[0] = heap.allocate(bytes)) >= 0);
    return got[0];
  }

  /**
   * Makes the world communicator's barrier and small allreduces use the collective engine through the node's first
   * rank, which posts for the node (set by the job as it is built, docs/mpi.md "Collective engine"): this rank takes
   * no channel and no result buffer.
   */
  void useCollectiveEngineThroughNode() {
    this.ceJob = true;
  }

  /**
   * Makes the world communicator's barrier and small allreduces use the node's collective-engine channel, this rank
   * posting for its node (set by the job as it is built, docs/mpi.md "Collective engine"): the rank's result buffer
   * comes from its heap.
   *
   * @param channel the node's channel
   * @param child this rank's child index in it
   */
  void useCollectiveEngine(int channel, int child) {
    long before = heap.inUse();
    long at = heap.allocate(CePost.RESULT_BYTES);
    if (at < 0) {
      throw new IllegalStateException("MPI rank " + worldRank + ": no room in its heap for the collective engine's"
          + " result (MpiConfig.heapBytes is " + config.heapBytes() + ")");
    }
    this.ceJob = true;
    this.ceChannel = channel;
    this.ceChild = child;
    this.ceResultOffset = at;
    this.ceHeapBytes = heap.inUse() - before;
  }

  /** @return whether this rank's world collectives may use the collective engine */
  boolean collectiveEngine() {
    return ceJob;
  }

  /** @return whether this rank posts its node's reductions to the collective engine (the node's first rank) */
  boolean postsToCollectiveEngine() {
    return ceChannel >= 0;
  }

  /**
   * Counts an engine collective this rank entered whose value its node's first rank posts for it (for the
   * {@link DeadlockWatch}, {@link #cePosts}).
   */
  void contributeThroughNode() {
    cePosts++;
  }

  /**
   * One reduction on the collective engine: the MPI call's software cost, the post ({@code GNI_PostFma} of type CE),
   * a wait for its GLOBAL event on the tx ring, and the load of the 24-byte result from the result buffer. A result
   * with a fault fails the rank (the tx ring's error event does).
   *
   * @param op the engine's command
   * @param operand1 the first operand
   * @param operand2 the second operand (a min's or max's index, or a second element)
   * @param two whether a one-operand command combines both operands
   * @return the result
   */
  CeResult collectiveEngineReduce(CeOperation op, long operand1, long operand2, boolean two) {
    if (ceChannel < 0) {
      throw new IllegalStateException("MPI rank " + worldRank + " has no collective-engine channel: its node's first"
          + " rank posts for it");
    }
    self().sleep(config.sendOverheadPs());
    long id = ceReductionId;
    ceReductionId = (ceReductionId + 1) & io.github.ariesmodel.core.packet.Packet.MAX_REDUCTION_ID;
    CePost post = new CePost(endpoint.nextPostId(), ceChannel, ceChild, op, operand1, operand2, two, id, mdh,
        ceResultOffset, txCq.handle());
    NodeEndpoint.PendingPost handler = new NodeEndpoint.PendingPost(this) {
      @Override
      void done() {
        // nothing to run: the wait below ends when the event is taken (takeEvents sets it before calling this)
      }
    };
    endpoint.postCollective(post, fmaDescriptor, handler);
    ceAwaited = cePosts++;
    waitFor("the collective engine's result", () -> handler.event != null);
    ceAwaited = -1;
    byte[] words = hostRead(mdh, ceResultOffset, CePost.RESULT_BYTES);
    spend(lastHostPs);
    self().sleep(config.recvOverheadPs());
    return CeResult.decode(LittleEndian.get(words, 0, 8), LittleEndian.get(words, 8, 8),
        LittleEndian.get(words, 16, 8));
  }

  /**
   * Lets CPU time pass, if any: a zero-cost access (no cache) must not yield to other events, so that a system
   * without a host cache keeps the timing it had before the accesses were timed.
   */
  void spend(long ps) {
    if (ps > 0) {
      self().sleep(ps);
    }
  }

  /**
   * The rank's core is busy with its last post's stores into the FMA window until they are done ({@link
   * io.github.ariesmodel.nic.Nic#postStoresDoneAt}): since stop 70 a rank waits for them, as a core does; before, it
   * went on at once while the NIC booked the post's CPU time beside it.
   */
  private void spendPostStores() {
    spend(node.nic().postStoresDoneAt(fmaDescriptor) - clock.now());
  }

  long copyPs(long bytes) {
    double rate = config.memcpyBytesPerSecond();
    return bytes <= 0 || Double.isInfinite(rate) ? 0 : (long) Math.ceil(bytes * 1e12 / rate);
  }

  long reducePs(long bytes) {
    double rate = config.reduceBytesPerSecond();
    return bytes <= 0 || Double.isInfinite(rate) ? 0 : (long) Math.ceil(bytes * 1e12 / rate);
  }

  /** Reads a registration's bytes through the node's cache; its latency is left in {@link #lastHostPs}. */
  private byte[] hostRead(int regMdh, long offset, int length) {
    byte[] out = new byte[length];
    lastHostPs = hostAccess(regMdh, offset, out, 0, length, false);
    return out;
  }

  /**
   * A CPU access, through the node's host cache, to a registration of a rank of this node (its own, or an on-node
   * peer's: shared memory).
   *
   * @return the cache latency of the slowest line touched, picoseconds (the caller charges it, or not for accesses
   *     that only stand in for data the model keeps elsewhere)
   */
  private long hostAccess(int regMdh, long offset, byte[] buf, int from, int length, boolean write) {
    NicConfig c = node.nic().config();
    int done = 0;
    long worst = 0;
    while (done < length) {
      TranslationResult r = node.translation().translateNow(regMdh, offset + done, length - done,
          write ? AccessKind.WRITE : AccessKind.READ, c.protectionTag(), c.protectionKey());
      if (!r.ok()) {
        throw new IllegalStateException("rank " + worldRank + ": host access to registered memory of its node failed: "
            + r.status());
      }
      int n = Math.min(length - done, r.contiguousBytesFrom(node.translation(), regMdh, offset + done));
      long ps = write
          ? node.hostCache().cpuStore(r.physicalAddress(), buf, from + done, n)
          : node.hostCache().cpuLoad(r.physicalAddress(), buf, from + done, n);
      worst = Math.max(worst, ps);
      done += n;
    }
    return worst;
  }

  // -------------------------------------------------------------------------------------------- Mpi

  private void checkBuffer(String what, byte[] buf, int offset, int length) {
    checkBuffer(what, buf, offset, length, "length");
  }

  /** @param lengthName what the call names its length ("capacity" for a receive's buffer) */
  private void checkBuffer(String what, byte[] buf, int offset, int length, String lengthName) {
    checkArgument(buf != null, "%s must not be null", what);
    if (offset < 0 || length < 0 || offset > buf.length - length) {
      throw new IllegalArgumentException(what + ": offset and " + lengthName + " must lie within the array's "
          + buf.length + " bytes but were " + offset + " and " + length);
    }
  }

  private void checkComm(Communicator comm) {
    caller();
    checkArgument(comm != null, "comm must not be null");
    if (comm.owner() != this) {
      // another rank's, or another job's (whose ranks it names): it gave an index error, or wrong data in silence
      throw new IllegalArgumentException("comm must be one this rank holds (world, or made by its own split or dup)"
          + " but was " + whose(comm.owner()));
    }
  }

  private static void checkTag(int tag) {
    checkArgument(tag >= 0 && tag <= TAG_UB, "tag must be in [0, %s] but was %s", TAG_UB, tag);
  }

  private static int peer(String what, Communicator comm, int r, boolean wildcard) {
    if (wildcard && r == ANY_SOURCE) {
      return -1;
    }
    if (r < 0 || r >= comm.size()) {
      throw new IllegalArgumentException(what + " must be in [0, " + (comm.size() - 1) + "]"
          + (wildcard ? " or ANY_SOURCE (-1)" : "") + " but was " + r);
    }
    return comm.worldRank(r);
  }

  @Override
  public int rank() {
    return worldRank;
  }

  @Override
  public int size() {
    return worldSize;
  }

  @Override
  public Communicator world() {
    return world;
  }

  @Override
  public int node() {
    return node.id();
  }

  @Override
  public long now() {
    return caller().now();
  }

  @Override
  public void callSite(long site) {
    caller();
    checkArgument(site >= 0, "site must be >= 0 but was %s", site);
    this.site = site;
  }

  @Override
  public void compute(long ps) {
    SimProcess p = caller();
    // (a compute to the clock's end was taken, and the next post failed inside the NIC with a wrapped time)
    AriesSystem.checkProgramTime("ps", p.now(), ps);
    p.sleep(ps);
  }

  @Override
  public void send(byte[] buf, int offset, int length, int dest, int tag, Communicator comm) {
    Request r = isend(buf, offset, length, dest, tag, comm);
    failUnmatchedSelfSend(r, "MPI_Send");
    wait(r);
  }

  @Override
  public MpiStatus recv(byte[] buf, int offset, int capacity, int source, int tag, Communicator comm) {
    return wait(irecv(buf, offset, capacity, source, tag, comm));
  }

  @Override
  public Request isend(byte[] buf, int offset, int length, int dest, int tag, Communicator comm) {
    checkBuffer("buf", buf, offset, length);
    checkComm(comm);
    checkTag(tag);
    return startSend(buf, offset, length, peer("dest", comm, dest, false), tag, comm.context(), comm);
  }

  @Override
  public void bufferAttach(int bytes) {
    caller();
    checkArgument(bytes >= 0, "bytes must be >= 0 but was %s", bytes);
    if (bsendCapacity >= 0) {
      throw new IllegalStateException("MPI_ERR_BUFFER at rank " + worldRank + ": a buffer of " + bsendCapacity
          + " bytes is already attached (detach it first)");
    }
    bsendCapacity = bytes;
    bsendUsed = 0;
  }

  @Override
  public int bufferDetach() {
    caller();
    if (bsendCapacity < 0) {
      throw new IllegalStateException("MPI_ERR_BUFFER at rank " + worldRank + ": no buffer is attached to detach");
    }
    waitFor("its buffered sends to go (MPI_Buffer_detach)", () -> {
      reclaimBuffered();
      return bufferedSends.isEmpty();
    });
    int size = (int) bsendCapacity;
    bsendCapacity = -1;
    return size;
  }

  @Override
  public void bsend(byte[] buf, int offset, int length, int dest, int tag, Communicator comm) {
    ibsend(buf, offset, length, dest, tag, comm).waited = true;
  }

  @Override
  public Request ibsend(byte[] buf, int offset, int length, int dest, int tag, Communicator comm) {
    checkBuffer("buf", buf, offset, length);
    checkComm(comm);
    checkTag(tag);
    return startBuffered(buf, offset, length, peer("dest", comm, dest, false), tag, comm);
  }

  /**
   * A buffered send as MPICH's {@code MPIR_Bsend_isend} makes it: the space of completed buffered sends comes back
   * first, then the data is copied into the attached buffer and a standard send goes from there; the caller's request
   * is complete at once.
   */
  private Request startBuffered(byte[] buf, int offset, int length, int destWorld, int tag, Communicator comm) {
    checkActiveBuffered();
    long need = (long) length + BSEND_OVERHEAD;
    if (bsendCapacity >= 0 && bsendCapacity - bsendUsed < need) {
      checkActiveBuffered(); // MPICH's second pass before it fails
    }
    if (bsendCapacity < 0 || bsendCapacity - bsendUsed < need) {
      throw new IllegalStateException("MPI_ERR_BUFFER at rank " + worldRank + ": a buffered send of " + length
          + " bytes needs " + need + " bytes of attached buffer (its length plus MPI_BSEND_OVERHEAD, " + BSEND_OVERHEAD
          + ") but " + (bsendCapacity < 0 ? "no buffer is attached"
          : "only " + (bsendCapacity - bsendUsed) + " of the " + bsendCapacity + " attached are free"));
    }
    self().sleep(copyPs(length)); // into the attached buffer
    Request send = startSend(buf, offset, length, destWorld, tag, comm.context(), comm);
    bsendUsed += need;
    bufferedSends.add(new BufferedSend(send, need));
    Request done = new Request(Request.Kind.SEND, nextId++, comm, comm.context(), destWorld, tag, null, 0, 0);
    markComplete(done);
    return done;
  }

  /**
   * MPICH's {@code MPIR_Bsend_check_active} ({@code src/mpi/pt2pt/bsendutil.c}): while a buffered send is still in
   * flight, a progress pass (it tests each active send, and each test is one), charged as a test's, then the space of
   * those that have completed comes back. Until stop 74 the space came back only from sends some other call's progress
   * had seen complete, and a second bsend failed where MPICH's finds room.
   */
  private void checkActiveBuffered() {
    reclaimBuffered();
    if (bufferedSends.isEmpty()) {
      return;
    }
    long passStartedPs = clock.now();
    progress();
    reclaimBuffered();
    if (!bufferedSends.isEmpty()) {
      emptyPoll(passStartedPs);
    }
  }

  /** Gives back the attached space of buffered sends that have completed. */
  private void reclaimBuffered() {
    for (Iterator<BufferedSend> it = bufferedSends.iterator(); it.hasNext(); ) {
      BufferedSend b = it.next();
      if (b.send().complete) {
        bsendUsed -= b.space();
        it.remove();
      }
    }
  }

  @Override
  public void ssend(byte[] buf, int offset, int length, int dest, int tag, Communicator comm) {
    Request r = issend(buf, offset, length, dest, tag, comm);
    failUnmatchedSelfSend(r, "MPI_Ssend");
    wait(r);
  }

  @Override
  public Request issend(byte[] buf, int offset, int length, int dest, int tag, Communicator comm) {
    checkBuffer("buf", buf, offset, length);
    checkComm(comm);
    checkTag(tag);
    return startSend(buf, offset, length, peer("dest", comm, dest, false), tag, comm.context(), comm, true);
  }

  /**
   * A blocking send to the rank itself that no receive posted before it has matched: MPICH CH3's {@code MPID_Send}
   * and {@code MPID_Ssend} ({@code src/mpid/ch3/src/mpid_send.c}, {@code mpid_ssend.c}) find the request of
   * {@code MPIDI_Isend_self} incomplete and return {@code MPI_ERR_OTHER}, {@code **dev|selfsenddeadlock} ("DEADLOCK:
   * attempting to send a message to the local process without a prior matching receive"), in a build without
   * {@code MPICH_IS_THREADED}; a threaded one waits for ever. The rank fails in one line; its message is taken back
   * first, so that nothing the send left behind matches a later receive.
   *
   * @param r the send's request, just started
   * @param call the MPI call, for the report
   * @throws IllegalStateException when {@code r} is such a send
   */
  private void failUnmatchedSelfSend(Request r, String call) {
    failUnmatchedSelfSend(r, call + " to itself (tag " + r.tag + " on " + commName(r.comm) + ")",
        "post the receive first, or use isend or sendrecv");
  }

  /**
   * The same check for a collective's blocking send ({@code MPIC_Send} calls {@code MPID_Send}): no algorithm of
   * {@link Collectives} sends to its own rank, each copies its own block, so one that does is a defect of the model,
   * reported at once rather than as a deadlock once the other ranks are done. The report names the communicator, not
   * the collective's internal tag.
   *
   * @param r the send's request, just started
   */
  void failUnmatchedCollectiveSelfSend(Request r) {
    failUnmatchedSelfSend(r, "a collective's MPIC_Send to itself (on " + commName(r.comm) + ")",
        "the model's collective algorithms copy a rank's own block locally; this one is a defect of the model");
  }

  private void failUnmatchedSelfSend(Request r, String what, String advice) {
    if (r.complete || r.sourceWorld != worldRank) {
      return;
    }
    unexpected.removeIf(m -> m.selfSender == r);
    throw new IllegalStateException("MPI_ERR_OTHER at rank " + worldRank + ": DEADLOCK: " + what + " with no matching"
        + " receive posted before it (MPICH's **dev|selfsenddeadlock; " + advice + ")");
  }

  /** @return how a report names a communicator: the world, or one of so many ranks */
  private String commName(Communicator comm) {
    return comm == world ? "the world communicator" : "a communicator of " + comm.size() + " ranks";
  }

  @Override
  public Request irecv(byte[] buf, int offset, int capacity, int source, int tag, Communicator comm) {
    checkBuffer("buf", buf, offset, capacity, "capacity");
    checkComm(comm);
    checkArgument(tag >= 0 && tag <= TAG_UB || tag == ANY_TAG, "tag must be in [0, %s] or ANY_TAG (-1) but was %s",
        TAG_UB, tag);
    return postReceive(buf, offset, capacity, peer("source", comm, source, true), tag, comm.context(), comm);
  }

  @Override
  public MpiStatus wait(Request request) {
    caller();
    checkArgument(request != null, "request must not be null");
    checkMine(request);
    if (!request.complete) {
      waitFor(describe(request), () -> request.complete);
    }
    request.waited = true;
    return request.status;
  }

  /**
   * A request is waited for by the rank that made it (its communicator's holder): another rank's was waited for as if
   * it were this rank's, and a deadlock then named a receive this rank never posted (stop 47).
   */
  private void checkMine(Request r) {
    if (r.comm.owner() != this) {
      throw new IllegalArgumentException("request must be one this rank made but was " + whose(r.comm.owner()));
    }
  }

  /** Whose a communicator (or a request made on it) is, told from this rank: another rank's or another job's. */
  private String whose(Rank holder) {
    return holder == null ? "one no rank holds" : holder.job == job ? "rank " + holder.worldRank + "'s"
        : "one of another job";
  }

  private static String describe(Request r) {
    if (r.kind() == Request.Kind.SEND) {
      return "a send to world rank " + r.sourceWorld + " (tag " + r.tag + ")";
    }
    return "a receive from " + (r.sourceWorld < 0 ? "any rank" : "world rank " + r.sourceWorld) + " (tag "
        + (r.tag == ANY_TAG ? "any" : r.tag) + ")";
  }

  @Override
  public void waitall(Request... requests) {
    checkTests(requests);
    Request first = null;
    for (Request r : requests) {
      if (r != null) { // null is MPI_REQUEST_NULL: nothing to wait for
        first = r;
        break;
      }
    }
    waitFor(first == null ? "nothing" : "waitall of " + requests.length + " requests, e.g. " + describe(first),
        () -> {
          for (Request r : requests) {
            if (r != null && !r.complete) {
              return false;
            }
          }
          return true;
        });
    for (Request r : requests) {
      if (r != null) {
        r.waited = true;
      }
    }
  }

  @Override
  public int waitany(Request... requests) {
    checkTests(requests);
    if (!anyActive(requests)) { // null is MPI_REQUEST_NULL, skipped
      return UNDEFINED; // MPI_Waitany of no active request returns MPI_UNDEFINED at once
    }
    int[] found = {-1};
    waitFor("waitany of " + requests.length + " requests", () -> {
      for (int i = 0; i < requests.length; i++) {
        if (requests[i] != null && requests[i].complete) {
          found[0] = i;
          return true;
        }
      }
      return false;
    });
    requests[found[0]].waited = true;
    requests[found[0]] = null; // as MPI_Waitany deallocates it: the array's next waitany goes on to the others
    return found[0];
  }

  @Override
  public boolean test(Request request) {
    caller();
    checkArgument(request != null, "request must not be null");
    checkMine(request);
    long passStartedPs = clock.now();
    progress();
    request.waited |= request.complete;
    if (!request.complete) {
      emptyPoll(passStartedPs);
    }
    return request.complete;
  }

  @Override
  public boolean testall(Request... requests) {
    long passStartedPs = beginTests(requests);
    boolean all = true;
    for (Request r : requests) {
      all &= r == null || r.complete;
    }
    if (all) {
      for (Request r : requests) {
        if (r != null) {
          r.waited = true;
        }
      }
    } else {
      emptyPoll(passStartedPs);
    }
    return all;
  }

  @Override
  public TestanyResult testany(Request... requests) {
    checkTests(requests);
    if (!anyActive(requests)) {
      // flag true, index MPI_UNDEFINED, at once (MPI 3.1 §3.7.5): MPICH's MPIR_Testany returns before MPID_Testany's
      // progress pass. It gave UNDEFINED after a pass, as for none completed, and a loop until a request was returned
      // never ended (until stop 70).
      return TestanyResult.NO_ACTIVE_REQUEST;
    }
    long passStartedPs = clock.now();
    progress();
    for (int i = 0; i < requests.length; i++) {
      Request r = requests[i];
      if (r != null && r.complete) {
        r.waited = true;
        requests[i] = null; // as MPI_Testany deallocates it (and waitany does here)
        return TestanyResult.completed(i);
      }
    }
    emptyPoll(passStartedPs);
    return TestanyResult.NONE_COMPLETED;
  }

  /** @return whether an entry is not null (MPI_REQUEST_NULL) */
  private static boolean anyActive(Request[] requests) {
    for (Request r : requests) {
      if (r != null) {
        return true;
      }
    }
    return false;
  }

  @Override
  public int[] testsome(Request... requests) {
    checkTests(requests);
    if (!anyActive(requests)) {
      // outcount MPI_UNDEFINED, at once (MPI 3.1 §3.7.5): MPICH's MPIR_Testsome returns before MPID_Testsome's
      // progress pass, as testany does. It gave an empty array after a pass, as for none completed (until stop 71).
      return null;
    }
    long passStartedPs = clock.now();
    progress();
    int n = 0;
    for (Request r : requests) {
      n += r != null && r.complete ? 1 : 0;
    }
    int[] done = new int[n];
    n = 0;
    for (int i = 0; i < requests.length; i++) {
      Request r = requests[i];
      if (r != null && r.complete) {
        r.waited = true;
        requests[i] = null;
        done[n++] = i;
      }
    }
    if (n == 0) {
      emptyPoll(passStartedPs);
    }
    return done;
  }

  /** Checks a test's requests and makes the one progress pass; @return the time the pass began */
  private long beginTests(Request[] requests) {
    checkTests(requests);
    long passStartedPs = clock.now();
    progress();
    return passStartedPs;
  }

  /** Checks the caller and the requests of a call on an array of them (a wait or a test). */
  private void checkTests(Request[] requests) {
    caller();
    checkArgument(requests != null, "requests must not be null");
    for (Request r : requests) {
      if (r != null) {
        checkMine(r);
      }
    }
    checkDistinct(requests);
  }

  /**
   * Refuses a request listed twice in one array, naming both indices: MPI makes that erroneous (MPICH's MPI_Waitall
   * page: listing a request handle more than once "is considered erroneous"), and here a testany of {r, r} returned r
   * twice, at index 0 and again at 1, and a testsome gave both indices for one request (until stop 71). Null entries
   * (MPI_REQUEST_NULL) may repeat. Linear in the array's length: an identity set, after a pair-by-pair look, which
   * allocates nothing, for the short arrays most calls pass (a sendrecv's two).
   */
  private static void checkDistinct(Request[] requests) {
    int n = requests.length;
    if (n <= DISTINCT_BY_PAIRS) {
      for (int j = 1; j < n; j++) {
        Request r = requests[j];
        if (r != null) {
          for (int i = 0; i < j; i++) {
            if (requests[i] == r) {
              throw repeated(i, j);
            }
          }
        }
      }
      return;
    }
    Map<Request, Integer> seen = new IdentityHashMap<>(n);
    for (int j = 0; j < n; j++) {
      Request r = requests[j];
      if (r != null) {
        Integer i = seen.putIfAbsent(r, j);
        if (i != null) {
          throw repeated(i, j);
        }
      }
    }
  }

  private static IllegalArgumentException repeated(int first, int again) {
    return new IllegalArgumentException("requests[" + first + "] and requests[" + again + "] must be different requests"
        + " but were the same one (MPI makes a request listed twice in one array erroneous)");
  }

  /**
   * The end of a nonblocking check ({@code test}, {@code iprobe}, {@code winTest}) that found nothing: when its pass of
   * the progress engine took no simulated time (nothing was there to take, so no poll or CQ read was timed), the rank
   * spends {@code pollIntervalPs}, the time one empty poll takes (assumed, as that interval is). Without it a program
   * that polls in a loop ({@code do MPI_Test(...) while (!flag)}, the usual pattern) never let simulated time pass:
   * the sender never ran and the loop spun for ever, unseen by the deadlock watch (its rank was never parked).
   *
   * @param passStartedPs the time the check's progress pass began
   */
  void emptyPoll(long passStartedPs) {
    if (clock.now() == passStartedPs) {
      spend(config.pollIntervalPs());
    }
  }

  @Override
  public void cancel(Request request) {
    caller();
    checkArgument(request != null, "request must not be null");
    checkMine(request);
    if (request.complete) {
      return;
    }
    if (request.kind() == Request.Kind.RECEIVE) {
      if (posted.remove(request)) {
        request.cancelled = true;
        markComplete(request);
      }
      return;
    }
    long sendId = rendezvousSends.containsKey(request.id) ? request.id : -1;
    if (sendId < 0) {
      for (Map.Entry<Long, Request> e : syncSends.entrySet()) {
        if (e.getValue() == request) {
          sendId = e.getKey(); // a synchronous buffered message, until the receiver's match
          break;
        }
      }
    }
    if (sendId >= 0) {
      if (cancelsAsked.add(sendId)) {
        // MPICH CH3's MPID_Cancel_send: a request to the receiver, behind the message in the pair's order. The call
        // is local (MPI 3.1 §3.8.4): without a mailbox credit the request waits for the progress engine to send it,
        // as CH3's iStartMsg queues a packet it cannot send yet; until stop 74 the call waited for the credit.
        cancelsQueued.add(new QueuedCancel(sendId, request));
        sendQueuedCancels();
      }
      return;
    }
    for (Iterator<Incoming> it = unexpected.iterator(); it.hasNext(); ) {
      Incoming m = it.next();
      if (m.selfSender == request) {
        it.remove(); // a send to itself no receive has matched: taken back at once (CH3's MPID_Cancel_send)
        request.cancelled = true;
        markComplete(request);
        return;
      }
    }
  }

  /** A send's cancellation request not yet sent: the send's id and request. */
  private record QueuedCancel(long sendId, Request request) {}

  /** Sends the queued cancellation requests whose receiver has a mailbox credit free, each in its turn, none waiting. */
  private void sendQueuedCancels() {
    if (sendingCancels || cancelsQueued.isEmpty()) {
      return;
    }
    sendingCancels = true;
    try {
      for (Iterator<QueuedCancel> it = cancelsQueued.iterator(); it.hasNext(); ) {
        QueuedCancel q = it.next();
        if (!hasCredit(q.request().sourceWorld)) {
          continue;
        }
        it.remove();
        byte[] id = LittleEndian.ofLong(q.sendId());
        Request r = q.request();
        startSend(id, 0, id.length, r.sourceWorld, 0, r.context, r.comm, false, CANCEL_WORD);
      }
    } finally {
      sendingCancels = false;
    }
  }

  /** @return whether a message to {@code destWorld} would find a mailbox slot free now */
  private boolean hasCredit(int destWorld) {
    int peer = peers.of(destWorld);
    return peers.sendSeq[peer] - 1 - peers.creditsBack[peer] < config.mailboxSlots();
  }

  /** A send's cancellation request: its message is taken back if no receive has matched it yet. */
  private void cancelArrived(Incoming c) {
    long id = LittleEndian.get(c.payload, 0, 8);
    boolean taken = false;
    for (Iterator<Incoming> it = unexpected.iterator(); it.hasNext(); ) {
      Incoming m = it.next();
      if (m.sourceWorld != c.sourceWorld || m.sendId != id) {
        continue;
      }
      // a rendezvous or single-copy message, whose data has not moved; or a synchronous buffered one held here
      // (inline, or its eager data landed: that place is given back; one whose data is still on its way stays)
      boolean eagerLanded = m.protocol == Protocol.EAGER && m.dataReady;
      if (m.sync && m.protocol == Protocol.EAGER && !m.dataReady) {
        // its data is still being fetched (MPICH's eager packet carries it, so CH3 finds the whole message here):
        // answered once it has landed, taken back then if no receive has matched it meanwhile
        m.cancelWanted = true;
        return;
      }
      if (m.protocol == Protocol.RENDEZVOUS || m.protocol == Protocol.SINGLE_COPY
          || (m.sync && (m.inline || eagerLanded))) {
        it.remove();
        if (eagerLanded) {
          releaseLanding(m);
        }
        taken = true;
      }
      break;
    }
    control(c.sourceWorld, CQ_CANCEL_ANSWER, id << 1 | (taken ? 1 : 0));
  }

  /** The receiver's answer: a send taken back completes as cancelled, its buffer free; else its FIN completes it. */
  private void cancelAnswered(long id, boolean taken) {
    cancelsAsked.remove(id);
    if (!taken) {
      return;
    }
    Request r;
    RendezvousSend s = rendezvousSends.remove(id);
    if (s != null) {
      if (s.length > 0) {
        userBuffers.release(s.place, s.length);
      }
      r = s.request;
    } else {
      r = syncSends.remove(id); // (its eager buffer came back with the receiver's acknowledgement of the data)
    }
    r.cancelled = true;
    markComplete(r);
  }

  @Override
  public PersistentRequest sendInit(byte[] buf, int offset, int length, int dest, int tag, Communicator comm) {
    return sendTemplate(PersistentRequest.Mode.SEND, buf, offset, length, dest, tag, comm);
  }

  @Override
  public PersistentRequest ssendInit(byte[] buf, int offset, int length, int dest, int tag, Communicator comm) {
    return sendTemplate(PersistentRequest.Mode.SYNCHRONOUS_SEND, buf, offset, length, dest, tag, comm);
  }

  private PersistentRequest sendTemplate(PersistentRequest.Mode mode, byte[] buf, int offset, int length, int dest,
      int tag, Communicator comm) {
    checkBuffer("buf", buf, offset, length);
    checkComm(comm);
    checkTag(tag);
    return new PersistentRequest(mode, buf, offset, length, dest, peer("dest", comm, dest, false), tag, comm);
  }

  @Override
  public PersistentRequest bsendInit(byte[] buf, int offset, int length, int dest, int tag, Communicator comm) {
    return sendTemplate(PersistentRequest.Mode.BUFFERED_SEND, buf, offset, length, dest, tag, comm);
  }

  @Override
  public PersistentRequest recvInit(byte[] buf, int offset, int capacity, int source, int tag, Communicator comm) {
    checkBuffer("buf", buf, offset, capacity, "capacity");
    checkComm(comm);
    checkProbeTag(tag);
    return new PersistentRequest(PersistentRequest.Mode.RECEIVE, buf, offset, capacity, source,
        peer("source", comm, source, true), tag, comm);
  }

  @Override
  public Request start(PersistentRequest request) {
    caller();
    checkStartable(request, "request");
    return startOne(request);
  }

  @Override
  public Request[] startall(PersistentRequest... requests) {
    caller();
    checkArgument(requests != null, "requests must not be null");
    for (int i = 0; i < requests.length; i++) {
      checkStartable(requests[i], "requests[" + i + "]");
      for (int j = 0; j < i; j++) {
        checkArgument(requests[j] != requests[i], "requests[%s] must not be requests[%s] again (a request starts"
            + " once a call)", i, j);
      }
    }
    Request[] out = new Request[requests.length];
    for (int i = 0; i < requests.length; i++) {
      out[i] = startOne(requests[i]);
    }
    return out;
  }

  /** A start as MPICH's {@code MPID_Startall} makes it: the nonblocking call of the request's arguments. */
  private Request startOne(PersistentRequest p) {
    Request r = switch (p.mode) {
      case SEND -> startSend(p.buffer, p.offset, p.length, p.peerWorld, p.tag, p.comm.context(), p.comm);
      case SYNCHRONOUS_SEND -> startSend(p.buffer, p.offset, p.length, p.peerWorld, p.tag, p.comm.context(), p.comm,
          true);
      case BUFFERED_SEND -> startBuffered(p.buffer, p.offset, p.length, p.peerWorld, p.tag, p.comm);
      case RECEIVE -> postReceive(p.buffer, p.offset, p.length, p.peerWorld, p.tag, p.comm.context(), p.comm);
    };
    p.active = r;
    p.starts++;
    return r;
  }

  private void checkStartable(PersistentRequest p, String name) {
    checkArgument(p != null, "%s must not be null", name);
    if (p.comm.owner() != this) {
      throw new IllegalArgumentException(name + " must be one this rank made but was " + whose(p.comm.owner()));
    }
    if (p.isActive()) {
      throw new IllegalArgumentException(name + " must be inactive (its last start returned complete by a wait or a"
          + " test) but was active: " + describe(p.active) + (p.active.complete ? ", complete but not yet waited for"
          : ", still in progress"));
    }
  }

  @Override
  public MpiStatus sendrecv(byte[] sendBuf, int sendOffset, int sendLength, int dest, int sendTag, byte[] recvBuf,
      int recvOffset, int recvCapacity, int source, int recvTag, Communicator comm) {
    Request r = irecv(recvBuf, recvOffset, recvCapacity, source, recvTag, comm);
    Request s = isend(sendBuf, sendOffset, sendLength, dest, sendTag, comm);
    waitall(r, s);
    return r.status;
  }

  @Override
  public MpiStatus probe(int source, int tag, Communicator comm) {
    MpiStatus[] found = {null};
    checkComm(comm);
    checkProbeTag(tag);
    int src = peer("source", comm, source, true);
    waitFor("a probe for " + (src < 0 ? "any rank" : "world rank " + src), () -> {
      found[0] = peek(src, tag, comm);
      return found[0] != null;
    });
    return found[0];
  }

  @Override
  public MpiStatus iprobe(int source, int tag, Communicator comm) {
    checkComm(comm);
    checkProbeTag(tag);
    int src = peer("source", comm, source, true);
    long passStartedPs = clock.now();
    progress();
    MpiStatus found = peek(src, tag, comm);
    if (found == null) {
      emptyPoll(passStartedPs);
    }
    return found;
  }

  /** A probe's tag, checked as a receive's (a bad one matched nothing: iprobe gave null, probe a deadlock). */
  private static void checkProbeTag(int tag) {
    checkArgument(tag >= 0 && tag <= TAG_UB || tag == ANY_TAG, "tag must be in [0, %s] or ANY_TAG (-1) but was %s",
        TAG_UB, tag);
  }

  private MpiStatus peek(int sourceWorld, int tag, Communicator comm) {
    for (Incoming m : unexpected) {
      if (m.context == comm.context() && (sourceWorld < 0 || m.sourceWorld == sourceWorld)
          && (tag == ANY_TAG || tag == m.tag)) {
        return new MpiStatus(comm.rankOfWorld(m.sourceWorld), m.tag, m.length);
      }
    }
    return null;
  }

  @Override
  public Communicator split(Communicator comm, int color, int key) {
    checkComm(comm);
    checkArgument(color >= 0 || color == UNDEFINED, "color must be >= 0 or UNDEFINED (-1) but was %s", color);
    enter(comm, CollectiveLedger.Call.of(Kind.SPLIT, clock.now()));
    Communicator c = collectives.split(comm, color, key);
    leave();
    return c;
  }

  @Override
  public Communicator dup(Communicator comm) {
    checkComm(comm);
    enter(comm, CollectiveLedger.Call.of(Kind.DUP, clock.now()));
    Communicator c = collectives.split(comm, 0, comm.rank());
    leave();
    return c;
  }

  /**
   * Records a collective call with the job's ledger (which refuses a program whose ranks disagree) and notes it for a
   * deadlock's report. Called after the call's own argument checks, so a refused call is not counted.
   */
  void enter(Communicator comm, CollectiveLedger.Call call) {
    int number = comm.nextCollectiveCall();
    job.ledger().record(comm, number, call, site);
    inCall = call + " on " + commName(comm) + " (its collective call " + number + ")";
  }

  void leave() {
    inCall = null;
  }

  /**
   * MPI_Finalize, after the rank's program returned: its transfers drained, the barrier every rank makes on the
   * world, and its transfers drained again.
   */
  void finalizeRun() {
    finalizing = true;
    drain();
    enter(world, CollectiveLedger.Call.of(Kind.FINALIZE, clock.now()));
    collectives.barrier(world);
    leave();
    drain();
    finalizing = false;
    finalizedRuns++;
  }

  /** @return whether the rank's program has returned and the rank is in finalize */
  boolean finalizing() {
    return finalizing;
  }

  /** @return the collective this rank is in, or what else it does, for a deadlock's report */
  String callForDiagnostics() {
    return inCall != null ? inCall : finalizing ? "finalize" : "its program";
  }

  @Override
  public void barrier(Communicator comm) {
    checkComm(comm);
    enter(comm, CollectiveLedger.Call.of(Kind.BARRIER, clock.now()));
    collectives.barrier(comm);
    leave();
  }

  @Override
  public void bcast(byte[] buf, int offset, int length, int root, Communicator comm) {
    checkBuffer("buf", buf, offset, length);
    checkComm(comm);
    peer("root", comm, root, false);
    enter(comm, new CollectiveLedger.Call(Kind.BCAST, root, length, null, null, null, null, clock.now()));
    collectives.bcast(buf, offset, length, root, comm);
    leave();
  }

  @Override
  public void reduce(long[] send, long[] recv, ReduceOp op, int root, Communicator comm) {
    checkReduce(send, recv == null ? -1 : recv.length, op, comm, comm != null && root == comm.rank(), false);
    peer("root", comm, root, false);
    enter(comm, new CollectiveLedger.Call(Kind.REDUCE, root, send.length, ElementType.LONG, op, null, null,
        clock.now()));
    byte[] out = collectives.reduce(ElementType.LONG, ElementType.pack(send), send.length, op, root, comm);
    if (comm.rank() == root) {
      ElementType.unpack(out, recv);
    }
    leave();
  }

  @Override
  public void reduce(double[] send, double[] recv, ReduceOp op, int root, Communicator comm) {
    checkReduce(send, recv == null ? -1 : recv.length, op, comm, comm != null && root == comm.rank(), true);
    peer("root", comm, root, false);
    enter(comm, new CollectiveLedger.Call(Kind.REDUCE, root, send.length, ElementType.DOUBLE, op, null, null,
        clock.now()));
    byte[] out = collectives.reduce(ElementType.DOUBLE, ElementType.pack(send), send.length, op, root, comm);
    if (comm.rank() == root) {
      ElementType.unpack(out, recv);
    }
    leave();
  }

  private void checkReduce(Object send, int recvLength, ReduceOp op, Communicator comm, boolean needRecv,
      boolean doubles) {
    checkArgument(send != null, "send must not be null");
    checkArgument(op != null, "op must not be null");
    checkComm(comm);
    checkArgument(!doubles || op.definedOnDoubles(), "op must be SUM, PROD, MIN or MAX for doubles but was %s", op);
    int n = send instanceof long[] l ? l.length : ((double[]) send).length;
    ElementType.checkCount("send", n);
    if (needRecv) {
      checkArgument(recvLength >= 0, "recv must not be null"); // (a null's length, -1, was reported as a count)
      checkArgument(recvLength == n, "recv must have the %s elements of send but had %s", n, recvLength);
    }
  }

  @Override
  public void allreduce(long[] send, long[] recv, ReduceOp op, Communicator comm) {
    checkReduce(send, recv == null ? -1 : recv.length, op, comm, true, false);
    enter(comm, reduction(Kind.ALLREDUCE, send.length, ElementType.LONG, op));
    ElementType.unpack(collectives.allreduce(ElementType.LONG, ElementType.pack(send), send.length, op, comm), recv);
    leave();
  }

  @Override
  public void allreduce(double[] send, double[] recv, ReduceOp op, Communicator comm) {
    checkReduce(send, recv == null ? -1 : recv.length, op, comm, true, true);
    enter(comm, reduction(Kind.ALLREDUCE, send.length, ElementType.DOUBLE, op));
    ElementType.unpack(collectives.allreduce(ElementType.DOUBLE, ElementType.pack(send), send.length, op, comm),
        recv);
    leave();
  }

  private CollectiveLedger.Call reduction(Kind kind, int count, ElementType type, ReduceOp op) {
    return new CollectiveLedger.Call(kind, -1, count, type, op, null, null, clock.now());
  }

  @Override
  public void gather(byte[] send, byte[] recv, int root, Communicator comm) {
    checkArgument(send != null, "send must not be null");
    checkComm(comm);
    peer("root", comm, root, false);
    if (comm.rank() == root) {
      // (in long: a product past 2^31 wrapped, and one of exactly 2^32 let an empty recv through)
      checkArgument(recv != null && recv.length == (long) send.length * comm.size(),
          "recv must have size x block = %s bytes at the root but had %s", (long) send.length * comm.size(),
          recv == null ? 0 : recv.length);
    }
    enter(comm, new CollectiveLedger.Call(Kind.GATHER, root, send.length, null, null, null, null, clock.now()));
    collectives.gather(send, recv, root, comm);
    leave();
  }

  @Override
  public void gatherv(byte[] send, byte[] recv, int[] counts, int[] displs, int root, Communicator comm) {
    checkArgument(send != null, "send must not be null");
    checkComm(comm);
    peer("root", comm, root, false);
    if (comm.rank() == root) {
      checkV("recv", recv, counts, displs, comm.size());
      checkArgument(counts[comm.rank()] == send.length, "counts[root] must equal send.length %s but was %s",
          send.length, counts[comm.rank()]);
    }
    boolean atRoot = comm.rank() == root;
    enter(comm, new CollectiveLedger.Call(Kind.GATHERV, root, send.length, null, null, atRoot ? counts : null, null,
        clock.now()));
    collectives.gatherv(send, atRoot ? movedBuffer(recv) : recv, counts, atRoot ? movedDispls(counts, displs) : displs,
        root, comm);
    leave();
  }

  /** A v-collective's buffer as the collective moves it: a null one (every count 0, checked) is empty. */
  private static byte[] movedBuffer(byte[] buf) {
    return buf == null ? NO_BYTES : buf;
  }

  /**
   * A v-collective's displacements as the collective moves them: a block of count 0 is at 0, wherever the caller put
   * it (MPI never touches it), so that no copy of 0 bytes starts past its array's end.
   */
  private static int[] movedDispls(int[] counts, int[] displs) {
    int[] d = displs;
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] == 0 && displs[i] != 0) {
        if (d == displs) {
          d = displs.clone();
        }
        d[i] = 0;
      }
    }
    return d;
  }

  /**
   * A v-collective's blocks must lie within their buffer. MPI never touches a block of count 0, so its displacement
   * is not checked, and the buffer may be null when every count is 0 ({@link #movedBuffer}, {@link #movedDispls}).
   */
  private static void checkV(String what, byte[] buf, int[] counts, int[] displs, int n) {
    checkArgument(counts != null && counts.length == n, "counts must have %s entries", n);
    checkArgument(displs != null && displs.length == n, "displs must have %s entries", n);
    for (int i = 0; i < n; i++) {
      if (counts[i] < 0) {
        throw new IllegalArgumentException(what + ": block " + i + "'s count must be >= 0 but was " + counts[i]);
      }
    }
    for (int i = 0; i < n; i++) {
      if (counts[i] == 0) {
        continue;
      }
      if (buf == null) {
        throw new IllegalArgumentException(what + " must not be null: block " + i + " has count " + counts[i]);
      }
      if (displs[i] < 0 || displs[i] > buf.length - counts[i]) {
        throw new IllegalArgumentException(what + ": block " + i + " (displacement " + displs[i] + ", count "
            + counts[i] + ") must lie within its " + buf.length + " bytes");
      }
    }
    if (what.equals("recv")) {
      checkDisjoint(counts, displs);
    }
  }

  /**
   * A receive buffer's blocks must not overlap (MPI: "the specification of counts, types, and displacements should
   * not cause any location on the root to be written more than once"); two blocks arriving into one place left
   * whichever came last, in silence. Blocks sent from may overlap.
   */
  private static void checkDisjoint(int[] counts, int[] displs) {
    int n = counts.length;
    long[] byStart = new long[n];
    int m = 0;
    for (int i = 0; i < n; i++) {
      if (counts[i] > 0) {
        byStart[m++] = (long) displs[i] << 32 | i; // displacements are >= 0 (checked), so these sort by start
      }
    }
    Arrays.sort(byStart, 0, m);
    for (int k = 1; k < m; k++) {
      int a = (int) byStart[k - 1];
      int b = (int) byStart[k];
      if ((long) displs[a] + counts[a] > displs[b]) {
        int lo = Math.min(a, b);
        int hi = Math.max(a, b);
        throw new IllegalArgumentException("recv: blocks " + lo + " and " + hi + " (displacements " + displs[lo]
            + " and " + displs[hi] + ", counts " + counts[lo] + " and " + counts[hi] + ") overlap; a receive"
            + " buffer's blocks must not share a byte");
      }
    }
  }

  @Override
  public void scatter(byte[] send, byte[] recv, int root, Communicator comm) {
    checkArgument(recv != null, "recv must not be null");
    checkComm(comm);
    peer("root", comm, root, false);
    if (comm.rank() == root) {
      checkArgument(send != null && send.length == (long) recv.length * comm.size(), // (long: as gather's)
          "send must have size x block = %s bytes at the root but had %s", (long) recv.length * comm.size(),
          send == null ? 0 : send.length);
    }
    enter(comm, new CollectiveLedger.Call(Kind.SCATTER, root, recv.length, null, null, null, null, clock.now()));
    collectives.scatter(send, recv, root, comm);
    leave();
  }

  @Override
  public void scatterv(byte[] send, int[] counts, int[] displs, byte[] recv, int root, Communicator comm) {
    checkArgument(recv != null, "recv must not be null");
    checkComm(comm);
    peer("root", comm, root, false);
    if (comm.rank() == root) {
      checkV("send", send, counts, displs, comm.size());
      checkArgument(counts[root] == recv.length, "counts[root] must equal recv.length %s but was %s", recv.length,
          counts[root]);
    }
    boolean atRoot = comm.rank() == root;
    enter(comm, new CollectiveLedger.Call(Kind.SCATTERV, root, recv.length, null, null, atRoot ? counts : null, null,
        clock.now()));
    collectives.scatterv(atRoot ? movedBuffer(send) : send, counts, atRoot ? movedDispls(counts, displs) : displs,
        recv, root, comm);
    leave();
  }

  @Override
  public void allgather(byte[] send, byte[] recv, Communicator comm) {
    checkArgument(send != null, "send must not be null");
    checkComm(comm);
    checkArgument(recv != null && recv.length == (long) send.length * comm.size(), // (long: as gather's)
        "recv must have size x block = %s bytes but had %s", (long) send.length * comm.size(),
        recv == null ? 0 : recv.length);
    enter(comm, new CollectiveLedger.Call(Kind.ALLGATHER, -1, send.length, null, null, null, null, clock.now()));
    collectives.allgather(send, recv, comm);
    leave();
  }

  @Override
  public void allgatherv(byte[] send, byte[] recv, int[] counts, int[] displs, Communicator comm) {
    checkArgument(send != null, "send must not be null");
    checkComm(comm);
    checkV("recv", recv, counts, displs, comm.size());
    checkArgument(counts[comm.rank()] == send.length, "counts[rank] must equal send.length %s but was %s",
        send.length, counts[comm.rank()]);
    enter(comm, new CollectiveLedger.Call(Kind.ALLGATHERV, -1, 0, null, null, counts, null, clock.now()));
    collectives.allgatherv(send, movedBuffer(recv), counts, movedDispls(counts, displs), comm);
    leave();
  }

  @Override
  public void alltoall(byte[] send, byte[] recv, Communicator comm) {
    checkArgument(send != null && recv != null, "send and recv must not be null");
    checkComm(comm);
    checkArgument(send.length % comm.size() == 0 && recv.length == send.length,
        "send must hold size (%s) equal blocks and recv as many bytes, but they had %s and %s", comm.size(),
        send.length, recv.length);
    enter(comm, new CollectiveLedger.Call(Kind.ALLTOALL, -1, send.length / comm.size(), null, null, null, null,
        clock.now()));
    collectives.alltoall(send, recv, comm);
    leave();
  }

  @Override
  public void alltoallv(byte[] send, int[] sendCounts, int[] sendDispls, byte[] recv, int[] recvCounts,
      int[] recvDispls, Communicator comm) {
    checkComm(comm);
    checkV("send", send, sendCounts, sendDispls, comm.size());
    checkV("recv", recv, recvCounts, recvDispls, comm.size());
    enter(comm, new CollectiveLedger.Call(Kind.ALLTOALLV, -1, 0, null, null, sendCounts, recvCounts, clock.now()));
    collectives.alltoallv(movedBuffer(send), sendCounts, movedDispls(sendCounts, sendDispls), movedBuffer(recv),
        recvCounts, movedDispls(recvCounts, recvDispls), comm);
    leave();
  }

  @Override
  public void reduceScatter(long[] send, long[] recv, int[] counts, ReduceOp op, Communicator comm) {
    checkReduce(send, -1, op, comm, false, false);
    checkCounts(send.length, recv == null ? -1 : recv.length, counts, comm);
    enter(comm, new CollectiveLedger.Call(Kind.REDUCE_SCATTER, -1, 0, ElementType.LONG, op, counts, null,
        clock.now()));
    ElementType.unpack(collectives.reduceScatter(ElementType.LONG, ElementType.pack(send), counts, op, comm), recv);
    leave();
  }

  @Override
  public void reduceScatter(double[] send, double[] recv, int[] counts, ReduceOp op, Communicator comm) {
    checkReduce(send, -1, op, comm, false, true);
    checkCounts(send.length, recv == null ? -1 : recv.length, counts, comm);
    enter(comm, new CollectiveLedger.Call(Kind.REDUCE_SCATTER, -1, 0, ElementType.DOUBLE, op, counts, null,
        clock.now()));
    ElementType.unpack(collectives.reduceScatter(ElementType.DOUBLE, ElementType.pack(send), counts, op, comm),
        recv);
    leave();
  }

  private static void checkCounts(int sendLength, int recvLength, int[] counts, Communicator comm) {
    checkArgument(counts != null && counts.length == comm.size(), "counts must have %s entries", comm.size());
    long sum = 0;
    for (int c : counts) {
      checkArgument(c >= 0, "counts must be >= 0 but one was %s", c);
      sum += c;
    }
    checkArgument(sum == sendLength, "send must have sum(counts) = %s elements but had %s", sum, sendLength);
    checkArgument(recvLength >= 0, "recv must not be null");
    checkArgument(recvLength == counts[comm.rank()], "recv must have counts[rank] = %s elements but had %s",
        counts[comm.rank()], recvLength);
  }

  @Override
  public void scan(long[] send, long[] recv, ReduceOp op, Communicator comm) {
    checkReduce(send, recv == null ? -1 : recv.length, op, comm, true, false);
    enter(comm, reduction(Kind.SCAN, send.length, ElementType.LONG, op));
    ElementType.unpack(collectives.scan(ElementType.LONG, ElementType.pack(send), send.length, op, comm), recv);
    leave();
  }

  @Override
  public void scan(double[] send, double[] recv, ReduceOp op, Communicator comm) {
    checkReduce(send, recv == null ? -1 : recv.length, op, comm, true, true);
    enter(comm, reduction(Kind.SCAN, send.length, ElementType.DOUBLE, op));
    ElementType.unpack(collectives.scan(ElementType.DOUBLE, ElementType.pack(send), send.length, op, comm), recv);
    leave();
  }

  @Override
  public String toString() {
    return "rank " + worldRank + " on node " + node.id();
  }

  /** A message that has arrived (its header at least) and waits for, or has found, its receive. */
  static final class Incoming {
    final Protocol protocol;
    final long context;
    final int sourceWorld;
    final int tag;
    final int length;
    long remoteOffset;
    /** The registration the sender's data lies in: its own (mailbox data, eager buffers) or a user-buffer segment. */
    int remoteMdh;
    long sendId;
    byte[] payload;
    /** The data came inside the mailbox message (SHORT, or a short on-node message). */
    boolean inline;
    /** The GET's landing place: a heap offset, or a {@link UserBuffers} handle when {@link #inUserMemory}. */
    long localChunk = -1;
    boolean inUserMemory;
    /** The landing place's registration and offset in it, as the GET names them. */
    int localMdh;
    long localOffset;
    boolean dataReady;
    boolean unexpected;
    Request boundTo;
    /** Sent synchronously and buffered: the match is acknowledged to the sender (CQ_SYNC_ACK). */
    boolean sync;
    /** Its sender asked to cancel it while its eager data was still being fetched: answered when that lands. */
    boolean cancelWanted;
    /** A send to the rank itself: its request, completed by the match. */
    Request selfSender;
    /** A one-sided packet's word ({@link OneSided}), or 0 for a two-sided message. */
    int rma;
    /** The call site its sender had named ({@link Request#senderCallSite}), or 0. */
    long senderSite;

    Incoming(Protocol protocol, long context, int sourceWorld, int tag, int length) {
      this.protocol = protocol;
      this.context = context;
      this.sourceWorld = sourceWorld;
      this.tag = tag;
      this.length = length;
    }
  }

  /**
   * What this rank left unfinished at finalize (after the run, every rank done): messages that arrived and no receive
   * took, and receives posted that no message matched.
   *
   * @return a description, or null when nothing was left
   */
  String leftAtFinalize() {
    // point-to-point contexts only (even ids): a collective's own messages left behind are what a finalize barrier
    // stuck behind an unreceived rendezvous send leaves, not the program's
    Incoming m = null;
    int messages = 0;
    for (Incoming i : unexpected) {
      if ((i.context & 1) == 0 && messages++ == 0) {
        m = i;
      }
    }
    Request r = null;
    int receives = 0;
    for (Request p : posted) {
      if ((p.context & 1) == 0 && receives++ == 0) {
        r = p;
      }
    }
    if (messages == 0 && receives == 0) {
      return null;
    }
    StringBuilder s = new StringBuilder("rank " + worldRank);
    if (m != null) {
      s.append(" holds ").append(messages).append(messages == 1 ? " message" : " messages")
          .append(" no receive took, e.g. from world rank ").append(m.sourceWorld).append(" (tag ").append(m.tag)
          .append(", ").append(m.length).append(" bytes)");
    }
    if (r != null) {
      s.append(m == null ? "" : " and").append(" has ").append(receives)
          .append(receives == 1 ? " receive" : " receives").append(" no message matched, e.g. from ")
          .append(r.sourceWorld < 0 ? "any rank" : "world rank " + r.sourceWorld).append(" (tag ")
          .append(r.tag == ANY_TAG ? "any" : String.valueOf(r.tag)).append(')');
    }
    return s.toString();
  }

  List<String> queuesForDiagnostics() {
    List<String> out = new ArrayList<>();
    out.add(posted.size() + " posted receives, " + unexpected.size() + " unexpected messages");
    return out;
  }

  private void markComplete(Request r) {
    r.complete = true;
    r.completedAtPs = clock.now();
    if (r.onComplete != null) {
      r.onComplete.run();
    }
  }

  /** @return a new request id (one sequence for every request and send this rank makes) */
  long nextRequestId() {
    return nextId++;
  }
}
