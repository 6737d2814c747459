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

  /**
   * A fetching atomic or a get whose answer comes while its PE is still held in the post's stores (here by an
   * operating-system detour longer than the round trip) is still the answer the PE waits for: the PE registered the
   * post before making it. `run gups -p fetching=true -p osNoise=period=1ms,detour=25us` deadlocked ("32 PEs still
   * waiting") when the registration came after the post.
   */
  @Test
  void anAnswerThatComesWhileThePeIsHeldInItsPostIsKept() {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small")
        .osNoise(io.github.ariesmodel.system.process.OsNoise.parse("period=10us,detour=4us,phase=aligned")).build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).build();
    Symmetric buf = job.allocate(4096);
    long[] sum = new long[2];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        for (int k = 0; k < 100; k++) {
          // post 50 ns before a detour begins (every 10 us from 0), so the post's 133-ns stores run into the detour
          // and hold the PE until it ends, 4 us later: the answer comes meanwhile, about 1.4 us after the post
          pe.compute(Math.floorMod(9_950_000L - pe.now(), 10_000_000L));
          sum[0] += pe.atomicFetchAdd(buf, 0, 1, 1);
          pe.compute(Math.floorMod(9_950_000L - pe.now(), 10_000_000L));
          pe.getmem(buf, 64, buf, 0, 8, 1); // the counter's value, fetched back into this PE's buf at 64
          sum[1] = pe.localLong(buf, 64);
        }
      }
    });
    // the fetches returned 0, 1, ..., 99 in turn, and the last get read the counter after the last add
    assertThat(sum[0]).isEqualTo(99L * 100 / 2);
    assertThat(sum[1]).isEqualTo(100);
  }
}
