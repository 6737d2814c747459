package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pingpong, bandwidth and alltoall refuse work estimated beyond replay's bound of 10^7 packets unless
 * {@code -p allowLong=on}: {@code run pingpong -p sizes=1G -p iterations=2} ran for about two hours (stop 75's hunt).
 * Only refusals run here (each is made before anything is simulated); the defaults stay within the bound.
 */
class WorkBoundTest {

  @TempDir Path tmp;

  private int aries(StringWriter err, String... args) {
    return AriesCli.execute(args, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
  }

  @Test
  void absurdWorkIsRefusedWithItsEstimate() {
    String[][] cases = {
      // 1 GiB is 16,777,216 packets; 3 round trips (a warm-up and 2) of 2 messages, at each distance
      {"pingpong", "-p", "sizes=1G", "-p", "iterations=2", "-p", "distances=same-router"},
      // 4 messages of 1 GiB, put and get
      {"bandwidth", "-p", "sizes=1G", "-p", "bytes=1G"},
      // 64 PEs x 63 others x 64 MiB
      {"alltoall", "-p", "pes=64", "-p", "bytes=64M"}};
    String[] expected = {"estimated work 100,663,296 packets", "estimated work 134,217,728 packets",
        "estimated work 4,227,858,432 packets"};
    for (int i = 0; i < cases.length; i++) {
      String[] args = new String[cases[i].length + 3];
      args[0] = "run";
      System.arraycopy(cases[i], 0, args, 1, cases[i].length);
      args[args.length - 2] = "--out";
      args[args.length - 1] = tmp.resolve("o" + i).toString();
      StringWriter err = new StringWriter();
      assertThat(aries(err, args)).as(err.toString()).isEqualTo(2);
      assertThat(err.toString().lines().count()).isEqualTo(1);
      assertThat(err.toString()).startsWith("aries run: " + expected[i])
          .contains("exceeds the bound of 10,000,000").contains("or -p allowLong=on (workload " + cases[i][0] + ")");
      assertThat(tmp.resolve("o" + i)).doesNotExist();
    }
  }

  @Test
  void allowLongIsAParameterOfThoseWorkloadsAndTheDefaultsRun() {
    StringWriter err = new StringWriter();
    assertThat(aries(err, "run", "alltoall", "-p", "pes=4", "-p", "bytes=64", "-p", "allowLong=on", "-q",
        "--no-wall-clock", "--out", tmp.resolve("a").toString())).as(err.toString()).isZero();
    assertThat(aries(err, "run", "pingpong", "-p", "sizes=8", "-p", "iterations=1", "-p", "allowLong=maybe", "--out",
        tmp.resolve("b").toString())).isEqualTo(2);
    assertThat(err.toString()).contains("allowLong");
  }
}
