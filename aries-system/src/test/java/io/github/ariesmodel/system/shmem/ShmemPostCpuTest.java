package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.nic.NicTiming;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.network.Topologies;
import org.junit.jupiter.api.Test;

/**
 * A PE's core is busy with a post's stores into the FMA window until they are done (stop 70): posting is CPU time of
 * the posting process, 133.334 ns a post (S1 p.23's 7.5 M requests/s a core), not time the NIC books beside a process
 * that goes on at once.
 */
class ShmemPostCpuTest {

  @Test
  void aPeIsBusyForEachOfItsPosts() {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).build();
    Symmetric buf = job.allocate(4096);
    long[] took = new long[1];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        long start = pe.now();
        for (int k = 0; k < 10; k++) {
          pe.putLong(buf, 8L * k, k, 1); // a value put: the doorbell's own put, no data line to store (docs/nic.md)
        }
        took[0] = pe.now() - start;
      }
    });
    // ten posts, one after the other on the PE's own descriptor: 10 x 133.334 ns (0 on the code before: the PE went on
    // at once)
    assertThat(took[0]).isEqualTo(10 * NicTiming.DEFAULT_FMA_POST_PS).isEqualTo(1_333_340);
  }
}
