package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.AriesSystem;
import org.junit.jupiter.api.Test;

/**
 * {@link Shmem#barrierAll()} is the library's synchronisation, not the program's RMA: in a job built with {@code
 * remoteEvents(true)} its atomics write no REMOTE event into the count a program waits on (until stop 74 the software
 * barrier's did, and a {@code waitRemoteEvents(1)} after a barrier returned before the one put it waited for).
 */
class BarrierRemoteEventsTest {

  private static AriesSystem system() {
    return AriesSystem.builder().topology(Topologies.ariesSmall(), "small").seed(1).build();
  }

  /** PE 1 waits for the one put PE 0 makes after a barrier, with a software and with an engine barrier. */
  @Test
  void aWaitForOneRemoteEventAfterABarrierWaitsForThePut() {
    for (int radix : new int[] {0, 2}) {
      ShmemJob.Builder b = ShmemJob.builder(system()).nodes(0, 1).remoteEvents(true);
      if (radix > 0) {
        b.collectiveEngine(radix);
      }
      ShmemJob job = b.build();
      Symmetric buf = job.allocate(8);
      long[] seen = {-1, -1, -1};
      job.run(pe -> {
        pe.barrierAll();
        if (pe.myPe() == 0) {
          pe.compute(10_000_000);
          pe.putLong(buf, 0, 42, 1);
          pe.quiet();
        } else {
          seen[0] = pe.remoteEvents(); // after the barrier: none of its atomics counts
          pe.waitRemoteEvents(1);
          seen[1] = pe.localLong(buf, 0);
          seen[2] = pe.remoteEvents();
        }
      });
      assertThat(seen).as("collective engine radix %s (0: software barrier)", radix).containsExactly(0, 42, 1);
    }
  }

  /**
   * Barriers of eight PEs take the same time whether the job asks for REMOTE events or not, and leave no REMOTE event
   * at any PE: the barrier's atomics ask for none either way.
   */
  @Test
  void barriersTakeTheSameTimeAndCountNoEventWhateverRemoteEvents() {
    long[] ps = new long[2];
    for (int on = 0; on < 2; on++) {
      ShmemJob job = ShmemJob.builder(system()).nodes(0, 1, 2, 3, 9, 10, 11, 12).remoteEvents(on == 1).build();
      long[] events = new long[job.nPes()];
      boolean counts = on == 1;
      job.run(pe -> {
        for (int i = 0; i < 3; i++) {
          pe.barrierAll();
        }
        events[pe.myPe()] = counts ? pe.remoteEvents() : 0;
      });
      ps[on] = job.lastRunPs();
      assertThat(events).as("remoteEvents %s", counts).containsOnly(0L);
    }
    assertThat(ps[0]).isPositive();
    assertThat(ps[1]).as("three barriers with remoteEvents(true), ps").isEqualTo(ps[0]);
  }
}
