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

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "INPUT",
      description = "Directories holding point-*.json files (e.g. one per shard), or point files.")
  List<Path> inputs = new ArrayList<>();

  @Option(names = "--out", paramLabel = "FILE", defaultValue = "results/sweep.json",
      description = "Merged results (JSON). Default: ${DEFAULT-VALUE}.")
  Path out;

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
    Results merged = SweepMerge.mergeFiles(inputs, metrics, "merge");
    List<PlanPlot> planned = planPlots(merged); // a bad --plot is refused before anything is written
    OutputPaths.file(out, "--out");
    if (csv != null) {
      OutputPaths.directory(csv, "--csv");
    }
    if (html != null) {
      OutputPaths.file(html, "--html");
    }
    {
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
      spec.commandLine().getOut().printf("merged %d points into %s%n", t.rows().size(), out);
      spec.commandLine().getOut().flush();
      return 0;
    }
  }

  /** The merged file must not replace a point file it is made from, nor become one of a later merge's inputs. */
  private void refuseOverwritingInputs() throws IOException {
    Path target = out.toAbsolutePath().normalize();
    for (Path in : inputs) {
      Path a = in.toAbsolutePath().normalize();
      if (a.equals(target)) {
        throw CliError.badInput("--out " + out + " is one of the inputs; write the merge elsewhere", "--out", null);
      }
    }
    for (Path f : SweepMerge.pointFiles(inputs)) {
      if (f.toAbsolutePath().normalize().equals(target)) {
        throw CliError.badInput("--out " + out + " would overwrite the input point file " + f, "--out", null);
      }
    }
    String name = target.getFileName().toString();
    if (name.startsWith("point-") && name.endsWith(".json")) {
      throw CliError.badInput("--out must not be named point-*.json (a later merge would read it as a point): "
          + out, "--out", null);
    }
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
    Path dir = html.toAbsolutePath().getParent();
    String base = html.getFileName().toString().replaceFirst("\\.html?$", "");
    for (int i = 0; i < planned.size(); i++) {
      PlanPlot plot = planned.get(i);
      String[] p = plot.axes();
      Path png = dir.resolve(base + "-plot-" + i + ".png");
      Plots.xy(png, p[1] + " vs " + p[0], plot.xLabel(), plot.yLabel(), plot.series(), Scale.LINEAR, Scale.LINEAR,
          Plots.DEFAULT_WIDTH, Plots.DEFAULT_HEIGHT);
      report.plot(p[1] + " vs " + p[0] + (p.length == 3 ? " by " + p[2] : ""), png);
    }
    report.build().write(html);
  }
}
