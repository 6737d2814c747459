package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * {@link Mpi#TAG_UB} is MPICH 3.2 CH3's {@code MPI_TAG_UB}, {@code INT_MAX >> 3} = 268,435,455: a message may carry it,
 * and a larger tag is refused in one line by a send, a receive and a probe, as {@code MPIR_ERRTEST_SEND_TAG} and
 * {@code MPIR_ERRTEST_RECV_TAG} refuse it. Until stop 74 the bound was {@code Integer.MAX_VALUE}, from no source, and
 * such tags went through.
 */
class MpiTagUpperBoundTest {

  private static MpiJob twoRanks() {
    return MpiJob.builder(MpiTesting.smallSystem(3)).nodes(0, 5).ranksPerNode(1).build();
  }

  @Test
  void theBoundIsMpichsAndAMessageMayCarryIt() {
    assertThat(Mpi.TAG_UB).isEqualTo(268_435_455);
    int[] got = new int[1];
    twoRanks().run(mpi -> {
      if (mpi.rank() == 0) {
        mpi.send(new byte[8], 0, 8, 1, Mpi.TAG_UB, mpi.world());
      } else {
        got[0] = mpi.recv(new byte[8], 0, 8, 0, Mpi.TAG_UB, mpi.world()).tag();
      }
    });
    assertThat(got[0]).isEqualTo(Mpi.TAG_UB);
  }

  @Test
  void aLargerTagIsRefusedInOneLine() {
    int bad = Mpi.TAG_UB + 1;
    assertThatThrownBy(() -> twoRanks().run(mpi -> mpi.send(new byte[8], 0, 8, 1 - mpi.rank(), bad, mpi.world())))
        .hasStackTraceContaining("tag must be in [0, 268435455] but was 268435456");
    assertThatThrownBy(() -> twoRanks().run(mpi -> mpi.irecv(new byte[8], 0, 8, 1 - mpi.rank(), bad, mpi.world())))
        .hasStackTraceContaining("tag must be in [0, 268435455] or ANY_TAG (-1) but was 268435456");
    assertThatThrownBy(() -> twoRanks().run(mpi -> mpi.iprobe(1 - mpi.rank(), bad, mpi.world())))
        .hasStackTraceContaining("tag must be in [0, 268435455] or ANY_TAG (-1) but was 268435456");
  }
}
