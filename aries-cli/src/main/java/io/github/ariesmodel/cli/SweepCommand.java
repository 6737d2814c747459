package io.github.ariesmodel.cli;

import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.ResultsJson;
import io.github.ariesmodel.cli.report.RunMetadata;
import io.github.ariesmodel.cli.report.SweepCoordinates;
import io.github.ariesmodel.cli.sweep.Shard;
import io.github.ariesmodel.cli.sweep.SweepJobs;
import io.github.ariesmodel.cli.sweep.SweepMerge;
import io.github.ariesmodel.cli.sweep.SweepPoint;
import io.github.ariesmodel.cli.sweep.SweepRunner;
import io.github.ariesmodel.cli.sweep.SweepSpec;
import io.github.ariesmodel.core.Texts;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code aries sweep}: runs a job at every point of a parameter sweep (or of one shard of it) and writes {@code
 * <out>/point-<index>.json} per point; {@code aries merge} then combines the files. Usage is documented in {@code
 * docs/results-schema.md}.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
      "Run a job over the cartesian product of parameter lists, one results file per point.",
      "Points are numbered with the first --param outermost (the last varies fastest).",
      "Example: aries sweep --job pingpong --param sizes=8,4K,1M --param seed=1..2 --shard 0/2 --out results/s"
    })
