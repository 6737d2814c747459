package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** {@code traffic --threads N}: the same report for every thread count; a bad count is one line and exit 2. */
class TrafficThreadsTest {

  /** Runs {@code traffic --json} and returns its output without the wall-clock lines, or the error line. */
  private static String traffic(String threads) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = AriesCli.execute(new String[] {"traffic", "--topology", "canonical-small", "--routing", "ugal",
        "--load", "0.6", "--warmup-us", "0.3", "--measure-us", "0.6", "--json", "--threads", threads},
        new PrintWriter(out, true), new PrintWriter(err, true));
    if (rc != 0) {
      return "rc " + rc + ": " + err.toString().strip();
    }
    return out.toString().lines().filter(l -> !l.matches("(?i).*(wall|persecond).*"))
        .collect(Collectors.joining("\n"));
  }

  @Test
  void everyThreadCountPrintsTheSameResults() {
    String one = traffic("1");
    assertThat(one).contains("\"events\"").contains("\"packetHops\"");
    assertThat(traffic("2")).isEqualTo(one);
    assertThat(traffic("3")).isEqualTo(one);
    assertThat(traffic("64")).as("more threads than the 9 groups: one per group").isEqualTo(one);
  }

  @Test
  void aThreadCountBelowOneIsOneLineAndExit2() {
    assertThat(traffic("0")).isEqualTo("rc 2: aries traffic: --threads must be in [1, 4096] but was 0 (--threads)");
  }
}
