package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A buffered send first makes a progress pass over the buffered sends still in flight and takes back the space of
 * those that have completed, as MPICH's {@code MPIR_Bsend_isend} calls {@code MPIR_Bsend_check_active}: with room for
 * one 20,000-byte message attached, a second bsend made long after the receiver took the first finds room. Until stop
 * 74 it failed with {@code MPI_ERR_BUFFER} ("only 0 of the 20096 attached are free"), no progress pass having seen the
 * first send complete.
 */
class MpiBsendCheckActiveTest {

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void aSecondBsendFindsTheRoomTheFirstGaveBack(int ranksPerNode) {
    int[] nodes = ranksPerNode == 1 ? new int[] {0, 5} : new int[] {0};
    byte[][] got = new byte[2][];
    MpiJob.builder(MpiTesting.smallSystem(3)).nodes(nodes).ranksPerNode(ranksPerNode).build().run(mpi -> {
      if (mpi.rank() == 0) {
        mpi.bufferAttach(20_000 + Mpi.BSEND_OVERHEAD);
        byte[] a = new byte[20_000];
        Arrays.fill(a, (byte) 1);
        mpi.bsend(a, 0, a.length, 1, 1, mpi.world());
        mpi.compute(50_000_000); // the receiver matches the first and takes its data meanwhile
        byte[] b = new byte[20_000];
        Arrays.fill(b, (byte) 2);
        mpi.bsend(b, 0, b.length, 1, 2, mpi.world());
        mpi.bufferDetach();
      } else {
        got[0] = new byte[20_000];
        got[1] = new byte[20_000];
        mpi.recv(got[0], 0, 20_000, 0, 1, mpi.world());
        mpi.recv(got[1], 0, 20_000, 0, 2, mpi.world());
      }
    });
    assertThat(got[0]).containsOnly(1);
    assertThat(got[1]).containsOnly(2);
  }
}
