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
 * A configuration file's {@code threads}: the partitioned engine, as {@code run --threads N}, so that a record with
 * {@code "simulationEngine" : "partitioned"} is repeated from a file alone. Until stop 78 the file had no such key
 * ({@code unknown key "threads"}) and such a run was repeated only with {@code --threads} on the command line.
 */
class ConfigThreadsTest {

  @TempDir Path dir;

  private static final String GUPS = "{\"system\": \"canonical:p=2,a=4,h=2\", \"seed\": 3, \"workload\": \"gups\","
      + " \"params\": {\"pes\": \"18\", \"updates\": \"64\"}";

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

  private Path config(String name, String json) throws IOException {
    return Files.writeString(dir.resolve(name), json);
  }

  @Test
  void aFilesThreadsRunsThePartitionedEngineAsTheOptionDoes() throws IOException {
    String byOption = cli("o", "run", "gups", "--system", "canonical:p=2,a=4,h=2", "--seed", "3", "-p", "pes=18",
        "-p", "updates=64", "--threads", "2");
    assertThat(byOption).contains("\"simulationEngine\" : \"partitioned\"");
    String byFile = cli("f", "run", "--config", config("t.json", GUPS + ", \"threads\": 2}").toString());
    assertThat(byFile).isEqualTo(byOption);
    // without it, the single loop, whose results differ (docs/performance.md)
    String single = cli("s", "run", "--config", config("s.json", GUPS + "}").toString());
    assertThat(single).doesNotContain("simulationEngine");
  }

  @Test
  void aFilesThreadsIsRefusedOutsideTheOptionsRangeInOneLine() throws IOException {
    for (String[] c : new String[][] {{"0", "threads must be in [1, 4096] but was 0"},
        {"4097", "threads must be in [1, 4096] but was 4097"},
        {"\"2\"", "threads must be an integer in [1, 4096] but was \"2\""},
        {"1.5", "threads must be an integer in [1, 4096] but was 1.5"}}) {
      Path f = config("bad.json", GUPS + ", \"threads\": " + c[0] + "}");
      String r = cli("b", "run", "--config", f.toString());
      assertThat(r).as(c[0]).startsWith("rc 2: aries run: ").contains(f + ": " + c[1]).doesNotContain("\n");
    }
  }

  @Test
  void aFilesThreadsWithTheIdealFabricIsToldAsTheFilesSetting() throws IOException {
    Path f = config("ideal.json", "{\"fabric\": \"ideal\", \"threads\": 2, \"workload\": \"pingpong\"}");
    String r = cli("i", "run", "--config", f.toString());
    assertThat(r).startsWith("rc 2: ").contains("cannot be combined with threads 2 in --config " + f)
        .doesNotContain("\n");
  }
}
