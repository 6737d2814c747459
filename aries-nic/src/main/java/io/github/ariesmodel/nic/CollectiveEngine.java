package io.github.ariesmodel.nic;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.LittleEndian;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.packet.PacketKind;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationListener;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The NIC's collective engine (CE, aries-facts §5 [S5]): up to {@value #CHANNELS} virtual CE channels
 * ({@code GNI_CeCreate}; the job's CE0-CE3 channel masks [S5]), each a node of a reduction tree with up to 32 children
 * ({@code GNI_CE_MAX_CHILDREN}). A channel waits for one contribution from each child, combines them in child-index
 * order ({@link CeAccumulator}) and sends the combined value to its parent channel in a {@link
 * PacketKind#CE_CONTRIBUTION} packet; the root's combination is the result, which goes back down the tree in
 * {@link PacketKind#CE_RESULT} packets, and every channel writes it into the result buffer of each of its processes
 * and then that process's GLOBAL completion event.
 *
 * <h2>Timing</h2>
 * A process's post costs the CPU the FMA post time and reaches the NIC one 64-byte host write later, as any FMA post
 * ({@link NicTiming#fmaPostPs()}). A packet from a child or parent channel passes the receive pipeline
 * ({@code rxPipelineCycles}) before the engine sees it; the combination of a channel's last contribution takes
 * {@code amoUnitCycles} (the engine's ALU is taken to be as fast as the AMO unit's: assumed, no published figure); a
 * packet to a parent or child leaves after the transmit pipeline ({@code txPipelineCycles}). A result written for a
 * process is translated as a {@link TranslationClient#NETWORK_RESPONSE} (the IOMMU serves the CE's result writes as it
 * serves arriving response data: assumed), written over the host link as 24 bytes, and its event follows with its
 * own 8-byte host write ({@link CompletionWriter}).
 *
 * <h2>Faults</h2>
 * A reduction whose contributions disagree (command, operand count, or reduction id) completes with
 * {@link Status#ILLEGAL_OPERATION} in every result and event of the tree. A second contribution from one child before
 * the reduction completes, and a CE packet for a channel that is not configured or from a node that is not the named
 * child, are dropped and counted ({@link NicStatistics#collectivePacketsDropped()}); a process's duplicate post gets
 * an error event at once. Nothing in host memory is touched but the result buffers of the processes that posted.
 */
final class CollectiveEngine {
  /** Virtual CE channels a NIC has (the job's CE0-CE3 masks [S5]). */
  static final int CHANNELS = 4;

  // header word of a CE packet (the packet's tag): child index, sending channel, command, FPE flags, two operands
  private static final int CHILD_MASK = 0x1F;
  private static final int FROM_CHANNEL_SHIFT = 5;
  private static final int COMMAND_SHIFT = 8;
  private static final int FPE_SHIFT = 16;
  private static final int TWO_OPERANDS = 1 << 20;

  private final int nodeId;
  private final Scheduler scheduler;
  private final HostMemory memory;
  private final AddressTranslation translation;
  private final NicConfig config;
  private final HostLink host;
  private final CompletionWriter completions;
  private final TransactionTable transactions;
  private final Injector injector;
  private final NicStatistics stats;
  private final HostWriteProbes writes;
  private final byte[] resultBytes = new byte[CePost.RESULT_BYTES];
  private final Channel[] channels = new Channel[CHANNELS];

  private final EventHandler postArrives = new PostArrives();
  private final HostWriteEvent postWritten;
  private final EventHandler packetArrives = new PacketArrives();
  private final EventHandler combined = new Combined();
  private final TranslationListener resultTranslated = new ResultTranslated();

  CollectiveEngine(int nodeId, Scheduler scheduler, HostMemory memory, AddressTranslation translation,
      NicConfig config, HostLink host, CompletionWriter completions, TransactionTable transactions, Injector injector,
      NicStatistics stats, HostWriteProbes writes) {
    this.nodeId = nodeId;
    this.writes = writes;
    this.scheduler = scheduler;
    this.memory = memory;
    this.translation = translation;
    this.config = config;
    this.host = host;
    this.postWritten = new HostWriteEvent(scheduler, host, postArrives);
    this.completions = completions;
    this.transactions = transactions;
    this.injector = injector;
    this.stats = stats;
  }

  /** {@code GNI_CeCreate}: takes the lowest free channel. */
  int create() {
    for (int i = 0; i < CHANNELS; i++) {
      if (channels[i] == null) {
        channels[i] = new Channel();
        return i;
      }
    }
    throw new IllegalStateException("node " + nodeId + " has no free collective-engine channel: all " + CHANNELS
        + " are in use");
  }

  /**
   * @return whether a reduction is in progress on a taken channel: contributions arrived, or a post of this node's not
   *     yet finished (on its way in, or its result not yet written)
   */
  boolean busy(int channel) {
    return created("channel", channel).busy();
  }

  /** {@code GNI_CeDestroy}: frees a channel with no reduction in progress. */
  void destroy(int channel) {
    checkState(!created("channel", channel).busy(),
        "channel %s of node %s has a reduction in progress and cannot be destroyed", channel, nodeId);
    channels[channel] = null;
  }

  /**
   * Frees a channel whose reduction can never complete, as the driver does when the processes that took it exit: its
   * contributions go, and the posts of this node's that contributed and wait for its result never complete (no event;
   * their queues stop counting them as unfinished).
   *
   * @throws IllegalStateException when a post of this node's is on its way to the engine or its result is being
   *     written (the simulation has events of it to run)
   */
  void abandon(int channel) {
    Channel c = created("channel", channel);
    int waiting = 0;
    for (CePost p : c.post) {
      if (p != null) {
        waiting++;
      }
    }
    checkState(waiting == c.pendingPosts, "channel %s of node %s has a post on its way to the engine or a result being"
        + " written (%s posts unfinished, %s waiting for a result): run the simulation on until nothing is pending",
        channel, nodeId, c.pendingPosts, waiting);
    for (CePost p : c.post) {
      if (p != null) {
        completions.postFinished(p.completionQueue());
      }
    }
    channels[channel] = null;
  }

  /** {@code GNI_CeConfigure}. */
  void configure(int channel, CeChannelConfig cfg, int nodeCount) {
    checkArgument(cfg != null, "config must not be null");
    Channel c = created("channel", channel);
    checkState(!c.busy(),
        "channel %s of node %s has a reduction in progress and cannot be configured again", channel, nodeId);
    if (cfg.parent() != null) {
      checkArgument(cfg.parent().node() < nodeCount, "config.parent.node must be in [0, %s] but was %s",
          nodeCount - 1, cfg.parent().node());
      checkArgument(cfg.parent().node() != nodeId || cfg.parent().channel() != channel,
          "config.parent must not be the channel itself (node %s, channel %s)", nodeId, channel);
    }
    for (int i = 0; i < cfg.children().size(); i++) {
      CeChild k = cfg.children().get(i);
      if (k.kind() == CeChild.Kind.VCE) {
        checkArgument(k.node() < nodeCount, "config.children[%s].node must be in [0, %s] but was %s", i,
            nodeCount - 1, k.node());
        checkArgument(k.node() != nodeId || k.channel() != channel,
            "config.children[%s] must not be the channel itself (node %s, channel %s)", i, nodeId, channel);
      }
    }
    c.configure(cfg);
  }

  /**
   * Checks a process's post (caller mistakes are exceptions) and books its CPU time on the process's FMA descriptor
   * and its host-link time.
   */
  void post(CePost p, int descriptor) {
    Channel c = created("post.channel", p.channel());
    checkArgument(c.config != null, "post.channel %s of node %s is not configured", p.channel(), nodeId);
    int n = c.config.children().size();
    checkArgument(p.child() < n && c.config.children().get(p.child()).kind() == CeChild.Kind.PE,
        "post.child must be the index of a PE child of channel %s (it has %s children) but was %s", p.channel(), n,
        p.child());
    if (p.completionQueue() != Post.NO_CQ) {
      checkArgument(completions.queue(p.completionQueue()) != null,
          "post.completionQueue must name a CQ of node %s (%s) but was %s", nodeId,
          completions.describeHandles(),
          p.completionQueue());
      completions.checkSourceQueue("post.completionQueue", p.completionQueue());
    }
    checkArgument(p.resultOffset() % 32 == 0, "post.resultOffset must be a multiple of 32 (the 24-byte result is "
        + "written as one aligned block; Cray's ce_pmi_example.c aligns it to 32 bytes, the header states no rule) but"
        + " was %s", p.resultOffset());
    Optional<MemoryDomainDescriptor> d = translation.descriptor(p.resultMdh());
    checkArgument(d.isPresent() && d.get().valid(),
        "post.resultMdh must name a registered memory domain of node %s but %s is not registered", nodeId,
        p.resultMdh());
    checkArgument(p.resultOffset() + CePost.RESULT_BYTES <= d.get().length(),
        "post.resultOffset + 24 must be <= %s (the registration's length) but was %s + 24", d.get().length(),
        p.resultOffset());
    checkArgument(d.get().writable(), "post.resultMdh %s is registered read-only but the result is written into it",
        p.resultMdh());
    // (until stop 75 another domain's buffer was accepted: the contribution counted in every result of the tree, and
    // this process's result then faulted)
    PostValidator.checkDomain("post.resultMdh", p.resultMdh(), d.get(), nodeId, config);
    stats.collectivePosts++;
    c.pendingPosts++;
    completions.postAccepted(p.completionQueue());
    long cpu = transactions.bookPost(scheduler.now(), descriptor);
    postWritten.at(cpu, p, 64);
  }

  /** A CE packet from the fabric. */
  void receive(long now, Packet p) {
    scheduler.scheduleAt(now + config.timing().cyclePs() * config.timing().rxPipelineCycles(), packetArrives, p, 0);
  }

  private Channel created(String field, int channel) {
    Channel c = channels[checkChannel(field, channel)];
    if (c == null) {
      throw notCreated(field, channel, nodeId);
    }
    return c;
  }

  /**
   * Checks a channel number's range.
   *
   * @param field the parameter's name, for the message
   * @param channel the number
   * @return the number
   */
  static int checkChannel(String field, int channel) {
    checkArgument(channel >= 0 && channel < CHANNELS, "%s must be in [0, %s] but was %s", field, CHANNELS - 1,
        channel);
    return channel;
  }

  /**
   * The refusal of a channel that is not taken; the NIC also gives it before it has built its engine, so a channel
   * is refused in the same words whether or not the NIC was used.
   *
   * @param field the parameter's name, for the message
   * @param channel the channel, 0 to 3 (else the range is refused)
   * @param nodeId the NIC's node
   * @return the exception to throw
   */
  static IllegalArgumentException notCreated(String field, int channel, int nodeId) {
    checkChannel(field, channel);
    return new IllegalArgumentException(field + " " + channel + " of node " + nodeId
        + " was not created (or was destroyed)");
  }

  /** One contribution reaches a channel. */
  private void contribute(long now, int channel, int child, int command, boolean two, long id, long op1, long op2,
      int fpe, Status status, CePost post) {
    Channel c = channels[channel];
    if (c.arrivedFrom[child]) {
      if (post != null) {
        c.pendingPosts--;
        completions.write(now, CompletionType.GLOBAL, Status.ILLEGAL_OPERATION, post.postId(), nodeId, 0,
            post.completionQueue());
        completions.postFinished(post.completionQueue());
        stats.collectiveFaults++;
      } else {
        stats.collectivePacketsDropped++;
      }
      return;
    }
    c.arrivedFrom[child] = true;
    c.command[child] = command;
    c.two[child] = two;
    c.id[child] = id;
    c.op1[child] = op1;
    c.op2[child] = op2;
    c.fpe[child] = fpe;
    c.status[child] = status;
    c.post[child] = post;
    if (++c.arrived == c.config.children().size()) {
      scheduler.scheduleAt(now + config.timing().cyclePs() * config.timing().amoUnitCycles(), combined, c, channel);
    }
  }

  /** The last contribution is in: combine in child-index order, then go up or, at the root, down. */
  private void combine(long now, Channel c, int channel) {
    int n = c.config.children().size();
    Status s = Status.OK;
    for (int i = 0; i < n && s == Status.OK; i++) {
      if (c.status[i] != Status.OK) {
        s = c.status[i];
      } else if (c.command[i] != c.command[0] || c.two[i] != c.two[0] || c.id[i] != c.id[0]) {
        s = Status.ILLEGAL_OPERATION;
      }
    }
    CeOperation op = CeOperation.ofCommand(c.command[0]);
    long r1 = 0;
    long r2 = 0;
    int fpe = 0;
    if (s == Status.OK) {
      c.acc.reset(op, c.config.rounding(), c.two[0]);
      for (int i = 0; i < n; i++) {
        c.acc.add(c.op1[i], c.op2[i], c.fpe[i]);
      }
      r1 = c.acc.result1();
      r2 = c.acc.result2();
      fpe = c.acc.fpe();
    }
    long id = c.id[0];
    CeParent parent = c.config.parent();
    if (parent == null) {
      stats.collectiveReductions++;
      distribute(now, c, channel, s, op.command(), c.two[0], id, r1, r2, fpe);
    } else {
      int header = parent.childIndex() | channel << FROM_CHANNEL_SHIFT | op.command() << COMMAND_SHIFT
          | fpe << FPE_SHIFT | (c.two[0] ? TWO_OPERANDS : 0);
      send(now, PacketKind.CE_CONTRIBUTION, parent.node(), parent.channel(), id, header, r1, r2, s, c);
      c.awaitingResult = true;
    }
  }

  private void send(long now, PacketKind kind, int node, int channel, long id, int header, long r1, long r2,
      Status s, Channel c) {
    Packet p = Packet.collective(kind, nodeId, node, channel, id, header, c.config.deliveryMode(), r1, r2, s);
    stats.collectivePacketsSent++;
    injector.injectAt(now + config.timing().cyclePs() * config.timing().txPipelineCycles(), p);
  }

  /** The result reaches a channel: down to each child channel, then into each process's buffer. */
  private void distribute(long now, Channel c, int channel, Status s, int command, boolean two, long id, long r1,
      long r2, int fpe) {
    List<CeChild> kids = c.config.children();
    int header = command << COMMAND_SHIFT | fpe << FPE_SHIFT | (two ? TWO_OPERANDS : 0) | channel << FROM_CHANNEL_SHIFT;
    for (int i = 0; i < kids.size(); i++) {
      CeChild k = kids.get(i);
      if (k.kind() == CeChild.Kind.VCE) {
        send(now, PacketKind.CE_RESULT, k.node(), k.channel(), id, header | i, r1, r2, s, c);
      }
    }
    CeResult result = new CeResult(s, fpe, id, r1, r2);
    for (int i = 0; i < kids.size(); i++) {
      CePost p = c.post[i];
      if (p != null) {
        // the post stays pending until its result has landed (ResultTranslated): until stop 72 it was counted done
        // here, so the channel read as idle and could be destroyed, and its job's result buffer deregistered, while
        // the result's translation was still under way
        translation.translate(TranslationClient.NETWORK_RESPONSE, p.resultMdh(), p.resultOffset(),
            CePost.RESULT_BYTES, AccessKind.WRITE, config.protectionTag(), config.protectionKey(), resultTranslated,
            new Delivery(p, result, c), 0);
      }
    }
    c.clear();
  }

  /** A process's result and where it goes; {@code landed} once its translation completed (it must complete once). */
  private static final class Delivery {
    final CePost post;
    final CeResult result;
    /** The channel the post went to: its post is pending there until the result has landed. */
    final Channel channel;
    boolean landed;

    Delivery(CePost post, CeResult result, Channel channel) {
      this.post = post;
      this.result = result;
      this.channel = channel;
    }
  }

  /** Per-channel state: the configuration and this reduction's contributions, by child index. */
  private static final class Channel {
    CeChannelConfig config;
    final CeAccumulator acc = new CeAccumulator();
    final boolean[] arrivedFrom = new boolean[CeChannelConfig.MAX_CHILDREN];
    final int[] command = new int[CeChannelConfig.MAX_CHILDREN];
    final boolean[] two = new boolean[CeChannelConfig.MAX_CHILDREN];
    final long[] id = new long[CeChannelConfig.MAX_CHILDREN];
    final long[] op1 = new long[CeChannelConfig.MAX_CHILDREN];
    final long[] op2 = new long[CeChannelConfig.MAX_CHILDREN];
    final int[] fpe = new int[CeChannelConfig.MAX_CHILDREN];
    final Status[] status = new Status[CeChannelConfig.MAX_CHILDREN];
    final CePost[] post = new CePost[CeChannelConfig.MAX_CHILDREN];
    int arrived;
    int pendingPosts;
    boolean awaitingResult;

    void configure(CeChannelConfig cfg) {
      config = cfg;
      clear();
    }

    /** A reduction is in progress: contributions arrived, or a post of this node's is not finished. */
    boolean busy() {
      return arrived != 0 || pendingPosts != 0;
    }

    void clear() {
      Arrays.fill(arrivedFrom, false);
      Arrays.fill(post, null);
      arrived = 0;
      awaitingResult = false;
    }
  }

  /** A process's post reaches the engine (ref: the post). */
  private final class PostArrives implements EventHandler {
    @Override
    public void onEvent(long now, Object ref, long arg) {
      CePost p = (CePost) ref;
      contribute(now, p.channel(), p.child(), p.operation().command(), p.usesBothOperands(), p.reductionId(),
          p.operand1(), p.usesBothOperands() ? p.operand2() : 0, 0, Status.OK, p);
    }
  }

  /** A CE packet has passed the receive pipeline (ref: the packet). */
  private final class PacketArrives implements EventHandler {
    @Override
    public void onEvent(long now, Object ref, long arg) {
      Packet p = (Packet) ref;
      int channel = p.mdh();
      Channel c = channel < CHANNELS ? channels[channel] : null;
      int header = p.tag();
      int child = header & CHILD_MASK;
      int from = header >>> FROM_CHANNEL_SHIFT & 0x3;
      if (c == null || c.config == null) {
        stats.collectivePacketsDropped++;
        return;
      }
      int command = header >>> COMMAND_SHIFT & 0xFF;
      int fpe = header >>> FPE_SHIFT & 0xF;
      boolean two = (header & TWO_OPERANDS) != 0;
      if (p.kind() == PacketKind.CE_CONTRIBUTION) {
        List<CeChild> kids = c.config.children();
        if (child >= kids.size() || !kids.get(child).equals(CeChild.channel(p.sourceNode(), from))) {
          stats.collectivePacketsDropped++;
          return;
        }
        contribute(now, channel, child, command, two, p.offset(), p.operand1(), p.operand2(), fpe, p.status(), null);
      } else {
        CeParent parent = c.config.parent();
        if (!c.awaitingResult || parent == null || parent.node() != p.sourceNode() || parent.channel() != from
            || parent.childIndex() != child) {
          stats.collectivePacketsDropped++;
          return;
        }
        distribute(now, c, channel, p.status(), command, two, p.offset(), p.operand1(), p.operand2(), fpe);
      }
    }
  }

  /** The last contribution has been combined (ref: the channel, arg: its index). */
  private final class Combined implements EventHandler {
    @Override
    public void onEvent(long now, Object ref, long arg) {
      combine(now, (Channel) ref, (int) arg);
    }
  }

  /** A result buffer's address is translated (ref: the delivery): the 24 bytes are written, then the event. */
  private final class ResultTranslated implements TranslationListener {
    @Override
    public void onTranslated(long now, Status status, long physicalAddress, int contiguousBytes, Object ref,
        long arg) {
      Delivery d = ref instanceof Delivery x && !x.landed ? x : null;
      if (d == null) {
        throw new IllegalStateException("translation " + translation.getClass().getName() + " on node " + nodeId
            + " completed a collective result's translation the NIC is not waiting for (ref " + ref + (ref
            instanceof Delivery ? ", completed before" : ", not one the NIC gave") + "): a translation must complete"
            + " once, with the ref and arg it was given");
      }
      d.landed = true;
      d.channel.pendingPosts--;
      CePost p = d.post;
      if (status == Status.OK && (contiguousBytes < CePost.RESULT_BYTES || physicalAddress < 0
          || physicalAddress > memory.capacity() - CePost.RESULT_BYTES)) {
        throw new IllegalStateException("translation " + translation.getClass().getName() + " on node " + nodeId
            + " translated the collective result at MDH " + p.resultMdh() + " offset " + p.resultOffset()
            + " to physical address 0x" + Long.toHexString(physicalAddress) + " with " + contiguousBytes
            + " contiguous bytes: the 24 bytes must lie in the node's memory [0, 0x"
            + Long.toHexString(memory.capacity()) + ") and be contiguous (the buffer is 32-byte aligned)");
      }
      if (status != Status.OK) {
        stats.collectiveFaults++;
        completions.write(now, CompletionType.GLOBAL, status, p.postId(), nodeId, 0, p.completionQueue());
        completions.postFinished(p.completionQueue());
        return;
      }
      CeResult r = d.result;
      // one 24-byte write: one posted write of the host link, held as one (PostedWrites)
      LittleEndian.put(resultBytes, 0, 8, r.control());
      LittleEndian.put(resultBytes, 8, 8, r.result1());
      LittleEndian.put(resultBytes, 16, 8, r.result2());
      memory.write(physicalAddress, resultBytes, 0, CePost.RESULT_BYTES);
      writes.wrote(host.write(now, CePost.RESULT_BYTES), physicalAddress, CePost.RESULT_BYTES);
      if (!r.ok()) {
        stats.collectiveFaults++;
      }
      // The event's 8-byte write is booked now, right behind the result's on the NIC-to-node channel, so it lands
      // just after the result. Until stop 65 it was booked at the result's arrival, a host latency (250 ns) in the
      // future: the event came a second host latency late, and the booking held the channel ahead of every write and
      // read request of those 250 ns (stop 65's review).
      completions.write(now, CompletionType.GLOBAL, r.status(), p.postId(), nodeId, r.result1(),
          p.completionQueue());
      completions.postFinished(p.completionQueue());
    }
  }
}
