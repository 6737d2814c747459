package io.github.ariesmodel.system.mpi;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.SimTime;

/**
 * Protocol thresholds, software costs and collective cut-overs of the MPI layer. Defaults follow Cray MPICH over
 * uGNI and MPICH's collective selection; each says where it comes from (sources in docs/mpi.md).
 *
 * <table>
 *   <caption>Defaults</caption>
 *   <tr><th>setting</th><th>default</th><th>source</th></tr>
 *   <tr><td>{@code eagerMaxBytes}</td><td>8,192</td><td>Cray intro_mpi, {@code MPICH_GNI_MAX_EAGER_MSG_SIZE}</td></tr>
 *   <tr><td>{@code rdmaThresholdBytes}</td><td>1,024: GETs longer than this use the BTE, else FMA</td>
 *       <td>Cray intro_mpi, {@code MPICH_GNI_RDMA_THRESHOLD}</td></tr>
 *   <tr><td>{@code shortMaxBytes}</td><td>1,024 payload bytes inside an SMSG mailbox message</td>
 *       <td>assumed (Cray's {@code MPICH_GNI_MAX_VSHORT_MSG_SIZE} varies with job size; not read here)</td></tr>
 *   <tr><td>{@code mailboxSlots}</td><td>8 credits per ordered pair of ranks</td><td>assumed</td></tr>
 *   <tr><td>{@code sendOverheadPs}, {@code recvOverheadPs}</td><td>150.323 ns each per message</td>
 *       <td><em>calibrated</em> (no published split exists): chosen so that osu_latency at 8 bytes between two
 *       nodes of one blade, in steady state, gives the 1.3 µs of aries-facts §7 (Austin [S3]); the NIC, the network
 *       and the host cache account for the rest. Derivation on the model of 2026-12-01: with 285 ns a side the
 *       pair gave 1,440.0 ns (20 warm-up and 100 timed round trips, {@code two-groups}, seed 1), so the two
 *       overheads on a one-way message's path carried 140 ns too many, 70 ns each: 285 − 70 = 215 ns, which gives
 *       1,300.0 ns. The 285 ns of the first calibration predated the per-post CPU cost of the NIC and the polls
 *       and CQ reads timed through the host cache, which that figure then counted twice (docs/mpi.md). Stop 70 derived
 *       the NIC's post from S1 p.23 (133.334 ns, was an assumed 40): with 215 ns a side the pair gave 1,396.020 ns
 *       against 1,302.687 before (the one-way path has one post), so each side carried 46.667 ns too many:
 *       215 − 46.667 = 168.333 ns, which gave 1,302.686 ns; since a posting rank waits for its post's stores (later
 *       in stop 70) the same command gave 1,336.020 ns, a receiver's credit CQ writes being posts of its own; stop 71
 *       re-derived the same way: 36.020 ns too many, 18.010 a side, 168.333 − 18.010 = 150.323 ns, which gives
 *       1,300.000 ns ({@code MpiOverheadCalibrationTest} holds the figure within 1 ns and checks the procedure's
 *       premise, so a later change that moves it fails there)</td></tr>
 *   <tr><td>{@code memcpyBytesPerSecond}</td><td>16 GB/s (one core copying cache-resident data into or out of an
 *       internal buffer)</td><td>assumed</td></tr>
 *   <tr><td>{@code reduceBytesPerSecond}</td><td>4 GB/s of operands combined by one core</td><td>assumed</td></tr>
 *   <tr><td>{@code completionQueueEntries}</td><td>16,384 entries in each of a rank's two CQs (its rx ring of remote
 *       events, its tx ring of its own posts' source events)</td><td>assumed</td></tr>
 *   <tr><td>{@code pollIntervalPs}</td><td>50 ns between polls of a mailbox whose event came before its data; also
 *       the time a {@code test}, {@code iprobe} or {@code winTest} that found nothing takes when its progress pass
 *       timed nothing (one empty poll)</td><td>assumed</td></tr>
 *   <tr><td>{@code sharedMemory}</td><td>on: ranks of one node exchange messages through shared memory, not the
 *       NIC</td><td>Cray MPICH's on-node (SMP) path; docs/mpi.md</td></tr>
 *   <tr><td>{@code singleCopyBytes}</td><td>8,192: on-node messages this long or longer move by one copy
 *       (XPMEM)</td><td>Cray MPICH {@code MPICH_SMP_SINGLE_COPY_SIZE} (8,192 in the settings MPICH prints and in
 *       the ARCHER2 documentation)</td></tr>
 *   <tr><td>collective cut-overs</td><td>MPICH's {@code MPIR_CVAR_*} defaults (see the accessors)</td>
 *       <td>MPICH 3.x {@code mpich_cvars.c}</td></tr>
 * </table>
 */
