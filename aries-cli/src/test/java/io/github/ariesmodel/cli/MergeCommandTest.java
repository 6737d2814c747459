package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.cli.report.ResultsJson;
import io.github.ariesmodel.cli.sweep.SweepMerge;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code aries merge} refusing what it cannot merge or must not write, in one line with exit status 2 and no file
 * touched, and the merge example of docs/results-schema.md working as written.
 */
class MergeCommandTest {

  @TempDir Path tmp;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private Path sw;

  private int aries(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    return AriesCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  private String onlyLine() {
    String e = err.toString();
    assertThat(e.lines().count()).as(e).isEqualTo(1);
    assertThat(e).doesNotContain("\tat ", "Exception");
    return e.strip();
  }

  /** A two-point pingpong sweep's directory. */
  @BeforeEach
  void sweep() {
    sw = tmp.resolve("sw");
    assertThat(aries("sweep", "--job", "pingpong", "--param", "sizes=8,64", "--param", "iterations=1",
        "--no-wall-clock", "--out", sw.toString(), "-q")).as(err.toString()).isZero();
  }

  @Test
  void pointsOfAnotherJobWithTheSameSpecAreRefusedNamingBothJobs() throws IOException {
    Path p1 = sw.resolve("point-1.json");
    String text = Files.readString(p1);
    String edited = text.replace("\"command\" : \"sweep --job pingpong ", "\"command\" : \"sweep --job gups ");
    assertThat(edited).isNotEqualTo(text);
    Files.writeString(p1, edited);
    Path merged = tmp.resolve("m.json");
    assertThat(aries("merge", "--out", merged.toString(), sw.toString())).isEqualTo(2);
    assertThat(onlyLine()).contains("points come from different jobs")
        .contains("point 0 (" + sw.resolve("point-0.json") + ") is from job pingpong")
        .contains("point 1 (" + p1 + ") is from job gups");
    assertThat(merged).doesNotExist();
  }

  /**
   * Points that two versions of the tool wrote are refused, naming both versions and files, as points of two jobs are:
   * they were merged under the first point's tool.
   */
  @Test
  void pointsOfAnotherVersionOfTheToolAreRefusedNamingBoth() throws IOException {
    Path p1 = sw.resolve("point-1.json");
    String text = Files.readString(p1);
    String tool = ResultsJson.read(sw.resolve("point-0.json")).metadata().tool();
    String edited = text.replace("\"tool\" : \"" + tool + "\"", "\"tool\" : \"aries-model 0.0.9\"");
    assertThat(edited).isNotEqualTo(text);
    Files.writeString(p1, edited);
    Path merged = tmp.resolve("m.json");
    assertThat(aries("merge", "--out", merged.toString(), sw.toString())).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries merge: points come from different versions of the tool: point 0 ("
        + sw.resolve("point-0.json") + ") was written by \"" + tool + "\" but point 1 (" + p1 + ") by \"aries-model"
        + " 0.0.9\"; merge the points of one build (run the sweep again with it) (arguments)");
    assertThat(merged).doesNotExist();
  }

  @Test
  void anHtmlReportNamingAnInputOrTheMergedFileIsRefusedBeforeAnythingIsWritten() throws IOException {
    Path p0 = sw.resolve("point-0.json");
    byte[] before = Files.readAllBytes(p0);
    Path merged = tmp.resolve("m.json");
    Path csv = tmp.resolve("csv");
    // a point file inside an input directory, a point file given as an input, the merged file
    assertThat(aries("merge", "--out", merged.toString(), "--csv", csv.toString(), "--html", p0.toString(),
        sw.toString())).isEqualTo(2);
    assertThat(onlyLine()).contains("--html " + p0 + " would overwrite the input point file " + p0)
        .endsWith("(--html)");
    assertThat(aries("merge", "--out", merged.toString(), "--html", p0.toString(), p0.toString(),
        sw.resolve("point-1.json").toString())).isEqualTo(2);
    assertThat(onlyLine()).contains("--html " + p0 + " is one of the inputs");
    assertThat(Files.readAllBytes(p0)).isEqualTo(before);
    assertThat(aries("merge", "--out", merged.toString(), "--csv", csv.toString(), "--html", merged.toString(),
        sw.toString())).isEqualTo(2);
    assertThat(onlyLine()).contains("--html " + merged + " is also the file of --out " + merged);
    assertThat(merged).doesNotExist();
    assertThat(csv).as("refused before --csv is written").doesNotExist();
    // a plot's PNG beside the report may not replace the merged file either
    Path png = tmp.resolve("r-plot-0.png");
    assertThat(aries("merge", "--out", png.toString(), "--html", tmp.resolve("r.html").toString(), "--plot",
        "sizes:latency.same-router", sw.toString())).isEqualTo(2);
    assertThat(onlyLine()).contains("is also the file of --out " + png);
    assertThat(png).doesNotExist();
    // apart, they are written
    assertThat(aries("merge", "--out", merged.toString(), "--html", tmp.resolve("r.html").toString(),
        sw.toString())).as(err.toString()).isZero();
    assertThat(ResultsJson.read(merged).table(SweepMerge.TABLE).orElseThrow().rows()).hasSize(2);
  }

  /**
   * An existing {@code --out} that is not an earlier merge's file (the user's own, another command's results) is
   * refused unless {@code --force}, as {@code run} and {@code replay} refuse another run's files in theirs; it was
   * overwritten without a word (until stop 73). An earlier merge's file is replaced, as a repeated run's is.
   */
  @Test
  void anOutFileThatIsNotAnEarlierMergesIsReplacedOnlyWithForce() throws IOException {
    Path mine = Files.writeString(tmp.resolve("notes.json"), "{\"my\" : \"notes\"}\n");
    Path pointElsewhere = Files.copy(sw.resolve("point-0.json"), tmp.resolve("kept.json"));
    byte[] notes = Files.readAllBytes(mine);
    byte[] point = Files.readAllBytes(pointElsewhere);
    Path csv = tmp.resolve("csv");
    assertThat(aries("merge", "--out", mine.toString(), "--csv", csv.toString(), sw.toString())).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries merge: --out " + mine + " exists and is not a merge's results file; choose"
        + " another file or add --force to replace it (--out)");
    assertThat(aries("merge", "--out", pointElsewhere.toString(), sw.toString())).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries merge: --out " + pointElsewhere + " holds the results of another command"
        + " (\"sweep --job pingpong sizes=8,64;iterations=1\"), not a merge's; choose another file or add --force to"
        + " replace it (--out)");
    assertThat(Files.readAllBytes(mine)).as("untouched").isEqualTo(notes);
    assertThat(Files.readAllBytes(pointElsewhere)).as("untouched").isEqualTo(point);
    assertThat(csv).as("nothing else written").doesNotExist();
    // --force replaces them
    for (Path f : new Path[] {mine, pointElsewhere}) {
      assertThat(aries("merge", "--out", f.toString(), "--force", sw.toString())).as(err.toString()).isZero();
      assertThat(ResultsJson.read(f).table(SweepMerge.TABLE).orElseThrow().rows()).hasSize(2);
    }
    // a merge's file, another merge replaces without it
    assertThat(aries("merge", "--out", mine.toString(), "--metric", "latency.rank-1", sw.toString()))
        .as(err.toString()).isZero();
    assertThat(ResultsJson.read(mine).table(SweepMerge.TABLE).orElseThrow().columns())
        .extracting(c -> c.name()).endsWith("latency.rank-1").doesNotContain("latency.same-router");
  }

  /**
   * A point file with a metric twice, or more after its object, was merged, the later value winning and the rest
   * dropped (until stop 73): refused in one line naming the file and the line, nothing written.
   */
  @Test
  void aPointFileWithADuplicateKeyOrTrailingTextIsRefusedNamingTheFile() throws IOException {
    Path p1 = sw.resolve("point-1.json");
    String text = Files.readString(p1);
    String dup = text.replace("\"metrics\" : {",
        "\"metrics\" : {\n    \"latency.same-router\" : {\"value\" : 1.0, \"unit\" : \"ns\"},");
    assertThat(dup).isNotEqualTo(text);
    Path merged = tmp.resolve("m.json");
    for (String damaged : new String[] {dup, text + "\n{\"schema\" : \"junk\"}\n"}) {
      Files.writeString(p1, damaged);
      assertThat(aries("merge", "--out", merged.toString(), sw.toString())).isEqualTo(2);
      assertThat(onlyLine()).startsWith("aries merge: " + p1 + ", line ")
          .containsAnyOf(": not valid JSON: Duplicate field 'latency.same-router'",
              ": not valid JSON: more follows the first value");
      assertThat(merged).doesNotExist();
    }
  }

  /**
   * {@code --html} (and its plots' PNGs) and {@code --csv}'s {@code sweep.csv} follow {@code --out}'s rule: what an
   * earlier merge wrote there is replaced, anything else is refused unless {@code --force}; they were overwritten
   * without a word (until stop 73).
   */
  @Test
  void htmlPlotsAndCsvReplaceOnlyAnEarlierMergesFilesUnlessForced() throws IOException {
    Path merged = tmp.resolve("m.json");
    Path report = tmp.resolve("r.html");
    Path png = tmp.resolve("r-plot-0.png");
    Path csv = tmp.resolve("csv");
    Path table = csv.resolve("sweep.csv");
    String[] merge = {"merge", "--out", merged.toString(), "--html", report.toString(), "--plot",
        "sizes:latency.same-router", "--csv", csv.toString(), sw.toString()};
    // the user's own files at each path: refused, in one line naming the option, and nothing written
    Files.writeString(report, "<p>my notes</p>\n");
    assertThat(aries(merge)).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries merge: --html " + report + " exists and is not a merge's report; choose"
        + " another file or add --force to replace it (--html)");
    assertThat(report).hasContent("<p>my notes</p>");
    assertThat(merged).doesNotExist();
    assertThat(csv).doesNotExist();
    Files.delete(report);
    Files.write(png, new byte[] {1, 2, 3});
    assertThat(aries(merge)).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries merge: --html " + report + " would write its plot " + png + " over a file"
        + " that is not a plot of an earlier merge's report there; choose another report name or add --force to"
        + " replace it (--html)");
    assertThat(Files.readAllBytes(png)).containsExactly(1, 2, 3);
    Files.delete(png);
    Files.createDirectories(csv);
    Files.writeString(table, "mine\n");
    assertThat(aries(merge)).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries merge: --csv " + csv + " holds sweep.csv, which no earlier merge wrote"
        + " there; choose another directory or add --force to replace it (--csv)");
    assertThat(table).hasContent("mine");
    assertThat(report).doesNotExist();
    assertThat(merged).doesNotExist();
    // --force replaces it; then a merge again replaces what the earlier merge wrote, without --force
    assertThat(aries(append(merge, "--force"))).as(err.toString()).isZero();
    assertThat(Files.readString(table)).startsWith("point,");
    assertThat(aries(merge)).as(err.toString()).isZero();
    // a merge's report beside a PNG that is not its plot: refused, though the report itself is a merge's
    Files.write(png, new byte[] {4, 5});
    assertThat(aries(merge)).isEqualTo(2);
    assertThat(onlyLine()).contains("would write its plot " + png);
    assertThat(aries(append(merge, "--force"))).as(err.toString()).isZero();
    assertThat(Files.readAllBytes(png)).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
    // another command's report (run's report.html) is not a merge's
    Path runs = tmp.resolve("run");
    assertThat(aries("run", "pingpong", "-p", "sizes=8", "-p", "iterations=1", "-p", "distances=same-router", "-q",
        "--out", runs.toString())).as(err.toString()).isZero();
    assertThat(aries("merge", "--out", merged.toString(), "--html", runs.resolve("report.html").toString(),
        sw.toString())).isEqualTo(2);
    assertThat(onlyLine()).contains("--html " + runs.resolve("report.html") + " exists and is not a merge's report");
  }

  @Test
  void aMergeWithFewerPlotsRemovesTheEarlierReportsOthersAndAFailedReportLeavesNoPlotBehind() throws IOException {
    Path merged = tmp.resolve("m.json");
    Path report = tmp.resolve("m.html");
    Path png = tmp.resolve("m-plot-0.png");
    String[] merge = {"merge", "--out", merged.toString(), "--html", report.toString(), sw.toString()};
    String[] plotted = append(merge, "--plot", "sizes:latency.same-router");
    assertThat(aries(plotted)).as(err.toString()).isZero();
    assertThat(png).exists();
    // without --plot: the earlier report's plot goes with it (it was left, and the next merge with --plot refused it)
    assertThat(aries(merge)).as(err.toString()).isZero();
    assertThat(png).doesNotExist();
    assertThat(aries(plotted)).as(err.toString()).isZero();
    assertThat(png).exists();
    // a user's file beyond the plots is not an earlier report's plot: left
    Path mine = tmp.resolve("m-plot-1.png");
    Files.write(mine, new byte[] {7});
    assertThat(aries(merge)).as(err.toString()).isZero();
    assertThat(png).doesNotExist();
    assertThat(Files.readAllBytes(mine)).containsExactly(7);
    Files.delete(mine);
    // a report whose second plot cannot be written (a directory by its name): the first plot goes again, so the
    // rerun is not refused for it
    Files.delete(report);
    Files.createDirectory(mine);
    String[] two = append(plotted, "--plot", "sizes:latency.same-router");
    assertThat(aries(append(two, "--force"))).isNotZero();
    assertThat(png).doesNotExist();
    Files.delete(mine);
    assertThat(aries(two)).as(err.toString()).isZero();
  }

  /**
   * A plot's group whose points lack the plotted metric (points of the distance same-router have no latency.rank-1)
   * draws no line, where its empty series was refused after the CSV table had been written; and a plot no point gives
   * both columns for is refused in one line before anything is written: an earlier merge's outputs stay as they were
   * (the CSV was new while the JSON and HTML stayed old).
   */
  @Test
  void aPlotsGroupWithoutValuesDrawsNoLineAndAPlotWithoutAPointIsRefusedBeforeAnythingIsWritten() throws IOException {
    Path two = tmp.resolve("two");
    assertThat(aries("sweep", "--job", "pingpong", "--param", "distances=same-router,rank-1", "--param", "sizes=8",
        "--param", "iterations=1", "--no-wall-clock", "--out", two.toString(), "-q")).as(err.toString()).isZero();
    Path merged = tmp.resolve("m.json");
    Path csv = tmp.resolve("csv");
    Path report = tmp.resolve("m.html");
    String[] merge = {"merge", "--out", merged.toString(), "--csv", csv.toString(), "--html", report.toString()};
    // an earlier merge of one metric, whose outputs a full merge would change
    assertThat(aries(append(merge, "--metric", "latency.same-router", two.toString()))).as(err.toString()).isZero();
    byte[] json = Files.readAllBytes(merged);
    byte[] table = Files.readAllBytes(csv.resolve("sweep.csv"));
    byte[] html = Files.readAllBytes(report);
    assertThat(aries(append(merge, "--plot", "latency.same-router:latency.rank-1", two.toString()))).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries merge: --plot latency.same-router:latency.rank-1 has nothing to draw: no"
        + " point of the sweep has both latency.same-router and latency.rank-1; plot columns the points have values"
        + " for (--plot)");
    assertThat(Files.readAllBytes(merged)).as("left as it was").isEqualTo(json);
    assertThat(Files.readAllBytes(csv.resolve("sweep.csv"))).as("left as it was").isEqualTo(table);
    assertThat(Files.readAllBytes(report)).as("left as it was").isEqualTo(html);
    assertThat(tmp.resolve("m-plot-0.png")).doesNotExist();
    // grouped by distance: same-router has no latency.rank-1 and draws no line; rank-1's is drawn
    assertThat(aries(append(merge, "--plot", "sizes:latency.rank-1:distances", two.toString())))
        .as(err.toString()).isZero();
    assertThat(tmp.resolve("m-plot-0.png")).exists();
    assertThat(Files.readString(report)).contains("latency.rank-1 vs sizes by distances");
    assertThat(ResultsJson.read(merged).table(SweepMerge.TABLE).orElseThrow().columns().stream().map(c -> c.name()))
        .containsExactly("point", "distances", "sizes", "iterations", "latency.same-router", "latency.rank-1");
  }

  /**
   * The HTML report of a merge of 501 points (one row past the 500 shown) says "1 more row" and names the files that
   * hold it, the CSV table only when --csv wrote one: it said "1 more rows are in the JSON and CSV results" without.
   */
  @Test
  void theReportOfALongMergeNamesOnlyTheFilesWrittenForTheRowsItLeavesOut() throws IOException {
    Path many = tmp.resolve("many");
    new io.github.ariesmodel.cli.sweep.SweepRunner(p -> io.github.ariesmodel.cli.report.Results.builder(
        io.github.ariesmodel.cli.report.RunMetadata.builder("test-tool", "job").build())
        .metric("v", Integer.parseInt(p.get("i")), "").build())
        .run(io.github.ariesmodel.cli.sweep.SweepSpec.parse("i=0..500"), io.github.ariesmodel.cli.sweep.Shard.ALL,
            many, false, null);
    Path merged = tmp.resolve("m.json");
    Path report = tmp.resolve("m.html");
    assertThat(aries("merge", "--out", merged.toString(), "--html", report.toString(), many.toString()))
        .as(err.toString()).isZero();
    assertThat(Files.readString(report)).contains("<p>1 more row is in " + merged + ".</p>").doesNotContain("CSV");
    Path csv = tmp.resolve("csv");
    assertThat(aries("merge", "--out", merged.toString(), "--html", report.toString(), "--csv", csv.toString(),
        many.toString())).as(err.toString()).isZero();
    assertThat(Files.readString(report)).contains("<p>1 more row is in " + merged + " and " + csv.resolve("sweep.csv")
        + ".</p>");
  }

  /**
   * A grouped plot's legend reads GROUP=value, as a run's bar plots' do ({@code routing=minimal}): a plot by seed read
   * just "1" and "2". An ungrouped plot's one series is named after Y.
   */
  @Test
  void aGroupedPlotsLegendNamesTheGroupColumn() {
    io.github.ariesmodel.cli.report.ResultTable t = io.github.ariesmodel.cli.report.ResultTable.builder("sweep")
        .integer("point", "").integer("seed", "").number("load", "").number("latency", "ns")
        .row(0, 1, 0.1, 900).row(1, 2, 0.1, 910).row(2, 1, 0.5, 950).row(3, 2, 0.5, 960).build();
    assertThat(MergeCommand.plotSeries(t, new String[] {"load", "latency", "seed"}))
        .extracting(io.github.ariesmodel.cli.report.Series::name).containsExactly("seed=1", "seed=2");
    assertThat(MergeCommand.plotSeries(t, new String[] {"load", "latency"}))
        .extracting(io.github.ariesmodel.cli.report.Series::name).containsExactly("latency");
  }

  private static String[] append(String[] args, String... more) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  @Test
  void eventsWhoseTotalOverflowsAreRefusedNamingTheFileAndTheField() throws IOException {
    Path p1 = sw.resolve("point-1.json");
    String text = Files.readString(p1);
    String edited = text.replaceFirst("\"events\" : \\d+", "\"events\" : " + Long.MAX_VALUE);
    assertThat(edited).isNotEqualTo(text);
    Files.writeString(p1, edited);
    Path merged = tmp.resolve("m.json");
    assertThat(aries("merge", "--out", merged.toString(), sw.toString())).isEqualTo(2);
    assertThat(onlyLine()).contains("point 1 (" + p1 + ") has run.events " + Long.MAX_VALUE)
        .contains("beyond " + Long.MAX_VALUE).doesNotContain("overflow");
    assertThat(merged).doesNotExist();
  }

  /** The gups lines of docs/results-schema.md's sweep example, run as written (their results/ in a temporary folder). */
  @Test
  void theSchemaDocsGupsSweepAndMergeRunAsWritten() throws IOException {
    String doc = Files.readString(Path.of("..").resolve("docs/results-schema.md"));
    List<String> lines = new ArrayList<>();
    Matcher m = Pattern.compile("(?m)^\\./aries (sweep --job gups .*|merge --out results/gups\\.json .*)$").matcher(doc);
    while (m.find()) {
      lines.add(m.group(1).replaceFirst("\\s*#.*$", "").replace("results/", tmp.resolve("results") + "/"));
    }
    assertThat(lines).hasSize(2);
    for (String line : lines) {
      assertThat(aries(line.split(" +"))).as("./aries %s: %s", line, err).isZero();
    }
    assertThat(out.toString()).contains("merged 6 points");
  }
}
