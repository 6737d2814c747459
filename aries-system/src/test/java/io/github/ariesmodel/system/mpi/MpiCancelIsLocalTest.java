package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code MPI_Cancel} is local (MPI 3.1 §3.8.4): with every mailbox credit to the receiver in use and the receiver
 * computing, cancelling a rendezvous send returns at once; its request goes once a credit comes back, as CH3's
 * iStartMsg queues a packet it cannot send yet, and the send still completes as cancelled. Until stop 74 the call
 * waited for the credit, until the receiver stopped computing.
 */
class MpiCancelIsLocalTest {

  @Test
  void cancelReturnsBeforeTheBusyReceiverGivesACreditBack() {
    long[] cancel = new long[2];
    long[] receiverFree = new long[1];
    boolean[] cancelled = new boolean[1];
    int slots = MpiConfig.defaults().mailboxSlots();
    MpiJob.builder(MpiTesting.smallSystem(3)).nodes(0, 5).ranksPerNode(1).build().run(mpi -> {
      if (mpi.rank() == 0) {
        for (int i = 0; i < slots - 1; i++) {
          mpi.send(new byte[8], 0, 8, 1, 1, mpi.world());
        }
        Request r = mpi.isend(new byte[20_000], 0, 20_000, 1, 2, mpi.world()); // the last credit
        cancel[0] = mpi.now();
        mpi.cancel(r);
        cancel[1] = mpi.now();
        mpi.wait(r);
        cancelled[0] = r.isCancelled();
      } else {
        mpi.compute(50_000_000);
        receiverFree[0] = mpi.now();
        for (int i = 0; i < slots - 1; i++) {
          mpi.recv(new byte[8], 0, 8, 0, 1, mpi.world());
        }
      }
    });
    assertThat(cancel[1]).as("when the cancel returned (it began at %s ps)", cancel[0])
        .isLessThan(receiverFree[0]);
    assertThat(cancelled[0]).as("the send completed as cancelled").isTrue();
  }
}
