package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.nic.NicStatistics;
import io.github.ariesmodel.system.AriesSystem;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The world communicator's barrier and small allreduces on the NICs' collective engine: the same values as the
 * software algorithms, every reduction through the engine's root, one channel a node posted to by the node's first
 * rank (MpiCollectiveEngineNodePhaseTest has more of that), and refusals in one line.
 */
class MpiCollectiveEngineTest {

  private static final MpiConfig ENGINE = MpiConfig.builder().collectiveEngine(true).build();

  /** What every rank's collectives gave, by rank. */
  private static ConcurrentHashMap<Integer, String> program(MpiJob job) {
    ConcurrentHashMap<Integer, String> out = new ConcurrentHashMap<>();
    job.run(mpi -> {
      var w = mpi.world();
      int r = mpi.rank();
      mpi.barrier(w);
      long[] s = new long[2];
      mpi.allreduce(new long[] {r * 3L - 7, 1L << r}, s, ReduceOp.SUM, w);
      long[] min = new long[1];
      mpi.allreduce(new long[] {(r * 5L) % 7 - 3}, min, ReduceOp.MIN, w);
      long[] x = new long[2];
      mpi.allreduce(new long[] {r * 0x1111L, ~r}, x, ReduceOp.BXOR, w);
      double[] d = new double[2];
      mpi.allreduce(new double[] {r + 0.5, -r * 2.0}, d, ReduceOp.SUM, w);
      double[] dmax = new double[1];
      mpi.allreduce(new double[] {Math.sin(r)}, dmax, ReduceOp.MAX, w);
      long[] prod = new long[1];
      mpi.allreduce(new long[] {r + 1L}, prod, ReduceOp.PROD, w); // the engine has no product: software
      long[] many = new long[3];
      mpi.allreduce(new long[] {r, r, r}, many, ReduceOp.SUM, w); // three elements: software
      mpi.barrier(w);
      out.put(r, Arrays.toString(s) + Arrays.toString(min) + Arrays.toString(x) + Arrays.toString(d)
          + Arrays.toString(dmax) + Arrays.toString(prod) + Arrays.toString(many));
    });
    return out;
  }

  @Test
  void theEngineGivesTheSoftwareAlgorithmsValuesAndServesBarrierAndEligibleAllreduces() {
    AriesSystem soft = MpiTesting.smallSystem(3);
    ConcurrentHashMap<Integer, String> want = program(MpiTesting.job(soft, 12, MpiConfig.defaults()));
    AriesSystem sys = MpiTesting.smallSystem(3);
    MpiJob job = MpiTesting.job(sys, 12, ENGINE);
    assertThat(program(job)).isEqualTo(want);
    long reductions = 0;
    long posts = 0;
    for (int n = 0; n < sys.nodeCount(); n++) {
      NicStatistics st = sys.node(n).nic().statistics();
      reductions += st.collectiveReductions();
      posts += st.collectivePosts();
      assertThat(st.collectiveFaults()).isZero();
      assertThat(st.collectivePacketsDropped()).isZero();
    }
    // two barriers, the five allreduces the engine can do and finalize's barrier, each completed at one root and
    // posted once a node: 12 ranks two a node are 6 nodes, each node's first rank posting for both (stop 69's node
    // phase; until then every rank posted, 8 * 12)
    assertThat(reductions).isEqualTo(8);
    assertThat(posts).isEqualTo(8 * 6);
  }

  @Test
  void aBarrierOnTheEngineSendsNoMessage() {
    AriesSystem sys = MpiTesting.smallSystem(5);
    MpiJob job = MpiTesting.job(sys, 8, ENGINE);
    job.run(mpi -> mpi.barrier(mpi.world()));
    long sent = 0;
    long ce = 0;
    for (int n = 0; n < sys.nodeCount(); n++) {
      sent += sys.node(n).nic().statistics().posts();
      ce += sys.node(n).nic().statistics().collectivePacketsSent();
    }
    assertThat(sent).as("posts of messages").isZero();
    // the program's barrier and finalize's; 4 nodes in a radix-2 tree: 3 contributions up, 3 results down each
    assertThat(ce).isEqualTo(2 * 6);
  }

