package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Scheduler;
import java.util.ArrayDeque;

/**
 * Admission and tracking of the NIC's own transactions: the request tags (64, the NPT's 6-bit tags [S6e]; the
 * model's stand-in for the SSIDs that track an FMA sequence or a BTE descriptor [S7]), the in-order admission queue
 * for posts that find every tag in use, fences ({@code GNI_RDMAMODE_FENCE} [S5]: a fenced post makes later posts wait
 * until it and every earlier post completed) and the BTE channels (3 by default, uGNI's [S5]; the hardware has 4
 * [S6a]; round robin, one transaction at a time each). A started transaction goes to the {@link IssuePipeline}; this
 * table counts its requests out and its responses in and writes its LOCAL and GLOBAL events [S5] through the {@link
 * CompletionWriter}.
 *
 * <p>The CPU drives the NIC through an FMA descriptor (the FMA front end, one post at a time per descriptor): each
 * post costs the process that owns the descriptor
 * {@link NicTiming#fmaPostPs()} (descriptor and doorbell stores), an FMA PUT also the stores of its data through the
 * FMA window at {@link NicTiming#fmaStoreBytesPerSecond()}, an FMA GET {@link NicTiming#fmaGetRequestPs()} per
 * request. A post reaches the table one host-interface write after its first stores: its descriptor (64 bytes) or,
 * for an FMA PUT, its first data (at least 16 bytes, the FMA doorbell write [S7]) crosses the {@link HostLink} when
 * the CPU has stored them (an event then, {@link HostWriteEvent}, so that the link is not held ahead of time); an
 * FMA transaction's later requests become ready as the CPU stores them ({@link Transaction#paceBasePs}). Tables are
 * allocated on the first post, so an idle NIC costs little.
 *
 * <p>Each process of a node has its own FMA descriptor and issues through it independently [S1 p.19: "Each process is
 * allocated its own FMA descriptor allowing independent issue of remote memory access requests", up to 127 a NIC], so
 * the CPU time of posts is booked per descriptor ({@link Nic#post(Post, int)}); what they share after the stores (the
 * host link, the request tags, the issue pipeline) stays shared. Until stop 70 every post of a node was booked on one
 * CPU, as if one process made them all.
 */
final class TransactionTable {
  private final Scheduler scheduler;
  private final NicConfig config;
  private final HostLink host;
  private final CompletionWriter completions;
  private final NicStatistics stats;
  private final EventHandler postArrives = new PostArrives();
  private final HostWriteEvent postWritten;
  private IssuePipeline issue;

  private Transaction[] txs;
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
  /**
   * When each FMA descriptor's process has finished storing its last post (its FMA front end is free again), by
   * descriptor; grown when a higher descriptor first posts.
   */
  private long[] storesDoneAt = new long[1];

  TransactionTable(Scheduler scheduler, NicConfig config, HostLink host, CompletionWriter completions,
      NicStatistics stats) {
    this.scheduler = scheduler;
    this.config = config;
    this.host = host;
    this.completions = completions;
    this.stats = stats;
    this.postWritten = new HostWriteEvent(scheduler, host, postArrives);
  }

  /** Connects the pipeline started transactions go to (the two refer to each other). */
  void issuePipeline(IssuePipeline pipeline) {
    this.issue = pipeline;
  }

  /**
   * Books the CPU's descriptor stores and doorbell of a post (a transaction's, whose FMA data stores {@link #accept}
   * adds, or a collective-engine post's) on descriptor {@code d}: that process's CPU does them after every earlier
   * post's stores there.
   *
   * @param now when the host posts
   * @param d the posting process's FMA descriptor
   * @return when the stores are done and the doorbell written
   */
  long bookPost(long now, int d) {
    long cpu = Math.max(now, freeAt(d)) + config.timing().fmaPostPs();
    setFreeAt(d, cpu);
    return cpu;
  }

  /** @return when descriptor {@code d}'s process has finished its stores of every post it made on it */
  long freeAt(int d) {
    return d < storesDoneAt.length ? storesDoneAt[d] : 0;
  }

  private void setFreeAt(int d, long t) {
    if (d >= storesDoneAt.length) {
      storesDoneAt = java.util.Arrays.copyOf(storesDoneAt, Math.max(d + 1, 2 * storesDoneAt.length));
    }
    storesDoneAt[d] = t;
  }

  /** Accepts a validated post made through FMA descriptor 0 ({@link #accept(Post, int)}). */
  void accept(Post p) {
    accept(p, 0);
  }

