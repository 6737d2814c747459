package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.nic.Nic;
import io.github.ariesmodel.system.AriesSystem;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link ShmemJob#close}: a job ends on its nodes as a batch system ends one, giving back its registrations, queues,
 * FMA descriptors and engine channels, so that job after job can be built on the same nodes of one system; and jobs
 * that share a node post through descriptors of their own.
 */
class ShmemJobCloseTest {

  private static AriesSystem system() {
    return AriesSystem.builder().topology(Topologies.ariesSmall(), "small").seed(4).build();
  }

  private static long validMdhs(AriesSystem sys, int node) {
    var t = sys.node(node).translation();
    return IntStream.range(0, 4096).filter(m -> t.descriptor(m).map(d -> d.valid()).orElse(false)).count();
  }

  /** Each PE adds its number + 1 to PE 0's word; PE 0's word after the barrier. */
  private static long sumAtPe0(ShmemJob job) {
    Symmetric word = job.allocate(8);
    AtomicLong seen = new AtomicLong(-1);
    job.run(pe -> {
      pe.atomicFetchAdd(word, 0, pe.myPe() + 1, 0);
      pe.barrierAll();
      if (pe.myPe() == 0) {
        seen.set(pe.localLong(word, 0));
      }
    });
    return seen.get();
  }

  @Test
  void aClosedJobGivesItsHostMemoryBackSoJobAfterJobFitsANodeThatHoldsOne() {
    // 24 MiB a node: one job with 8 MiB objects on two PEs a node fits, a second beside it does not
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").seed(4)
        .nodeMemoryBytes(24L << 20).build();
    int[] nodes = {0, 1, 9};
    long[] before = new long[nodes.length];
    for (int i = 0; i < nodes.length; i++) {
      before[i] = sys.node(nodes[i]).memory().allocatedBytes();
    }
    for (int j = 0; j < 4; j++) {
      ShmemJob job = ShmemJob.builder(sys).nodes(nodes).pesPerNode(2).collectiveEngine(2).build();
      Symmetric big = job.allocate(8L << 20);
      assertThat(sumAtPe0(job)).as("job %s", j).isEqualTo(21);
      if (j == 0) {
        ShmemJob second = ShmemJob.builder(sys).nodes(nodes).pesPerNode(2).build();
        assertThatThrownBy(() -> second.allocate(8L << 20))
            .as("a second job's object beside the first's").isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("physical memory exhausted");
        second.close();
      }
      assertThat(big.bytes()).isEqualTo(8L << 20);
      job.close();
      for (int i = 0; i < nodes.length; i++) {
        assertThat(sys.node(nodes[i]).memory().allocatedBytes())
            .as("node %s's memory reserved after job %s was closed", nodes[i], j).isEqualTo(before[i]);
      }
    }
  }

