package io.github.ariesmodel.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.ariesmodel.cli.report.BuildInfo;
import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.cli.report.Metric;
import io.github.ariesmodel.cli.report.ReportWriter;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.cli.system.SystemSpecException;
import io.github.ariesmodel.core.cache.HostCacheConfig;
import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.iommu.PageTables;
import io.github.ariesmodel.cli.workload.Params;
import io.github.ariesmodel.cli.workload.Workload;
import io.github.ariesmodel.cli.workload.WorkloadRun;
import io.github.ariesmodel.cli.workload.Workloads;
import io.github.ariesmodel.system.process.OsNoise;
import io.github.ariesmodel.system.replay.TraceReplay;
import io.github.ariesmodel.system.replay.TraceReplayException;
import io.github.ariesmodel.traces.TraceFormatException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code aries replay TRACE}: replays a recorded MPI run through the MPI layer on a modelled system and writes
 * results.json, CSV tables, plots and report.html like {@code run}; {@code --json} prints a summary.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = "Replay an MPI trace (DUMPI or SimGrid time-independent) on a modelled system and write"
        + " results.json, CSV tables, plots and report.html.")
final class ReplayCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "TRACE",
      description = "A DUMPI .meta file or its directory, or a SimGrid trace file or index of per-rank files.")
  Path trace;

  @Mixin SharedOptions.SystemChoice choice;

  @Mixin SharedOptions.Seed seed;

  @Option(names = "--mapping", paramLabel = "linear|random|round-robin-groups|FILE", defaultValue = "linear",
      description = "Where ranks go: consecutive nodes, random nodes (seeded), one node of each group in turn, or a"
          + " file of node ids, one a line in rank order (default: ${DEFAULT-VALUE}).")
  String mapping;

  @Option(names = "--compute", paramLabel = "skip|as-traced|scale:F", defaultValue = "skip",
      description = "Time between calls: none, as the trace records it, or that times F (default: ${DEFAULT-VALUE}).")
  String compute;

  @Option(names = "--ranks-per-node", paramLabel = "N", defaultValue = "1",
      description = "Ranks on each node, 1 to 68, with linear, random or round-robin-groups mapping (a mapping file"
          + " names each rank's node) (default: ${DEFAULT-VALUE}: ranks of one node talk through its shared memory,"
          + " so one rank a node keeps all traffic on the modelled network).")
  @SharedOptions.Range(min = 1, max = io.github.ariesmodel.system.replay.TraceReplay.MAX_RANKS_PER_NODE)
  int ranksPerNode;

  @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: results/replay).")
  Path out;

  @Option(names = "--force", description = "Replace another run's files in --out (normally refused).")
  boolean force;

  @Option(names = "--page-tables", paramLabel = "per-registration|per-context",
      description = "Where each NIC's IOMMU keeps a registration's page tables: its own or its translation context's,"
          + " shared with the node's other registrations (the hardware's shape; docs/iommu.md) (default: the"
          + " IOMMU's, IommuConfig.pageTables).")
  String pageTables;

  @Option(names = "--collective-engine",
      description = "Run the world communicator's barrier and one- or two-element allreduces (sum, min, max, and,"
          + " or, xor) on the NICs' collective engine, a tree of one CE channel a node (docs/mpi.md) (default: off,"
          + " MPICH's software algorithms).")
  boolean collectiveEngine;

  @Option(names = "--no-smp-collectives",
      description = "Run barrier, bcast, reduce and allreduce with MPICH's flat algorithms on every communicator"
          + " (default: MPICH's SMP-aware algorithms where a node has two or more of the communicator's ranks, as"
          + " MPICH's MPIR_CVAR_ENABLE_SMP_COLLECTIVES; docs/mpi.md).")
  boolean noSmpCollectives;

  @Option(names = "--os-noise", paramLabel = "SPEC",
      description = "The nodes' operating-system noise (the traces' and the background's): none (default) or"
          + " period=P,detour=D[,phase=aligned|random], durations with ps, ns, us or ms (period=1ms,detour=20us):"
          + " every node's kernel takes its CPU for D once every P, at a phase of its own (random, from the seed) or"
          + " the same on all (aligned); docs/mpi.md.")
  String osNoise;

  @Option(names = "--host-cache", paramLabel = "KEY=VALUE,...",
      description = "The nodes' host cache: key=value pairs over the XC40 defaults (capacity, line, ways, hitPs,"
          + " memoryPs, policy=update|invalidate|bypass|allocate; allocate is Intel DDIO's write-allocate;"
          + " docs/memory-hierarchy.md) (default: the system's, policy update).")
  String hostCache;

  @Option(names = "--with", paramLabel = "TRACE",
      description = "Another trace replayed at the same time, as a job on nodes of its own (repeatable; placed after"
          + " the first by the same mapping, linear after a mapping file). The report is the first trace's, with a"
          + " table of every job (docs/replay.md, \"Several jobs at once\").")
  List<Path> with;

  @Option(names = "--background", paramLabel = "uniform|alltoall",
      description = "Synthetic load beside the traces on the nodes they leave, stopped where they end: messages to"
          + " random ranks, or all-to-all exchanges (default: none).")
  String background;

  @Option(names = "--background-trace", paramLabel = "TRACE",
      description = "A trace replayed again and again beside the traces, as the background instead of synthetic load"
          + " (placed by --background-mapping and --background-ranks-per-node; --background-steps gives its passes).")
  Path backgroundTrace;

  @Option(names = "--background-bytes", paramLabel = "B", defaultValue = "65536",
      description = "The background's message size (to each rank, for alltoall) (default: ${DEFAULT-VALUE}).")
  @SharedOptions.Range(min = 1, max = io.github.ariesmodel.system.mpi.SyntheticTraffic.MAX_BYTES)
  int backgroundBytes;

  @Option(names = "--background-gap-us", paramLabel = "US", defaultValue = "0",
      description = "The background's pause after each step, 0 to 1e9 (default: ${DEFAULT-VALUE}: as fast as it can).")
  @SharedOptions.DecimalRange(min = 0, max = 1e9) // ReplayWorkload.MAX_GAP_US (OptionRangeTest: they agree)
  double backgroundGapUs;

  @Option(names = "--background-steps", paramLabel = "N", defaultValue = "0",
      description = "The background's steps, after which it finalizes and leaves (default: ${DEFAULT-VALUE}: no end,"
          + " stopped where the traces end).")
  @SharedOptions.Range(min = 0, max = Integer.MAX_VALUE) // the workload's bound
  int backgroundSteps;

  @Option(names = "--background-nodes", paramLabel = "N", defaultValue = "0",
      description = "The background's nodes (default: ${DEFAULT-VALUE}: every node the traces leave).")
  @SharedOptions.Range(min = 0, max = Integer.MAX_VALUE)
  int backgroundNodes;

  @Option(names = "--background-mapping", paramLabel = "linear|random|round-robin-groups", defaultValue = "linear",
      description = "How the background's nodes are chosen among those the traces leave (default: ${DEFAULT-VALUE}).")
  String backgroundMapping;

  @Option(names = "--background-ranks-per-node", paramLabel = "N", defaultValue = "1",
      description = "The background's ranks on each of its nodes, 1 to 68 (default: ${DEFAULT-VALUE}).")
  @SharedOptions.Range(min = 1, max = io.github.ariesmodel.system.replay.TraceReplay.MAX_RANKS_PER_NODE)
  int backgroundRanksPerNode;

  @Option(names = "--start-us", paramLabel = "US", defaultValue = "0",
      description = "With --with or --background, when the trace starts, microseconds after the run's start: after"
          + " the background's start, it meets a network already loaded; at most 1e6, a simulated second (default:"
          + " ${DEFAULT-VALUE}).")
  @SharedOptions.DecimalRange(min = 0, max = 1e6) // ReplayWorkload.MAX_START_US (OptionRangeTest: they agree)
  double startUs;

  @SharedOptions.DecimalRange(min = 0, max = 1e6) // ReplayWorkload.MAX_START_US, each value of the list
  @Option(names = "--with-start-us", paramLabel = "US", split = ",",
      description = "When the --with traces start, microseconds after the run's start: one value for all, or one a"
          + " trace in their order (comma-separated or repeated) (default: 0).")
  List<Double> withStartUs;

  @Option(names = "--background-start-us", paramLabel = "US", defaultValue = "0",
      description = "When the background starts, microseconds after the run's start, at most 1e6 (default:"
          + " ${DEFAULT-VALUE}).")
  @SharedOptions.DecimalRange(min = 0, max = 1e6) // ReplayWorkload.MAX_START_US (OptionRangeTest: they agree)
  double backgroundStartUs;

  @Option(names = "--no-baseline",
      description = "With more than one job, do not also replay each trace alone (the baseline gives each trace's"
          + " slowdown, and gives up a run in which a trace takes 10 times its time alone).")
  boolean noBaseline;

  @Option(names = "--allow-long",
      description = "Replay even when the estimated work, the packets the traces' records send (64 bytes a packet), "
          + "exceeds the built-in bound of 10,000,000 (about a minute of one large message; docs/replay.md).")
  boolean allowLong;

  @Mixin SharedOptions.EngineThreads threads;

  @Mixin SharedOptions.Json json;

  @Mixin SharedOptions.WallClock wallClock;

  @Mixin SharedOptions.Quiet quiet;

  @Override
  public Integer call() throws IOException {
    if (!Files.exists(trace)) {
      throw CliError.badInput("no such trace file or directory: " + trace, "TRACE", null);
    }
    SystemSpec s = SystemSpec.of(choice.system, seed.seed).withRouting(choice.routing).withThreads(threads.checked());
    if (pageTables != null) {
      try {
        s = s.withIommu(IommuConfig.builder().pageTables(PageTables.parse(pageTables)).build());
      } catch (IllegalArgumentException e) {
        throw CliError.renamed(e, "page tables", "--page-tables");
      }
    }
    VirtualCarriers.forLanes(threads.checked());
    Workload w = Workloads.byName("replay");
    Map<String, String> p = new LinkedHashMap<>();
    p.put("trace", trace.toString());
    p.put("mapping", mapping);
    p.put("compute", compute);
    p.put("ranksPerNode", Integer.toString(ranksPerNode));
    if (collectiveEngine) {
      p.put("collectiveEngine", "on");
    }
    if (noSmpCollectives) {
      p.put("smpCollectives", "off");
    }
    if (osNoise != null) {
      try {
        OsNoise.parse(osNoise);
      } catch (IllegalArgumentException e) {
        throw CliError.renamed(e, "noise", "--os-noise");
      }
      p.put("osNoise", osNoise);
    }
    if (with != null && !with.isEmpty()) {
      for (Path other : with) {
        if (!Files.exists(other)) {
          throw CliError.badInput("no such trace file or directory: " + other, "--with", null);
        }
      }
      p.put("with", String.join(java.io.File.pathSeparator, with.stream().map(Path::toString).toList()));
    }
    if (backgroundTrace != null) {
      if (background != null) {
        throw CliError.badInput("--background-trace and --background are two backgrounds, and a run has one, but"
            + " both were given", "--background-trace", null);
      }
      if (!Files.exists(backgroundTrace)) {
        throw CliError.badInput("no such trace file or directory: " + backgroundTrace, "--background-trace", null);
      }
      p.put("backgroundTrace", backgroundTrace.toString());
    }
    // a background's option is passed when there is a background, or when it was given without one: the workload
    // refuses it then (it was dropped here, and so ignored without a word)
    CommandLine.ParseResult given = spec.commandLine().getParseResult();
    if (background != null) {
      p.put("background", background);
    }
    if (background != null || given.hasMatchedOption("--background-bytes")) {
      p.put("backgroundBytes", Integer.toString(backgroundBytes));
    }
    if (background != null || given.hasMatchedOption("--background-gap-us")) {
      p.put("backgroundGapUs", Double.toString(backgroundGapUs));
    }
    boolean anyBackground = background != null || backgroundTrace != null; // what either background takes
    if (anyBackground || given.hasMatchedOption("--background-nodes")) {
      p.put("backgroundNodes", Integer.toString(backgroundNodes));
    }
    if (anyBackground || given.hasMatchedOption("--background-steps")) {
      p.put("backgroundSteps", Integer.toString(backgroundSteps));
    }
    if (anyBackground || given.hasMatchedOption("--background-mapping")) {
      p.put("backgroundMapping", backgroundMapping);
    }
    if (anyBackground || given.hasMatchedOption("--background-ranks-per-node")) {
      p.put("backgroundRanksPerNode", Integer.toString(backgroundRanksPerNode));
    }
    if (startUs != 0) {
      p.put("startUs", Double.toString(startUs));
    }
    if (withStartUs != null && withStartUs.isEmpty()) {
      // (picocli splits "," into no values at all: it ran as if the option were not there)
      throw CliError.badInput("--with-start-us must give a start (microseconds) but gave none", "--with-start-us",
          null);
    }
    if (withStartUs != null) {
      p.put("withStartUs", String.join(":", withStartUs.stream().map(d -> Double.toString(d)).toList()));
    }
    if (backgroundStartUs != 0) {
      p.put("backgroundStartUs", Double.toString(backgroundStartUs));
    }
    if (noBaseline) {
      p.put("baseline", "off");
    }
    if (allowLong) {
      p.put("allowLong", "on");
    }
    if (hostCache != null) {
      if (hostCache.isBlank()) {
        // an empty setting was taken as the system's cache and recorded as "" (until stop 75)
        throw CliError.badInput("--host-cache must be key=value pairs (keys capacity, line, ways, hitPs, memoryPs,"
            + " policy) but was empty; leave the option out for the system's cache", "--host-cache", null);
      }
      try {
        HostCacheConfig.parse(hostCache); // its one line names the option, not the workload's parameter
      } catch (IllegalArgumentException e) {
        RuntimeException r = CliError.renamed(e, "host cache", "--host-cache");
        throw r != e ? r : CliError.badInput(e.getMessage(), "--host-cache", e);
      }
      p.put("hostCache", hostCache);
    }
    Params params = Params.of(p);
    Path dir = out != null ? out : Path.of("results", "replay");
    String command = "replay " + trace; // as results.json records it
    // the directories made for --out, removed again (while empty) if the run fails
    OutputPaths.Made made = OutputPaths.Made.none();
    WorkloadRun run;
    Path html;
    boolean written = false;
    try {
      try {
        // fail early, before the output directory is made: a bad system or routing name, then what the replay can
        // check without simulating (the mapping, the trace's header, its ranks against the system's nodes)
        w.check(s.build(), params);
        // as run's: another command's results there are refused unless --force (they were replaced without a word)
        made = OutputPaths.runDirectory(dir, "--out", command, force);
        try (ProgressBar bar = ProgressBar.forStandardError(quiet.quiet, 1)) {
          run = WorkloadRun.run(w, s, params, command, bar::updateFraction);
        }
      } catch (TraceReplayException e) {
        String where = argumentOf(e.file());
        // ranks whose heaps pass a node's memory: the remedy in this command's options (a background trace's own)
        String remedy = where.startsWith("--background-trace ")
            ? "put fewer ranks on a node (--background-ranks-per-node, or --background-mapping)"
            : "put fewer ranks on a node (--ranks-per-node, or --mapping)";
        throw CliError.badInput(ErrorHandler.replayProblem(e).replace(TraceReplay.FEWER_RANKS_REMEDY, remedy), where,
            e);
      } catch (SystemSpecException e) {
        // the spec itself, a link list's line say: at "(arguments)" until stop 73
        throw CliError.badInput(e.getMessage(), "--system", e);
      } catch (IllegalArgumentException e) {
        if (String.valueOf(e.getMessage()).startsWith(ESTIMATED_WORK)) {
          // the workload's refusal of the work's estimate: its remedy is this command's option
          throw CliError.badInput(e.getMessage().replace("allowLong=on", "--allow-long"), argumentOf(null), e);
        }
        // the workload's parameters are named as the replay builder names them; the user typed the options
        throw CliError.renamed(e, "ranksPerNode", "--ranks-per-node", "backgroundBytes", "--background-bytes",
            "backgroundGapUs", "--background-gap-us", "backgroundNodes", "--background-nodes", "backgroundMapping",
            "--background-mapping", "backgroundRanksPerNode", "--background-ranks-per-node", "backgroundStartUs",
            "--background-start-us", "backgroundSteps", "--background-steps", "backgroundTrace", "--background-trace", "withStartUs", "--with-start-us", "startUs", "--start-us", "baseline=off", "--no-baseline", "background",
            "--background",
            // a with trace that does not fit the nodes left was located at "(arguments)" (until stop 77)
            "with", "--with",
            // a mapping file's refusal (too few nodes, a bad line, unreadable) was located at "(arguments)" (stop 73)
            "mapping", "--mapping",
            // a bad compute mode, "scale:0" too, was located at "(arguments)" (until stop 75)
            "compute", "--compute");
      } catch (UncheckedIOException e) {
        if (e.getCause() instanceof TraceFormatException f) {
          throw CliError.badInput(f.getMessage(), argumentOf(f.file() == null ? null : f.file().toString()), f);
        }
        throw e;
      }
      html = ReportWriter.write(run.results(), run.plots(), run.notes(), dir, wallClock.recorded(),
          "aries-model: replay of " + trace.getFileName() + " on " + s.system());
      written = true;
    } finally {
      if (!written) {
        made.remove();
      }
    }
    PrintWriter o = spec.commandLine().getOut();
    if (json.json) {
      // the code that ran, first, as traffic's and iommu's (a result traced to its commit; docs/results-schema.md)
      Map<String, Object> withBuild = new LinkedHashMap<>();
      withBuild.put("build", BuildInfo.current().asMap());
      withBuild.putAll(summary(run.results(), run.notes(), s, dir));
      o.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(withBuild));
    } else {
      // a mapping file places the ranks itself: --ranks-per-node (1 by default) said nothing of it (until stop 73);
      // a name is taken in any case and with spaces around it, as Placement.parse takes it (--mapping LINEAR was said
      // to be placed by a mapping file; until stop 77)
      boolean builtIn = Set.of("linear", "random", "round-robin-groups").contains(mapping.trim().toLowerCase(
          Locale.ROOT));
      o.printf(Locale.ROOT, "aries replay %s on %s (mapping %s, compute %s, %s, seed %d)%n", trace, s.system(),
          mapping, compute, builtIn ? ranksPerNode + (ranksPerNode == 1 ? " rank" : " ranks") + " per node"
              : "ranks placed by the mapping file", s.seed());
      for (Metric m : run.results().metrics()) {
        // counts as whole numbers, thousands grouped (they printed 13584368.000 B; until stop 72)
        o.printf(Locale.ROOT, "  %-30s %16s%s%n", m.name(), Figures.text(m.value()),
            m.unit().isEmpty() ? "" : " " + m.unit());
      }
      run.notes().forEach(n -> o.printf(Locale.ROOT, "  %s%n", n));
      double wall = run.results().metadata().wallSeconds().orElse(0);
      // without the wall time under --no-wall-clock, as results.json (and run's text since stop 73)
      o.printf(Locale.ROOT, wallClock.recorded() ? "  %,d events in %.1f s wall%n" : "  %,d events%n",
          run.results().metadata().events(), wall);
      o.printf(Locale.ROOT, "  results: %s%n  report:  %s%n", dir.resolve("results.json"), html);
    }
    return 0;
  }

  /**
   * The argument that named the file an error is in, for the error line's location: the first trace ({@code TRACE
   * a.txt}), a {@code --with} trace or the {@code --background-trace} (the location named the first trace whatever
   * file had the error; until stop 68). The file is the argument itself, or for a trace of several files (a DUMPI
   * directory or {@code .meta} file, a SimGrid index) one of its files: inside the argument's directory or beside it.
   * An exact match wins over a file beside one; the first trace wins a tie.
   *
   * @param file the file the error names, or null
   * @return the location
   */
  String argumentOf(String file) {
    List<String> names = new ArrayList<>();
    List<Path> args = new ArrayList<>();
    names.add("TRACE");
    args.add(trace);
    if (with != null) {
      for (Path w : with) {
        names.add("--with");
        args.add(w);
      }
    }
    if (backgroundTrace != null) {
      names.add("--background-trace");
      args.add(backgroundTrace);
    }
    int i = traceArgument(file, args);
    return names.get(i) + " " + args.get(i);
  }

  /**
   * How an error's refusal of the work's estimate begins ({@code ReplayWorkload}'s), by which {@code replay} and
   * {@code run replay} name their own remedy for the workload's {@code allowLong=on}.
   */
  static final String ESTIMATED_WORK = "estimated work ";

  /**
   * Which of a replay's trace arguments holds the file an error names, as {@link #argumentOf} says: the argument
   * itself, or a file inside its directory or beside it; an exact match first, the first argument on a tie or when
   * none holds it. {@code run replay} locates its errors by the same rule.
   *
   * @param file the file the error names, or null
   * @param args the trace arguments, the first trace first
   * @return the index in {@code args}
   */
  static int traceArgument(String file, List<Path> args) {
    Path f;
    try {
      f = file == null ? null : normal(Path.of(file));
    } catch (java.nio.file.InvalidPathException e) {
      f = null;
    }
    if (f != null) {
      for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < args.size(); i++) {
          Path a = normal(args.get(i));
          boolean beside = f.getParent() != null && f.getParent().equals(a.getParent()) && !Files.isDirectory(a);
          if (pass == 0 ? f.equals(a) : f.startsWith(a) || beside) {
            return i;
          }
        }
      }
    }
    return 0;
  }

  private static Path normal(Path p) {
    return p.toAbsolutePath().normalize();
  }

  /**
   * The {@code --json} summary: ranks, messages, bytes, collectives by name, simulated time and more; the latency
   * percentiles are null when no point-to-point message was delivered. The counts of what the replay could not take
   * from the trace as it stands and the run's notes are there too, as in results.json and the text output (the summary
   * left them out until stop 76, so a script reading it could not tell that a replay had dropped or guessed calls).
   *
   * @param r the results
   * @param notes the run's notes, as the text output prints them
   * @param s the system
   * @param dir the report's directory
   * @return the summary, in its order
   */
  static Map<String, Object> summary(Results r, List<String> notes, SystemSpec s, Path dir) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("system", s.system());
    m.put("seed", s.seed());
    Map<String, Double> metrics = new LinkedHashMap<>();
    for (Metric x : r.metrics()) {
      metrics.put(x.name(), x.value());
    }
    m.put("ranks", metrics.get("ranks").longValue());
    m.put("messages", metrics.get("messages").longValue());
    m.put("bytes", metrics.get("bytes").longValue());
    m.put("simulatedTimeUs", metrics.get("simulatedTimeUs"));
    m.put("collectives", counts(r, "collectives"));
    m.put("calls", counts(r, "calls"));
    m.put("mpiMessages", metrics.get("mpiMessages").longValue());
    Map<String, Object> lat = new LinkedHashMap<>();
    for (List<Object> row : table(r, "latency").rows()) {
      lat.put(String.valueOf(row.get(0)), row.get(1));
    }
    m.put("latencyNs", lat);
    Map<String, Object> links = new LinkedHashMap<>();
    for (List<Object> row : table(r, "links").rows()) {
      links.put(String.valueOf(row.get(0)), row.get(1));
    }
    m.put("linkBytes", links);
    Number notRecorded = metrics.get("callsNotRecorded"); // absent when the trace cannot tell (SimGrid)
    m.put("callsNotRecorded", notRecorded == null ? null : notRecorded.longValue());
    for (String count : Workloads.replayTraceCounts()) {
      m.put(count, metrics.get(count).longValue());
    }
    m.put("notes", List.copyOf(notes));
    m.put("results", dir.resolve("results.json").toString());
    return m;
  }

  private static ResultTable table(Results r, String name) {
    return r.tables().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }

  private static Map<String, Object> counts(Results r, String name) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (List<Object> row : table(r, name).rows()) {
      m.put(String.valueOf(row.get(0)), row.get(1));
    }
    return m;
  }
}
