package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.ariesmodel.nic.NicStatistics;
import io.github.ariesmodel.system.AriesSystem;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The collective engine with several ranks a node: a node-local phase over shared memory to and from the node's first
 * rank, which alone posts to the node's CE channel (docs/mpi.md, "Collective engine"; S1 p.24: a node contributes
 * "generally the result of a local shared memory reduction"). So 64 ranks a node, Theta's count, use the engine, and a
 * tree of radix 31 fits a channel's 32 children whatever the ranks a node; one rank a node is as before.
 */
class MpiCollectiveEngineNodePhaseTest {

  private static final MpiConfig ENGINE = MpiConfig.builder().collectiveEngine(true).build();

  /** Nodes of the small system (96 nodes), spread over its three groups. */
  private static int[] nodes(AriesSystem sys, int count) {
    int[] ids = new int[count];
    for (int i = 0; i < count; i++) {
      ids[i] = (i * 37 + 3) % sys.nodeCount();
    }
    return ids;
  }

  private static MpiJob job(AriesSystem sys, int nodes, int ranksPerNode, MpiConfig config) {
    return MpiJob.builder(sys).nodes(nodes(sys, nodes)).ranksPerNode(ranksPerNode).config(config).build();
  }

  /**
   * Every kind of engine call once and a software one, each rank's results as a string. The doubles' sums are exact
   * (halves and even numbers far below 2^53), so every order of addition gives the same bits.
   */
  private static ConcurrentHashMap<Integer, String> program(MpiJob job) {
    ConcurrentHashMap<Integer, String> out = new ConcurrentHashMap<>();
    job.run(mpi -> {
      var w = mpi.world();
      int r = mpi.rank();
      mpi.barrier(w);
      long[] s = new long[2];
      mpi.allreduce(new long[] {r * 3L - 7, 1L << (r % 63)}, s, ReduceOp.SUM, w);
      long[] min = new long[1];
      mpi.allreduce(new long[] {(r * 5L) % 7 - 3}, min, ReduceOp.MIN, w);
      long[] max = new long[1];
      mpi.allreduce(new long[] {(r * 11L) % 13}, max, ReduceOp.MAX, w);
      long[] x = new long[2];
      mpi.allreduce(new long[] {r * 0x1111L, ~r}, x, ReduceOp.BXOR, w);
      long[] o = new long[1];
      mpi.allreduce(new long[] {1L << (r % 64)}, o, ReduceOp.BOR, w);
      double[] d = new double[2];
      mpi.allreduce(new double[] {r + 0.5, -r * 2.0}, d, ReduceOp.SUM, w);
      double[] dmin = new double[1];
      mpi.allreduce(new double[] {Math.cos(r)}, dmin, ReduceOp.MIN, w);
      long[] prod = new long[1];
      mpi.allreduce(new long[] {r % 3 + 1L}, prod, ReduceOp.PROD, w); // the engine has no product: software
      mpi.barrier(w);
      out.put(r, Arrays.toString(s) + Arrays.toString(min) + Arrays.toString(max) + Arrays.toString(x)
          + Arrays.toString(o) + Arrays.toString(d) + Arrays.toString(dmin) + Arrays.toString(prod));
    });
    return out;
  }

  /** The engine calls of {@link #program}: two barriers, seven allreduces and finalize's barrier. */
  private static final int ENGINE_CALLS = 10;

  /** Each NIC's collective-engine posts, by node id, and checks no fault and no drop. */
  private static long[] postsByNode(AriesSystem sys) {
    long[] posts = new long[sys.nodeCount()];
    for (int n = 0; n < sys.nodeCount(); n++) {
      NicStatistics st = sys.node(n).nic().statistics();
      posts[n] = st.collectivePosts();
      assertThat(st.collectiveFaults()).isZero();
      assertThat(st.collectivePacketsDropped()).isZero();
    }
    return posts;
  }

  private static long reductions(AriesSystem sys) {
    long sum = 0;
    for (int n = 0; n < sys.nodeCount(); n++) {
      sum += sys.node(n).nic().statistics().collectiveReductions();
    }
    return sum;
  }

