package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A flush or unlock completes at the target every operation of its epoch (MPI 3.1 §11.5.4), those a flush_local has
 * already sent included: until stop 74 one after a flush_local found nothing queued and returned at once, the target
 * (busy computing, so serving nothing) still holding none of the data.
 */
class MpiOneSidedFlushAfterFlushLocalTest {

  private static MpiJob job(int ranksPerNode) {
    int[] nodes = ranksPerNode == 1 ? new int[] {0, 5} : new int[] {0};
    return MpiJob.builder(MpiTesting.smallSystem(3)).nodes(nodes).ranksPerNode(ranksPerNode).build();
  }

  /** How the origin opens its epoch and which call must complete the flush_local's put at the target. */
  enum Variant {
    LOCK_FLUSH, LOCK_ALL_FLUSH_ALL, NOCHECK_LOCK_UNLOCK, NOCHECK_LOCK_ALL_UNLOCK_ALL, LOCK_UNLOCK
  }

  @ParameterizedTest
  @CsvSource({
      "LOCK_FLUSH, 1", "LOCK_FLUSH, 2",
      "LOCK_ALL_FLUSH_ALL, 1", "LOCK_ALL_FLUSH_ALL, 2",
      "NOCHECK_LOCK_UNLOCK, 1", "NOCHECK_LOCK_UNLOCK, 2",
      "NOCHECK_LOCK_ALL_UNLOCK_ALL, 1", "NOCHECK_LOCK_ALL_UNLOCK_ALL, 2",
      "LOCK_UNLOCK, 1", "LOCK_UNLOCK, 2"})
  void theTargetHoldsTheDataWhenTheCallReturns(Variant v, int ranksPerNode) {
    byte[][] windows = new byte[2][];
    byte[] seen = new byte[4];
    long[] waited = new long[1];
    job(ranksPerNode).run(mpi -> {
      byte[] mem = new byte[64];
      windows[mpi.rank()] = mem;
      Window w = mpi.winCreate(mem, 1, mpi.world());
      mpi.barrier(mpi.world());
      if (mpi.rank() == 0) {
        boolean all = v == Variant.LOCK_ALL_FLUSH_ALL || v == Variant.NOCHECK_LOCK_ALL_UNLOCK_ALL;
        int assertion = v.name().startsWith("NOCHECK") ? Mpi.MODE_NOCHECK : 0;
        if (all) {
          mpi.winLockAll(assertion, w);
        } else {
          mpi.winLock(false, 1, assertion, w);
        }
        mpi.put(new byte[] {5, 6, 7, 8}, 0, 4, 1, 0, w);
        if (all) {
          mpi.winFlushLocalAll(w);
        } else {
          mpi.winFlushLocal(1, w);
        }
        long before = mpi.now();
        switch (v) {
          case LOCK_FLUSH -> mpi.winFlush(1, w);
          case LOCK_ALL_FLUSH_ALL -> mpi.winFlushAll(w);
          case NOCHECK_LOCK_UNLOCK, LOCK_UNLOCK -> mpi.winUnlock(1, w);
          case NOCHECK_LOCK_ALL_UNLOCK_ALL -> mpi.winUnlockAll(w);
        }
        waited[0] = mpi.now() - before;
        System.arraycopy(windows[1], 0, seen, 0, 4);
        if (v == Variant.LOCK_FLUSH) {
          mpi.winUnlock(1, w);
        } else if (v == Variant.LOCK_ALL_FLUSH_ALL) {
          mpi.winUnlockAll(w);
        }
      } else {
        mpi.compute(30_000_000); // in no MPI call: serves nothing for 30 µs
      }
      mpi.barrier(mpi.world());
      mpi.winFree(w);
    });
    assertThat(seen).as("the target's window when the call returned").containsExactly(5, 6, 7, 8);
    assertThat(waited[0]).as("ps the call waited for the computing target").isPositive();
  }
}
