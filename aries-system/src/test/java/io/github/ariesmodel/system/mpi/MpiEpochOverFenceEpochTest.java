package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A lock, lock-all or start epoch opened over a fence epoch that still has operations (erroneous: a fence must end
 * them, MPI 3.1 §11.5) is refused in one {@code MPI_ERR_RMA_SYNC} line and changes nothing: the fence that follows
 * still completes the fence epoch's put. Until stop 74 a lock dropped the put in silence, a lock-all ended in a
 * deadlock report and a start sent the put to a rank in no epoch.
 */
class MpiEpochOverFenceEpochTest {

  @ParameterizedTest
  @ValueSource(strings = {"winLock", "winLockAll", "winStart"})
  void isRefusedAndTheFenceEpochGoesOn(String call) {
    byte[][] windows = new byte[3][];
    String[] refusal = new String[1];
    MpiJob.builder(MpiTesting.smallSystem(3)).nodes(0, 5, 10).ranksPerNode(1).build().run(mpi -> {
      byte[] mem = new byte[64];
      windows[mpi.rank()] = mem;
      Window w = mpi.winCreate(mem, 1, mpi.world());
      mpi.winFence(0, w);
      if (mpi.rank() == 0) {
        mpi.put(new byte[] {11}, 0, 1, 1, 0, w);
        try {
          switch (call) {
            case "winLock" -> mpi.winLock(true, 1, 0, w);
            case "winLockAll" -> mpi.winLockAll(0, w);
            default -> mpi.winStart(new int[] {2}, 0, w);
          }
        } catch (IllegalStateException e) {
          refusal[0] = e.getMessage();
        }
      }
      mpi.winFence(Mpi.MODE_NOSUCCEED, w);
      mpi.winFree(w);
    });
    assertThat(refusal[0]).isEqualTo("MPI_ERR_RMA_SYNC at rank 0: " + call + " on window #0 inside a fence epoch"
        + " with operations to rank 1 no fence has completed (call winFence first)");
    assertThat(windows[1][0]).as("the fence epoch's put, completed by the next fence").isEqualTo((byte) 11);
  }
}
