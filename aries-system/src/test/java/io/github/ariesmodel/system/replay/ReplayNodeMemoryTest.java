package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.traces.simgrid.SimGridTrace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ranks that share a node share its memory, and the replay gives each rank a heap sized from the trace's largest
 * message: too many ranks on a node for that heap are refused in the replay's words (how many ranks on which node, the
 * heap and why, how many fit). Until stop 77 the MPI layer refused them as "MpiConfig.heapBytes must be at most ...",
 * a setting the replay had chosen and its user never gave (`./aries replay` put it at "(arguments)").
 */
class ReplayNodeMemoryTest {

  private static final long GIB = 1L << 30;

  private static SimGridTrace pair(Path dir) throws IOException {
    Path f = dir.resolve("pair.txt");
    StringBuilder t = new StringBuilder();
    for (int r = 0; r < 4; r++) {
      t.append(r).append(" init\n");
    }
    t.append("0 send 1 0 200000000\n1 recv 0 0 200000000\n");
    for (int r = 0; r < 4; r++) {
      t.append(r).append(" finalize\n");
    }
    Files.writeString(f, t);
    return SimGridTrace.open(f);
  }

  @Test
  void moreRanksOnANodeThanItsMemoryHoldsHeapsForAreRefusedNamingTheNodeAndHowManyFit(@TempDir Path dir)
      throws IOException {
    AriesSystem sys = AriesSystem.builder().system("default").nodeMemoryBytes(4 * GIB).seed(1).build();
    // 8 x 200,000,000 + 4 MiB = 1,604,194,304 bytes a rank; four of them pass the node's 4 GiB
    assertThatThrownBy(() -> TraceReplay.builder(sys, pair(dir)).ranksPerNode(4).build().run())
        .isInstanceOf(TraceReplayException.class)
        .hasMessage(dir.resolve("pair.txt") + ": 4 ranks on node 0 need more memory than the node's 4294967296 bytes (AriesSystem"
            + " nodeMemoryBytes) for this trace: the replay gives each rank a heap of 1604194304 bytes (8 times the"
            + " trace's largest message, 200000000 bytes, and 4 MiB), 6416777216 bytes for the 4; at most 2 such heaps"
            + " fit a node: put fewer ranks on a node (ranksPerNode, or the mapping)");
    // two a node fit
    AriesSystem two = AriesSystem.builder().system("default").nodeMemoryBytes(4 * GIB).seed(1).build();
    assertThat(TraceReplay.builder(two, pair(dir)).ranksPerNode(2).build().run().bytes()).isEqualTo(200_000_000);
  }
}
