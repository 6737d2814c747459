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
}
