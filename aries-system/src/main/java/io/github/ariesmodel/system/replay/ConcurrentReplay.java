package io.github.ariesmodel.system.replay;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import com.google.common.primitives.ImmutableIntArray;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.mpi.MpiJob;
import io.github.ariesmodel.system.mpi.MpiProgram;
import io.github.ariesmodel.system.mpi.SyntheticTraffic;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Several traces replayed at the same time on one system, each as its own job on nodes of its own, with synthetic
 * background load beside them if asked: a job interference study. Each trace's job is placed in turn by its own
 * replay's placement on the nodes the jobs before it left; the background job last, on the nodes left. The jobs run
 * together ({@link MpiJob#together()}): the run ends where the last trace's job ends and the background is stopped
 * there. The background is synthetic load ({@link Builder#background}) or a trace repeated ({@link
 * Builder#backgroundTrace}). A trace may arrive later than the run's start ({@link Builder#trace(TraceReplay,
 * long)}), and so may the background ({@link Builder#backgroundStartPs}); a trace started after the background meets a
 * network its load has already filled.
 *
 * <pre>{@code
 * AriesSystem system = AriesSystem.builder().system("two-groups").seed(1).build();
 * ConcurrentReplay.Result r = ConcurrentReplay.builder(system)
 *     .trace(TraceReplay.builder(system, amg).build())
 *     .background(SyntheticTraffic.uniform(65536, 0, 0, 1), 256, 1, Placement.RANDOM)
 *     .build().run();
 * double took = r.replays().get(0).simulatedPs();
 * }</pre>
 *
 * <p>What each trace's replay measures is what {@link TraceReplay#run} measures, with the others running; run each
 * alone on a fresh system of the same settings for the time it takes without them (the command line's {@code replay
 * --with}/{@code --background} does, and reports the slowdown).
 */
public final class ConcurrentReplay {

  private final AriesSystem system;
  private final List<TraceReplay> replays;
  private final List<Long> starts;
  private final SyntheticTraffic background;
  private final TraceReplay backgroundTrace;
  private final long backgroundPasses;
  private final long backgroundStartPs;
  private final int backgroundNodes;
  private final int backgroundRanksPerNode;
  private final Placement backgroundPlacement;
  private final long limitPs;
  private final LinkTally links;

  private ConcurrentReplay(Builder b) {
    this.system = b.system;
    this.replays = List.copyOf(b.replays);
    this.starts = List.copyOf(b.starts);
    this.background = b.background;
    this.backgroundTrace = b.backgroundTrace;
    this.backgroundPasses = b.backgroundPasses;
    this.backgroundStartPs = b.backgroundStartPs;
    this.backgroundNodes = b.backgroundNodes;
    this.backgroundRanksPerNode = b.backgroundRanksPerNode;
    this.backgroundPlacement = b.backgroundPlacement;
    this.limitPs = b.limitPs;
    this.links = b.links;
  }

  /**
   * @param system the system every replay of the set was built on
   * @return a builder with no trace yet
   */
  public static Builder builder(AriesSystem system) {
    checkArgument(system != null, "system must not be null");
    return new Builder(system);
  }

  /**
   * What the background job did until the run ended.
   *
   * @param program what it ran (for a trace: its file, and the passes its ranks made)
   * @param nodes each rank's node
   * @param ranks its ranks
   * @param startPs when it started, picoseconds after the run's start
   * @param ranPs how long it ran, from its start (0 when the traces had ended before it was due)
   * @param finished whether it ended by itself (a program of so many steps) rather than being stopped where the
   *     traces ended
   * @param messages messages of its ranks that reached the receiving rank ({@link MpiJob#messages()})
   * @param bytesSent payload bytes of the sends its ranks posted ({@link MpiJob#bytesSent})
   * @param bytesDelivered payload bytes whose data had reached the receiving rank ({@link MpiJob#bytesDelivered}):
   *     at most {@code bytesSent}, less by what was still in flight where it was stopped
   */
  public record Background(String program, ImmutableIntArray nodes, int ranks, long startPs, long ranPs,
      boolean finished, long messages, long bytesSent, long bytesDelivered) {
    /**
     * @return payload bytes a second each node of the background delivered, on average over its run: the bytes whose
     *     data had reached the receiving rank ({@link #bytesDelivered}), so a background stopped microseconds into
     *     its run counts only what had moved, never more than its nodes' links carry (until stop 78 it counted sends
     *     as they were posted, {@link #bytesSent}: 19.7 GB/s a node for a background stopped 3.3 µs in, above the
     *     NIC's 10.2 GB/s); NaN when it ran no
     *     time (due after the traces had ended, it never ran), which has no average (it was 0, the rate of a background
     *     that ran and sent nothing; until stop 77)
     */
    public double bytesPerSecondPerNode() {
      int distinct = (int) nodes.stream().distinct().count();
      return ranPs == 0 ? Double.NaN : bytesDelivered / (ranPs / 1e12) / distinct;
    }

    /** @return whether it never ran: it was due after the traces had ended, and stopped before its start */
    public boolean neverRan() {
      return ranPs == 0 && !finished;
    }
  }

  /**
   * What a run measured.
   *
   * @param replays each trace's result, in the order the traces were added
   * @param background the background job's work, or null without one
   */
  public record Result(ImmutableList<ReplayResult> replays, Background background) {}

  /**
   * Replays the traces together once.
   *
   * @return each trace's result, and the background's
   * @throws TraceReplayException when a trace cannot be replayed (naming its file, rank and call)
   * @throws IllegalArgumentException when the jobs do not fit the system's nodes; when a start or the limit would pass
   *     the clock's end from now (the system ran on since they were given), before any job is built
   * @throws IllegalStateException when the traces had not all ended {@link Builder#foregroundLimitPs} after the start
   */
  public Result run() {
    // What the set refuses at its start, refused here before the jobs are built (each registers its ranks' memory)
    long now = system.now();
    for (int j = 0; j < starts.size(); j++) {
      checkArgument(starts.get(j) <= Long.MAX_VALUE - now, "trace %s's startPs must be at most %s (the clock's end"
          + " from now, %s ps) but was %s", j, Long.MAX_VALUE - now, now, starts.get(j));
    }
    checkArgument(background == null && backgroundTrace == null || backgroundStartPs <= Long.MAX_VALUE - now,
        "backgroundStartPs must be at most %s (the clock's end from now, %s ps) but was %s", Long.MAX_VALUE - now, now,
        backgroundStartPs);
    checkLimit(limitPs, now);
    BitSet taken = new BitSet();
    List<TraceReplay.Prepared> prepared = new ArrayList<>();
    for (TraceReplay r : replays) {
      prepared.add(r.prepare(taken));
    }
    if (links != null) {
      for (TraceReplay.Prepared p : prepared) {
        p.noteTally(links); // (its result's link figures are the run's own, not the nodes' earlier jobs')
      }
    }
    MpiJob.Together set = MpiJob.together();
    for (int j = 0; j < prepared.size(); j++) {
      set.job(prepared.get(j).job, prepared.get(j).program(), starts.get(j));
    }
    MpiJob noise = null;
    int[] noiseNodes = null;
    MpiProgram noiseProgram = null;
    TraceReplay.Prepared noiseTrace = null;
    if (backgroundTrace != null) {
      noiseTrace = backgroundTrace.prepare(taken);
      noise = noiseTrace.job;
      noiseNodes = noiseTrace.nodes;
      noiseProgram = noiseTrace.repeatingProgram(backgroundPasses);
    } else if (background != null) {
      int free = system.nodeCount() - taken.cardinality();
      int nodes = backgroundNodes == 0 ? free : backgroundNodes;
      checkArgument(nodes >= 1 && nodes <= free, "the background needs %s nodes but the system has %s free of its %s"
          + " (the traces' jobs hold the rest)", nodes, free, system.nodeCount());
      noiseNodes = backgroundPlacement.nodes(system.topology(), nodes * backgroundRanksPerNode,
          backgroundRanksPerNode, system.seed() + 1, taken);
      checkArgument(noiseNodes.length >= 2, "the background needs at least 2 ranks but has %s", noiseNodes.length);
      noise = MpiJob.builder(system).placement(noiseNodes).build();
      noiseProgram = background;
    }
    if (noise != null) {
      set.background(noise, noiseProgram, backgroundStartPs);
    }
    if (limitPs != Long.MAX_VALUE) {
      set.foregroundLimitPs(limitPs); // (it bounds only a run with a background, which might not end)
    }
    // (without a limit, the set itself finds the traces' deadlock beside a background that does not end)
    try {
      set.run();
    } catch (MpiJob.JobFailedException e) {
      if (noiseTrace != null && e.job() == noise) {
        // the background trace's deadlock, disagreement or unfinished communication, named with its file (in the MPI
        // layer's words: which pass's trace call a rank was in is not kept)
        throw new TraceReplayException(noiseTrace.file(), TraceReplayException.NO_RANK, 0, "the background trace,"
            + " repeated: " + e.getMessage(), e);
      }
      for (TraceReplay.Prepared p : prepared) {
        if (p.job == e.job()) {
          p.failed(e);
          p.finish(); // sends no receive matched: named with their calls
        }
      }
      throw e;
    } catch (RuntimeException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof TraceReplayException x) {
          throw x;
        }
      }
      throw e;
    }
    ImmutableList.Builder<ReplayResult> out = ImmutableList.builder();
    for (TraceReplay.Prepared p : prepared) {
      out.add(p.finish(links));
    }
    String what = noiseTrace == null ? String.valueOf(background) : "trace " + noiseTrace.file() + ", "
        + (backgroundPasses == 0 ? "repeated" : backgroundPasses + (backgroundPasses == 1 ? " pass" : " passes"))
        + " (" + noiseTrace.passes() + ")";
    Background bg = noise == null ? null : new Background(what, ImmutableIntArray.copyOf(noiseNodes),
        noise.size(), backgroundStartPs, noise.lastRunPs(), !noise.lastRunStopped(), noise.messages(),
        noise.bytesSent(), noise.bytesDelivered());
    return new Result(out.build(), bg);
  }

  /** Refuses a limit that would pass the clock's end from now, as {@link MpiJob.Together#run} does. */
  private static void checkLimit(long limitPs, long now) {
    checkArgument(limitPs == Long.MAX_VALUE || limitPs <= Long.MAX_VALUE - now, "foregroundLimitPs must be at most %s"
        + " (the clock's end from now, %s ps) or Long.MAX_VALUE (no limit) but was %s", Long.MAX_VALUE - now, now,
        limitPs);
  }

  /** Settings of a concurrent replay. */
  public static final class Builder {
    private final AriesSystem system;
    private final List<TraceReplay> replays = new ArrayList<>();
    private final List<Long> starts = new ArrayList<>();
    private SyntheticTraffic background;
    private TraceReplay backgroundTrace;
    private long backgroundPasses;
    private long backgroundStartPs;
    private int backgroundNodes;
    private int backgroundRanksPerNode = 1;
    private Placement backgroundPlacement = Placement.LINEAR;
    private long limitPs = Long.MAX_VALUE;
    private LinkTally links;

    private Builder(AriesSystem system) {
      this.system = system;
    }

    /**
     * Adds a trace's replay: its placement, ranks a node, compute mode and MPI settings are its own.
     *
     * @param replay a replay built on this set's system
     * @return this builder
     */
    public Builder trace(TraceReplay replay) {
      return trace(replay, 0);
    }

    /**
     * Adds a trace's replay that starts later: its ranks begin {@code startPs} after the run's start (a job that
     * arrives while the others run, or after the background has loaded the network). Its result's time counts from
     * its own start.
     *
     * @param replay a replay built on this set's system
     * @param startPs picoseconds after the run's start, 0 to {@link MpiJob#MAX_START_PS}
     * @return this builder
     */
    public Builder trace(TraceReplay replay, long startPs) {
      checkArgument(replay != null, "replay must not be null");
      checkArgument(replay.system() == system, "replay %s was built on another system", replays.size());
      // (here, not only by the set when the run starts, by which time every job has been built)
      checkArgument(startPs >= 0 && startPs <= MpiJob.MAX_START_PS, "trace %s's startPs must be in [0, %s]"
          + " (picoseconds after the set's start) but was %s", replays.size(), MpiJob.MAX_START_PS, startPs);
      replays.add(replay);
      starts.add(startPs);
      return this;
    }

    /**
     * Runs synthetic load beside the traces, on nodes they leave.
     *
     * @param program the load; one without end ({@code steps} 0) is stopped where the last trace ends
     * @param nodes nodes it takes, ≥ 1; 0 for every node the traces leave
     * @param ranksPerNode its ranks on each node, 1 to {@link TraceReplay#MAX_RANKS_PER_NODE}
     * @param placement how its nodes are chosen among the free ones (not a file)
     * @return this builder
     */
    public Builder background(SyntheticTraffic program, int nodes, int ranksPerNode, Placement placement) {
      checkArgument(program != null, "program must not be null");
      checkArgument(backgroundTrace == null, "a concurrent replay has one background: this one has a trace already");
      checkArgument(nodes >= 0 && nodes <= system.nodeCount(), "backgroundNodes must be in [0, %s] (0: every node"
          + " the traces leave) but was %s", system.nodeCount(), nodes);
      checkArgument(ranksPerNode >= 1 && ranksPerNode <= TraceReplay.MAX_RANKS_PER_NODE, "backgroundRanksPerNode"
          + " must be in [1, %s] but was %s", TraceReplay.MAX_RANKS_PER_NODE, ranksPerNode);
      checkArgument(placement != null && placement.kind() != Placement.Kind.EXPLICIT, "background placement must be"
          + " linear, random or round-robin-groups but was %s", placement);
      this.background = program;
      this.backgroundNodes = nodes;
      this.backgroundRanksPerNode = ranksPerNode;
      this.backgroundPlacement = placement;
      return this;
    }

    /**
     * Runs a trace beside the traces as the background, again and again (an application that repeats its run): the
     * neighbour of an interference study made of a real application rather than synthetic load. It is placed by its
     * replay's own placement and ranks a node on the nodes the traces leave, and stopped where they end (or ends after
     * its passes). Each pass has state of its own; its results are not kept, only what its job sent and how many
     * passes its ranks made ({@link Background#program()}).
     *
     * @param replay a replay built on this set's system
     * @param passes passes each rank makes, ≥ 0; 0 for no end
     * @return this builder
     */
    public Builder backgroundTrace(TraceReplay replay, long passes) {
      checkArgument(replay != null, "replay must not be null");
      checkArgument(replay.system() == system, "the background trace's replay was built on another system");
      checkArgument(passes >= 0, "passes must be >= 0 (0: for ever) but was %s", passes);
      checkArgument(background == null, "a concurrent replay has one background: this one has synthetic load"
          + " already");
      this.backgroundTrace = replay;
      this.backgroundPasses = passes;
      return this;
    }

    /**
     * Starts the background later than the run (by default it starts with it, at 0).
     *
     * @param ps picoseconds after the run's start, 0 to {@link MpiJob#MAX_START_PS}
     * @return this builder
     */
    public Builder backgroundStartPs(long ps) {
      checkArgument(ps >= 0 && ps <= MpiJob.MAX_START_PS, "backgroundStartPs must be in [0, %s] (picoseconds after the"
          + " set's start) but was %s", MpiJob.MAX_START_PS, ps);
      this.backgroundStartPs = ps;
      return this;
    }

    /**
     * Gives up (an {@link IllegalStateException}) if the traces have not all ended this long after the start while
     * the background runs, deadlocked or only slow. Without a limit a trace that deadlocks beside a background
     * without end is found all the same and reported as a deadlock ({@link MpiJob.Together}).
     *
     * @param ps ≥ 1 and at most the clock's end from the system's current time (checked again by
     *     {@link ConcurrentReplay#run}), or {@link Long#MAX_VALUE} for no limit (the default)
     * @return this builder
     */
    public Builder foregroundLimitPs(long ps) {
      checkArgument(ps >= 1, "foregroundLimitPs must be at least 1 but was %s", ps);
      checkLimit(ps, system.now());
      this.limitPs = ps;
      return this;
    }

    /**
     * Gives each trace's result link figures of its own packets ({@link ReplayResult#linkBytes}, {@link
     * ReplayResult#linkUtilization}): the tally must be a hop listener of this system's router fabric, given when the
     * system was built ({@code AriesSystem.Builder.routerSettings(fb -> fb.addHopListener(tally))}); it is bound to the
     * system's topology here. Without one, each result's link figures are the whole fabric's: every job's and the
     * background's packets.
     *
     * @param tally the fabric's hop listener
     * @return this builder
     * @throws IllegalArgumentException when the system has no router fabric, or the tally is bound to another system
     */
    public Builder linkTally(LinkTally tally) {
      checkArgument(tally != null, "tally must not be null");
      checkArgument(system.routerFabric().isPresent(), "a link tally needs the system's router fabric, which this"
          + " system does not have");
      tally.bind(system.topology());
      this.links = tally;
      return this;
    }

    /** @return the replay set */
    public ConcurrentReplay build() {
      checkArgument(!replays.isEmpty(), "a concurrent replay needs at least one trace");
      return new ConcurrentReplay(this);
    }
  }
}
