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
 * {@code simulationEngine} among a run's parameters, as a record's {@code parameters} hold it: taken with the
 * partitioned engine, else one line naming the key, the values it may have and the value. It was refused as an
 * unknown parameter of the workload, with the workload's own parameters listed ({@code unknown parameter
 * "simulationEngine"; known parameters: fetching, osNoise, ...}), until stop 78.
 */
class EngineParameterTest {

  @TempDir Path dir;

  private static final String[] GUPS = {"run", "gups", "--system", "canonical:p=2,a=4,h=2", "-p", "pes=18", "-p",
      "updates=64"};

  /** Runs the CLI; returns "rc N: error" on failure, else results.json of the output directory. */
  private String cli(String out, String[] base, String... more) throws IOException {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    List<String> all = new ArrayList<>(List.of(base));
    all.addAll(List.of(more));
    all.addAll(List.of("--out", dir.resolve(out).toString(), "--no-wall-clock", "-q"));
    int rc = AriesCli.execute(all.toArray(String[]::new), new PrintWriter(o, true), new PrintWriter(e, true));
    if (rc != 0) {
      return "rc " + rc + ": " + e.toString().strip();
    }
    return Files.readString(dir.resolve(out).resolve("results.json"));
  }

  @Test
  void anotherValueIsOneLineNamingTheKeyItsValuesAndTheValue() throws IOException {
    assertThat(cli("a", GUPS, "-p", "simulationEngine=single")).isEqualTo("rc 2: aries run: simulationEngine must be"
        + " partitioned (with --threads N, or threads: N in --config) or absent (the single event loop): it is the"
        + " engine results.json records, no workload parameter; but was \"single\" (-p simulationEngine)");
  }

  @Test
  void partitionedWithoutThreadsSaysHowToAskForTheEngine() throws IOException {
    String r = cli("b", GUPS, "-p", "simulationEngine=partitioned");
    assertThat(r).startsWith("rc 2: aries run: simulationEngine is partitioned").contains("give --threads N")
        .endsWith("(-p simulationEngine)").doesNotContain("\n").doesNotContain("known parameters");
  }

  @Test
  void aRecordsParametersCopiedWithTheirEngineRepeatTheRun() throws IOException {
    String byOption = cli("o", GUPS, "--threads", "2");
    // -p with --threads: taken, and recorded as the run without it records it
    assertThat(cli("p", GUPS, "--threads", "2", "-p", "simulationEngine=partitioned")).isEqualTo(byOption);
    // a configuration whose params are the record's parameters as they are, with its threads
    Path f = Files.writeString(dir.resolve("c.json"), "{\"system\": \"canonical:p=2,a=4,h=2\", \"threads\": 3,"
        + " \"workload\": \"gups\", \"params\": {\"pes\": \"18\", \"updates\": \"64\","
        + " \"simulationEngine\": \"partitioned\"}}");
    assertThat(cli("f", new String[] {"run", "--config", f.toString()})).isEqualTo(byOption);
    // without threads, refused at the file
    Path g = Files.writeString(dir.resolve("g.json"), "{\"workload\": \"gups\", \"params\": {\"simulationEngine\":"
        + " \"partitioned\"}}");
    assertThat(cli("g", new String[] {"run", "--config", g.toString()})).startsWith("rc 2: aries run: " + g
        + ": params.simulationEngine is partitioned").endsWith("(--config " + g + ")").doesNotContain("\n");
  }
}
