package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import org.junit.jupiter.api.Test;

/**
 * {@code MPI_MODE_NOPRECEDE} and {@code MPI_MODE_NOSUCCEED} must be given by every rank of a fence or by none (MPI 3.1
 * §11.5.5: "If this assertion is given by any process in the window group, then it must be given by all processes in
 * the group"); {@code MODE_NOSTORE} and {@code MODE_NOPUT} are each rank's own. Ranks that disagree are refused in one
 * line naming the fence, the ranks and their assertions (stop 76); until then they ended in a deadlock report of the
 * fence's internal traffic, or, when nothing waited, in silence.
 */
class MpiFenceAssertionAgreementTest {

  private static Throwable run(int[] assertions) {
    return catchThrowable(() -> MpiTesting.job(MpiTesting.smallSystem(1), assertions.length, MpiConfig.defaults())
        .run(mpi -> {
          Window w = mpi.winCreate(new byte[64], 1, mpi.world());
          mpi.winFence(0, w);
          mpi.winFence(assertions[mpi.rank()], w);
          mpi.winFence(0, w);
        }));
  }

  @Test
  void ranksThatDisagreeOnNoPrecedeAreToldInOneLine() {
    Throwable t = run(new int[] {Mpi.MODE_NOPRECEDE, 0});
    assertThat(t).isInstanceOf(MpiJob.JobFailedException.class);
    // the window's second fence: call 1 on its own communicator (the creation's dup of the world)
    assertThat(t.getMessage()).doesNotContain("\n").isEqualTo(CollectiveLedger.DISAGREEMENT + "1 on the"
        + " communicator of world ranks [0, 1] (MPI requires the same collective calls in the same order, with the"
        + " same root, op and type and matching lengths, and a fence's MPI_MODE_NOPRECEDE and MPI_MODE_NOSUCCEED"
        + " given by all its ranks or none): rank 0 (world rank 0) called win_fence(MPI_MODE_NOPRECEDE) but rank 1"
        + " (world rank 1) called win_fence(0)");
  }

  @Test
  void ranksThatDisagreeOnNoSucceedAreToldInOneLine() {
    Throwable t = run(new int[] {Mpi.MODE_NOSTORE, Mpi.MODE_NOSUCCEED | Mpi.MODE_NOPUT, Mpi.MODE_NOSTORE});
    assertThat(t).isInstanceOf(MpiJob.JobFailedException.class);
    assertThat(t.getMessage()).doesNotContain("\n").endsWith(": rank 0 (world rank 0) called win_fence(0) but"
        + " rank 1 (world rank 1) called win_fence(MPI_MODE_NOSUCCEED)");
  }

  @Test
  void theRanksOwnAssertionsMayDiffer() {
    assertThat(run(new int[] {Mpi.MODE_NOSTORE, Mpi.MODE_NOPUT, 0})).isNull();
    assertThat(run(new int[] {Mpi.MODE_NOPRECEDE | Mpi.MODE_NOSTORE, Mpi.MODE_NOPRECEDE})).isNull();
  }
}
