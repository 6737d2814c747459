package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.system.process.ProcessRunner;
import org.junit.jupiter.api.Test;

/**
 * A collective's blocking send to the rank itself fails the rank at once, in one line, as a blocking
 * {@code MPI_Send} to itself with no receive posted does ({@code MpiSelfSendTest}; MPICH's {@code MPIC_Send} calls
 * {@code MPID_Send}, which makes the same {@code **dev|selfsenddeadlock} check). No algorithm of {@link Collectives}
 * sends to its own rank (each copies its own block locally), so such a send is a defect of the model's algorithm; it
 * used to wait for a receive the rank, blocked in it, could never post, and was reported only as a deadlock once
 * every other rank was done.
 */
class MpiCollectiveSelfSendTest {

  @Test
  void aCollectivesBlockingSendToItselfFailsAtOnceInOneLine() {
    MpiJob job = MpiJob.builder(MpiTesting.smallSystem(12)).nodes(2, 60).build();
    assertThatThrownBy(() -> job.run(mpi -> {
      if (mpi.rank() == 0) {
        mpi.compute(1_000_000_000); // 1 ms: rank 1 fails long before this rank is done
        return;
      }
      job.rank(1).collectives.send(mpi.world(), new byte[8], 0, 8, 1, 3);
    })).isInstanceOfSatisfying(ProcessRunner.ProcessFailedException.class, e -> {
      assertThat(e.processName()).isEqualTo("rank1");
      assertThat(e.timePs()).isLessThan(1_000_000_000);
      assertThat(e.getMessage()).doesNotContain("\n").contains("MPI_ERR_OTHER at rank 1: DEADLOCK: a collective's"
          + " MPIC_Send to itself (on the world communicator) with no matching receive posted before it (MPICH's"
          + " **dev|selfsenddeadlock; ");
    });
  }
  /**
   * With a matching receive posted before it, in the collective context, the send to itself completes with its data
   * at once, as {@code MPI_Send}'s does: the check fails only the send no receive can take.
   */
  @Test
  void aCollectivesSendToItselfWithAReceivePostedCompletes() {
    MpiJob job = MpiJob.builder(MpiTesting.smallSystem(13)).nodes(2).build();
    byte[] got = new byte[8];
    boolean[] received = new boolean[1];
    job.run(mpi -> {
      Rank me = job.rank(0);
      Communicator w = mpi.world();
      Request r = me.postReceive(got, 0, 8, 0, 3 + w.tagBase(), w.collectiveContext(), w);
      me.collectives.send(w, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, 0, 8, 0, 3);
      received[0] = r.isComplete();
    });
    assertThat(received[0]).isTrue();
    assertThat(got).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
  }
}
