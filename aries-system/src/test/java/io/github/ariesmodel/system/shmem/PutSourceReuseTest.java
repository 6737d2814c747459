package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.AriesSystem;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@link Shmem#putmem} returns when its source may be reused, as OpenSHMEM's {@code shmem_putmem} "returns after the
 * data has been copied out of the source array on the local PE": a store into the source after the call does not
 * change what lands. Until stop 74 it returned once posted and the NIC, which reads a put's source as each packet
 * issues (an FMA PUT's too), sent the later bytes. {@link Shmem#putmemNbi} keeps that: the source must not change
 * before the quiet.
 */
class PutSourceReuseTest {

  private static byte[] filled(int length, int value) {
    byte[] b = new byte[length];
    Arrays.fill(b, (byte) value);
    return b;
  }

  /** What PE 1 holds after PE 0 puts {@code size} bytes of 1s and then, before its quiet, stores 2s into the source. */
  private static byte[] landed(int size, boolean nbi, long[] returnedAfterPs) {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").seed(1).build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).build();
    Symmetric src = job.allocate(size);
    Symmetric dst = job.allocate(size);
    byte[][] got = new byte[1][];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.localBytes(src, 0, filled(size, 1));
        long t0 = pe.now();
        if (nbi) {
          pe.putmemNbi(dst, 0, src, 0, size, 1);
        } else {
          pe.putmem(dst, 0, src, 0, size, 1);
        }
        returnedAfterPs[0] = pe.now() - t0;
        pe.localBytes(src, 0, filled(size, 2)); // the source reused after the call, as shmem_putmem allows
        pe.quiet();
      }
      pe.barrierAll();
      if (pe.myPe() == 1) {
        got[0] = pe.localBytes(dst, 0, size);
      }
    });
    return got[0];
  }

  /** FMA puts (8 bytes, 1 KiB) and BTE puts (4 KiB, 64 KiB: DMAPP's 4 KiB cut-over) alike. */
  @Test
  void aSourceStoredIntoAfterPutmemReturnsDoesNotChangeWhatLands() {
    for (int size : new int[] {8, 1024, 4096, 65536}) {
      long[] blocking = new long[1];
      assertThat(landed(size, false, blocking)).as("%s bytes", size).isEqualTo(filled(size, 1));
      long[] nbi = new long[1];
      landed(size, true, nbi);
      assertThat(blocking[0]).as("%s bytes: putmem waits past the post's own time", size).isGreaterThan(nbi[0]);
    }
  }

  /** putmemNbi returns once posted: a source changed before the quiet is what the NIC reads (the call's contract). */
  @Test
  void putmemNbiReadsTheSourceAfterItReturns() {
    assertThat(landed(65536, true, new long[1])).isEqualTo(filled(65536, 2));
  }
}
