package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.ProcessRunner;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An MPI job fails its ranks for its own transfers' errors only. The NIC's one completion listener, which an MPI job
 * takes on its nodes as its run starts, also sees the events of posts another job left in flight when its run failed
 * (they finish in the system's next run, see {@code FailedRunTest}); a SHMEM job's posts name no CQ, so their error
 * events land in no rank's queue, and the node's endpoint used to fail every rank of the node for them.
 */
class MpiForeignCompletionEventsTest {

  private static final int PUTS = 200;

  private static byte[] pattern(int len) {
    byte[] b = new byte[len];
    for (int i = 0; i < len; i++) {
      b[i] = (byte) (i * 7 + 3);
    }
    return b;
  }

  /**
   * A SHMEM job on nodes 0 and 9 whose PE 1 throws at once while PE 0 has {@link #PUTS} puts in flight to PE 1's
   * object, which node 9 no longer has registered: each fails with INVALID_MDH when it reaches node 9, after the run
   * has failed.
   */
  private static void failedShmemRunWithFaultingPutsInFlight(AriesSystem sys) {
    ShmemJob shmem = ShmemJob.builder(sys).nodes(0, 9).build();
    Symmetric t = shmem.allocate(1L << 16);
    sys.node(9).nic().deregister(t.mdh(1));
    assertThatThrownBy(() -> shmem.run(pe -> {
      if (pe.myPe() == 1) {
        throw new IllegalStateException("the program's own bug");
      }
      for (int i = 0; i < PUTS; i++) {
        pe.putLong(t, 8L * i, i, 1);
      }
      pe.quiet();
    })).hasMessageContaining("the program's own bug");
  }

  /** A ping-pong of short, eager and rendezvous messages between ranks 0 and 1, with time between them. */
  private static List<byte[]> pingPong(MpiJob job) {
    List<byte[]> got = new ArrayList<>();
    job.run(mpi -> {
      for (int len : new int[] {8, 3000, 100_000}) {
        byte[] b = new byte[len];
        if (mpi.rank() == 0) {
          mpi.send(pattern(len), 0, len, 1, len, mpi.world());
          mpi.recv(b, 0, len, 1, len, mpi.world());
          got.add(b);
        } else {
          mpi.recv(b, 0, len, 0, len, mpi.world());
          mpi.send(b, 0, len, 0, len, mpi.world());
        }
        mpi.compute(20_000_000); // 20 us
      }
    });
    return got;
  }

  /**
   * The failed SHMEM run's faulting puts complete with their error events on node 0 while the next job, an MPI job on
   * the same nodes, runs and has node 0's listener: they are not that job's, and it runs to its end with its data
   * whole. (Before, node 0's endpoint failed rank 0 with "a transfer of node 0 failed with INVALID_MDH".)
   */
  @Test
  void aFailedShmemRunsFaultingPostsDoNotFailTheNextMpiJob() {
    AriesSystem sys = MpiTesting.smallSystem(1);
    failedShmemRunWithFaultingPutsInFlight(sys);
    MpiJob job = MpiJob.builder(sys).nodes(0, 9).build();
    List<Long> errorsAt = new ArrayList<>();
    sys.node(0).nic().addCompletionProbe(e -> {
      if (e.isError()) {
        errorsAt.add(e.timePs());
      }
    });
    List<byte[]> got = pingPong(job);
    // the leftover errors did arrive on node 0 during the MPI job's run (the probe was added after the SHMEM run)
    assertThat(errorsAt).isNotEmpty();
    assertThat(got).hasSize(3);
    for (byte[] b : got) {
      assertThat(b).isEqualTo(pattern(b.length));
    }
  }

  /**
   * Nor does an earlier MPI job's: its rank 0's mailbox PUT to rank 1, whose registration is gone, is in flight when
   * rank 1 throws; its error event is written into that job's tx ring, which no rank of the next job on the nodes
   * has, and used to fail the next job's rank 0 all the same.
   */
  @Test
  void aFailedMpiRunsFaultingPostDoesNotFailTheNextMpiJob() {
    AriesSystem sys = MpiTesting.smallSystem(3);
    MpiJob failed = MpiJob.builder(sys).nodes(0, 9).build();
    assertThatThrownBy(() -> failed.run(mpi -> {
      if (mpi.rank() == 1) {
        Rank me = failed.rank(1);
        me.node.nic().deregister(me.mdh);
        mpi.compute(500_000); // 500 ns: rank 0 has posted its PUT (at 216 ns), whose error comes back at 2.8 us
        throw new IllegalStateException("the program's own bug");
      }
      mpi.send(new byte[8], 1, 0);
      mpi.compute(1_000_000_000L);
    })).hasMessageContaining("the program's own bug");
    List<Status> errors = new ArrayList<>();
    sys.node(0).nic().addCompletionProbe(e -> {
      if (e.isError()) {
        errors.add(e.status());
      }
    });
    List<byte[]> got = pingPong(MpiJob.builder(sys).nodes(0, 9).build());
    assertThat(errors).containsExactly(Status.INVALID_MDH);
    assertThat(failed.rank(0).txCq.writtenEvents()).isEqualTo(1);
    assertThat(got).hasSize(3);
    for (byte[] b : got) {
      assertThat(b).isEqualTo(pattern(b.length));
    }
  }

  /**
   * The same job's own transfer that fails, when its error event reaches no queue (its tx ring's entry could not be
   * written: the ring's registration is gone), still fails the ranks of its node, naming the node and the status.
   */
  @Test
  void anOwnErrorThatNoQueueTookStillFailsTheRanksOfItsNode() {
    AriesSystem sys = MpiTesting.smallSystem(2);
    MpiJob job = MpiJob.builder(sys).nodes(0, 5).build();
    List<CompletionEvent> errors = new ArrayList<>();
    sys.node(0).nic().addCompletionProbe(e -> {
      if (e.isError()) {
        errors.add(e);
      }
    });
    assertThatThrownBy(() -> job.run(mpi -> {
      if (mpi.rank() == 1) {
        Rank me = job.rank(1);
        me.node.nic().deregister(me.mdh); // the sender's mailbox PUT finds no registration
        mpi.compute(1_000_000_000L);
      } else {
        Rank me = job.rank(0);
        // and its error event finds no ring to be written into (the NIC refuses this; the translation port does not)
        me.node.translation().deregister(me.txCq.ring().mdh());
        mpi.send(new byte[8], 1, 0);
        mpi.recv(new byte[8], 1, 0);
      }
    })).isInstanceOf(ProcessRunner.ProcessFailedException.class)
        .hasStackTraceContaining("MPI rank 0: a transfer of node 0 failed with INVALID_MDH");
    assertThat(errors).extracting(CompletionEvent::status).containsOnly(Status.INVALID_MDH);
    assertThat(job.rank(0).txCq.writtenEvents()).isZero();
    assertThat(Arrays.asList(job.rank(0).txCq.size(), job.rank(0).rxCq.size())).containsOnly(0);
  }
  /**
   * Nor is an own error whose entry was lost hidden by another rank of the node whose ring holds an entry it has not
   * taken yet: rank 1 (node 0) computes with rank 3's message waiting in its rx ring when rank 0's (node 0) failed PUT
   * to rank 2 comes back with no tx ring to be written into. Before, the endpoint took rank 1's waiting entry for the
   * error's, dropped the error, and rank 0 waited for a reply that never came.
   */
  @Test
  void anOwnLostErrorIsNotHiddenByAnotherRanksWaitingEntry() {
    AriesSystem sys = MpiTesting.smallSystem(4);
    MpiJob job = MpiJob.builder(sys).nodes(0, 5).ranksPerNode(2).build();
    assertThatThrownBy(() -> job.run(mpi -> {
      Rank me = job.rank(mpi.rank());
      switch (mpi.rank()) {
        case 0 -> {
          me.node.translation().deregister(me.txCq.ring().mdh());
          // 5 us: rank 3's message is in rank 1's rx ring (at 3.1 us) before this rank's error comes back
          mpi.compute(5_000_000);
          mpi.send(new byte[8], 2, 0);
          mpi.recv(new byte[8], 2, 0);
        }
        case 1 -> mpi.compute(1_000_000_000L); // no progress: rank 3's message waits in its rx ring
        case 2 -> {
          me.node.nic().deregister(me.mdh); // rank 0's mailbox PUT finds no registration
          mpi.compute(1_000_000_000L);
        }
        default -> {
          mpi.send(new byte[8], 1, 0);
          mpi.compute(1_000_000_000L);
        }
      }
    })).isInstanceOf(ProcessRunner.ProcessFailedException.class)
        .hasStackTraceContaining("a transfer of node 0 failed with INVALID_MDH");
    assertThat(job.rank(1).rxCq.writtenEvents()).isEqualTo(1);
    assertThat(job.rank(0).txCq.lostEvents()).isEqualTo(1);
  }
}