final class SweepCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--job", paramLabel = "NAME", description = "The job to run at each point (see --list-jobs).")
  String job;

  @Option(names = {"-p", "--param"}, paramLabel = "NAME=VALUES",
      description = "A swept parameter: comma-separated values, or an integer range a..b; a value in brackets is one "
          + "value, commas included ([canonical:p=2,a=4,h=2]). Repeat for each parameter.")
  List<String> params = new ArrayList<>();

  @Option(names = "--shard", paramLabel = "i/N", defaultValue = "0/1",
      description = "Run only the points whose index is i modulo N (for job arrays). Default: ${DEFAULT-VALUE}.")
  String shard;

  @Option(names = "--jobs", paramLabel = "N", defaultValue = "1",
      description = "Run up to N points at the same time on this machine (each point on its own thread; the files "
          + "are identical to a sequential run's; 1 to " + MAX_JOBS + "). Default: ${DEFAULT-VALUE}.")
  String jobsText;

  /** Most {@code --jobs}: the bound of {@code run --threads}, well under the JDK's 32,767 carrier threads. */
  static final int MAX_JOBS = 4096;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "results/sweep",
      description = "Directory for the point files. Default: ${DEFAULT-VALUE}.")
  Path out;

  @Option(names = "--force",
      description = "Replace the points of another sweep that --out holds (its point files are deleted first).")
  boolean force;

  @Mixin SharedOptions.WallClock wallClock;

  @Option(names = "--dry-run", description = "Print the points this shard would run, and run nothing.")
  boolean dryRun;

  @Option(names = "--list-jobs", description = "List the jobs a sweep can run.")
  boolean listJobs;

  @Mixin SharedOptions.Quiet quiet;

  private final SweepJobs jobs;

  /** A command running the built-in jobs ({@link SweepJobs#builtIn()}). */
  public SweepCommand() {
    this(SweepJobs.builtIn());
  }

  /**
   * A command running the jobs of a registry.
   *
   * @param jobs the registry
   */
  public SweepCommand(SweepJobs jobs) {
    this.jobs = Objects.requireNonNull(jobs, "jobs");
  }

  @Override
  public Integer call() throws IOException {
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (listJobs) {
      for (SweepJobs.Job j : jobs.jobs()) {
        stdout.printf(Locale.ROOT, "%-16s %s%n", j.name(), j.description());
      }
      stdout.flush();
      return 0;
    }
    if (job == null) {
      throw CliError.badInput("--job is required (one of " + jobs.names() + ")", "--job", null);
    }
    if (params.isEmpty()) {
      throw CliError.badInput("at least one --param NAME=VALUES is required", "--param", null);
    }
    SweepJobs.Job chosen = jobs.job(job);
    Function<Map<String, String>, Results> fn = chosen.job();
    SweepSpec sweep;
    try {
      sweep = SweepSpec.parse(params);
    } catch (IllegalArgumentException e) {
      // located at the option the user typed, as a point's refusal is (it read "(arguments)")
      throw CliError.badInput(e.getMessage(), "--param", e);
    }
    Shard part;
    try {
      part = Shard.parse(shard);
    } catch (IllegalArgumentException e) {
      throw CliError.badInput(e.getMessage(), "--shard", e);
    }
    int jobCount = jobCount(jobsText);
    VirtualCarriers.forLanes(jobCount);
    List<SweepPoint> points = sweep.points(part);
    for (SweepPoint p : points) {
      try {
        chosen.check().accept(p.parameters());
      } catch (IllegalArgumentException e) {
        throw CliError.badInput("point " + p.index() + " " + p.parameters() + ": " + e.getMessage(), "--param", e);
      } catch (RuntimeException e) {
        // a point's trace that cannot be read, say: reported as its kind is, the point named first
        throw new SweepRunner.PointFailedException("point " + p.index() + " " + p.parameters() + ": ", e);
      }
    }
    if (dryRun) {
      stdout.printf(Locale.ROOT, "sweep %s: %d points, shard %s runs %d%n", sweep, sweep.size(), part, points.size());
      for (SweepPoint p : points) {
        stdout.printf(Locale.ROOT, "%d %s%n", p.index(), p.parameters());
      }
      stdout.flush();
      return 0;
    }
    String command = "sweep --job " + job + " " + sweep;
    Function<Map<String, String>, Results> recorded = p -> {
      Results r = fn.apply(p);
      return r == null ? null : r.withMetadata(r.metadata().toBuilder().command(command).build());
    };
    SweepRunner.Listener listener = quiet.quiet ? null
        : (p, done, total, file) -> {
          err.printf(Locale.ROOT, "sweep: point %d %s done (%d/%d of shard %s) -> %s%n", p.index(), p.parameters(),
              done, total, part, file);
          err.flush();
        };
    OutputPaths.Made made = OutputPaths.directory(out, "--out");
    boolean ran = false;
    try {
      refuseAnotherSweepsPoints(command, sweep);
      new SweepRunner(recorded).run(sweep, part, out, wallClock.recorded(), listener, jobCount);
      ran = true;
    } finally {
      if (!ran) {
        made.remove(); // only while empty: a finished point keeps it
      }
    }
    return 0;
  }

  /**
   * {@code --out} may hold points of this same sweep (another shard's, or a repeat's: they are replaced one by one),
   * but not another sweep's, which this one would overwrite point by point and leave a mix no merge accepts. With
   * {@code --force} the other sweep's point files are deleted instead.
   */
  private void refuseAnotherSweepsPoints(String command, SweepSpec sweep) throws IOException {
    List<Path> foreign = new ArrayList<>();
    String first = null;
    for (Path f : SweepMerge.pointFiles(List.of(out))) {
      String why = foreignness(f, command, sweep);
      if (why != null) {
        foreign.add(f);
        if (first == null) {
          first = f.getFileName() + ": " + why;
        }
      }
    }
    if (foreign.isEmpty()) {
      return;
    }
    if (!force) {
      throw CliError.badInput(out + " holds " + foreign.size() + " point file(s) of another sweep (" + first
          + "); choose another directory or add --force to replace them", "--out", null);
    }
    for (Path f : foreign) {
      Files.delete(f);
    }
  }

  /**
   * @return why point file {@code f} is not one of this sweep's (its command, the build that wrote it, or
   *     "unreadable"), or null when it is
   */
  private static String foreignness(Path f, String command, SweepSpec sweep) {
    Results r;
    try {
      r = ResultsJson.read(f);
    } catch (IOException | RuntimeException e) {
      return "unreadable";
    }
    SweepCoordinates c = r.metadata().sweep();
    if (c == null) {
      return "not a sweep point";
    }
    boolean same = command.equals(r.metadata().command()) && c.points() == sweep.size()
        && c.spec().equals(sweep.toString());
    if (!same) {
      return "\"" + Texts.abbreviate(String.valueOf(r.metadata().command())) + "\"";
    }
    // this sweep's point by another build: merge refuses the mix (until stop 77 it was found only there, after every
    // shard had run)
    String tool = RunMetadata.currentTool();
    return tool.equals(r.metadata().tool()) ? null
        : "written by \"" + Texts.abbreviate(r.metadata().tool()) + "\", not " + tool;
  }

  /**
   * @param text a {@code --jobs} value
   * @return the count (exit 2 with one line naming the range when it is not a number in [1, {@link #MAX_JOBS}])
   */
  static int jobCount(String text) {
    int n;
    try {
      n = Integer.parseInt(text.strip());
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n < 1 || n > MAX_JOBS) {
      throw CliError.badInput("--jobs must be in [1, " + MAX_JOBS + "] but was " + text, "--jobs", null);
    }
    return n;
  }
}
