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
  void theSummaryIsTheMedianWithTheRangeAndFromSixRoundsTheMediansInterval() {
    assertThat(InProcessAb.summary(new double[] {1.2, 0.9, 1.0}))
        .isEqualTo("median 1.000 (0.900-1.200; 6 rounds or more give the median's 95 % interval)");
    assertThat(InProcessAb.summary(new double[] {1.0, 1.1, 0.8, 1.3, 0.95, 1.05}))
        .isEqualTo("median 1.025 (0.800-1.300; the median's 95 % interval 0.800-1.300)");
    // 16 rounds: the 4th smallest to the 4th largest (97.9 %; the 5th would give 92.3 %)
    double[] sixteen = new double[16];
    for (int i = 0; i < 16; i++) {
      sixteen[i] = 0.90 + 0.01 * ((i * 7) % 16); // 0.90 .. 1.05 in a shuffled order
    }
    assertThat(InProcessAb.summary(sixteen))
        .isEqualTo("median 0.975 (0.900-1.050; the median's 95 % interval 0.930-1.020)");
  }

  @Test
  void theMediansIntervalRankIsTheSignTestsAgainstExactBinomialSums() {
    // k such that 2 P(Bin(n, 1/2) <= k - 1) <= 0.05 < 2 P(Bin(n, 1/2) <= k), from exact sums of C(n, j) / 2^n
    for (int n = 1; n <= 60; n++) {
      int expected = 0;
      java.math.BigInteger c = java.math.BigInteger.ONE;
      java.math.BigInteger sum = java.math.BigInteger.ZERO;
      java.math.BigInteger total = java.math.BigInteger.TWO.pow(n);
      for (int j = 0; j < n; j++) {
        if (j > 0) {
          c = c.multiply(java.math.BigInteger.valueOf(n - j + 1)).divide(java.math.BigInteger.valueOf(j));
        }
        sum = sum.add(c);
        // 2 sum / total <= 0.05  <=>  40 sum <= total
        if (sum.multiply(java.math.BigInteger.valueOf(40)).compareTo(total) > 0) {
          break;
        }
        expected = j + 1;
      }
      assertThat(InProcessAb.medianIntervalRank(n)).as("n = %d", n).isEqualTo(expected);
    }
    assertThat(InProcessAb.medianIntervalRank(5)).isZero();
    assertThat(InProcessAb.medianIntervalRank(6)).isEqualTo(1);
    assertThat(InProcessAb.medianIntervalRank(16)).isEqualTo(4);
    assertThat(InProcessAb.medianIntervalRank(2000)).isBetween(950, 960);
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