  @Test
  void sixtyFourRanksANodeUseTheEngineAndGetTheSoftwaresValues() {
    // before the node phase each rank was a child of its node's channel: 64 + radix > 32 was refused
    ConcurrentHashMap<Integer, String> want = program(job(MpiTesting.smallSystem(5), 3, 64, MpiConfig.defaults()));
    AriesSystem sys = MpiTesting.smallSystem(5);
    assertThat(program(job(sys, 3, 64, ENGINE))).isEqualTo(want);
    assertThat(reductions(sys)).as("every engine call completed at the tree's root").isEqualTo(ENGINE_CALLS);
    long[] posts = postsByNode(sys);
    for (int node : nodes(sys, 3)) {
      assertThat(posts[node]).as("node %s's posts", node).isEqualTo(ENGINE_CALLS);
    }
  }

  @Test
  void aNodeOfSeveralRanksPostsOneEngineOperationACall() {
    AriesSystem sys = MpiTesting.smallSystem(6);
    MpiJob job = job(sys, 4, 8, ENGINE);
    job.run(mpi -> {
      long[] out = new long[1];
      mpi.allreduce(new long[] {mpi.rank()}, out, ReduceOp.SUM, mpi.world());
      if (out[0] != 31 * 32 / 2) {
        throw new AssertionError("rank " + mpi.rank() + " got " + out[0]);
      }
    });
    long[] posts = postsByNode(sys);
    // the allreduce and finalize's barrier, each posted once a node by its first rank (8 a node before: every rank)
    long total = 0;
    for (int node : nodes(sys, 4)) {
      assertThat(posts[node]).as("node %s's posts", node).isEqualTo(2);
      total += posts[node];
    }
    assertThat(Arrays.stream(posts).sum()).as("no other node posted").isEqualTo(total);
    assertThat(reductions(sys)).isEqualTo(2);
  }

  @Test
  void radix31FitsAChannelWithTwoRanksANode() {
    // 32 nodes in a radix-31 tree: the root's channel has 31 child channels and one PE, 32 children; with each rank
    // a child, as before, it had 33 and was refused
    MpiConfig wide = ENGINE.toBuilder().collectiveEngineRadix(31).build();
    ConcurrentHashMap<Integer, String> want = program(job(MpiTesting.smallSystem(7), 32, 2, MpiConfig.defaults()));
    AriesSystem sys = MpiTesting.smallSystem(7);
    assertThat(program(job(sys, 32, 2, wide))).isEqualTo(want);
    assertThat(reductions(sys)).isEqualTo(ENGINE_CALLS);
    assertThat(Arrays.stream(postsByNode(sys)).sum()).isEqualTo(32L * ENGINE_CALLS);
  }

  @Test
  void oneRankANodeTakesTheTimeItTookBeforeTheNodePhase() {
    // a node with one rank has no node phase: its rank posts for itself, as before. The model has no switch that
    // bypasses the node phase, so the times are pinned to what this test's program and benchmark gave on the build
    // before it (ff853955, the parent of b0543676, which added the node phase): they change only with the engine's
    // or the network's model, never with the node phase. The program's time is whole picoseconds of simulated time,
    // exact; the benchmark's means are quotients of them, compared to 1e-9 us (a thousandth of a picosecond). Stop 70's
    // post cost and overheads kept the one-way sum (40 + 2 x 215 = 133.334 + 2 x 168.333 ns) and left these; stop 71's
    // re-derived overheads (150.323 ns a side, MpiOverheadCalibrationTest) moved them from 47,467,676 ps, 4.19944 and
    // 4.1790058 us: the pins are now that build's
    AriesSystem sys = MpiTesting.smallSystem(8);
    MpiJob job = job(sys, 12, 1, ENGINE);
    program(job);
    var row = OsuBenchmarks.collectives(MpiTesting.smallSystem(8), nodes(sys, 8), 2, 5, ENGINE);
    assertThat(job.lastRunPs()).isEqualTo(46_982_016L);
    assertThat(row.barrierUs()).isCloseTo(4.16342, within(1e-9));
    assertThat(row.allreduceUs()).isCloseTo(4.1429858, within(1e-9));
  }
}
