package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.cli.sweep.SweepMerge;
import io.github.ariesmodel.core.Texts;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cases of issue 14 ("hostile and careless input") that concern the CLI: each gives one line on standard error
 * and exit status 2 before anything is simulated, or the right result.
 */
class HostileInputTest {

  @TempDir Path tmp;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int aries(String... args) {
    return AriesCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  private String onlyLine() {
    String e = err.toString();
    assertThat(e.lines().count()).as(e).isEqualTo(1);
    assertThat(e).doesNotContain("\tat ", "Exception");
    return e.strip();
  }

  private Path file(String name, String text) throws IOException {
    return Files.writeString(tmp.resolve(name), text);
  }

  private String out(String name) {
    return tmp.resolve(name).toString();
  }

  @Test
  void duplicateKeysInJsonAreRefused() throws IOException {
    Path f = file("dup.json", "{\"seed\": 1, \"seed\": 2}");
    assertThat(aries("run", "pingpong", "--config", f.toString(), "--out", out("o"))).isEqualTo(2);
    // the line is in the message, where a long path in the location (abbreviated) cannot cut it off
    assertThat(onlyLine()).contains("at line 1: Duplicate field 'seed'");
  }

  @Test
  void duplicateKeysInYamlAreRefused() throws IOException {
    Path f = file("dup.yaml", "nic:\n  requestTags: 8\n  requestTags: 16\n");
    assertThat(aries("run", "pingpong", "--config", f.toString(), "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).contains("Duplicate field 'requestTags'");
  }

  @Test
  void yamlAliasesAndAnchorsAreRefused() throws IOException {
    Path alias = file("alias.yaml", "system: &s default\nrouting: *s\n");
    assertThat(aries("run", "--config", alias.toString(), "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).contains("anchors and aliases");
  }

  /** YAML 1.1's octal and other bases: {@code seed: 010} ran with seed 8 (until stop 73). */
  @Test
  void yamlNumbersInOtherBasesAreRefusedInOneLineNamingTheFileKeyAndLine() throws IOException {
    Path f = file("octal.yaml", "workload: pingpong\nseed: 010\nparams: {sizes: \"8\", iterations: 2}\n");
    assertThat(aries("run", "--config", f.toString(), "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries run: " + f + ": seed is written 010 (line 2), which YAML 1.1 reads as"
        + " octal 8; write the number in decimal, or quote it if a string is meant ("
        + Texts.abbreviate("--config " + f) + ")");
    assertThat(tmp.resolve("o")).doesNotExist();
    // JSON has no octal: the same value is refused by the parser, the file named
    err.getBuffer().setLength(0);
    Path j = file("octal.json", "{\"workload\": \"pingpong\", \"seed\": 010}");
    assertThat(aries("run", "--config", j.toString(), "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).contains("Leading zeroes not allowed").endsWith("(" + Texts.abbreviate("--config " + j)
        + ")");
  }

  @Test
  void deepNestingAndHugeNumbersAreOneLine() throws IOException {
    Path deep = file("deep.json", "{\"params\":".repeat(1000) + "1" + "}".repeat(1000));
    assertThat(aries("run", "--config", deep.toString(), "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).contains("nesting depth");
    err.getBuffer().setLength(0);
    Path big = file("big.json", "{\"seed\": " + "9".repeat(10_000) + "}");
    assertThat(aries("run", "--config", big.toString(), "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).contains("Number value length").hasSizeLessThan(400);
  }

  @Test
  void anIntegerBeyondLongIsRefusedNotTruncated() throws IOException {
    Path f = file("seed.json", "{\"seed\": 18446744073709551617}");
    assertThat(aries("run", "pingpong", "--config", f.toString(), "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).contains("seed must be an integer");
  }

  @Test
  void configParamsWithoutAWorkloadAreAnErrorNotDropped() throws IOException {
    Path f = file("nowl.json", "{\"params\": {\"iterations\": 1}}");
    assertThat(aries("run", "pingpong", "--config", f.toString(), "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).contains("params but no workload key");
  }

  @Test
  void configParamsForAnotherWorkloadAreAnError() throws IOException {
    Path f = file("gups.json", "{\"workload\": \"gups\", \"params\": {\"updates\": 1}}");
    assertThat(aries("run", "pingpong", "--config", f.toString(), "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).contains("params are for workload gups but the run is pingpong");
  }

  @Test
  void aConfigurationsParamsErrorsNameTheFileAndTheKey() throws IOException {
    // they were located as "(arguments)", which the user never typed; the file's other errors name it
    String[][] cases = {{"list.yaml", "params: {sizes: \"1K,,2K\"}",
        "params.sizes must be a comma-separated list with no empty element but was \"1K,,2K\""},
        {"range.yaml", "params: {sizes: \"8\", iterations: 0}", "params.iterations must be in [1, 100000] but was 0"},
        // a list given as a YAML or JSON list: the refusal did not say the accepted form (until stop 71)
        {"array.yaml", "params: {sizes: [8, 64]}",
            "params.sizes must be a single value but was [8,64]; a list is written as one string, \"8,64\""},
        {"name.json", null, "params: unknown parameter \"bogus\"; known parameters: allowLong, distances, iterations, modes, osNoise, sizes"}};
    for (String[] c : cases) {
      Path f = c[1] == null ? file(c[0], "{\"workload\": \"pingpong\", \"params\": {\"bogus\": 3}}")
          : file(c[0], "workload: pingpong\n" + c[1] + "\n");
      err.getBuffer().setLength(0);
      assertThat(aries("run", "--config", f.toString(), "--out", out("o"))).isEqualTo(2);
      assertThat(onlyLine()).isEqualTo("aries run: " + f + ": " + c[2] + " (" + Texts.abbreviate("--config " + f)
          + ")");
    }
    assertThat(tmp.resolve("o")).doesNotExist();
    // a value -p gives in place of the file's is the command line's, as before
    Path f = file("over.yaml", "workload: pingpong\nparams: {iterations: 3}\n");
    err.getBuffer().setLength(0);
    assertThat(aries("run", "--config", f.toString(), "-p", "iterations=0", "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries run: iterations must be in [1, 100000] but was 0 (-p iterations)");
  }

  /**
   * A configuration's bad {@code osNoise} was said as "noise must be ..." at {@code (arguments)}, unlike its other
   * params (until stop 73); and a param with no value ({@code ~}) was given to the workload as the text "null".
   */
  @Test
  void aConfigurationsOsNoiseAndEmptyParamsAreNamedInTheFile() throws IOException {
    String[][] cases = {
        {"noise.yaml", "osNoise: bogus", "params.osNoise must be none or period=P,detour=D[,phase=aligned|random] but"
            + " had \"bogus\" in \"bogus\""},
        {"detour.yaml", "osNoise: \"period=1ms,detour=-5us\"", "params.osNoise detour must be in [0 ps, 1000 ms] (a"
            + " number and a unit: ps, ns, us or ms) but was \"-5us\""},
        {"tilde.yaml", "osNoise: ~", "params.osNoise has no value (null, or ~ or nothing in YAML); give one, or leave"
            + " the key out for its default"},
        {"null.json", null, "params.distances has no value (null, or ~ or nothing in YAML); give one, or leave the key"
            + " out for its default"}};
    for (String[] c : cases) {
      Path f = c[1] == null ? file(c[0], "{\"workload\": \"pingpong\", \"params\": {\"distances\": null}}")
          : file(c[0], "workload: pingpong\nparams: {sizes: \"8\", iterations: 1, " + c[1] + "}\n");
      err.getBuffer().setLength(0);
      assertThat(aries("run", "--config", f.toString(), "--out", out("o"))).as(c[0]).isEqualTo(2);
      assertThat(onlyLine()).isEqualTo("aries run: " + f + ": " + c[2] + " (" + Texts.abbreviate("--config " + f)
          + ")");
    }
    assertThat(tmp.resolve("o")).doesNotExist();
    // on the command line the parameter is named as typed
    err.getBuffer().setLength(0);
    assertThat(aries("run", "pingpong", "-p", "osNoise=bogus", "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries run: osNoise must be none or period=P,detour=D[,phase=aligned|random] but"
        + " had \"bogus\" in \"bogus\" (-p osNoise)");
  }

  /**
   * A file named by an option (a link list by {@code --system links:FILE}, {@code --topology}, {@code --describe} or a
   * configuration's {@code system}; {@code replay --mapping FILE}) that is refused is located at that option, as the
   * file's own errors of {@code --config} and TRACE are; each was located at {@code (arguments)} (until stop 73).
   */
  @Test
  void aRefusedFileIsLocatedAtTheOptionThatNamedIt() throws IOException {
    Path links = file("links.txt", "c9-9c0s0a0l01\n");
    String bad = links + ":1: a line must read NAME(group:row:column) COLOUR -> FAR-NAME(group:row:column) or ->"
        + " unused or -> processor (line: \"c9-9c0s0a0l01\")";
    Path config = file("sys.yaml", "workload: pingpong\nsystem: \"links:" + links + "\"\n");
    Object[][] cases = {
        {new String[] {"run", "pingpong", "--system", "links:" + links, "--out", out("o")}, "aries run: " + bad,
            "--system"},
        {new String[] {"run", "--config", config.toString(), "--out", out("o")}, "aries run: " + bad,
            "--config " + config},
        {new String[] {"traffic", "--topology", "links:" + links}, "aries traffic: " + bad, "--topology"},
        {new String[] {"systems", "--describe", "links:" + links}, "aries systems: " + bad, "--describe"},
        {new String[] {"replay", ReplayCommandTest.TRACES.resolve("amg-n27-dumpi").toString(), "--system",
            "links:" + tmp.resolve("none.txt"), "--out", out("o")}, "aries replay: links file "
            + tmp.resolve("none.txt") + " cannot be read: no such file", "--system"},
        {new String[] {"replay", ReplayCommandTest.TRACES.resolve("amg-n27-dumpi").toString(), "--mapping",
            file("map.txt", "0\n1\n2\n").toString(), "--out", out("o")}, "aries replay: --mapping file "
            + tmp.resolve("map.txt") + " names 3 nodes but the trace has 27 ranks", "--mapping"}};
    for (Object[] c : cases) {
      err.getBuffer().setLength(0);
      assertThat(aries((String[]) c[0])).as(c[1].toString()).isEqualTo(2);
      assertThat(onlyLine()).isEqualTo(c[1] + " (" + Texts.abbreviate(c[2].toString()) + ")");
    }
    assertThat(tmp.resolve("o")).doesNotExist();
  }

  /**
   * A workload's refusal of a system too small for it is located where the system was chosen, {@code --system} or the
   * configuration file, not at {@code (arguments)} (until stop 71), in one line saying what it needs; host-cache's read
   * "count must be in [1, 1] but was 2" and traffic's "topology must have at least 2 nodes", each at {@code (arguments)}.
   */
  @Test
  void aSystemTooSmallForTheWorkloadIsLocatedAtTheSystemsOption() throws IOException {
    String one = "canonical:p=1,a=1,h=0";
    // iommu-study ran and wrote null cells, its figures' 0/0 (until stop 77)
    for (String w : new String[] {"put-rate", "host-cache", "traffic", "iommu-study"}) {
      err.getBuffer().setLength(0);
      assertThat(aries("run", w, "--system", one, "--out", out("o"))).as(w).isEqualTo(2);
      assertThat(onlyLine()).isEqualTo("aries run: " + w + " needs a system of at least 2 nodes but this one has 1"
          + " (--system)");
    }
    Path f = file("small.yaml", "system: \"" + one + "\"\nworkload: put-rate\n");
    err.getBuffer().setLength(0);
    assertThat(aries("run", "--config", f.toString(), "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries run: put-rate needs a system of at least 2 nodes but this one has 1 ("
        + Texts.abbreviate("--config " + f) + ")");
    assertThat(tmp.resolve("o")).doesNotExist();
  }

  @Test
  void nanAndInfinityAreRefusedOnEveryFloatingOption() {
    for (String[] args : new String[][] {{"traffic", "--warmup-us", "NaN"}, {"traffic", "--measure-us", "Infinity"},
        {"traffic", "--load", "-Infinity"}, {"iommu", "--synthetic", "random:10", "--fetch-latency-ns", "NaN"}}) {
      err.getBuffer().setLength(0);
      assertThat(aries(args)).as(String.join(" ", args)).isEqualTo(2);
      assertThat(onlyLine()).contains("must be a finite number");
    }
  }

  @Test
  void aRepeatedParameterIsRefused() {
    assertThat(aries("run", "pingpong", "-p", "iterations=1", "-p", "iterations=2", "--out", out("o")))
        .isEqualTo(2);
    assertThat(onlyLine()).contains("parameter iterations is given twice");
  }

  @Test
  void aRepeatedTopologyKeyIsRefused() {
    assertThat(aries("run", "pingpong", "--system", "aries:groups=2,groups=3", "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).contains("topology option groups is given twice");
  }

  @Test
  void topologyMessagesNameTheSpecOptionNotTheBuilderField() {
    assertThat(aries("run", "pingpong", "--system", "aries:groups=2,nodes=99", "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).contains("topology option nodes must be in [1, 64]").doesNotContain("nodesPerRouter");
  }

  @Test
  void canonicalTopologyMessagesNameItsOwnOptions() {
    String[][] cases = {{"canonical:p=99,a=8,h=4", "topology option p must be in [1, 64] but was 99"},
        {"canonical:p=4,a=0,h=4", "topology option a must be in [1, 128] but was 0"},
        {"canonical:p=4,a=8,h=4,g=100", "topology option g must be in [1, 33]"},
        {"canonical:p=4,a=8,h=4,links=0", "topology option links must be in [1, 1]"},
        {"canonical:p=64,a=128,h=64", "topology nodes (g × a × p) must be at most 262144"}};
    for (String[] c : cases) {
      err.getBuffer().setLength(0);
      assertThat(aries("traffic", "--topology", c[0])).as(c[0]).isEqualTo(2);
      assertThat(onlyLine()).as(c[0]).contains(c[1]);
    }
  }

  @Test
  void trafficWindowMessagesNameTheOption() {
    assertThat(aries("traffic", "--measure-us", "0")).isEqualTo(2);
    assertThat(onlyLine()).contains("--measure-us must be").doesNotContain("measurePs");
  }

  @Test
  void enumErrorsListTheChoices() {
    assertThat(aries("run", "pingpong", "--routing", "nope", "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).contains("minimal").contains("adaptive0");
    err.getBuffer().setLength(0);
    assertThat(aries("run", "pingpong", "--fabric", "nope", "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).contains("routers or ideal");
  }

  @Test
  void allToAllBuffersLargerThanNodeMemoryAreRefusedUpFront() {
    // 1,100 PEs x 64 MiB is a 70.4 GB receive buffer on every PE's node (64 GiB): it used to fail mid-run with
    // "physical memory exhausted" (exit 1) after the job had built its nodes.
    assertThat(aries("run", "alltoall", "--system", "full", "-p", "pes=1100", "-p", "bytes=64M", "--out", out("o"),
        "-q")).isEqualTo(2);
    assertThat(onlyLine()).contains("bytes x pes must fit a node's memory").contains("bytes=67108864 and pes=1100");
    assertThat(Files.exists(tmp.resolve("o").resolve("results.json"))).isFalse();
  }

  @Test
  void aTableLargerThanNodeMemoryIsRefusedUpFront() {
    assertThat(aries("run", "gups", "-p", "table=64G", "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).contains("table must fit a node's memory").contains("68719476736");
    assertThat(Files.exists(tmp.resolve("o").resolve("results.json"))).isFalse();
  }

  @Test
  void absurdWorkIsRefusedWithTheEstimate() {
    assertThat(aries("traffic", "--measure-us", "1e9")).isEqualTo(2);
    assertThat(onlyLine()).contains("estimated work").contains("--allow-long");
    err.getBuffer().setLength(0);
    assertThat(aries("iommu", "--synthetic", "random:100G")).isEqualTo(2);
    assertThat(onlyLine()).contains("107,374,182,400 accesses").contains("--allow-long");
  }

  @Test
  void everySweepPointIsCheckedBeforeTheFirstRuns() {
    Path dir = tmp.resolve("sw");
    assertThat(aries("sweep", "--job", "pingpong", "--param", "system=default,nope", "--param", "iterations=1",
        "--out", dir.toString(), "-q")).isEqualTo(2);
    assertThat(onlyLine()).startsWith("aries sweep: point 1 ").contains("\"nope\"");
    assertThat(dir.resolve("point-0.json")).doesNotExist();
  }

  /**
   * A workload's own range is checked on every point before the first runs (its run reads the parameters the same
   * way); the line says which point. SweepPointCheckTest has a case for every workload.
   */
  @Test
  void aPointsOwnRangeErrorNamesThePoint() {
    Path dir = tmp.resolve("psw");
    assertThat(aries("sweep", "--job", "pingpong", "--param", "sizes=8,-5", "--param", "iterations=1",
        "--param", "distances=rank-1", "--out", dir.toString(), "-q")).isEqualTo(2);
    assertThat(onlyLine()).startsWith("aries sweep: point 1 ").contains("sizes=-5").contains("but was -5");
    assertThat(dir.resolve("point-0.json")).doesNotExist();
  }

  @Test
  void aSweepPointWhoseTableCannotFitIsRefusedBeforeAnyPointRuns() {
    Path dir = tmp.resolve("gsw");
    assertThat(aries("sweep", "--job", "gups", "--param", "table=1K,64G", "--param", "pes=2", "--param",
        "updates=1", "--out", dir.toString(), "-q")).isEqualTo(2);
    assertThat(onlyLine()).startsWith("aries sweep: point 1 ").contains("table must fit a node's memory");
    assertThat(dir.resolve("point-0.json")).doesNotExist();
  }

  @Test
  void anOutHoldingAnotherRunIsRefusedUnlessForced() throws IOException {
    String dir = out("r");
    assertThat(aries("run", "pingpong", "-p", "sizes=8", "-p", "iterations=1", "--out", dir, "-q")).isEqualTo(0);
    assertThat(aries("run", "pingpong", "-p", "sizes=8", "-p", "iterations=1", "--out", dir, "-q"))
        .as("the same command may repeat").isEqualTo(0);
    assertThat(aries("run", "gups", "-p", "pes=2", "-p", "updates=2", "--out", dir, "-q")).isEqualTo(2);
    assertThat(onlyLine()).contains("holds the results of another run (\"run pingpong\")").contains("--force");
    assertThat(aries("run", "gups", "-p", "pes=2", "-p", "updates=2", "--out", dir, "-q", "--force"))
        .isEqualTo(0);
    try (var files = Files.list(tmp.resolve("r"))) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .as("the forced run leaves none of the old run's files and no staging leftovers")
          .containsExactlyInAnyOrder("results.json", "report.html", "metrics.csv", "gups.csv",
              io.github.ariesmodel.cli.report.ReportWriter.WRITTEN);
    }
  }

  @Test
  void reportFilesWithoutResultsAreAnotherRunsLeftovers() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("left"));
    Files.writeString(dir.resolve("report.html"), "");
    assertThat(aries("run", "pingpong", "-p", "sizes=8", "-p", "iterations=1", "--out", dir.toString(), "-q"))
        .isEqualTo(2);
    assertThat(onlyLine()).contains("no results.json");
  }

  @Test
  void mergeRefusesToOverwriteItsInputsAndEditedPoints() throws IOException {
    Path sw = tmp.resolve("sw");
    assertThat(aries("sweep", "--job", "pingpong", "--param", "sizes=8,64", "--param", "iterations=1", "--out",
        sw.toString(), "-q")).isEqualTo(0);
    assertThat(aries("merge", sw.toString(), "--out", sw.resolve("point-0.json").toString())).isEqualTo(2);
    assertThat(onlyLine()).contains("would overwrite the input point file");
    err.getBuffer().setLength(0);
    Path p1 = sw.resolve("point-1.json");
    String text = Files.readString(p1);
    String edited = text.replaceFirst("\"sizes\"\\s*:\\s*\"64\"", "\"sizes\" : \"8\"");
    assertThat(edited).isNotEqualTo(text);
    Files.writeString(p1, edited);
    assertThat(aries("merge", sw.toString(), "--out", out("m.json"))).isEqualTo(2);
    assertThat(onlyLine()).contains("has sizes=8 but the sweep's point 1 has sizes=64");
  }

  @Test
  void aMergeOfMissingInputsMakesNoOutputDirectory() {
    Path dir = tmp.resolve("never");
    assertThat(aries("merge", tmp.resolve("none").toString(), "--out", dir.resolve("m.json").toString(), "--csv",
        dir.resolve("csv").toString())).isEqualTo(2);
    assertThat(onlyLine()).contains("is neither a directory nor a file");
    assertThat(dir).doesNotExist();
  }

  @Test
  void aMergeRefusedAfterItMadeItsOutputDirectoriesRemovesThem() throws IOException {
    // --out's new directories were made, then --csv refused: they were left behind, empty
    Path sw = tmp.resolve("swd");
    assertThat(aries("sweep", "--job", "pingpong", "--param", "sizes=8", "--param", "iterations=1", "--out",
        sw.toString(), "-q")).isZero();
    Path taken = Files.writeString(tmp.resolve("taken"), "a file, not a directory");
    Path dir = tmp.resolve("new");
    assertThat(aries("merge", sw.toString(), "--out", dir.resolve("a/../b/m.json").toString(), "--csv",
        taken.toString())).isEqualTo(2);
    assertThat(onlyLine()).contains("not a directory: " + taken).endsWith("(--csv)");
    assertThat(dir).doesNotExist();
    assertThat(taken).hasContent("a file, not a directory");
  }

  @Test
  void aMergeWhoseCsvFailsWritesNoMergedFile() throws IOException {
    Path sw = tmp.resolve("swc");
    assertThat(aries("sweep", "--job", "pingpong", "--param", "sizes=8", "--param", "iterations=1", "--out",
        sw.toString(), "-q")).isZero();
    // The --csv directory takes new files (its check passes), but the table's file name is taken by a directory,
    // so writing the CSV fails after the check.
    Path csv = Files.createDirectories(tmp.resolve("csv"));
    Files.createDirectories(csv.resolve(SweepMerge.TABLE + ".csv"));
    Path merged = tmp.resolve("merged.json");
    assertThat(aries("merge", sw.toString(), "--out", merged.toString(), "--csv", csv.toString())).isEqualTo(1);
    assertThat(onlyLine()).contains(SweepMerge.TABLE + ".csv");
    assertThat(merged).doesNotExist();
    clearErr();
    Files.delete(csv.resolve(SweepMerge.TABLE + ".csv"));
    assertThat(aries("merge", sw.toString(), "--out", merged.toString(), "--csv", csv.toString())).isZero();
    assertThat(merged).exists();
    assertThat(csv.resolve(SweepMerge.TABLE + ".csv")).isRegularFile();
  }

  // Findings of the fuzz run after issue 14: each bad input is one line, exit 2, naming what was wrong.

  /** The small system of the fuzz run's command lines. */
  private static final String[] SMALL = {"--system", "aries:groups=1,rows=1,cols=4", "-q"};

  private String[] small(String... args) {
    String[] all = java.util.Arrays.copyOf(args, args.length + SMALL.length);
    System.arraycopy(SMALL, 0, all, args.length, SMALL.length);
    return all;
  }

  private void clearErr() {
    err.getBuffer().setLength(0);
  }

  /** A file of bytes that are not UTF-8 (0xff never occurs in UTF-8). */
  private Path binary(String name) throws IOException {
    byte[] b = new byte[64];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (0xff - i);
    }
    return Files.write(tmp.resolve(name), b);
  }

  /** A two-point sweep's directory, for the merge cases. */
  private Path sweep() {
    Path sw = tmp.resolve("sw");
    assertThat(aries("sweep", "--job", "pingpong", "--param", "sizes=8,64", "--param", "iterations=1", "--out",
        sw.toString(), "-q")).as(err.toString()).isEqualTo(0);
    return sw;
  }

  @Test
  void anIommuStudyTableLargerThanNodeMemoryIsRefusedUpFrontNamingTheRealMaximum() {
    assertThat(aries(small("run", "iommu-study", "-p", "table=64G", "-p", "pes=2", "-p", "puts=10", "--out",
        out("o")))).isEqualTo(2);
    assertThat(onlyLine()).contains("table must fit a node's memory: at most ").contains("with 4K pages")
        .contains("but was 68719476736").doesNotContain("exhausted");
    assertThat(tmp.resolve("o").resolve("results.json")).doesNotExist();
    clearErr();
    assertThat(aries("sweep", "--job", "iommu-study", "--param", "table=1M,64G", "--param", "pes=1", "--param",
        "puts=1", "--out", out("isw"), "-q")).isEqualTo(2);
    assertThat(onlyLine()).startsWith("aries sweep: point 1 ").contains("table must fit a node's memory");
    assertThat(tmp.resolve("isw").resolve("point-0.json")).doesNotExist();
  }

  @Test
  void theLargestIommuStudyTableTheMessageNamesRuns() {
    assertThat(aries(small("run", "iommu-study", "-p", "table=64G", "-p", "pageSizes=2M", "-p", "pes=1", "-p",
        "puts=1", "-p", "patterns=sequential", "--out", out("o")))).isEqualTo(2);
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("at most (\\d+) bytes").matcher(onlyLine());
    assertThat(m.find()).isTrue();
    long max = Long.parseLong(m.group(1));
    assertThat(max).isBetween(60L << 30, 64L << 30);
    clearErr();
    assertThat(aries(small("run", "iommu-study", "-p", "table=" + max, "-p", "pageSizes=2M", "-p", "pes=1", "-p",
        "puts=1", "-p", "patterns=sequential", "--out", out("o")))).as(err.toString()).isEqualTo(0);
    assertThat(tmp.resolve("o").resolve("results.json")).exists();
    assertThat(aries(small("run", "iommu-study", "-p", "table=" + (max + 1), "-p", "pageSizes=2M", "-p", "pes=1",
        "-p", "puts=1", "-p", "patterns=sequential", "--out", out("o")))).isEqualTo(2);
    assertThat(onlyLine()).contains("but was " + (max + 1));
  }

  @Test
  void aGupsTableIsCheckedWithItsPageTables() {
    // 64 GiB less the runtime's 16 MiB was the old bound; 4 KB pages' tables of that take another 128 MiB
    long oldBound = (64L << 30) - (16L << 20);
    assertThat(aries("run", "gups", "-p", "table=" + oldBound, "-p", "pes=2", "-p", "updates=1", "--out",
        out("o"), "-q")).isEqualTo(2);
    assertThat(onlyLine()).contains("table must fit a node's memory").contains("with 4K pages")
        .contains("but was " + oldBound);
  }

  @Test
  void aPointCountBeyondAnIntIsRefusedNamingTheFileAndField() throws IOException {
    Path sw = sweep();
    Path p0 = sw.resolve("point-0.json");
    String text = Files.readString(p0);
    String edited = text.replaceFirst("\"points\"\\s*:\\s*2", "\"points\" : 99999999999");
    assertThat(edited).isNotEqualTo(text);
    Files.writeString(p0, edited);
    assertThat(aries("merge", sw.toString(), "--out", out("m.json"))).isEqualTo(2);
    assertThat(onlyLine()).contains(p0.toString()).contains("$.run.sweep.points must be a whole number")
        .contains("99999999999");
  }

  @Test
  void aPointCountThatIsNotTheSweepsIsRefused() throws IOException {
    Path sw = sweep();
    for (String f : new String[] {"point-0.json", "point-1.json"}) {
      Path p = sw.resolve(f);
      Files.writeString(p, Files.readString(p).replaceFirst("\"points\"\\s*:\\s*2", "\"points\" : 2147483647"));
    }
    assertThat(aries("merge", sw.toString(), "--out", out("m.json"))).isEqualTo(2);
    assertThat(onlyLine()).contains("says its sweep has 2147483647 points but the sweep").contains("has 2");
  }

  @Test
  void mergeParseErrorsNameTheFileTheLineAndAPlainReason() throws IOException {
    Path sw = sweep();
    Path p1 = sw.resolve("point-1.json");
    String good = Files.readString(p1);
    String[][] cases = {
        {good.substring(0, good.length() / 2), "the text ends early"},
        {good.replaceFirst("\"value\"\\s*:\\s*[-0-9.eE]+", "\"value\" : NaN"), "JSON numbers are finite"},
        {"[".repeat(2000) + "]".repeat(2000), "nesting depth"},
        {good.replaceFirst("\"value\"\\s*:\\s*[-0-9.eE]+", "\"value\" : " + "9".repeat(5000)), "Number value length"}};
    for (String[] c : cases) {
      assertThat(c[0]).isNotEqualTo(good);
      Files.writeString(p1, c[0]);
      clearErr();
      assertThat(aries("merge", sw.toString(), "--out", out("m.json"))).as(c[1]).isEqualTo(2);
      assertThat(onlyLine()).as(c[1]).contains(p1 + ", line ").contains("not valid JSON").contains(c[1])
          .doesNotContain("JsonReadFeature", "StreamReadConstraints", "`", "[Source");
    }
  }

  @Test
  void aBinaryPointFileOrADirectoryNamedLikeOneIsNamedWithWhy() throws IOException {
    Path sw = sweep();
    Path p1 = sw.resolve("point-1.json");
    Files.copy(binary("bin"), p1, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    assertThat(aries("merge", sw.toString(), "--out", out("m.json"))).isEqualTo(2);
    assertThat(onlyLine()).contains(p1 + " is not UTF-8 text");
    Files.delete(p1);
    Files.createDirectory(p1);
    clearErr();
    assertThat(aries("merge", sw.toString(), "--out", out("m.json"))).isEqualTo(2);
    assertThat(onlyLine()).contains(p1 + " is a directory");
  }

  @Test
  void binaryFilesAndDirectoriesGivenAsInputsSayWhichAndWhy() throws IOException {
    Path bin = binary("trace.bin");
    String[][] cases = {
        {"iommu", bin.toString()}, {bin + " is not UTF-8 text", "(TRACE)"},
        {"iommu", tmp.toString()}, {tmp + " is a directory", "(TRACE)"},
        {"iommu", ""}, {"TRACE must name a file", "(TRACE)"},
        {"replay", file("trace.txt").toString(), "--mapping", bin.toString(), "--out", out("r"), "-q"},
            {"mapping file " + bin + " is not UTF-8 text", ")"},
        {"replay", file("trace.txt").toString(), "--mapping", tmp.toString(), "--out", out("r"), "-q"},
            {"mapping file " + Texts.abbreviate(tmp.toString()) + " is a directory", ")"},
        {"run", "pingpong", "--config", binary("bin.json").toString(), "--out", out("o")},
            {tmp.resolve("bin.json") + " is not UTF-8 text", "(--config)"},
        {"run", "pingpong", "--config", Files.createDirectory(tmp.resolve("dir.json")).toString(), "--out",
            out("o")}, {tmp.resolve("dir.json") + " is a directory", "(--config)"}};
    for (int i = 0; i < cases.length; i += 2) {
      clearErr();
      String[] args = cases[i];
      assertThat(aries(args)).as(String.join(" ", args)).isEqualTo(2);
      assertThat(onlyLine()).as(String.join(" ", args)).contains(cases[i + 1][0]).endsWith(cases[i + 1][1]);
    }
  }

  private Path file(String name) throws IOException {
    return file(name, "0\n");
  }

  @Test
  void aMissingTraceOfASweepOrRunIsBadInput() {
    Path dir = tmp.resolve("rsw");
    assertThat(aries("sweep", "--job", "replay", "--param", "trace=" + tmp.resolve("nonexistent_zz"), "--out",
        dir.toString(), "-q")).isEqualTo(2);
    // (the path is abbreviated where it is long: its name is in the point's)
    assertThat(onlyLine()).startsWith("aries sweep: point 0 ").contains("nonexistent_zz")
        .contains(Texts.abbreviate(tmp.resolve("nonexistent_zz").toString()) + " does not exist");
    assertThat(dir.resolve("point-0.json")).doesNotExist();
    clearErr();
    assertThat(aries("run", "replay", "-p", "trace=" + tmp.resolve("nonexistent_zz"), "--out", out("o"), "-q"))
        .isEqualTo(2);
    assertThat(onlyLine()).contains(Texts.abbreviate(tmp.resolve("nonexistent_zz").toString()) + " does not exist");
  }

  @Test
  void anOutThatTakesNoFilesNamesTheOptionAndThePathNotTheStagingFile() throws IOException {
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs Linux /proc");
    Path sw = sweep();
    String[][] cases = {
        small("run", "pingpong", "-p", "sizes=8", "-p", "iterations=1", "--out", "/proc"),
        {"sweep", "--job", "pingpong", "--param", "sizes=8", "--param", "iterations=1", "--out", "/proc", "-q"},
        {"merge", sw.toString(), "--out", "/proc/version"}};
    for (String[] args : cases) {
      clearErr();
      assertThat(aries(args)).as(String.join(" ", args)).isEqualTo(2);
      assertThat(onlyLine()).as(String.join(" ", args)).contains("/proc takes no new files").endsWith("(--out)")
          .doesNotContain(".aries-partial");
    }
    assertThat(err.toString()).contains("cannot write /proc/version");
  }

  @Test
  void trafficLoadHasTheWorkloadsLowerBound() {
    assertThat(aries("traffic", "--topology", "canonical:p=2,a=4,h=2", "--measure-us", "1", "--load", "1e-300"))
        .isEqualTo(2);
    assertThat(onlyLine()).contains("--load must be in [0.0001, 2] but was 1.0E-300").endsWith("(--load)");
    clearErr();
    assertThat(aries("traffic", "--topology", "canonical:p=2,a=4,h=2", "--measure-us", "1", "--load", "0.0001"))
        .as(err.toString()).isEqualTo(0);
    assertThat(out.toString()).contains("offered load");
  }

  @Test
  void aTrafficWindowThatRoundsToNoPicosecondNamesTheOption() {
    assertThat(aries("traffic", "--topology", "canonical:p=2,a=4,h=2", "--measure-us", "1e-30")).isEqualTo(2);
    assertThat(onlyLine()).contains("--measure-us must be in [1e-6, 1e9]").contains("1.0E-30")
        .endsWith("(--measure-us)").doesNotContain("measurePs");
  }

  @Test
  void messagesHoldNoJavaClassNames() {
    String[][] cases = {
        {"traffic", "--measure-us", "abc"},
        {"--measure-us must be a number in [1e-6, 1e9] (at least 1 ps) but was 'abc'", "(--measure-us)"},
        {"traffic", "--topology", "links:" + tmp.resolve("nonexistent")}, {"no such file", ")"},
        {"systems", "--describe", "links:" + tmp}, {"is a directory", ")"}};
    for (int i = 0; i < cases.length; i += 2) {
      clearErr();
      String[] args = cases[i];
      assertThat(aries(args)).as(String.join(" ", args)).isEqualTo(2);
      assertThat(onlyLine()).as(String.join(" ", args)).containsIgnoringCase(cases[i + 1][0])
          .endsWith(cases[i + 1][1]).doesNotContain("java.", "Exception");
    }
  }

  @Test
  void anEmptyPathIsRefusedNamingTheOption() throws IOException {
    Path sw = sweep();
    String[][] cases = {
        small("run", "pingpong", "-p", "sizes=8", "-p", "iterations=1", "--out", ""),
        {"sweep", "--job", "pingpong", "--param", "sizes=8", "--param", "iterations=1", "--out", "", "-q"},
        {"merge", sw.toString(), "--out", out("m.json"), "--csv", ""}};
    String[] options = {"--out", "--out", "--csv"};
    for (int i = 0; i < cases.length; i++) {
      clearErr();
      assertThat(aries(cases[i])).as(String.join(" ", cases[i])).isEqualTo(2);
      assertThat(onlyLine()).isEqualTo("aries " + cases[i][0] + ": " + options[i] + " must name a path but was empty ("
          + options[i] + ")");
    }
    assertThat(Path.of("results.json")).as("nothing written to the working directory").doesNotExist();
    assertThat(Path.of("point-0.json")).doesNotExist();
  }

  // ---- stop 47: found by probing the CLI with bad input

  @Test
  void aDeviceOrPipeGivenAsAnOutputFileIsRefusedNotReplaced() throws IOException {
    // a link to /dev/null stands for a device the user may write to (as root, --out /dev/full used to become a
    // regular file: the report is written beside its path and renamed over it)
    Path dev = Files.createSymbolicLink(tmp.resolve("null-link"), Path.of("/dev/null"));
    Path dir = tmp.resolve("run-out");
    assertThat(aries("run", "pingpong", "-p", "sizes=8", "-p", "iterations=1", "--trace", dev.toString(), "--out",
        dir.toString(), "-q")).isEqualTo(2);
    assertThat(onlyLine()).contains("is not a regular file (a device, pipe or socket), which the output would"
        + " replace: " + dev).endsWith("(--trace)");
    assertThat(Files.isSymbolicLink(dev)).isTrue();
    assertThat(Files.isRegularFile(Path.of("/dev/null"))).isFalse();
    assertThat(dir).as("refused before --out is made").doesNotExist();
  }

  @Test
  void aListWithAnEmptyElementOrARepeatIsRefusedBeforeAnythingRuns() {
    Path dir = tmp.resolve("lists");
    assertThat(aries("run", "pingpong", "-p", "sizes=8,", "-p", "iterations=1", "--out", dir.toString())).isEqualTo(2);
    assertThat(onlyLine()).contains("sizes must be a comma-separated list with no empty element but was \"8,\"");
    err.getBuffer().setLength(0);
    assertThat(aries("run", "pingpong", "-p", "sizes=8,1K,8", "-p", "iterations=1", "--out", dir.toString()))
        .isEqualTo(2);
    assertThat(onlyLine()).contains("sizes lists \"8\" twice; give each value once");
    err.getBuffer().setLength(0);
    assertThat(aries("run", "iommu-study", "-p", "pageSizes=4K,4k", "--out", dir.toString())).isEqualTo(2);
    assertThat(onlyLine()).contains("pageSizes lists").contains(" twice, as \"4K\" and \"4k\"");
    err.getBuffer().setLength(0);
    assertThat(aries("run", "traffic", "-p", "routings=ugal,minimal,ugal", "--out", dir.toString())).isEqualTo(2);
    assertThat(onlyLine()).contains("routings lists \"ugal\" twice");
    assertThat(dir).as("refused before --out is made").doesNotExist();
  }

  @Test
  void aPesBeyondTheSystemsNodesIsRefusedNotCutAndRecordedAsGiven() {
    assertThat(aries("run", "iommu-study", "--system", "aries-small", "-p", "pes=1024", "--out", out("io")))
        .isEqualTo(2);
    assertThat(onlyLine()).contains("pes must be in [1, 95] but was 1024");
    err.getBuffer().setLength(0);
    assertThat(aries("run", "host-cache", "--system", "aries-small", "-p", "pes=4096", "--out", out("hc")))
        .isEqualTo(2);
    assertThat(onlyLine()).contains("pes must be in [2, 96] but was 4096");
  }

  @Test
  void aSweepRefusesAnotherSweepsPointsUnlessForcedAndThenReplacesThem() throws IOException {
    Path sw = tmp.resolve("two-sweeps");
    assertThat(aries("sweep", "--job", "pingpong", "--param", "sizes=8,64", "--param", "iterations=1", "--out",
        sw.toString(), "-q")).isZero();
    String first = Files.readString(sw.resolve("point-0.json"));
    String[] other = {"sweep", "--job", "pingpong", "--param", "sizes=8", "--param", "iterations=2", "--out",
        sw.toString(), "-q"};
    assertThat(aries(other)).isEqualTo(2);
    assertThat(onlyLine()).contains(sw + " holds 2 point file(s) of another sweep (point-0.json: \"sweep --job"
        + " pingpong").contains("add --force to replace them");
    assertThat(Files.readString(sw.resolve("point-0.json"))).as("left as it was").isEqualTo(first);
    // the same sweep again (or another shard of it) is no other sweep
    assertThat(aries("sweep", "--job", "pingpong", "--param", "sizes=8,64", "--param", "iterations=1", "--out",
        sw.toString(), "-q", "--shard", "1/2")).isZero();
    String[] forced = java.util.Arrays.copyOf(other, other.length + 1);
    forced[other.length] = "--force";
    assertThat(aries(forced)).isZero();
    assertThat(sw.resolve("point-1.json")).as("the other sweep's points are gone").doesNotExist();
    assertThat(aries("merge", sw.toString(), "--out", out("merged.json"))).isZero();
  }

  @Test
  void aBadPlotIsRefusedBeforeAMergeWritesItsCsv() throws IOException {
    Path sw = tmp.resolve("swp");
    assertThat(aries("sweep", "--job", "pingpong", "--param", "sizes=8", "--param", "iterations=1,2", "--out",
        sw.toString(), "-q")).isZero();
    Path csv = tmp.resolve("csv");
    assertThat(aries("merge", sw.toString(), "--out", out("m.json"), "--csv", csv.toString(), "--html",
        out("r.html"), "--plot", "iterations:nosuch")).isEqualTo(2);
    assertThat(onlyLine()).contains("nosuch");
    assertThat(csv).as("nothing written, no directory made").doesNotExist();
    assertThat(tmp.resolve("m.json")).doesNotExist();
  }

  @Test
  void aSweepRangeAtTheEndOfTheLongRangeEndsAndAHugeShardCountRunsNothing() {
    assertThat(aries("sweep", "--job", "pingpong", "--dry-run", "-q", "--param",
        "seed=9223372036854775806..9223372036854775807")).isZero();
    assertThat(out.toString()).contains("2 points");
    assertThat(aries("sweep", "--job", "pingpong", "--dry-run", "-q", "--param", "iterations=2,3", "--shard",
        "1/2147483647")).isZero();
    assertThat(out.toString()).contains("shard 1/2147483647 runs 1");
  }

  @Test
  void optionsAreNamedAsTypedNotAsTheLibrarysFields() throws IOException {
    assertThat(aries("iommu", "--synthetic", "random:10", "--in-flight", "0")).isEqualTo(2);
    assertThat(onlyLine()).contains("--in-flight must be in [1, 4096] but was 0").endsWith("(--in-flight)");
    err.getBuffer().setLength(0);
    // each option in its range, their product not: refused when configured (it used to be an array error)
    assertThat(aries("iommu", "--synthetic", "random:10", "--sets", "1048576", "--ways", "64", "--ptes-per-line",
        "512")).isEqualTo(2);
    assertThat(onlyLine()).contains("--sets * --ways * --ptes-per-line (the PTEs the cache holds) must be at most"
        + " 16777216 but was 1048576 * 64 * 512 = 34359738368");
    err.getBuffer().setLength(0);
    // the range the option states is the one it takes (it said 1e9 ns, then refused 5e8 ns in picoseconds)
    assertThat(aries("iommu", "--synthetic", "random:10", "--fetch-latency-ns", "5e8")).isEqualTo(2);
    assertThat(onlyLine()).contains("--fetch-latency-ns must be in [0, 1e6] ns (1 ms) but was 5.0E8");
    err.getBuffer().setLength(0);
    assertThat(aries("iommu", "--synthetic", "random:10", "--serial", "--window", "5")).isEqualTo(2);
    assertThat(onlyLine()).contains("--serial and --window contradict each other");
    err.getBuffer().setLength(0);
    assertThat(aries("traffic", "--topology", "canonical:p=1,a=2,h=1", "--measure-us", "0.01", "--vc-buffer", "0"))
        .isEqualTo(2);
    assertThat(onlyLine()).contains("--vc-buffer must be in [128, 1048576] but was 0");
    err.getBuffer().setLength(0);
    Path trace = file("two.txt", "0 init\n1 init\n0 send 1 0 8\n1 recv 0 0 8\n");
    assertThat(aries("replay", trace.toString(), "--ranks-per-node", "0", "--out", out("rp"), "-q")).isEqualTo(2);
    assertThat(onlyLine()).contains("--ranks-per-node must be");
  }

  @Test
  void optionsThatWouldBeIgnoredOrContradictTheRunAreRefused() throws IOException {
    assertThat(aries("run", "pingpong", "--trace-filter", "bogus", "--out", out("t1"))).isEqualTo(2);
    assertThat(onlyLine()).contains("--trace-filter needs --trace FILE");
    err.getBuffer().setLength(0);
    assertThat(aries("run", "pingpong", "--trace", out("t.jsonl"), "--trace-limit", "0", "--out", out("t2")))
        .isEqualTo(2);
    assertThat(onlyLine()).contains("--trace-limit must be in [1, ").endsWith("(--trace-limit)");
    err.getBuffer().setLength(0);
    assertThat(aries("run", "traffic", "--trace", out("t.jsonl"), "--out", out("t3"))).isEqualTo(2);
    assertThat(onlyLine()).contains("--trace records the NICs' packets, and the traffic workload has none");
    err.getBuffer().setLength(0);
    assertThat(aries("run", "iommu-study", "--translator", "flat", "--out", out("t4"))).isEqualTo(2);
    assertThat(onlyLine()).contains("iommu-study measures the IOMMU's PTE cache, but the system's translator is flat");
    err.getBuffer().setLength(0);
    Path conf = file("flat.json", "{\"translator\": \"flat\", \"iommu\": {\"ways\": 8}}");
    assertThat(aries("run", "pingpong", "--config", conf.toString(), "--out", out("t5"))).isEqualTo(2);
    assertThat(onlyLine()).contains("iommu settings are for the IOMMU translator but translator is flat");
    err.getBuffer().setLength(0);
    // the mixed job's phase that cannot run is named, not a parameter mixed does not take
    assertThat(aries("run", "mixed", "--system", "canonical:p=1,a=1,h=1", "--out", out("t6"))).isEqualTo(2);
    assertThat(onlyLine()).contains("the mixed job's ").contains(" phase cannot run on this system: ")
        .doesNotContain("set distance=VALUE");
    for (String dir : new String[] {"t1", "t2", "t3", "t4", "t5", "t6"}) {
      assertThat(tmp.resolve(dir)).as("refused before --out is made").doesNotExist();
    }
  }

  @Test
  void aTraceFilterNodeTheSystemLacksAndADrainLimitWithoutDrainAreRefused() {
    assertThat(aries("run", "pingpong", "--trace", out("f.jsonl"), "--trace-filter", "src=99999", "--out", out("f1")))
        .isEqualTo(2);
    assertThat(onlyLine()).contains("--trace-filter src must be in [0, 383] (the nodes of the fabric traced) but was"
        + " 99999 (--trace-filter)");
    assertThat(tmp.resolve("f1")).doesNotExist();
    err.getBuffer().setLength(0);
    assertThat(aries("traffic", "--topology", "canonical:p=1,a=2,h=1", "--measure-us", "0.01", "--drain-limit-us",
        "5")).isEqualTo(2);
    assertThat(onlyLine()).contains("--drain-limit-us needs --drain");
  }

  @Test
  void aConfigurationIsOneValueAndItsIommuSettingsNeedTheIommu() throws IOException {
    // a second document or value was dropped without a word (the YAML one's workload included)
    String[][] files = {{"two.json", "{\"seed\": 7}\n{\"seed\": 8}\n"}, {"two.yaml", "seed: 7\n---\nworkload: gups\n"},
        {"trail.json", "{\"seed\": 7} and more"}};
    for (String[] f : files) {
      err.getBuffer().setLength(0);
      assertThat(aries("run", "pingpong", "--config", file(f[0], f[1]).toString(), "--out", out("c")))
          .as(f[0]).isEqualTo(2);
      assertThat(onlyLine()).as(f[0]).contains("cannot parse the configuration").doesNotContain("FAIL_ON", "Feature");
    }
    err.getBuffer().setLength(0);
    assertThat(aries("run", "pingpong", "--config", file("comment.json", "// c\n{\"seed\": 7}\n").toString(),
        "--out", out("c"))).isEqualTo(2);
    assertThat(onlyLine()).contains("maybe a (non-standard) comment?").doesNotContain("ALLOW_COMMENTS");
    err.getBuffer().setLength(0);
    assertThat(aries("run", "pingpong", "--config", file("io.yaml", "iommu: {ways: 2}\n").toString(), "--translator",
        "flat", "--out", out("c"))).isEqualTo(2);
    assertThat(onlyLine()).contains("the configuration's iommu settings are for the IOMMU translator but the"
        + " translator is flat");
    // settings equal to the defaults too, as inside the file (they passed on the command line)
    err.getBuffer().setLength(0);
    assertThat(aries("run", "pingpong", "--config", file("io4.yaml", "iommu: {ways: 4}\n").toString(),
        "--translator", "flat", "--out", out("c"))).isEqualTo(2);
    assertThat(onlyLine()).contains("the configuration's iommu settings are for the IOMMU translator but the"
        + " translator is flat");
    assertThat(tmp.resolve("c")).doesNotExist();
  }

  @Test
  void aSystemOrRoutingWithSpacesAroundItIsRecordedWithout() throws IOException {
    assertThat(aries("run", "pingpong", "--system", " default", "--routing", "minimal ", "-p", "sizes=8", "-p",
        "iterations=1", "-q", "--no-wall-clock", "--out", out("sp"))).as(err.toString()).isZero();
    com.fasterxml.jackson.databind.JsonNode run = new com.fasterxml.jackson.databind.ObjectMapper()
        .readTree(tmp.resolve("sp/results.json").toFile()).path("run");
    assertThat(run.path("system").asText()).isEqualTo("default");
    assertThat(run.path("routing").asText()).isEqualTo("minimal");
  }

  @Test
  void anIntegerOptionThatIsNoIntegerSaysWhatItTakes() {
    // picocli's own words were "'abc' is not a long", then "Invalid value for option '--seed': must be ..."
    assertThat(aries("run", "pingpong", "--seed", "abc", "--out", out("o"))).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries run: --seed must be an integer from "
        + Long.MIN_VALUE + " to " + Long.MAX_VALUE + " but was 'abc' (--seed)");
    clearErr();
    assertThat(aries("traffic", "--seed", "1.5")).isEqualTo(2);
    assertThat(onlyLine()).contains("--seed must be an integer from").endsWith("but was '1.5' (--seed)");
    clearErr();
    assertThat(aries("run", "pingpong", "--trace", out("t.json"), "--trace-limit", "x", "--out", out("o")))
        .isEqualTo(2);
    // its own range, not Java's int's (until stop 77)
    assertThat(onlyLine()).isEqualTo("aries run: --trace-limit must be an integer in [1, 10000000] but was 'x'"
        + " (--trace-limit)");
    assertThat(tmp.resolve("o")).doesNotExist();
  }

  /**
   * An integer option with a range narrower than Java's type names that range whatever is wrong with the value: the
   * text beyond the type, or no number, said "--vc-buffer must be an integer from -2147483648 to 2147483647" (stop 77).
   */
  @Test
  void anIntegerOptionBeyondItsTypeOrNoNumberIsToldTheOptionsOwnRange() {
    assertThat(aries("traffic", "--vc-buffer", "99999999999")).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries traffic: --vc-buffer must be in [128, 1048576] but was 99999999999"
        + " (--vc-buffer)");
    clearErr();
    assertThat(aries("traffic", "--vc-buffer", "abc")).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries traffic: --vc-buffer must be an integer in [128, 1048576] but was 'abc'"
        + " (--vc-buffer)");
    clearErr();
    assertThat(aries("traffic", "--vc-buffer", "64")).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries traffic: --vc-buffer must be in [128, 1048576] but was 64 (--vc-buffer)");
    clearErr();
    assertThat(aries("iommu", "--synthetic", "random:1", "--sets", "-99999999999")).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries iommu: --sets must be a power of two in [1, 1048576] but was -99999999999"
        + " (--sets)");
    clearErr();
    // the whole range when only the bottom end is narrower than the type (it said "--window must be >= 1")
    assertThat(aries("iommu", "--synthetic", "random:1", "--window", "0")).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries iommu: --window must be in [1, 2147483647] but was 0 (--window)");
  }

  @Test
  void oneSizeWrittenTwoWaysIsRefusedBySweepAndRun() {
    assertThat(aries("sweep", "--job", "pingpong", "-p", "sizes=4K,4096", "-p", "iterations=1", "--out", out("dup"),
        "-q")).isEqualTo(2);
    assertThat(onlyLine()).contains("parameter sizes lists 4096 twice, as \"4K\" and \"4096\"");
    assertThat(tmp.resolve("dup")).doesNotExist();
    clearErr();
    assertThat(aries("run", "pingpong", "-p", "sizes=4K,4096", "-p", "iterations=1", "--out", out("dup"), "-q"))
        .isEqualTo(2);
    assertThat(onlyLine()).contains("sizes lists 4096 twice, as \"4K\" and \"4096\"; give each value once");
    assertThat(tmp.resolve("dup")).doesNotExist();
  }

  @Test
  void oneNumberWrittenTwoWaysIsRefusedBySweepAndRunNamingBothSpellings() {
    // sizes=05,5 ran one point twice (the values were compared as text) and merged as two rows of one coordinate
    assertThat(aries("sweep", "--job", "pingpong", "-p", "sizes=05,5", "-p", "iterations=1", "--out", out("dup"),
        "-q")).isEqualTo(2);
    assertThat(onlyLine()).isEqualTo("aries sweep: parameter sizes lists 5 twice, as \"05\" and \"5\"; give each"
        + " value once (--param)");
    assertThat(tmp.resolve("dup")).doesNotExist();
    clearErr();
    assertThat(aries("sweep", "--job", "traffic", "-p", "loads=0.5,0.50", "--dry-run", "--out", out("dup")))
        .isEqualTo(2);
    assertThat(onlyLine()).contains("parameter loads lists 0.5 twice, as \"0.5\" and \"0.50\"");
    clearErr();
    assertThat(aries("sweep", "--job", "pingpong", "-p", "seed=1..3,03", "--out", out("dup"), "-q")).isEqualTo(2);
    assertThat(onlyLine()).contains("parameter seed lists 3 twice, as \"3\" and \"03\"");
    clearErr();
    assertThat(aries("run", "pingpong", "-p", "sizes=8,05,5", "-p", "iterations=1", "--out", out("dup"), "-q"))
        .isEqualTo(2);
    assertThat(onlyLine()).contains("sizes lists 5 twice, as \"05\" and \"5\"; give each value once");
    clearErr();
    assertThat(aries("run", "traffic", "-p", "loads=0.5,0.50", "--out", out("dup"), "-q")).isEqualTo(2);
    assertThat(onlyLine()).contains("loads lists 0.5 twice, as \"0.5\" and \"0.50\"");
    assertThat(tmp.resolve("dup")).doesNotExist();
  }

  @Test
  void anAlltoallWhoseBuffersPassAJavaArrayIsRefusedBeforeTheRun() {
    // 32 nodes of 68 ranks at 1 MiB: each rank's buffers are 2,281,701,376 bytes; OsuBenchmarks refused it only at
    // the alltoall's point, after the barriers and allreduces had run into --out
    assertThat(aries("run", "mpi-collectives", "-p", "nodes=2,32", "-p", "ranksPerNode=68", "-p", "alltoall=1048576",
        "-p", "engine=off", "-p", "warmup=0", "-p", "iterations=1", "--out", out("a2a"), "-q")).isEqualTo(2);
    assertThat(onlyLine()).contains("alltoall × ranks (each rank's send and receive buffer, a block for every rank)"
        + " must be at most 2147483639 (the largest Java array) but was 1048576 × 2176 = 2281701376 (32 nodes ×"
        + " ranksPerNode 68)");
    assertThat(tmp.resolve("a2a")).doesNotExist();
  }

  @Test
  void aRadixWithoutTheCollectiveEngineIsRefusedNotIgnored() {
    assertThat(aries("run", "mpi-collectives", "-p", "nodes=2", "-p", "engine=off", "-p", "radix=4", "--out",
        out("rx"), "-q")).isEqualTo(2);
    assertThat(onlyLine()).contains("radix sets the collective engine's tree, which engine=off does not use, but was 4");
    assertThat(tmp.resolve("rx")).doesNotExist();
    clearErr();
    assertThat(aries("sweep", "--job", "mpi-collectives", "-p", "nodes=2", "-p", "engine=off", "-p", "radix=2,4",
        "--out", out("rxs"), "-q")).isEqualTo(2);
    assertThat(onlyLine()).startsWith("aries sweep: point 0 ").contains("radix sets the collective engine's tree");
    assertThat(tmp.resolve("rxs")).doesNotExist();
  }
}
