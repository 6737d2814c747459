package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.AriesSystem;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * On-node puts and gets ({@link ShmemJob.Builder#sharedMemory(boolean)}) against a plain model: without a host cache a
 * copy costs its bytes at the copy rate and nothing else ({@code ceil(bytes × 1e12 / rate)} picoseconds), the target
 * holds exactly the source's bytes at the offsets given, and the NIC posts nothing.
 */
class ShmemOnNodeProperties {

  private static final int OBJECT = 96 * 1024;

  @Test
  void aPutOrGetOnOneNodeMovesTheBytesInTheCopysTime() {
    qt().withExamples(40).forAll(integers().between(1, 64 * 1024), integers().between(0, 32 * 1024),
            integers().between(0, 32 * 1024), longs().between(1_000_000_000L, 100_000_000_000L))
        .checkAssert((length, srcOffset, destOffset, rate) -> {
          check(length, srcOffset, destOffset, rate, true);
          check(length, srcOffset, destOffset, rate, false);
        });
  }

  private static void check(int length, int srcOffset, int destOffset, long rate, boolean put) {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").noHostCache().seed(5).build();
    ShmemJob job = ShmemJob.builder(sys).nodes(3, 40).pesPerNode(3).memcpyBytesPerSecond(rate).build();
    Symmetric src = job.allocate(OBJECT);
    Symmetric dest = job.allocate(OBJECT);
    byte[] data = new byte[OBJECT];
    new Random(length * 31L + srcOffset).nextBytes(data);
    byte[][] seen = new byte[1][];
    long[] took = {-1};
    job.run(pe -> {
      // PE 4 (the second node's middle PE) and PE 5 (its last): PE 4 puts to PE 5, or gets from it
      if (pe.myPe() == (put ? 4 : 5)) {
        pe.localBytes(src, 0, data);
      }
      pe.barrierAll();
      if (pe.myPe() == 4) {
        long t0 = pe.now();
        if (put) {
          pe.putmem(dest, destOffset, src, srcOffset, length, 5);
        } else {
          pe.getmem(dest, destOffset, src, srcOffset, length, 5);
        }
        took[0] = pe.now() - t0;
      }
      pe.barrierAll();
      if (pe.myPe() == (put ? 5 : 4)) {
        seen[0] = pe.localBytes(dest, 0, OBJECT);
      }
    });
    long posts = sys.node(40).nic().statistics().posts();
    assertThat(took[0]).as("%s of %s bytes at %s B/s", put ? "put" : "get", length, rate)
        .isEqualTo((long) Math.ceil(length * 1e12 / rate));
    byte[] expected = new byte[OBJECT];
    System.arraycopy(data, srcOffset, expected, destOffset, length);
    assertThat(seen[0]).isEqualTo(expected);
    assertThat(job.onNodeCopies()).isEqualTo(1);
    // the software barriers' atomics are the node's only posts: 2 barriers, 3 PEs, log2(6) rounded up = 3 rounds
    assertThat(posts).isEqualTo(2 * 3 * 3);
  }
}
