package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --threads N} and {@code replay --threads N}: the system on the partitioned engine gives the same files for
 * every N; without the option the single loop runs; a bad count or a single-loop component is one line and exit 2.
 */
class RunThreadsTest {

  @TempDir Path dir;

  /** Runs the CLI; returns "rc N: error" on failure, else results.json of the output directory. */
  private String cli(String out, String... args) throws IOException {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--out", dir.resolve(out).toString(), "--no-wall-clock", "-q"));
    int rc = AriesCli.execute(all.toArray(String[]::new), new PrintWriter(o, true), new PrintWriter(e, true));
    if (rc != 0) {
      return "rc " + rc + ": " + e.toString().strip();
    }
    return Files.readString(dir.resolve(out).resolve("results.json"));
  }

  @Test
  void gupsAcrossNineGroupsWritesTheSameResultsOnOneTwoAndThreeThreads() throws IOException {
    String[] gups = {"run", "gups", "--system", "canonical:p=2,a=4,h=2", "-p", "pes=18", "-p", "updates=64"};
    String one = cli("t1", with(gups, "--threads", "1"));
    assertThat(one).contains("gups.updateRate").contains("\"events\"").contains("\"simulationEngine\" : \"partitioned\"");
    assertThat(cli("t2", with(gups, "--threads", "2"))).isEqualTo(one);
    assertThat(cli("t3", with(gups, "--threads", "3"))).isEqualTo(one);
    assertThat(cli("t64", with(gups, "--threads", "64"))).as("one thread per group at most").isEqualTo(one);
  }

  @Test
  void theEngineIsRecordedBesideAWorkloadsOwnEngineParameterNotOverIt() throws IOException {
    // mpi-collectives' engine=on (the NICs' collective engine) was recorded as "engine" : "partitioned"
    String json = cli("ce", "run", "mpi-collectives", "--system", "canonical:p=2,a=4,h=2", "-p", "nodes=2", "-p",
        "engine=on", "-p", "warmup=1", "-p", "iterations=2", "--threads", "2");
    com.fasterxml.jackson.databind.JsonNode parameters =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).path("run").path("parameters");
    assertThat(parameters.path("engine").asText()).as(json).isEqualTo("on");
    assertThat(parameters.path("simulationEngine").asText()).as(json).isEqualTo("partitioned");
  }

  @Test
  void replayOfASimGridTraceWritesTheSameResultsOnOneAndThreeThreads() throws IOException {
    Path trace = dir.resolve("ring.txt");
    // a ring of 8 ranks in SimGrid's format (RANK ACTION ...): even ranks send then receive, odd ones the other way
    StringBuilder t = new StringBuilder();
    int ranks = 8;
    for (int r = 0; r < ranks; r++) {
      t.append(r).append(" init\n");
    }
    for (int r = 0; r < ranks; r++) {
      String send = r + " send " + (r + 1) % ranks + " 0 30000\n";
      String recv = r + " recv " + (r + ranks - 1) % ranks + " 0 30000\n";
      t.append(r % 2 == 0 ? send + recv : recv + send);
      t.append(r).append(" allreduce 4096 100\n");
    }
    for (int r = 0; r < ranks; r++) {
      t.append(r).append(" finalize\n");
    }
    Files.writeString(trace, t.toString());
    String[] replay = {"replay", trace.toString(), "--system", "canonical:p=2,a=4,h=2", "--mapping",
        "round-robin-groups"};
    String one = cli("r1", with(replay, "--threads", "1"));
    assertThat(one).contains("\"messages\"");
    assertThat(cli("r3", with(replay, "--threads", "3"))).isEqualTo(one);
  }

  @Test
  void aBadCountOrASingleLoopComponentIsOneLineAndExit2() throws IOException {
    assertThat(cli("b0", "run", "gups", "--threads", "0"))
        .isEqualTo("rc 2: aries run: --threads must be in [1, 4096] but was 0 (--threads)");
    assertThat(cli("b1", "replay", dir.toString(), "--threads", "x"))
        .startsWith("rc 2: aries replay: ");
    assertThat(cli("b2", "run", "gups", "--threads", "2", "--fabric", "ideal"))
        .startsWith("rc 2: ").contains("--fabric ideal cannot be combined with --threads 2").doesNotContain("\n");
  }

  private static String[] with(String[] base, String... more) {
    List<String> all = new ArrayList<>(List.of(base));
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }
}
