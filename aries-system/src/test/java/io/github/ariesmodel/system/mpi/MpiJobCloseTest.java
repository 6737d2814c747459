package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.iommu.Iommu;
import io.github.ariesmodel.nic.Nic;
import io.github.ariesmodel.system.AriesSystem;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link MpiJob#close}: a job ends on its nodes as a batch system ends one, giving back its registrations, queues,
 * FMA descriptors and engine channels, so that job after job can be built on the same nodes of one system; and jobs
 * that share a node take FMA descriptors of their own.
 */
class MpiJobCloseTest {

  private static final MpiConfig ENGINE = MpiConfig.builder().collectiveEngine(true).build();

  /** A program whose ranks exchange eager and rendezvous messages and reduce, so every kind of resource is used. */
  private static final MpiProgram WORK = mpi -> {
    var w = mpi.world();
    int r = mpi.rank();
    int n = mpi.size();
    byte[] small = new byte[64];
    byte[] large = new byte[64 << 10];
    byte[] in = new byte[64 << 10];
    mpi.sendrecv(small, 0, small.length, (r + 1) % n, 1, in, 0, in.length, (r + n - 1) % n, 1, w);
    mpi.sendrecv(large, 0, large.length, (r + 1) % n, 2, in, 0, in.length, (r + n - 1) % n, 2, w);
    long[] sum = new long[1];
    mpi.allreduce(new long[] {r}, sum, ReduceOp.SUM, w);
    mpi.barrier(w);
  };

  private static long validMdhs(AriesSystem sys, int node) {
    Iommu iommu = sys.node(node).iommu().orElseThrow();
    return IntStream.range(0, 4096).filter(m -> iommu.descriptor(m).map(d -> d.valid()).orElse(false)).count();
  }

  @Test
  void aClosedJobGivesBackEveryHandleQueueDescriptorAndChannelItTook() {
    AriesSystem sys = MpiTesting.smallSystem(3);
    int[] nodes = {0, 1, 2};
    MpiJob job = MpiJob.builder(sys).nodes(nodes).ranksPerNode(2).config(ENGINE).build();
    for (int n : nodes) {
      assertThat(sys.node(n).nic().fmaDescriptorsAttached()).isEqualTo(2);
      assertThat(sys.node(n).nic().completionQueueCount()).isEqualTo(4);
    }
    job.run(WORK);
    assertThat(validMdhs(sys, 0)).as("registrations, rings and user-buffer segments").isGreaterThan(6);
    sys.runPending(); // what the run left in flight (the last credit returns) lands
    job.close();
    for (int n : nodes) {
      Nic nic = sys.node(n).nic();
      assertThat(nic.fmaDescriptorsAttached()).isZero();
      assertThat(nic.completionQueueCount()).isZero();
      assertThat(validMdhs(sys, n)).isZero();
      assertThat(nic.createCollectiveChannel()).as("the job's channel, free again").isZero();
      nic.destroyCollectiveChannel(0);
    }
    assertThat(job.closed()).isTrue();
    assertThat(job.lastRunPs()).as("its figures stay readable").isPositive();
    assertThat(job.messages()).isPositive();
    job.close(); // again: nothing more to do
    assertThatThrownBy(() -> job.run(WORK)).isInstanceOf(IllegalStateException.class)
        .hasMessage("this job cannot run again: it was closed (MpiJob.close gave back its registrations, queues and"
            + " descriptors); build a new MpiJob on the system");
  }

