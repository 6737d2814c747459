package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.cli.report.PlotSpec;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.core.Texts;
import io.github.ariesmodel.core.cache.HostCacheConfig;
import io.github.ariesmodel.network.LinkLoad;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.FabricKind;
import io.github.ariesmodel.system.mpi.MpiConfig;
import io.github.ariesmodel.system.process.OsNoise;
import io.github.ariesmodel.system.mpi.SyntheticTraffic;
import io.github.ariesmodel.system.replay.ConcurrentReplay;
import io.github.ariesmodel.system.replay.ComputeMode;
import io.github.ariesmodel.system.replay.LinkTally;
import io.github.ariesmodel.system.replay.Placement;
import io.github.ariesmodel.system.replay.ReplayProgress;
import io.github.ariesmodel.system.replay.ReplayResult;
import io.github.ariesmodel.system.replay.TraceReplay;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.RankTrace;
import io.github.ariesmodel.traces.Trace;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceCoverage;
import io.github.ariesmodel.traces.TraceFormat;
import io.github.ariesmodel.traces.TraceFormatException;
import io.github.ariesmodel.traces.dumpi.DumpiTrace;
import io.github.ariesmodel.traces.simgrid.SimGridTrace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.ToLongFunction;

/**
 * Replays a recorded MPI run (DUMPI or SimGrid time-independent trace) through the MPI layer
 * ({@link TraceReplay}) and reports the simulated run time, each rank's communication time, message latency
 * percentiles, bytes by link rank, the calls replayed and what the trace leaves out. Run by {@code ./aries replay
 * TRACE} or {@code ./aries run replay -p trace=TRACE}. The system is the spec's: on the partitioned engine when the
 * spec has threads ({@code --threads N}), whose results are the same for every N.
 */
final class ReplayWorkload implements Workload {

