package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.system.AriesSystem;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * MIN and MAX of doubles on the collective engine give the software algorithms' signed zero: the model's engine
 * compares -0.0 and +0.0 as equal and keeps the lowest index, Java's {@code Math.min} and {@code Math.max} order -0.0
 * below +0.0, and the index each rank posts makes the two agree.
 */
class MpiCollectiveEngineSignedZeroTest {

  private static final int RANKS = 12;

  /**
   * For each rank k, an allreduce MIN where only rank k gives -0.0 and an allreduce MAX where only rank k gives +0.0
   * (the others the other zero), so that the odd zero comes at every place of the engine's child order. Records each
   * result's bits.
   */
  private static ConcurrentHashMap<Integer, String> program(MpiJob job) {
    ConcurrentHashMap<Integer, String> out = new ConcurrentHashMap<>();
    job.run(mpi -> {
      var w = mpi.world();
      int r = mpi.rank();
      StringBuilder sb = new StringBuilder();
      for (int k = 0; k < RANKS; k++) {
        double[] min = new double[1];
        mpi.allreduce(new double[] {r == k ? -0.0 : 0.0}, min, ReduceOp.MIN, w);
        double[] max = new double[1];
        mpi.allreduce(new double[] {r == k ? 0.0 : -0.0}, max, ReduceOp.MAX, w);
        sb.append(min[0]).append(' ').append(max[0]).append(' ');
      }
      // all the same zero: that zero
      double[] allNeg = new double[1];
      mpi.allreduce(new double[] {-0.0}, allNeg, ReduceOp.MAX, w);
      double[] allPos = new double[1];
      mpi.allreduce(new double[] {0.0}, allPos, ReduceOp.MIN, w);
      sb.append(allNeg[0]).append(' ').append(allPos[0]);
      out.put(r, sb.toString());
    });
    return out;
  }

  @Test
  void theEnginesMinAndMaxOfSignedZerosAreTheSoftwareAlgorithms() {
    String expected = "-0.0 0.0 ".repeat(RANKS) + "-0.0 0.0";
    ConcurrentHashMap<Integer, String> soft =
        program(MpiTesting.job(MpiTesting.smallSystem(3), RANKS, MpiConfig.defaults()));
    AriesSystem sys = MpiTesting.smallSystem(3);
    ConcurrentHashMap<Integer, String> engine =
        program(MpiTesting.job(sys, RANKS, MpiConfig.builder().collectiveEngine(true).build()));
    for (int r = 0; r < RANKS; r++) {
      assertThat(soft.get(r)).as("software, rank %s", r).isEqualTo(expected);
      assertThat(engine.get(r)).as("engine, rank %s", r).isEqualTo(expected);
    }
    long reductions = 0;
    for (int n = 0; n < sys.nodeCount(); n++) {
      reductions += sys.node(n).nic().statistics().collectiveReductions();
    }
    assertThat(reductions).as("the 2·12 + 2 allreduces and finalize's barrier went through the engine")
        .isEqualTo(2 * RANKS + 2 + 1);
  }

  @Test
  void withFourRanksANodeTheNodesReductionKeepsTheSoftwaresSignedZero() {
    // since stop 69 a node's ranks reduce to its first rank in software (Math.min / Math.max order the zeros), and
    // that rank posts the node's zero with its index: the odd zero now comes at every place of each node's
    // reduction, and at each node's place in the engine's tree
    String expected = "-0.0 0.0 ".repeat(RANKS) + "-0.0 0.0";
    AriesSystem sys = MpiTesting.smallSystem(4);
    MpiJob job = MpiJob.builder(sys).nodes(3, 40, 77).ranksPerNode(RANKS / 3)
        .config(MpiConfig.builder().collectiveEngine(true).build()).build();
    ConcurrentHashMap<Integer, String> engine = program(job);
    for (int r = 0; r < RANKS; r++) {
      assertThat(engine.get(r)).as("engine, rank %s", r).isEqualTo(expected);
    }
    long posts = 0;
    for (int n = 0; n < sys.nodeCount(); n++) {
      posts += sys.node(n).nic().statistics().collectivePosts();
    }
    assertThat(posts).as("the 2·12 + 2 allreduces and finalize's barrier, once from each of 3 nodes")
        .isEqualTo(3 * (2 * RANKS + 2 + 1));
  }
}
