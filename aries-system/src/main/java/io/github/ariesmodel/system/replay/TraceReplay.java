package io.github.ariesmodel.system.replay;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableMap;
import com.google.common.primitives.ImmutableIntArray;
import com.google.common.primitives.ImmutableLongArray;
import io.github.ariesmodel.network.RouterFabric;
import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.mpi.Communicator;
import io.github.ariesmodel.system.mpi.Mpi;
import io.github.ariesmodel.system.mpi.MpiConfig;
import io.github.ariesmodel.system.mpi.MpiJob;
import io.github.ariesmodel.system.mpi.MpiStatus;
import io.github.ariesmodel.system.mpi.PersistentRequest;
import io.github.ariesmodel.system.mpi.ReduceOp;
import io.github.ariesmodel.system.mpi.Request;
import io.github.ariesmodel.system.mpi.Window;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.RankCoverage;
import io.github.ariesmodel.traces.RankTrace;
import io.github.ariesmodel.traces.Trace;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceCoverage;
import io.github.ariesmodel.traces.TraceFormatException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Replays a recorded MPI run ({@link Trace}: DUMPI or SimGrid time-independent) through the MPI layer on a
 * modelled system: each trace rank becomes an MPI rank that performs its recorded calls in order, with the
 * recorded peers, tags, byte counts and request handles, and (by the {@link ComputeMode}) the recorded time between
 * calls.
 *
 * <pre>{@code
 * Trace trace = DumpiTrace.open(Path.of("amg-n27-dumpi"));
 * AriesSystem system = AriesSystem.builder().system("default").seed(1).build();
 * ReplayResult r = TraceReplay.builder(system, trace).compute(ComputeMode.SKIP).build().run();
 * }</pre>
 *
 * <p>Semantics: nonblocking requests are mapped by the trace's own handles (a handle may be reused once completed);
 * a wait or test whose outcome the trace records (DUMPI) completes exactly the requests the traced run completed
 * (waiting for them), so the replay follows the traced path; a test without a recorded outcome (SimGrid) makes one
 * progress pass and completes what is done; a completion naming a handle no recorded call started (a trace that
 * left calls out) skips it and counts it. Persistent requests are the MPI layer's ({@link Mpi#sendInit},
 * {@link Mpi#recvInit}, {@link Mpi#startall}) under the trace's handles: a start makes the nonblocking call, a wait or
 * test ends the activation and keeps the request, a wait on one not started returns at once (as MPI's on an inactive
 * request), and {@code MPI_Request_free} drops the handle (an activation in progress completes unobserved, counted
 * as a receive left open would be). Collectives run the MPI layer's algorithms with the trace's byte counts on
 * scratch buffers (reductions on 8-byte elements, sum); exscan is replayed as scan (the same messages). Blocking
 * receives are replayed as irecv + wait (MPI defines them so). Finalize is the MPI layer's own (every rank drains
 * its sends and joins a barrier after its last call).
 *
 * <p>A trace that is corrupt, refers to unknown communicators, sends a message longer than its receive, leaves a
 * send unreceived, or deadlocks gives one {@link TraceReplayException} naming the file, rank and call (for a
 * deadlock, what every waiting rank waits for); never a hang.
 *
 * <p>Memory: calls are streamed; the replay keeps per rank its open requests, plus one latency sample (8 bytes) per
 * delivered message and scratch buffers as large as the trace's largest message (one on the single event loop, one
 * per dragonfly group that holds ranks on a partitioned engine, each only as large as its ranks' messages).
 *
 * <p>Threads: on a system built with {@link AriesSystem.Builder#threads(int)} the ranks of different dragonfly groups
 * run at the same time on different threads. Each rank then keeps its own counts and latency samples, merged in rank
 * order after the run, so the result is the same for every thread count; on the single event loop (the default) the
 * replay is what it always was.
 */
public final class TraceReplay {

  /**
   * Most ranks on one node: the cores of the largest XC compute node (a Xeon Phi 7250 "KNL" of an XC40 has 68;
   * Haswell and Broadwell nodes have 32 to 44). Assumed from Intel's product data.
   */
  public static final int MAX_RANKS_PER_NODE = 68;

  /**
   * Rate of a time-independent trace's {@code compute} flops under as-traced compute: 1 Gflop/s per rank (assumed;
   * the trace names no machine, set it to the traced core's speed).
   */
  public static final double DEFAULT_FLOPS_PER_SECOND = 1e9;

  private final AriesSystem system;
  private final Trace trace;
  private final Placement placement;
  private final int ranksPerNode;
  private final ComputeMode compute;
  private final double flopsPerSecond;
  private final MpiConfig config;
  private final ReplayProgress progress;

  private TraceReplay(Builder b) {
    this.system = b.system;
    this.trace = b.trace;
    this.placement = b.placement;
    this.ranksPerNode = b.ranksPerNode;
    this.compute = b.compute;
    this.flopsPerSecond = b.flopsPerSecond;
    this.config = b.config;
    this.progress = b.progress;
  }

  /**
   * A replay of a trace on a system.
   *
   * @param system a quiet system (the replay starts at its current time)
   * @param trace the trace
   * @return a builder: linear placement, 1 rank per node, compute skipped, default MPI settings
   */
  public static Builder builder(AriesSystem system, Trace trace) {
    checkArgument(system != null, "system must not be null");
    checkArgument(trace != null, "trace must not be null");
    return new Builder(system, trace);
  }

  /**
   * Replays the trace once.
   *
   * @return what was measured
   * @throws TraceReplayException when the trace cannot be replayed (naming file, rank and call); also, naming the
   *     file, when the ranks a node holds need more memory for their heaps than the node has
   *     ({@link #FEWER_RANKS_REMEDY})
   * @throws IllegalArgumentException when the placement does not fit the system
   */
  public ReplayResult run() {
    Prepared p = prepare(new BitSet());
    try {
      p.job.run(p.program());
    } catch (RuntimeException e) {
      p.failed(e);
    } catch (OutOfMemoryError e) {
      // the heap running out in an event of the NIC or the fabric reaches here bare (the engine rethrows errors)
      p.heapExhausted(e);
    }
    return p.finish();
  }

  /** @return the system it replays on */
  AriesSystem system() {
    return system;
  }

  /**
   * Reads the trace once (checking every rank's stream, finding its largest message, counting calls), places its
   * ranks on nodes not in {@code taken} (and adds them there) and builds its job.
   */
  Prepared prepare(BitSet taken) {
    String file = trace.source().toString();
    int n = trace.ranks();
    // first pass: check every rank's stream reads, find the largest message, count calls (for progress)
    long total = 0;
    long maxBytes = 0;
    long maxOneSided = 0;
    List<RankCoverage> coverage = new ArrayList<>(n);
    for (int r = 0; r < n; r++) {
      try (RankTrace s = trace.open(r)) {
        long index = 0;
        for (TraceCall c; (c = s.read()) != null; ) {
          total++;
          long bytes = largestBytes(c);
          if (bytes > Integer.MAX_VALUE - 64) {
            // named where it is, as every trace problem is (it used to name no file, rank or call)
            throw new TraceReplayException(file, r, index + 1, "a message of " + bytes + " bytes, more than the"
                + " replay's largest, 2^31 - 65", null);
          }
          maxBytes = Math.max(maxBytes, bytes);
          if (c instanceof TraceCall.OneSided) {
            maxOneSided = Math.max(maxOneSided, bytes);
          }
          index++;
        }
        coverage.add(s.coverage());
      } catch (TraceFormatException e) {
        throw new TraceReplayException(e.file() == null ? file : e.file().toString(), e.rank(), 0, e.problem()
            + (e.location() == null || e.location().isEmpty() ? "" : " (at " + e.location() + ")"), e);
      } catch (IOException e) {
        throw new TraceReplayException(file, r, 0, "cannot read the rank's trace: " + e.getMessage(), e);
      }
    }
    int[] nodes = placement.nodes(system.topology(), n, ranksPerNode, system.seed(), taken);
    long heap = Math.max(config.heapBytes(), Math.min(64L << 30, 8 * maxBytes + (4L << 20)));
    MpiConfig cfg = heap == config.heapBytes() ? config : config.toBuilder().heapBytes(heap).build();
    if (heap != config.heapBytes()) {
      checkHeapsFit(file, nodes, heap, maxBytes);
    }
    MpiJob job = MpiJob.builder(system).placement(nodes).config(cfg).build();
    for (int node : nodes) {
      taken.set(node);
    }
    boolean parallel = system.engine().isPresent();
    State st = new State(n, (int) maxBytes, total, file, slots(nodes), parallel ? system.topology().groupCount() : 1);
    st.windowBytes = (int) Math.max(MIN_WINDOW_BYTES, maxOneSided);
    return new Prepared(file, nodes, coverage, job, st);
  }

  /**
   * Refuses, in the replay's words, ranks on one node whose heaps (the replay's own choice, from the trace's largest
   * message) alone pass the node's memory: the MPI layer refused them as "MpiConfig.heapBytes must be at most ...", a
   * setting the replay's user never gave (until stop 77). Only what the MPI layer would refuse anyway is refused here.
   * A trace problem, naming the trace's file: it was an {@code IllegalArgumentException} naming none, so the command
   * line could not tell which trace or option it was about and located it at "(arguments)" (until stop 78).
   */
  private void checkHeapsFit(String file, int[] nodes, long heap, long maxBytes) {
    TreeMap<Integer, Integer> perNode = new TreeMap<>();
    for (int node : nodes) {
      perNode.merge(node, 1, Integer::sum);
    }
    long memory = system.nodeMemoryBytes();
    for (Map.Entry<Integer, Integer> e : perNode.entrySet()) {
      int k = e.getValue();
      if (k > 1 && (double) k * heap > memory) {
        throw new TraceReplayException(file, TraceReplayException.NO_RANK, 0, k + " ranks on node " + e.getKey()
            + " need more memory than the node's " + memory + " bytes (AriesSystem nodeMemoryBytes) for this trace:"
            + " the replay gives each rank a heap of " + heap + " bytes (8 times the trace's largest message, "
            + maxBytes + " bytes, and 4 MiB), " + k * heap + " bytes for the " + k + "; at most " + memory / heap
            + " such heaps fit a node: " + FEWER_RANKS_REMEDY, null);
      }
    }
  }

  /**
   * How a refusal of ranks whose heaps do not fit a node ends ({@link #run}): the replay's settings that place fewer
   * ranks on a node, which a command line names by its own options.
   */
  public static final String FEWER_RANKS_REMEDY = "put fewer ranks on a node (ranksPerNode, or the mapping)";

  /** A replay ready to run: its job and state, and what its result needs. */
  final class Prepared {
    final String file;
    final int[] nodes;
    final List<RankCoverage> coverage;
    final MpiJob job;
    final State st;
    final long startPs;
    final long eventsBefore;
    /**
     * The fabric's busy time by link class when the replay was prepared, taken off at the end: the result's link
     * figures are the replay's own, as its time and events are (they counted every earlier run on the system until
     * stop 76: a second replay of one trace on one system reported twice the first's link bytes).
     */
    final long[] busyAtStart;
    /** As {@link #busyAtStart}, for the job's nodes in a {@link LinkTally}; null until {@link #noteTally}. */
    long[] tallyAtStart;
    IllegalStateException unfinished;

    Prepared(String file, int[] nodes, List<RankCoverage> coverage, MpiJob job, State st) {
      this.file = file;
      this.nodes = nodes;
      this.coverage = coverage;
      this.job = job;
      this.st = st;
      this.startPs = system.now();
      this.eventsBefore = system.eventsExecuted();
      RouterFabric f = system.routerFabric().orElse(null);
      this.busyAtStart = new long[f == null ? 0 : f.linkClassCount()];
      for (int c = 0; c < busyAtStart.length; c++) {
        busyAtStart[c] = f.busyPs(c);
      }
    }

    /**
     * Notes the tally's busy time of this job's nodes before the run, which {@link #finish(LinkTally)} takes off.
     *
     * @param links the tally the result will be read from
     */
    void noteTally(LinkTally links) {
      tallyAtStart = new long[busyAtStart.length];
      for (int c = 0; c < tallyAtStart.length; c++) {
        tallyAtStart[c] = links.busyPs(nodes, c);
      }
    }

    /** @return the program each rank runs: its part of the trace */
    io.github.ariesmodel.system.mpi.MpiProgram program() {
      return mpi -> new RankReplay(st, mpi).replay();
    }

    /** Passes each rank has finished, by rank (written by the rank itself; read after the run). */
    long[] passesDone;

    /**
     * The program of a job that runs the trace again and again, as an application that repeats its run would (a
     * background job made of a real application). Each pass has state of its own: the trace's requests,
     * communicators, windows and notes of sends in flight; a rank begins its next pass as soon as it finished the last,
     * so a fast rank's pass k + 1 meets a slow rank's pass k as MPI orders them (the trace's own matching, in send
     * order for each source and tag; a receive from any source may take a later pass's message, as it could in a real
     * repeated run). Its results are not kept: the job's counters say what it sent ({@link #passesDone} how far each
     * rank came).
     *
     * <p>Without an end, a rank whose pass took no simulated time (a rank with only init and finalize, or only local
     * work under {@link ComputeMode#SKIP}) is refused at the end of that pass ({@link TraceReplayException} naming the
     * file and rank, which fails the run): it would start pass after pass at the same instant without ever handing
     * the clock on, so the run never ended, and each pass it ran ahead of its peers kept its state (until stop 73 the
     * run hung with its memory growing). With a number of passes such a rank makes them at that instant.
     *
     * @param passes passes each rank makes, 0 for no end
     * @return the program
     */
    io.github.ariesmodel.system.mpi.MpiProgram repeatingProgram(long passes) {
      passesDone = new long[st.n];
      // a pass's state, made by the first rank to need it (the same whoever makes it), dropped when all have finished
      Map<Long, Pass> open = new ConcurrentHashMap<>();
      return mpi -> {
        for (long k = 0; passes == 0 || k < passes; k++) {
          final long pass = k;
          Pass p = open.computeIfAbsent(pass, x -> new Pass(pass == 0 ? st : st.nextPass()));
          long began = mpi.now();
          new RankReplay(p.state, mpi).replay();
          passesDone[mpi.rank()] = pass + 1;
          if (p.finished.incrementAndGet() == st.n) {
            open.remove(pass);
          }
          if (passes == 0 && mpi.now() == began) {
            throw new TraceReplayException(file, mpi.rank(), 0, "the background trace's pass " + (pass + 1) + " took"
                + " this rank no simulated time (nothing in it costs time: only init and finalize, or local work"
                + " whose time is skipped), so repeated without end it would run pass after pass at the same instant"
                + " and the run would never end; give the background a number of passes (--background-steps N; run's"
                + " -p backgroundSteps=N) or, if the trace records time between calls or compute, replay that time"
                + " (--compute as-traced)", null);
          }
        }
      };
    }

    /**
     * @return how far the ranks of a {@link #repeatingProgram} came, as "N passes finished by every rank, M by the
     *     furthest", or null when this replay was not repeated
     */
    String passes() {
      if (passesDone == null) {
        return null;
      }
      long min = Long.MAX_VALUE;
      long max = 0;
      for (long d : passesDone) {
        min = Math.min(min, d);
        max = Math.max(max, d);
      }
      return min + (min == 1 ? " pass" : " passes") + " finished by every rank, " + max + " by the furthest";
    }

    /** @return the trace's file */
    String file() {
      return file;
    }

    /** A heap exhausted outside a rank's own call: named with the last running rank's call, else rethrown. */
    void heapExhausted(OutOfMemoryError e) {
      RankReplay failing = st.lastRunning();
      if (failing == null) {
        throw e;
      }
      throw TraceReplay.outOfMemory(file, failing.rank, failing.callIndex, failing.call, st.ranks.length, e);
    }

    /**
     * What a failed run of the job means for the trace: throws it as a {@link TraceReplayException}, or keeps it
     * for {@link #finish} (sends no receive matched, which finish names with their calls).
     */
    void failed(RuntimeException e) {
      String m = e.getMessage() == null ? "" : e.getMessage();
      if (e instanceof IllegalStateException x && m.startsWith(MpiJob.UNFINISHED)) {
        unfinished = x; // the sends no receive matched are named below, with their trace calls
        return;
      } else if (e instanceof IllegalStateException x && m.startsWith("MPI program deadlocked")) {
        throw deadlock(st, x);
      } else if (e instanceof IllegalStateException && m.startsWith(MpiJob.DISAGREEMENT)) {
        // the trace's ranks disagree on a collective (a bcast whose ranks name different roots replayed as each
        // rank's own): the MPI layer's report names the collective, the ranks and their arguments
        throw new TraceReplayException(file, TraceReplayException.NO_RANK, 0, "the trace's ranks disagree on a"
            + " collective: " + m, e);
      } else if (e instanceof IllegalStateException) {
        throw e;
      }
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof TraceReplayException x) {
          throw x;
        }
      }
      RankReplay failing = st.lastRunning();
      // (a rank's own allocations are reported by its replay; this is the heap running out elsewhere in the run)
      for (Throwable t = e; t != null && failing != null; t = t.getCause()) {
        if (t instanceof OutOfMemoryError oom) {
          throw outOfMemory(file, failing.rank, failing.callIndex, failing.call, st.ranks.length, oom);
        }
      }
      if (failing != null) {
        throw new TraceReplayException(file, failing.rank, failing.callIndex, "the MPI layer refused "
            + describe(failing.call) + ": " + rootMessage(e), e);
      }
      throw e;
    }

    /** After the run: names the sends no receive matched, or gives the result (the whole fabric's link figures). */
    ReplayResult finish() {
      return finish(null);
    }

    /**
     * After the run: names the sends no receive matched, or gives the result.
     *
     * @param links the fabric's busy time by source node, for link figures of this job's own packets; null for the
     *     whole fabric's (a trace alone, whose packets are all the fabric's)
     */
    ReplayResult finish(LinkTally links) {
      for (RankReplay r : st.ranks) {
        if (r != null) {
          r.dropCancelledSends();
        }
        if (r != null && r.done) {
          r.collectUnobservedReceives();
        }
      }
      // a send no receive matched never completes a receive: report the first few
      List<String> unmatched = new ArrayList<>();
      long unmatchedCount = 0;
      int firstRank = TraceReplayException.NO_RANK;
      long firstCall = 0;
      for (Map.Entry<Key, ArrayDeque<long[]>> e : new TreeMap<>(st.inFlight).entrySet()) {
        for (long[] s : e.getValue()) { // after the run: no rank adds or takes any more
          unmatchedCount++;
          if (unmatched.size() < 8) {
            Key k = e.getKey();
            if (firstRank == TraceReplayException.NO_RANK) {
              firstRank = k.source();
              firstCall = s[1];
            }
            unmatched.add("rank " + k.source() + " call " + s[1] + " to rank " + k.destination() + " tag " + k.tag()
                + " (" + s[2] + " bytes)");
          }
        }
      }
      if (unmatchedCount > 0) {
        throw new TraceReplayException(file, firstRank, firstCall, unmatchedCount
            + " sends that no receive of the trace matched: " + String.join("; ", unmatched)
            + (unmatchedCount > unmatched.size() ? "; ..." : ""), unfinished);
      }
      if (unfinished != null) {
        throw new TraceReplayException(file, TraceReplayException.NO_RANK, 0, unfinished.getMessage(), unfinished);
      }
      if (links != null && tallyAtStart == null) {
        throw new IllegalStateException("a result read from a link tally needs the tally noted before the run");
      }
      return result(st, job, nodes, coverage, startPs, eventsBefore, links, links == null ? busyAtStart : tallyAtStart);
    }
  }

  private ReplayResult result(State st, MpiJob job, int[] nodes, List<RankCoverage> coverage, long startPs,
      long eventsBefore, LinkTally links, long[] busyBefore) {
    ImmutableMap.Builder<String, Long> linkBytes = ImmutableMap.builder();
    ImmutableMap.Builder<String, Double> linkUtil = ImmutableMap.builder();
    long sim = job.lastRunPs();
    // The links' busy time counts every packet of the run, the NICs' trailing acknowledgements and completion writes
    // after the last rank returned included, so it is divided by the run's whole span, as the system's statistics
    // divide it (it was divided by the program's time, and the two outputs gave two utilizations of one link).
    long elapsed = system.now() - startPs;
    if (system.routerFabric().isPresent()) {
      RouterFabric f = system.routerFabric().get();
      Topology t = system.topology();
      for (int c = 0; c < f.linkClassCount(); c++) {
        if (f.linkCount(c) == 0) {
          continue;
        }
        // the job's own packets' busy time when the fabric's is split by source node (beside other jobs; until stop
        // 68 every job's and the background's were counted as the first trace's), else every packet's
        long busy = (links == null ? f.busyPs(c) : links.busyPs(nodes, c)) - busyBefore[c];
        linkBytes.put(t.linkClassName(c), Math.round(busy * t.linkBandwidth(c) / 1e12));
        linkUtil.put(t.linkClassName(c), elapsed == 0 ? 0.0 : busy / ((double) f.linkCount(c) * elapsed));
      }
    }
    // each rank's counts and samples, merged in rank order (sums of longs, and samples sorted below: the same in any
    // order, so the same for every thread count and as when the ranks shared one set)
    long[] callCounts = new long[CallKind.values().length];
    long delivered = 0;
    long deliveredBytes = 0;
    long requestsNotStarted = 0;
    long requestsAlreadyCompleted = 0;
    long unknownSizes = 0;
    long folded = 0;
    long receivesUnmatched = 0;
    long wallGaps = 0;
    long cpuGaps = 0;
    long flopActions = 0;
    int samples = 0;
    for (RankReplay r : st.ranks) {
      if (r != null) {
        samples = Math.addExact(samples, r.latencyCount);
      }
    }
    long[] lat = new long[samples];
    int at = 0;
    for (RankReplay r : st.ranks) {
      if (r == null) {
        continue; // a rank whose process never started (the run failed first)
      }
      for (int k = 0; k < callCounts.length; k++) {
        callCounts[k] += r.calls[k];
      }
      delivered += r.delivered;
      deliveredBytes += r.deliveredBytes;
      requestsNotStarted += r.requestsNotStarted;
      requestsAlreadyCompleted += r.requestsAlreadyCompleted;
      unknownSizes += r.unknownSizes;
      folded += r.foldedOperations;
      receivesUnmatched += r.receivesUnmatched;
      wallGaps += r.wallClockGaps;
      cpuGaps += r.cpuTimeGaps;
      flopActions += r.flopActions;
      System.arraycopy(r.latencies, 0, lat, at, r.latencyCount);
      at += r.latencyCount;
    }
    EnumMap<CallKind, Long> calls = new EnumMap<>(CallKind.class);
    Map<String, Long> coll = new LinkedHashMap<>();
    for (CallKind k : CallKind.values()) {
      long v = callCounts[k.ordinal()];
      if (v > 0) {
        calls.put(k, v);
        if (k.family() == CallKind.Family.COLLECTIVE) {
          coll.put(k.name().toLowerCase(Locale.ROOT), v);
        }
      }
    }
    Arrays.sort(lat); // the percentiles, and the mean's sum, read the samples in sorted order
    ReplayResult.Latency l;
    if (lat.length == 0) {
      l = ReplayResult.Latency.NONE; // no message: no figures (they were 0 ns)
    } else {
      double sum = 0;
      for (long v : lat) {
        sum += v;
      }
      l = new ReplayResult.Latency(lat.length, lat[0] / 1e3, pct(lat, 50) / 1e3, pct(lat, 90) / 1e3,
          pct(lat, 99) / 1e3, lat[lat.length - 1] / 1e3, sum / lat.length / 1e3);
    }
    return new ReplayResult(st.n, ImmutableIntArray.copyOf(nodes), sim, elapsed, ImmutableLongArray.copyOf(st.commPs),
        ImmutableLongArray.copyOf(st.computePs), delivered, deliveredBytes, job.messages(), job.bytesSent(), l,
        linkBytes.build(), linkUtil.build(), ImmutableMap.copyOf(calls), ImmutableMap.copyOf(coll),
        new TraceCoverage(trace.format(), coverage), system.eventsExecuted() - eventsBefore, requestsNotStarted,
        requestsAlreadyCompleted, unknownSizes, receivesUnmatched, folded, compute, wallGaps, cpuGaps, flopsPerSecond,
        flopActions);
  }

  /**
   * The slot of each rank's replay state that its thread owns: on the single loop one for all (ranks run one at a
   * time), on an engine the dragonfly group of the rank's node (whose ranks run one at a time on its thread).
   */
  private int[] slots(int[] nodes) {
    int[] slot = new int[nodes.length];
    if (system.engine().isPresent()) {
      for (int r = 0; r < nodes.length; r++) {
        slot[r] = system.groupOfNode(nodes[r]);
      }
    }
    return slot;
  }

  private static long pct(long[] sorted, int p) {
    int idx = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, idx))];
  }

  private TraceReplayException deadlock(State st, IllegalStateException e) {
    StringBuilder s = new StringBuilder("the replay deadlocked because the trace does: ranks left waiting");
    int first = TraceReplayException.NO_RANK;
    long firstCall = 0;
    int shown = 0;
    for (RankReplay r : st.ranks) {
      if (r != null && !r.done) {
        if (first == TraceReplayException.NO_RANK) {
          first = r.rank;
          firstCall = r.callIndex;
        }
        if (shown++ < 16) {
          s.append("\n  rank ").append(r.rank).append(", call ").append(r.callIndex).append(" (")
              .append(describe(r.call)).append(')');
        }
      }
    }
    if (first == TraceReplayException.NO_RANK) {
      s.append(" in MPI_Finalize (every rank's trace ended)");
    }
    s.append("\n").append(e.getMessage());
    return new TraceReplayException(st.file, first, firstCall, s.toString(), e);
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }

  /**
   * The one line for a heap too small for the replay: the call, the rank, what the call's buffers take on the rank
   * (the replay allocates the traced sizes, each rank its own, all held until the call completes) and what to do.
   */
  static TraceReplayException outOfMemory(String file, int rank, long callIndex, TraceCall call,
      int ranks, OutOfMemoryError e) {
    long bytes = call == null ? 0 : bufferBytes(call, ranks);
    return new TraceReplayException(file, rank, callIndex, "out of memory (Java heap) replaying " + describe(call)
        + (bytes > 0 ? ": its buffers take up to " + bytes + " bytes on this rank, and every rank in it holds its own"
            + " at once" : "") + "; give the JVM more heap (ARIES_JAVA_OPTS=-Xmx<size> with ./aries, else java"
        + " -Xmx<size>; the maximum now is " + Runtime.getRuntime().maxMemory() + " bytes)", e);
  }

  /**
   * Up to how many bytes of buffers a call takes on one rank as the replay allocates them (traced sizes; a per-peer
   * collective's block once per rank of the world, the most a root takes).
   */
  static long bufferBytes(TraceCall c, int ranks) {
    if (c instanceof TraceCall.PointToPoint p) {
      return Math.max(p.bytes(), 0);
    }
    if (c instanceof TraceCall.SendReceive s) {
      return Math.max(s.sendBytes(), 0) + Math.max(s.receiveBytes(), 0);
    }
    if (c instanceof TraceCall.Collective k) {
      long send = k.sendBytesPerRank().length() > 0 ? nonNegativeSum(k.sendBytesPerRank())
          : Math.max(k.sendBytes(), 0);
      long receive = k.receiveBytesPerRank().length() > 0 ? nonNegativeSum(k.receiveBytesPerRank())
          : Math.max(k.receiveBytes(), 0);
      return switch (k.kind()) {
        case ALLTOALL, ALLGATHER, GATHER, SCATTER -> Math.max(send, receive) * (ranks + 1L);
        default -> send + receive;
      };
    }
    return 0;
  }

  private static long nonNegativeSum(ImmutableLongArray a) {
    long s = 0;
    for (int i = 0; i < a.length(); i++) {
      s += Math.max(a.get(i), 0);
    }
    return s;
  }

  static String describe(TraceCall c) {
    if (c == null) {
      return "before its first call";
    }
    if (c instanceof TraceCall.PointToPoint p) {
      return p.kind() + (p.isSend() ? " to " : " from ") + p.peer() + " tag " + p.tag() + ", " + p.bytes()
          + " bytes" + (p.request() == TraceCall.REQUEST_NULL ? "" : ", request " + p.request());
    }
    if (c instanceof TraceCall.Completion w) {
      return w.kind() + " of requests " + w.requests();
    }
    if (c instanceof TraceCall.RequestCall q) {
      return q.kind() + " of requests " + q.requests();
    }
    if (c instanceof TraceCall.Collective k) {
      return k.kind() + " on communicator " + k.communicator();
    }
    if (c instanceof TraceCall.OneSided o) {
      return o.kind() + " to " + o.target() + " on window " + o.window() + ", " + o.originBytes() + " bytes";
    }
    if (c instanceof TraceCall.WindowCall w) {
      return w.kind() + " on window " + w.window();
    }
    return c.kind().toString();
  }

  private static long largestBytes(TraceCall c) {
    if (c instanceof TraceCall.PointToPoint p) {
      return p.bytes();
    }
    if (c instanceof TraceCall.SendReceive s) {
      return Math.max(s.sendBytes(), s.receiveBytes());
    }
    if (c instanceof TraceCall.Collective k) {
      long m = Math.max(k.sendBytes(), k.receiveBytes());
      for (int i = 0; i < k.sendBytesPerRank().length(); i++) {
        m = Math.max(m, k.sendBytesPerRank().get(i));
      }
      for (int i = 0; i < k.receiveBytesPerRank().length(); i++) {
        m = Math.max(m, k.receiveBytesPerRank().get(i));
      }
      return m;
    }
    if (c instanceof TraceCall.OneSided o) {
      return Math.max(o.originBytes(), o.targetBytes());
    }
    return 0;
  }

  /**
   * Bytes a replay's window holds beyond the trace's (or the cap's): an accumulate combines whole 8-byte elements, so
   * one of 4 bytes at a window's last 4 rounds up past its end. Until stop 74 the rounding was checked against the
   * trace's size, and a 4-byte accumulate into a 4-byte window (a counter) was refused.
   */
  static final int ACCUMULATE_SLACK = 7;

  /** The least a replay's window holds (its bytes are never looked at; see {@link State#windowBytes}). */
  static final int MIN_WINDOW_BYTES = 1 << 20;

  /** A send's place among the sends in flight: its key and its note there. */
  private record SendNote(Key key, long[] sent) {}

  /** A trace window: the MPI layer's, the communicator it was made over, and whether a test ended its exposure. */
  private static final class Win {
    final Window window;
    final Communicator comm;
    boolean endedEarly;

    Win(Window window, Communicator comm) {
      this.window = window;
      this.comm = comm;
    }
  }

  /**
   * The trace model's assertion bits as the MPI layer's {@code MODE_*} values, without those that change the
   * synchronization: {@code MODE_NOCHECK}, {@code MODE_NOPRECEDE} and {@code MODE_NOSUCCEED} are legal only when every
   * rank concerned asserts them together (MPI 3.1 §11.5.5: a start's NOCHECK iff its posts', a fence's NOPRECEDE and
   * NOSUCCEED on all ranks or none), and a trace may keep them for some ranks only: libdumpi stores an assertion of
   * several bits as {@code DUMPI_MODE_ERROR}, read as none (docs/traces.md), so a rank's NOSUCCEED|NOSTORE is lost while
   * its neighbour's NOSUCCEED stays. They only let an implementation skip work, so leaving them out is always correct;
   * until stop 74 the replay passed them on, and such a legal trace ended in a false deadlock report or with
   * communication unfinished. {@code MODE_NOSTORE} and {@code MODE_NOPUT} are each rank's own and pass.
   */
  static int modes(int traceBits) {
    int m = 0;
    m |= (traceBits & TraceCall.MODE_NOSTORE) != 0 ? Mpi.MODE_NOSTORE : 0;
    m |= (traceBits & TraceCall.MODE_NOPUT) != 0 ? Mpi.MODE_NOPUT : 0;
    return m;
  }

  /** A pass of a repeated replay: its state, and how many ranks have finished it. */
  private record Pass(State state, AtomicInteger finished) {
    Pass(State state) {
      this(state, new AtomicInteger());
    }
  }

  /**
   * What the ranks share. On a partitioned engine ranks of different groups run at the same time on different
   * threads, so each field is one of: read-only after set-up; one slot per rank (written by that rank only) or per
   * {@link #slotOf slot} (written by that slot's thread only), read after the run; or, for {@link #inFlight} and the
   * progress count, safe for concurrent use.
   */
  private static final class State {
    final int n;
    final int maxBytes;
    final long total;
    final String file;
    /** Each rank's slot: 0 on the single loop, its node's group on an engine. */
    final int[] slotOf;
    final RankReplay[] ranks;
    final long[] commPs;
    final long[] computePs;
    /**
     * (source, destination, tag) → sends not yet received: {post time ps, call index, bytes}. The send time reaches
     * the receiver outside the network, only for the latency statistic. A queue is touched only inside the map's
     * atomic per-key {@code compute} (the sender adds, the receiver takes and removes an emptied queue), so it is
     * safe across threads; and it is deterministic, as a sender notes a send before making it, and the receive that
     * matched it completes later on the same thread or, in another group, at least one window later (the window's
     * barrier orders the two).
     */
    final Map<Key, ArrayDeque<long[]>> inFlight = new ConcurrentHashMap<>();
    /** Calls a rank replays between two additions to {@link #replayed}: 1 on the loop, about 1% of its share else. */
    final long progressEvery;
    /** Guards {@link #replayed}, {@link #nextReport} and {@link #reportedPs}, and keeps reports one at a time. */
    final Object progressLock = new Object();
    long replayed;
    long nextReport;
    long reportedPs;
    /** The rank whose replay ran last, by slot (a failure outside any rank's call is charged to it). */
    final RankReplay[] current;
    /** The send and receive buffer of the ranks of a slot, by slot: the bytes are never looked at. */
    final byte[][] scratch;
    /**
     * The most a replay's window holds: the trace's largest one-sided operation, at least {@link #MIN_WINDOW_BYTES}
     * (a trace records no data, and a window of the trace's own size on every rank could exceed the heap).
     */
    int windowBytes = MIN_WINDOW_BYTES;

    State(int n, int maxBytes, long total, String file, int[] slotOf, int slots) {
      this.n = n;
      this.maxBytes = maxBytes;
      this.total = total;
      this.file = file;
      this.slotOf = slotOf;
      this.ranks = new RankReplay[n];
      this.commPs = new long[n];
      this.computePs = new long[n];
      this.current = new RankReplay[slots];
      this.scratch = new byte[slots][];
      if (slots == 1) {
        // the single loop (or an engine of one group): one buffer, as large as the largest message, as it always was
        scratch[0] = new byte[maxBytes];
        this.progressEvery = 1;
      } else {
        // groups' buffers grow to their own ranks' largest message; a rank adds to the shared count about 100 times
        Arrays.fill(scratch, new byte[0]);
        this.progressEvery = Math.max(1, total / (100L * n));
      }
    }

    /**
     * A pass's state that shares with {@code first} what no pass's result needs: the ranks' slots and times (a
     * repeated replay keeps no result) and the scratch buffers (never read; a slot's are used only by its own
     * thread); its notes of sends in flight and its progress count are its own.
     */
    private State(State first) {
      this.n = first.n;
      this.maxBytes = first.maxBytes;
      this.total = first.total;
      this.file = first.file;
      this.slotOf = first.slotOf;
      this.ranks = first.ranks;
      this.commPs = first.commPs;
      this.computePs = first.computePs;
      this.current = first.current;
      this.scratch = first.scratch;
      this.progressEvery = first.progressEvery;
      this.windowBytes = first.windowBytes;
    }

    /**
     * @return the state of the next pass of a repeated replay: its own notes of sends in flight, the rest shared
     *     (until stop 73 each pass had arrays of every rank and, on the single loop, a scratch buffer as large as the
     *     trace's largest message of its own, so each pass a rank ran ahead of its peers kept that much)
     */
    State nextPass() {
      return new State(this);
    }

    /** @return the rank that ran last, of the lowest slot that ran any (on the loop: the rank that ran last) */
    RankReplay lastRunning() {
      for (RankReplay r : current) {
        if (r != null) {
          return r;
        }
      }
      return null;
    }
  }

  /** The messages a receive of (source, tag) at a destination matches in send order (non-overtaking). */
  private record Key(int source, int destination, int tag) implements Comparable<Key> {
    @Override
    public int compareTo(Key o) {
      int c = Integer.compare(source, o.source);
      if (c == 0) {
        c = Integer.compare(destination, o.destination);
      }
      return c != 0 ? c : Integer.compare(tag, o.tag);
    }
  }

  /** A traced persistent request: the MPI layer's (null for MPI_PROC_NULL), its communicator and its byte count. */
  private record Persistent(PersistentRequest request, Communicator comm, int bytes) {}

  /**
   * One trace rank replayed by one MPI rank. Its fields are written only by the rank's own code (on its group's thread
   * on an engine) and read by {@link TraceReplay#run} after the run.
   */
  private final class RankReplay {
    final State st;
    final Mpi mpi;
    final int rank;
    final int slot;
    final Map<Long, Request> requests = new HashMap<>();
    final Map<Request, Communicator> receiveComms = new HashMap<>();
    /** Persistent requests by handle, from their init call to their free (an activation in progress is in requests). */
    final Map<Long, Persistent> persistent = new HashMap<>();
    /** Requests the trace freed while active (MPI_Request_free): they complete unobserved. */
    final List<Request> detached = new ArrayList<>();
    final Map<Integer, Communicator> comms = new HashMap<>();
    /** Cartesian communicators' grids (MPI_Cart_create, MPI_Cart_sub, kept by MPI_Comm_dup), by communicator id. */
    final Map<Integer, int[]> grids = new HashMap<>();
    /** The trace's groups, each its members' world ranks in group order, by group id. */
    final Map<Integer, int[]> groups = new HashMap<>();
    /** The trace's windows by id, from their creation to their free. */
    final Map<Integer, Win> windows = new HashMap<>();
    /** Each request handle's last nonblocking send, for a cancel that names it. */
    final Map<Long, SendNote> sendNotes = new HashMap<>();
    /** Sends the trace cancelled, with their notes: those the MPI layer took back leave the sends in flight. */
    final Map<Request, SendNote> cancelledSends = new LinkedHashMap<>();
    long callIndex;
    TraceCall call;
    long lastExitNanos = Long.MIN_VALUE;
    /** The clock of {@link #lastExitNanos}: a gap is taken only between two calls timed on one clock. */
    CallTiming.Clock lastExitClock;
    /** Gaps between calls replayed as compute, from wall-clock and from CPU times. */
    long wallClockGaps;
    long cpuTimeGaps;
    /** Compute actions and collectives' reduction work whose flops were replayed as time. */
    long flopActions;
    boolean done;
    /** Calls replayed by kind. */
    final long[] calls = new long[CallKind.values().length];
    /** Latency samples of the messages it received, picoseconds, in the order it saw them complete. */
    long[] latencies = new long[16];
    int latencyCount;
    long delivered;
    long deliveredBytes;
    long requestsNotStarted;
    /** Calls naming a request a test of the trace had completed (a SimGrid wait after its successful test). */
    long requestsAlreadyCompleted;
    /**
     * Handles whose request a test of the trace completed, until a call starts another under them: a later call naming
     * one counts as already completed, not as not started.
     */
    final Set<Long> completedByTest = new HashSet<>();
    long unknownSizes;
    long receivesUnmatched;
    /** One-sided operations whose place lay beyond the replay's window, folded into it. */
    long foldedOperations;
    /** Calls replayed not yet added to the shared progress count. */
    long unreported;

    RankReplay(State st, Mpi mpi) {
      this.st = st;
      this.mpi = mpi;
      this.rank = mpi.rank();
      this.slot = st.slotOf[rank];
      st.ranks[rank] = this;
      comms.put(TraceCall.COMM_WORLD, mpi.world());
    }

    void replay() {
      try (RankTrace s = trace.open(rank)) {
        for (TraceCall c; (c = s.read()) != null; ) {
          call = c;
          callIndex++;
          mpi.callSite(callIndex); // quoted by the MPI layer's report of ranks that disagree on a collective
          st.current[slot] = this;
          calls[c.kind().ordinal()]++;
          computeBefore(c);
          long t0 = mpi.now();
          long computedBefore = st.computePs[rank];
          perform(c);
          st.current[slot] = this;
          // (less a collective's reduction work, which perform counts as compute)
          st.commPs[rank] += mpi.now() - t0 - (st.computePs[rank] - computedBefore);
          if (c.timing().isRecorded()) {
            lastExitNanos = c.timing().exitNanos();
            lastExitClock = c.timing().clock();
          }
          if (++unreported >= st.progressEvery) {
            reportProgress();
          }
        }
        if (unreported > 0) {
          reportProgress();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e); // the first pass read every stream: only a file changed under us
      } catch (TraceReplayException e) {
        throw e;
      } catch (RuntimeException e) {
        throw new TraceReplayException(st.file, rank, callIndex, "the MPI layer refused " + describe(call) + ": "
            + rootMessage(e), e);
      } catch (OutOfMemoryError e) {
        throw outOfMemory(st.file, rank, callIndex, call, st.ranks.length, e);
      }
      done = true;
    }

    /**
     * After the run (every rank finalized): the receives the trace posted and never waited for. One the MPI layer
     * completed (its message came, as in SMPI's test loops, whose last, successful test is all a SimGrid trace keeps,
     * so that no wait follows) counts as received, and its send as matched; one still open counts as unmatched.
     */
    void collectUnobservedReceives() {
      List<Request> open = new ArrayList<>(requests.values());
      open.addAll(detached);
      for (Request r : open) {
        if (r == null || r.kind() != Request.Kind.RECEIVE) {
          continue;
        }
        Communicator rc = receiveComms.get(r);
        if (r.isCancelled()) {
          continue; // taken back: neither received nor unmatched
        }
        if (r.isComplete() && rc != null) {
          received(r, rc);
        } else if (!r.isComplete()) {
          receivesUnmatched++;
        }
      }
    }

    /**
     * Adds the calls replayed since the last time to the shared count, and reports when another 1% is done. On the
     * single loop this runs after every call, as ranks take turns; on an engine ranks of several threads add, so the
     * lock keeps the count exact and the reports one at a time, with fraction and time never going back (a group's
     * clock may be behind another's within a window). Reports never change what is simulated.
     */
    private void reportProgress() {
      synchronized (st.progressLock) {
        st.replayed += unreported;
        unreported = 0;
        if (st.replayed >= st.nextReport) {
          st.nextReport = st.replayed + Math.max(1, st.total / 100);
          st.reportedPs = Math.max(st.reportedPs, mpi.now());
          progress.update(Math.min(1.0, (double) st.replayed / Math.max(1, st.total)), st.reportedPs);
        }
      }
    }

    /**
     * The slot's scratch buffer, at least {@code bytes} long. On the single loop it is the one buffer sized for the
     * trace's largest message; on an engine a group's buffer grows to its ranks' largest (a receive still pending in
     * the old one keeps it: the bytes are never looked at).
     */
    private byte[] scratch(int bytes) {
      byte[] b = st.scratch[slot];
      if (b.length < bytes) {
        b = new byte[(int) Math.min(st.maxBytes, Math.max(bytes, 2L * b.length))];
        st.scratch[slot] = b;
      }
      return b;
    }

    private void computeBefore(TraceCall c) {
      if (compute.kind() == ComputeMode.Kind.SKIP) {
        return;
      }
      double ns = 0;
      boolean idle = false;
      if (c instanceof TraceCall.Local l) {
        // a sleep is time with nothing to do, which OS noise does not stretch (until stop 68 it was work)
        idle = l.kind() == CallKind.SLEEP;
        ns = idle ? l.nanos() : l.flops() / flopsPerSecond * 1e9;
        if (!idle && l.flops() > 0) {
          flopActions++;
        }
      } else if (c.timing().isRecorded() && lastExitNanos != Long.MIN_VALUE && c.timing().clock() == lastExitClock) {
        // the wall-clock gap, or in a trace that recorded only CPU times (DUMPI's timestamps=cpu) the process's CPU
        // time between the calls, which stands in for its compute (until stop 75 such a trace replayed as skip)
        ns = Math.max(0, c.timing().entryNanos() - lastExitNanos);
        if (c.timing().clock() == CallTiming.Clock.WALL) {
          wallClockGaps++;
        } else {
          cpuTimeGaps++;
        }
      }
      spendCompute(ns, idle ? "its sleep" : "its local work before it", idle);
    }

    /**
     * A collective's reduction work as the trace states it (SimGrid's {@code reduce}, {@code allreduce}, {@code
     * reducescatter}, {@code scan} flops), after the collective, as SMPI's replay executes it; not under {@code
     * skip}. It was dropped: a replay of {@code actions_allreduce.txt} as traced was 0.5 s short.
     */
    private void computeAfter(TraceCall.Collective k) {
      if (compute.kind() != ComputeMode.Kind.SKIP && k.reductionFlops() > 0) {
        flopActions++;
        spendCompute(k.reductionFlops() / flopsPerSecond * 1e9, "its reduction work", false);
      }
    }

    /**
     * Spends {@code ns} of compute on this rank's clock: work, scaled by the compute mode, or with {@code idle} time
     * with nothing to do (a sleep: {@link MpiJob#idle}, which OS noise does not stretch), as long as the trace says
     * whatever the scale: a faster core sleeps as long, as SimGrid's replay sleeps whatever the host's speed (until
     * stop 75 {@code scale:0.5} halved a sleep too).
     */
    private void spendCompute(double ns, String what, boolean idle) {
      double psExact = ns * 1e3 * (idle ? 1 : compute.factor());
      if (!(psExact < AriesSystem.PROGRAM_CLOCK_END_PS - mpi.now())) {
        // (a compute of 1e300 flops used to end the replay at the clock's end, silently, or as a negative time; the
        // MPI layer keeps the clock's last 10^15 ps for the communication after a compute)
        // (in the user's words: it named AriesSystem.PROGRAM_CLOCK_END_PS and Long.MAX_VALUE, until stop 73)
        throw fail(what + ", " + psExact + " ps (" + compute + "), would end past the simulated"
            + " clock's end for a program, " + String.format(Locale.ROOT, "%,d", AriesSystem.PROGRAM_CLOCK_END_PS)
            + " ps (about " + Math.round(AriesSystem.PROGRAM_CLOCK_END_PS / 86_400e12) + " days; the clock's last "
            + String.format(Locale.ROOT, "%,d", AriesSystem.PROGRAM_CLOCK_RESERVE_PS / 1_000_000_000_000L) + " s are"
            + " kept for the communication after it)");
      }
      long ps = Math.round(psExact);
      if (ps > 0) {
        long t = mpi.now();
        try {
          if (idle) {
            MpiJob.idle(mpi, ps);
          } else {
            mpi.compute(ps);
          }
        } catch (IllegalArgumentException e) {
          // the nodes' noise stretches it past the clock's end: named with its call, as the compute's own overflow is
          // (it read "the MPI layer refused ALLREDUCE ...: long overflow")
          throw fail(what + ", " + ps + " ps (" + compute + "), under the nodes' OS noise: " + e.getMessage());
        }
        // as long as it took: under OS noise the detours inside it are the compute's (until stop 68 only its length
        // was booked, so a stretched compute between calls lost its stretch and a reduction's went to communication)
        st.computePs[rank] += mpi.now() - t;
      }
    }

    private Communicator comm(int id) {
      Communicator c = comms.get(id);
      if (c == null) {
        throw fail("communicator " + id + " is not one the trace created (or it was freed)");
      }
      return c;
    }

    private TraceReplayException fail(String problem) {
      return new TraceReplayException(st.file, rank, callIndex, describe(call) + ": " + problem, null);
    }

    private int sendBytes(long b) {
      if (b < 0) {
        unknownSizes++;
        return 0;
      }
      return (int) b;
    }

    private int recvBytes(long b) {
      if (b < 0) {
        unknownSizes++;
        return st.maxBytes;
      }
      return (int) b;
    }

    /** A send's destination and tag, or a receive's or probe's source and tag (wildcards allowed), checked. */
    private void checkPeerAndTag(TraceCall.PointToPoint p, Communicator c) {
      checkPeer(p.peer(), c, !p.isSend());
      if (p.tag() < (p.isSend() ? 0 : TraceCall.ANY_TAG)) {
        throw fail("tag " + p.tag() + " is negative");
      }
      if (p.tag() > Mpi.TAG_UB) {
        throw fail("tag " + p.tag() + " is above MPI_TAG_UB, " + Mpi.TAG_UB + " (MPICH's)");
      }
    }

    private void checkPeer(int peer, Communicator c, boolean receive) {
      if (peer >= c.size() || peer < (receive ? TraceCall.ANY_SOURCE : 0)) {
        throw fail("peer " + peer + " is outside the communicator's ranks 0 to " + (c.size() - 1));
      }
    }

    private void perform(TraceCall c) {
      if (c instanceof TraceCall.PointToPoint p) {
        pointToPoint(p);
      } else if (c instanceof TraceCall.SendReceive s) {
        sendReceive(s);
      } else if (c instanceof TraceCall.Completion w) {
        completion(w);
      } else if (c instanceof TraceCall.RequestCall q) {
        requestCall(q);
      } else if (c instanceof TraceCall.BufferCall b) {
        if (b.kind() == CallKind.BUFFER_ATTACH) {
          if (b.bytes() > Integer.MAX_VALUE) {
            throw fail("a buffer of " + b.bytes() + " bytes is larger than the MPI layer takes (" + Integer.MAX_VALUE
                + ")");
          }
          mpi.bufferAttach((int) b.bytes());
        } else {
          mpi.bufferDetach();
        }
      } else if (c instanceof TraceCall.Collective k) {
        collective(k);
      } else if (c instanceof TraceCall.CommunicatorCall k) {
        communicator(k);
      } else if (c instanceof TraceCall.Topology k) {
        topology(k);
      } else if (c instanceof TraceCall.GroupCall g) {
        groupCall(g);
      } else if (c instanceof TraceCall.WindowCall w) {
        windowCall(w);
      } else if (c instanceof TraceCall.OneSided o) {
        oneSided(o);
      } // Lifecycle: the MPI layer's own init and finalize; Local: computeBefore
    }

    private SendNote noteSend(Communicator c, int dest, int tag, int bytes) {
      long[] sent = {mpi.now(), callIndex, bytes};
      Key key = new Key(rank, c.worldRank(dest), tag);
      // the queue is changed only inside the map's atomic compute of its key (see State.inFlight)
      st.inFlight.compute(key, (k, q) -> {
        ArrayDeque<long[]> d = q != null ? q : new ArrayDeque<>();
        d.add(sent);
        return d;
      });
      return new SendNote(key, sent);
    }

    /**
     * After the run: a nonblocking send the trace cancelled and the MPI layer took back (MPICH CH3's send
     * cancellation) never reached a receive, so its note leaves the sends in flight (a receive takes its matched
     * send's note, so no receive took it; were it gone, as when a repeated replay's receive took the oldest note,
     * the last one of its key goes).
     */
    void dropCancelledSends() {
      for (Map.Entry<Request, SendNote> e : cancelledSends.entrySet()) {
        if (e.getKey().isCancelled()) {
          SendNote n = e.getValue();
          ArrayDeque<long[]> q = st.inFlight.get(n.key());
          if (q != null && (q.removeIf(x -> x == n.sent()) || q.pollLast() != null) && q.isEmpty()) {
            st.inFlight.remove(n.key());
          }
        }
      }
    }

    /**
     * Counts a receive the rank has seen complete and takes its send's note: the note of the sender's call that sent
     * the message it matched ({@link Request#senderCallSite}, the sender's call index), whatever order the trace
     * observes its receives in. Until stop 75 it took the oldest note of its (source, destination, tag) when the trace
     * observed the completion, and two receives of one key waited for in the reverse of their posting (a wait for B,
     * then for A) swapped their sends: a latency of -96.9 µs (the second send's time taken from the first's receive),
     * and a message on another communicator with the same source and tag could take the note too. The oldest note is
     * still taken when none is the matched call's (a repeated replay's receive that took the next pass's message).
     */
    private void received(Request r, Communicator c) {
      MpiStatus s = r.status();
      int src = c.worldRank(s.source());
      long site = r.senderCallSite();
      long[][] taken = new long[1][];
      st.inFlight.computeIfPresent(new Key(src, rank, s.tag()), (k, q) -> {
        taken[0] = takeNote(q, site);
        return q.isEmpty() ? null : q; // an emptied queue goes, atomically with the take: no send can be lost
      });
      long[] sent = taken[0];
      if (sent == null) {
        return; // every send of the trace is noted before it is made, so this is not expected
      }
      if (latencyCount == latencies.length) {
        latencies = Arrays.copyOf(latencies, latencies.length * 2);
      }
      latencies[latencyCount++] = r.completedAtPs() - sent[0];
      delivered++;
      deliveredBytes += s.count();
    }

    /**
     * Takes from a key's notes the first of the sender's call {@code site} (several when one {@code MPI_Startall}
     * sent them, all with the call's time), else the oldest.
     */
    private static long[] takeNote(ArrayDeque<long[]> q, long site) {
      if (site != 0) {
        for (Iterator<long[]> it = q.iterator(); it.hasNext(); ) {
          long[] n = it.next();
          if (n[1] == site) {
            it.remove();
            return n;
          }
        }
      }
      return q.poll();
    }

    private void pointToPoint(TraceCall.PointToPoint p) {
      Communicator c = comm(p.communicator());
      if (p.isPersistentInit()) {
        persistentInit(p, c);
        return;
      }
      if (p.peer() == TraceCall.PROC_NULL) {
        if (p.request() != TraceCall.REQUEST_NULL) {
          requests.put(p.request(), null);
        }
        return;
      }
      checkPeerAndTag(p, c);
      if (p.isSend()) {
        int b = sendBytes(p.bytes());
        SendNote note = noteSend(c, p.peer(), p.tag(), b);
        byte[] data = scratch(b);
        switch (p.kind()) {
          case SEND -> mpi.send(data, 0, b, p.peer(), p.tag(), c);
          case SSEND -> mpi.ssend(data, 0, b, p.peer(), p.tag(), c);
          case BSEND -> mpi.bsend(data, 0, b, p.peer(), p.tag(), c);
          case ISEND -> track(p.request(), mpi.isend(data, 0, b, p.peer(), p.tag(), c), null);
          case ISSEND -> track(p.request(), mpi.issend(data, 0, b, p.peer(), p.tag(), c), null);
          case IBSEND -> track(p.request(), mpi.ibsend(data, 0, b, p.peer(), p.tag(), c), null);
          default -> throw fail("not a send");
        }
        if (p.request() != TraceCall.REQUEST_NULL && p.kind() != CallKind.SEND && p.kind() != CallKind.SSEND
            && p.kind() != CallKind.BSEND) {
          sendNotes.put(p.request(), note); // (the handle's last nonblocking send: a cancel names it)
        }
        return;
      }
      switch (p.kind()) {
        case RECV -> {
          int b = recvBytes(p.bytes());
          Request r = mpi.irecv(scratch(b), 0, b, p.peer(), p.tag(), c);
          mpi.wait(r);
          received(r, c);
        }
        case IRECV -> {
          int b = recvBytes(p.bytes());
          track(p.request(), mpi.irecv(scratch(b), 0, b, p.peer(), p.tag(), c), c);
        }
        case PROBE -> mpi.probe(p.peer(), p.tag(), c);
        case IPROBE -> mpi.iprobe(p.peer(), p.tag(), c);
        default -> throw fail("not a point-to-point call");
      }
    }

    /**
     * Keeps a nonblocking call's request under its trace handle. A handle still held by a completed request is one
     * the traced run completed and freed in a call the trace did not record (an MPI library hands a handle out again
     * only after that): the old request is finished first, a receive counting as received, as a persistent init on
     * such a handle does. Until stop 75 it was dropped, and its message was reported as a send "that no receive of
     * the trace matched". A handle whose request is still active in the replay is refused: the trace cannot say where
     * the traced run completed it.
     */
    private void track(long id, Request r, Communicator recvComm) {
      if (id == TraceCall.REQUEST_NULL) {
        throw fail("a nonblocking call without a request handle");
      }
      Request old = requests.get(id);
      if (old != null && !old.isComplete()) {
        throw fail("request " + id + " is reused while still active");
      }
      if (persistent.containsKey(id)) {
        throw fail("request " + id + " is reused while it names a persistent request not yet freed");
      }
      if (requests.containsKey(id)) {
        finish(id, false);
      }
      completedByTest.remove(id);
      requests.put(id, r);
      if (recvComm != null) {
        receiveComms.put(r, recvComm);
      }
    }

    private void sendReceive(TraceCall.SendReceive s) {
      Communicator c = comm(s.communicator());
      List<Request> rs = new ArrayList<>(2);
      Request recv = null;
      if (s.destination() != TraceCall.PROC_NULL) {
        checkPeer(s.destination(), c, false);
        int b = sendBytes(s.sendBytes());
        noteSend(c, s.destination(), s.sendTag(), b);
        rs.add(mpi.isend(scratch(b), 0, b, s.destination(), s.sendTag(), c));
      }
      if (s.source() != TraceCall.PROC_NULL) {
        checkPeer(s.source(), c, true);
        int b = recvBytes(s.receiveBytes());
        recv = mpi.irecv(scratch(b), 0, b, s.source(), s.receiveTag(), c);
        rs.add(recv);
      }
      mpi.waitall(rs.toArray(new Request[0]));
      if (recv != null) {
        received(recv, c);
      }
    }

    /**
     * Completes a tracked request the rank has seen finish (or waits for it) and forgets its handle; a persistent
     * request's activation ends (a wait on a complete request costs nothing) and the request stays.
     */
    private void finish(long id, boolean wait) {
      sendNotes.remove(id);
      Request r = requests.remove(id);
      if (r == null) {
        return;
      }
      if (wait || persistent.containsKey(id)) {
        mpi.wait(r);
      }
      Communicator rc = receiveComms.remove(r);
      if (rc != null && !r.isCancelled()) {
        received(r, rc);
      }
    }

    private void completion(TraceCall.Completion w) {
      List<Long> known = new ArrayList<>();
      completeRequests(w, known);
      if (w.kind() == CallKind.TEST || w.kind() == CallKind.TESTALL || w.kind() == CallKind.TESTANY
          || w.kind() == CallKind.TESTSOME) {
        for (long id : known) {
          if (!requests.containsKey(id)) {
            completedByTest.add(id); // (finished by this test)
          }
        }
      }
    }

    /** The completion call itself: {@code known} gets the handles it names that name open requests. */
    private void completeRequests(TraceCall.Completion w, List<Long> known) {
      List<Request> live = new ArrayList<>();
      Set<Long> listed = w.requests().length() > 1 ? new HashSet<>() : null;
      for (int i = 0; i < w.requests().length(); i++) {
        long id = w.requests().get(i);
        if (id == TraceCall.REQUEST_NULL) {
          continue;
        }
        if (!requests.containsKey(id)) {
          if (!persistent.containsKey(id)) { // (an inactive persistent request: MPI returns at once)
            notOpen(id);
          }
          continue;
        }
        if (listed != null && !listed.add(id)) {
          // a handle listed twice (erroneous in MPI, which the MPI layer refuses): the traced run got past it, so the
          // replay passes it once, as it replayed it before stop 71
          continue;
        }
        known.add(id);
        Request r = requests.get(id);
        if (r != null) {
          live.add(r);
        }
      }
      switch (w.kind()) {
        case WAIT, WAITALL -> {
          mpi.waitall(live.toArray(new Request[0]));
          for (long id : known) {
            finish(id, false);
          }
        }
        default -> {
          if (w.outcomeRecorded()) {
            // follow the traced run: complete exactly what it completed
            for (int i = 0; i < w.completed().length(); i++) {
              long id = w.completed().get(i);
              if (requests.containsKey(id)) {
                finish(id, true);
              }
            }
            if (w.completed().isEmpty() && !live.isEmpty()) {
              mpi.test(live.get(0)); // a test that found nothing done still made one progress pass
            }
          } else if (w.kind() == CallKind.WAITANY || w.kind() == CallKind.WAITSOME) {
            if (!known.isEmpty()) {
              if (live.isEmpty()) {
                finish(known.get(0), false);
              } else {
                Request done = live.get(mpi.waitany(live.toArray(new Request[0])));
                for (long id : known) {
                  if (requests.get(id) == done || (w.kind() == CallKind.WAITSOME && isDone(id))) {
                    finish(id, false);
                  }
                }
              }
            }
          } else {
            // one progress pass for the call, as MPI makes one (a test of each request made one each, and each
            // found-nothing test an empty poll)
            Request[] each = live.toArray(new Request[0]);
            boolean all = false; // (read for TESTALL only)
            switch (w.kind()) {
              case TESTALL -> all = mpi.testall(each);
              case TESTANY -> mpi.testany(each);
              case TESTSOME -> mpi.testsome(each);
              default -> {
                for (Request r : each) { // MPI_Test: one request
                  mpi.test(r);
                }
              }
            }
            for (long id : known) {
              if (isDone(id) && (w.kind() != CallKind.TESTALL || all)) {
                finish(id, false);
                if (w.kind() == CallKind.TESTANY) {
                  break;
                }
              }
            }
          }
        }
      }
    }

    /**
     * {@code MPI_Send_init}, {@code MPI_Ssend_init} or {@code MPI_Recv_init}: the MPI layer's persistent request with
     * the call's arguments on a scratch buffer, under the call's handle (none for {@code MPI_PROC_NULL}: its starts
     * complete at once, as MPICH's {@code MPID_Startall} skips them).
     */
    private void persistentInit(TraceCall.PointToPoint p, Communicator c) {
      long id = p.request();
      if (id == TraceCall.REQUEST_NULL) {
        throw fail("a persistent request without a request handle");
      }
      if (requests.containsKey(id)) {
        Request old = requests.get(id);
        if (old != null && !old.isComplete()) {
          throw fail("request " + id + " is reused while still active");
        }
        finish(id, false); // a handle the traced run completed and freed (as after a test that saw it done)
      }
      completedByTest.remove(id);
      if (persistent.containsKey(id)) {
        throw fail("request " + id + " is reused while it names a persistent request not yet freed");
      }
      if (p.peer() == TraceCall.PROC_NULL) {
        persistent.put(id, new Persistent(null, c, 0));
        return;
      }
      checkPeerAndTag(p, c);
      int b = p.isSend() ? sendBytes(p.bytes()) : recvBytes(p.bytes());
      PersistentRequest q = switch (p.kind()) {
        case SEND_INIT -> mpi.sendInit(scratch(b), 0, b, p.peer(), p.tag(), c);
        case BSEND_INIT -> mpi.bsendInit(scratch(b), 0, b, p.peer(), p.tag(), c);
        case SSEND_INIT -> mpi.ssendInit(scratch(b), 0, b, p.peer(), p.tag(), c);
        case RECV_INIT -> mpi.recvInit(scratch(b), 0, b, p.peer(), p.tag(), c);
        default -> throw fail("not a persistent request's init");
      };
      persistent.put(id, new Persistent(q, c, b));
    }

    /** {@code MPI_Start}, {@code MPI_Startall}, {@code MPI_Request_free} or {@code MPI_Cancel}. */
    private void requestCall(TraceCall.RequestCall k) {
      if (k.kind() == CallKind.REQUEST_FREE) {
        free(k.requests().get(0));
        return;
      }
      if (k.kind() == CallKind.CANCEL) {
        long id = k.requests().get(0);
        Request r = requests.get(id);
        if (r != null) {
          mpi.cancel(r);
          SendNote n = sendNotes.get(id);
          if (r.kind() == Request.Kind.SEND && n != null) {
            cancelledSends.put(r, n);
          }
        } else if (id != TraceCall.REQUEST_NULL && !requests.containsKey(id) && !persistent.containsKey(id)) {
          notOpen(id); // (PROC_NULL's and an inactive persistent request's: nothing to take back)
        }
        return;
      }
      List<Long> ids = new ArrayList<>();
      List<PersistentRequest> toStart = new ArrayList<>();
      for (int i = 0; i < k.requests().length(); i++) {
        long id = k.requests().get(i);
        if (id == TraceCall.REQUEST_NULL) {
          continue;
        }
        Persistent q = persistent.get(id);
        if (q == null) {
          throw fail("request " + id + " is not a persistent request the trace created (or it was freed)");
        }
        if (requests.containsKey(id) || ids.contains(id)) {
          throw fail("request " + id + " is started again while its last start is active (no wait or test in the"
              + " trace completed it)");
        }
        ids.add(id);
        if (q.request() == null) {
          continue; // MPI_PROC_NULL
        }
        toStart.add(q.request());
        if (q.request().mode() != PersistentRequest.Mode.RECEIVE) {
          noteSend(q.comm(), q.request().peer(), q.request().tag(), q.bytes());
        }
      }
      Request[] started = mpi.startall(toStart.toArray(new PersistentRequest[0]));
      int next = 0;
      for (long id : ids) {
        Persistent q = persistent.get(id);
        Request r = q.request() == null ? null : started[next++];
        completedByTest.remove(id);
        requests.put(id, r);
        if (r != null && r.kind() == Request.Kind.RECEIVE) {
          receiveComms.put(r, q.comm());
        }
      }
    }

    /**
     * {@code MPI_Request_free}: forgets the handle; a persistent request goes, and an activation or nonblocking call
     * in progress completes unobserved (a receive's message counts as received if it came, {@link
     * #collectUnobservedReceives}). A handle no recorded call made is counted as not started.
     */
    private void free(long id) {
      if (id == TraceCall.REQUEST_NULL) {
        return;
      }
      boolean wasPersistent = persistent.remove(id) != null;
      sendNotes.remove(id);
      if (requests.containsKey(id)) {
        Request r = requests.remove(id);
        if (r != null) {
          detached.add(r);
        }
      } else if (!wasPersistent) {
        notOpen(id);
      }
    }

    /**
     * Counts a call's handle that names no open request: one a test of the trace completed (SimGrid's trace keeps a
     * request a test completed for its later wait, which SMPI's replay passes over; until stop 75 it was counted as not
     * started), or one no recorded call started (a trace that left calls out).
     */
    private void notOpen(long id) {
      if (completedByTest.contains(id)) {
        requestsAlreadyCompleted++;
      } else {
        requestsNotStarted++;
      }
    }

    private boolean isDone(long id) {
      Request r = requests.get(id);
      return r == null || r.isComplete();
    }

    private void communicator(TraceCall.CommunicatorCall k) {
      switch (k.kind()) {
        case COMM_SPLIT -> {
          Communicator parent = comm(k.communicator());
          Communicator c = mpi.split(parent, k.color() < 0 ? Mpi.UNDEFINED : k.color(), k.key());
          if (c != null && k.newCommunicator() != TraceCall.COMM_NULL) {
            comms.put(k.newCommunicator(), c);
          }
        }
        case COMM_DUP -> {
          Communicator c = mpi.dup(comm(k.communicator()));
          if (k.newCommunicator() != TraceCall.COMM_NULL) {
            comms.put(k.newCommunicator(), c);
            int[] grid = grids.get(k.communicator());
            if (grid != null) {
              grids.put(k.newCommunicator(), grid); // a duplicate keeps the topology
            } else {
              grids.remove(k.newCommunicator());
            }
          }
        }
        case COMM_FREE -> {
          if (k.communicator() != TraceCall.COMM_WORLD) {
            comms.remove(k.communicator());
            grids.remove(k.communicator());
          }
        }
        default -> throw fail("not a communicator call");
      }
    }

    /**
     * A communicator the trace made with a topology, by the MPI layer's split (each such communicator holds ranks of
     * the old one in their order, so a split by membership, keyed by rank or grid position, makes it): a Cartesian or
     * graph one of the old communicator's first ranks (MPI_Cart_create, MPI_Graph_create; the process order is kept,
     * as MPICH keeps it), or a Cartesian one's sub-grids (MPI_Cart_sub: the color the position in the dropped
     * dimensions, the key that in the kept ones, row-major, as MPICH's MPIR_Cart_sub splits).
     */
    private void topology(TraceCall.Topology k) {
      Communicator parent = comm(k.communicator());
      int me = parent.rank();
      int color;
      int key;
      int[] grid = null;
      switch (k.kind()) {
        case CART_CREATE, GRAPH_CREATE -> {
          long n = 1;
          for (int i = 0; i < k.dims().length(); i++) {
            n *= k.dims().get(i);
            if (n > parent.size()) {
              throw fail("the topology's " + k.dims() + " holds more processes than the communicator's "
                  + parent.size());
            }
          }
          color = me < n ? 0 : Mpi.UNDEFINED;
          key = me;
          grid = k.kind() == CallKind.CART_CREATE ? k.dims().toArray() : null;
        }
        case CART_SUB -> {
          int[] dims = grids.get(k.communicator());
          if (dims == null) {
            throw fail("communicator " + k.communicator() + " has no Cartesian topology");
          }
          if (k.dims().length() != dims.length) {
            throw fail("remain_dims has " + k.dims().length() + " entries for a grid of " + dims.length
                + " dimensions");
          }
          int[] coords = new int[dims.length];
          for (int i = dims.length - 1, r = me; i >= 0; i--) {
            coords[i] = r % dims[i];
            r /= dims[i];
          }
          color = 0;
          key = 0;
          int kept = 0;
          for (int i = 0; i < dims.length; i++) {
            if (k.dims().get(i) == 1) {
              key = key * dims[i] + coords[i];
              kept++;
            } else {
              color = color * dims[i] + coords[i];
            }
          }
          grid = new int[kept];
          for (int i = 0, j = 0; i < dims.length; i++) {
            if (k.dims().get(i) == 1) {
              grid[j++] = dims[i];
            }
          }
        }
        default -> throw fail("not a topology call");
      }
      Communicator c = mpi.split(parent, color, key);
      if (c != null && k.newCommunicator() != TraceCall.COMM_NULL) {
        comms.put(k.newCommunicator(), c);
        if (grid != null) {
          grids.put(k.newCommunicator(), grid);
        } else {
          grids.remove(k.newCommunicator());
        }
      }
    }

    /**
     * Groups are local: each is kept as its members' world ranks. MPI_Comm_create is the MPI layer's split of the old
     * communicator, the group's members keyed by their place in it and every other rank left out.
     */
    private void groupCall(TraceCall.GroupCall g) {
      switch (g.kind()) {
        case COMM_GROUP -> newGroup(g.result(), members(comm(g.communicator())));
        case GROUP_INCL, GROUP_EXCL -> {
          int[] from = group(g.group());
          boolean[] picked = new boolean[from.length];
          int[] incl = new int[g.ranks().length()];
          for (int i = 0; i < incl.length; i++) {
            int r = g.ranks().get(i);
            if (r >= from.length) {
              throw fail("rank " + r + " is outside group " + g.group() + " of " + from.length + " members");
            }
            picked[r] = true;
            incl[i] = from[r];
          }
          if (g.kind() == CallKind.GROUP_INCL) {
            newGroup(g.result(), incl);
          } else {
            int[] rest = new int[from.length];
            int n = 0;
            for (int r = 0; r < from.length; r++) {
              if (!picked[r]) {
                rest[n++] = from[r];
              }
            }
            newGroup(g.result(), Arrays.copyOf(rest, n));
          }
        }
        case GROUP_UNION, GROUP_INTERSECTION, GROUP_DIFFERENCE -> {
          int[] a = group(g.group());
          int[] b = group(g.otherGroup());
          Set<Integer> inB = new HashSet<>();
          for (int x : b) {
            inB.add(x);
          }
          // MPI: a union is the first group's members, then the second's not in it; an intersection and a
          // difference keep the first group's members that are (are not) in the second, in the first's order
          List<Integer> out = new ArrayList<>();
          for (int x : a) {
            if (g.kind() == CallKind.GROUP_UNION || inB.contains(x) == (g.kind() == CallKind.GROUP_INTERSECTION)) {
              out.add(x);
            }
          }
          if (g.kind() == CallKind.GROUP_UNION) {
            Set<Integer> inA = new HashSet<>(out);
            for (int x : b) {
              if (inA.add(x)) {
                out.add(x);
              }
            }
          }
          newGroup(g.result(), out.stream().mapToInt(Integer::intValue).toArray());
        }
        case GROUP_FREE -> groups.remove(g.group());
        case COMM_CREATE -> {
          Communicator parent = comm(g.communicator());
          int[] members = group(g.group());
          int place = -1;
          for (int i = 0; i < members.length && place < 0; i++) {
            if (members[i] == mpi.rank()) {
              place = i;
            }
          }
          Communicator c = mpi.split(parent, place < 0 ? Mpi.UNDEFINED : 0, place);
          if (c != null && g.result() != TraceCall.COMM_NULL) {
            comms.put(g.result(), c);
            grids.remove(g.result());
          }
        }
        default -> throw fail("not a group call");
      }
    }

    /**
     * A window call. A window is made over the trace's communicator with the trace's displacement unit, holding at most
     * {@link State#windowBytes}. A test the trace saw fail is one test here; when the model's epoch is over sooner, the
     * trace's later tests and its wait on that window pass without a call. A test the trace saw succeed is a wait.
     */
    private void windowCall(TraceCall.WindowCall k) {
      if (k.kind() == CallKind.WIN_CREATE) {
        if (windows.containsKey(k.window())) {
          throw fail("window " + k.window() + " is made again before it was freed");
        }
        Communicator c = comm(k.communicator());
        int bytes = (int) Math.min(k.bytes(), st.windowBytes);
        windows.put(k.window(), new Win(mpi.winCreate(new byte[bytes + ACCUMULATE_SLACK], k.displacementUnit(), c),
            c));
        return;
      }
      Win win = window(k.window());
      Window w = win.window;
      switch (k.kind()) {
        case WIN_FREE -> {
          mpi.winFree(w);
          windows.remove(k.window());
        }
        case WIN_FENCE -> mpi.winFence(modes(k.assertion()), w);
        case WIN_LOCK, WIN_UNLOCK -> {
          if (k.target() == TraceCall.PROC_NULL) {
            return; // MPI: a lock of the null process does nothing
          }
          checkPeer(k.target(), win.comm, false);
          if (k.kind() == CallKind.WIN_LOCK) {
            mpi.winLock(k.exclusive(), k.target(), modes(k.assertion()), w);
          } else {
            mpi.winUnlock(k.target(), w);
          }
        }
        case WIN_POST -> mpi.winPost(ranksIn(group(k.group()), win.comm), modes(k.assertion()), w);
        case WIN_START -> mpi.winStart(ranksIn(group(k.group()), win.comm), modes(k.assertion()), w);
        case WIN_COMPLETE -> mpi.winComplete(w);
        case WIN_GET_GROUP -> newGroup(k.group(), members(win.comm)); // (local: it moves nothing)
        case WIN_WAIT -> {
          if (!win.endedEarly) {
            mpi.winWait(w);
          }
          win.endedEarly = false;
        }
        case WIN_TEST -> {
          if (k.completed()) {
            if (!win.endedEarly) {
              mpi.winWait(w);
            }
            win.endedEarly = false;
          } else if (!win.endedEarly && mpi.winTest(w)) {
            win.endedEarly = true;
          }
        }
        default -> throw fail("not a window call");
      }
    }

    /**
     * A put, get or accumulate of the trace's size (the origin's, else the target's) at the trace's displacement, or,
     * when that lies beyond the replay's window, at the same place modulo the window (the data is never read).
     * An accumulate combines longs: its bytes rounded up to whole 8-byte elements.
     */
    private void oneSided(TraceCall.OneSided o) {
      Win win = window(o.window());
      if (o.target() == TraceCall.PROC_NULL) {
        return;
      }
      checkPeer(o.target(), win.comm, false);
      int bytes = sendBytes(o.originBytes() >= 0 ? o.originBytes() : o.targetBytes());
      Window w = win.window;
      int length = o.kind() == CallKind.ACCUMULATE ? (bytes + 7) / 8 * 8 : bytes;
      long size = w.sizeOf(o.target()) - ACCUMULATE_SLACK; // the trace's window (or the replay's cap)
      if (bytes > size) {
        throw fail("a " + o.kind() + " of " + bytes + " bytes does not fit rank " + o.target() + "'s window of "
            + size + " bytes");
      }
      int unit = w.displacementUnitOf(o.target());
      long disp = o.displacement();
      long at = disp > Long.MAX_VALUE / unit ? Long.MAX_VALUE : disp * unit; // the trace's byte offset
      if (at > size - bytes) {
        disp = at % (size - bytes + 1) / unit;
        foldedOperations++;
      }
      switch (o.kind()) {
        case PUT -> mpi.put(scratch(length), 0, length, o.target(), disp, w);
        case GET -> mpi.get(scratch(length), 0, length, o.target(), disp, w);
        case ACCUMULATE -> mpi.accumulate(new long[length / 8], o.target(), disp, ReduceOp.SUM, w);
        default -> throw fail("not a one-sided operation");
      }
    }

    private Win window(int id) {
      Win w = windows.get(id);
      if (w == null) {
        throw fail("window " + id + " is not one the trace made (or it was freed)");
      }
      return w;
    }

    /** A group's members (world ranks) as ranks of the window's communicator. */
    private int[] ranksIn(int[] members, Communicator c) {
      int[] out = new int[members.length];
      for (int i = 0; i < members.length; i++) {
        out[i] = -1;
        for (int r = 0; r < c.size(); r++) {
          if (c.worldRank(r) == members[i]) {
            out[i] = r;
            break;
          }
        }
        if (out[i] < 0) {
          throw fail("world rank " + members[i] + " of the group is not in the window's communicator");
        }
      }
      return out;
    }

    /** A communicator's group: its members' world ranks in rank order. */
    private static int[] members(Communicator c) {
      int[] members = new int[c.size()];
      for (int r = 0; r < members.length; r++) {
        members[r] = c.worldRank(r);
      }
      return members;
    }

    private void newGroup(int id, int[] members) {
      if (id != TraceCall.GROUP_NULL && id != TraceCall.GROUP_EMPTY) {
        groups.put(id, members);
      }
    }

    private int[] group(int id) {
      if (id == TraceCall.GROUP_EMPTY) {
        return new int[0];
      }
      int[] g = groups.get(id);
      if (g == null) {
        throw fail("group " + id + " is not one the trace made (or it was freed)");
      }
      return g;
    }

    private int root(TraceCall.Collective k, Communicator c) {
      if (k.root() == TraceCall.ROOT || k.root() == TraceCall.PROC_NULL) {
        // an intercommunicator's root side (MPI_ROOT) or its other ranks (MPI_PROC_NULL): was told as "root -3 is
        // outside the communicator's ranks", the model's own code for MPI_ROOT (until stop 78)
        throw fail("root is " + (k.root() == TraceCall.ROOT ? "MPI_ROOT" : "MPI_PROC_NULL") + ", an"
            + " intercommunicator collective's; intercommunicators are not replayed");
      }
      if (k.root() < 0 || k.root() >= c.size()) {
        throw fail("root " + k.root() + " is outside the communicator's ranks 0 to " + (c.size() - 1));
      }
      return k.root();
    }

    private int[] ints(com.google.common.primitives.ImmutableLongArray a, int size) {
      int[] out = new int[size];
      for (int i = 0; i < Math.min(size, a.length()); i++) {
        out[i] = sendBytes(a.get(i));
      }
      return out;
    }

    private int[] displs(int[] counts) {
      int[] d = new int[counts.length];
      for (int i = 1; i < counts.length; i++) {
        d[i] = d[i - 1] + counts[i - 1];
      }
      return d;
    }

    private int sum(int[] a) {
      long s = 0;
      for (int v : a) {
        s += v;
      }
      if (s > Integer.MAX_VALUE - 64) {
        throw fail("the collective's buffers exceed 2^31 bytes");
      }
      return (int) s;
    }

    private void collective(TraceCall.Collective k) {
      if (k.communicator() != TraceCall.COMM_SELF) { // a collective of one rank moves nothing
        communicate(k);
      }
      computeAfter(k);
    }

    private void communicate(TraceCall.Collective k) {
      Communicator c = comm(k.communicator());
      int size = c.size();
      int me = c.rank();
      switch (k.kind()) {
        case BARRIER -> mpi.barrier(c);
        case BCAST -> {
          int b = sendBytes(Math.max(k.sendBytes(), k.receiveBytes()));
          mpi.bcast(scratch(b), 0, b, root(k, c), c);
        }
        case REDUCE -> {
          int e = elements(Math.max(k.sendBytes(), k.receiveBytes()));
          mpi.reduce(new long[e], new long[e], ReduceOp.SUM, root(k, c), c);
        }
        case ALLREDUCE -> {
          int e = elements(Math.max(k.sendBytes(), k.receiveBytes()));
          mpi.allreduce(new long[e], new long[e], ReduceOp.SUM, c);
        }
        case SCAN, EXSCAN -> {
          int e = elements(Math.max(k.sendBytes(), k.receiveBytes()));
          mpi.scan(new long[e], new long[e], ReduceOp.SUM, c);
        }
        case GATHER -> {
          int block = sendBytes(k.sendBytes());
          int root = root(k, c);
          mpi.gather(new byte[block], me == root ? new byte[checkedTimes(block, size)] : null, root, c);
        }
        case SCATTER -> {
          int block = sendBytes(k.receiveBytes());
          int root = root(k, c);
          mpi.scatter(me == root ? new byte[checkedTimes(block, size)] : null, new byte[block], root, c);
        }
        case GATHERV -> {
          int root = root(k, c);
          int[] counts = ints(k.receiveBytesPerRank(), size);
          mpi.gatherv(new byte[sendBytes(k.sendBytes())], new byte[me == root ? sum(counts) : 0], counts,
              displs(counts), root, c);
        }
        case SCATTERV -> {
          int root = root(k, c);
          int[] counts = ints(k.sendBytesPerRank(), size);
          mpi.scatterv(new byte[me == root ? sum(counts) : 0], counts, displs(counts),
              new byte[sendBytes(k.receiveBytes())], root, c);
        }
        case ALLGATHER -> {
          int block = sendBytes(Math.max(k.sendBytes(), k.receiveBytes()));
          mpi.allgather(new byte[block], new byte[checkedTimes(block, size)], c);
        }
        case ALLGATHERV -> {
          int[] counts = ints(k.receiveBytesPerRank(), size);
          mpi.allgatherv(new byte[counts[me]], new byte[sum(counts)], counts, displs(counts), c);
        }
        case ALLTOALL -> {
          int block = sendBytes(Math.max(k.sendBytes(), k.receiveBytes()));
          mpi.alltoall(new byte[checkedTimes(block, size)], new byte[checkedTimes(block, size)], c);
        }
        case ALLTOALLV -> {
          int[] sc = ints(k.sendBytesPerRank(), size);
          int[] rc = ints(k.receiveBytesPerRank(), size);
          mpi.alltoallv(new byte[sum(sc)], sc, displs(sc), new byte[sum(rc)], rc, displs(rc), c);
        }
        case REDUCE_SCATTER -> {
          int[] counts = ints(k.receiveBytesPerRank(), size);
          for (int i = 0; i < size; i++) {
            counts[i] = (counts[i] + 7) / 8;
          }
          mpi.reduceScatter(new long[sum(counts)], new long[counts[me]], counts, ReduceOp.SUM, c);
        }
        default -> throw fail("not a collective the MPI layer has");
      }
    }

    private int elements(long bytes) {
      return (sendBytes(bytes) + 7) / 8;
    }

    private int checkedTimes(int block, int size) {
      long b = (long) block * size;
      if (b > Integer.MAX_VALUE - 64) {
        throw fail("the collective's buffers exceed 2^31 bytes");
      }
      return (int) b;
    }
  }

  /** Settings of a replay. */
  public static final class Builder {
    private final AriesSystem system;
    private final Trace trace;
    private Placement placement = Placement.LINEAR;
    private int ranksPerNode = 1;
    private ComputeMode compute = ComputeMode.SKIP;
    private double flopsPerSecond = DEFAULT_FLOPS_PER_SECOND;
    private MpiConfig config = MpiConfig.defaults();
    private ReplayProgress progress = ReplayProgress.NONE;

    private Builder(AriesSystem system, Trace trace) {
      this.system = system;
      this.trace = trace;
    }

    /** @param p where ranks go (default linear) @return this builder */
    public Builder placement(Placement p) {
      checkArgument(p != null, "placement must not be null");
      this.placement = p;
      return this;
    }

    /**
     * @param k ranks on each node, 1 to {@link #MAX_RANKS_PER_NODE}, for the placements that are not explicit (default
     *     1: ranks of one node talk through its shared memory, docs/mpi.md, so one rank a node keeps every message
     *     on the modelled network and gives each rank a NIC of its own)
     * @return this builder
     */
    public Builder ranksPerNode(int k) {
      checkArgument(k >= 1 && k <= MAX_RANKS_PER_NODE, "ranksPerNode must be in [1, %s] but was %s",
          MAX_RANKS_PER_NODE, k);
      this.ranksPerNode = k;
      return this;
    }

    /** @param c how time between calls is spent (default skip) @return this builder */
    public Builder compute(ComputeMode c) {
      checkArgument(c != null, "compute must not be null");
      this.compute = c;
      return this;
    }

    /** @param f rate of a trace's compute flops, (0, 1e15] (default {@link #DEFAULT_FLOPS_PER_SECOND}) @return this */
    public Builder flopsPerSecond(double f) {
      checkArgument(f > 0 && f <= 1e15, "flopsPerSecond must be in (0, 1e15] but was %s", f);
      this.flopsPerSecond = f;
      return this;
    }

    /** @param c MPI settings (internal buffer space is raised to hold the trace's largest messages) @return this */
    public Builder config(MpiConfig c) {
      checkArgument(c != null, "config must not be null");
      this.config = c;
      return this;
    }

    /** @param p progress listener @return this builder */
    public Builder progress(ReplayProgress p) {
      checkArgument(p != null, "progress must not be null");
      this.progress = p;
      return this;
    }

    /** @return the replay */
    public TraceReplay build() {
      return new TraceReplay(this);
    }
  }
}
