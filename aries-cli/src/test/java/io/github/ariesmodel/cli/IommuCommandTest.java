package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.ariesmodel.core.Texts;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code aries iommu} run through {@link AriesCli#execute}. */
class IommuCommandTest {

  @TempDir Path dir;

  private record Run(int code, String out, String err) {
    JsonNode json() throws IOException {
      return new ObjectMapper().readTree(out);
    }
  }

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = AriesCli.execute(args, new PrintWriter(out), new PrintWriter(err));
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void serialTraceCountsAndLatencyFollowTheCache() throws IOException {
    Path trace = dir.resolve("t.trace");
    Files.writeString(trace, "# offsets into the region\n0\n8 R\n4096\n\n0x2000 W\n0 a\n");
    Run r = run("iommu", "--region", "1M", "--serial", "--json", trace.toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = r.json();
    assertThat(j.get("translations").asLong()).isEqualTo(5);
    // The first access fetches the directory line, then the leaf line (500 ns each by default); the rest hit.
    assertThat(j.get("misses").asLong()).isEqualTo(1);
    assertThat(j.get("hits").asLong()).isEqualTo(4);
    assertThat(j.get("mergedMisses").asLong()).isZero();
    assertThat(j.get("evictions").asLong()).isZero();
    assertThat(j.get("stalls").asLong()).isZero();
    assertThat(j.get("twoLevelWalks").asLong()).isEqualTo(5);
    assertThat(j.get("meanLatencyNs").asDouble()).isEqualTo((1005.0 + 4 * 5.0) / 5);
  }

  @Test
  void scanInsideTheReachMissesOnlyOnceAndOutsideItAlwaysMisses() throws IOException {
    // 2M pages: one 64-byte line maps 8 pages = 16 MB; 128 lines reach 2 GB.
    JsonNode inside = run("iommu", "--page-size", "2M", "--region", "2G", "--serial", "--json",
        "--synthetic", "scan:2G:2M:3072").json();
    assertThat(inside.get("misses").asLong()).isEqualTo(128);
    assertThat(inside.get("hits").asLong()).isEqualTo(3072 - 128);
    assertThat(inside.get("evictions").asLong()).isZero();
    JsonNode outside = run("iommu", "--page-size", "2M", "--region", "4G", "--serial", "--json",
        "--synthetic", "scan:2064M:16M:1032").json();
    // 129 lines cycled through 32 LRU sets of 4 ways over 8 passes: one set holds 5 lines and misses on each of
    // them in every pass after the first (the first pass already evicts once there).
    assertThat(outside.get("misses").asLong()).isEqualTo(129 + 7 * 5);
    assertThat(outside.get("evictions").asLong()).isEqualTo(1 + 7 * 5);
  }

  @Test
  void windowedRunMergesMissesAndIsDeterministic() {
    Run a = run("iommu", "--region", "64M", "--json", "--synthetic", "random:5000", "--seed", "3");
    Run b = run("iommu", "--region", "64M", "--json", "--synthetic", "random:5000", "--seed", "3");
    assertThat(a.code()).as(a.err()).isZero();
    assertThat(a.out()).isEqualTo(b.out());
    assertThat(a.out()).contains("\"mergedMisses\"").contains("\"stallsByCause\"");
  }

  /**
   * The report names every setting that changes the results, so that a run can be repeated from its output: the seed,
   * the source and the pipeline's settings were not written (until stop 77), and runs differing by them gave outputs
   * that did not say why. Fed back from the output alone, the run repeats.
   */
  @Test
  void theReportRecordsTheSettingsThatRepeatTheRun() throws IOException {
    Run a = run("iommu", "--synthetic", "random:3000", "--region", "64M", "--ways", "2", "--policy", "random",
        "--window", "8", "--seed", "3", "--in-flight", "4", "--fetch-buffers", "2", "--fetch-latency-ns", "400",
        "--hit-latency-ns", "6", "--issue-interval-ns", "2.5", "--prefetch", "--page-tables", "per-registration",
        "--access-bytes", "16", "--json");
    assertThat(a.code()).as(a.err()).isZero();
    JsonNode j = a.json();
    assertThat(j.get("source").asText()).isEqualTo("synthetic random:3000");
    assertThat(j.get("seed").asLong()).isEqualTo(3);
    assertThat(j.get("inFlight").asInt()).isEqualTo(4);
    assertThat(j.get("fetchBuffers").asInt()).isEqualTo(2);
    assertThat(j.get("fetchLatencyNs").asDouble()).isEqualTo(400.0);
    assertThat(j.get("hitLatencyNs").asDouble()).isEqualTo(6.0);
    assertThat(j.get("issueIntervalNs").asDouble()).isEqualTo(2.5);
    assertThat(j.get("prefetch").asBoolean()).isTrue();
    assertThat(j.get("pageTables").asText()).isEqualTo("per-registration");
    assertThat(j.get("accessBytes").asInt()).isEqualTo(16);
    Run b = run("iommu", "--synthetic", j.get("source").asText().substring("synthetic ".length()), "--region",
        j.get("regionBytes").asText(), "--page-size", j.get("pageSize").asText(), "--ways", j.get("ways").asText(),
        "--sets", j.get("sets").asText(), "--ptes-per-line", j.get("ptesPerLine").asText(), "--policy",
        j.get("policy").asText(), "--window", j.get("window").asText(), "--seed", j.get("seed").asText(),
        "--in-flight", j.get("inFlight").asText(), "--fetch-buffers", j.get("fetchBuffers").asText(),
        "--fetch-latency-ns", j.get("fetchLatencyNs").asText(), "--hit-latency-ns", j.get("hitLatencyNs").asText(),
        "--issue-interval-ns", j.get("issueIntervalNs").asText(), "--prefetch", "--page-tables",
        j.get("pageTables").asText(), "--access-bytes", j.get("accessBytes").asText(), "--json");
    assertThat(b.code()).as(b.err()).isZero();
    assertThat(b.out()).isEqualTo(a.out());
  }

  /** Stop 74: the report names the policy the configuration chose, not the text typed ("pseudo_lru", " random"). */
  @Test
  void theReportNamesThePolicyByItsCanonicalName() throws IOException {
    String[][] typed = {{"PSEUDO_LRU", "plru"}, {" Random", "random"}, {"LRU", "lru"}, {"plru", "plru"}};
    for (String[] t : typed) {
      Run r = run("iommu", "--policy", t[0], "--region", "1M", "--synthetic", "random:10", "--json");
      assertThat(r.code()).as(r.err()).isZero();
      assertThat(r.json().get("policy").asText()).as("--policy \"%s\"", t[0]).isEqualTo(t[1]);
    }
  }

  @Test
  void textReportNamesEveryCounter() {
    Run r = run("iommu", "--region", "1M", "--synthetic", "random:100");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("translations", "hits", "misses", "mergedMisses", "evictions", "stalls",
        "meanLatencyNs", "simulatorSpeed");
  }

  /**
   * Every option's refusal is located at the option, as {@code --ways 0}'s is at {@code (--ways)}: the checks made by
   * the command itself said {@code (arguments)}, which the user never typed (until stop 72), and the page size's and
   * policy's said "page size" and "policy".
   */
  @Test
  void eachOptionsRefusalNamesTheOption() {
    String[][] cases = {
        {"--region", "0", "--region must be in [1, 1T] bytes but was 0"},
        {"--region", "1x", "--region must be a byte count like"},
        {"--page-size", "3K", "--page-size must be 4K or a power of two from 2M to 64G but was 3072 bytes"},
        {"--page-size", "x", "--page-size must look like 4K"},
        {"--access-bytes", "-1", "--access-bytes must be in [0, 2147483647] but was -1"},
        {"--window", "0", "--window must be in [1, 2147483647] but was 0"},
        {"--policy", "zz", "--policy must be one of lru, plru, random"},
        {"--fetch-latency-ns", "-1", "--fetch-latency-ns must be in [0, 1e6] ns (1 ms) but was -1.0"},
        {"--hit-latency-ns", "-1", "--hit-latency-ns must be in [0, 1e6] ns (1 ms) but was -1.0"},
        {"--issue-interval-ns", "-1", "--issue-interval-ns must be in [0, 1e6] ns (1 ms) but was -1.0"},
        {"--synthetic", "zigzag:4", "--synthetic must be random:COUNT or scan:SPAN:STRIDE:COUNT but was \"zigzag:4\""},
        {"--synthetic", "random:x", "--synthetic random COUNT must be a whole number"},
        {"--synthetic", "scan:0:8:4", "--synthetic scan SPAN and STRIDE must be >= 1 but were 0 and 8"},
        {"--synthetic", "scan:1M:x:4", "--synthetic scan STRIDE must be a byte count"},
        {"--synthetic", "random:0", "--synthetic COUNT must be at least 1 but was 0"},
        {"--synthetic", "scan:4K:8:0", "--synthetic COUNT must be at least 1 but was 0"}};
    for (String[] c : cases) {
      Run r = c[0].equals("--synthetic") ? run("iommu", c[0], c[1])
          : run("iommu", "--synthetic", "random:1", c[0], c[1]);
      assertThat(r.code()).as(c[0] + " " + c[1]).isEqualTo(2);
      assertThat(r.err().lines().toList()).as(c[0] + " " + c[1]).singleElement().satisfies(line ->
          assertThat(line).startsWith("aries iommu: " + c[2]).endsWith(" (" + c[0] + ")"));
    }
    assertThat(run("iommu", "--region", "1M").err().strip()).isEqualTo("aries iommu: give exactly one of a TRACE file"
        + " and --synthetic (TRACE, --synthetic)");
  }

  @Test
  void mistakesExitWithTwoAndSayWhatIsWrong() throws IOException {
    Path bad = dir.resolve("bad.trace");
    Files.writeString(bad, "0\n12 X\n");
    Run r = run("iommu", "--region", "1M", bad.toString());
    assertThat(r.code()).isEqualTo(2);
    // the file is named (it said "trace line 2", and "(arguments)")
    // (a long path is abbreviated, the line number kept)
    assertThat(r.err().strip()).isEqualTo("aries iommu: " + Texts.abbreviate(bad.toString())
        + ", line 2: access must be R, W or A but was \"X\" (TRACE)");
    Files.writeString(bad, "0 R\n0x1g\n");
    assertThat(run("iommu", "--region", "1M", bad.toString()).err().strip()).isEqualTo("aries iommu: "
        + Texts.abbreviate(bad.toString()) + ", line 2: offset must be decimal or 0x-hex but was \"0x1g\" (TRACE)");
    assertThat(run("iommu", "--sets", "3", "--synthetic", "random:1").err())
        .contains("sets must be a power of two in [1, 1048576] but was 3");
    assertThat(run("iommu", "--synthetic", "zigzag:4").err()).contains("--synthetic must be");
    assertThat(run("iommu", "--region", "1M").err()).contains("exactly one of a TRACE file and --synthetic");
    assertThat(run("iommu", "--page-size", "3K", "--synthetic", "random:1").code()).isEqualTo(2);
    Run tables = run("iommu", "--page-tables", "shared", "--synthetic", "random:1");
    assertThat(tables.code()).isEqualTo(2);
    assertThat(tables.err()).contains("--page-tables must be per-registration or per-context but was shared")
        .doesNotContain("Exception");
    // a trace with no access (empty, or comments only) ran and reported 0 translations
    Path empty = dir.resolve("empty.trace");
    Files.writeString(empty, "");
    Path comments = dir.resolve("comments.trace");
    Files.writeString(comments, "# nothing\n\n");
    for (Path p : new Path[] {empty, comments}) {
      Run e = run("iommu", "--region", "1M", "--json", p.toString());
      assertThat(e.code()).isEqualTo(2);
      assertThat(e.out()).isEmpty();
      assertThat(e.err()).contains(p + " holds no accesses").doesNotContain("Exception");
    }
  }

  /**
   * A TRACE with no line ends (/dev/zero, a sparse file, NULs piped in) was read into one line until the heap ran out,
   * "the Java heap is too small" with exit status 1 (until stop 73): a line longer than the bound is refused in one
   * line naming the file, the line and the bound, having read no more than that.
   */
  @Test
  void aLineLongerThanATracesIsRefusedAtTheBoundNamingTheFileAndLine() throws IOException {
    Path nuls = dir.resolve("nuls.trace");
    byte[] tail = new byte[1 << 20];
    Files.write(nuls, concat("0\n# a comment\n".getBytes(java.nio.charset.StandardCharsets.UTF_8), tail));
    Run r = run("iommu", "--region", "1M", "--json", nuls.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().strip()).isEqualTo("aries iommu: " + Texts.abbreviate(nuls.toString()) + ", line 3: a line"
        + " must be at most " + IommuCommand.MAX_TRACE_LINE_CHARS + " characters (OFFSET [R|W|A], or a comment) but"
        + " this one is longer; is it a trace? (TRACE)");
    // a line of exactly the bound is read (here a comment)
    Path longest = dir.resolve("longest.trace");
    Files.writeString(longest, "#" + "x".repeat(IommuCommand.MAX_TRACE_LINE_CHARS - 1) + "\n4096 W\n");
    Run ok = run("iommu", "--region", "1M", "--json", longest.toString());
    assertThat(ok.code()).as(ok.err()).isZero();
    assertThat(ok.json().get("translations").asLong()).isEqualTo(1);
    // standard input, which was gathered whole before its first line was looked at
    java.io.InputStream stdin = System.in;
    try {
      System.setIn(new java.io.ByteArrayInputStream(tail));
      Run piped = run("iommu", "--region", "1M", "-");
      assertThat(piped.code()).isEqualTo(2);
      assertThat(piped.err().strip()).isEqualTo("aries iommu: standard input, line 1: a line must be at most "
          + IommuCommand.MAX_TRACE_LINE_CHARS + " characters (OFFSET [R|W|A], or a comment) but this one is longer;"
          + " is it a trace? (TRACE)");
    } finally {
      System.setIn(stdin);
    }
  }

  /** A byte-order mark before the first offset was read as part of it: "offset must be ... but was "\ufeff0"". */
  @Test
  void aByteOrderMarkAtTheStartOfATraceIsSkipped() throws IOException {
    Path bom = dir.resolve("bom.trace");
    Files.writeString(bom, "\uFEFF0\r\n4096 W\r\n");
    Run r = run("iommu", "--region", "1M", "--serial", "--json", bom.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.json().get("translations").asLong()).isEqualTo(2);
    // one inside the text is not a byte-order mark, and is refused as before (escaped, as the error line escapes it)
    Files.writeString(bom, "0\n\uFEFF4096\n");
    assertThat(run("iommu", "--region", "1M", bom.toString()).err()).contains(", line 2: offset must be decimal or"
        + " 0x-hex but was \"\\ufeff4096\"");
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  @Test
  void oneRegionTranslatesTheSameInItsContextsTables() throws IOException {
    // The region alone in its context lies at the context's address 0: its directory line and leaf lines fall in the
    // sets its own tables' would, so the counts agree.
    JsonNode own = run("iommu", "--region", "64M", "--json", "--synthetic", "random:2000", "--page-tables",
        "per-registration").json();
    JsonNode shared = run("iommu", "--region", "64M", "--json", "--synthetic", "random:2000", "--page-tables",
        "per-context").json();
    for (String k : new String[] {"translations", "hits", "misses", "mergedMisses", "evictions"}) {
      assertThat(shared.get(k)).as(k).isEqualTo(own.get(k));
    }
    assertThat(own.get("misses").asLong()).isPositive();
  }

  @Test
  void offsetsOutsideTheRegionAreCountedAsFaults() throws IOException {
    Path trace = dir.resolve("f.trace");
    Files.writeString(trace, "0\n0x100000\n");
    JsonNode j = run("iommu", "--region", "1M", "--json", trace.toString()).json();
    assertThat(j.get("translations").asLong()).isEqualTo(2);
    assertThat(j.get("faults").asLong()).isEqualTo(1);
  }
}
