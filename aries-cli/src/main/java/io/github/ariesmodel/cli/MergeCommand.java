package io.github.ariesmodel.cli;

import io.github.ariesmodel.cli.report.HtmlReport;
import io.github.ariesmodel.cli.report.Plots;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.ResultsCsv;
import io.github.ariesmodel.cli.report.ResultsJson;
import io.github.ariesmodel.cli.report.Scale;
import io.github.ariesmodel.cli.report.Series;
import io.github.ariesmodel.cli.sweep.SweepMerge;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code aries merge}: combines the {@code point-<index>.json} files of a sweep (from any number of shard
 * directories) into one results file with one row per point, and optionally CSV, plots and an HTML report. Usage is
 * documented in {@code docs/results-schema.md}.
 */
@Command(name = "merge", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
      "Merge the point files of a sweep into one results file.",
      "One row per point; columns = point, parameters, metrics. Fails on duplicate or missing points."
    })
final class MergeCommand implements Callable<Integer> {

  /** The command a merged file records ({@code run.command}), by which a later merge knows it may replace it. */
  static final String COMMAND = "merge";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "INPUT",
      description = "Directories holding point-*.json files (e.g. one per shard), or point files.")
  List<Path> inputs = new ArrayList<>();

  @Option(names = "--out", paramLabel = "FILE", defaultValue = "results/sweep.json",
      description = "Merged results (JSON). Default: ${DEFAULT-VALUE}.")
  Path out;

  @Option(names = "--force",
      description = "Replace an existing --out file that is not an earlier merge's (normally refused).")
  boolean force;

  @Option(names = "--metric", paramLabel = "NAME",
      description = "A metric to keep, in order; repeat. Default: every metric of the points, the first point's first.")
  List<String> metrics = new ArrayList<>();

  @Option(names = "--csv", paramLabel = "DIR", description = "Also write the table as CSV into DIR.")
  Path csv;

  @Option(names = "--html", paramLabel = "FILE", description = "Also write a self-contained HTML report.")
  Path html;

  @Option(names = "--plot", paramLabel = "X:Y[:GROUP]",
      description = "Add an XY plot of column Y against column X, one line per value of GROUP, to the HTML report.")
  List<String> plots = new ArrayList<>();

  @Override
  public Integer call() throws IOException {
    if (!plots.isEmpty() && html == null) {
      throw CliError.badInput("--plot needs --html FILE", "--plot", null);
    }
    // the output paths' own faults, then the inputs, and only then the output checks that make missing directories
    // (refused inputs would leave them behind)
    OutputPaths.fileItself(out, "--out");
    if (html != null) {
      OutputPaths.fileItself(html, "--html");
    }
    for (Path in : inputs) {
      if (in.toString().isEmpty()) {
        // Path.of("") is the working directory: its point files would be merged without a word
        throw CliError.badInput("an input must name a directory or point file but one was empty", "inputs", null);
      }
    }
    refuseOverwritingInputs();
    Results merged = SweepMerge.mergeFiles(inputs, metrics, COMMAND);
    List<PlanPlot> planned = planPlots(merged); // a bad --plot is refused before anything is written
    // the directories made for the outputs go again (each while empty) when a later check or a write fails: a refused
    // --csv left --out's new directories behind
    OutputPaths.Made made = OutputPaths.Made.none();
    boolean written = false;
    try {
      made.add(OutputPaths.file(out, "--out"));
      refuseReplacingAnotherFile(); // after the check that the file can be written at all, which --force cannot fix
      if (csv != null) {
        made.add(OutputPaths.directory(csv, "--csv"));
      }
      if (html != null) {
        made.add(OutputPaths.file(html, "--html"));
      }
      // The merged JSON is written last, as run writes results.json last: when a CSV or HTML write fails, no new
      // merged file claims a finished merge (a previous one is left whole).
      if (csv != null) {
        ResultsCsv.write(merged, csv);
      }
      if (html != null) {
        writeHtml(merged, planned);
      }
      ResultsJson.write(merged, out, false);
      ResultTable t = merged.table(SweepMerge.TABLE).orElseThrow();
      spec.commandLine().getOut().printf(Locale.ROOT, "merged %d points into %s%n", t.rows().size(), out);
      spec.commandLine().getOut().flush();
      written = true;
      return 0;
    } finally {
      if (!written) {
        made.remove();
      }
    }
  }

  /**
   * No file the merge writes may replace a point file it is made from, or another file it writes: the merged JSON,
   * the HTML report and its plots, the CSV table. {@code --html} was not checked, so {@code --html} naming a point
   * file or the {@code --out} file overwrote it. Nor may the merged file become one of a later merge's inputs.
   */
  private void refuseOverwritingInputs() throws IOException {
    List<Path> points = SweepMerge.pointFiles(inputs);
    List<String> options = new ArrayList<>();
    List<Path> outputs = new ArrayList<>();
    options.add("--out");
    outputs.add(out);
    if (html != null) {
      options.add("--html");
      outputs.add(html);
      for (int i = 0; i < plots.size(); i++) {
        options.add("--html");
        outputs.add(plotFile(i));
      }
    }
    if (csv != null) {
      options.add("--csv");
      outputs.add(csv.resolve(SweepMerge.TABLE + ".csv"));
    }
    for (int k = 0; k < outputs.size(); k++) {
      String option = options.get(k);
      Path file = outputs.get(k);
      for (Path in : inputs) {
        if (same(in, file)) {
          throw CliError.badInput(option + " " + file + " is one of the inputs; write the "
              + (option.equals("--out") ? "merge" : "report") + " elsewhere", option, null);
        }
      }
      for (Path f : points) {
        if (same(f, file)) {
          throw CliError.badInput(option + " " + file + " would overwrite the input point file " + f, option, null);
        }
      }
      for (int j = 0; j < k; j++) {
        if (same(outputs.get(j), file)) {
          throw CliError.badInput(option + " " + file + " is also the file of " + options.get(j) + " "
              + outputs.get(j) + "; give each output a file of its own", option, null);
        }
      }
    }
    String name = out.toAbsolutePath().normalize().getFileName().toString();
    if (name.startsWith("point-") && name.endsWith(".json")) {
      throw CliError.badInput("--out must not be named point-*.json (a later merge would read it as a point): "
          + out, "--out", null);
    }
  }

  /**
   * An existing {@code --out} is replaced only when it is an earlier merge's file (a merge again, as {@code run}
   * replaces its own earlier run in its {@code --out}) or with {@code --force}, as {@code run} and {@code replay} treat
   * another run's files: any other file there, the user's own or another command's results, was overwritten without
   * a word (until stop 73).
   */
  private void refuseReplacingAnotherFile() {
    if (force || !java.nio.file.Files.exists(out)) {
      return;
    }
    String previous = OutputPaths.recordedCommand(out);
    if (COMMAND.equals(previous)) {
      return;
    }
    throw CliError.badInput("--out " + out + (previous == null ? " exists and is not a merge's results file"
        : " holds the results of another command (\"" + io.github.ariesmodel.core.Texts.abbreviate(previous)
            + "\"), not a merge's") + "; choose another file or add --force to replace it", "--out", null);
  }

  /** Whether two paths name one file: the same path once made absolute, or (both existing) the same file. */
  private static boolean same(Path a, Path b) throws IOException {
    if (a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize())) {
      return true;
    }
    return java.nio.file.Files.exists(a) && java.nio.file.Files.exists(b) && java.nio.file.Files.isSameFile(a, b);
  }

  /** The PNG of the {@code i}-th {@code --plot}, beside the HTML report: {@code <report>-plot-<i>.png}. */
  private Path plotFile(int i) {
    String base = html.getFileName().toString().replaceFirst("\\.html?$", "");
    return html.toAbsolutePath().getParent().resolve(base + "-plot-" + i + ".png");
  }

  /** One {@code --plot}, parsed and checked against the merged table. */
  private record PlanPlot(String[] axes, List<Series> series, String xLabel, String yLabel) {}

  /** Parses every {@code --plot} and checks its columns, writing nothing. */
  private List<PlanPlot> planPlots(Results merged) {
    List<PlanPlot> planned = new ArrayList<>();
    ResultTable t = merged.table(SweepMerge.TABLE).orElseThrow();
    for (String text : plots) {
      String[] p = text.split(":", -1);
      if (p.length < 2 || p.length > 3) {
        throw new IllegalArgumentException("--plot must be X:Y or X:Y:GROUP but was \"" + text + "\"");
      }
      List<Series> series = Series.fromTable(t, p[0], p[1], p.length == 3 ? p[2] : null);
      String yLabel = t.columns().get(t.columnIndex(p[1])).label();
      String xLabel = t.columns().get(t.columnIndex(p[0])).label();
      planned.add(new PlanPlot(p, series, xLabel, yLabel));
    }
    return planned;
  }

  private void writeHtml(Results merged, List<PlanPlot> planned) throws IOException {
    HtmlReport.Builder report = HtmlReport.builder(merged).title("Sweep " + merged.metadata().parameters().get("spec"));
    for (int i = 0; i < planned.size(); i++) {
      PlanPlot plot = planned.get(i);
      String[] p = plot.axes();
      Path png = plotFile(i);
      Plots.xy(png, p[1] + " vs " + p[0], plot.xLabel(), plot.yLabel(), plot.series(), Scale.LINEAR, Scale.LINEAR,
          Plots.DEFAULT_WIDTH, Plots.DEFAULT_HEIGHT);
      report.plot(p[1] + " vs " + p[0] + (p.length == 3 ? " by " + p[2] : ""), png);
    }
    report.build().write(html);
  }
}
