package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * MPICH's SMP-aware collectives (docs/mpi.md, "SMP-aware collectives"): which communicators get node communicators,
 * and the messages each algorithm sends, counted by path (shared memory on a node, the NIC between nodes) and derived
 * by hand from MPICH's algorithms.
 */
class MpiSmpCollectivesTest {

  private static final MpiConfig SMP = MpiConfig.defaults();
  private static final MpiConfig FLAT = MpiConfig.builder().smpCollectives(false).build();

  @Test
  void nodesAreNumberedByTheirFirstMemberAndTheirFirstMemberIsTheirRoot() {
    int[] worldRanks = {10, 11, 12, 13, 14, 15};
    int[] nodeOf = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 3, 7, 9, 3, 7};
    NodeLayout l = NodeLayout.of(worldRanks, w -> nodeOf[w]);
    assertThat(l.nodeIndexOf).containsExactly(0, 1, 0, 2, 1, 0);
    assertThat(l.localRankOf).containsExactly(0, 0, 1, 0, 1, 2);
    assertThat(l.nodeMembers).isDeepEqualTo(new int[][] {{10, 12, 15}, {11, 14}, {13}});
    assertThat(l.rootWorldRanks).containsExactly(10, 11, 13);
  }

  @Test
  void aCommunicatorWithEveryMemberOnANodeOfItsOwnIsNotNodeAware() {
    assertThat(NodeLayout.of(new int[] {0, 1, 2}, w -> 40 - w)).isNull();
    assertThat(NodeLayout.of(new int[] {0, 1, 2}, w -> w == 2 ? 0 : 1)).isNotNull();
  }

  /**
   * 16 ranks, 4 on each of 4 nodes; one barrier, then finalize's. Flat (MPICH's dissemination, 4 rounds of 16
   * messages): a rank sends to r + 1, r + 2, r + 4 and r + 8, which leave the node for 4, 8, 16 and 16 of the 16
   * ranks: 44 of the 64 messages cross nodes. SMP-aware: each node's dissemination barrier (2 rounds of 4 messages),
   * the roots' (2 rounds of 4, all crossing nodes), then a binomial bcast of one byte on each node (3 messages): 44
   * on nodes and 8 between them.
   */
  @Test
  void aBarrierSendsOnlyTheRootsBarrierBetweenNodes() {
    for (MpiConfig cfg : new MpiConfig[] {SMP, FLAT}) {
      MpiJob job = MpiJob.builder(MpiTesting.smallSystem(3)).nodes(3, 17, 40, 71).ranksPerNode(4).config(cfg).build();
      job.run(mpi -> mpi.barrier(mpi.world()));
      long onNode = job.messages(Protocol.SHARED_MEMORY);
      long between = job.messages() - onNode;
      if (cfg.smpCollectives()) {
        assertThat(onNode).isEqualTo(2 * 44);
        assertThat(between).isEqualTo(2 * 8);
        assertThat(job.messages(Protocol.SHORT)).isEqualTo(2 * 8);
      } else {
        assertThat(onNode).isEqualTo(2 * 20);
        assertThat(between).isEqualTo(2 * 44);
      }
    }
  }

  /** A job of 9 ranks, 3 on each of 3 nodes, that runs the given program and then finalize's barrier. */
  private static MpiJob nineRanks(MpiProgram program) {
    MpiJob job = MpiJob.builder(MpiTesting.smallSystem(3)).nodes(2, 30, 61).ranksPerNode(3).build();
    job.run(program);
    return job;
  }

  /** Finalize's barrier on 3 nodes of 3: each node's (2 rounds of 3), the roots' (2 rounds of 3), a bcast of 2. */
  private static final long BARRIER_ON_NODES = 18 + 6;
  private static final long BARRIER_BETWEEN = 6;

  private static long onNodes(MpiJob job) {
    return job.messages(Protocol.SHARED_MEMORY) - BARRIER_ON_NODES;
  }

  private static long betweenNodes(MpiJob job) {
    return job.messages() - job.messages(Protocol.SHARED_MEMORY) - BARRIER_BETWEEN;
  }

  @Test
  void finalizesBarrierAloneSendsWhatTheOtherTestsSubtract() {
    MpiJob job = nineRanks(mpi -> { });
    assertThat(onNodes(job)).isZero();
    assertThat(betweenNodes(job)).isZero();
  }

  /** MPICH returns at once from a bcast, reduce or allreduce of nothing: no message is sent, on either path. */
  @Test
  void collectivesOfNothingSendNothing() {
    MpiJob job = nineRanks(mpi -> {
      mpi.bcast(new byte[0], 0, 0, 4, mpi.world());
      mpi.reduce(new long[0], mpi.rank() == 4 ? new long[0] : null, ReduceOp.SUM, 4, mpi.world());
      mpi.allreduce(new double[0], new double[0], ReduceOp.MAX, mpi.world());
    });
    assertThat(onNodes(job)).isZero();
    assertThat(betweenNodes(job)).isZero();
  }

  /**
   * A short bcast from rank 5 (node 1's third member) over 3 nodes of 3: rank 5 hands the data to rank 3 (node 1's
   * first member), the roots bcast among themselves (binomial over 3: 2 messages, both between nodes), and each node
   * bcasts from its first member (binomial over 3: 2 messages each, the root receiving its own data back, as in
   * MPICH): 1 + 6 messages on nodes, 2 between.
   */
  @Test
  void aShortBcastCrossesNodesOnlyAmongTheRoots() {
    AtomicLong wrong = new AtomicLong();
    MpiJob job = nineRanks(mpi -> {
      byte[] b = new byte[100];
      if (mpi.rank() == 5) {
        Arrays.fill(b, (byte) 9);
      }
      mpi.bcast(b, 0, b.length, 5, mpi.world());
      for (byte x : b) {
        if (x != 9) {
          wrong.incrementAndGet();
        }
      }
    });
    assertThat(wrong).hasValue(0);
    assertThat(onNodes(job)).isEqualTo(7);
    assertThat(betweenNodes(job)).isEqualTo(2);
  }

  /**
   * An allreduce over 3 nodes of 3: each node reduces to its first member (binomial over 3: 2 each), the roots
   * allreduce (recursive doubling over 3: a fold, an exchange, an unfold: 4 messages), and each node bcasts the result
   * (2 each): 12 on nodes, 4 between.
   */
  @Test
  void anAllreduceCrossesNodesOnlyAmongTheRoots() {
    AtomicLong wrong = new AtomicLong();
    MpiJob job = nineRanks(mpi -> {
      long[] got = new long[1];
      mpi.allreduce(new long[] {mpi.rank()}, got, ReduceOp.SUM, mpi.world());
      if (got[0] != 36) {
        wrong.incrementAndGet();
      }
    });
    assertThat(wrong).hasValue(0);
    assertThat(onNodes(job)).isEqualTo(12);
    assertThat(betweenNodes(job)).isEqualTo(4);
  }

  /**
   * A reduce to rank 4 (node 1's second member) over 3 nodes of 3: nodes 0 and 2 reduce to their first members
   * (binomial over 3: 2 messages each), the roots reduce to node 1's first member (2 messages between nodes), and
   * node 1 reduces to rank 4 (2): 6 on nodes, 2 between; the sum of every rank's value reaches rank 4.
   */
  @Test
  void aReduceToARootThatIsNotItsNodesFirstMemberReachesIt() {
    long[] result = new long[1];
    MpiJob job = nineRanks(mpi -> {
      long[] out = mpi.rank() == 4 ? new long[1] : null;
      mpi.reduce(new long[] {1L << mpi.rank()}, out, ReduceOp.SUM, 4, mpi.world());
      if (mpi.rank() == 4) {
        result[0] = out[0];
      }
    });
    assertThat(result[0]).isEqualTo((1L << 9) - 1);
    assertThat(onNodes(job)).isEqualTo(6);
    assertThat(betweenNodes(job)).isEqualTo(2);
  }
}
