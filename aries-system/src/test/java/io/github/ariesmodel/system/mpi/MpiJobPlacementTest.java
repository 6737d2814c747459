package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.system.AriesSystem;
import org.junit.jupiter.api.Test;

/** Explicit placement of ranks on nodes, and when requests complete. */
class MpiJobPlacementTest {

  @Test
  void ranksRunWhereThePlacementPutsThemAndReceivesKnowWhenTheyCompleted() {
    AriesSystem system = AriesSystem.builder().system("default").seed(1).build();
    MpiJob job = MpiJob.builder(system).placement(7, 3, 7).build();
    assertThat(job.size()).isEqualTo(3);
    assertThat(new int[] {job.nodeOf(0), job.nodeOf(1), job.nodeOf(2)}).containsExactly(7, 3, 7);
    int[] nodes = new int[3];
    long[] times = new long[3]; // rank 1: posted, completed, waited
    job.run(mpi -> {
      nodes[mpi.rank()] = mpi.node();
      byte[] b = new byte[64];
      if (mpi.rank() == 0) {
        mpi.send(b, 0, 64, 1, 5, mpi.world());
      } else if (mpi.rank() == 1) {
        times[0] = mpi.now();
        Request r = mpi.irecv(b, 0, 64, 0, 5, mpi.world());
        assertThat(r.completedAtPs()).isEqualTo(-1);
        mpi.compute(50_000_000); // 50 µs without progress: the message arrives meanwhile but is not yet copied out
        mpi.wait(r);
        times[1] = r.completedAtPs();
        times[2] = mpi.now();
      }
    });
    assertThat(nodes).containsExactly(7, 3, 7);
    // no progress while computing: the receive completes inside the wait, after the 50 µs
    assertThat(times[1]).isGreaterThanOrEqualTo(times[0] + 50_000_000).isLessThanOrEqualTo(times[2]);
    assertThat(job.messages()).isPositive();
  }

  @Test
  void aPlacementMustFitTheSystem() {
    AriesSystem system = AriesSystem.builder().system("default").seed(1).build();
    assertThatThrownBy(() -> MpiJob.builder(system).placement(0, system.nodeCount()))
        .hasMessageContaining("placement[1] must be a node in [0, " + (system.nodeCount() - 1) + "]");
    int[] crowded = new int[273];
    assertThatThrownBy(() -> MpiJob.builder(system).placement(crowded))
        .hasMessageContaining("more than 272 ranks on node 0");
  }
}
