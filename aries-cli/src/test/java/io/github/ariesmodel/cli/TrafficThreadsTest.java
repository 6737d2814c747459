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
    assertThat(traffic("auto")).as("the default, auto").isEqualTo(one);
  }

  @Test
  void autoUsesTheCoresOnlyOnLargeSystems() {
    SharedOptions.Threads t = new SharedOptions.Threads();
    t.threads = "auto";
    int cores = Runtime.getRuntime().availableProcessors();
    assertThat(t.checked(9)).as("9 groups").isEqualTo(1);
    assertThat(t.checked(SharedOptions.Threads.AUTO_MIN_GROUPS - 1)).isEqualTo(1);
    assertThat(t.checked(241)).as("241 groups").isEqualTo(Math.min(241, cores));
    assertThat(t.checked(SharedOptions.Threads.AUTO_MIN_GROUPS))
        .isEqualTo(Math.min(SharedOptions.Threads.AUTO_MIN_GROUPS, cores));
    t.threads = "7";
    assertThat(t.checked(241)).isEqualTo(7);
    assertThat(t.checked(9)).as("a count is taken as given; the engine caps it at one per group").isEqualTo(7);
  }

  @Test
  void aThreadCountBelowOneIsOneLineAndExit2() {
    assertThat(traffic("0"))
        .isEqualTo("rc 2: aries traffic: --threads must be auto or in [1, 4096] but was 0 (--threads)");
    assertThat(traffic("many"))
        .isEqualTo("rc 2: aries traffic: --threads must be auto or in [1, 4096] but was many (--threads)");
  }
}