  /**
   * Accepts a validated post made through an FMA descriptor: it crosses the host interface and arrives at the table
   * later.
   *
   * @param p the post, engine resolved
   * @param descriptor the posting process's FMA descriptor, 0 to {@link Nic#FMA_DESCRIPTORS} - 1 (checked by the NIC)
   */
  void accept(Post p, int descriptor) {
    unfinished++;
    completions.postAccepted(p.completionQueue());
    long now = scheduler.now();
    NicTiming timing = config.timing();
    long cpu = bookPost(now, descriptor);
    boolean fmaPut = p.engine() == Post.Engine.FMA && p.type() == Post.PostType.PUT;
    long stores = 0;
    long first = 0;
    if (fmaPut && !p.carriesValue()) { // a value put is the FMA_LAUNCH doorbell's own 4- or 8-byte put [S7]: no store
      long perLine = timing.fmaStorePsPer64();
      int n = Transaction.packetCount(p.remote().offset(), p.length());
      stores = perLine * n;
      first = perLine;
    } else if (p.engine() == Post.Engine.FMA && p.type() == Post.PostType.GET) {
      int n = Transaction.packetCount(p.remote().offset(), p.length());
      stores = timing.fmaGetRequestPs() * n;
      first = timing.fmaGetRequestPs();
    }
    setFreeAt(descriptor, cpu + stores);
    long bytes = fmaPut ? Math.max(16, Math.min(64, p.length())) : 64;
    if (fmaPut && p.length() > bytes) {
      stats.hostBytesToNic += p.length() - bytes; // the rest of the data, stored at the CPU's (lower) rate
    }
    postWritten.at(cpu + first, p, bytes);
  }

  /** @return when the CPU's stores of every accepted post are done, picoseconds (over every descriptor) */
  long cpuFreeAt() {
    long t = 0;
    for (long x : storesDoneAt) {
      t = Math.max(t, x);
    }
    return t;
  }

  int outstanding() {
    return outstanding;
  }

  long unfinished() {
    return unfinished;
  }

  int queued() {
    int n = admission == null ? 0 : admission.size();
    if (channelQueues != null) {
      for (ArrayDeque<Post> q : channelQueues) {
        n += q.size();
      }
    }
    return n;
  }

  /**
   * The transaction that holds a tag, if tables exist.
   *
   * @param tag a request tag, 0 to requestTags - 1
   * @return the transaction (check {@link Transaction#active}), or null
   */
  Transaction find(int tag) {
    return txs == null ? null : txs[tag];
  }

  /** @param tag a request tag in use @return its transaction */
  Transaction byTag(int tag) {
    return txs[tag];
  }

  @SuppressWarnings("unchecked")
  private void allocate() {
    int n = config.requestTags();
    txs = new Transaction[n];
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
  }

  private void arrive(long now, Post p) {
    if (txs == null) {
      allocate();
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
    if (channelBusy[c] || channelQueues[c].isEmpty() || freeTagCount == 0) {
      return;
    }
    channelBusy[c] = true;
    start(now, channelQueues[c].poll(), c);
  }

  private void start(long now, Post p, int channel) {
    int tag = freeTags[--freeTagCount];
    Transaction t = txs[tag];
    if (t == null) {
      t = new Transaction(tag);
      txs[tag] = t;
    }
    t.begin(p, channel);
    if (channel < 0 && (t.type == Post.PostType.PUT || t.type == Post.PostType.GET)) {
      t.paceBasePs = now;
      t.pacePs = t.type == Post.PostType.PUT ? config.timing().fmaStorePsPer64() : config.timing().fmaGetRequestPs();
    }
    outstanding++;
    if (outstanding > stats.maxOutstanding) {
      stats.maxOutstanding = outstanding;
    }
    issue.add(now, t);
  }

  /**
   * A BTE channel's transaction has issued its last request: the channel takes its next post.
   *
   * @param channel 0 to bteChannels - 1
   */
  void channelIssued(long now, int channel) {
    channelBusy[channel] = false;
    startChannel(now, channel);
  }

  /** One request of {@code t} has left (the fabric took it, or a local fault ended it at the source). */
  void requestLeft(long now, Transaction t) {
    t.injected++;
    if (t.channel >= 0 && t.type == Post.PostType.PUT) {
      issue.bteReadReleased(now, t.channel);
    }
    if (t.injected == t.packets && !t.localSent && (t.modes & Post.LOCAL_EVENT) != 0) {
      t.localSent = true;
      completions.write(now, CompletionType.LOCAL, t.localStatus(), t.post.postId(), t.remoteNode, 0, t.cq);
    }
  }

  /** One response of {@code t} has been processed; the last one completes the transaction. */
  void responseProcessed(long now, Transaction t) {
    t.processed++;
    if (t.type == Post.PostType.GET) {
      issue.getAnswered(now);
    }
    if (t.processed == t.packets) {
      finish(now, t);
    }
  }

  private void finish(long now, Transaction t) {
    Status s = t.status();
    stats.transactionsCompleted++;
    if (s.isError()) {
      stats.transactionsFailed++;
    }
    if ((t.modes & Post.GLOBAL_EVENT) != 0 || s.isError()) {
      long userData = t.type == Post.PostType.AMO && t.post.amo().fetching() ? t.fetched : 0;
      completions.write(now, CompletionType.GLOBAL, s, t.post.postId(), t.remoteNode, userData, t.cq);
    }
    completions.postFinished(t.cq);
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

  /** A post has crossed the host interface (ref: the post). */
  private final class PostArrives implements EventHandler {
    @Override
    public void onEvent(long now, Object ref, long arg) {
      arrive(now, (Post) ref);
    }
  }
}
