package io.github.ariesmodel.nic;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationListener;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One node's Aries NIC (aries-facts §3): the host interface after uGNI (register memory, create completion queues,
 * post FMA and BTE transactions), the source pipeline (local reads, ≤ 64-byte packetization, transaction tracking
 * with bounded request tags, back-pressure), the target pipeline (translation of incoming requests, PUT writes, GET
 * reads, the AMO unit) and completion events. It drives only core ports: {@link AddressTranslation} for every memory
 * access it makes, {@link HostMemory}, {@link Fabric} and {@link Scheduler}.
 *
 * <h2>Fidelity</h2>
 * Packet level. Each pipeline (request issue, request receive, response receive) handles one packet per
 * {@code packetCycles} (5 cycles at 800 MHz: 64 B per 6.25 ns, the published 10.2 GB/s peak [S2 via S1]); the host
 * interface is a pair of bandwidth-limited channels with latencies ({@link NicTiming}). Packets never cross a
 * 64-byte boundary of the remote address (cache-line packets; our assumption). Functional effects on memory happen at
 * a single simulated instant per packet, so an AMO is atomic against every other access through this NIC; the AMO
 * unit holds at most {@code amoRequestList} requests [S6d]. Not modelled: the FMA window and its doorbells (an FMA
 * post is timed as one host-interface write of its data), write combining, the AMO cache, PI ordering flags, NTT.
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
 * event whatever its modes. Each event reaches the host one host-interface write after its cause. Remote data is
 * never cached.
 *
 * <p>Construction is cheap (tables are allocated on first use), so a 92,544-node system can build one per node. The
 * constructor attaches the NIC to the fabric. Not thread-safe: one simulation, one thread.
 */
public final class Nic implements FabricEndpoint {

  /** Bits of a packet's tag field that carry the request tag. */
  static final int TAG_MASK = 0xFFF;
  /** Tag-field bit: the target writes a REMOTE event when it has processed this request. */
  static final int TAG_REMOTE_EVENT = 1 << 12;
  /** Tag-field bit: this 8-byte PUT is a CQ write whose MDH field names the target CQ. */
  static final int TAG_CQ_WRITE = 1 << 13;

  private static final int MAX_CQ_ENTRIES = 1 << 24;

  private static final int EV_POST = 0;
  private static final int EV_TX_SLOT = 1;
  private static final int EV_INJECT = 2;
  private static final int EV_RX_REQUEST = 3;
  private static final int EV_RX_RESPONSE = 4;
  private static final int EV_COMPLETION = 5;
  private static final int EV_AMO_DONE = 6;

  private static final int SRC_READ = 0;
  private static final int SRC_LAND = 1;
  private static final int TGT_PUT = 2;
  private static final int TGT_GET = 3;
  private static final int TGT_AMO = 4;

  private final int nodeId;
  private final Scheduler scheduler;
  private final HostMemory memory;
  private final AddressTranslation translation;
  private final Fabric fabric;
  private final NicConfig config;
  private final NicStatistics stats = new NicStatistics();
  private final EventHandler handler = this::onEvent;
  private final TranslationListener translated = this::onTranslated;

  private final long slotPs;
  private final long txLatencyPs;
  private final long rxLatencyPs;
  private final long hostLatencyPs;
  private final long hostReadLatencyPs;
  private final long amoLatencyPs;
  private final double hostPsPerByte;

  private CompletionListener listener;
  private List<CompletionQueue> queues;

  // Transactions, allocated on first post.
  private Tx[] txs;
  private int[] freeTags;
  private int freeTagCount;
  private int outstanding;
  private long unfinished;
  private ArrayDeque<Post> admission;
  private boolean headDelayCounted;
  private boolean fenceBlocked;
  private int admittedIncomplete;
  private ArrayDeque<Post>[] channelQueues;
  private boolean[] channelBusy;
  private int nextChannel;

  // Issue pipeline: round robin over transactions with requests left to issue.
  private Tx[] ring;
  private int ringSize;
  private int ringPos;
  private boolean slotScheduled;
  private boolean issuePaused;
  private long nextSlotAt;

  // Injection.
  private ArrayDeque<Packet> held;
  private boolean fabricBlocked;

  // Receive pipelines and host interface channels: the time each is next free.
  private long rxRequestFreeAt;
  private long rxResponseFreeAt;
  private long toNicFreeAt;
  private long toHostFreeAt;

  // AMO unit.
  private int amoInFlight;
  private ArrayDeque<Access> amoWaiting;

