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
 * A background or a {@code --with} trace that does not fit the nodes the traces leave is refused before anything is
 * simulated, in one line naming the option, the bound and the value. Until stop 77 the background was placed only when
 * the jobs ran together, after each trace's baseline had run alone (an AMG baseline on the default system: some 10
 * s), located at "(arguments)", and said "the background needs 0 nodes" when the traces left none, or, for a
 * background trace, that "27 ranks ... need 27 nodes" without saying whose ranks they were.
 */
class ReplayBackgroundFitTest {

  private static final Path SIMGRID = ReplayCommandTest.TRACES.resolve("simgrid-examples");
  private static final String FIRST = SIMGRID.resolve("actions_alltoall.txt").toString(); // 3 ranks
  private static final String OTHER = SIMGRID.resolve("actions_allreduce.txt").toString(); // 3 ranks

  @TempDir Path tmp;

  private String refused(String... options) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> args = new ArrayList<>(List.of("replay", FIRST, "-q", "--out", tmp.resolve("out").toString()));
    args.addAll(List.of(options));
    int rc = AriesCli.execute(args.toArray(new String[0]), new PrintWriter(out, true), new PrintWriter(err, true));
    assertThat(rc).as(err.toString()).isEqualTo(2);
    assertThat(tmp.resolve("out")).doesNotExist();
    String line = err.toString().strip();
    assertThat(line).doesNotContain("\n").doesNotContain("(arguments)");
    return line;
  }

  @Test
  void moreBackgroundNodesThanTheTracesLeaveAreRefusedNamingTheOption() {
    assertThat(refused("--background", "uniform", "--background-nodes", "382")).isEqualTo("aries replay:"
        + " --background-nodes must be at most 381, the nodes the traces leave free of the system's 384 (0: all of"
        + " them), but was 382 (--background-nodes)");
  }

  @Test
  void aBackgroundOfOneRankIsRefusedNamingItsRanksPerNode() {
    assertThat(refused("--background", "uniform", "--background-nodes", "1")).isEqualTo("aries replay:"
        + " --background-ranks-per-node must be at least 2 on the background's one node (it needs 2 ranks) but was 1"
        + " (--background-ranks-per-node)");
  }

  @Test
  void aBackgroundWhenTheTracesLeaveNoNodeIsRefusedNamingTheBackground() {
    // three nodes, all the first trace's
    assertThat(refused("--background", "uniform", "--system", "canonical:p=1,a=3,h=1,g=1")).isEqualTo("aries"
        + " replay: --background needs a node but the traces' jobs hold all of the system's 3 (--background)");
  }

  @Test
  void aBackgroundTraceOrAWithTraceThatDoesNotFitIsNamed() {
    // four nodes, three the first trace's
    assertThat(refused("--background-trace", OTHER, "--system", "canonical:p=1,a=2,h=1,g=2")).isEqualTo("aries"
        + " replay: --background-trace " + OTHER + ": 3 ranks at 1 per node need 3 nodes but the system has 1 free"
        + " of its 4 (the other jobs hold the rest) (--background-trace)");
    assertThat(refused("--with", OTHER, "--system", "canonical:p=1,a=2,h=1,g=2")).isEqualTo("aries replay: --with "
        + OTHER + ": 3 ranks at 1 per node need 3 nodes but the system has 1 free of its 4 (the other jobs hold the"
        + " rest) (--with)");
  }
}
