package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.ResultsJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCommandTest {

  @TempDir Path tmp;

  private int run(StringWriter out, StringWriter err, String... args) {
    return AriesCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  /**
   * {@code run replay} locates a trace's problem at the parameter that named its file, as {@code replay} does at its
   * argument: a background trace that cannot be read was located at "(trace)" (until stop 74).
   */
  @Test
  void aReplaysTraceProblemIsLocatedAtTheParameterThatNamedItsFile() throws Exception {
    Path good = Path.of("../aries-traces/src/test/resources/traces/simgrid-examples/actions_bcast.txt");
    Path unreadable = tmp.resolve("unreadable.txt"); // refused as the trace is opened
    Files.writeString(unreadable, "0 init\n0 send 1 notanumber\n");
    Path outOfRange = tmp.resolve("out-of-range.txt"); // refused as the replay reads it
    Files.writeString(outOfRange, "0 init\n0 send 1 0 100\n0 finalize\n");
    for (Path bad : List.of(unreadable, outOfRange)) {
      StringWriter err = new StringWriter();
      int rc = run(new StringWriter(), err, "run", "replay", "-p", "trace=" + good, "-p", "backgroundTrace=" + bad,
          "-p", "baseline=off", "-q", "--out", tmp.resolve("o").toString());
      assertThat(rc).as(err.toString()).isEqualTo(2);
      assertThat(err.toString()).contains(bad.toString(), "(-p backgroundTrace=" + bad + ")")
          .doesNotContain("(trace)");
    }
    StringWriter err = new StringWriter();
    int rc = run(new StringWriter(), err, "run", "replay", "-p", "trace=" + good, "-p",
        "with=" + good + java.io.File.pathSeparator + outOfRange, "-p", "baseline=off", "-q", "--out",
        tmp.resolve("o").toString());
    assertThat(rc).as(err.toString()).isEqualTo(2);
    assertThat(err.toString()).contains("destination must be in 0..0", "(-p with=" + outOfRange + ")");
  }

  /**
   * {@code run replay} refuses work estimated beyond the bound as {@code replay} does, with its own remedy
   * ({@code -p allowLong=on}), before anything is simulated; under it the run reaches the replay's first pass (here its
   * refusal of the with trace, a rank that sends to a rank it lacks).
   */
  @Test
  void runReplayRefusesWorkEstimatedBeyondTheBoundUnlessAllowLong() throws Exception {
    Path big = tmp.resolve("big.txt");
    Files.writeString(big, "0 init\n1 init\n0 send 1 0 2e9\n1 recv 0 0 2e9\n0 finalize\n1 finalize\n");
    Path bad = tmp.resolve("bad.txt");
    Files.writeString(bad, "0 init\n0 send 1 0 100\n0 finalize\n");
    StringWriter err = new StringWriter();
    int rc = run(new StringWriter(), err, "run", "replay", "-p", "trace=" + big, "-p", "with=" + bad, "-p",
        "baseline=off", "-q", "--out", tmp.resolve("o").toString());
    assertThat(rc).as(err.toString()).isEqualTo(2);
    assertThat(err.toString()).contains("estimated work 31,250,000 packets", "exceeds the bound of 10,000,000",
        "give -p allowLong=on (-p trace=" + big + ")");
    err = new StringWriter();
    rc = run(new StringWriter(), err, "run", "replay", "-p", "trace=" + big, "-p", "with=" + bad, "-p",
        "baseline=off", "-p", "allowLong=on", "-q", "--out", tmp.resolve("o").toString());
    assertThat(rc).as(err.toString()).isEqualTo(2);
    assertThat(err.toString()).contains("destination must be in 0..0", "(-p with=" + bad + ")")
        .doesNotContain("estimated work");
  }

  @Test
  void pingpongWritesResultsPlotsAndReport() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Path dir = tmp.resolve("pp");
    int rc = run(out, err, "run", "pingpong", "-p", "sizes=8,4K", "-p", "iterations=3", "--out", dir.toString());
    assertThat(rc).as(err.toString()).isZero();
    assertThat(out.toString()).contains("latency.same-router", "latency.rank-1");
    Results r = ResultsJson.read(dir.resolve("results.json"));
    assertThat(r.table("pingpong")).isPresent();
    assertThat(r.table("pingpong").get().rows()).hasSize(3 * 2); // 3 distances in one group × 2 sizes
    double[] lat = r.table("pingpong").get().numbers("latency");
    assertThat(java.util.Arrays.stream(lat).boxed().toList()).allMatch(v -> v > 0);
    assertThat(dir.resolve("pingpong.csv")).exists();
    assertThat(dir.resolve("pingpong-latency-vs-size.png")).exists();
    assertThat(Files.readString(dir.resolve("report.html"))).contains("<img", "pingpong");
  }

  /**
   * {@code --no-wall-clock} leaves the wall time out of the text summary as out of results.json: the text printed
   * "0.3 s wall (... M events/s)" all the same (until stop 73). With the wall clock the line keeps the rate that
   * aries-bench's InProcessAb reads back. The same holds for replay's text summary.
   */
  @Test
  void theTextSummaryHasNoWallTimeUnderNoWallClock() throws Exception {
    String[] pingpong = {"run", "pingpong", "-p", "sizes=8", "-p", "iterations=1", "-p", "distances=same-router", "-q"};
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(run(out, err, append(append(pingpong, "--no-wall-clock"), "--out", tmp.resolve("a").toString())))
        .as(err.toString()).isZero();
    String line = out.toString().lines().filter(l -> l.startsWith("  simulated ")).findFirst().orElseThrow();
    assertThat(line).matches("  simulated [0-9,.]+ us, [0-9,]+ events");
    assertThat(out.toString()).doesNotContain("wall", "events/s");
    StringWriter timed = new StringWriter();
    assertThat(run(timed, err, append(pingpong, "--out", tmp.resolve("b").toString()))).as(err.toString()).isZero();
    assertThat(timed.toString()).containsPattern("  simulated [0-9,.]+ us, [0-9,]+ events in [0-9,.]+ s wall"
        + " \\([0-9.]+ M events/s\\)");
    StringWriter replayed = new StringWriter();
    assertThat(run(replayed, err, "replay", ReplayCommandTest.TRACES.resolve("simgrid-examples/actions_waitall.txt")
        .toString(), "-q", "--no-wall-clock", "--out", tmp.resolve("r").toString())).as(err.toString()).isZero();
    assertThat(replayed.toString()).containsPattern("(?m)^  [0-9,]+ events$").doesNotContain("wall");
  }

  /** The names of the files in a directory, hidden ones included. */
  private static List<String> names(Path dir) throws java.io.IOException {
    try (var files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void aRunRemovesOnlyTheFilesAnEarlierReportWroteNeverAUsersOwn() throws Exception {
    StringWriter err = new StringWriter();
    Path dir = tmp.resolve("mine");
    String[] pingpong = {"run", "pingpong", "-p", "sizes=8,64", "-p", "iterations=1", "-q", "--no-wall-clock",
        "--out", dir.toString()};
    assertThat(run(new StringWriter(), err, pingpong)).as(err.toString()).isZero();
    Files.writeString(dir.resolve("notes.csv"), "mine\n");
    Files.writeString(dir.resolve("photo.png"), "mine");
    // a repeat (no --force needed) used to remove every *.csv and *.png it did not write
    assertThat(run(new StringWriter(), err, pingpong)).as(err.toString()).isZero();
    assertThat(dir.resolve("notes.csv")).hasContent("mine");
    assertThat(dir.resolve("photo.png")).hasContent("mine");
    // --force replaces another run's files, and only those
    assertThat(run(new StringWriter(), err, "run", "gups", "-p", "pes=2", "-p", "updates=2", "-q", "--force",
        "--out", dir.toString())).as(err.toString()).isZero();
    assertThat(names(dir)).containsExactly(".aries-report-files", "gups.csv", "metrics.csv", "notes.csv", "photo.png",
        "report.html", "results.json");
    // a directory written before the list existed: its results.json names the earlier run's tables
    assertThat(run(new StringWriter(), err, pingpong)).isEqualTo(2); // (another run's: --force)
    Files.delete(dir.resolve(".aries-report-files"));
    assertThat(run(new StringWriter(), err, append(pingpong, "--force"))).as(err.toString()).isZero();
    assertThat(names(dir)).doesNotContain("gups.csv").contains("notes.csv", "photo.png", "pingpong.csv");
  }

  @Test
  void aTraceInOutUnderAReportFilesNameIsRefusedAndAnyOtherSurvivesTheReport() throws Exception {
    Path dir = tmp.resolve("traced");
    for (String name : new String[] {"trace.csv", "trace.png", "results.json", "report.html"}) {
      StringWriter err = new StringWriter();
      assertThat(run(new StringWriter(), err, "run", "pingpong", "-p", "sizes=8", "-p", "iterations=1", "-q",
          "--out", dir.toString(), "--trace", dir.resolve(name).toString())).as(name).isEqualTo(2);
      assertThat(err.toString().strip()).as(name).doesNotContain("\n")
          .startsWith("aries run: --trace " + dir.resolve(name) + " is in --out " + dir).endsWith("(--trace)");
      assertThat(dir).as("refused before --out is made").doesNotExist();
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Path trace = dir.resolve("trace.json");
    assertThat(run(out, err, "run", "pingpong", "-p", "sizes=8", "-p", "iterations=1", "-q", "--out",
        dir.toString(), "--trace", trace.toString())).as(err.toString()).isZero();
    assertThat(out.toString()).contains("trace:   " + trace);
    assertThat(new ObjectMapper().readTree(trace.toFile()).path("traceEvents").size()).isPositive();
  }

  private static String[] append(String[] args, String... more) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  @Test
  void aDefaultThatDoesNotFitTheSystemIsNamedAsTheDefault() {
    // two nodes: gups' default of 32 PEs and mixed's default distance (same-router) do not fit, and the user, who gave
    // neither parameter, learns that there is one to set; a value the user gave is quoted as before
    StringWriter err = new StringWriter();
    assertThat(run(new StringWriter(), err, "run", "gups", "--system", "canonical:p=1,a=1,h=1", "-q", "--out",
        tmp.resolve("g").toString())).isEqualTo(2);
    assertThat(err.toString().trim())
        .isEqualTo("aries run: pes must be in [1, 2] but was 32 (the default; set pes=VALUE) (arguments)");
    err.getBuffer().setLength(0);
    assertThat(run(new StringWriter(), err, "run", "gups", "--system", "canonical:p=1,a=1,h=1", "-p", "pes=3", "-q",
        "--out", tmp.resolve("g3").toString())).isEqualTo(2);
    assertThat(err.toString().trim()).isEqualTo("aries run: pes must be in [1, 2] but was 3 (-p pes)");
    err.getBuffer().setLength(0);
    assertThat(run(new StringWriter(), err, "run", "mixed", "--system", "canonical:p=1,a=1,h=1", "-q", "--out",
        tmp.resolve("m").toString())).isEqualTo(2);
    // the phase that cannot run is named; mixed takes no distance parameter, so it does not say to set one
    assertThat(err.toString()).contains("the mixed job's bandwidth phase cannot run on this system: distance must be"
        + " one of global but was \"same-router\"; run the workloads that fit it on their own");
    assertThat(tmp.resolve("g")).doesNotExist();
  }

  @Test
  void trafficRunsTheRoutingGivenAloneUnlessItsRoutingsParameterIsGiven() throws Exception {
    // --routing used to be ignored by run traffic, which ran its four default routings whatever was asked
    Path alone = tmp.resolve("alone");
    assertThat(run(new StringWriter(), new StringWriter(), "run", "traffic", "--system", "aries-small", "--routing",
        "ugal", "-p", "loads=0.1", "-p", "measureNs=200", "-q", "--out", alone.toString())).isZero();
    assertThat(ResultsJson.read(alone.resolve("results.json")).table("traffic").orElseThrow().rows())
        .extracting(row -> row.get(0)).containsExactly("ugal");
    Path both = tmp.resolve("both");
    assertThat(run(new StringWriter(), new StringWriter(), "run", "traffic", "--system", "aries-small", "--routing",
        "ugal", "-p", "routings=minimal,valiant", "-p", "loads=0.1", "-p", "measureNs=200", "-q", "--out",
        both.toString())).isZero();
    assertThat(ResultsJson.read(both.resolve("results.json")).table("traffic").orElseThrow().rows())
        .extracting(row -> row.get(0)).containsExactly("minimal", "valiant");
  }

  @Test
  void trafficRefusesTheIdealFabricAndTheDefaultJobLeavesItsTrafficPhaseOutThere() throws Exception {
    // both used to run the traffic experiments on routers, whatever --fabric said
    StringWriter err = new StringWriter();
    assertThat(run(new StringWriter(), err, "run", "traffic", "--system", "aries-small", "--fabric", "ideal", "-q",
        "--out", tmp.resolve("t").toString())).isEqualTo(2);
    assertThat(err.toString()).contains("fabric must be routers for traffic");
    Path mixed = tmp.resolve("mixed");
    assertThat(run(new StringWriter(), new StringWriter(), "run", "mixed", "--system", "aries-small", "--fabric",
        "ideal", "-q", "--no-wall-clock", "--out", mixed.toString())).isZero();
    Results r = ResultsJson.read(mixed.resolve("results.json"));
    assertThat(r.table("traffic")).isEmpty();
    assertThat(r.table("pingpong")).isPresent();
    assertThat(r.table("host-cache")).isPresent();
  }

  @Test
  void sameSeedGivesByteIdenticalResultsWithoutWallClock() throws Exception {
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    for (Path d : new Path[] {a, b}) {
      int rc = run(new StringWriter(), new StringWriter(), "run", "gups", "-p", "pes=8", "-p", "updates=32",
          "--seed", "5", "--no-wall-clock", "--out", d.toString());
      assertThat(rc).isZero();
    }
    assertThat(Files.readAllBytes(a.resolve("results.json"))).isEqualTo(Files.readAllBytes(b.resolve("results.json")));
  }

  @Test
  void theRunBlockRecordsTheFabricTheTranslatorAndTheNicAndIommuSettings() throws Exception {
    // they were left out, so two runs that differed only there wrote the same run block (stop 47's probe)
    Files.writeString(tmp.resolve("nic.yaml"), "nic: {requestTags: 32, hostGBps: 8}\n");
    Files.writeString(tmp.resolve("iommu.json"), "{\"iommu\": {\"ways\": 2, \"policy\": \"plru\"}}");
    Files.writeString(tmp.resolve("defaults.yaml"), "nic: {requestTags: 64}\niommu: {ways: 4}\n");
    Map<String, JsonNode> runs = new LinkedHashMap<>();
    for (String[] extra : new String[][] {{}, {"--fabric", "ideal"}, {"--translator", "flat"},
        {"--config", tmp.resolve("nic.yaml").toString()}, {"--config", tmp.resolve("iommu.json").toString()}}) {
      runs.put(String.join(" ", extra), runBlock(extra));
    }
    JsonNode plain = runs.get("");
    assertThat(plain.get("fabric").asText()).isEqualTo("routers");
    assertThat(plain.get("translator").asText()).isEqualTo("iommu");
    assertThat(plain.get("nic").size()).isZero();
    assertThat(plain.get("iommu").size()).isZero();
    assertThat(runs.get("--fabric ideal").get("fabric").asText()).isEqualTo("ideal");
    JsonNode flat = runs.get("--translator flat");
    assertThat(flat.get("translator").asText()).isEqualTo("flat");
    assertThat(flat.get("iommu").isNull()).isTrue(); // the flat translator has no IOMMU
    JsonNode nic = runs.get("--config " + tmp.resolve("nic.yaml")).get("nic");
    assertThat(nic.toString()).isEqualTo("{\"hostGBps\":\"8.0\",\"requestTags\":\"32\"}"); // in key order
    JsonNode iommu = runs.get("--config " + tmp.resolve("iommu.json")).get("iommu");
    assertThat(iommu.toString()).isEqualTo("{\"policy\":\"plru\",\"ways\":\"2\"}");
    assertThat(new java.util.HashSet<>(runs.values())).as("every run block differs").hasSize(runs.size());
    // a file that spells out defaults configures the run without one: the same bytes
    Path spelled = tmp.resolve("spelled");
    assertThat(run(new StringWriter(), new StringWriter(), "run", "pingpong", "-p", "sizes=8", "-p", "iterations=1",
        "--config", tmp.resolve("defaults.yaml").toString(), "--no-wall-clock", "-q", "--out", spelled.toString()))
        .isZero();
    assertThat(Files.readAllBytes(spelled.resolve("results.json")))
        .isEqualTo(Files.readAllBytes(tmp.resolve("run-").resolve("results.json")));
  }

  /** The run block of results.json of a small pingpong run with more options, written to run-OPTIONS. */
  private JsonNode runBlock(String... extra) throws Exception {
    Path dir = tmp.resolve("run-" + String.join("", extra).replaceAll("[^A-Za-z0-9]", ""));
    List<String> args = new ArrayList<>(List.of("run", "pingpong", "-p", "sizes=8", "-p", "iterations=1",
        "--no-wall-clock", "-q", "--out", dir.toString()));
    args.addAll(List.of(extra));
    StringWriter err = new StringWriter();
    assertThat(run(new StringWriter(), err, args.toArray(String[]::new))).as(err.toString()).isZero();
    return new ObjectMapper().readTree(dir.resolve("results.json").toFile()).get("run");
  }

  @Test
  void unknownWorkloadParameterOrSystemIsAClearError() {
    StringWriter err = new StringWriter();
    assertThat(run(new StringWriter(), err, "run", "nosuch")).isEqualTo(2);
    assertThat(err.toString()).contains("workload must be one of mixed, pingpong");
    err = new StringWriter();
    assertThat(run(new StringWriter(), err, "run", "pingpong", "-p", "sizez=8", "--out", tmp.toString()))
        .isEqualTo(2);
    assertThat(err.toString()).contains("unknown parameter \"sizez\"", "sizes");
    err = new StringWriter();
    assertThat(run(new StringWriter(), err, "run", "pingpong", "--system", "aries:groups=300")).isEqualTo(2);
    assertThat(err.toString()).contains("groups");
  }

  /**
   * The text summary follows the README's number format, as replay's does: a count whole with its thousands grouped
   * ({@code 8,000 B}; it printed {@code 8000.000 B}, every metric with three decimals; until stop 73), any other figure
   * with the decimals it was recorded with. results.json keeps the plain number.
   */
  @Test
  void theTextSummaryGroupsThousandsAndPrintsCountsWhole() throws Exception {
    Path dir = tmp.resolve("replay");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(run(out, err, "run", "replay", "-p",
        "trace=" + ReplayCommandTest.TRACES.resolve("simgrid-examples/actions_waitall.txt"), "-q", "--no-wall-clock",
        "--out", dir.toString())).as(err.toString()).isZero();
    List<String> lines = out.toString().lines().toList();
    assertThat(lines).contains("  bytes                                                8,000 B",
        "  ranks                                                    3");
    Results r = ResultsJson.read(dir.resolve("results.json"));
    assertThat(r.metrics()).isNotEmpty();
    for (io.github.ariesmodel.cli.report.Metric m : r.metrics()) {
      assertThat(lines).contains(String.format(java.util.Locale.ROOT, "  %-45s %12s%s", m.name(),
          io.github.ariesmodel.cli.report.Figures.text(m.value()), m.unit().isEmpty() ? "" : " " + m.unit()));
    }
    JsonNode bytes = new ObjectMapper().readTree(dir.resolve("results.json").toFile()).path("metrics").path("bytes");
    assertThat(bytes.path("value").isNumber()).as("results.json keeps the plain number: " + bytes).isTrue();
    assertThat(bytes.path("value").asDouble()).isEqualTo(8000);
  }

  @Test
  void listShowsEveryWorkloadWithItsParameters() {
    StringWriter out = new StringWriter();
    assertThat(run(out, new StringWriter(), "run", "--list")).isZero();
    assertThat(out.toString()).contains("mixed", "pingpong", "bandwidth", "gups", "alltoall", "traffic",
        "iommu-study", "-p sizes=");
  }
}