  private ArrayDeque<Access> accessPool;

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
    NicTiming t = config.timing();
    long cycle = t.cyclePs();
    this.slotPs = cycle * t.packetCycles();
    this.txLatencyPs = cycle * t.txPipelineCycles();
    this.rxLatencyPs = cycle * t.rxPipelineCycles();
    this.hostLatencyPs = t.hostLatencyPs();
    this.hostReadLatencyPs = t.hostReadLatencyPs();
    this.amoLatencyPs = t.hostReadLatencyPs() + cycle * t.amoUnitCycles();
    this.hostPsPerByte = Double.isInfinite(t.hostBytesPerSecond()) ? 0 : 1e12 / t.hostBytesPerSecond();
    fabric.attach(nodeId, this);
  }

  // ------------------------------------------------------------------------------------------------ host interface

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
   * Registers memory through the translation port ({@code GNI_MemRegister}).
   *
   * @param registration what to register; its PTAG/PKEY must match a requester's for remote access
   * @return the descriptor; its {@code mdh()} names the memory in posts and network addresses
   */
  public MemoryDomainDescriptor register(MemoryRegistration registration) {
    checkArgument(registration != null, "registration must not be null");
    if (registration.completionQueue() != MemoryDomainDescriptor.NO_CQ) {
      checkArgument(completionQueue(registration.completionQueue()) != null,
          "registration.completionQueue must name a CQ of node %s but was %s", nodeId,
          registration.completionQueue());
    }
    return translation.register(registration);
  }

  /**
   * Deregisters memory ({@code GNI_MemDeregister}); later requests naming it fault with INVALID_MDH.
   *
   * @param mdh a registered MDH
   */
  public void deregister(int mdh) {
    translation.deregister(mdh);
  }

  /**
   * Creates a completion queue ({@code GNI_CqCreate}). Handles are given out from 0 (at most 2,048, the 11-bit CQ
   * handle [S6e]).
   *
   * @param entries events the queue holds, 1 to 2^24 (the hardware's indices are 29 bits [S6e]; the model keeps the
   *     entries in an array, hence the smaller cap)
   * @return the queue
   * @throws IllegalStateException when 2,048 queues exist
   */
  public CompletionQueue createCompletionQueue(int entries) {
    checkArgument(entries >= 1 && entries <= MAX_CQ_ENTRIES, "entries must be in [1, %s] but was %s",
        MAX_CQ_ENTRIES, entries);
    if (queues == null) {
      queues = new ArrayList<>(2);
    }
    if (queues.size() > MemoryDomainDescriptor.MAX_CQ) {
      throw new IllegalStateException("node " + nodeId + " already has 2048 completion queues (11-bit handle)");
    }
    CompletionQueue q = new CompletionQueue(queues.size(), entries);
    queues.add(q);
    return q;
  }

  /**
   * The queue with a handle.
   *
   * @param handle a CQ handle
   * @return the queue, or null when this NIC has none with that handle
   */
  public CompletionQueue completionQueue(int handle) {
    return queues == null || handle < 0 || handle >= queues.size() ? null : queues.get(handle);
  }

  /**
   * Sets the probe that sees every completion event of this NIC at its simulated time.
   *
   * @param l the listener, or null for none
   */
  public void completionListener(CompletionListener l) {
    this.listener = l;
  }

  /** @return transactions holding a request tag now */
  public int outstandingTransactions() {
    return outstanding;
  }

  /**
   * Posts accepted by {@link #post} whose transaction has not completed yet, including posts still crossing the host
   * interface: zero means every post so far has completed (what a SHMEM {@code quiet} waits for).
   *
   * @return unfinished posts
   */
  public long unfinishedPosts() {
    return unfinished;
  }

  /** @return posts accepted but not yet started (waiting for a tag, a BTE channel or a fence) */
  public int queuedPosts() {
    int n = admission == null ? 0 : admission.size();
    if (channelQueues != null) {
      for (ArrayDeque<Post> q : channelQueues) {
        n += q.size();
      }
    }
    return n;
  }

  /**
   * Posts a transaction ({@code GNI_PostFma}, {@code GNI_PostRdma}, {@code GNI_PostCqWrite}). Returns at once; the
   * NIC sees the post one host-interface write later and reports through the completion events the post asked
   * for.
   *
   * @param post what to do
   * @throws IllegalArgumentException naming the field, the valid range and the value when the post is invalid:
   *     remote node outside the fabric, unknown completion queue, unknown or too short local registration, a
   *     zero-length GET, a BTE GET whose remote offset or length is not a multiple of 4 [S6a], an AMO that is not
   *     naturally aligned, an AMO length other than its width, a remote range past 2^40
   */
  public void post(Post post) {
    checkArgument(post != null, "post must not be null");
    Post p = validate(post);
    stats.posts++;
    unfinished++;
    long now = scheduler.now();
    long arrive =
        p.engine() == Post.Engine.FMA && p.type() == Post.PostType.PUT
            ? toNic(now, Math.max(16, p.length()), hostLatencyPs)
            : toNic(now, 64, hostLatencyPs);
    scheduler.scheduleAt(arrive, handler, p, EV_POST);
  }

  private Post validate(Post p) {
    NetworkAddress r = p.remote();
    checkArgument(r.nodeId() < fabric.nodeCount(), "post.remote.nodeId must be in [0, %s] but was %s",
        fabric.nodeCount() - 1, r.nodeId());
    if (p.completionQueue() != Post.NO_CQ) {
      checkArgument(completionQueue(p.completionQueue()) != null,
          "post.completionQueue must name a CQ of node %s (handles 0..%s exist) but was %s", nodeId,
          queues == null ? -1 : queues.size() - 1, p.completionQueue());
    }
    switch (p.type()) {
      case PUT:
      case GET: {
        boolean get = p.type() == Post.PostType.GET;
        checkArgument(!get || p.length() > 0,
            "post.length must be in [1, 4294967295] for a GET (zero-length GETs are not allowed [S5]) but was 0");
        checkArgument(r.offset() + p.length() <= NetworkAddress.MAX_OFFSET + 1,
            "post.remote.offset + post.length must be <= 2^40 but was %s + %s", r.offset(), p.length());
        checkLocal(p, p.length(), get);
        boolean aligned4 = (r.offset() & 3) == 0 && (p.length() & 3) == 0;
        Post.Engine e = p.engine();
        if (e == Post.Engine.AUTO) {
          e = p.length() > config.fmaBteThreshold() && (!get || aligned4) ? Post.Engine.BTE : Post.Engine.FMA;
          p = p.withEngine(e);
        }
        checkArgument(!(get && e == Post.Engine.BTE && !aligned4),
            "a BTE GET needs post.remote.offset and post.length to be multiples of 4 [S6a] but they were %s and %s",
            r.offset(), p.length());
        return p;
      }
      case AMO: {
        int w = p.amo().operandBytes();
        checkArgument(p.length() == w, "post.length must be %s for %s (zero-length AMOs are not allowed [S5]) "
            + "but was %s", w, p.amo(), p.length());
        checkArgument(r.offset() % w == 0, "post.remote.offset must be a multiple of %s for %s but was %s", w,
            p.amo(), r.offset());
        if (p.localMdh() != Post.NO_LOCAL) {
          checkArgument(p.localOffset() % w == 0, "post.localOffset must be a multiple of %s for %s but was %s", w,
              p.amo(), p.localOffset());
          checkLocal(p, w, true);
        }
        return p.engine() == Post.Engine.AUTO ? p.withEngine(Post.Engine.FMA) : p;
      }
      case CQ_WRITE:
        return p.engine() == Post.Engine.AUTO ? p.withEngine(Post.Engine.FMA) : p;
      default:
        throw new AssertionError(p.type());
    }
  }

  private void checkLocal(Post p, long length, boolean written) {
    int mdh = p.localMdh();
    checkArgument(mdh != Post.NO_LOCAL, "post.localMdh must name a registered memory domain of node %s but was -1",
        nodeId);
    Optional<MemoryDomainDescriptor> od = translation.descriptor(mdh);
    checkArgument(od.isPresent() && od.get().valid(),
        "post.localMdh must name a registered memory domain of node %s but %s is not registered", nodeId, mdh);
    MemoryDomainDescriptor d = od.get();
    checkArgument(p.localOffset() + length <= d.length(),
        "post.localOffset + length must be <= %s (the registration's length) but was %s + %s", d.length(),
        p.localOffset(), length);
    checkArgument(!written || d.writable(), "post.localMdh %s is registered read-only but the %s writes into it",
        mdh, p.type());
  }

  // ------------------------------------------------------------------------------------------------ events

  private void onEvent(long now, Object ref, long arg) {
    switch ((int) (arg & 0xFF)) {
      case EV_POST -> arrive(now, (Post) ref);
      case EV_TX_SLOT -> txSlot(now);
      case EV_INJECT -> inject(now, (Packet) ref);
      case EV_RX_REQUEST -> rxRequest(now, (Packet) ref);
      case EV_RX_RESPONSE -> rxResponse(now, (Packet) ref);
      case EV_COMPLETION -> completion((CompletionEvent) ref, (int) (arg >> 8) - 1);
      case EV_AMO_DONE -> amoDone(now, (Packet) ref);
      default -> throw new AssertionError(arg);
    }
  }

  @SuppressWarnings("unchecked")
  private void allocateTables() {
    int n = config.requestTags();
    txs = new Tx[n];
    freeTags = new int[n];
    for (int i = 0; i < n; i++) {
      freeTags[i] = n - 1 - i;
    }
    freeTagCount = n;
    admission = new ArrayDeque<>();
    channelQueues = new ArrayDeque[config.bteChannels()];
    for (int c = 0; c < channelQueues.length; c++) {
      channelQueues[c] = new ArrayDeque<>();
    }
    channelBusy = new boolean[config.bteChannels()];
    ring = new Tx[n];
    if (held == null) {
      held = new ArrayDeque<>();
    }
  }

  private void arrive(long now, Post p) {
    if (txs == null) {
      allocateTables();
    }
    admission.add(p);
    admit(now);
  }

  private void admit(long now) {
    while (!fenceBlocked && !admission.isEmpty()) {
      Post p = admission.peek();
      if (p.engine() == Post.Engine.BTE) {
        admission.poll();
        int c = nextChannel;
        nextChannel = (c + 1) % channelQueues.length;
        channelQueues[c].add(p);
        admitted(p);
        startChannel(now, c);
      } else {
        if (freeTagCount == 0) {
          if (!headDelayCounted) {
            headDelayCounted = true;
            stats.postsDelayedForTags++;
          }
          return;
        }
        admission.poll();
        admitted(p);
        start(now, p, -1);
      }
    }
  }

  private void admitted(Post p) {
    headDelayCounted = false;
    admittedIncomplete++;
    if (p.fence()) {
      fenceBlocked = true;
    }
  }

  private void startChannel(long now, int c) {
    if (channelBusy[c] || channelQueues[c].isEmpty()) {
      return;
    }
    if (freeTagCount == 0) {
      return;
    }
    channelBusy[c] = true;
    start(now, channelQueues[c].poll(), c);
  }

  private void start(long now, Post p, int channel) {
    int tag = freeTags[--freeTagCount];
    Tx t = txs[tag];
    if (t == null) {
      t = new Tx(tag);
      txs[tag] = t;
    }
    t.begin(p, channel);
    outstanding++;
    if (outstanding > stats.maxOutstanding) {
      stats.maxOutstanding = outstanding;
    }
    ring[ringSize++] = t;
    scheduleSlot(now);
  }

  // ------------------------------------------------------------------------------------------------ issue

  private void scheduleSlot(long now) {
    if (slotScheduled || issuePaused || ringSize == 0) {
      return;
    }
    slotScheduled = true;
    scheduler.scheduleAt(Math.max(now, nextSlotAt), handler, null, EV_TX_SLOT);
  }

  private void txSlot(long now) {
    slotScheduled = false;
    if (ringSize == 0) {
      return;
    }
    if (held.size() >= config.injectHoldLimit()) {
      issuePaused = true;
      return;
    }
    nextSlotAt = now + slotPs;
    if (ringPos >= ringSize) {
      ringPos = 0;
    }
    Tx t = ring[ringPos];
    int i = t.issued++;
    if (t.issued == t.packets) {
      System.arraycopy(ring, ringPos + 1, ring, ringPos, ringSize - ringPos - 1);
      ring[--ringSize] = null;
      if (t.channel >= 0) {
        channelBusy[t.channel] = false;
        startChannel(now, t.channel);
      }
    } else {
      ringPos++;
    }
    issue(now, t, i);
    scheduleSlot(now);
  }

  private void issue(long now, Tx t, int i) {
    int tagWord = t.tag | (i == t.packets - 1 && (t.modes & Post.REMOTE_EVENT) != 0 ? TAG_REMOTE_EVENT : 0);
    switch (t.type) {
      case PUT: {
        long start = packetStart(t, i);
        int len = packetLength(t, i, start);
        Access a = access(SRC_READ, TranslationClient.LOCAL_READ, t.localMdh, t.localOffset + (start - t.remoteOffset),
            len, AccessKind.READ, config.protectionTag(), config.protectionKey());
        a.tx = t;
        a.remoteStart = start;
        a.tagWord = tagWord;
        translateNext(a);
        return;
      }
      case GET: {
        long start = packetStart(t, i);
        int len = packetLength(t, i, start);
        Packet p = Packet.get(nodeId, NetworkAddress.of(t.remoteNode, t.remoteMdh, start), tagWord, t.mode, len,
            config.protectionTag(), config.protectionKey());
        scheduler.scheduleAt(now + txLatencyPs, handler, p, EV_INJECT);
        return;
      }
      case AMO: {
        Packet p = Packet.amo(nodeId, NetworkAddress.of(t.remoteNode, t.remoteMdh, t.remoteOffset), tagWord, t.mode,
            t.post.amo(), t.post.operand1(), t.post.operand2(), config.protectionTag(), config.protectionKey());
        scheduler.scheduleAt(now + txLatencyPs, handler, p, EV_INJECT);
        return;
      }
      case CQ_WRITE: {
        byte[] data = new byte[8];
        putLong(data, t.post.operand1());
        Packet p = Packet.put(nodeId, NetworkAddress.of(t.remoteNode, t.remoteMdh, 0), tagWord | TAG_CQ_WRITE, t.mode,
            data, config.protectionTag(), config.protectionKey());
        scheduler.scheduleAt(now + txLatencyPs, handler, p, EV_INJECT);
        return;
      }
      default:
        throw new AssertionError(t.type);
    }
  }

  private static long packetStart(Tx t, int i) {
    return i == 0 ? t.remoteOffset : (t.remoteOffset & ~63L) + 64L * i;
  }

  private static int packetLength(Tx t, int i, long start) {
    long end = Math.min(t.remoteOffset + t.length, (t.remoteOffset & ~63L) + 64L * (i + 1));
    return (int) (end - start);
  }

  static int packetCount(long offset, long length) {
    return length == 0 ? 1 : (int) (((offset + length - 1) >>> 6) - (offset >>> 6) + 1);
  }

  // ------------------------------------------------------------------------------------------------ injection

  private void inject(long now, Packet p) {
    if (held == null) {
      held = new ArrayDeque<>();
    }
    if (fabricBlocked || !held.isEmpty()) {
      held.add(p);
      return;
    }
    if (fabric.inject(p)) {
      injected(now, p);
    } else {
      stats.injectionsRefused++;
      fabricBlocked = true;
      held.add(p);
    }
  }

  @Override
  public void injectionReady(long nowPs) {
    if (held == null) {
      return;
    }
    fabricBlocked = false;
    while (!held.isEmpty()) {
      Packet p = held.peek();
      if (!fabric.inject(p)) {
        stats.injectionsRefused++;
        fabricBlocked = true;
        break;
      }
      held.poll();
      injected(nowPs, p);
    }
    if (issuePaused && held.size() < config.injectHoldLimit()) {
      issuePaused = false;
      scheduleSlot(nowPs);
    }
  }

  private void injected(long now, Packet p) {
    stats.packetsSent++;
    stats.wireBytesSent += p.wireBytes();
    stats.payloadBytesSent += carried(p);
    if (p.isRequest()) {
      stats.requestsSent++;
      Tx t = txs[p.tag() & TAG_MASK];
      t.injected++;
      localEventIfDone(now, t);
    } else {
      stats.responsesSent++;
    }
  }

  private static int carried(Packet p) {
    return switch (p.kind()) {
      case PUT_REQUEST, DATA_RESPONSE -> p.dataLength();
      case AMO_REQUEST -> p.amo().requestOperandBytes();
      case AMO_RESPONSE -> p.amo().responseBytes();
      default -> 0;
    };
  }

  private void localEventIfDone(long now, Tx t) {
    if (t.injected == t.packets && !t.localSent && (t.modes & Post.LOCAL_EVENT) != 0) {
      t.localSent = true;
      Status s = t.error == null ? Status.OK : t.error;
      event(CompletionType.LOCAL, s, t.post.postId(), t.remoteNode, 0, toHost(now, 8), t.cq);
    }
  }

  // ------------------------------------------------------------------------------------------------ receive

  /**
   * Accepts a packet from the fabric (called by the fabric; part of {@link FabricEndpoint}).
   *
   * @param nowPs arrival time
   * @param packet a request for this node's memory, or a response to one of this node's transactions
   */
  @Override
  public void deliver(long nowPs, Packet packet) {
    stats.packetsReceived++;
    stats.wireBytesReceived += packet.wireBytes();
    stats.payloadBytesReceived += carried(packet);
    if (packet.isRequest()) {
      long start = Math.max(nowPs, rxRequestFreeAt);
      rxRequestFreeAt = start + slotPs;
      scheduler.scheduleAt(start + rxLatencyPs, handler, packet, EV_RX_REQUEST);
    } else {
      long start = Math.max(nowPs, rxResponseFreeAt);
      rxResponseFreeAt = start + slotPs;
      scheduler.scheduleAt(start + rxLatencyPs, handler, packet, EV_RX_RESPONSE);
    }
  }

  private void rxRequest(long now, Packet p) {
    stats.requestsServed++;
    if ((p.tag() & TAG_CQ_WRITE) != 0) {
      CompletionQueue q = completionQueue(p.mdh());
      if (q == null || p.dataLength() != 8) {
        respondError(now, p, Status.INVALID_MDH);
        return;
      }
      long value = getLong(p.data()) & Post.MAX_CQ_WRITE_VALUE;
      event(CompletionType.REMOTE, Status.OK, p.tag() & TAG_MASK, p.sourceNode(), value, toHost(now, 8), q.handle());
      send(now, Packet.ack(p));
      return;
    }
    switch (p.kind()) {
      case PUT_REQUEST -> translateNext(access(TGT_PUT, TranslationClient.NETWORK_REQUEST, p.mdh(), p.offset(),
          p.dataLength(), AccessKind.WRITE, p.protectionTag(), p.protectionKey()).with(p));
      case GET_REQUEST -> translateNext(access(TGT_GET, TranslationClient.NETWORK_REQUEST, p.mdh(), p.offset(),
          p.dataLength(), AccessKind.READ, p.protectionTag(), p.protectionKey()).with(p));
      case AMO_REQUEST -> {
        int w = p.amo().operandBytes();
        if (p.offset() % w != 0) {
          respondError(now, p, Status.MISALIGNED);
          return;
        }
        translateNext(access(TGT_AMO, TranslationClient.NETWORK_REQUEST, p.mdh(), p.offset(), w, AccessKind.ATOMIC,
            p.protectionTag(), p.protectionKey()).with(p));
      }
      default -> throw new AssertionError(p.kind());
    }
  }

  private void respondError(long now, Packet request, Status s) {
    stats.requestFaults++;
    send(now, Packet.error(request, s));
  }

  private void send(long at, Packet response) {
    scheduler.scheduleAt(at, handler, response, EV_INJECT);
  }

  private void remoteEvent(long at, Packet p) {
    if ((p.tag() & TAG_REMOTE_EVENT) == 0) {
      return;
    }
    Optional<MemoryDomainDescriptor> d = translation.descriptor(p.mdh());
    int cq = d.isPresent() ? d.get().completionQueue() : MemoryDomainDescriptor.NO_CQ;
    if (cq == MemoryDomainDescriptor.NO_CQ) {
      return;
    }
    if (completionQueue(cq) == null) {
      stats.remoteEventsDropped++;
      return;
    }
    event(CompletionType.REMOTE, Status.OK, p.tag() & TAG_MASK, p.sourceNode(), 0, at, cq);
  }

  private void rxResponse(long now, Packet p) {
    Tx t = txs == null ? null : txs[p.tag() & TAG_MASK];
    if (t == null || !t.active || p.sourceNode() != t.remoteNode) {
      throw new IllegalStateException("node " + nodeId + " received a response for no outstanding transaction: " + p);
    }
    switch (p.kind()) {
      case ERROR_RESPONSE -> {
        t.fail(p.status());
        responseDone(now, t);
      }
      case ACK_RESPONSE -> responseDone(now, t);
      case DATA_RESPONSE -> {
        Access a = access(SRC_LAND, TranslationClient.NETWORK_RESPONSE, t.localMdh,
            t.localOffset + (p.offset() - t.remoteOffset), p.dataLength(), AccessKind.WRITE, config.protectionTag(),
            config.protectionKey());
        a.tx = t;
        a.data = p.data();
        translateNext(a);
      }
      case AMO_RESPONSE -> {
        t.fetched = p.operand1();
        if (t.localMdh == Post.NO_LOCAL) {
          responseDone(now, t);
        } else {
          int w = p.amo().operandBytes();
          byte[] data = new byte[w];
          if (w == 8) {
            putLong(data, p.operand1());
          } else {
            putInt(data, (int) p.operand1());
          }
          Access a = access(SRC_LAND, TranslationClient.NETWORK_RESPONSE, t.localMdh, t.localOffset, w,
              AccessKind.WRITE, config.protectionTag(), config.protectionKey());
          a.tx = t;
          a.data = data;
          translateNext(a);
        }
      }
      default -> throw new AssertionError(p.kind());
    }
  }

  private void responseDone(long now, Tx t) {
    t.processed++;
    if (t.processed == t.packets) {
      finish(now, t);
    }
  }

  private void finish(long now, Tx t) {
    Status s = t.error == null ? Status.OK : t.error;
    stats.transactionsCompleted++;
    if (s.isError()) {
      stats.transactionsFailed++;
    }
    if ((t.modes & Post.GLOBAL_EVENT) != 0 || s.isError()) {
      long userData = t.type == Post.PostType.AMO && t.post.amo().fetching() ? t.fetched : 0;
      event(CompletionType.GLOBAL, s, t.post.postId(), t.remoteNode, userData, toHost(now, 8), t.cq);
    }
    t.end();
    unfinished--;
    freeTags[freeTagCount++] = t.tag;
    outstanding--;
    admittedIncomplete--;
    if (fenceBlocked && admittedIncomplete == 0) {
      fenceBlocked = false;
    }
    for (int c = 0; c < channelQueues.length; c++) {
      startChannel(now, c);
    }
    admit(now);
  }

  private void event(CompletionType type, Status s, long postId, int peer, long userData, long at, int cq) {
    CompletionEvent e = new CompletionEvent(type, s, postId, nodeId, peer, userData, at);
    scheduler.scheduleAt(at, handler, e, EV_COMPLETION | ((long) (cq + 1) << 8));
  }

  private void completion(CompletionEvent e, int cq) {
    stats.eventsWritten++;
    if (cq >= 0) {
      queues.get(cq).offer(e);
    }
    if (listener != null) {
      listener.onCompletion(e);
    }
  }

  // ------------------------------------------------------------------------------------------------ memory access

  private Access access(int purpose, TranslationClient client, int mdh, long offset, int length, AccessKind kind,
      int ptag, int pkey) {
    if (accessPool == null) {
      accessPool = new ArrayDeque<>();
    }
    Access a = accessPool.poll();
    if (a == null) {
      a = new Access();
    }
    a.purpose = purpose;
    a.client = client;
    a.mdh = mdh;
    a.offset = offset;
    a.length = length;
    a.kind = kind;
    a.ptag = ptag;
    a.pkey = pkey;
    a.done = 0;
    a.parts = 0;
    return a;
  }

  private void recycle(Access a) {
    a.packet = null;
    a.tx = null;
    a.data = null;
    accessPool.add(a);
  }

  private void translateNext(Access a) {
    translation.translate(a.client, a.mdh, a.offset + a.done, a.length - a.done, a.kind, a.ptag, a.pkey, translated,
        a, 0);
  }

  private void onTranslated(long now, Status status, long pa, int contiguous, Object ref, long arg) {
    Access a = (Access) ref;
    if (status != Status.OK) {
      accessDone(now, a, status);
      return;
    }
    int remaining = a.length - a.done;
    if (remaining == 0) {
      accessDone(now, a, Status.OK);
      return;
    }
    if (contiguous <= 0) {
      accessDone(now, a, Status.TRANSLATION_FAULT);
      return;
    }
    int n = Math.min(contiguous, remaining);
    a.addPart(pa, n);
    a.done += n;
    if (a.done < a.length) {
      translateNext(a);
    } else {
      accessDone(now, a, Status.OK);
    }
  }

  private void accessDone(long now, Access a, Status s) {
    switch (a.purpose) {
      case SRC_READ -> sourceRead(now, a, s);
      case SRC_LAND -> {
        Tx t = a.tx;
        if (s.isError()) {
          t.fail(s);
        } else {
          a.write(memory, a.data);
          toHost(now, a.length);
        }
        recycle(a);
        responseDone(now, t);
      }
      case TGT_PUT -> {
        Packet p = a.packet;
        if (s.isError()) {
          respondError(now, p, s);
        } else {
          a.write(memory, p.data());
          long visible = toHost(now, a.length);
          remoteEvent(visible, p);
          send(now, Packet.ack(p));
        }
        recycle(a);
      }
      case TGT_GET -> {
        Packet p = a.packet;
        if (s.isError()) {
          respondError(now, p, s);
        } else {
          byte[] data = new byte[a.length];
          a.read(memory, data);
          long ready = toNic(now, a.length, hostReadLatencyPs);
          remoteEvent(toHost(now, 8), p);
          send(ready, Packet.data(p, data));
        }
        recycle(a);
      }
      case TGT_AMO -> {
        if (s.isError()) {
          respondError(now, a.packet, s);
          recycle(a);
        } else if (amoInFlight >= config.amoRequestList()) {
          if (amoWaiting == null) {
            amoWaiting = new ArrayDeque<>();
          }
          amoWaiting.add(a);
        } else {
          executeAmo(now, a);
        }
      }
      default -> throw new AssertionError(a.purpose);
    }
  }

  private void sourceRead(long now, Access a, Status s) {
    Tx t = a.tx;
    if (s.isError()) {
      // The request is never sent: it counts as gone and answered, with the fault.
      t.fail(s);
      t.injected++;
      recycle(a);
      localEventIfDone(now, t);
      responseDone(now, t);
      return;
    }
    byte[] data = new byte[a.length];
    a.read(memory, data);
    long ready = t.channel >= 0 ? toNic(now, a.length, hostReadLatencyPs) : now;
    Packet p = Packet.put(nodeId, NetworkAddress.of(t.remoteNode, t.remoteMdh, a.remoteStart), a.tagWord, t.mode, data,
        config.protectionTag(), config.protectionKey());
    recycle(a);
    scheduler.scheduleAt(ready + txLatencyPs, handler, p, EV_INJECT);
  }

  private void executeAmo(long now, Access a) {
    Packet p = a.packet;
    long pa = a.pa[0];
    long old;
    long updated;
    if (p.amo().widthBits() == 64) {
      old = memory.readLong(pa);
      updated = AmoArithmetic.apply(p.amo(), old, p.operand1(), p.operand2());
      memory.writeLong(pa, updated);
    } else {
      old = Integer.toUnsignedLong(memory.readInt(pa));
      updated = AmoArithmetic.apply(p.amo(), old, p.operand1(), p.operand2());
      memory.writeInt(pa, (int) updated);
    }
    stats.amosExecuted++;
    amoInFlight++;
    recycle(a);
    remoteEvent(toHost(now, 8), p);
    scheduler.scheduleAt(now + amoLatencyPs, handler, Packet.amoResult(p, old), EV_AMO_DONE);
  }

  private void amoDone(long now, Packet response) {
    amoInFlight--;
    send(now, response);
    if (amoWaiting != null && !amoWaiting.isEmpty()) {
      executeAmo(now, amoWaiting.poll());
    }
  }

  // ------------------------------------------------------------------------------------------------ host interface

  /** Host → NIC: returns when {@code bytes} have crossed, plus {@code latency}. */
  private long toNic(long now, long bytes, long latency) {
    long start = Math.max(now, toNicFreeAt);
    long end = start + (long) Math.ceil(bytes * hostPsPerByte);
    toNicFreeAt = end;
    return end + latency;
  }

  /** NIC → host: returns when a posted write of {@code bytes} is visible in host memory. */
  private long toHost(long now, long bytes) {
    long start = Math.max(now, toHostFreeAt);
    long end = start + (long) Math.ceil(bytes * hostPsPerByte);
    toHostFreeAt = end;
    return end + hostLatencyPs;
  }

  private static void putLong(byte[] b, long v) {
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
  }

  private static void putInt(byte[] b, int v) {
    for (int i = 0; i < 4; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
  }

  private static long getLong(byte[] b) {
    long v = 0;
    for (int i = 7; i >= 0; i--) {
      v = (v << 8) | (b[i] & 0xFF);
    }
    return v;
  }

  @Override
  public String toString() {
    return "Nic{node=" + nodeId + ", outstanding=" + outstanding + ", " + stats + "}";
  }

  // ------------------------------------------------------------------------------------------------ state

  /** One outstanding transaction, reused per tag. */
  private static final class Tx {
    final int tag;
    boolean active;
    Post post;
    Post.PostType type;
    io.github.ariesmodel.core.DeliveryMode mode;
    int channel;
    int packets;
    int issued;
    int injected;
    int processed;
    Status error;
    long fetched;
    boolean localSent;
    int remoteNode;
    int remoteMdh;
    long remoteOffset;
    long length;
    int localMdh;
    long localOffset;
    int modes;
    int cq;

    Tx(int tag) {
      this.tag = tag;
    }

    void begin(Post p, int ch) {
      active = true;
      post = p;
      type = p.type();
      mode = p.deliveryMode();
      channel = ch;
      remoteNode = p.remote().nodeId();
      remoteMdh = p.remote().mdh();
      remoteOffset = p.remote().offset();
      length = p.length();
      localMdh = p.localMdh();
      localOffset = p.localOffset();
      modes = p.completionModes();
      cq = p.completionQueue();
      packets = type == Post.PostType.PUT || type == Post.PostType.GET ? packetCount(remoteOffset, length) : 1;
      issued = 0;
      injected = 0;
      processed = 0;
      error = null;
      fetched = 0;
      localSent = false;
    }

    void fail(Status s) {
      if (error == null) {
        error = s;
      }
    }

    void end() {
      active = false;
      post = null;
    }
  }

  /** One memory access in translation: its parts (a range may straddle pages) and what to do when translated. */
  private static final class Access {
    int purpose;
    TranslationClient client;
    int mdh;
    long offset;
    int length;
    AccessKind kind;
    int ptag;
    int pkey;
    int done;
    int parts;
    long[] pa = new long[2];
    int[] partLength = new int[2];
    Packet packet;
    Tx tx;
    byte[] data;
    long remoteStart;
    int tagWord;

    Access with(Packet p) {
      this.packet = p;
      return this;
    }

    void addPart(long address, int n) {
      if (parts == pa.length) {
        pa = java.util.Arrays.copyOf(pa, parts * 2);
        partLength = java.util.Arrays.copyOf(partLength, parts * 2);
      }
      pa[parts] = address;
      partLength[parts] = n;
      parts++;
    }

    void write(HostMemory m, byte[] src) {
      int at = 0;
      for (int i = 0; i < parts; i++) {
        m.write(pa[i], src, at, partLength[i]);
        at += partLength[i];
      }
    }

    void read(HostMemory m, byte[] dst) {
      int at = 0;
      for (int i = 0; i < parts; i++) {
        m.read(pa[i], dst, at, partLength[i]);
        at += partLength[i];
      }
    }
  }
}