  @Test
  void jobAfterJobOnTheSameNodesRunsWhenEachIsClosed() {
    // Four jobs using the engine take a node's four channels: the fifth was refused until jobs could be closed.
    AriesSystem sys = MpiTesting.smallSystem(4);
    long first = 0;
    for (int i = 0; i < 6; i++) {
      MpiJob job = MpiJob.builder(sys).nodes(0, 1, 9, 17).ranksPerNode(1).config(ENGINE).build();
      AtomicLong sum = new AtomicLong(-1);
      job.run(mpi -> {
        long[] s = new long[1];
        mpi.allreduce(new long[] {mpi.rank() + 1}, s, ReduceOp.SUM, mpi.world());
        if (mpi.rank() == 0) {
          sum.set(s[0]);
        }
      });
      assertThat(sum.get()).isEqualTo(10);
      first = i == 0 ? validMdhs(sys, 0) : first;
      sys.runPending();
      job.close();
    }
    assertThat(validMdhs(sys, 0)).isZero();
    // and without closing, the fifth is refused as before
    for (int i = 0; i < 4; i++) {
      MpiJob.builder(sys).nodes(0, 1).ranksPerNode(1).config(ENGINE).build();
    }
    assertThatThrownBy(() -> MpiJob.builder(sys).nodes(0, 1).ranksPerNode(1).config(ENGINE).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("all 4 are in use");
  }

  @Test
  void aClosedJobGivesItsHostMemoryBackSoJobAfterJobFitsANodeThatHoldsOne() {
    // 96 MiB a node: one job of two default ranks a node (about 20.5 MiB each, and a 16 MiB segment each for the
    // rendezvous messages' buffers once it has run) fits, a second beside it does not
    AriesSystem sys = AriesSystem.builder().topology(io.github.ariesmodel.network.Topologies.ariesSmall(), "small")
        .seed(3).nodeMemoryBytes(96L << 20).build();
    int[] nodes = {0, 1, 9};
    long[] before = new long[nodes.length];
    for (int i = 0; i < nodes.length; i++) {
      before[i] = sys.node(nodes[i]).memory().allocatedBytes();
    }
    for (int j = 0; j < 4; j++) {
      MpiJob job = MpiJob.builder(sys).nodes(nodes).ranksPerNode(2).build();
      job.run(WORK);
      if (j == 0) {
        assertThatThrownBy(() -> MpiJob.builder(sys).nodes(nodes).ranksPerNode(2).build())
            .as("a second job beside the first, which has run").isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("bytes free (AriesSystem nodeMemoryBytes)");
      }
      sys.runPending();
      job.close();
      for (int i = 0; i < nodes.length; i++) {
        assertThat(sys.node(nodes[i]).memory().allocatedBytes())
            .as("node %s's memory reserved after job %s was closed", nodes[i], j).isEqualTo(before[i]);
        assertThat(sys.node(nodes[i]).memory().materializedPages())
            .as("node %s's pages written by job %s, dropped with it", nodes[i], j).isZero();
      }
    }
  }

  @Test
  void twoJobsOnOneNodeTakeDescriptorsOfTheirOwnAndAClosedJobsGoBackToTheNext() {
    AriesSystem sys = MpiTesting.smallSystem(5);
    MpiJob a = MpiJob.builder(sys).nodes(0, 1).ranksPerNode(3).build();
    MpiJob b = MpiJob.builder(sys).nodes(0, 2).ranksPerNode(2).build();
    assertThat(sys.node(0).nic().fmaDescriptorsAttached()).as("3 of a's ranks and 2 of b's").isEqualTo(5);
    a.run(WORK);
    b.run(WORK);
    sys.runPending();
    a.close();
    assertThat(sys.node(0).nic().fmaDescriptorsAttached()).isEqualTo(2);
    assertThat(sys.node(1).nic().fmaDescriptorsAttached()).isZero();
    // the lowest free descriptors are a's again
    assertThat(sys.node(0).nic().attachFmaDescriptor()).isZero();
    b.run(WORK);
    assertThat(b.lastRunPs()).isPositive();
  }

  @Test
  void ranksBeyondTheNicsDescriptorsShareThemAsBeforeStop72() {
    AriesSystem sys = MpiTesting.smallSystem(6);
    MpiJob many = MpiJob.builder(sys).nodes(0, 1).ranksPerNode(130).build();
    assertThat(sys.node(0).nic().fmaDescriptorsAttached()).as("127 own, 3 shared").isEqualTo(127);
    // a job on a node whose descriptors other jobs hold all shares one (GNI_CDM_MODE_FMA_SHARED), as every job did
    // before stop 72, instead of being refused: the review found a study leaving 127 one-rank jobs open refused
    MpiJob beside = MpiJob.builder(sys).nodes(2, 0).ranksPerNode(1).build();
    beside.run(WORK);
    assertThat(sys.node(0).nic().fmaDescriptorsAttached()).isEqualTo(127);
    assertThat(sys.node(2).nic().fmaDescriptorsAttached()).isEqualTo(1);
    sys.runPending();
    beside.close();
    assertThat(sys.node(0).nic().fmaDescriptorsAttached()).as("beside's rank on node 0 owned none").isEqualTo(127);
    assertThat(sys.node(2).nic().fmaDescriptorsAttached()).isZero();
    many.close();
    assertThat(sys.node(0).nic().fmaDescriptorsAttached()).isZero();
  }

  @Test
  void aJobWhoseDescriptorOrQueueWasGivenBackOutsideItIsNotClosedAndNothingIsGivenBack() {
    AriesSystem sys = MpiTesting.smallSystem(10);
    MpiJob job = MpiJob.builder(sys).nodes(0, 1).ranksPerNode(1).build();
    job.run(WORK);
    sys.runPending();
    sys.node(1).nic().detachFmaDescriptor(0);
    assertThatThrownBy(job::close).isInstanceOf(IllegalStateException.class)
        .hasMessage("this job cannot be closed: FMA descriptor [0] of its ranks on node 1 were detached outside the"
            + " job (Nic.detachFmaDescriptor); nothing was given back");
    assertThat(sys.node(0).nic().completionQueueCount()).isEqualTo(2);
    assertThat(sys.node(0).nic().fmaDescriptorsAttached()).isEqualTo(1);
    assertThat(sys.node(1).nic().attachFmaDescriptor()).isZero();
    job.close();
    assertThat(sys.node(0).nic().completionQueueCount()).isZero();
  }

  @Test
  void aJobWithMessagesStillInFlightIsNotClosedAndNothingIsGivenBack() {
    AriesSystem sys = MpiTesting.smallSystem(7);
    MpiJob job = MpiJob.builder(sys).nodes(0, 9, 18, 27).ranksPerNode(1).build();
    MpiJob noise = MpiJob.builder(sys).nodes(1, 10, 19, 28).ranksPerNode(1).build();
    MpiJob.together().job(job, WORK).background(noise, SyntheticTraffic.uniform(65536, 0, 0, 3)).run();
    assertThat(noise.lastRunStopped()).isTrue();
    assertThatThrownBy(noise::close).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("this job cannot be closed yet: rank ")
        .hasMessageEndingWith("nothing was given back");
    assertThat(sys.node(1).nic().fmaDescriptorsAttached()).isEqualTo(1);
    assertThat(sys.node(1).nic().completionQueueCount()).isEqualTo(2);
    assertThat(noise.closed()).isFalse();
    sys.runPending();
    noise.close();
    job.close();
    assertThat(sys.node(1).nic().completionQueueCount()).isZero();
  }

  /**
   * A run that fails before every rank contributed leaves a reduction on the collective engine that can never
   * complete. Once nothing is pending, close abandons it and gives everything back (until stop 74 the job could not be
   * closed and kept its channels, so the fifth engine job on those nodes was refused).
   */
  @Test
  void aFailedRunsReductionThatNeverCompletesIsAbandonedOnceNothingIsPending() {
    AriesSystem sys = MpiTesting.smallSystem(3);
    int[] nodes = {0, 1, 2};
    MpiJob job = MpiJob.builder(sys).nodes(nodes).ranksPerNode(1).config(ENGINE).build();
    assertThatThrownBy(() -> job.run(mpi -> {
      if (mpi.rank() == 2) {
        mpi.compute(20_000_000); // 20 us: the others' contributions are on the engine by then
        throw new IllegalStateException("rank 2 fails before the allreduce");
      }
      long[] sum = new long[1];
      mpi.allreduce(new long[] {mpi.rank()}, sum, ReduceOp.SUM, mpi.world());
    })).hasMessageContaining("rank 2 fails before the allreduce");
    sys.runPending();
    assertThat(sys.pendingEvents()).isZero();
    boolean stuck = false;
    for (int n : nodes) {
      for (int ch = 0; ch < 4; ch++) {
        try {
          stuck |= sys.node(n).nic().collectiveReductionInProgress(ch);
        } catch (IllegalArgumentException notTaken) {
          // (a channel the node did not take)
        }
      }
    }
    assertThat(stuck).as("a reduction left in progress by the failed run").isTrue();

    job.close();

    assertThat(job.closed()).isTrue();
    for (int n : nodes) {
      Nic nic = sys.node(n).nic();
      assertThat(nic.completionQueueCount()).as("node %d's queues", n).isZero();
      assertThat(nic.fmaDescriptorsAttached()).isZero();
      for (int k = 0; k < 4; k++) {
        nic.createCollectiveChannel(); // all four free again
      }
    }
  }

  @Test
  void aRankCannotCloseItsOwnJob() {
    AriesSystem sys = MpiTesting.smallSystem(8);
    MpiJob job = MpiJob.builder(sys).nodes(0, 1).ranksPerNode(1).build();
    AtomicReference<Throwable> seen = new AtomicReference<>();
    job.run(mpi -> {
      if (mpi.rank() == 0) {
        try {
          job.close();
        } catch (IllegalStateException e) {
          seen.set(e);
        }
      }
      mpi.barrier(mpi.world());
    });
    assertThat(seen.get()).hasMessage("this job cannot be closed while it runs (close was called from its own rank"
        + " 0): close it after run returns");
    assertThat(job.closed()).isFalse();
    job.run(WORK);
  }

  @Test
  void aSecondJobsEnginePostsCostItsOwnRanksCpuNotTheFirstJobs() {
    AriesSystem sys = MpiTesting.smallSystem(9);
    MpiJob a = MpiJob.builder(sys).nodes(0, 1).ranksPerNode(1).config(ENGINE).build();
    a.run(mpi -> mpi.barrier(mpi.world()));
    Nic nic = sys.node(0).nic();
    long aDone = nic.postStoresDoneAt(0);
    assertThat(aDone).as("job a's rank posted to the engine through descriptor 0").isPositive();
    MpiJob b = MpiJob.builder(sys).nodes(0, 1).ranksPerNode(1).config(ENGINE).build();
    b.run(mpi -> mpi.barrier(mpi.world()));
    // until stop 72 every engine post was booked on descriptor 0, and b's moved a's process's stores
    assertThat(nic.postStoresDoneAt(0)).isEqualTo(aDone);
    assertThat(nic.postStoresDoneAt(1)).isGreaterThan(aDone);
  }

  @Test
  void aRankOfAnotherJobCannotCloseAJobAndRunPendingWorksOnAnEngineToo() {
    AriesSystem sys = AriesSystem.builder().system("two-groups").seed(3).threads(2).build();
    MpiJob a = MpiJob.builder(sys).nodes(0, 1).ranksPerNode(1).build();
    MpiJob b = MpiJob.builder(sys).nodes(2, 300).ranksPerNode(1).build();
    a.run(WORK);
    AtomicReference<Throwable> seen = new AtomicReference<>();
    b.run(mpi -> {
      if (mpi.rank() == 0) {
        try {
          a.close();
        } catch (IllegalStateException e) {
          seen.set(e);
        }
      }
      mpi.barrier(mpi.world());
    });
    assertThat(seen.get()).isNotNull().hasMessageContaining("MpiJob.close was called from thread");
    assertThat(a.closed()).isFalse();
    sys.runPending();
    a.close();
    b.close();
    assertThat(sys.node(0).nic().completionQueueCount()).isZero();
  }
}
