package io.github.ariesmodel.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.iommu.spi.ReplacementPolicy;
import io.github.ariesmodel.iommu.spi.ReplacementPolicyFactory;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * After an event of a run fails (here a user's replacement policy throws once, inside a NIC's translation), the
 * system refuses its next job in one line naming that failure. Before, the failed translation never completed, and
 * the next job, with the policy behaving, waited for it and was reported as "SHMEM program deadlocked". A PE's own
 * exception is not an event's: the next job runs.
 */
class FailedRunTest {

  /** Evicts the lowest candidate; keeps no state. */
  private static class Lowest implements ReplacementPolicy {
    @Override
    public void onAccess(int set, int way) {}

    @Override
    public void onFill(int set, int way) {}

    @Override
    public void onInvalidate(int set, int way) {}

    @Override
    public int victim(int set, long candidates) {
      return Long.numberOfTrailingZeros(candidates);
    }
  }

  /** Two ways of one PTE each: nearly every translation misses and fills. */
  private static AriesSystem system(ReplacementPolicyFactory policy) {
    return AriesSystem.builder().topology(Topologies.ariesSmall(), "small")
        .iommu(IommuConfig.builder().ways(2).sets(1).ptesPerLine(1).policy(policy).build()).build();
  }

  /** 200 puts over 1,000 pages from PE 0 to PE 1; @return PE 1's sum of them (20,100) */
  private static long puts(AriesSystem sys, boolean peFails) {
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).build();
    Symmetric t = job.allocate(1L << 22);
    long[] sum = new long[1];
    job.run(pe -> {
      if (peFails && pe.myPe() == 1) {
        throw new IllegalStateException("the program's own bug");
      }
      if (pe.myPe() == 0) {
        for (int i = 0; i < 200; i++) {
          pe.putLong(t, 4096L * (i * 7 % 1000), i + 1, 1);
        }
        pe.quiet();
      }
      pe.barrierAll();
      if (pe.myPe() == 1) {
        for (int i = 0; i < 1000; i++) {
          sum[0] += pe.localLong(t, 4096L * i);
        }
      }
    });
    return sum[0];
  }

  @Test
  void aSystemWhoseEventFailedRefusesItsNextJobNamingTheFailure() {
    AtomicInteger fills = new AtomicInteger();
    AriesSystem sys = system((sets, ways, seed) -> new Lowest() {
      @Override
      public void onFill(int set, int way) {
        if (fills.getAndIncrement() == 3) {
          throw new IllegalStateException("a user's policy bug, once");
        }
      }
    });
    assertThatThrownBy(() -> puts(sys, false)).hasMessage("a user's policy bug, once");
    assertThatThrownBy(() -> puts(sys, false)).isInstanceOf(IllegalStateException.class)
        .hasMessage("system small cannot run again: an event failed in an earlier run (java.lang.IllegalStateException:"
            + " a user's policy bug, once), which leaves its NICs, IOMMUs and fabric with work half done; build a new"
            + " system");
    assertThat(sys.loop().handlerFailure()).hasMessage("a user's policy bug, once");
  }

  @Test
  void aProgramsOwnFailureLeavesTheSystemUsable() {
    AriesSystem sys = system((sets, ways, seed) -> new Lowest());
    assertThatThrownBy(() -> puts(sys, true)).hasMessageContaining("the program's own bug");
    assertThat(sys.loop().handlerFailure()).isNull();
    assertThat(puts(sys, false)).isEqualTo(20_100);
    assertThat(puts(sys, false)).isEqualTo(20_100);
  }
  /**
   * A failed run leaves its posts in flight, and they finish in the system's next run, but their completion events are
   * not the next job's: until stop 67 both jobs numbered their posts from 1, the old posts' GLOBAL events reached the
   * NIC's listener, which the new job had taken, and counted as the new job's, so its quiet returned when the first
   * old post completed, before its own put had.
   */
  @Test
  void aFailedRunsPostsInFlightDoNotCompleteTheNextJobsPosts() {
    AriesSystem fresh = system((sets, ways, seed) -> new Lowest());
    long alone = onePutAndQuiet(fresh);
    AriesSystem sys = system((sets, ways, seed) -> new Lowest());
    assertThatThrownBy(() -> puts(sys, true)).hasMessageContaining("the program's own bug");
    // the 200 puts the failed run left in flight are ahead of this one on PE 0's NIC: its quiet waits for them
    assertThat(onePutAndQuiet(sys)).isGreaterThan(alone);
  }

  /**
   * Nor do their REMOTE events count as the next job's: they land in the failed job's queue, which its registrations
   * name, and a PE counts the events of its own queue (the review of stop 67: 92 of the failed run's 200 were counted).
   */
  @Test
  void aFailedRunsRemoteEventsAreNotTheNextJobs() {
    AriesSystem sys = system((sets, ways, seed) -> new Lowest());
    ShmemJob failed = ShmemJob.builder(sys).nodes(0, 9).remoteEvents(true).build();
    Symmetric t = failed.allocate(1L << 22);
    assertThatThrownBy(() -> failed.run(pe -> {
      if (pe.myPe() == 1) {
        throw new IllegalStateException("the program's own bug");
      }
      for (int i = 0; i < 200; i++) {
        pe.putLong(t, 4096L * i, i + 1, 1);
      }
      pe.quiet();
    })).hasMessageContaining("the program's own bug");
    ShmemJob next = ShmemJob.builder(sys).nodes(0, 9).remoteEvents(true).build();
    long[] counted = new long[1];
    next.run(pe -> {
      if (pe.myPe() == 1) {
        pe.compute(400_000_000); // long enough for every put left in flight to land
        counted[0] = pe.remoteEvents();
      }
    });
    assertThat(counted[0]).isZero();
  }

  /** @return the time a job's PE 0 takes to put one word to PE 1 and quiet it */
  private static long onePutAndQuiet(AriesSystem sys) {
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).build();
    Symmetric t = job.allocate(8);
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.putLong(t, 0, 1, 1);
        pe.quiet();
      }
    });
    return job.lastRunPs();
  }

  /**
   * A PE's own wait predicate that throws fails its job, and the system runs on: the predicate is checked in the
   * event that wakes the PE too, and its exception there left that event, so the system took it for an event's
   * failure and refused every later job (found by this stop's review).
   */
  @Test
  void aPesOwnWaitPredicateThatThrowsLeavesTheSystemUsable() {
    AriesSystem sys = system((sets, ways, seed) -> new Lowest());
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).build();
    Symmetric t = job.allocate(8);
    assertThatThrownBy(() -> job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.putLong(t, 0, 5, 1);
        pe.quiet();
      } else {
        pe.waitUntil(t, 0, v -> {
          if (v != 0) {
            throw new IllegalStateException("the PE's own predicate bug");
          }
          return false;
        });
      }
    })).hasStackTraceContaining("the PE's own predicate bug");
    assertThat(sys.loop().handlerFailure()).isNull();
    assertThat(puts(sys, false)).isEqualTo(20_100);
  }
}
