package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code aries replay} with several jobs ({@code --with}, starts, noise): what the report says of the first trace is
 * the first trace's own (its links, its slowdown), and an error names the file that had it.
 */
class ReplayJobsCommandTest {

  private static final Path SIMGRID = ReplayCommandTest.TRACES.resolve("simgrid-examples");

  @TempDir Path tmp;

  private static int run(StringWriter out, StringWriter err, String... args) {
    return AriesCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  /** Runs a replay that must succeed and returns its results.json. */
  private JsonNode replay(String name, String... args) throws Exception {
    Path dir = tmp.resolve(name);
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--json", "-q", "--no-wall-clock", "--out", dir.toString()));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(run(out, err, all.toArray(new String[0]))).as(err.toString()).isZero();
    return new ObjectMapper().readTree(dir.resolve("results.json").toFile());
  }

  private static JsonNode table(JsonNode results, String name) {
    for (JsonNode t : results.get("tables")) {
      if (t.get("name").asText().equals(name)) {
        return t;
      }
    }
    throw new AssertionError("no table " + name);
  }

  /** The {@code links} table as rank → bytes. */
  private static java.util.Map<String, Long> linkBytes(JsonNode results) {
    java.util.Map<String, Long> m = new java.util.TreeMap<>();
    for (JsonNode row : table(results, "links").get("rows")) {
      m.put(row.get(0).asText(), row.get(1).asLong());
    }
    return m;
  }

  /** A mapping file of the first trace's nodes, from its {@code ranks} table. */
  private Path nodesOf(JsonNode results) throws Exception {
    StringBuilder s = new StringBuilder();
    for (JsonNode row : table(results, "ranks").get("rows")) {
      s.append(row.get(1).asLong()).append('\n');
    }
    Path f = tmp.resolve("nodes-" + System.nanoTime() + ".txt");
    Files.writeString(f, s);
    return f;
  }

  @Test
  void theFirstTracesLinkFiguresAreItsOwnBesideAnotherTraceAndABackground() throws Exception {
    // minimal routing in one group: the trace's packets cross the same link ranks beside the others as alone
    String first = SIMGRID.resolve("actions_with_isend.txt").toString();
    JsonNode together = replay("together", "replay", first, "--with", SIMGRID.resolve("actions_allreduce.txt")
        .toString(), "--background", "uniform", "--background-nodes", "6", "--background-mapping", "random",
        "--mapping", "random", "--routing", "minimal", "--no-baseline");
    JsonNode alone = replay("alone", "replay", first, "--mapping", nodesOf(together).toString(), "--routing",
        "minimal");
    assertThat(linkBytes(alone).values()).anyMatch(v -> v > 0);
    assertThat(linkBytes(together)).isEqualTo(linkBytes(alone));
  }

  @Test
  void underNoiseTheBaselineStartsWhenTheTraceDoesSoANeighbourThatNeverMeetsItCostsNothing() throws Exception {
    // the first trace starts at 30 us, between aligned 25-us detours every 100 us; its neighbour starts 5 ms later,
    // long after it has ended, on nodes of its own: nothing of the shared run differs from the trace alone but the
    // neighbour's presence, so the slowdown is exactly 1 (the baseline ran from 0, met the detour at 0 and was 25 us
    // longer: 0.69)
    JsonNode r = replay("noise", "replay", SIMGRID.resolve("actions_allreduce.txt").toString(), "--with",
        SIMGRID.resolve("actions_alltoall.txt").toString(), "--start-us", "30", "--with-start-us", "5000",
        "--os-noise", "period=100us,detour=25us,phase=aligned");
    JsonNode first = table(r, "jobs").get("rows").get(0);
    assertThat(first.get(4).asDouble()).isEqualTo(30.0); // (its start)
    assertThat(first.get(6).asDouble()).as("alone").isEqualTo(first.get(5).asDouble());
    assertThat(first.get(7).asDouble()).as("slowdown").isEqualTo(1.0);
    assertThat(r.get("metrics").get("slowdown").get("value").asDouble()).isEqualTo(1.0);
  }

  @Test
  void withoutNoiseALaterStartLeavesTheBaselineAsItWas() throws Exception {
    // the baseline's later start moves nothing on a quiet node: the same time alone from 0 and from 70 us
    String a = SIMGRID.resolve("actions_allreduce.txt").toString();
    String b = SIMGRID.resolve("actions_alltoall.txt").toString();
    JsonNode at0 = replay("at0", "replay", a, "--with", b, "--with-start-us", "5000");
    JsonNode at70 = replay("at70", "replay", a, "--with", b, "--start-us", "70", "--with-start-us", "5000");
    assertThat(table(at70, "jobs").get("rows").get(0).get(6).asDouble())
        .isEqualTo(table(at0, "jobs").get("rows").get(0).get(6).asDouble());
  }

  @Test
  void noiseThatStretchesWorkPastTheClocksEndIsOneLineNamingTheDetour() {
    // it read "... the MPI layer refused ALLREDUCE on communicator 0: long overflow"
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = run(out, err, "replay", SIMGRID.resolve("actions_allreduce.txt").toString(), "--os-noise",
        "period=1000ms,detour=999999999999ps", "-q", "--out", tmp.resolve("overflow").toString());
    assertThat(rc).as(err.toString()).isEqualTo(2);
    assertThat(err.toString().strip()).doesNotContain("\n").doesNotContain("overflow")
        .contains("noise detour must be in [0, 999999999998] ps for work of ")
        .contains("with a period of 1000000000000 ps, but was 999999999999 ps");
    assertThat(tmp.resolve("overflow")).doesNotExist();
  }

  @Test
  void anErrorInAWithTraceNamesThatFileInItsLocation() throws Exception {
    // the location named the first trace: "... (TRACE first.txt)" after an error of the --with file
    Path good = SIMGRID.resolve("actions_allreduce.txt");
    Path bad = tmp.resolve("bad.txt");
    Files.writeString(bad, "0 init\n1 init\n0 frob 1\n");
    Path deadlock = tmp.resolve("deadlock.txt");
    Files.writeString(deadlock, "0 init\n1 init\n0 recv 1 0 8\n1 recv 0 0 8\n0 finalize\n1 finalize\n");
    String[][] cases = {
        {good.toString(), "--with", bad.toString(), "(--with " + bad + ")"},
        {good.toString(), "--with", deadlock.toString(), "(--with " + deadlock + ")"},
        {good.toString(), "--background-trace", bad.toString(), "(--background-trace " + bad + ")"},
        {bad.toString(), "--with", good.toString(), "(TRACE " + bad + ")"}};
    for (String[] c : cases) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int rc = run(out, err, "replay", c[0], c[1], c[2], "-q", "--out", tmp.resolve("err").toString());
      assertThat(rc).as(err.toString()).isEqualTo(2);
      String line = err.toString().strip();
      assertThat(line).doesNotContain("\n").endsWith(c[3]);
    }
  }

  /**
   * A trace that takes no time alone (init and finalize only) has no slowdown beside another: its cell is null and
   * the metric absent, where 0/0 was written as 0.0 (until stop 75).
   */
  @Test
  void aTraceThatTakesNoTimeAloneHasNoSlowdown() throws Exception {
    Path t = tmp.resolve("empty.txt");
    java.nio.file.Files.writeString(t, "0 init\n1 init\n0 finalize\n1 finalize\n");
    JsonNode r = replay("empty", "replay", t.toString(), "--with", t.toString(), "--system", "canonical-small");
    JsonNode jobs = table(r, "jobs");
    int col = 0;
    for (JsonNode c : jobs.get("columns")) {
      if (c.get("name").asText().equals("slowdown")) {
        break;
      }
      col++;
    }
    assertThat(jobs.get("columns").get(col).get("name").asText()).isEqualTo("slowdown");
    for (JsonNode row : jobs.get("rows")) {
      assertThat(row.get(col).isNull()).as(row.toString()).isTrue();
    }
    assertThat(r.get("metrics").has("slowdown")).isFalse();
    assertThat(r.get("metrics").has("aloneTimeUs")).isTrue();
  }
}