  @Test
  void theSameJobTwiceTakesTheSameSimulatedTime() {
    long[] t = new long[2];
    for (int i = 0; i < 2; i++) {
      MpiJob job = MpiTesting.job(MpiTesting.smallSystem(9), 10, ENGINE);
      program(job);
      t[i] = job.lastRunPs();
    }
    assertThat(t[1]).isEqualTo(t[0]);
  }

  @Test
  void onThePartitionedEngineTheEngineGivesTheSameTimesForOneTwoAndThreeThreads() {
    long[] t = new long[4];
    String[] values = new String[4];
    for (int threads = 1; threads <= 3; threads++) {
      AriesSystem sys = AriesSystem.builder().system("canonical:p=2,a=4,h=2").seed(17).threads(threads).build();
      int[] nodes = new int[12];
      for (int i = 0; i < 12; i++) {
        nodes[i] = (i * 11) % sys.nodeCount(); // over most of the nine groups
      }
      MpiJob job = MpiJob.builder(sys).nodes(nodes).ranksPerNode(1).config(ENGINE).build();
      values[threads] = program(job).toString();
      t[threads] = job.lastRunPs();
    }
    assertThat(t[2]).isEqualTo(t[1]);
    assertThat(t[3]).isEqualTo(t[1]);
    assertThat(values[2]).isEqualTo(values[1]);
    assertThat(values[3]).isEqualTo(values[1]);
  }

  @Test
  void aFifthJobOnANodeIsRefusedAndTakesNothing() {
    AriesSystem sys = MpiTesting.smallSystem(4);
    for (int i = 0; i < 4; i++) {
      MpiJob.builder(sys).nodes(0, 1).ranksPerNode(1).config(ENGINE).build();
    }
    assertThatThrownBy(() -> MpiJob.builder(sys).nodes(2, 1).ranksPerNode(1).config(ENGINE).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("MpiJob could not set up MpiConfig.collectiveEngine: node 1 has no free"
            + " collective-engine channel: all 4 are in use")
        .hasMessageEndingWith("; the ranks' registrations, completion queues and FMA descriptors were given back,"
            + " with the host memory they took");
    assertThat(sys.node(2).nic().fmaDescriptorsAttached()).as("node 2's rank's descriptor, given back").isZero();
    assertThat(sys.node(1).nic().fmaDescriptorsAttached()).as("the four jobs' ranks on node 1").isEqualTo(4);
    assertThat(sys.node(1).nic().completionQueueCount()).as("the four jobs' two queues a rank").isEqualTo(8);
    // node 2's channel, taken before node 1 refused, was freed, and its rank's registration and its two CQs (whose
    // rings were node 2's only other registrations) were given back
    assertThat(sys.node(2).nic().createCollectiveChannel()).isZero();
    assertThat(sys.node(2).nic().completionQueueCount()).isZero();
    var iommu = sys.node(2).iommu().orElseThrow();
    assertThat(java.util.stream.IntStream.range(0, 4096)
        .filter(m -> iommu.descriptor(m).map(d -> d.valid()).orElse(false)).count()).isZero();
  }

  @Test
  void aRadixOutsideOneTo31IsRefusedAndAnyRanksANodeFitTheChannel() {
    // 29 ranks a node and radix 4 were refused until stop 69 (29 PE children and 4 child channels are more than a
    // channel's 32); a node's first rank is now its channel's only PE child, so 1 + 4 children
    AriesSystem sys = MpiTesting.smallSystem(1);
    MpiConfig wide = ENGINE.toBuilder().collectiveEngineRadix(4).build();
    MpiJob job = MpiJob.builder(sys).nodes(0, 1, 2, 3, 4).ranksPerNode(29).config(wide).build();
    job.run(mpi -> mpi.barrier(mpi.world()));
    long posts = 0;
    for (int n = 0; n < sys.nodeCount(); n++) {
      posts += sys.node(n).nic().statistics().collectivePosts();
    }
    assertThat(posts).as("the barrier and finalize's, once a node").isEqualTo(2 * 5);
    assertThatThrownBy(() -> MpiConfig.builder().collectiveEngineRadix(32))
        .hasMessage("collectiveEngineRadix must be in [1, 31] but was 32");
    assertThatThrownBy(() -> MpiConfig.builder().collectiveEngineRadix(0))
        .hasMessage("collectiveEngineRadix must be in [1, 31] but was 0");
  }
}