  /** The workload's name. */
  public static final String NAME = "replay";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "replay an MPI trace (DUMPI .meta or directory, SimGrid trace or index file) through the MPI layer";
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("trace", "(required): the trace: a DUMPI .meta file or its directory, or a SimGrid trace or index file");
    m.put("mapping", "linear: linear, random, round-robin-groups, or a file of node ids (one a line, by rank)");
    m.put("compute", "skip: skip, as-traced or scale:F (time between calls)");
    m.put("ranksPerNode", "1: ranks on each node, 1 to " + TraceReplay.MAX_RANKS_PER_NODE);
    m.put("collectiveEngine", "off: on or off: the world communicator's barrier and one- or two-element allreduces"
        + " on the NICs' collective engine (docs/mpi.md)");
    m.put("smpCollectives", "on: on or off: MPICH's SMP-aware barrier, bcast, reduce and allreduce where a node has"
        + " two or more ranks (docs/mpi.md)");
    m.put(NoiseParam.NAME, "none: the nodes' operating-system noise (the traces' and the background's), none or period=P,detour=D[,phase=aligned|random]"
        + " (durations with ps, ns, us or ms; OsNoise, docs/mpi.md)");
    m.put("hostCache", "(the system's): the nodes' host cache, key=value pairs over the XC40 defaults"
        + " (HostCacheConfig.parse: capacity, line, ways, hitPs, memoryPs, policy=update|invalidate|bypass|allocate;"
        + " docs/memory-hierarchy.md)");
    m.put("with", "(none): more traces replayed at the same time, each as a job on nodes of its own, paths separated by"
        + " '" + java.io.File.pathSeparator + "' (placed in turn by the mapping; linear after a mapping file)");
    m.put("background", "none: none, uniform or alltoall: synthetic load beside the traces, stopped where they end"
        + " (SyntheticTraffic)");
    m.put("backgroundTrace", "(none): a trace replayed again and again beside the traces as the background, instead"
        + " of synthetic load (its nodes from its ranks, backgroundRanksPerNode and backgroundMapping; backgroundSteps"
        + " its passes)");
    m.put("backgroundBytes", "65536: the background's message size (to each rank, for alltoall), 1 to "
        + SyntheticTraffic.MAX_BYTES);
    m.put("backgroundGapUs", "0: the background's pause after each step, microseconds");
    m.put("backgroundSteps", "0: the background's steps, after which it finalizes and leaves (0: no end, stopped where"
        + " the traces end)");
    m.put("backgroundNodes", "0: the background's nodes (0: every node the traces leave)");
    m.put("backgroundMapping", "linear: linear, random or round-robin-groups among the nodes the traces leave");
    m.put("backgroundRanksPerNode", "1: the background's ranks on each of its nodes, 1 to "
        + TraceReplay.MAX_RANKS_PER_NODE);
    m.put("startUs", "0: with more than one job, when the trace starts, microseconds after the run's start (after"
        + " the background's, say, so that it meets a loaded network)");
    m.put("withStartUs", "0: when the with traces start, microseconds after the run's start: one value for all, or"
        + " one a trace separated by ':'");
    m.put("backgroundStartUs", "0: when the background starts, microseconds after the run's start");
    m.put("baseline", "on: on or off: with more than one job, also replay each trace alone on a system of the same"
        + " settings and on the same nodes, for its slowdown (and a limit of 10 times its time alone)");
    m.put("allowLong", "off: on or off: run even when the estimated work (the packets the traces' records send) exceeds "
        + MAX_PACKETS + " (docs/replay.md)");
    return m;
  }

  /**
   * Opens a trace in either format.
   *
   * @param path a DUMPI .meta file or directory, or a SimGrid trace or index file
   * @return the trace
   * @throws IOException when it cannot be read
   */
  static Trace open(Path path) throws IOException {
    return TraceFormat.detect(path) == TraceFormat.DUMPI ? DumpiTrace.open(path) : SimGridTrace.open(path);
  }

  /**
   * The parameters as {@link #run} uses them, read and checked in this one place, which {@link #check} shares.
   *
   * @param tracePath the trace, which exists
   * @param placement the mapping of ranks to nodes
   * @param compute what to do with the time between calls
   * @param ranksPerNode ranks on each node
   * @param collectiveEngine whether world barriers and small allreduces run on the collective engine
   * @param smpCollectives whether MPICH's SMP-aware collectives are used
   * @param osNoise the nodes' operating-system noise (the traces' and the background's)
   * @param hostCache the nodes' host cache, or null for the system's
   * @param with more traces replayed at the same time
   * @param backgroundKind none, uniform or alltoall
   * @param backgroundTrace a trace repeated as the background, or null
   * @param backgroundBytes the background's message size
   * @param backgroundGapPs the background's pause after each step
   * @param backgroundSteps the background's steps, 0 for no end
   * @param backgroundNodes the background's nodes, 0 for every node left
   * @param backgroundMapping how the background's nodes are chosen
   * @param backgroundRanksPerNode the background's ranks on each of its nodes
   * @param baseline whether each trace is also replayed alone
   * @param startsPs when each trace starts (the first, then the with traces), picoseconds after the run's start
   * @param backgroundStartPs when the background starts
   * @param allowLong whether work estimated beyond {@link #MAX_PACKETS} runs
   */
  private record Settings(Path tracePath, Placement placement, ComputeMode compute, int ranksPerNode,
      boolean collectiveEngine, boolean smpCollectives, OsNoise osNoise, HostCacheConfig hostCache, List<Path> with,
      String backgroundKind, Path backgroundTrace, int backgroundBytes, long backgroundGapPs, long backgroundSteps,
      int backgroundNodes, Placement backgroundMapping, int backgroundRanksPerNode, boolean baseline, List<Long> startsPs,
      long backgroundStartPs, boolean allowLong) {

    /** @return whether more than one job runs */
    boolean together() {
      return !with.isEmpty() || !backgroundKind.equals("none") || backgroundTrace != null;
    }

    /** @return the background's program (its cycles drawn from the system's seed), or null for none */
    SyntheticTraffic background(long seed) {
      return switch (backgroundKind) {
        case "uniform" -> SyntheticTraffic.uniform(backgroundBytes, backgroundGapPs, backgroundSteps, seed);
        case "alltoall" -> SyntheticTraffic.alltoall(backgroundBytes, backgroundGapPs, backgroundSteps);
        default -> null;
      };
    }

    static Settings read(Params params) {
      Path tracePath = ReplayWorkload.tracePath(params);
      Placement placement = Placement.parse(params.string("mapping", "linear"));
      ComputeMode compute = ComputeMode.parse(params.string("compute", "skip"));
      int rpn = params.integer("ranksPerNode", 1, 1, TraceReplay.MAX_RANKS_PER_NODE);
      if (placement.kind() == Placement.Kind.EXPLICIT && rpn != 1) {
        // a mapping file names each rank's node: the setting was ignored, and recorded as if it held
        throw new IllegalArgumentException("ranksPerNode must be left out (1) with a mapping file, which names each"
            + " rank's node, but was " + rpn);
      }
      boolean engine = params.choice("collectiveEngine", "off", List.of("on", "off")).equals("on");
      boolean smp = params.choice("smpCollectives", "on", List.of("on", "off")).equals("on");
      OsNoise osNoise = NoiseParam.read(params);
      String cache = params.string("hostCache", "");
      HostCacheConfig hostCache = cache.isEmpty() ? null : HostCacheConfig.parse(cache);
      List<Path> with = new ArrayList<>();
      String withText = params.string("with", "");
      for (String t : withText.isEmpty() ? new String[0] : withText.split(java.util.regex.Pattern.quote(
          java.io.File.pathSeparator))) {
        with.add(ReplayWorkload.tracePath("with", t));
      }
      // in any case, as the mappings' names are (UNIFORM was refused; until stop 78)
      String kind = params.choiceInAnyCase("background", "none", List.of("none", "uniform", "alltoall"));
      String bgTraceText = params.string("backgroundTrace", "");
      Path bgTrace = bgTraceText.isEmpty() ? null : ReplayWorkload.tracePath("backgroundTrace", bgTraceText);
      if (bgTrace != null && !kind.equals("none")) {
        throw new IllegalArgumentException("backgroundTrace and background are two backgrounds, and a run has one, but"
            + " background was " + kind);
      }
      int bytes = params.integer("backgroundBytes", 65536, 1, SyntheticTraffic.MAX_BYTES);
      double gapUs = params.number("backgroundGapUs", 0, 0, MAX_GAP_US);
      int nodes = params.integer("backgroundNodes", 0, 0, Integer.MAX_VALUE);
      // in any case, as mapping's names are (RANDOM was refused here and taken there; until stop 78)
      String bgMappingText = params.string("backgroundMapping", "linear");
      Placement bgMapping = Placement.named(bgMappingText);
      if (bgMapping == null) {
        throw new IllegalArgumentException("backgroundMapping must be one of linear, random, round-robin-groups but"
            + " was \"" + Texts.abbreviate(bgMappingText) + "\"");
      }
      long gapPs = Math.round(gapUs * 1e6);
      long steps = params.integer("backgroundSteps", 0, 0, Integer.MAX_VALUE);
      int bgRpn = params.integer("backgroundRanksPerNode", 1, 1, TraceReplay.MAX_RANKS_PER_NODE);
      boolean baseline = params.choice("baseline", "on", List.of("on", "off")).equals("on");
      boolean allowLong = params.choice("allowLong", "off", List.of("on", "off")).equals("on");
      List<Long> starts = new ArrayList<>();
      starts.add(Math.round(params.number("startUs", 0, 0, MAX_START_US) * 1e6));
      starts.addAll(withStarts(params.string("withStartUs", "0"), with.size()));
      long bgStart = Math.round(params.number("backgroundStartUs", 0, 0, MAX_START_US) * 1e6);
      // a start means something only beside another job: given alone it would be silently ignored
      if (starts.get(0) != 0 && with.isEmpty() && kind.equals("none") && bgTrace == null) {
        throw new IllegalArgumentException("startUs needs another job to start after (with or background) but was "
            + params.string("startUs", "0") + " with neither");
      }
      if (with.isEmpty() && !params.string("withStartUs", "0").equals("0")) {
        throw new IllegalArgumentException("withStartUs needs with traces but was " + Texts.abbreviate(
            params.string("withStartUs", "")) + " with none");
      }
      if (bgTrace != null && nodes != 0) {
        throw new IllegalArgumentException("backgroundNodes must be left out (0) with a background trace, whose ranks"
            + " and backgroundRanksPerNode give its nodes, but was " + nodes);
      }
      boolean anyBackground = bgTrace != null || !kind.equals("none");
      // the background's settings mean something only with a background (bytes and gap only with synthetic load):
      // given without one, they were silently ignored
      String none = bgTrace != null ? "a background trace, which sends its trace's messages in its trace's time"
          : "none";
      if (kind.equals("none") && bytes != 65536) {
        throw new IllegalArgumentException("backgroundBytes needs a synthetic background (background=uniform or"
            + " alltoall) but was " + bytes + " with " + none);
      }
      if (kind.equals("none") && gapPs != 0) {
        throw new IllegalArgumentException("backgroundGapUs needs a synthetic background (background=uniform or"
            + " alltoall) but was " + Texts.abbreviate(params.string("backgroundGapUs", "0")) + " with " + none);
      }
      if (!anyBackground && nodes != 0) {
        throw new IllegalArgumentException("backgroundNodes needs a background but was " + nodes + " with none");
      }
      if (!anyBackground && bgMapping.kind() != Placement.Kind.LINEAR) {
        throw new IllegalArgumentException("backgroundMapping needs a background but was "
            + params.string("backgroundMapping", "linear") + " with none");
      }
      if (!anyBackground && bgRpn != 1) {
        throw new IllegalArgumentException("backgroundRanksPerNode needs a background but was " + bgRpn
            + " with none");
      }
      if (steps != 0 && !anyBackground) {
        throw new IllegalArgumentException("backgroundSteps needs a background but was " + steps + " with none");
      }
      if (bgStart != 0 && !anyBackground) {
        throw new IllegalArgumentException("backgroundStartUs needs a background but was "
            + params.string("backgroundStartUs", "0") + " with none");
      }
      // the baseline is each trace replayed alone beside the run of several jobs: with one job there is none to skip
      if (!baseline && with.isEmpty() && !anyBackground) {
        throw new IllegalArgumentException("baseline=off needs more than one job (with traces or a background) but"
            + " the trace runs alone, with neither");
      }
      return new Settings(tracePath, placement, compute, rpn, engine, smp, osNoise, hostCache, List.copyOf(with), kind,
          bgTrace, bytes, gapPs, steps, nodes, bgMapping, bgRpn, baseline, List.copyOf(starts), bgStart,
          allowLong);
    }
  }

  /**
   * The latest start a job may be given, microseconds (a simulated second; assumed: a bound on typing slips, far past
   * any trace's start in the repository). {@code replay}'s start options name it in their range
   * ({@code ReplayCommand}; OptionRangeTest checks that the two agree).
   */
  static final double MAX_START_US = 1e6;

  /**
   * The longest pause a synthetic background may take after a step, microseconds (assumed: a bound on typing slips,
   * 1,000 simulated seconds a step). {@code replay --background-gap-us} names it in its range (OptionRangeTest checks
   * that the two agree).
   */
  static final double MAX_GAP_US = 1e9;

  /**
   * The with traces' starts: one value for every trace, or one a trace, separated by ':'.
   *
   * @param text the parameter's value
   * @param traces how many with traces there are
   * @return a start a trace, picoseconds
   */
  private static List<Long> withStarts(String text, int traces) {
    String[] parts = text.split(":", -1);
    if (parts.length != 1 && parts.length != traces) {
      throw new IllegalArgumentException("withStartUs must give one start for every with trace or one a trace ("
          + traces + ") but gave " + parts.length + ": " + Texts.abbreviate(text));
    }
    List<Long> out = new ArrayList<>();
    for (int j = 0; j < traces; j++) {
      // each value read and checked as a number parameter of that name is
      Params one = Params.of(Map.of("withStartUs", parts[parts.length == 1 ? 0 : j].trim()));
      out.add(Math.round(one.number("withStartUs", 0, 0, MAX_START_US) * 1e6));
    }
    return out;
  }

  /**
   * Checks, before any point of a sweep runs, the parameters (the trace exists, the mapping is one and a file's
   * node ids parse, the compute mode and the ranks per node), then opens the trace (its header: the ranks) and places
   * its ranks on the system as the replay will: a system too small, or a mapping file that does not fit the trace or
   * the system, is refused here rather than after the replay has read the whole trace. A trace that cannot be opened
   * fails as it would in the run. Last, unless {@code allowLong=on}, it reads the traces' records for the work's
   * estimate and refuses work beyond its bound ({@link #checkWork}); problems inside the ranks' streams are still
   * reported by the replay's own first pass, before it simulates.
   */
  @Override
  public void check(AriesSystem system, Params params) {
    Workload.super.check(system, params);
    Settings s = Settings.read(params);
    List<Trace> traces = traces(s, open(s));
    BitSet taken = new BitSet();
    for (int[] nodes : placements(system, s, traces)) {
      for (int n : nodes) {
        taken.set(n);
      }
    }
    checkBackgroundFits(system, s, taken);
    if (!s.allowLong()) {
      checkWork(s, traces);
    }
  }

  /**
   * The bound on the estimated work ({@link #work}) run without {@code allowLong=on}, in packets. Derived from a
   * measured rate and an assumed wait: one message of 4e8 bytes between two ranks (6,250,000 packets) took 38.4 s of
   * wall time against 2.1 s for one of 1e7 bytes (156,250 packets), some 170,000 packets a second, at 2.0 GB of RSS
   * ({@code /usr/bin/time ./aries replay big.txt -q --json}, the 2-core VM at a load average of 5, stop 74). At that
   * rate the bound is about a minute of one large message (and some 3 GB of heap, derived); a replay of many ranks
   * sends fewer packets a second (stop 30's synthetic 4,096-rank ring, 5,570,560 packets by this estimate, the
   * largest replay the docs run, took 889 s), so the bound keeps it with a margin of 1.8 (assumed) and refuses a
   * single message of 2e9 bytes (31,250,000 packets), which ran for minutes at 6 GB of heap without a word.
   */
  static final long MAX_PACKETS = 10_000_000L;

  /** The rate measured for {@link #MAX_PACKETS}, packets of wall time a second, for the refusal's time. */
  static final long PACKETS_PER_SECOND = 170_000;

  /** Payload bytes of one packet, the estimate's unit ({@code WireFormat.MAX_PAYLOAD}). */
  private static final long PACKET_BYTES = io.github.ariesmodel.core.packet.WireFormat.MAX_PAYLOAD;

  /**
   * Refuses work estimated beyond {@link #MAX_PACKETS}: the packets of the first trace and the with traces (twice
   * when the baseline replays each alone as well) and of a background trace's passes when they are counted
   * ({@code backgroundSteps}; without an end the background is stopped where the traces end, as synthetic load is,
   * so its work follows theirs and is not counted). Synthetic load is not counted either.
   */
  private static void checkWork(Settings s, List<Trace> traces) {
    long packets = 0;
    long bytes = 0;
    for (Trace t : traces) {
      long[] w = work(t);
      if (w != null) {
        packets = saturated(packets, w[0]);
        bytes = saturated(bytes, w[1]);
      }
    }
    if (s.together() && s.baseline()) {
      packets = saturated(packets, packets);
      bytes = saturated(bytes, bytes);
    }
    if (s.backgroundTrace() != null && s.backgroundSteps() > 0) {
      long[] w = work(openUnchecked(s.backgroundTrace()));
      if (w != null) {
        packets = saturated(packets, saturatedTimes(w[0], s.backgroundSteps()));
        bytes = saturated(bytes, saturatedTimes(w[1], s.backgroundSteps()));
      }
    }
    if (packets > MAX_PACKETS) {
      throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "%s %,d packets (%,d bytes the traces'"
          + " records send in %d-byte packets, a message at least one; at some %,d packets/s about %.1f min) exceeds"
          + " the bound of %,d; replay less or give allowLong=on", ESTIMATED_WORK, packets, bytes, PACKET_BYTES,
          PACKETS_PER_SECOND, packets / (double) PACKETS_PER_SECOND / 60, MAX_PACKETS));
    }
  }

  /** How the work's refusal begins, by which the commands know it (to name their own option for allowLong=on). */
  static final String ESTIMATED_WORK = "estimated work";

  private static long saturated(long a, long b) {
    long r = a + b;
    return r < 0 ? Long.MAX_VALUE : r;
  }

  private static long saturatedTimes(long a, long b) {
    return Math.multiplyHigh(a, b) != 0 || a * b < 0 ? Long.MAX_VALUE : a * b;
  }

  /**
   * A trace's work: every rank's records read once (records only, nothing simulated), each that sends counted as its
   * bytes in 64-byte packets, at least one. A send, a sendrecv's send, a one-sided call's larger side, and a
   * collective's larger buffer: a rooted one's (gather, scatter and their v-variants) each rank's own block once; a
   * block to every peer (allgather, alltoall) times the world's ranks, an upper bound of the communicator's;
   * allgatherv's, alltoallv's and reduce_scatter's per-rank sizes summed. Receives are
   * counted at their sends, and a send to the null process not at all. A size the trace does not give counts as none.
   *
   * <p>A trace whose records cannot be read, or that holds a message larger than a replay takes, has no estimate: the
   * replay's own first pass refuses it before simulating, with the message it always gave (file, rank, what is wrong),
   * which this read does not replace.
   *
   * @return the packets and the bytes, or null for none
   */
  static long[] work(Trace t) {
    long packets = 0;
    long bytes = 0;
    for (int r = 0; r < t.ranks(); r++) {
      try (RankTrace stream = t.open(r)) {
        for (TraceCall c = stream.read(); c != null; c = stream.read()) {
          if (largest(c) > LARGEST_MESSAGE) {
            return null;
          }
          long b = bytesSent(c, t.ranks());
          if (b >= 0) {
            bytes = saturated(bytes, b);
            packets = saturated(packets, Math.max(1, b / PACKET_BYTES + (b % PACKET_BYTES == 0 ? 0 : 1)));
          }
        }
      } catch (IOException | UncheckedIOException e) {
        return null;
      }
    }
    return new long[] {packets, bytes};
  }

  /** The largest message a replay takes, 2^31 - 65 bytes (TraceReplay's first pass refuses a larger one). */
  private static final long LARGEST_MESSAGE = Integer.MAX_VALUE - 64;

  /** @return a record's largest size, as the replay's first pass measures it against {@link #LARGEST_MESSAGE} */
  private static long largest(TraceCall c) {
    if (c instanceof TraceCall.PointToPoint p) {
      return p.bytes();
    } else if (c instanceof TraceCall.SendReceive x) {
      return Math.max(x.sendBytes(), x.receiveBytes());
    } else if (c instanceof TraceCall.OneSided o) {
      return Math.max(o.originBytes(), o.targetBytes());
    } else if (c instanceof TraceCall.Collective x) {
      long m = Math.max(x.sendBytes(), x.receiveBytes());
      for (int i = 0; i < x.sendBytesPerRank().length(); i++) {
        m = Math.max(m, x.sendBytesPerRank().get(i));
      }
      for (int i = 0; i < x.receiveBytesPerRank().length(); i++) {
        m = Math.max(m, x.receiveBytesPerRank().get(i));
      }
      return m;
    }
    return 0;
  }

  /** @return the bytes a record sends, or -1 for a record that sends none */
  private static long bytesSent(TraceCall c, int worldRanks) {
    if (c instanceof TraceCall.PointToPoint p) {
      return p.isSend() && p.peer() != TraceCall.PROC_NULL ? known(p.bytes()) : -1;
    } else if (c instanceof TraceCall.SendReceive x) {
      return x.destination() == TraceCall.PROC_NULL ? -1 : known(x.sendBytes());
    } else if (c instanceof TraceCall.OneSided o) {
      return o.target() == TraceCall.PROC_NULL ? -1 : Math.max(known(o.originBytes()), known(o.targetBytes()));
    } else if (c instanceof TraceCall.Collective x) {
      long whole = Math.max(known(x.sendBytes()), known(x.receiveBytes()));
      long perRank = Math.max(sum(x.sendBytesPerRank()), sum(x.receiveBytesPerRank()));
      return switch (x.kind()) {
        // rooted: each rank's own block, once (the root's blocks are the others', counted at them); the v-variants'
        // arrays are the root's and count nothing more (until the stop 74 review every rank was charged the world's
        // blocks: 256 times the data of a 256-rank gather)
        case GATHER, SCATTER, GATHERV, SCATTERV -> whole;
        // to every peer: the block times the ranks (the world's, an upper bound on a smaller communicator's)
        case ALLGATHER, ALLTOALL -> saturatedTimes(whole, worldRanks);
        case ALLGATHERV -> Math.max(saturatedTimes(known(x.sendBytes()), worldRanks), perRank);
        case ALLTOALLV, REDUCE_SCATTER -> Math.max(whole, perRank);
        default -> saturated(whole, perRank);
      };
    }
    return -1;
  }

  private static long known(long bytes) {
    return Math.max(0, bytes); // UNKNOWN_BYTES (-1): none
  }

  private static long sum(com.google.common.primitives.ImmutableLongArray a) {
    long s = 0;
    for (int i = 0; i < a.length(); i++) {
      s = saturated(s, known(a.get(i)));
    }
    return s;
  }

  /** @return the first trace, then the {@code with} traces, opened */
  private static List<Trace> traces(Settings s, Trace first) {
    List<Trace> traces = new ArrayList<>();
    traces.add(first);
    for (Path w : s.with()) {
      traces.add(openUnchecked(w));
    }
    return traces;
  }

  /**
   * Places the traces in turn, each on nodes the ones before it left: the first by the mapping, the others by its
   * kind (linear after a mapping file, which names the first trace's nodes).
   */
  private static List<int[]> placements(AriesSystem system, Settings s, List<Trace> traces) {
    BitSet taken = new BitSet();
    List<int[]> out = new ArrayList<>();
    for (int j = 0; j < traces.size(); j++) {
      Placement p = j == 0 || s.placement().kind() != Placement.Kind.EXPLICIT ? s.placement() : Placement.LINEAR;
      int[] nodes;
      try {
        nodes = p.nodes(system.topology(), traces.get(j).ranks(), s.ranksPerNode(), system.seed(), taken);
      } catch (IllegalArgumentException e) {
        throw j == 0 ? e : new IllegalArgumentException("with " + traces.get(j).source() + ": " + e.getMessage(), e);
      }
      for (int n : nodes) {
        taken.set(n);
      }
      out.add(nodes);
    }
    return out;
  }

  /**
   * Refuses a background that does not fit the nodes the traces leave, as {@link ConcurrentReplay} would when the jobs
   * run, but before anything is simulated and in words naming the parameter: the set refused it only after each
   * trace's baseline had run alone, and in its own words ("the background needs 0 nodes" when the traces left none; a
   * background trace's "27 ranks ... need 27 nodes" without saying whose; until stop 77).
   *
   * @param taken the traces' nodes
   */
  private static void checkBackgroundFits(AriesSystem system, Settings s, BitSet taken) {
    int all = system.nodeCount();
    int free = all - taken.cardinality();
    if (s.backgroundTrace() != null) {
      Trace t = openUnchecked(s.backgroundTrace());
      try {
        s.backgroundMapping().nodes(system.topology(), t.ranks(), s.backgroundRanksPerNode(), system.seed(), taken);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("backgroundTrace " + t.source() + ": " + e.getMessage(), e);
      }
    } else if (!s.backgroundKind().equals("none")) {
      if (free == 0) {
        throw new IllegalArgumentException("background needs a node but the traces' jobs hold all of the system's "
            + all);
      }
      if (s.backgroundNodes() > free) {
        throw new IllegalArgumentException("backgroundNodes must be at most " + free + ", the nodes the traces leave"
            + " free of the system's " + all + " (0: all of them), but was " + s.backgroundNodes());
      }
      int nodes = s.backgroundNodes() == 0 ? free : s.backgroundNodes();
      if (nodes == 1 && s.backgroundRanksPerNode() < 2) {
        throw new IllegalArgumentException("backgroundRanksPerNode must be at least 2 on the background's one node (it"
            + " needs 2 ranks) but was " + s.backgroundRanksPerNode());
      }
    }
  }

  /** Opens the settings' trace as {@link #run} does: an I/O failure is unchecked. */
  private static Trace open(Settings s) {
    return openUnchecked(s.tracePath());
  }

  private static Trace openUnchecked(Path path) {
    try {
      return open(path);
    } catch (TraceFormatException e) {
      throw new UncheckedIOException(e); // names its file and place already
    } catch (IOException e) {
      // named: a bare "Input/output error" (the trace /proc/self/mem) said nothing of which file
      throw new UncheckedIOException(new IOException("cannot read the trace " + path + ": "
          + e.getMessage(), e));
    }
  }

  /** The trace parameter, which must name something that exists: a missing input is bad input, not a failed run. */
  private static Path tracePath(Params params) {
    return tracePath("trace", params.string("trace", ""));
  }

  private static Path tracePath(String name, String text) {
    if (text.isEmpty()) {
      throw new IllegalArgumentException(name + " must name a DUMPI .meta file or directory, or a SimGrid trace file");
    }
    Path path;
    try {
      path = Path.of(text);
    } catch (java.nio.file.InvalidPathException e) {
      throw new IllegalArgumentException(name + " must name a DUMPI .meta file or directory, or a SimGrid trace file"
          + " but " + Texts.abbreviate(text.replace('\0', '?')) + " is no path this system takes", e);
    }
    if (!Files.exists(path)) {
      throw new IllegalArgumentException(name + " must name a DUMPI .meta file or directory, or a SimGrid trace file"
          + " but " + Texts.abbreviate(text) + " does not exist");
    }
    return path;
  }

  @Override
  public WorkloadReport run(SystemSpec spec, Params params, Progress progress) {
    params.checkAllUsed(parameters().keySet());
    Settings settings = Settings.read(params);
    Trace trace = open(settings);
    // on the partitioned engine when the spec has threads (--threads). Beside other jobs the fabric's link busy time
    // is split by the packets' source nodes, so that the report's link figures are the first trace's own
    LinkTally links = settings.together() && spec.fabric() == FabricKind.ROUTERS ? new LinkTally() : null;
    AriesSystem system = links == null ? build(spec, settings)
        : spec.build(b -> customize(b, settings).routerSettings(fb -> fb.addHopListener(links)));
    long events0 = system.eventsExecuted();
    // Progress comes from inside the run. On the single loop it reads the loop's event count, as ever; on an engine
    // the count is the groups' running sums, which other threads are changing, so the run's progress shows none
    // (the report's cost has the count, read after the run).
    ReplayProgress sink = system.engine().isPresent() ? (f, ps) -> progress.update(f, ps, 0)
        : (f, ps) -> progress.update(f, ps, system.loop().eventsExecuted() - events0);
    WorkloadReport rep = settings.together() ? together(spec, settings, trace, system, links, sink)
        : report(replay(system, trace, settings.placement(), settings.ranksPerNode(), settings, sink).run());
    busiestLinks(rep, system);
    return rep;
  }

  /** Rows of the {@code busiestLinks} table. */
  static final int BUSIEST_LINKS = 20;

  /**
   * The {@code busiestLinks} table: the link directions that spent the most time sending over the whole run (every
   * job's and the background's packets), with the share of the run's span each was busy. A port of a cabled system is
   * named as Cray names it ({@code c0-0c0s0a0l01}), any other as its router and port.
   */
  private static void busiestLinks(WorkloadReport rep, AriesSystem system) {
    if (system.routerFabric().isEmpty()) {
      return;
    }
    Topology t = system.topology();
    long span = system.now();
    ResultTable.Builder b = ResultTable.builder("busiestLinks").string("rank").string("from").integer("fromGroup", "")
        .string("to").integer("toGroup", "").number("busy", "us").number("utilization", "");
    for (LinkLoad l : system.routerFabric().get().busiestLinks(BUSIEST_LINKS)) {
      b.row(t.linkClassName(l.linkClass()), Topologies.portName(t, l.router(), l.port()), t.groupOfRouter(l.router()),
          Topologies.portName(t, l.farRouter(), l.farPort()), t.groupOfRouter(l.farRouter()),
          Figures.round(l.busyPs() / 1e6, 3),
          span == 0 ? null : Figures.round((double) l.busyPs() / span, 6));
    }
    rep.table(b.build());
  }

  private static void configure(TraceReplay.Builder b, Settings settings) {
    if (settings.collectiveEngine() || !settings.smpCollectives()) {
      b.config(MpiConfig.builder().collectiveEngine(settings.collectiveEngine())
          .smpCollectives(settings.smpCollectives()).build());
    }
  }

  /** @return a trace's replay on the system with the settings' compute mode and MPI settings */
  private static TraceReplay replay(AriesSystem system, Trace trace, Placement placement, int ranksPerNode,
      Settings settings, ReplayProgress progress) {
    TraceReplay.Builder b = TraceReplay.builder(system, trace).placement(placement).ranksPerNode(ranksPerNode)
        .compute(settings.compute()).progress(progress);
    configure(b, settings);
    return b.build();
  }

  private static AriesSystem build(SystemSpec spec, Settings settings) {
    return spec.build(b -> customize(b, settings));
  }

  private static AriesSystem.Builder customize(AriesSystem.Builder b, Settings settings) {
    if (settings.hostCache() != null) {
      b.hostCache(settings.hostCache());
    }
    return b.osNoise(settings.osNoise()); // the nodes': every job's on them, traces and background alike
  }

  /** Times a trace may take beside the others, over its time alone, before the run is given up. */
  static final int LIMIT_OVER_ALONE = 10;

  /**
   * Several jobs at once ({@link ConcurrentReplay}): the first trace's report, plus a table of every trace's job
   * (time together and, with the baseline, alone and the slowdown) and the background's work.
   */
  private WorkloadReport together(SystemSpec spec, Settings settings, Trace first, AriesSystem system,
      LinkTally links, ReplayProgress sink) {
    List<Trace> traces = traces(settings, first);
    List<int[]> nodes = placements(system, settings, traces);
    List<ReplayResult> alone = new ArrayList<>();
    long limit = Long.MAX_VALUE;
    if (settings.baseline()) {
      // the limit: each trace's start and 10 times its time alone, the latest of them (starts are at most a second)
      limit = 0;
      for (int j = 0; j < traces.size(); j++) {
        // alone on a system of the same settings, on the very nodes it has beside the others
        // built aside: the main system is still to run, and its statistics must not be taken now (they were, at
        // nothing built, and the run's statistics described the baselines alone; stop 64's hunt of the reports)
        // and from the same start: under OS noise the start decides which detours the trace meets (run from 0, a
        // trace started at 30 us under aligned 25-us detours every 100 us met the detour at 0 alone and not beside
        // the others, and a neighbour that never touched it gave a slowdown of 0.69; until stop 68)
        AriesSystem aside = spec.buildAside(b -> customize(b, settings));
        TraceReplay one = replay(aside, traces.get(j), Placement.explicit(nodes.get(j)), 1, settings,
            ReplayProgress.NONE);
        long start = settings.startsPs().get(j);
        ReplayResult r = start == 0 ? one.run()
            : ConcurrentReplay.builder(aside).trace(one, start).build().run().replays().get(0);
        spec.finishedAside(aside);
        alone.add(r);
        long a = Math.max(1, r.simulatedPs());
        long own = a > (Long.MAX_VALUE / 2) / LIMIT_OVER_ALONE ? Long.MAX_VALUE / 2 : a * LIMIT_OVER_ALONE;
        limit = Math.max(limit, settings.startsPs().get(j) + own);
      }
    }
    ConcurrentReplay.Builder cb = ConcurrentReplay.builder(system);
    if (links != null) {
      cb.linkTally(links); // each trace's link figures its own packets' (they were the whole fabric's)
    }
    for (int j = 0; j < traces.size(); j++) {
      cb.trace(replay(system, traces.get(j), Placement.explicit(nodes.get(j)), 1, settings,
          j == 0 ? sink : ReplayProgress.NONE), settings.startsPs().get(j));
    }
    SyntheticTraffic bg = settings.background(system.seed());
    if (settings.backgroundTrace() != null) {
      cb.backgroundTrace(replay(system, openUnchecked(settings.backgroundTrace()), settings.backgroundMapping(),
          settings.backgroundRanksPerNode(), settings, ReplayProgress.NONE), settings.backgroundSteps());
    } else if (bg != null) {
      cb.background(bg, settings.backgroundNodes(), settings.backgroundRanksPerNode(), settings.backgroundMapping());
    }
    cb.backgroundStartPs(settings.backgroundStartPs());
    if (limit != Long.MAX_VALUE) {
      cb.foregroundLimitPs(limit);
    }
    ConcurrentReplay.Result r = cb.build().run();
    WorkloadReport rep = report(r.replays().get(0));
    for (ReplayResult a : alone) {
      rep.cost(a.elapsedPs(), a.events()); // the baselines' systems, counted in the statistics too
    }
    ResultTable.Builder jobs = ResultTable.builder("jobs").integer("job", "").string("trace").integer("ranks", "")
        .integer("firstNode", "").number("start", "us").number("simulatedTime", "us").number("alone", "us")
        .number("slowdown", "").number("latencyP50", "ns").number("latencyP99", "ns").integer("messages", "");
    for (int j = 0; j < traces.size(); j++) {
      ReplayResult x = r.replays().get(j);
      Double aloneUs = alone.isEmpty() ? null : Figures.round(alone.get(j).simulatedPs() / 1e6, 3);
      // no slowdown of a trace whose time alone is 0 (it makes no call that takes time): 0/0 was written as 0.0
      Double slowdown = alone.isEmpty() || alone.get(j).simulatedPs() == 0 ? null
          : Figures.round((double) x.simulatedPs() / alone.get(j).simulatedPs(), 4);
      jobs.row(j, traces.get(j).source().toString(), x.ranks(), x.nodes().get(0),
          Figures.round(settings.startsPs().get(j) / 1e6, 3), Figures.round(x.simulatedPs() / 1e6, 3), aloneUs,
          slowdown, ns(x.latency(), x.latency().p50Ns()), ns(x.latency(), x.latency().p99Ns()), x.messages());
      if (j == 0 && !alone.isEmpty()) {
        rep.metric("aloneTimeUs", aloneUs, "us");
        if (slowdown != null) {
          rep.metric("slowdown", slowdown, "");
        }
      }
    }
    rep.metric("jobs", traces.size() + (r.background() == null ? 0 : 1), "");
    rep.table(jobs.build());
    if (r.background() != null) {
      ConcurrentReplay.Background b = r.background();
      rep.metric("background.ranks", b.ranks(), "");
      rep.metric("background.startUs", Figures.round(b.startPs() / 1e6, 3), "us");
      rep.metric("background.messages", b.messages(), "");
      rep.metric("background.bytes", b.bytesSent(), "B");
      // a background that ran no time has no rate: the metric is left out (it was 0 GB/s, as if it had run and sent
      // nothing; until stop 77)
      if (!Double.isNaN(b.bytesPerSecondPerNode())) {
        rep.metric("background.GBpsPerNode", Figures.round(b.bytesPerSecondPerNode() / 1e9, 4), "GB/s");
      }
      rep.note("background: " + b.program() + " on " + b.ranks() + " ranks"
          + (b.startPs() == 0 ? "" : " from " + Figures.round(b.startPs() / 1e6, 3) + " us")
          + (b.neverRan() ? ", never ran: the traces had ended before its start (no background.GBpsPerNode)"
              : b.finished() ? ", ended by itself after " + Figures.round(b.ranPs() / 1e6, 3) + " us"
              : ", stopped where the traces ended")
          + "; it sent " + b.bytesSent() + " bytes, " + b.bytesDelivered() + " of them delivered (the bytes of"
          + " background.GBpsPerNode), in " + b.messages() + " messages");
    }
    return rep;
  }

  /** What the reports say of a trace that cannot tell how many calls its tracer left out (no footers: SimGrid). */
  static final String NOT_RECORDED_UNKNOWN = "calls not recorded: unknown (the trace has no footers counting the"
      + " calls its tracer left out, as DUMPI's have)";

  /** What the reports say of a replay that delivered no point-to-point message. */
  static final String NO_MESSAGES = "no point-to-point messages: the replay delivered none of the trace's, so there"
      + " is no message latency (the latency table's cells are empty)";

  /**
   * One count of what the replay could not take from the trace as it stands: a metric, always written (0 when
   * nothing), and a note when not 0.
   *
   * @param metric the metric's name
   * @param note the note's format, of the count
   * @param count the count, from the replay's result
   */
  record TraceCount(String metric, String note, ToLongFunction<ReplayResult> count) {}

  /**
   * The counts of what the replay could not take from the trace, in the order results.json, the text, the notes and
   * {@code replay --json}'s summary give them (one list, so a count added here reaches all four).
   */
  static final List<TraceCount> TRACE_COUNTS = List.of(
      new TraceCount("unknownSizes", "unknownSizes: %,d calls' byte counts the trace could not give (a datatype its"
          + " size table lacks): their sends were replayed as 0 bytes, their receives as large as the trace's largest"
          + " message", ReplayResult::unknownSizes),
      new TraceCount("requestsNotStarted", "requestsNotStarted: %,d waits, tests, cancels or frees named requests"
          + " no recorded call started (calls the trace left out), passed over", ReplayResult::requestsNotStarted),
      new TraceCount("requestsAlreadyCompleted", "requestsAlreadyCompleted: %,d waits, tests, cancels or frees"
          + " named requests a test of the trace had already completed (as SimGrid's traces keep a request for its"
          + " wait after the test that completed it), passed over as SMPI's replay does",
          ReplayResult::requestsAlreadyCompleted),
      new TraceCount("receivesUnmatched", "receivesUnmatched: %,d nonblocking receives the trace never waited for"
          + " matched no message by the end of the run", ReplayResult::receivesUnmatched),
      new TraceCount("oneSidedFolded", "oneSidedFolded: %,d one-sided operations lay beyond the replay's window"
          + " (it holds the trace's largest one-sided operation, 1 MiB at least) and were made at their place modulo"
          + " the window; their timing does not depend on the place", ReplayResult::oneSidedFolded));

  /** What the reports say of the rate a trace's flops were replayed at. */
  static final String FLOP_RATE = "flops (compute actions, reductions) replayed at %s Gflop/s a rank (assumed: the"
      + " trace names no machine; scale:F scales them, and not a sleep)";

  /** What the reports say of a replay whose compute came from a trace's CPU times (no wall-clock times). */
  static final String CPU_TIME_GAPS = "compute between calls from CPU times: the trace recorded no wall-clock times"
      + " (DUMPI's timestamps=cpu), so the process's CPU time between two calls stands in for its compute (it leaves"
      + " out time the process waited off the CPU, and counts every thread's CPU time)";

  /** What the reports say of a replay that was to replay compute and found none in the trace. */
  static final String NO_COMPUTE_FOUND = "no compute replayed: the trace records no time between calls (no"
      + " timestamps, as DUMPI's timestamps=none writes, and no compute or sleep actions), so --compute %s ran as"
      + " skip";

  /** A latency figure as the table holds it: rounded, or null (no value) when no message was measured. */
  private static Double ns(ReplayResult.Latency l, double figure) {
    return l.measured() ? Figures.round(figure, 3) : null;
  }

  static WorkloadReport report(ReplayResult r) {
    WorkloadReport rep = new WorkloadReport();
    // The run's span is the system's (as every workload's and the statistics' is): the events ran until the last
    // one, after the last rank returned; the replay's own time is the simulatedTimeUs metric.
    rep.cost(r.elapsedPs(), r.events());
    rep.metric("ranks", r.ranks(), "");
    rep.metric("simulatedTimeUs", Figures.round(r.simulatedPs() / 1e6, 3), "us");
    rep.metric("messages", r.messages(), "");
    rep.metric("bytes", r.bytes(), "B");
    rep.metric("mpiMessages", r.mpiMessages(), "");
    rep.metric("callsReplayed", r.callsReplayed(), "");
    ReplayResult.Latency l = r.latency();
    if (l.measured()) {
      rep.metric("latency.p50", Figures.round(l.p50Ns(), 3), "ns");
      rep.metric("latency.p99", Figures.round(l.p99Ns(), 3), "ns");
    } else {
      // no message, no latency: the metrics are left out and the table's cells are null (they were 0 ns)
      rep.note(NO_MESSAGES);
    }
    long maxComm = 0;
    for (int i = 0; i < r.ranks(); i++) {
      maxComm = Math.max(maxComm, r.communicationPs().get(i));
    }
    rep.metric("maxRankCommunicationUs", Figures.round(maxComm / 1e6, 3), "us");
    // what the replay could not take from the trace as it stands, always written (0 when nothing; until stop 75 they
    // were counted and never reported: a send of a datatype missing from the size table moved 0 bytes, silently)
    for (TraceCount c : TRACE_COUNTS) {
      rep.metric(c.metric(), c.count().applyAsLong(r), "");
    }
    for (TraceCount c : TRACE_COUNTS) {
      long n = c.count().applyAsLong(r);
      if (n > 0) {
        rep.note(String.format(java.util.Locale.ROOT, c.note(), n));
      }
    }
    if (r.compute().kind() != ComputeMode.Kind.SKIP) {
      long computed = 0;
      for (int i = 0; i < r.ranks(); i++) {
        computed += r.computePs().get(i);
      }
      if (r.flopActions() > 0) {
        rep.note(String.format(java.util.Locale.ROOT, FLOP_RATE, Figures.text(r.flopsPerSecond() / 1e9)));
      }
      if (r.cpuTimeGaps() > 0) {
        rep.note(CPU_TIME_GAPS);
      } else if (r.wallClockGaps() == 0 && computed == 0) {
        rep.note(String.format(java.util.Locale.ROOT, NO_COMPUTE_FOUND, r.compute()));
      }
    }

    ResultTable.Builder ranks = ResultTable.builder("ranks").integer("rank", "").integer("node", "")
        .number("communication", "us").number("compute", "us");
    for (int i = 0; i < r.ranks(); i++) {
      ranks.row(i, r.nodes().get(i), Figures.round(r.communicationPs().get(i) / 1e6, 3),
          Figures.round(r.computePs().get(i) / 1e6, 3));
    }
    rep.table(ranks.build());

    ResultTable.Builder calls = ResultTable.builder("calls").string("call").integer("count", "");
    for (Map.Entry<CallKind, Long> e : r.calls().entrySet()) {
      calls.row(e.getKey().name().toLowerCase(java.util.Locale.ROOT), e.getValue());
    }
    rep.table(calls.build());

    ResultTable.Builder coll = ResultTable.builder("collectives").string("collective").integer("count", "");
    r.collectives().forEach(coll::row);
    rep.table(coll.build());

    ResultTable.Builder lat = ResultTable.builder("latency").string("percentile").number("latency", "ns");
    lat.row("min", ns(l, l.minNs())).row("p50", ns(l, l.p50Ns())).row("p90", ns(l, l.p90Ns()))
        .row("p99", ns(l, l.p99Ns())).row("max", ns(l, l.maxNs())).row("mean", ns(l, l.meanNs()));
    rep.table(lat.build());

    ResultTable.Builder links = ResultTable.builder("links").string("rank").integer("bytes", "B")
        .number("utilization", "");
    for (Map.Entry<String, Long> e : r.linkBytes().entrySet()) {
      links.row(e.getKey(), e.getValue(), Figures.round(r.linkUtilization().get(e.getKey()), 6));
    }
    rep.table(links.build());

    TraceCoverage c = r.coverage();
    ResultTable.Builder cov = ResultTable.builder("coverage").string("call").integer("recorded", "")
        .integer("skipped", "").integer("notRecorded", "");
    TreeSet<String> names = new TreeSet<>(c.recorded().keySet());
    names.addAll(c.footerIgnored().keySet());
    // Only DUMPI's footers count the calls a tracer made but did not record; without them (SimGrid) that count is
    // unknown: null cells and no metric, where it was reported as 0.
    boolean footers = !c.footerCalls().isEmpty();
    long leftOut = 0;
    for (String n : names) {
      long ignored = c.footerIgnored().getOrDefault(n, 0L);
      leftOut += ignored;
      cov.row(n, c.recorded().getOrDefault(n, 0L), c.unmodelled().getOrDefault(n, 0L), footers ? ignored : null);
    }
    rep.table(cov.build());
    if (footers) {
      rep.metric("callsNotRecorded", leftOut, "");
    } else {
      rep.note(NOT_RECORDED_UNKNOWN);
    }

    rep.plot(new PlotSpec("replay-link-utilization.png", "Link utilization by rank over the replay",
        PlotSpec.Kind.UTILIZATION_BY_RANK, "links", "rank", "utilization", null));
    rep.plot(new PlotSpec("replay-latency-percentiles.png", "Message latency percentiles (send to receive)",
        PlotSpec.Kind.BARS, "latency", "percentile", "latency", null)); // (was drawn as "Latency by distance")
    return rep;
  }
}
