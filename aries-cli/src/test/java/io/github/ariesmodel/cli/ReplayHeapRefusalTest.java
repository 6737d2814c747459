package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay refused because the ranks a node holds need more memory for their heaps than it has names the trace it is
 * about, at the trace's argument, and the options that place fewer ranks on a node: it was located at "(arguments)"
 * and named the library's ranksPerNode (until stop 78). Nothing is simulated: the refusal comes before the job is
 * built.
 */
class ReplayHeapRefusalTest {

  @TempDir Path tmp;

  /** 16 ranks, two of which exchange 1 GB: a heap of 8 GB a rank, 8 of which fit a node's 64 GiB. */
  private Path bigTrace() throws IOException {
    StringBuilder t = new StringBuilder();
    for (int r = 0; r < 16; r++) {
      t.append(r).append(" init\n");
    }
    t.append("0 send 1 0 1000000000\n1 recv 0 0 1000000000\n");
    for (int r = 0; r < 16; r++) {
      t.append(r).append(" finalize\n");
    }
    Path f = tmp.resolve("big16.txt");
    Files.writeString(f, t);
    return f;
  }

  private static String[] run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = AriesCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new String[] {Integer.toString(rc), err.toString().strip()};
  }

  private static String refusal(Path trace, int node, String remedy) {
    return trace + ": 16 ranks on node " + node + " need more memory than the node's 68719476736 bytes (AriesSystem"
        + " nodeMemoryBytes) for this trace: the replay gives each rank a heap of 8004194304 bytes (8 times the"
        + " trace's largest message, 1000000000 bytes, and 4 MiB), 128067108864 bytes for the 16; at most 8 such heaps"
        + " fit a node: put fewer ranks on a node (" + remedy + ")";
  }

  @Test
  void theTracesRanksPerNodeRefusalNamesTheTraceAndTheOption() throws IOException {
    Path big = bigTrace();
    String[] r = run("replay", big.toString(), "--ranks-per-node", "16", "--allow-long", "-q", "--out",
        tmp.resolve("out").toString());
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[1]).isEqualTo("aries replay: " + refusal(big, 0, "--ranks-per-node, or --mapping") + " (TRACE " + big
        + ")");
  }

  @Test
  void aBackgroundTracesRefusalNamesItsOwnOptions() throws IOException {
    Path big = bigTrace();
    String small = ReplayCommandTest.TRACES.resolve("simgrid-examples/actions_alltoall.txt").toString();
    String[] r = run("replay", small, "--background-trace", big.toString(), "--background-ranks-per-node", "16",
        "--no-baseline", "--allow-long", "-q", "--out", tmp.resolve("out").toString());
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[1]).isEqualTo("aries replay: " + refusal(big, 3, // (the trace's 3 ranks hold nodes 0-2)
        "--background-ranks-per-node, or --background-mapping") + " (--background-trace " + big + ")");
  }
}
