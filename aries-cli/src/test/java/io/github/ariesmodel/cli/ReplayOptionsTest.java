package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code aries replay}'s whole-number options refuse a value that is no integer, or none an {@code int} holds, in one
 * line naming the option, its own range and the value (they named the Java type's range, -2147483648 to 2147483647,
 * which no option of the replay takes; until stop 77).
 */
class ReplayOptionsTest {

  @TempDir Path tmp;

  private String refused(String... options) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> args = new ArrayList<>(List.of("replay",
        ReplayCommandTest.TRACES.resolve("simgrid-examples/actions_alltoall.txt").toString(), "-q", "--out",
        tmp.resolve("out").toString()));
    args.addAll(List.of(options));
    int rc = AriesCli.execute(args.toArray(new String[0]), new PrintWriter(out, true), new PrintWriter(err, true));
    assertThat(rc).as(err.toString()).isEqualTo(2);
    assertThat(tmp.resolve("out")).doesNotExist();
    String line = err.toString().strip();
    assertThat(line).doesNotContain("\n").doesNotContain("2147483648").doesNotContain("9223372036854775807");
    return line;
  }

  @Test
  void aBackgroundSizeNoIntHoldsOrNotANumberIsRefusedNamingTheOptionsRange() {
    assertThat(refused("--background", "uniform", "--background-bytes", "99999999999")).isEqualTo("aries replay:"
        + " --background-bytes must be in [1, 67108864] but was 99999999999 (--background-bytes)");
    assertThat(refused("--background", "uniform", "--background-bytes", "abc")).isEqualTo("aries replay:"
        + " --background-bytes must be an integer in [1, 67108864] but was 'abc' (--background-bytes)");
    // in the int's range, the workload's words, as before
    assertThat(refused("--background", "uniform", "--background-bytes", "0")).isEqualTo("aries replay:"
        + " --background-bytes must be in [1, 67108864] but was 0 (--background-bytes)");
  }

  @Test
  void theOtherWholeNumberOptionsNameTheirOwnRangeToo() {
    assertThat(refused("--ranks-per-node", "99999999999")).isEqualTo("aries replay: --ranks-per-node must be in"
        + " [1, 68] but was 99999999999 (--ranks-per-node)");
    assertThat(refused("--ranks-per-node", "two")).isEqualTo("aries replay: --ranks-per-node must be an integer in"
        + " [1, 68] but was 'two' (--ranks-per-node)");
    assertThat(refused("--background", "uniform", "--background-ranks-per-node", "1e3")).isEqualTo("aries replay:"
        + " --background-ranks-per-node must be an integer in [1, 68] but was '1e3' (--background-ranks-per-node)");
    assertThat(refused("--background", "uniform", "--background-nodes", "-99999999999")).isEqualTo("aries replay:"
        + " --background-nodes must be in [0, 2147483647] but was -99999999999 (--background-nodes)");
    assertThat(refused("--background", "uniform", "--background-steps", "99999999999999999999")).isEqualTo(
        "aries replay: --background-steps must be in [0, 2147483647] but was 99999999999999999999"
            + " (--background-steps)");
    assertThat(refused("--background", "uniform", "--background-steps", "x")).isEqualTo("aries replay:"
        + " --background-steps must be an integer in [0, 2147483647] but was 'x' (--background-steps)");
  }

  /**
   * A built-in mapping's name is taken in any case and with spaces around it ({@code Placement.parse}); the text
   * output's first line said "ranks placed by the mapping file" for {@code --mapping LINEAR}, which has no file and
   * put the --ranks-per-node given on each node (until stop 77).
   */
  @Test
  void aBuiltInMappingInCapitalsIsSaidToPutItsRanksPerNode() {
    for (String mapping : new String[] {"LINEAR", " Round-Robin-Groups ", "random"}) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int rc = AriesCli.execute(new String[] {"replay",
          ReplayCommandTest.TRACES.resolve("simgrid-examples/actions_alltoall.txt").toString(), "--mapping", mapping,
          "--ranks-per-node", "2", "-q", "--no-wall-clock", "--force", "--out", tmp.resolve("m").toString()},
          new PrintWriter(out, true), new PrintWriter(err, true));
      assertThat(rc).as(err.toString()).isZero();
      assertThat(out.toString().lines().findFirst().orElseThrow()).as(mapping).contains(", 2 ranks per node, seed 1)")
          .doesNotContain("mapping file");
    }
  }
}