  @Test
  void aClosedJobGivesBackEveryHandleQueueDescriptorAndChannelItTook() {
    AriesSystem sys = system();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 1, 9).pesPerNode(2).collectiveEngine(2).build();
    assertThat(sys.node(0).nic().fmaDescriptorsAttached()).isEqualTo(2);
    assertThat(sumAtPe0(job)).isEqualTo(21);
    job.close();
    for (int n : new int[] {0, 1, 9}) {
      Nic nic = sys.node(n).nic();
      assertThat(nic.fmaDescriptorsAttached()).isZero();
      assertThat(nic.completionQueueCount()).isZero();
      assertThat(validMdhs(sys, n)).isZero();
      assertThat(nic.createCollectiveChannel()).as("the job's channel, free again").isZero();
    }
    assertThat(job.closed()).isTrue();
    assertThat(job.lastRunPs()).as("its figures stay readable").isPositive();
    job.close(); // again: nothing more to do
    assertThatThrownBy(() -> job.run(pe -> { })).isInstanceOf(IllegalStateException.class)
        .hasMessage("this job cannot run again: it was closed (ShmemJob.close gave back its registrations, queues"
            + " and descriptors); build a new ShmemJob on the system");
    assertThatThrownBy(() -> job.allocate(8)).isInstanceOf(IllegalStateException.class)
        .hasMessage("allocate may not be called on a closed job (ShmemJob.close gave back its registrations); build a"
            + " new ShmemJob on the system");
  }

  @Test
  void jobAfterJobOfAHundredTwentySevenPesANodeRunsWhenEachIsClosed() {
    // 127 PEs a node take every FMA descriptor of the NIC: a second such job left beside it finds none free and
    // shares them. Closed, each leaves them to the next.
    AriesSystem sys = system();
    for (int i = 0; i < 3; i++) {
      ShmemJob job = ShmemJob.builder(sys).nodes(0, 1).pesPerNode(127).build();
      assertThat(sys.node(0).nic().fmaDescriptorsAttached()).isEqualTo(127);
      assertThat(sumAtPe0(job)).isEqualTo(254L * 255 / 2);
      job.close();
    }
    ShmemJob open = ShmemJob.builder(sys).nodes(0, 1).pesPerNode(127).build();
    // with all 127 held, a job beside it shares descriptors (GNI_CDM_MODE_FMA_SHARED), as every job did before
    // stop 72, instead of being refused
    ShmemJob beside = ShmemJob.builder(sys).nodes(2, 1).pesPerNode(1).build();
    assertThat(sumAtPe0(beside)).isEqualTo(3);
    assertThat(sys.node(1).nic().fmaDescriptorsAttached()).isEqualTo(127);
    beside.close();
    assertThat(sys.node(1).nic().fmaDescriptorsAttached()).as("beside's PE on node 1 owned none").isEqualTo(127);
    assertThat(sys.node(2).nic().fmaDescriptorsAttached()).isZero();
    open.close();
    assertThat(sys.node(1).nic().fmaDescriptorsAttached()).isZero();
  }

  @Test
  void twoJobsOnOneNodeTakeDescriptorsOfTheirOwn() {
    AriesSystem sys = system();
    ShmemJob a = ShmemJob.builder(sys).nodes(0, 1).pesPerNode(3).build();
    ShmemJob b = ShmemJob.builder(sys).nodes(0, 2).pesPerNode(2).build();
    assertThat(sys.node(0).nic().fmaDescriptorsAttached()).as("3 of a's PEs and 2 of b's").isEqualTo(5);
    assertThat(sumAtPe0(a)).isEqualTo(21);
    a.close();
    assertThat(sys.node(0).nic().fmaDescriptorsAttached()).isEqualTo(2);
    assertThat(sumAtPe0(b)).isEqualTo(10);
  }

  @Test
  void aPeCannotCloseItsOwnJob() {
    AriesSystem sys = system();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 1).build();
    AtomicReference<Throwable> seen = new AtomicReference<>();
    job.run(pe -> {
      if (pe.myPe() == 0) {
        try {
          job.close();
        } catch (IllegalStateException e) {
          seen.set(e);
        }
      }
      pe.barrierAll();
    });
    assertThat(seen.get()).hasMessage("this job cannot be closed while it runs (close was called from its own PE 0):"
        + " close it after run returns");
    assertThat(job.closed()).isFalse();
    assertThat(sumAtPe0(job)).isEqualTo(3);
  }

  @Test
  void aJobWhoseFailedRunLeftOperationsInFlightIsNotClosedUntilTheyLand() {
    AriesSystem sys = system();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).build();
    Symmetric big = job.allocate(1 << 20);
    byte[] data = new byte[1 << 20];
    assertThatThrownBy(() -> job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.put(big, 0, data, 1); // a 1 MiB put, not waited for
        throw new IllegalStateException("PE 0 gives up");
      }
    })).hasMessageContaining("PE 0 gives up");
    assertThat(sys.node(0).nic().unfinishedPosts()).as("the put, left in flight by the failed run").isPositive();
    assertThatThrownBy(job::close).isInstanceOf(IllegalStateException.class)
        .hasMessage("this job cannot be closed yet: PE 0 on node 0 has an operation not complete or an event on its"
            + " way into its completion queue (they land as the simulation runs on: AriesSystem.runPending());"
            + " nothing was given back");
    assertThat(sys.node(0).nic().fmaDescriptorsAttached()).isEqualTo(1);
    assertThat(validMdhs(sys, 0)).isPositive();
    sys.runPending();
    job.close();
    assertThat(validMdhs(sys, 0)).isZero();
  }

  /**
   * A run that fails while the other PEs wait in an engine barrier leaves a reduction that can never complete. Once
   * nothing is pending, close abandons it and gives everything back (until stop 74 such a job could not be closed and
   * kept its channels).
   */
  @Test
  void aFailedRunsEngineBarrierThatNeverCompletesIsAbandonedOnceNothingIsPending() {
    AriesSystem sys = system();
    int[] nodes = {0, 1, 9};
    ShmemJob job = ShmemJob.builder(sys).nodes(nodes).collectiveEngine(2).build();
    assertThatThrownBy(() -> job.run(pe -> {
      if (pe.myPe() == 2) {
        pe.compute(20_000_000); // the others are in the barrier by then
        throw new IllegalStateException("PE 2 fails before the barrier");
      }
      pe.barrierAll();
    })).hasMessageContaining("PE 2 fails before the barrier");
    sys.runPending();
    assertThat(sys.pendingEvents()).isZero();

    job.close();

    assertThat(job.closed()).isTrue();
    for (int n : nodes) {
      Nic nic = sys.node(n).nic();
      assertThat(nic.completionQueueCount()).as("node %d's queues", n).isZero();
      assertThat(validMdhs(sys, n)).isZero();
      for (int k = 0; k < 4; k++) {
        nic.createCollectiveChannel(); // all four free again
      }
    }
  }
}