public final class MpiConfig {

  private final int shortMaxBytes;
  private final int eagerMaxBytes;
  private final int rdmaThresholdBytes;
  private final int mailboxSlots;
  private final long heapBytes;
  private final PageSize pageSize;
  private final DeliveryMode deliveryMode;
  private final long sendOverheadPs;
  private final long recvOverheadPs;
  private final double memcpyBytesPerSecond;
  private final double reduceBytesPerSecond;
  private final long pollIntervalPs;
  private final int completionQueueEntries;
  private final boolean sharedMemory;
  private final int singleCopyBytes;
  private final int reduceShortBytes;
  private final int allreduceShortBytes;
  private final int bcastShortBytes;
  private final int bcastMinProcs;
  private final int bcastLongBytes;
  private final int allgatherShortBytes;
  private final int allgatherLongBytes;
  private final int allgathervPipelineBytes;
  private final int alltoallShortBytes;
  private final int alltoallMediumBytes;
  private final int alltoallMinProcs;
  private final int alltoallThrottle;
  private final int gathervSsendMinProcs;
  private final int reduceScatterLongBytes;
  private final int rmaScalableFenceRanks;
  private final boolean collectiveEngine;
  private final int collectiveEngineRadix;
  private final boolean smpCollectives;

  private MpiConfig(Builder b) {
    this.shortMaxBytes = b.shortMaxBytes;
    this.eagerMaxBytes = b.eagerMaxBytes;
    this.rdmaThresholdBytes = b.rdmaThresholdBytes;
    this.mailboxSlots = b.mailboxSlots;
    this.heapBytes = b.heapBytes;
    this.pageSize = b.pageSize;
    this.deliveryMode = b.deliveryMode;
    this.sendOverheadPs = b.sendOverheadPs;
    this.recvOverheadPs = b.recvOverheadPs;
    this.memcpyBytesPerSecond = b.memcpyBytesPerSecond;
    this.reduceBytesPerSecond = b.reduceBytesPerSecond;
    this.pollIntervalPs = b.pollIntervalPs;
    this.completionQueueEntries = b.completionQueueEntries;
    this.sharedMemory = b.sharedMemory;
    this.singleCopyBytes = b.singleCopyBytes;
    this.reduceShortBytes = b.reduceShortBytes;
    this.allreduceShortBytes = b.allreduceShortBytes;
    this.bcastShortBytes = b.bcastShortBytes;
    this.bcastMinProcs = b.bcastMinProcs;
    this.bcastLongBytes = b.bcastLongBytes;
    this.allgatherShortBytes = b.allgatherShortBytes;
    this.allgatherLongBytes = b.allgatherLongBytes;
    this.allgathervPipelineBytes = b.allgathervPipelineBytes;
    this.alltoallShortBytes = b.alltoallShortBytes;
    this.alltoallMediumBytes = b.alltoallMediumBytes;
    this.alltoallMinProcs = b.alltoallMinProcs;
    this.alltoallThrottle = b.alltoallThrottle;
    this.gathervSsendMinProcs = b.gathervSsendMinProcs;
    this.reduceScatterLongBytes = b.reduceScatterLongBytes;
    this.rmaScalableFenceRanks = b.rmaScalableFenceRanks;
    this.collectiveEngine = b.collectiveEngine;
    this.collectiveEngineRadix = b.collectiveEngineRadix;
    this.smpCollectives = b.smpCollectives;
  }

  /** @return the documented defaults */
  public static MpiConfig defaults() {
    return builder().build();
  }

  /** @return a builder starting from the defaults */
  public static Builder builder() {
    return new Builder();
  }

