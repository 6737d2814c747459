package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * An {@code MPI_Win_unlock} whose operations a flush has already confirmed sends its unlock without asking for an
 * answer, and returns without waiting for one: MPICH CH3's {@code issue_ops_target} sends it with {@code
 * MPIDI_CH3_PKT_FLAG_RMA_UNLOCK_NO_ACK} when {@code num_ops_flush_not_issued} is 0 ({@code ch3u_rma_progress.c}), and
 * the target's {@code MPIDI_CH3_PktHandler_Unlock} releases the lock and answers nothing then
 * ({@code ch3u_rma_pkthandler.c}). Until stop 76 such an unlock waited for the target's answer, a round trip.
 */
class MpiUnlockWithoutAckTest {

  private static final int REPEATS = 3;

  @Test
  void anUnlockAfterAFlushAsksForNoAnswerAndTheLockIsReleasedAllTheSame() {
    long[] flushPs = new long[1];
    long[] unlockPs = new long[1];
    long[] answers = new long[3];
    byte[] seen = new byte[8];
    MpiTesting.job(MpiTesting.smallSystem(3), 3, MpiConfig.defaults()).run(mpi -> {
      byte[] mem = new byte[64];
      Window w = mpi.winCreate(mem, 1, mpi.world());
      if (mpi.rank() == 0) {
        for (int i = 0; i < REPEATS; i++) {
          mpi.winLock(true, 1, 0, w);
          mpi.put(new byte[] {(byte) (i + 1)}, 0, 1, 1, i, w);
          long t = mpi.now();
          mpi.winFlush(1, w);
          flushPs[0] = mpi.now() - t;
          t = mpi.now();
          mpi.winUnlock(1, w); // every operation confirmed: no answer awaited
          unlockPs[0] = mpi.now() - t;
        }
      }
      mpi.barrier(mpi.world());
      if (mpi.rank() == 2) {
        // the unlocks reached rank 1 and released its lock: an exclusive lock is granted, and the puts are there
        mpi.winLock(true, 1, 0, w);
        mpi.get(seen, 0, 8, 1, 0, w);
        mpi.winUnlock(1, w); // a GET not confirmed by a flush: this unlock waits for its answer
      }
      mpi.barrier(mpi.world());
      answers[mpi.rank()] = ((Rank) mpi).oneSided.answers();
      mpi.winFree(w);
    });
    assertThat(seen).startsWith(1, 2, 3);
    // rank 1 answered each of rank 0's locks and flushes, rank 2's lock and its unlock: no answer to rank 0's unlocks
    assertThat(answers[1]).isEqualTo(2L * REPEATS + 2);
    assertThat(unlockPs[0]).as("the unlock's time, ps, against its flush's round trip %s ps", flushPs[0])
        .isLessThan(flushPs[0] / 2);
  }
}
