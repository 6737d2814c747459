package io.github.ariesmodel.cli;

import io.github.ariesmodel.core.Texts;
import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.cli.report.Metric;
import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.workload.Params;
import io.github.ariesmodel.cli.report.ReportWriter;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.cli.system.SystemSpecException;
import io.github.ariesmodel.cli.workload.SystemUnfitException;
import io.github.ariesmodel.cli.workload.Workload;
import io.github.ariesmodel.cli.workload.WorkloadRun;
import io.github.ariesmodel.cli.workload.Workloads;
import io.github.ariesmodel.cli.config.RunConfig;
import io.github.ariesmodel.system.replay.TraceReplayException;
import io.github.ariesmodel.system.trace.PacketTrace;
import io.github.ariesmodel.traces.TraceFormatException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code aries run WORKLOAD}: runs a built-in workload and writes its results, plots and HTML report. */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run a workload and write results.json, CSV tables, plots and report.html.")
final class RunCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "WORKLOAD",
      completionCandidates = SharedOptions.WorkloadNames.class,
      description = "${COMPLETION-CANDIDATES} (default: mixed); --list shows their parameters")
  String workload;

  @Mixin SharedOptions.SystemChoice choice;

  @Mixin SharedOptions.Seed seed;

  @Option(names = "--fabric", defaultValue = "routers",
      description = "routers or ideal (a fixed-latency network without routers) (default: ${DEFAULT-VALUE}).")
  String fabric;

  @Option(names = "--translator", defaultValue = "iommu",
      description = "iommu or flat (no page tables, no PTE cache) (default: ${DEFAULT-VALUE}).")
  String translator;

  @Option(names = {"-p", "--param"}, paramLabel = "NAME=VALUE", description = "A workload parameter; repeatable.")
  List<String> params = new ArrayList<>();

  @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: results/WORKLOAD).")
  Path out;

  @Option(names = "--force", description = "Replace another run's files in --out (normally refused).")
  boolean force;

  @Mixin SharedOptions.EngineThreads threads;

  @Mixin SharedOptions.WallClock wallClock;

  @Mixin SharedOptions.Quiet quiet;

  @Option(names = "--trace", paramLabel = "FILE",
      description = "Write packets' journeys (injection to ejection) and, on the router fabric, every hop (router,"
          + " port, VC, time) as Chrome trace-event JSON for Perfetto (ui.perfetto.dev); on the single event loop"
          + " only (not with --threads).")
  Path trace;

  @Option(names = "--trace-limit", paramLabel = "N", defaultValue = "100000",
      description = "Packets kept in the trace (the first chosen by --trace-filter) (default: ${DEFAULT-VALUE}).")
  @SharedOptions.Range(min = 1, max = PacketTrace.MAX_LIMIT)
  int traceLimit;

  @Option(names = "--trace-filter", paramLabel = "FILTER", defaultValue = "all",
      description = "Packets --trace records: all, or any of src=NODE,dst=NODE,packet=N,sample=FRACTION"
          + " (packets are numbered 0, 1, ... as the fabric accepts them) (default: ${DEFAULT-VALUE}).")
  String traceFilter;

  @Option(names = "--list", description = "List the workloads and their parameters, then exit.")
  boolean list;

  @Option(names = "--config", paramLabel = "FILE",
      description = "A JSON or YAML run configuration (system, routing, seed, iommu, nic, workload, params);"
          + " options given on the command line override it.")
  Path config;

  @Override
  public Integer call() throws java.io.IOException {
    PrintWriter o = spec.commandLine().getOut();
    if (list) {
      for (Workloads w : Workloads.values()) {
        Workload x = w.create();
        o.printf(Locale.ROOT, "%-12s %s%n", x.name(), x.description());
        for (Map.Entry<String, String> e : x.parameters().entrySet()) {
          o.printf(Locale.ROOT, "    -p %s=%s%n", e.getKey(), e.getValue().replaceFirst(":", "   "));
        }
      }
      return 0;
    }
    RunConfig file = config == null ? null : readConfig(config);
    CommandLine.ParseResult pr = spec.commandLine().getParseResult();
    SystemSpec base = file == null ? SystemSpec.of(choice.system, seed.seed) : file.spec();
    SystemSpec s = new SystemSpec(
        file == null || pr.hasMatchedOption("--system") ? choice.system : base.system(),
        file == null || pr.hasMatchedOption("--routing") ? choice.routing : base.routing(),
        file == null || pr.hasMatchedOption("--seed") ? seed.seed : base.seed(),
        file == null || pr.hasMatchedOption("--fabric") ? atOption(() -> SystemSpec.parseFabric(fabric))
            : base.fabric(),
        file == null || pr.hasMatchedOption("--translator") ? atOption(() -> SystemSpec.parseTranslator(translator))
            : base.translator(),
        base.iommu(), base.nic(), null).withThreads(file == null || pr.hasMatchedOption("--threads")
            ? threads.checked() : base.threads());
    // where the engine's threads were asked, for the refusals below: --threads N, or the file's threads: N
    boolean threadsByOption = s.threads() == 0 || file == null || pr.hasMatchedOption("--threads");
    String threadsFrom = threadsByOption ? "--threads " + s.threads() : "threads " + s.threads() + " in --config "
        + config;
    String threadsAt = threadsByOption ? "--threads" : "--config " + config;
    if (file != null && s.translator() == io.github.ariesmodel.system.TranslatorKind.FLAT && file.iommuGiven()) {
      // --translator flat over a file's iommu settings would drop them without a word; refused as the file alone is,
      // whatever their values (settings equal to the defaults passed here and were refused inside the file)
      throw CliError.badInput("the configuration's iommu settings are for the IOMMU translator but the translator is"
          + " flat; drop one of them", "--translator", null);
    }
    VirtualCarriers.forLanes(s.threads());
    if (s.fabric() == io.github.ariesmodel.system.FabricKind.IDEAL && s.threads() > 0) {
      // the builder's refusal named its own calls, fabric(IDEAL) and threads(N), at "(arguments)" (until stop 77)
      throw CliError.badInput("--fabric ideal cannot be combined with " + threadsFrom + ": the ideal"
          + " fabric runs on the single event loop and the engine's threads need the router fabric; drop one of them",
          threadsAt, null);
    }
    PacketTrace.Filter filter = trace == null ? null : atOption(() -> PacketTrace.Filter.parse(traceFilter));
    if (trace != null && s.threads() > 0) {
      // the builder's refusal named its own calls, trace(...) and threads(N), at "(arguments)" (until stop 77)
      throw CliError.badInput("--trace cannot be combined with " + threadsFrom + ": the packet trace"
          + " numbers packets on the single event loop; drop " + (threadsByOption ? "--threads"
          : "the configuration's threads") + " to trace the run", threadsAt, null);
    }
    if (trace != null) {
      try {
        s = s.withTrace(new PacketTrace(traceLimit, filter));
      } catch (IllegalArgumentException e) {
        throw CliError.renamed(e, "limit", "--trace-limit");
      }
    } else {
      // without --trace they would be ignored without a word
      for (String option : List.of("--trace-filter", "--trace-limit")) {
        if (pr.hasMatchedOption(option)) {
          throw CliError.badInput(option + " needs --trace FILE", option, null);
        }
      }
    }
    String name = workload != null ? workload
        : file != null && file.workload() != null ? file.workload() : "mixed";
    Workload w = Workloads.byName(name);
    if (file != null) {
      try {
        file.checkUsedBy(w.name()); // a workload that builds no node would drop the file's nic and iommu settings
      } catch (IllegalArgumentException e) {
        throw CliError.badInput(config + ": " + e.getMessage(), "--config " + config, e);
      }
    }
    if (pr.hasMatchedOption("--translator") && w.name().equals("traffic")) {
      throw CliError.badInput("--translator sets the nodes' address translation, and workload traffic builds no node"
          + " (its experiments drive router fabrics of their own); drop it", "--translator", null);
    }
    if (trace != null && name.equals("traffic")) {
      // its experiments build router fabrics of their own, which the trace does not see (it recorded 0 packets)
      throw CliError.badInput("--trace records the NICs' packets, and the traffic workload has none (its experiments"
          + " drive router fabrics of their own); use the traffic command's statistics instead", "--trace", null);
    }
    Map<String, String> merged = new java.util.LinkedHashMap<>();
    if (file != null && !file.params().asMap().isEmpty()) {
      // Parameters belong to one workload; using them for another (or guessing) would run something else than the
      // file says, so a mismatch is an error rather than a silent drop.
      if (file.workload() == null) {
        throw CliError.badInput("the configuration has params but no workload key; add workload: " + name,
            "--config " + config, null);
      }
      if (!file.workload().equals(name)) {
        throw CliError.badInput("the configuration's params are for workload " + Texts.abbreviate(file.workload())
            + " but the run is " + name + "; drop the WORKLOAD argument or the file's params", "--config " + config,
            null);
      }
      merged.putAll(file.params().asMap());
    }
    Map<String, String> given = Params.parse(params).asMap();
    givenParams = given.keySet();
    java.util.Set<String> fromFile = new java.util.LinkedHashSet<>(merged.keySet());
    fromFile.removeAll(given.keySet()); // -p NAME=... replaces the file's NAME
    merged.putAll(given);
    engineRecorded(merged, fromFile, s.threads() > 0);
    Params p = Params.of(merged);
    if (trace != null) {
      // the trace must replace none of the run's own inputs (the configuration became a trace, until stop 75)
      OutputPaths.refuseInputs(trace, "--trace", inputs(s, merged, fromFile, systemFrom(pr, file)));
      OutputPaths.refuseReplacingAnotherFileThanATrace(trace, "--trace", force);
    }
    // fail early, before the output directory is made: a bad system or routing name, then the parameters that the
    // workload can check against the system without simulating (a default that does not fit it, too)
    // a refusal of the system is located where the system was chosen, not at "(arguments)" (until stop 71)
    String systemFrom = systemFrom(pr, file);
    io.github.ariesmodel.system.AriesSystem checked;
    try {
      checked = s.build();
    } catch (SystemSpecException e) {
      // the spec itself, a link list's line say: at "(arguments)" until stop 73
      throw CliError.badInput(e.getMessage(), systemFrom, e);
    } catch (IllegalArgumentException e) {
      // the builder refuses a trace filter's node the system lacks (it matched no packet: the trace was empty), and
      // an unknown routing (located at "(arguments)" until stop 75)
      throw file == null || pr.hasMatchedOption("--routing") ? CliError.renamed(e, "trace filter", "--trace-filter",
          "routing", "--routing") : CliError.renamed(e, "trace filter", "--trace-filter");
    }
    try {
      w.check(checked, p);
    } catch (SystemUnfitException e) {
      throw CliError.badInput(e.getMessage(), systemFrom, e);
    } catch (IllegalArgumentException e) {
      if (w.name().equals("replay") && String.valueOf(e.getMessage()).startsWith(ReplayCommand.ESTIMATED_WORK)) {
        // the replay workload's refusal of the work's estimate, located at the trace and with run's own remedy
        throw CliError.badInput(e.getMessage().replace("allowLong=on", "-p allowLong=on"),
            traceParameter(null, merged, fromFile), e);
      }
      if (String.valueOf(e.getMessage()).startsWith(ReplayCommand.ESTIMATED_WORK)) {
        // pingpong's, bandwidth's and alltoall's estimate (since stop 75), with run's own remedy
        throw CliError.badInput(e.getMessage().replace("allowLong=on", "-p allowLong=on"), "workload " + w.name(), e);
      }
      throw inConfiguration(e, fromFile);
    } catch (TraceReplayException | UncheckedIOException e) {
      throw w.name().equals("replay") ? inTrace(e, merged, fromFile) : e;
    }
    Path dir = out != null ? out : Path.of("results", w.name());
    if (trace != null) {
      OutputPaths.fileItself(trace, "--trace"); // its own faults before --out's directory is made
      refuseTraceAmongTheReportsFiles(trace, dir);
    }
    OutputPaths.Made made = OutputPaths.runDirectory(dir, "--out", "run " + w.name(), force);
    boolean written = false;
    try {
      if (trace != null) {
        made.add(OutputPaths.file(trace, "--trace"));
      }
      WorkloadRun run;
      try (ProgressBar bar = ProgressBar.forStandardError(quiet.quiet, 1)) {
        run = WorkloadRun.run(w, s, p, "run " + w.name(), bar::updateFraction);
      } catch (SystemUnfitException e) {
        throw CliError.badInput(e.getMessage(), systemFrom, e);
      } catch (IllegalArgumentException e) {
        throw inConfiguration(e, fromFile);
      } catch (TraceReplayException | UncheckedIOException e) {
        throw w.name().equals("replay") ? inTrace(e, merged, fromFile) : e;
      }
      if (trace != null) {
        PacketTrace recorded = s.trace();
        io.github.ariesmodel.cli.report.AtomicFiles.write(trace, recorded::write);
      }
      Path html = ReportWriter.write(run.results(), run.plots(), run.notes(), dir, wallClock.recorded(),
          "aries-model: " + w.name() + " on " + s.system());
      printSummary(o, w, s, run, dir, html, wallClock.recorded());
      if (trace != null) {
        // under the run's header, beside results: and report: (it came before the header, until stop 77)
        PacketTrace recorded = s.trace();
        o.printf(Locale.ROOT, "  trace:   %s (%,d packets, %,d hops, %,d beyond the limit)%n", trace,
            recorded.recorded(), recorded.hopsRecorded(), recorded.dropped());
      }
      written = true;
    } finally {
      if (!written) {
        made.remove(); // a failed run leaves no directory of its own behind, empty
      }
    }
    return 0;
  }

  /**
   * A record's {@code "simulationEngine" : "partitioned"} among the parameters (copied with the record's others): taken,
   * and dropped (the results record it again), when the run is on the partitioned engine; else refused in one line
   * naming the key, the values it may have and the value. It was refused as an unknown parameter of the workload,
   * listing the workload's parameters, which did not say what the key is or how to ask for the engine (until stop 78).
   *
   * @param params the run's parameters, the key removed when taken
   * @param fromFile the parameters the configuration gave
   * @param partitioned whether the run is on the partitioned engine ({@code --threads N}, or the file's threads)
   */
  private void engineRecorded(Map<String, String> params, java.util.Set<String> fromFile, boolean partitioned) {
    String key = WorkloadRun.SIMULATION_ENGINE;
    String value = params.get(key);
    if (value == null) {
      return;
    }
    if (value.equals("partitioned") && partitioned) {
      params.remove(key);
      return;
    }
    boolean inFile = fromFile.contains(key);
    String what = (inFile ? config + ": params." : "") + key;
    String message = value.equals("partitioned")
        ? what + " is partitioned, the engine results.json records for --threads N, but this run has no threads; give"
            + " --threads N (or threads: N in --config) for the partitioned engine, or drop " + key + " for the single"
            + " event loop"
        : what + " must be partitioned (with --threads N, or threads: N in --config) or absent (the single event loop):"
            + " it is the engine results.json records, no workload parameter; but was \"" + Texts.abbreviate(value)
            + "\"";
    throw CliError.badInput(message, inFile ? "--config " + config : "-p " + key, null);
  }

  /** Where the system was chosen: {@code --system}, or the configuration file. */
  private String systemFrom(CommandLine.ParseResult pr, RunConfig file) {
    return file == null || pr.hasMatchedOption("--system") ? "--system" : "--config " + config;
  }

  /**
   * The files the run reads, by where the user named them: the configuration, the replay's traces and mapping file,
   * and the system's link and failure lists.
   */
  private Map<String, Path> inputs(SystemSpec s, Map<String, String> params, java.util.Set<String> fromFile,
      String systemFrom) {
    Map<String, Path> in = new java.util.LinkedHashMap<>();
    if (config != null) {
      in.put("--config", config);
    }
    for (String key : List.of("trace", "with", "backgroundTrace", "mapping")) {
      String value = params.getOrDefault(key, "");
      for (String one : value.isEmpty() ? new String[0]
          : key.equals("with") ? value.split(java.util.regex.Pattern.quote(java.io.File.pathSeparator))
              : new String[] {value}) {
        if (key.equals("mapping") && List.of("linear", "random", "round-robin-groups")
            .contains(one.strip().toLowerCase(Locale.ROOT))) {
          continue; // a placement's name, no file
        }
        try {
          in.put(fromFile.contains(key) ? "params." + key + "=" + Texts.abbreviate(one) + " in --config " + config
              : "-p " + key + "=" + Texts.abbreviate(one), Path.of(one));
        } catch (java.nio.file.InvalidPathException x) {
          // (refused by the workload)
        }
      }
    }
    for (Path f : OutputPaths.cablingFiles(s.system())) {
      in.put(systemFrom + " (its file " + Texts.abbreviate(f.toString()) + ")", f);
    }
    return in;
  }

  /** The names of the parameters {@code -p} gave. */
  private java.util.Set<String> givenParams = java.util.Set.of();

  /**
   * A value an option's own parser refuses ({@code --fabric}, {@code --translator}, {@code --trace-filter}), told
   * under the option's name and located at it: "(arguments)" until stop 75.
   */
  private static <T> T atOption(java.util.function.Supplier<T> parse) {
    try {
      return parse.get();
    } catch (IllegalArgumentException e) {
      throw CliError.renamed(e, "fabric", "--fabric", "translator", "--translator", "trace filter", "--trace-filter");
    }
  }

  /**
   * A workload's refusal of a parameter that the configuration file gave (and no {@code -p} replaced), located in the
   * file as its other errors are ({@code FILE: params.sizes must ... (--config FILE)}); it was located as
   * {@code (arguments)}, which the user never typed. The workloads' messages start with the parameter's name, or
   * quote it as an unknown one. Any other refusal is passed on as it is.
   *
   * @param e the refusal
   * @param fromFile the parameters the file gave that the command line did not replace
   * @return the error to throw
   */
  private RuntimeException inConfiguration(IllegalArgumentException e, java.util.Set<String> fromFile) {
    String m = String.valueOf(e.getMessage());
    for (String key : fromFile) {
      if (m.startsWith(key + " ")) {
        return CliError.badInput(config + ": params." + m, "--config " + config, e);
      }
      if (m.startsWith("unknown parameter \"" + Texts.abbreviate(key) + "\"")) {
        return CliError.badInput(config + ": params: " + m, "--config " + config, e);
      }
    }
    for (String key : givenParams) {
      // a -p parameter's refusal, located at it (it was "(arguments)" until stop 75)
      if (m.startsWith(key + " ") || m.startsWith("unknown parameter \"" + Texts.abbreviate(key) + "\"")) {
        return CliError.badInput(m, "-p " + Texts.abbreviate(key), e);
      }
    }
    return e;
  }

  /**
   * A replay's trace that cannot be read or replayed, located at the parameter that named its file, as {@code replay}
   * locates it at its argument ({@code -p backgroundTrace=bg.txt}, or {@code params.with in --config FILE}): it was
   * located as {@code (trace)} whichever parameter had named the file (until stop 74). Anything else is passed on.
   */
  private RuntimeException inTrace(RuntimeException e, Map<String, String> params, java.util.Set<String> fromFile) {
    String what;
    String file;
    if (e instanceof TraceReplayException r) {
      what = ErrorHandler.replayProblem(r);
      file = r.file();
    } else if (e.getCause() instanceof TraceFormatException f) {
      what = f.getMessage();
      file = f.file() == null ? null : f.file().toString();
    } else {
      return e;
    }
    String where = traceParameter(file, params, fromFile);
    return where == null ? e : CliError.badInput(what, where, e);
  }

  /**
   * The replay's trace parameter ({@code trace}, each of {@code with}'s paths, {@code backgroundTrace}) that holds a
   * file, by {@link ReplayCommand#traceArgument}'s rule, as the user gave it; null when there is none.
   */
  private String traceParameter(String file, Map<String, String> params, java.util.Set<String> fromFile) {
    List<String> names = new ArrayList<>();
    List<Path> args = new ArrayList<>();
    for (String key : List.of("trace", "with", "backgroundTrace")) {
      String value = params.getOrDefault(key, "");
      for (String one : value.isEmpty() ? new String[0]
          : key.equals("with") ? value.split(java.util.regex.Pattern.quote(java.io.File.pathSeparator))
              : new String[] {value}) {
        try {
          args.add(Path.of(one));
        } catch (java.nio.file.InvalidPathException x) {
          continue; // (refused by the workload before any trace is read)
        }
        names.add(fromFile.contains(key) ? "params." + key + " in --config " + config : "-p " + key + "=" + one);
      }
    }
    return args.isEmpty() ? null : names.get(ReplayCommand.traceArgument(file, args));
  }

  /**
   * A trace in {@code --out} must not bear a name the report writes or may remove there: it was overwritten by the
   * report's file of that name, or removed as an earlier report's file, and still reported as written.
   */
  private static void refuseTraceAmongTheReportsFiles(Path trace, Path dir) throws java.io.IOException {
    Path parent = trace.toAbsolutePath().normalize().getParent();
    Path out = dir.toAbsolutePath().normalize();
    boolean inOut = out.equals(parent) || parent != null && java.nio.file.Files.isDirectory(parent)
        && java.nio.file.Files.isDirectory(out) && java.nio.file.Files.isSameFile(parent, out);
    String name = trace.toAbsolutePath().normalize().getFileName().toString();
    if (inOut && (ReportWriter.owns(name) || name.equals(ReportWriter.WRITTEN))) {
      throw CliError.badInput("--trace " + trace + " is in --out " + dir + " under a name the report's files take ("
          + ReportWriter.RESULTS + ", " + ReportWriter.REPORT + ", *.csv, *.png); name it otherwise, trace.json for"
          + " one, or write it elsewhere", "--trace", null);
    }
  }

  private static RunConfig readConfig(Path file) {
    if (file.toString().isEmpty()) {
      // Path.of("") is the working directory, which was then reported as "a directory"
      throw CliError.badInput("--config must name a file but was empty", "--config", null);
    }
    if (java.nio.file.Files.isDirectory(file)) {
      throw CliError.badInput(file + " is a directory, not a configuration file", "--config", null);
    }
    try {
      return RunConfig.read(file);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      com.fasterxml.jackson.core.JsonLocation l = e.getLocation();
      // the line in the message, not after the file in the location: a location is cut to Texts.MAX_ECHO
      // characters, which under a long path left the line out
      throw CliError.badInput("cannot parse the configuration" + (l == null || l.getLineNr() < 0 ? ""
          : " at line " + l.getLineNr()) + ": " + ErrorHandler.parseProblem(e), "--config " + file, e);
    } catch (java.nio.file.NoSuchFileException e) {
      throw CliError.badInput("no such file: " + file, "--config", e);
    } catch (java.nio.charset.CharacterCodingException e) {
      throw CliError.badInput(file + " is not UTF-8 text (a configuration is JSON or YAML)", "--config", e);
    } catch (java.io.IOException e) {
      throw CliError.badInput("cannot read the configuration: " + ErrorHandler.reason(e), "--config " + file, e);
    } catch (IllegalArgumentException e) {
      throw CliError.badInput(e.getMessage(), "--config " + file, e);
    }
  }

  private static void printSummary(PrintWriter o, Workload w, SystemSpec s, WorkloadRun run, Path dir, Path html,
      boolean wallClock) {
    Results results = run.results();
    // the routing results.json records, which the workload may have chosen (traffic's -p routings, none on the ideal
    // fabric): the header printed --routing's, which the run had not used (until stop 75)
    String routing = results.metadata().routing();
    o.printf(Locale.ROOT, "aries run %s on %s (%sseed %d)%n", w.name(), s.system(),
        routing == null ? "" : "routing " + routing + ", ", s.seed());
    for (Metric m : results.metrics()) {
      // as replay's summary: counts whole, thousands grouped (run replay printed 8000.000 B and 3.000 ranks; until
      // stop 73)
      o.printf(Locale.ROOT, "  %-45s %12s%s%n", m.name(), Figures.text(m.value()),
          m.unit().isEmpty() ? "" : " " + m.unit());
    }
    run.notes().forEach(n -> o.printf(Locale.ROOT, "  %s%n", n));
    double wall = results.metadata().wallSeconds().orElse(0);
    long events = results.metadata().events();
    long simPs = results.metadata().simulatedTimePs();
    if (wallClock) {
      // (the rate, a few M events/s, stays as it was: aries-bench's InProcessAb reads it back)
      o.printf(Locale.ROOT, "  simulated %,.3f us, %,d events in %,.1f s wall (%.2f M events/s)%n",
          simPs / 1e6, events, wall, wall > 0 ? events / wall / 1e6 : 0);
    } else {
      // --no-wall-clock: results.json leaves the wall time out, and so does the text, which printed it all the same
      // (until stop 73), so two runs' outputs differed where their results did not
      o.printf(Locale.ROOT, "  simulated %,.3f us, %,d events%n", simPs / 1e6, events);
    }
    o.printf(Locale.ROOT, "  results: %s%n  report:  %s%n", dir.resolve("results.json"), html);
  }

}
