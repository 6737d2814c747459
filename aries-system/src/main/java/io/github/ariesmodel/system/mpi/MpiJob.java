package io.github.ariesmodel.system.mpi;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.iommu.Iommu;
import io.github.ariesmodel.nic.CeTree;
import io.github.ariesmodel.nic.CompletionQueue;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.Node;
import io.github.ariesmodel.system.process.ProcessRunner;
import io.github.ariesmodel.system.process.SimProcess;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An MPI-like job on a simulated Aries system: ranks placed on nodes, each with its own registered memory
 * (mailboxes and internal buffers) and two completion queues (rx and tx), running an {@link MpiProgram} as ordinary blocking Java in
 * simulated time over the real NIC, IOMMU and fabric models.
 *
 * <pre>{@code
 * AriesSystem system = AriesSystem.builder().preset(SystemPreset.DEFAULT).build();
 * MpiJob job = MpiJob.builder(system).nodes(0, 1, 2, 3).ranksPerNode(2).build();
 * job.run(mpi -> {
 *   long[] sum = new long[1];
 *   mpi.allreduce(new long[] {mpi.rank()}, sum, ReduceOp.SUM, mpi.world());
 * });
 * }</pre>
 *
 * <p>Placement: rank i runs on {@code nodes[i / ranksPerNode]} (ranks fill a node before the next, as ALPS places
 * them by default; assumed). Ranks on one node exchange messages through the node's shared memory, as Cray MPICH
 * does, with no NIC traffic (copies timed through the node's host cache; {@link MpiConfig#sharedMemory()} turns this
 * off). After the program returns, each rank finalizes: it waits for its sends to complete and joins a barrier, as
 * {@code MPI_Finalize} does.
 *
 * <p>On a partitioned engine ({@link AriesSystem.Builder#threads(int)}) each rank's process runs in its node's
 * dragonfly group, on that group's thread, so a rank touches only its own and its node's state (and what is fixed at
 * setup); it reaches other ranks through the fabric alone, and results are the same for every thread count.
 */
public final class MpiJob {

  /** Virtual address of rank 0's registration on each node; the ranks of a node are {@link #RANK_SPAN} apart. */
  public static final long VIRTUAL_BASE = 0x2000_0000_0000L;
  /** Virtual address space between the registrations of two ranks on one node (64 GiB). */
  public static final long RANK_SPAN = 1L << 36;
  /**
   * The latest start a job of a set may be given ({@link Together#job(MpiJob, MpiProgram, long)}): 1,000 s (10^15 ps),
   * the bound a traffic run's warm-up and window have ({@code TrafficExperiment.MAX_SPAN_PS}), far beyond the CLI's
   * 1 s and leaving the job more than 100 days of the clock ({@code Long.MAX_VALUE} ps, about 107) to run in. A start
   * nearer the clock's end passed and failed part way through the run, leaving every job of the set unable to run.
   */
  public static final long MAX_START_PS = 1_000_000_000_000_000L;

  private final AriesSystem system;
  private final MpiConfig config;
  private final int[] rankNodes;
  /** Communicators' layouts over nodes ({@link #nodeLayout}); ranks may ask from several engine threads at once. */
  private final Map<LayoutKey, Optional<NodeLayout>> nodeLayouts = new ConcurrentHashMap<>();
  private final Rank[] ranks;
  private final int[] worldRanks;
  /** Read-only after construction: on a partitioned engine, ranks of every group look up each other's nodes here. */
  private final Map<Integer, NodeEndpoint> endpoints = new LinkedHashMap<>();
  /**
   * How the report of a program whose ranks disagree on a collective starts (an {@link IllegalStateException} from
   * {@link #run}), for callers that place it (the trace replay names its file).
   */
  public static final String DISAGREEMENT = CollectiveLedger.DISAGREEMENT;
  /** How the report of a program that finalized with communication left unfinished starts. */
  public static final String UNFINISHED = "MPI program finalized with communication unfinished (MPI requires every"
      + " send and receive to complete first): ";
  /** Every rank's collective calls, to refuse a program whose ranks disagree on one. */
  private final CollectiveLedger ledger = new CollectiveLedger();
  private ProcessRunner runner;
  /** The thread that called the run of this job while it lasts, else null: named when another thread is refused. */
  private volatile Thread runCaller;
  private long lastRunStartPs;
  private long lastRunEndPs;
  private boolean lastRunStopped;

  private MpiJob(Builder b) {
    this.system = b.system;
    this.config = b.config;
    int n = b.placement != null ? b.placement.length : b.nodes.length * b.ranksPerNode;
    this.rankNodes = new int[n];
    this.ranks = new Rank[n];
    this.worldRanks = new int[n];
    for (int i = 0; i < n; i++) {
      worldRanks[i] = i;
    }
    for (int i = 0; i < n; i++) {
      rankNodes[i] = b.placement != null ? b.placement[i] : b.nodes[i / b.ranksPerNode];
    }
    checkMemory();
    for (int node : rankNodes) {
      endpoints.computeIfAbsent(node, x -> new NodeEndpoint(system.node(x)));
    }
    for (int i = 0; i < n; i++) {
      NodeEndpoint e = endpoints.get(rankNodes[i]);
      long free = freeBytes(e.node());
      try {
        ranks[i] = new Rank(this, i, e, VIRTUAL_BASE + e.ranks().size() * RANK_SPAN);
      } catch (RuntimeException x) {
        // (it named neither a setting nor the rank: "physical memory exhausted", or the IOMMU's "length must be in")
        // The rank gave back its own rings; those before it give back their registrations and rings.
        for (int k = 0; k < i; k++) {
          ranks[k].giveBack(x);
        }
        endpoints.values().forEach(NodeEndpoint::detachDescriptors);
        List<Integer> on = ranksOn(e.node().id());
        throw new IllegalStateException("MpiJob rank " + i + " on node " + e.node().id() + (on.size() > 1 ? " (which"
            + " holds " + describe(on) + ")" : "") + " could not be set up: " + x.getMessage() + "; " + needs() + "; the"
            + " node had " + free + " of its " + e.node().memory().capacity() + " bytes free (AriesSystem"
            + " nodeMemoryBytes) before it; " + givenBack(i), x);
      }
    }
    if (config.collectiveEngine()) {
      try {
        wireCollectiveEngine();
      } catch (IllegalStateException x) {
        // a NIC with no free CE channel (another job holds them): CeTree freed what it took; undo the ranks
        for (Rank r : ranks) {
          r.giveBack(x);
        }
        endpoints.values().forEach(NodeEndpoint::detachDescriptors);
        throw new IllegalStateException("MpiJob could not set up MpiConfig.collectiveEngine: " + x.getMessage()
            + " (each job using the engine takes one of a node's 4 channels until it is closed, MpiJob.close); the"
            + " ranks' registrations, completion queues and FMA descriptors were given back, with the host memory"
            + " they took", x);
      }
    }
  }

  /** @return what a build that failed as rank {@code failed} was set up gave back, for its refusal */
  private static String givenBack(int failed) {
    return "the completion queues it had made" + (failed == 0 ? " were" : failed == 1 ? " and rank 0's registration"
        + " and queues were" : " and ranks 0-" + (failed - 1) + "'s registrations and queues were") + " given back"
        + ", with the host memory they took";
  }

  /**
   * Takes one collective-engine channel on each node of the job and wires them into a tree (docs/mpi.md, "Collective
   * engine"): the nodes in the order of their first rank, node k's parent node (k - 1) / radix; a node's first rank
   * is its channel's one PE child (child 0), its child nodes' channels the rest, and the node's other ranks reach the
   * engine through the first one (a node-local reduction before the post and a broadcast after it, as S1 p.24
   * describes: a node contributes "generally the result of a local shared memory reduction"). With one PE child a
   * channel, any radix the configuration allows (1 to 31) fits a channel's 32 children, whatever the ranks a node.
   */
  private void wireCollectiveEngine() {
    List<NodeEndpoint> nodes = new ArrayList<>(endpoints.values()); // in the order of each node's first rank
    List<io.github.ariesmodel.nic.Nic> nics = new ArrayList<>();
    int[] processes = new int[nodes.size()];
    for (int k = 0; k < nodes.size(); k++) {
      nics.add(nodes.get(k).node().nic());
      processes[k] = 1;
    }
    int[] channel = CeTree.wire(nics, processes, config.collectiveEngineRadix(), config.deliveryMode());
    for (int k = 0; k < nodes.size(); k++) {
      List<Rank> on = nodes.get(k).ranks();
      on.get(0).useCollectiveEngine(channel[k], 0);
      for (int r = 1; r < on.size(); r++) {
        on.get(r).useCollectiveEngineThroughNode();
      }
    }
  }


  /** {@code MpiConfig.Builder.heapBytes}' least: 64 KiB. */
  private static final long MIN_HEAP_BYTES = 64 << 10;

  /**
   * Refuses, before anything is made, a job whose ranks on some node need more than the node's memory has left. Each
   * rank takes its two completion queues' rings (rx, then tx) and then its registration (mailboxes and heap, {@link
   * Rank#registrationBytes}), which starts on a page boundary (at least a 2 MiB one for larger pages), laid out from
   * the node memory's highest reservation up as its allocator does while nothing was given back below. Where a closed
   * job gave memory back, a job whose bytes fit in all the memory free is not refused here: its ranks may take the
   * ranges given back.
   * Page tables are not counted, so this never refuses a job that would have been built; one that passes can still
   * fail as a rank registers, and is then refused naming that rank. Only for the system's own translators, which take
   * their frames from the node's memory (a user's translation may not).
   */
  private void checkMemory() {
    int n = rankNodes.length;
    long page = config.pageSize().bytes();
    long align = Math.min(page, PageSize.SIZE_2M.bytes());
    long ringPair = 2 * ringBytes(); // a rank's rx and tx rings, side by side (each a whole number of 4 KB pages)
    Map<Integer, List<Integer>> ranksOfNode = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      ranksOfNode.computeIfAbsent(rankNodes[i], x -> new ArrayList<>()).add(i);
    }
    for (Map.Entry<Integer, List<Integer>> e : ranksOfNode.entrySet()) {
      int id = e.getKey();
      Node node = system.node(id);
      if (!(node.translation() instanceof Iommu || node.translation() instanceof FlatTranslation)) {
        continue;
      }
      SparsePhysicalMemory memory = node.memory();
      long next = memory.nextUnreserved();
      List<Integer> on = e.getValue();
      int k = on.size();
      // The first rank's rings start at next; each registration ends on a boundary, so later rings do too. (At most
      // 272 ranks of under 2^47 bytes each: no overflow.)
      long rings = (next + ringPair + align - 1) / align * align - next
          + (k - 1) * ((ringPair + align - 1) / align * align);
      long registration = Rank.registrationBytes(config, n);
      if (rings + k * registration <= memory.capacity() - next) {
        continue;
      }
      long left = freeBytes(node);
      if (memory.freedBytes() > 0 && k * (ringPair + registration) <= left) {
        // memory a closed job gave back lies below: the ranks' allocations may fit there (first fit), which the
        // layout above the highest reservation does not show; a rank that does not fit is refused as it registers
        continue;
      }
      long heapMax = Math.max(0, left - rings) / k / page * page - Rank.mailboxBytes(config, n);
      String which = k == 1 ? "rank " + on.get(0) + " on node " + id
          : "the " + k + " ranks on node " + id + " (" + describe(on) + ")";
      String has = "node " + id + " has " + left + " of its " + memory.capacity() + " bytes free (AriesSystem"
          + " nodeMemoryBytes)";
      if (heapMax >= MIN_HEAP_BYTES) {
        throw new IllegalArgumentException("MpiConfig.heapBytes must be at most " + heapMax + " (less what page"
            + " tables take) for " + which + " but was " + config.heapBytes() + ": " + has + "; " + needs());
      }
      throw new IllegalArgumentException(which + " cannot fit in the node's memory even with the least"
          + " MpiConfig.heapBytes ("
          + MIN_HEAP_BYTES + "): " + has + "; " + needs() + "; place fewer ranks on a node, lower mailboxSlots or"
          + " shortMaxBytes, or raise nodeMemoryBytes");
    }
  }

  /** What each rank takes of its node's memory, by the settings that size it. */
  private String needs() {
    int n = rankNodes.length;
    return "each rank registers heapBytes " + config.heapBytes() + " and mailboxes of " + n + " ranks x mailboxSlots "
        + config.mailboxSlots() + " x " + Rank.slotBytes(config) + " B (shortMaxBytes " + config.shortMaxBytes()
        + ") in " + config.pageSize() + " pages (MpiConfig.pageSize): " + Rank.registrationBytes(config, n)
        + " bytes, and two CQs (rx and tx) of completionQueueEntries " + config.completionQueueEntries() + " x "
        + CompletionQueue.ENTRY_BYTES + " B each";
  }

  /** Bytes of one of a rank's two completion queues' rings: its entries on 4 KB pages, as {@code Rank} creates it. */
  private long ringBytes() {
    return PageSize.SIZE_4K.alignUp((long) config.completionQueueEntries() * CompletionQueue.ENTRY_BYTES);
  }

  private static long freeBytes(Node node) {
    SparsePhysicalMemory m = node.memory();
    return m.capacity() - SparsePhysicalMemory.FIRST_ALLOCATABLE - m.allocatedBytes();
  }

  /** The world ranks placed on a node, in order (one pass over the ranks: for a refusal's message). */
  private List<Integer> ranksOn(int node) {
    List<Integer> on = new ArrayList<>();
    for (int i = 0; i < rankNodes.length; i++) {
      if (rankNodes[i] == node) {
        on.add(i);
      }
    }
    return on;
  }

  /** "rank 0", "ranks 0-7", or the first few of ranks that are not one run ("ranks 0, 4, 8 and 5 more"). */
  private static String describe(List<Integer> ranks) {
    int first = ranks.get(0);
    int last = ranks.get(ranks.size() - 1);
    if (first == last) {
      return "rank " + first;
    }
    if (last - first == ranks.size() - 1) {
      return "ranks " + first + "-" + last;
    }
    StringBuilder s = new StringBuilder("ranks ");
    int shown = Math.min(3, ranks.size());
    for (int i = 0; i < shown; i++) {
      s.append(i == 0 ? "" : ", ").append(ranks.get(i));
    }
    return ranks.size() > shown ? s.append(" and ").append(ranks.size() - shown).append(" more").toString()
        : s.toString();
  }

  /**
   * Lets time pass on a rank with nothing to do: a program's sleep or pause, not computation ({@link Mpi#compute}).
   * Without OS noise the two are the same. Under {@linkplain io.github.ariesmodel.system.process.OsNoise noise} an
   * idle time is not stretched (a detour while the rank sleeps costs it nothing: the kernel takes a CPU the rank is not
   * using), but the rank goes on only once its node's CPU is free, at the end of a detour it would wake in ({@link
   * io.github.ariesmodel.system.process.SimProcess#idle}); work is stretched by every detour inside it. No MPI progress
   * is made meanwhile, as in compute. The {@link Mpi} interface has no such call; this is the one for a rank of a job
   * (any other {@code Mpi} computes the time instead).
   *
   * @param mpi the calling rank, from its own program
   * @param ps picoseconds, 0 to what is left from now of a program's clock (to
   *     {@link AriesSystem#PROGRAM_CLOCK_END_PS})
   * @throws IllegalArgumentException when {@code ps} is negative or would end past that, naming the range; nothing
   *     changes
   */
  public static void idle(Mpi mpi, long ps) {
    checkArgument(mpi != null, "mpi must not be null");
    // (an idle time to the clock's end was taken, and the next post failed inside the NIC with a wrapped time)
    AriesSystem.checkProgramTime("ps", mpi.now(), ps);
    if (mpi instanceof Rank r && r.process != null) {
      r.process.idle(ps); // (it checks that the rank's own code calls it)
    } else {
      mpi.compute(ps);
    }
  }

  /**
   * A builder for a job on a system.
   *
   * @param system the system
   * @return the builder (one rank on each of nodes 0 and 1 unless told otherwise)
   */
  public static Builder builder(AriesSystem system) {
    checkArgument(system != null, "system must not be null");
    return new Builder(system);
  }

  /** @return number of ranks */
  public int size() {
    return ranks.length;
  }

  /** @return the settings */
  public MpiConfig config() {
    return config;
  }

  /** @return the system the job runs on */
  public AriesSystem system() {
    return system;
  }

  /**
   * The node a rank runs on.
   *
   * @param rank 0 to size - 1
   * @return its node
   */
  public int nodeOf(int rank) {
    checkArgument(rank >= 0 && rank < ranks.length, "rank must be in [0, %s] but was %s", ranks.length - 1, rank);
    return rankNodes[rank];
  }

  /**
   * Runs the program on every rank until all have returned and finalized.
   *
   * @param program the rank code
   * @throws IllegalStateException when ranks are left waiting forever (a deadlock), naming what each waits for
   * @throws ProcessRunner.ProcessFailedException when a rank's code threw
   * @throws IllegalStateException also when a run of this job failed before (its state is then undefined: build a
   *     new job) or when called from inside its own run; and, changing nothing, when called from a thread other than
   *     the one the system's clock belongs to ({@link AriesSystem#checkClockOwner})
   */
  public void run(MpiProgram program) {
    checkArgument(program != null, "program must not be null");
    together().job(this, program).run();
  }

  /**
   * Several jobs of one system running at the same time, each on its own nodes, as a batch system runs them: the
   * jobs share only the network (and so disturb each other where their traffic shares links). Foreground jobs run to
   * their end, as {@link #run} runs one; background jobs run beside them and are stopped where the last foreground
   * job ends (a job of synthetic load that loops for ever, {@link SyntheticTraffic}, is the usual background). A
   * foreground job that deadlocks beside a background without end is reported as a deadlock, limit or none
   * ({@link Together}).
   *
   * <pre>{@code
   * MpiJob a = MpiJob.builder(system).nodes(0, 1, 2, 3).build();
   * MpiJob noise = MpiJob.builder(system).nodes(4, 5, 6, 7).build();
   * MpiJob.together().job(a, program).background(noise, SyntheticTraffic.uniform(65536, 0, 0, 1)).run();
   * long aTook = a.lastRunPs();
   * }</pre>
   *
   * @return an empty set of jobs to run
   */
  public static Together together() {
    return new Together();
  }

  /**
   * A set of jobs to run at the same time ({@link #together()}).
   *
   * <p>The run starts every job at the system's current time (a job given a start, that much later: it arrives while
   * the others run) and ends when every foreground job's ranks have returned and finalized: on the single event loop
   * right after the event in which the last of them finalized, on a partitioned engine at the end of that engine
   * window (the windows are the same for every thread count, so the results are too). A background job still running
   * then is stopped: its ranks are ended where they are, its messages in flight stay in the system, and it cannot run
   * again (its counters, {@link #messages()} and {@link #bytesSent()}, say what it did until then). A background job
   * that returns by itself finalizes as a foreground one does. Each job's {@link #lastRunPs()} is its own program's
   * time, from its own start.
   *
   * <p>A foreground job that deadlocks while a background job loops for ever is found all the same, though the
   * background keeps the event loop from running dry (how a deadlock is found otherwise): without a
   * {@link #foregroundLimitPs}, a watch looks at the foreground jobs every 100 µs of simulated time and, once each of
   * their ranks that has not finalized has waited with nothing to do through two looks (no completion or on-node peer
   * woke it, no request of theirs in the network), stops the run, which then reports the waiting ranks as any deadlock
   * ({@link JobFailedException}), within about 200 µs of simulated time after they stopped and at the same time for
   * every engine thread count. A limit instead gives up the run at that time, deadlocked or only slow (the replay sets
   * one from each job's time alone).
   */
  public static final class Together {
    private final List<MpiJob> jobs = new ArrayList<>();
    private final List<MpiProgram> programs = new ArrayList<>();
    private final List<Boolean> background = new ArrayList<>();
    private final List<Long> starts = new ArrayList<>();
    private long limitPs = Long.MAX_VALUE;

    private Together() {}

    /**
     * Adds a foreground job: the run lasts until it has finished.
     *
     * @param job a job of the same system as the others, on nodes no other job of the set uses
     * @param program its ranks' code
     * @return this set
     */
    public Together job(MpiJob job, MpiProgram program) {
      return add(job, program, false, 0);
    }

    /**
     * Adds a foreground job that arrives later: its ranks start their program {@code startPs} after the set's start
     * (before that they do nothing), as a job a batch system starts while others run. Its {@link #lastRunPs()}
     * counts from its own start.
     *
     * @param job a job of the same system as the others, on nodes no other job of the set uses
     * @param program its ranks' code
     * @param startPs picoseconds after the set's start, 0 to {@link MpiJob#MAX_START_PS}
     * @return this set
     */
    public Together job(MpiJob job, MpiProgram program, long startPs) {
      return add(job, program, false, startPs);
    }

    /**
     * Adds a background job: it runs while the foreground jobs do and is stopped where the last of them ends.
     *
     * @param job a job of the same system as the others, on nodes no other job of the set uses
     * @param program its ranks' code (usually a loop without end)
     * @return this set
     */
    public Together background(MpiJob job, MpiProgram program) {
      return add(job, program, true, 0);
    }

    /**
     * Adds a background job that starts {@code startPs} after the set's start. Started before the foreground jobs
     * (give those a later start), it has loaded the network by the time they begin; one whose start comes after the
     * last foreground job ended never runs (its {@link #lastRunPs()} is 0).
     *
     * @param job a job of the same system as the others, on nodes no other job of the set uses
     * @param program its ranks' code (usually a loop without end)
     * @param startPs picoseconds after the set's start, 0 to {@link MpiJob#MAX_START_PS}
     * @return this set
     */
    public Together background(MpiJob job, MpiProgram program, long startPs) {
      return add(job, program, true, startPs);
    }

    /**
     * Gives up a run whose foreground jobs have not all finished this long after its start while background jobs
     * ran (an {@link IllegalStateException} naming the jobs still running). Not needed to end a deadlock beside a
     * background without end: without a limit the run finds it and reports it as a deadlock (see the class comment);
     * with one, a foreground deadlocked or slowed past the limit is given up there, and no deadlock is looked for.
     *
     * @param ps at least 1 picosecond, and at most the clock's end from the run's start (checked by {@link #run});
     *     {@link Long#MAX_VALUE} (the default) for no limit
     * @return this set
     */
    public Together foregroundLimitPs(long ps) {
      checkArgument(ps >= 1, "foregroundLimitPs must be at least 1 but was %s", ps);
      this.limitPs = ps;
      return this;
    }

    private Together add(MpiJob job, MpiProgram program, boolean isBackground, long startPs) {
      checkArgument(job != null, "job must not be null");
      checkArgument(program != null, "program must not be null");
      checkArgument(startPs >= 0 && startPs <= MAX_START_PS, "startPs must be in [0, %s] (picoseconds after the set's"
          + " start) but was %s", MAX_START_PS, startPs);
      int k = jobs.indexOf(job);
      checkArgument(k < 0, "job %s is in this set already (a job runs one program at a time)", k);
      if (!jobs.isEmpty()) {
        // (two systems built from one preset have one name: the message said "job 1's system is default and job 0's
        // is default" until stop 76)
        checkArgument(job.system == jobs.get(0).system, "every job of a set must run on one system, but job %s's"
            + " system is another AriesSystem object than job 0's (%s)", jobs.size(),
            job.system.name().equals(jobs.get(0).system.name()) ? "both named " + job.system.name()
                : job.system.name() + " and " + jobs.get(0).system.name());
        for (int j = 0; j < jobs.size(); j++) {
          for (int node : job.endpoints.keySet()) {
            checkArgument(!jobs.get(j).endpoints.containsKey(node), "jobs %s and %s both use node %s: each job of a"
                + " set needs nodes of its own (a NIC serves one job's completions; batch systems give a job whole"
                + " nodes)", j, jobs.size(), node);
          }
        }
      }
      jobs.add(job);
      programs.add(program);
      background.add(isBackground);
      starts.add(startPs);
      return this;
    }

    /**
     * Runs the set (see the class comment).
     *
     * @throws IllegalStateException when no foreground job was added, when a job's ranks are left waiting forever (a
     *     deadlock, beside a background without end too), when a job's program finalized with communication
     *     unfinished or its ranks disagreed on a collective ({@link JobFailedException} naming the job), when
     *     {@link #foregroundLimitPs} passed, when a job of the set is running or failed before; and, changing
     *     nothing, when called from a thread other than the one the system's clock belongs to
     *     ({@link AriesSystem#checkClockOwner})
     * @throws IllegalArgumentException when a job's start or the limit would pass the clock's end from now; nothing
     *     has run then
     * @throws ProcessRunner.ProcessFailedException when a rank's code threw
     */
    public void run() {
      checkArgument(background.contains(false), "a set of jobs needs a foreground job (job(...)): background jobs"
          + " alone would run for ever");
      for (MpiJob job : jobs) {
        if (job.runner != null) {
          throw new IllegalStateException("run was called while this job runs (" + job.callerWhileRunning() + "): a"
              + " job runs one program at a time");
        }
        if (job.closed) {
          throw new IllegalStateException("this job cannot run again: it was closed (MpiJob.close gave back its"
              + " registrations, queues and descriptors); build a new MpiJob on the system");
        }
        if (job.failedRun != null) {
          throw new IllegalStateException("this job cannot run again: a run of it failed (" + job.failedRun + "),"
              + " which leaves its ranks' barrier and message state undefined; build a new MpiJob on the system");
        }
      }
      // before anything changes: the loop's own refusal came from inside the run, which then counted as failed and
      // every job of the set could never run again, even once the loop was handed to this thread
      jobs.get(0).system.checkClockOwner(jobs.size() == 1 ? "MpiJob.run" : "MpiJob.Together.run");
      long now = jobs.get(0).system.now();
      for (int j = 0; j < jobs.size(); j++) {
        checkArgument(starts.get(j) <= Long.MAX_VALUE - now, "job %s's startPs must be at most %s (the clock's end"
            + " from now, %s ps) but was %s", j, Long.MAX_VALUE - now, now, starts.get(j));
      }
      // (the limit's event is scheduled at now + limitPs, which wrapped to a time before now and failed the run)
      checkArgument(limitPs == Long.MAX_VALUE || limitPs <= Long.MAX_VALUE - now, "foregroundLimitPs must be at most %s"
          + " (the clock's end from now, %s ps) or Long.MAX_VALUE (no limit) but was %s", Long.MAX_VALUE - now, now,
          limitPs);
      // A background that does not end keeps the loop busy after the foreground deadlocks, so the loop never runs dry
      // (how a deadlock is found otherwise): without a limit to end the run, the watch finds the deadlock and stops the
      // run, and runSet reports the foreground's waiting ranks as it reports any deadlock.
      DeadlockWatch watch = null;
      if (background.contains(true) && limitPs == Long.MAX_VALUE) {
        List<MpiJob> foreground = new ArrayList<>();
        for (int j = 0; j < jobs.size(); j++) {
          if (!background.get(j)) {
            foreground.add(jobs.get(j));
          }
        }
        watch = DeadlockWatch.over(foreground).start();
      }
      try {
        runSet(jobs, programs, background, starts, limitPs);
      } finally {
        if (watch != null) {
          watch.stop();
        }
      }
    }
  }

  /** A run of a set of jobs, as its ranks and its limit see it. */
  private static final class SetRun implements EventHandler {
    final AriesSystem system;
    final boolean stopsEarly;
    /** Foreground ranks that have not finalized yet. */
    final AtomicInteger foregroundLeft = new AtomicInteger();
    volatile boolean active = true;
    volatile boolean limitPassed;

    SetRun(AriesSystem system, boolean stopsEarly) {
      this.system = system;
      this.stopsEarly = stopsEarly;
    }

    /** A foreground rank finalized: the last one ends a run with background jobs (at the end of the engine's window). */
    void foregroundRankDone() {
      if (foregroundLeft.decrementAndGet() == 0 && stopsEarly) {
        stop();
      }
    }

    void stop() {
      if (system.engine().isPresent()) {
        system.engine().get().stop();
      } else {
        system.loop().stop();
      }
    }

    /**
     * The limit's event: stops the run (at the end of the engine's window). Whether foreground ranks were still running
     * is read after the run, not here: on an engine other groups' ranks may be finishing in the same window.
     */
    @Override
    public void onEvent(long timePs, Object ref, long arg) {
      if (active) {
        limitPassed = true;
        stop();
      }
    }
  }

  private static void runSet(List<MpiJob> jobs, List<MpiProgram> programs, List<Boolean> background, List<Long> starts,
      long limitPs) {
    AriesSystem system = jobs.get(0).system;
    long start = system.now();
    boolean anyBackground = background.contains(true);
    SetRun set = new SetRun(system, anyBackground);
    boolean[] stopped = new boolean[jobs.size()]; // background jobs the foreground outlived
    // each job's start, kept in the job with its end only when the run completes: a failed run set the start and not
    // the end, and lastRunPs() was then negative
    long[] runStart = new long[jobs.size()];
    for (int j = 0; j < jobs.size(); j++) {
      MpiJob job = jobs.get(j);
      runStart[j] = start + starts.get(j);
      // A NIC has one completion listener: another job built on these nodes since this one took them has it now, and
      // this run's ranks would never be woken (a correct program was reported as deadlocked). Take it back for the run.
      for (NodeEndpoint e : job.endpoints.values()) {
        e.listen();
      }
    }
    for (int j = 0; j < jobs.size(); j++) {
      if (!background.get(j)) {
        set.foregroundLeft.addAndGet(jobs.get(j).ranks.length);
      }
    }
    try (ProcessRunner r = system.newProcessRunner()) {
      for (int j = 0; j < jobs.size(); j++) {
        MpiJob job = jobs.get(j);
        MpiProgram program = programs.get(j);
        boolean foreground = !background.get(j);
        long startAt = runStart[j];
        String prefix = jobs.size() == 1 ? "rank" : "job" + j + "-rank";
        job.runCaller = Thread.currentThread();
        job.runner = r;
        for (Rank rank : job.ranks) {
          rank.failedAtPs = Long.MAX_VALUE;
          rank.finishedAtPs = runStart[j]; // a background rank stopped before it returned: from its start
          rank.site = 0; // a site named in an earlier run is not this run's
          // On a partitioned engine a rank runs on its node's group's thread, where its NIC's completions arrive (on
          // the single loop the runner has one lane for every group)
          rank.process = r.spawn(prefix + rank.worldRank, system.groupOfNode(rank.node.id()),
              system.cpuTime(rank.node.id()), self -> {
            rank.thread = Thread.currentThread();
            try {
              // The job arrives later: its ranks do nothing until its time. Counted from the set's start, not from the
              // rank's first turn, which a detour covering the set's start puts off (until stop 67 a job started at
              // 30 us under an aligned 25-us detour at 0 began at 55 us: the hunt of stop 67)
              if (startAt > self.now()) {
                self.idle(startAt - self.now());
              }
              program.run(rank);
              rank.finishedAtPs = self.now();
              rank.finalizeRun();
            } catch (RuntimeException | Error t) {
              rank.failedAtPs = self.now(); // the ledger counts only collective calls made before the first failure
              throw t;
            }
            if (foreground) {
              set.foregroundRankDone();
            }
          });
        }
      }
      if (anyBackground && limitPs != Long.MAX_VALUE) {
        system.scheduler(0).scheduleAt(start + limitPs, set, null, 0);
      }
      try {
        r.run();
      } catch (ProcessRunner.ProcessFailedException e) {
        // a rank's code threw: when the ranks of its job disagreed on a collective before, that is the cause to report
        // (a receive too short for what a disagreeing root sent, for example)
        for (MpiJob job : jobs) {
          long failedAtPs = Long.MAX_VALUE;
          for (Rank rank : job.ranks) {
            failedAtPs = Math.min(failedAtPs, rank.failedAtPs);
          }
          // (with one job, a failure of the loop rather than of a rank is set against the whole ledger, as always)
          String mismatch = failedAtPs == Long.MAX_VALUE && jobs.size() > 1 ? null
              : job.ledger.firstMismatch(false, failedAtPs);
          if (mismatch != null) {
            throw new JobFailedException(job, mismatch + "; then a rank failed: "
                + firstLine(e.getCause() != null ? e.getCause() : e), e);
          }
        }
        throw e;
      } finally {
        set.active = false;
        if (anyBackground && limitPs != Long.MAX_VALUE) {
          // a foreground that ended first leaves the limit's event queued: a later run on the system would run it and
          // end at its time (start + limit) instead of its own
          removeOwnEvents(system, set);
        }
      }
      Set<SimProcess> stuck = new HashSet<>(r.unfinished()); // (looked up once a rank below)
      List<String> running = new ArrayList<>();
      for (int j = 0; j < jobs.size(); j++) {
        MpiJob job = jobs.get(j);
        int left = job.stuckRanks(stuck);
        stopped[j] = background.get(j) && left > 0;
        if (stopped[j]) {
          continue; // stopped where the foreground ended: nothing to check
        }
        job.checkAfterRun(stuck, set.limitPassed);
        if (left > 0) { // (only when the run was given up: checkAfterRun reports a deadlock otherwise)
          running.add("job " + j + " (" + left + " of its " + job.ranks.length + " ranks)");
        }
      }
      // (the foreground may have ended in the limit's own engine window: then the run is not given up)
      if (!running.isEmpty()) {
        throw new IllegalStateException("jobs still running " + limitPs + " ps after the start (the set's"
            + " foregroundLimitPs) while background jobs ran: " + String.join(", ", running) + "; a deadlocked"
            + " foreground job, or one slowed that much");
      }
    } catch (RuntimeException | Error e) {
      for (MpiJob job : jobs) {
        job.failedRun = firstLine(e);
      }
      throw e;
    } finally {
      for (MpiJob job : jobs) {
        job.runner = null;
        job.runCaller = null;
        for (Rank rank : job.ranks) {
          rank.process = null;
          rank.thread = null;
        }
      }
    }
    for (int j = 0; j < jobs.size(); j++) {
      MpiJob job = jobs.get(j);
      long end = runStart[j];
      for (Rank rank : job.ranks) {
        end = Math.max(end, rank.finishedAtPs);
      }
      // a background job stopped where the foreground ended ran until the run stopped (from its start: 0 ps if it
      // had not started), and cannot run again
      job.lastRunStartPs = runStart[j];
      job.lastRunEndPs = stopped[j] ? Math.max(end, system.now()) : end;
      job.lastRunStopped = stopped[j];
      if (stopped[j]) {
        job.failedRun = "it ran in the background and was stopped where the foreground jobs ended";
      }
    }
  }

  /**
   * Takes a set's own pending events (its limit's, its deadlock watch's) out of the queue after its run, unless an
   * engine is still running: a set run from inside another run (which fails on its own account) would otherwise fail
   * here, on the engine's refusal, and hide why.
   */
  static void removeOwnEvents(AriesSystem system, io.github.ariesmodel.core.spi.EventHandler handler) {
    if (system.engine().map(e -> !e.isRunning()).orElse(true)) {
      system.removePendingEvents(handler);
    }
  }

  /** @return how many of this job's ranks are among the run's unfinished processes */
  private int stuckRanks(Set<SimProcess> stuck) {
    int n = 0;
    for (Rank rank : ranks) {
      n += stuck.contains(rank.process) ? 1 : 0;
    }
    return n;
  }

  /**
   * The checks after a run, for a job whose ranks all returned or are stuck: disagreeing collectives, communication
   * left unfinished, a deadlock.
   *
   * @param stuck the run's unfinished processes
   * @param givenUp whether the run was given up at its limit (stuck ranks are not a deadlock then)
   */
  private void checkAfterRun(Set<SimProcess> stuck, boolean givenUp) {
    int count = stuckRanks(stuck);
    String mismatch = ledger.firstMismatch(count == 0, Long.MAX_VALUE);
    if (mismatch != null) {
      throw new JobFailedException(this, mismatch);
    }
    boolean allInFinalize = true;
    for (Rank rank : ranks) {
      allInFinalize &= !stuck.contains(rank.process) || rank.finalizing();
    }
    boolean anyStuck = count > 0;
    if (givenUp && anyStuck) {
      return; // the run was given up: said by the caller
    }
    if (allInFinalize) {
      // every rank returned: what is left is communication the program never completed (a rendezvous send never
      // received keeps its sender, and so the finalize barrier, waiting)
      refuseUnfinished();
    }
    if (anyStuck) {
      String held = system.refusedInjectionsNote();
      StringBuilder s = new StringBuilder("MPI program deadlocked: " + count + " ranks still waiting"
          + (held.isEmpty() ? "" : " (" + held + ")") + ":");
      int shown = 0;
      for (Rank rank : ranks) {
        if (stuck.contains(rank.process) && shown++ < 16) {
          s.append("\n  rank ").append(rank.worldRank).append(" in ").append(rank.callForDiagnostics())
              .append(" waits for ").append(rank.waitingOn).append(" (")
              .append(rank.queuesForDiagnostics().get(0)).append(')');
        }
      }
      throw new JobFailedException(this, s.toString());
    }
  }

  /**
   * A run's failure that is one job's: its ranks deadlocked, disagreed on a collective, or finalized with
   * communication unfinished. The message is what {@link #run} says for a job run alone.
   */
  public static final class JobFailedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;
    private final transient MpiJob job;

    JobFailedException(MpiJob job, String message) {
      super(message);
      this.job = job;
    }

    JobFailedException(MpiJob job, String message, Throwable cause) {
      super(message, cause);
      this.job = job;
    }

    /** @return the job that failed */
    public MpiJob job() {
      return job;
    }
  }

  /**
   * After a run whose every rank finalized: a message no receive took, or a receive no message matched, makes the
   * program erroneous (MPI requires every communication to complete before {@code MPI_Finalize}). Short and eager
   * sends complete at their sender alone, so such a program used to finish in silence, while a rendezvous send left
   * unreceived was reported as a deadlock in finalize: both are told alike now, by size neither.
   */
  private void refuseUnfinished() {
    List<String> left = new ArrayList<>();
    int ranksLeft = 0;
    for (Rank rank : ranks) {
      String l = rank.leftAtFinalize();
      if (l != null && ranksLeft++ < 4) {
        left.add(l);
      }
    }
    if (ranksLeft > 0) {
      throw new JobFailedException(this, UNFINISHED + String.join("; ", left)
          + (ranksLeft > left.size() ? "; and " + (ranksLeft - left.size()) + " more ranks" : ""));
    }
  }

  /** @return the job's ranks (not a copy: read only) */
  Rank[] ranks() {
    return ranks;
  }

  /** @return the ledger of the ranks' collective calls */
  CollectiveLedger ledger() {
    return ledger;
  }

  /** What the failed run said, first line (the job cannot run again), or null. */
  private String failedRun;
  /** Whether {@link #close} gave back what the job took (it cannot run again). */
  private boolean closed;

  /**
   * Where a call refused while this job runs comes from, for its message: one of its own ranks, the thread that runs
   * it (an event's handler), or another thread, named with the one that runs it. Every such call was said to come
   * "from one of its own ranks", an unrelated thread's too (stop 77's concurrency hunt). Only the refusal pays for it.
   */
  private String callerWhileRunning() {
    Thread me = Thread.currentThread();
    for (Rank r : ranks) {
      if (r.thread == me) {
        return "from its own rank " + r.worldRank;
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
   * Ends the job on its nodes, as a batch system ends one, so that later jobs can be built there with what it held:
   * each rank gives back its registrations, its internal buffers' and its user-buffer segments'
   * ({@code GNI_MemDeregister}), its two completion queues ({@code GNI_CqDestroy}) and its FMA descriptor ({@code
   * GNI_CdmDestroy}); with the collective engine, each node gives back its channel ({@code GNI_CeDestroy}). A node's
   * NIC has 4,096 memory handles, 2,048 queues, 127 descriptors and 4 engine channels [S5, S6e, S1 p.19], so without
   * this the jobs built one after another on a node run out of them: the fifth using the engine, or after about
   * 1,300 with one rank a node (a rank registers its buffers and its two rings, three handles, and more once it
   * sends by rendezvous). The job's counters and {@link #lastRunPs} stay readable; it cannot run again, and
   * closing it again does nothing.
   *
   * <p>The host memory those registrations and queues took goes back to each node's memory with them ({@link
   * io.github.ariesmodel.nic.Nic#deregisterAndFree}, as when a process exits), so jobs built one after another on a
   * node reuse it. A NIC keeps it reserved only if its IOMMU is translating for another job on the node at that moment
   * (docs/iommu.md, "Memory given back").
   *
   * <p>Refused, changing nothing, while a run of the job is under way, and while the NIC may still write into one of
   * its ranks' queues (one of its posts not complete, an event on its way) or a reduction is in progress on one of
   * its channels: what a run leaves in flight (the last credit returns after its ranks finalize, the messages of a
   * background job that was stopped) lands as the simulation runs on ({@link AriesSystem#runPending()}, or the next
   * run of another job). A job whose run failed with a collective-engine reduction that a rank never contributed to
   * (it never completes) closes once nothing is pending in the system ({@link AriesSystem#pendingEvents()} 0, after
   * {@link AriesSystem#runPending()}): its channels are abandoned ({@link
   * io.github.ariesmodel.nic.Nic#abandonCollectiveChannel}), as the driver frees them when the processes exit (until
   * stop 74 such a job could not be closed and kept its NIC resources). Not closable: a job whose registrations,
   * queues or descriptors were given back outside it through the NIC. Refused also from a thread
   * that does not own the system's clock (a rank of another job running on the system).
   *
   * @throws IllegalStateException naming the rank or node and what is still in flight, or the run under way
   */
  public void close() {
    if (closed) {
      return;
    }
    if (runner != null) {
      throw new IllegalStateException("this job cannot be closed while it runs (close was called "
          + callerWhileRunning() + "): close it after run returns");
    }
    // (a rank of another job, running on the system, would change this job's NICs from its group's thread)
    system.checkClockOwner("MpiJob.close");
    for (NodeEndpoint e : endpoints.values()) {
      List<Integer> lost = e.descriptorsLost();
      if (!lost.isEmpty()) {
        throw new IllegalStateException("this job cannot be closed: FMA descriptor" + (lost.size() == 1 ? " " : "s ")
            + lost + " of its ranks on node " + e.node().id() + " were detached outside the job"
            + " (Nic.detachFmaDescriptor); nothing was given back");
      }
    }
    for (Rank r : ranks) {
      String lost = r.resourcesLost();
      if (lost != null) {
        throw new IllegalStateException("this job cannot be closed: rank " + r.worldRank + " on node " + r.node.id()
            + ": " + lost + "; nothing was given back");
      }
    }
    // A failed run may leave a reduction on the collective engine that a rank never contributed to: it can never
    // complete. Once nothing is pending in the system (nothing of the job in flight), its channels are abandoned, as
    // the driver frees them when the processes exit, so that the job closes (until stop 74 it kept its NIC resources).
    if (failedRun != null && system.pendingEvents() == 0) {
      for (Rank r : ranks) {
        if (r.collectiveEngineChannel() >= 0
            && r.node.nic().collectiveReductionInProgress(r.collectiveEngineChannel())) {
          r.node.nic().abandonCollectiveChannel(r.collectiveEngineChannel());
          r.collectiveEngineChannelAbandoned();
        }
      }
    }
    for (Rank r : ranks) {
      if (r.nicWritesPending()) {
        throw new IllegalStateException("this job cannot be closed yet: rank " + r.worldRank + " on node "
            + r.node.id() + " has a post not complete or an event on its way into its completion queues (what a"
            + " run leaves in flight lands as the simulation runs on: AriesSystem.runPending()); nothing was given"
            + " back");
      }
      if (r.collectiveEngineChannel() >= 0
          && r.node.nic().collectiveReductionInProgress(r.collectiveEngineChannel())) {
        throw new IllegalStateException("this job cannot be closed yet: node " + r.node.id() + " has a"
            + " collective-engine reduction in progress on its channel " + r.collectiveEngineChannel() + " (run the"
            + " simulation on until it completes: AriesSystem.runPending()" + (failedRun != null ? "; the job's run"
            + " failed, so a rank may never contribute: once nothing is pending, close abandons the reduction" : "")
            + "); nothing was given back");
      }
    }
    for (Rank r : ranks) {
      r.close();
      if (r.collectiveEngineChannel() >= 0) {
        r.node.nic().destroyCollectiveChannel(r.collectiveEngineChannel());
      }
    }
    endpoints.values().forEach(NodeEndpoint::detachDescriptors);
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
   * @return whether the last run stopped this job before its program returned (a background job the foreground
   *     outlived, {@link #together()}), rather than the job ending by itself
   */
  public boolean lastRunStopped() {
    return lastRunStopped;
  }

  /**
   * @return simulated time from the start of the last run that completed until its last rank's program returned,
   *     picoseconds (0 before any; a run that failed leaves the figure of the run before it)
   */
  public long lastRunPs() {
    return lastRunEndPs - lastRunStartPs;
  }

  // The counters below are kept by each rank (ranks of different groups run on different threads at once) and
  // summed here, between runs.

  /**
   * Point-to-point messages delivered by a protocol, over all runs (collectives' messages included).
   *
   * @param p the protocol
   * @return the count
   */
  public long messages(Protocol p) {
    checkArgument(p != null, "protocol must not be null");
    long s = 0;
    for (Rank r : ranks) {
      s += r.messagesByProtocol[p.ordinal()];
    }
    return s;
  }

  /** @return point-to-point messages delivered, over all runs */
  public long messages() {
    long s = 0;
    for (Rank r : ranks) {
      for (long m : r.messagesByProtocol) {
        s += m;
      }
    }
    return s;
  }

  /** @return payload bytes of the messages sent to other ranks, over all runs */
  public long bytesSent() {
    long s = 0;
    for (Rank r : ranks) {
      s += r.bytesSent;
    }
    return s;
  }

  /**
   * Payload bytes of the messages sent to other ranks whose data had reached the receiving rank, over all runs: a
   * short message's when the receiver takes it from its mailbox, an eager or rendezvous one's when its GET has landed,
   * an on-node one's when it is copied out of the sender's memory (or stored with its header). Where {@link
   * #bytesSent} counts a send as it is posted, this counts what has moved: a run stopped while messages were in flight
   * (a background job stopped where the others ended) has sent more than it delivered. It counts no simulated time.
   *
   * @return the bytes
   */
  public long bytesDelivered() {
    long s = 0;
    for (Rank r : ranks) {
      s += r.bytesDelivered;
    }
    return s;
  }

  /** @return messages that arrived before a matching receive was posted, over all runs */
  public long unexpectedMessages() {
    long s = 0;
    for (Rank r : ranks) {
      s += r.unexpectedMessages;
    }
    return s;
  }

  /**
   * Synchronous sends that went by a buffered protocol (short, eager, on one node, to self) and whose match the
   * receiver acknowledged, over all runs: MPICH's eager-sync acknowledgements (a synchronous rendezvous or
   * single-copy message needs none and is not counted).
   *
   * @return the count
   */
  public long synchronousAcknowledgements() {
    long s = 0;
    for (Rank r : ranks) {
      s += r.syncAcks;
    }
    return s;
  }

  // -------------------------------------------------------------------------------------------- for the ranks

  /** @return 0 to size - 1: the world communicator's members, one array that every rank's world communicator reads */
  int[] worldRanks() {
    return worldRanks;
  }

  Rank rank(int world) {
    return ranks[world];
  }

  int nodeOfRank(int world) {
    return rankNodes[world];
  }

  /**
   * A communicator's layout over nodes ({@link NodeLayout#of}), made once for all its members: the members of a
   * communicator share its context and first member (the colors of one split share a context, never a member).
   *
   * @return the layout, or null when every member is on a node of its own
   */
  NodeLayout nodeLayout(Communicator c) {
    return nodeLayouts.computeIfAbsent(new LayoutKey(c.context(), c.worldRank(0), c.size()),
        k -> Optional.ofNullable(NodeLayout.of(c.worldRanks(), this::nodeOfRank))).orElse(null);
  }

  private record LayoutKey(long context, int firstWorldRank, int size) {}

  NodeEndpoint endpoint(int node) {
    return endpoints.get(node);
  }

  /**
   * Wakes a rank's process. Called only for a rank of the caller's node (its NIC's completion listener, or an on-node
   * peer's process), so on a partitioned engine always from the rank's own group, as the runner requires.
   */
  void wake(Rank r) {
    if (runner != null && r.process != null) {
      runner.wake(r.process);
    }
  }

  /** Settings of a job. */
  public static final class Builder {
    private final AriesSystem system;
    private int[] nodes = {0, 1};
    private int ranksPerNode = 1;
    private MpiConfig config = MpiConfig.defaults();
    private int[] placement;

    private Builder(AriesSystem system) {
      this.system = system;
    }

    /** @param n the nodes, distinct, within the system @return this builder */
    public Builder nodes(int... n) {
      checkArgument(n != null && n.length >= 1, "nodes must name at least one node");
      Set<Integer> seen = new HashSet<>();
      for (int x : n) {
        checkArgument(x >= 0 && x < system.nodeCount(), "node must be in [0, %s] but was %s",
            system.nodeCount() - 1, x);
        checkArgument(seen.add(x), "nodes must be distinct but %s appears twice", x);
      }
      this.nodes = n.clone();
      return this;
    }

    /**
     * @param k ranks on each node, 1 to 272 (a KNL node of an XC40 has 68 cores of 4 hardware threads; Haswell
     *     and Broadwell nodes have 32 to 44 cores)
     * @return this builder
     */
    public Builder ranksPerNode(int k) {
      checkArgument(k >= 1 && k <= 272, "ranksPerNode must be in [1, 272] but was %s", k);
      this.ranksPerNode = k;
      return this;
    }

    /**
     * Places each rank on a node of its own choosing, replacing {@link #nodes} and {@link #ranksPerNode} (which are
     * block placement): rank i runs on {@code nodeOfRank[i]}.
     *
     * @param nodeOfRank the node of each rank, within the system; at most 272 ranks on a node (see
     *     {@link #ranksPerNode})
     * @return this builder
     */
    public Builder placement(int... nodeOfRank) {
      checkArgument(nodeOfRank != null && nodeOfRank.length >= 1, "placement must name at least one rank's node");
      Map<Integer, Integer> perNode = new HashMap<>();
      for (int i = 0; i < nodeOfRank.length; i++) {
        int x = nodeOfRank[i];
        checkArgument(x >= 0 && x < system.nodeCount(), "placement[%s] must be a node in [0, %s] but was %s", i,
            system.nodeCount() - 1, x);
        int k = perNode.merge(x, 1, Integer::sum);
        checkArgument(k <= 272, "placement puts more than 272 ranks on node %s", x);
      }
      this.placement = nodeOfRank.clone();
      return this;
    }

    /** @param c protocol settings @return this builder */
    public Builder config(MpiConfig c) {
      checkArgument(c != null, "config must not be null");
      this.config = c;
      return this;
    }

    /**
     * @return the job (registers every rank's memory)
     * @throws IllegalArgumentException before anything is made, when the ranks of a node need more than its free
     *     memory (their registrations and completion queues, page tables aside), naming the node, its ranks, and
     *     {@link MpiConfig#heapBytes()}'s bound there or, when even the least heap does not fit, the other settings
     * @throws IllegalStateException when a rank's node refuses its completion queue or registration (page tables,
     *     MDHs, the Java heap), naming the rank, its node and the settings; the ranks before it are deregistered
     */
    public MpiJob build() {
      // first: building takes completion queues, registrations and descriptors on the nodes' NICs, which a thread
      // other than the clock's would change under a run of another job
      system.checkClockOwner("MpiJob.Builder.build");
      checkArgument(placement != null || nodes.length * (long) ranksPerNode <= (1 << 20),
          "nodes x ranksPerNode must be at most 2^20 but was %s", nodes.length * (long) ranksPerNode);
      return new MpiJob(this);
    }
  }
}
