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
      description = "Replace an existing --out, --html (or its plots) or --csv file that an earlier merge did not"
          + " write (normally refused).")
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
    java.util.Set<String> kept = new java.util.HashSet<>();
    for (String m : metrics) {
      if (!kept.add(m)) {
        // it was told as "table sweep already has a column" (until stop 75)
        throw CliError.badInput("--metric " + io.github.ariesmodel.core.Texts.abbreviate(m) + " is given twice;"
            + " give each metric once", "--metric", null);
      }
    }
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
      if (csv != null) {
        made.add(OutputPaths.directory(csv, "--csv"));
      }
      if (html != null) {
        made.add(OutputPaths.file(html, "--html"));
      }
      // after the checks that the files can be written at all, which --force cannot fix
      refuseReplacingAnotherFile();
      List<Path> stale = html == null ? List.of() : stalePlots();
      // The merged JSON is written last, as run writes results.json last: when a CSV or HTML write fails, no new
      // merged file claims a finished merge (a previous one is left whole).
      if (csv != null) {
        ResultsCsv.write(merged, csv);
        // what this merge wrote there, which a later merge may replace (refuseReplacingAnotherFile)
        io.github.ariesmodel.cli.report.AtomicFiles.writeText(csv.resolve(CSV_WRITTEN),
            w -> w.write(csvTable().getFileName() + "\n"));
      }
      if (html != null) {
        writeHtml(merged, planned);
        for (Path png : stale) {
          // an earlier report's plot beyond this one's: left, it blocked the next merge with --plot (stop 75)
          java.nio.file.Files.deleteIfExists(png);
        }
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
      outputs.add(csvTable());
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
   * An existing output file is replaced only when an earlier merge wrote it (a merge again, as {@code run} replaces its
   * own earlier run in its {@code --out}) or with {@code --force}, as {@code run} and {@code replay} treat another
   * run's files: any other file there, the user's own or another command's, was overwritten without a word (until
   * stop 73). An earlier
   * merge's file is known by what it holds: the merged JSON's {@code run.command} is {@value #COMMAND}; the HTML
   * report's run table says so too; a plot's PNG is embedded, byte for byte, in such a report beside it; {@code
   * --csv}'s table is named in the hidden {@value #CSV_WRITTEN} a merge leaves in that directory (a CSV file has no
   * room for a mark of its own).
   */
  private void refuseReplacingAnotherFile() {
    if (force) {
      return;
    }
    if (java.nio.file.Files.exists(out)) {
      String previous = OutputPaths.recordedCommand(out);
      if (!COMMAND.equals(previous)) {
        throw CliError.badInput("--out " + out + (previous == null ? " exists and is not a merge's results file"
            : " holds the results of another command (\"" + io.github.ariesmodel.core.Texts.abbreviate(previous)
                + "\"), not a merge's") + "; choose another file or add --force to replace it", "--out", null);
      }
    }
    if (html != null) {
      boolean report = java.nio.file.Files.exists(html);
      boolean mergesReport = report && isMergeReport(html);
      if (report && !mergesReport) {
        throw CliError.badInput("--html " + html + " exists and is not a merge's report; choose another file or add"
            + " --force to replace it", "--html", null);
      }
      for (int i = 0; i < plots.size(); i++) {
        Path png = plotFile(i);
        if (java.nio.file.Files.exists(png) && !(mergesReport && embeds(html, png))) {
          throw CliError.badInput("--html " + html + " would write its plot " + png + " over a file that is not a"
              + " plot of an earlier merge's report there; choose another report name or add --force to replace it",
              "--html", null);
        }
      }
    }
    if (csv != null) {
      Path table = csvTable();
      // (something else by that name, a directory, is no file to replace: the write fails, as it did before)
      if (java.nio.file.Files.isRegularFile(table) && !writtenByAMerge(csv, table.getFileName().toString())) {
        throw CliError.badInput("--csv " + csv + " holds " + table.getFileName() + ", which no earlier merge wrote"
            + " there; choose another directory or add --force to replace it", "--csv", null);
      }
    }
  }

  /**
   * The hidden list of the files merges wrote in a {@code --csv} directory, one name a line: the files a later merge
   * may replace there without {@code --force}.
   */
  static final String CSV_WRITTEN = ".aries-merge-files";

  /** The {@code --csv} table, {@code DIR/sweep.csv}. */
  private Path csvTable() {
    return csv.resolve(SweepMerge.TABLE + ".csv");
  }

  /** @return whether {@code dir}'s {@link #CSV_WRITTEN} names {@code name} (an unreadable list names nothing) */
  private static boolean writtenByAMerge(Path dir, String name) {
    Path list = dir.resolve(CSV_WRITTEN);
    if (!java.nio.file.Files.isRegularFile(list)) {
      return false;
    }
    try (java.util.stream.Stream<String> lines = java.nio.file.Files.lines(list,
        java.nio.charset.StandardCharsets.UTF_8)) {
      return lines.limit(MAX_LIST_LINES).anyMatch(l -> l.strip().equals(name));
    } catch (IOException | java.io.UncheckedIOException e) {
      return false;
    }
  }

  /** Lines of {@link #CSV_WRITTEN} looked at: a merge writes one. */
  private static final int MAX_LIST_LINES = 16;

  /**
   * The start of an HTML report looked at for its run table: 1 MiB (assumed: the head, the title twice and the table's
   * first rows take a few kilobytes; a sweep's spec in the title is rarely longer).
   */
  private static final int REPORT_HEAD_BYTES = 1 << 20;

  /** The row an HTML report of a merge has in its run table ({@code HtmlReport}'s, for run.command). */
  private static final String MERGE_ROW = "<tr><th>command</th><td>" + COMMAND + "</td></tr>";

  /** @return whether {@code html} is an HTML report a merge wrote: its run table records the command merge */
  private static boolean isMergeReport(Path html) {
    byte[] head;
    try (java.io.InputStream in = java.nio.file.Files.newInputStream(html)) {
      head = in.readNBytes(REPORT_HEAD_BYTES);
    } catch (IOException e) {
      return false;
    }
    String text = new String(head, java.nio.charset.StandardCharsets.UTF_8);
    return text.startsWith("<!DOCTYPE html>") && text.contains(MERGE_ROW);
  }

  /** @return whether the report {@code html} embeds the PNG file's bytes (as its plots are embedded, in base64) */
  private static boolean embeds(Path html, Path png) {
    try {
      long size = java.nio.file.Files.size(png);
      if (size == 0 || size > java.nio.file.Files.size(html)) {
        return false;
      }
      String data = "data:image/png;base64," + java.util.Base64.getEncoder().encodeToString(
          java.nio.file.Files.readAllBytes(png)) + "\"";
      return java.nio.file.Files.readString(html, java.nio.charset.StandardCharsets.UTF_8).contains(data);
    } catch (IOException e) {
      return false; // (not UTF-8, say: not a merge's report after all)
    }
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

  /**
   * Parses every {@code --plot} and makes every check its drawing makes, writing nothing: its columns, and its series
   * as {@link Plots#xy} checks them. A plot no row gives both its X and Y for has nothing to draw and is refused here;
   * until stop 76 a group without such a row made an empty series, which the plot refused after the CSV table had been
   * written (and a repeated merge left its CSV new and its JSON and HTML old).
   */
  private List<PlanPlot> planPlots(Results merged) {
    List<PlanPlot> planned = new ArrayList<>();
    ResultTable t = merged.table(SweepMerge.TABLE).orElseThrow();
    for (String text : plots) {
      String shown = io.github.ariesmodel.core.Texts.abbreviate(text);
      String[] p = text.split(":", -1);
      if (p.length < 2 || p.length > 3) {
        throw CliError.badInput("--plot must be X:Y or X:Y:GROUP but was \"" + shown + "\"", "--plot", null);
      }
      try {
        List<Series> series = plotSeries(t, p);
        if (series.isEmpty()) {
          throw CliError.badInput("--plot " + shown + " has nothing to draw: no point of the sweep has both "
              + io.github.ariesmodel.core.Texts.abbreviate(p[0]) + " and "
              + io.github.ariesmodel.core.Texts.abbreviate(p[1]) + "; plot columns the points have values for",
              "--plot", null);
        }
        String yLabel = t.columns().get(t.columnIndex(p[1])).label();
        String xLabel = t.columns().get(t.columnIndex(p[0])).label();
        Plots.checkXy(title(p), series, Scale.LINEAR, Scale.LINEAR);
        planned.add(new PlanPlot(p, series, xLabel, yLabel));
      } catch (IllegalArgumentException e) {
        throw CliError.badInput("--plot " + shown + ": " + e.getMessage(), "--plot", e);
      }
    }
    return planned;
  }

  /**
   * The series of a plot {@code X:Y[:GROUP]} of the merged table, each grouped one named {@code GROUP=value} as the
   * bar plots of a run name theirs ({@code seed=1}: it was {@code 1}, which a legend cannot tell from a load or a
   * size).
   *
   * @param t the merged table
   * @param axes X, Y and optionally GROUP
   * @return the series, none empty
   * @throws IllegalArgumentException when a column is missing or X or Y holds text
   */
  static List<Series> plotSeries(ResultTable t, String[] axes) {
    List<Series> series = Series.fromTable(t, axes[0], axes[1], axes.length == 3 ? axes[2] : null);
    if (axes.length < 3) {
      return series;
    }
    List<Series> named = new ArrayList<>();
    for (Series s : series) {
      named.add(Series.of(axes[2] + "=" + s.name(), s.x(), s.y()));
    }
    return named;
  }

  /** A plot's title: {@code Y vs X}. */
  private static String title(String[] axes) {
    return axes[1] + " vs " + axes[0];
  }

  /**
   * The plots of an earlier merge's report at {@code --html} beyond this merge's {@code --plot}s ({@code -plot-N.png}
   * for N from the plot count on, while they exist), each only when that report embeds it: a merge with fewer plots
   * left them, and the next merge with more refused them as files no merge had written (until stop 75).
   */
  private List<Path> stalePlots() {
    List<Path> stale = new ArrayList<>();
    if (!java.nio.file.Files.isRegularFile(html) || !isMergeReport(html)) {
      return stale;
    }
    for (int i = plots.size(); java.nio.file.Files.isRegularFile(plotFile(i)); i++) {
      if (embeds(html, plotFile(i))) {
        stale.add(plotFile(i));
      }
    }
    return stale;
  }

  /**
   * Writes the plots, then the report that embeds them. When a write fails, the plots written are removed again: a
   * plot the report on disk does not embed is refused by the next merge as a file no merge wrote, so a failed report
   * blocked its own rerun (until stop 75). (An earlier report embeds its own plots, so it stays whole.)
   */
  private void writeHtml(Results merged, List<PlanPlot> planned) throws IOException {
    HtmlReport.Builder report = HtmlReport.builder(merged).title("Sweep " + merged.metadata().parameters().get("spec"))
        .wholeTablesIn(out.toString(), csv == null ? null : csv.toString());
    List<Path> written = new ArrayList<>();
    boolean done = false;
    try {
      for (int i = 0; i < planned.size(); i++) {
        PlanPlot plot = planned.get(i);
        String[] p = plot.axes();
        Path png = plotFile(i);
        Plots.xy(png, title(p), plot.xLabel(), plot.yLabel(), plot.series(), Scale.LINEAR, Scale.LINEAR,
            Plots.DEFAULT_WIDTH, Plots.DEFAULT_HEIGHT);
        written.add(png); // (once written: what stood there when the write failed is not this merge's)
        report.plot(title(p) + (p.length == 3 ? " by " + p[2] : ""), png);
      }
      report.build().write(html);
      done = true;
    } finally {
      if (!done) {
        for (Path png : written) {
          try {
            java.nio.file.Files.deleteIfExists(png);
          } catch (IOException e) {
            // left: the write's failure is what the user needs to hear of
          }
        }
      }
    }
  }
}
