package io.github.ariesmodel.cli.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replay's work estimate ({@link ReplayWorkload#work}) counts what a collective really moves. */
class ReplayWorkEstimateTest {

  private static long[] workOf(Path dir, int ranks, String call) throws IOException {
    StringBuilder b = new StringBuilder();
    for (int r = 0; r < ranks; r++) {
      b.append(r).append(" init\n");
    }
    for (int r = 0; r < ranks; r++) {
      b.append(r).append(' ').append(call).append('\n');
    }
    for (int r = 0; r < ranks; r++) {
      b.append(r).append(" finalize\n");
    }
    Path f = dir.resolve(call.split(" ")[0] + ranks + ".txt");
    Files.writeString(f, b.toString());
    return ReplayWorkload.work(ReplayWorkload.open(f));
  }

  /**
   * A gather moves each rank's block once: 256 ranks of 6,400 doubles (SimGrid's default datatype, 8 bytes) are
   * 204,800 packets of 64 bytes. The first version charged every rank the world's blocks (52,428,800 packets) and
   * refused the 23.7-s replay (the stop 74 review).
   */
  @Test
  void aRootedCollectiveCountsEachRanksBlockOnce(@TempDir Path dir) throws IOException {
    assertThat(workOf(dir, 256, "gather 6400 6400 0 0 0")).containsExactly(256 * 800, 256 * 51_200);
    assertThat(workOf(dir, 16, "scatter 640 640 0 0 0")).containsExactly(16 * 80, 16 * 5120);
  }

  /** An alltoall's per-peer block goes to every rank: 16 ranks × 16 blocks of 640 doubles. */
  @Test
  void aBlockToEveryPeerCountsTimesTheRanks(@TempDir Path dir) throws IOException {
    assertThat(workOf(dir, 16, "alltoall 640 640 0 0")).containsExactly(16 * 16 * 80, 16 * 16 * 5120);
  }
}
