package io.github.ariesmodel.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The in-process A/B harness: the order of the runs, the ratios and the messages for bad input. */
class InProcessAbTest {

  @Test
  void roundsAlternateWhichBuildRunsFirstAndOnlyCountedRoundsGiveRatios() {
    List<String> calls = new ArrayList<>();
    InProcessAb.Build a = args -> {
      calls.add("A");
      return "{ \"eventsPerSecond\" : 3000000.0 }";
    };
    InProcessAb.Build b = args -> {
      calls.add("B");
      return "  simulated 1 us, 10 events in 1 s wall (1.50 M events/s)";
    };
    double[] ratios = InProcessAb.compare(a, b, 3, new String[] {"traffic"}, quiet());
    assertThat(ratios).containsExactly(2.0, 2.0, 2.0);
    // warm-up rounds -2 (even: A first) and -1, then rounds 0, 1, 2
    assertThat(String.join("", calls)).isEqualTo("AB" + "BA" + "AB" + "BA" + "AB");
  }

  @Test
  void aRunWithoutARateOrOneThatFailsStopsTheComparisonNamingTheBuild() {
    InProcessAb.Build good = args -> "\"eventsPerSecond\" : 1.0E6";
    InProcessAb.Build silent = args -> "nothing";
    InProcessAb.Build failing = args -> {
      throw new IllegalStateException("exit 2: aries traffic: --load must be in [0.0001, 2] but was 3.0");
    };
    assertThatThrownBy(() -> InProcessAb.compare(good, silent, 1, new String[] {"run"}, quiet()))
        .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("B printed no rate");
    assertThatThrownBy(() -> InProcessAb.compare(failing, good, 1, new String[] {"traffic"}, quiet()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("A failed: exit 2: aries traffic: --load");
  }

  @Test
  void eachBuildRunsItsOwnSideOfASplitCommandAndAnotherFieldCanBeCompared() {
    List<String> seen = new ArrayList<>();
    InProcessAb.Build a = args -> {
      seen.add("A " + String.join(" ", args));
      return "\"eventsPerSecond\" : 9.0, \"packetHopsPerSecond\" : 4.0E6";
    };
    InProcessAb.Build b = args -> {
      seen.add("B " + String.join(" ", args));
      return "\"packetHopsPerSecond\" : 1.0E6, \"eventsPerSecond\" : 3.0";
    };
    double[] ratios = InProcessAb.compare(a, b, 1, new String[] {"traffic", "--threads", "1"},
        new String[] {"traffic"}, quiet(), InProcessAb.jsonField("packetHopsPerSecond"));
    assertThat(ratios).containsExactly(4.0);
    assertThat(seen).contains("A traffic --threads 1", "B traffic").doesNotContain("B traffic --threads 1");
  }

  @Test
  void ratesAreReadFromTheJsonFieldOrTheSummaryLine() {
    assertThat(InProcessAb.eventsPerSecond("{\n  \"eventsPerSecond\" : 6120686.79,\n}")).isEqualTo(6120686.79);
    assertThat(InProcessAb.eventsPerSecond("events in 4.1 s wall (1.61 M events/s)")).isEqualTo(1.61e6);
    assertThat(InProcessAb.eventsPerSecond("no rate here")).isNaN();
  }

  @Test
  void theSummaryIsTheMedianWithTheRange() {
    assertThat(InProcessAb.summary(new double[] {1.2, 0.9, 1.0})).isEqualTo("median 1.000 (0.900-1.200)");
    assertThat(InProcessAb.summary(new double[] {1.0, 1.1, 0.8, 1.3})).isEqualTo("median 1.050 (0.800-1.300)");
  }

  @Test
  void badArgumentsGetOneLineAndExitTwo(@TempDir Path dir) throws Exception {
    Path notACli = dir.resolve("empty.jar");
    Files.write(notACli, new byte[0]);
    assertThat(errorOf(new String[] {"a.jar", "b.jar", "3"})).startsWith("InProcessAb: expected A.jar B.jar ROUNDS");
    assertThat(errorOf(new String[] {"a.jar", "b.jar", "x", "traffic"}))
        .isEqualTo("InProcessAb: ROUNDS must be in [1, 1000] but was \"x\"");
    assertThat(errorOf(new String[] {dir.resolve("none.jar").toString(), "b.jar", "3", "traffic"}))
        .startsWith("InProcessAb: no such jar: ");
    assertThat(errorOf(new String[] {notACli.toString(), notACli.toString(), "3", "traffic"}))
        .contains("holds none of io.github.ariesmodel.cli.AriesCli");
    assertThat(errorOf(new String[] {"a.jar", "b.jar", "3", "traffic", "---"}))
        .isEqualTo("InProcessAb: both sides of --- need a command");
  }

  /** @return what {@code run} printed on its error stream (one line), after checking it exited 2 */
  private static String errorOf(String[] args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = InProcessAb.run(args, quiet(), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(status).isEqualTo(2);
    String text = err.toString(StandardCharsets.UTF_8);
    assertThat(text.strip()).doesNotContain("\n");
    return text.strip();
  }

  private static PrintStream quiet() {
    return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
  }
}