  /** @return a builder starting from this configuration */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.shortMaxBytes = shortMaxBytes;
    b.eagerMaxBytes = eagerMaxBytes;
    b.rdmaThresholdBytes = rdmaThresholdBytes;
    b.mailboxSlots = mailboxSlots;
    b.heapBytes = heapBytes;
    b.pageSize = pageSize;
    b.deliveryMode = deliveryMode;
    b.sendOverheadPs = sendOverheadPs;
    b.recvOverheadPs = recvOverheadPs;
    b.memcpyBytesPerSecond = memcpyBytesPerSecond;
    b.reduceBytesPerSecond = reduceBytesPerSecond;
    b.pollIntervalPs = pollIntervalPs;
    b.completionQueueEntries = completionQueueEntries;
    b.sharedMemory = sharedMemory;
    b.singleCopyBytes = singleCopyBytes;
    b.reduceShortBytes = reduceShortBytes;
    b.allreduceShortBytes = allreduceShortBytes;
    b.bcastShortBytes = bcastShortBytes;
    b.bcastMinProcs = bcastMinProcs;
    b.bcastLongBytes = bcastLongBytes;
    b.allgatherShortBytes = allgatherShortBytes;
    b.allgatherLongBytes = allgatherLongBytes;
    b.allgathervPipelineBytes = allgathervPipelineBytes;
    b.alltoallShortBytes = alltoallShortBytes;
    b.alltoallMediumBytes = alltoallMediumBytes;
    b.alltoallMinProcs = alltoallMinProcs;
    b.alltoallThrottle = alltoallThrottle;
    b.gathervSsendMinProcs = gathervSsendMinProcs;
    b.reduceScatterLongBytes = reduceScatterLongBytes;
    b.rmaScalableFenceRanks = rmaScalableFenceRanks;
    b.collectiveEngine = collectiveEngine;
    b.collectiveEngineRadix = collectiveEngineRadix;
    b.smpCollectives = smpCollectives;
    return b;
  }

  /** @return largest payload carried inside a mailbox message (SHORT protocol), bytes */
  public int shortMaxBytes() {
    return shortMaxBytes;
  }

  /** @return largest message sent eagerly; longer ones use rendezvous ({@code MPICH_GNI_MAX_EAGER_MSG_SIZE}) */
  public int eagerMaxBytes() {
    return eagerMaxBytes;
  }

  /** @return GETs longer than this run on the BTE, shorter ones on FMA ({@code MPICH_GNI_RDMA_THRESHOLD}) */
  public int rdmaThresholdBytes() {
    return rdmaThresholdBytes;
  }

  /** @return mailbox slots (credits) per ordered pair of ranks */
  public int mailboxSlots() {
    return mailboxSlots;
  }

  /** @return registered internal buffer space per rank for eager and rendezvous data, bytes */
  public long heapBytes() {
    return heapBytes;
  }

  /** @return page size of every rank's registration */
  public PageSize pageSize() {
    return pageSize;
  }

  /** @return routing mode of every post (SMSG's default is ADAPTIVE_0 [S7]) */
  public DeliveryMode deliveryMode() {
    return deliveryMode;
  }

  /** @return CPU time a rank spends per message sent, picoseconds */
  public long sendOverheadPs() {
    return sendOverheadPs;
  }

  /** @return CPU time a rank spends per message it matches, picoseconds */
  public long recvOverheadPs() {
    return recvOverheadPs;
  }

  /** @return host copy rate into or out of internal buffers, bytes per second */
  public double memcpyBytesPerSecond() {
    return memcpyBytesPerSecond;
  }

  /** @return rate at which a core combines reduction operands, bytes per second */
  public double reduceBytesPerSecond() {
    return reduceBytesPerSecond;
  }

  /** @return delay between polls of a mailbox whose remote event came before all its data, picoseconds */
  public long pollIntervalPs() {
    return pollIntervalPs;
  }

  /**
   * @return entries of each of a rank's two completion queues in host memory: its rx ring, which takes the remote
   *     events its registration asks for (and its peers' CQ writes), and its tx ring, which takes the source (GLOBAL)
   *     events of its own posts (uGNI lets a CQ take local or remote events, not both); each ring is this size, so
   *     a rank registers twice {@code completionQueueEntries × 8} bytes of rings, and a ring that fills before the
   *     rank polls it overruns and fails the rank
   */
  public int completionQueueEntries() {
    return completionQueueEntries;
  }

  /**
   * @return whether two ranks of one node exchange messages through shared memory (Cray MPICH's on-node path, the
   *     default) rather than through their NIC
   */
  public boolean sharedMemory() {
    return sharedMemory;
  }

  /**
   * @return on-node messages of at least this many bytes move by a single copy from the sender's buffer (XPMEM);
   *     shorter ones are copied into shared memory and out again ({@code MPICH_SMP_SINGLE_COPY_SIZE})
   */
  public int singleCopyBytes() {
    return singleCopyBytes;
  }

  /** @return reduce uses a binomial tree up to this many bytes, else Rabenseifner (MPIR_CVAR_REDUCE_SHORT_MSG_SIZE) */
  public int reduceShortBytes() {
    return reduceShortBytes;
  }

  /** @return allreduce uses recursive doubling up to this, else Rabenseifner (MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE) */
  public int allreduceShortBytes() {
    return allreduceShortBytes;
  }

  /** @return bcast uses a binomial tree below this many bytes (MPIR_CVAR_BCAST_SHORT_MSG_SIZE) */
  public int bcastShortBytes() {
    return bcastShortBytes;
  }

  /** @return bcast uses a binomial tree below this many ranks whatever the size (MPIR_CVAR_BCAST_MIN_PROCS) */
  public int bcastMinProcs() {
    return bcastMinProcs;
  }

  /**
   * @return a bcast of at least {@link #bcastShortBytes()} on a power-of-two size scatters and then allgathers by
   *     recursive doubling below this many bytes, by a ring above (MPIR_CVAR_BCAST_LONG_MSG_SIZE)
   */
  public int bcastLongBytes() {
    return bcastLongBytes;
  }

  /** @return allgather uses Bruck below this total size on non-power-of-two sizes (ALLGATHER_SHORT_MSG_SIZE) */
  public int allgatherShortBytes() {
    return allgatherShortBytes;
  }

  /** @return allgather uses recursive doubling below this total size on powers of two (ALLGATHER_LONG_MSG_SIZE) */
  public int allgatherLongBytes() {
    return allgatherLongBytes;
  }

  /**
   * The ring allgatherv sends each block in pieces of the larger of this and the smallest block: MPICH's
   * {@code MPIR_CVAR_ALLGATHERV_PIPELINE_MSG_SIZE}, 32,768 bytes by default [M2].
   *
   * @return bytes, 0 or more
   */
  public int allgathervPipelineBytes() {
    return allgathervPipelineBytes;
  }

  /** @return alltoall uses Bruck up to this block size (MPIR_CVAR_ALLTOALL_SHORT_MSG_SIZE) */
  public int alltoallShortBytes() {
    return alltoallShortBytes;
  }

  /** @return alltoall posts isends/irecvs up to this block size, else pairwise (ALLTOALL_MEDIUM_MSG_SIZE) */
  public int alltoallMediumBytes() {
    return alltoallMediumBytes;
  }

  /** @return alltoall uses Bruck only from this many ranks: 8, MPICH 3.x's {@code alltoall.c} condition {@code
   *     comm_size >= 8} (a constant there, not a CVAR) */
  public int alltoallMinProcs() {
    return alltoallMinProcs;
  }

  /**
   * The isends and irecvs alltoall (at medium block sizes) and alltoallv post at a time, each batch waited for before
   * the next: MPICH's {@code MPIR_CVAR_ALLTOALL_THROTTLE}, 32 by default [M2] (Tony Ladd's modification, as MPICH's
   * comment names it); 0 posts them all at once.
   *
   * @return 0 or more
   */
  public int alltoallThrottle() {
    return alltoallThrottle;
  }

  /**
   * From this many ranks on, gatherv's non-root ranks send their blocks synchronously ({@code MPI_Ssend}, so the root
   * is not flooded with unexpected messages): MPICH's {@code MPIR_CVAR_GATHERV_INTER_SSEND_MIN_PROCS}, 32 by default
   * [M2], which its gatherv applies to intracommunicators too [M8].
   *
   * @return 1 or more; {@link Integer#MAX_VALUE} never
   */
  public int gathervSsendMinProcs() {
    return gathervSsendMinProcs;
  }

  /** @return reduce_scatter uses recursive halving below this total size, else pairwise (REDSCAT_COMMUTATIVE_LONG) */
  public int reduceScatterLongBytes() {
    return reduceScatterLongBytes;
  }

  /**
   * From this many ranks in a window on, {@code winFence} takes MPICH's scalable algorithm (every target flushed, then
   * a barrier) instead of counting origins with a reduce-scatter: MPICH 3.2's
   * {@code MPIR_CVAR_CH3_RMA_SCALABLE_FENCE_PROCESS_NUM}, 1,024 by default [M11] (docs/mpi.md, "One-sided
   * communication").
   *
   * @return 1 or more
   */
  public int rmaScalableFenceRanks() {
    return rmaScalableFenceRanks;
  }

  /** Settings; each setter names its valid range. */
  /**
   * Whether barrier and small allreduces on the world communicator use the NICs' collective engine (docs/mpi.md,
   * "Collective engine"): one CE channel a node, the node's first rank its one process (the node's other ranks reduce
   * to it over shared memory before it posts, and it bcasts the result to them), the nodes in a tree of
   * {@link #collectiveEngineRadix()}. Off by default, the software algorithms of MPICH (Cray MPICH's DMAPP
   * collectives, {@code MPICH_USE_DMAPP_COLL} [M1], are opt-in there too: assumed, the man page is not readable
   * here).
   *
   * @return whether the collective engine is used
   */
  public boolean collectiveEngine() {
    return collectiveEngine;
  }

  /**
   * Children channels each node's channel has in the collective engine's tree: 2 by default, the one published
   * default (GASNet's Aries conduit, radix 2 with radix + leaves at most 32 [S9 via aries-facts §5]). Any value fits
   * a channel's 32 children whatever the ranks a node: the node's first rank is its channel's only process.
   *
   * @return 1 to 31
   */
  public int collectiveEngineRadix() {
    return collectiveEngineRadix;
  }

  /**
   * Whether barrier, bcast, reduce and allreduce on a communicator with two or more ranks on some node take MPICH's
   * SMP-aware (node-leader) algorithms (docs/mpi.md, "SMP-aware collectives"): a phase among each node's ranks, one
   * among the nodes' first ranks, and a phase on each node again. On by default, as MPICH's
   * {@code MPIR_CVAR_ENABLE_SMP_COLLECTIVES} and its per-collective switches ({@code ENABLE_SMP_BARRIER},
   * {@code _BCAST}, {@code _REDUCE}, {@code _ALLREDUCE}), all on with no size limit ({@code MAX_SMP_*_MSG_SIZE} 0) in
   * MPICH 3.1-3.2 [M2]. The collective engine, when on, still takes the world's barrier and small allreduces.
   *
   * @return whether the SMP-aware algorithms are used
   */
  public boolean smpCollectives() {
    return smpCollectives;
  }

  public static final class Builder {
    private int shortMaxBytes = 1024;
    private int eagerMaxBytes = 8192;
    private int rdmaThresholdBytes = 1024;
    private int mailboxSlots = 8;
    private long heapBytes = 16L << 20;
    private PageSize pageSize = PageSize.SIZE_2M;
    private DeliveryMode deliveryMode = DeliveryMode.ADAPTIVE_0;
    private long sendOverheadPs = 150_323;
    private long recvOverheadPs = 150_323;
    private double memcpyBytesPerSecond = 16e9;
    private double reduceBytesPerSecond = 4e9;
    private long pollIntervalPs = 50_000;
    private int completionQueueEntries = 1 << 14;
    private boolean sharedMemory = true;
    private int singleCopyBytes = 8192;
    private int reduceShortBytes = 2048;
    private int allreduceShortBytes = 2048;
    private int bcastShortBytes = 12288;
    private int bcastMinProcs = 8;
    private int bcastLongBytes = 524288;
    private int allgatherShortBytes = 81920;
    private int allgatherLongBytes = 524288;
    private int allgathervPipelineBytes = 32768;
    private int alltoallShortBytes = 256;
    private int alltoallMediumBytes = 32768;
    private int alltoallMinProcs = 8;
    private int alltoallThrottle = 32;
    private int gathervSsendMinProcs = 32;
    private int reduceScatterLongBytes = 524288;
    private int rmaScalableFenceRanks = 1024;
    private boolean collectiveEngine = false;
    private int collectiveEngineRadix = 2;
    private boolean smpCollectives = true;

    private Builder() {}

    /** @param v 0 to 65,472 (an SMSG message is at most 65,535 bytes with its header [S5]) @return this */
    public Builder shortMaxBytes(int v) {
      checkArgument(v >= 0 && v <= 65472, "shortMaxBytes must be in [0, 65472] but was %s", v);
      this.shortMaxBytes = v;
      return this;
    }

    /** @param v ≥ 0 @return this */
    public Builder eagerMaxBytes(int v) {
      checkArgument(v >= 0, "eagerMaxBytes must be >= 0 but was %s", v);
      this.eagerMaxBytes = v;
      return this;
    }

    /** @param v ≥ 0 @return this */
    public Builder rdmaThresholdBytes(int v) {
      checkArgument(v >= 0, "rdmaThresholdBytes must be >= 0 but was %s", v);
      this.rdmaThresholdBytes = v;
      return this;
    }

    /** @param v 1 to 1024 @return this */
    public Builder mailboxSlots(int v) {
      checkArgument(v >= 1 && v <= 1024, "mailboxSlots must be in [1, 1024] but was %s", v);
      this.mailboxSlots = v;
      return this;
    }

    /** @param v 64 KiB to 64 GiB @return this */
    public Builder heapBytes(long v) {
      checkArgument(v >= (64 << 10) && v <= (64L << 30), "heapBytes must be in [65536, 2^36] but was %s", v);
      this.heapBytes = v;
      return this;
    }

    /** @param v page size of the registrations @return this */
    public Builder pageSize(PageSize v) {
      checkArgument(v != null, "pageSize must not be null");
      this.pageSize = v;
      return this;
    }

    /** @param v routing mode of every post @return this */
    public Builder deliveryMode(DeliveryMode v) {
      checkArgument(v != null, "deliveryMode must not be null");
      this.deliveryMode = v;
      return this;
    }

    /** @param ps in [0, 1 ms] (SimTime.MAX_LATENCY_PS, as every latency the model takes) @return this */
    public Builder sendOverheadPs(long ps) {
      SimTime.checkLatency("sendOverheadPs", ps); // (Long.MAX_VALUE failed at the first send, naming another value)
      this.sendOverheadPs = ps;
      return this;
    }

    /** @param ps in [0, 1 ms] @return this */
    public Builder recvOverheadPs(long ps) {
      SimTime.checkLatency("recvOverheadPs", ps);
      this.recvOverheadPs = ps;
      return this;
    }

    /** @param v in [84,000, 10^12] bytes/s, or infinity for untimed copies @return this */
    public Builder memcpyBytesPerSecond(double v) {
      SimTime.checkRate("memcpyBytesPerSecond", v, true);
      this.memcpyBytesPerSecond = v;
      return this;
    }

    /** @param v in [84,000, 10^12] bytes/s, or infinity for untimed reductions @return this */
    public Builder reduceBytesPerSecond(double v) {
      SimTime.checkRate("reduceBytesPerSecond", v, true);
      this.reduceBytesPerSecond = v;
      return this;
    }

    /** @param ps 1 ps to 1 ms @return this */
    public Builder pollIntervalPs(long ps) {
      checkArgument(ps >= 1 && ps <= 1_000_000_000L, "pollIntervalPs must be in [1, 10^9] but was %s", ps);
      this.pollIntervalPs = ps;
      return this;
    }

    /** @param v entries of each of a rank's two completion queues (rx and tx), 1 to 2^24 @return this */
    public Builder completionQueueEntries(int v) {
      checkArgument(v >= 1 && v <= 1 << 24, "completionQueueEntries must be in [1, 16777216] but was %s", v);
      this.completionQueueEntries = v;
      return this;
    }

    /**
     * @param v true for Cray MPICH's shared-memory path between ranks of one node (the default), false to send
     *     their messages through the NIC like any others (a what-if)
     * @return this
     */
    public Builder sharedMemory(boolean v) {
      this.sharedMemory = v;
      return this;
    }

    /**
     * @param v 1 to 2^31 - 1; {@code Integer.MAX_VALUE} turns single copies off, as {@code MPICH_SMP_SINGLE_COPY_OFF}
     *     does
     * @return this
     */
    public Builder singleCopyBytes(int v) {
      checkArgument(v >= 1, "singleCopyBytes must be in [1, 2^31 - 1] but was %s", v);
      this.singleCopyBytes = v;
      return this;
    }

    /** @param v ≥ 0 @return this */
    public Builder reduceShortBytes(int v) {
      checkArgument(v >= 0, "reduceShortBytes must be >= 0 but was %s", v);
      this.reduceShortBytes = v;
      return this;
    }

    /** @param v ≥ 0 @return this */
    public Builder allreduceShortBytes(int v) {
      checkArgument(v >= 0, "allreduceShortBytes must be >= 0 but was %s", v);
      this.allreduceShortBytes = v;
      return this;
    }

    /** @param v ≥ 0 @return this */
    public Builder bcastShortBytes(int v) {
      checkArgument(v >= 0, "bcastShortBytes must be >= 0 but was %s", v);
      this.bcastShortBytes = v;
      return this;
    }

    /** @param v ≥ 1 @return this */
    public Builder bcastMinProcs(int v) {
      checkArgument(v >= 1, "bcastMinProcs must be >= 1 but was %s", v);
      this.bcastMinProcs = v;
      return this;
    }

    /** @param v ≥ 0 @return this */
    public Builder bcastLongBytes(int v) {
      checkArgument(v >= 0, "bcastLongBytes must be >= 0 but was %s", v);
      this.bcastLongBytes = v;
      return this;
    }

    /** @param v ≥ 0 @return this */
    public Builder allgatherShortBytes(int v) {
      checkArgument(v >= 0, "allgatherShortBytes must be >= 0 but was %s", v);
      this.allgatherShortBytes = v;
      return this;
    }

    /** @param v ≥ 0 @return this */
    public Builder allgatherLongBytes(int v) {
      checkArgument(v >= 0, "allgatherLongBytes must be >= 0 but was %s", v);
      this.allgatherLongBytes = v;
      return this;
    }

    /** @param v ≥ 0: the ring allgatherv's smallest piece, bytes @return this */
    public Builder allgathervPipelineBytes(int v) {
      checkArgument(v >= 0, "allgathervPipelineBytes must be >= 0 but was %s", v);
      this.allgathervPipelineBytes = v;
      return this;
    }

    /** @param v ≥ 0 @return this */
    public Builder alltoallShortBytes(int v) {
      checkArgument(v >= 0, "alltoallShortBytes must be >= 0 but was %s", v);
      this.alltoallShortBytes = v;
      return this;
    }

    /** @param v ≥ 0 @return this */
    public Builder alltoallMediumBytes(int v) {
      checkArgument(v >= 0, "alltoallMediumBytes must be >= 0 but was %s", v);
      this.alltoallMediumBytes = v;
      return this;
    }

    /** @param v ≥ 1 @return this */
    public Builder alltoallMinProcs(int v) {
      checkArgument(v >= 1, "alltoallMinProcs must be >= 1 but was %s", v);
      this.alltoallMinProcs = v;
      return this;
    }

    /** @param v ≥ 1: ranks from which gatherv's blocks go by synchronous send @return this */
    public Builder gathervSsendMinProcs(int v) {
      checkArgument(v >= 1, "gathervSsendMinProcs must be >= 1 but was %s", v);
      this.gathervSsendMinProcs = v;
      return this;
    }

    /** @param v ≥ 0: isends and irecvs alltoall and alltoallv post at a time, 0 for all @return this */
    public Builder alltoallThrottle(int v) {
      checkArgument(v >= 0, "alltoallThrottle must be >= 0 but was %s", v);
      this.alltoallThrottle = v;
      return this;
    }

    /** @param v ≥ 0 @return this */
    public Builder reduceScatterLongBytes(int v) {
      checkArgument(v >= 0, "reduceScatterLongBytes must be >= 0 but was %s", v);
      this.reduceScatterLongBytes = v;
      return this;
    }

    /** @param v ≥ 1: ranks of a window from which a fence takes MPICH's scalable algorithm @return this */
    public Builder rmaScalableFenceRanks(int v) {
      checkArgument(v >= 1, "rmaScalableFenceRanks must be >= 1 but was %s", v);
      this.rmaScalableFenceRanks = v;
      return this;
    }

    /** @param v whether barrier and small world allreduces use the collective engine @return this */
    public Builder collectiveEngine(boolean v) {
      this.collectiveEngine = v;
      return this;
    }

    /** @param v 1 to 31: child channels a node's channel has in the collective engine's tree @return this */
    public Builder collectiveEngineRadix(int v) {
      checkArgument(v >= 1 && v <= 31, "collectiveEngineRadix must be in [1, 31] but was %s", v);
      this.collectiveEngineRadix = v;
      return this;
    }

    /** @param v whether barrier, bcast, reduce and allreduce take MPICH's SMP-aware algorithms @return this */
    public Builder smpCollectives(boolean v) {
      this.smpCollectives = v;
      return this;
    }

    /** @return the configuration (refuses an eager limit below the short limit) */
    public MpiConfig build() {
      checkArgument(eagerMaxBytes >= shortMaxBytes,
          "eagerMaxBytes (%s) can not be below shortMaxBytes (%s)", eagerMaxBytes, shortMaxBytes);
      return new MpiConfig(this);
    }
  }
}
