package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.nic.NicStatistics;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.ProcessRunner;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A SHMEM job's puts and atomics carry no notification to their target unless its builder asks for REMOTE events (as
 * Cray SHMEM over DMAPP [S8]), and a PE waiting in {@link Shmem#waitUntil} wakes when its NIC writes the word it tests,
 * from the time the host can see the write.
 */
class ShmemMemoryWaitTest {

  private static AriesSystem system() {
    return AriesSystem.builder().topology(Topologies.ariesSmall(), "small").build();
  }

  /** A 4 KiB put, an atomic add and a {@code putLong} into PE 0's {@code buf}, then a quiet. */
  private static void threeTransactionsToPe0(Shmem pe, Symmetric buf) {
    pe.putmem(buf, 0, buf, 0, 4096, 0);
    pe.atomicAdd(buf, 4096, 1, 0);
    pe.putLong(buf, 4104, 5, 0);
    pe.quiet();
  }

  @Test
  void aDefaultJobsPutsAndAtomicsWriteNothingAtTheirTargetButTheirData() {
    AriesSystem sys = system();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).build();
    Symmetric buf = job.allocate(8192);
    job.run(pe -> {
      if (pe.myPe() == 1) {
        threeTransactionsToPe0(pe, buf);
      }
    });
    NicStatistics target = sys.node(0).nic().statistics();
    // the puts' data (4 KiB and putLong's word, a PUT since stop 68) and the atomic's result (the AMO unit's write,
    // booked on the link since stop 68) and nothing else over the target's host link (until stop 67 two CQ entries of
    // 8 bytes more, the atomics' REMOTE events)
    assertThat(target.hostBytesToNode()).isEqualTo(4096 + 8 + 8);
    assertThat(target.eventsWritten()).isZero();
    assertThat(job.faults()).isZero();

    assertThatThrownBy(() -> job.run(pe -> pe.waitRemoteEvents(1)))
        .isInstanceOf(ProcessRunner.ProcessFailedException.class)
        .hasMessageContaining("waitRemoteEvents needs a job built with ShmemJob.Builder.remoteEvents(true)");
  }

  @Test
  void aRemoteEventsJobStillCountsOneATransaction() {
    AriesSystem sys = system();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).remoteEvents(true).build();
    Symmetric buf = job.allocate(8192);
    long[] seen = {-1};
    job.run(pe -> {
      if (pe.myPe() == 1) {
        threeTransactionsToPe0(pe, buf);
      } else {
        pe.waitRemoteEvents(3);
        seen[0] = pe.remoteEvents();
      }
    });
    assertThat(seen[0]).isEqualTo(3);
    // the puts' data (putLong's word is a PUT's), the atomic's result and its event, 8-byte writes of the host link; a
    // put's event is visible with its data's write
    assertThat(sys.node(0).nic().statistics().hostBytesToNode()).isEqualTo(4096 + 8 + 8 + 8);
    assertThat(sys.node(0).nic().statistics().eventsWritten()).isEqualTo(3);
  }

  /** The waiting PE resumes no sooner than the host can see the word the NIC wrote, and sees the value. */
  @Test
  void waitUntilWakesWhenTheWriteOfItsWordIsVisible() {
    AriesSystem sys = system();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).build();
    Symmetric flag = job.allocate(64);
    List<long[]> writes = new ArrayList<>();
    sys.node(0).nic().addHostWriteProbe((visible, pa, length) -> writes.add(new long[] {visible, pa, length}));
    long[] resumed = new long[2];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.waitUntil(flag, 8, v -> v == 42);
        resumed[0] = pe.now();
        resumed[1] = pe.localLong(flag, 8);
      } else {
        pe.compute(2_000_000);
        pe.putLong(flag, 0, 7, 0); // another word of the same line: tested again, still waiting
        pe.putLong(flag, 8, 42, 0);
        pe.quiet();
      }
    });
    assertThat(writes).hasSize(2);
    long visible = writes.get(1)[0];
    assertThat(resumed[1]).isEqualTo(42);
    // the poll that saw it cost a load of the word (its host-cache latency, under a microsecond)
    assertThat(resumed[0]).isGreaterThanOrEqualTo(visible).isLessThan(visible + 1_000_000);
    assertThat(resumed[0]).isGreaterThan(writes.get(0)[0]);
  }

  /**
   * A test of the condition before the host can see a NIC write, woken by one of the PE's own completions, does not see
   * it (the review of stop 67: the PE resumed 0.7 us before the write was visible). Until stop 69 memory held the
   * bytes from when the NIC made the write and {@code waitUntil} guarded against them; memory now takes them when they
   * are visible.
   */
  @Test
  void waitUntilDoesNotSeeAWriteBeforeTheHostCan() {
    AriesSystem sys = system();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9, 18).build();
    Symmetric flag = job.allocate(8);
    Symmetric buf = job.allocate(64 * 1000);
    List<long[]> writes = new ArrayList<>();
    sys.node(0).nic().addHostWriteProbe((visible, pa, length) -> writes.add(new long[] {visible, pa, length}));
    long[] resumed = new long[1];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        for (int i = 0; i < 2000; i++) { // their GLOBAL events test PE 0's condition again and again
          pe.putmem(buf, 64L * (i % 1000), buf, 0, 64, 2);
        }
        pe.waitUntil(flag, 0, v -> v == 1);
        resumed[0] = pe.now();
        pe.quiet();
      } else if (pe.myPe() == 1) {
        pe.compute(3_000_000);
        pe.putLong(flag, 0, 1, 0);
        pe.quiet();
      }
    });
    assertThat(writes).as("the flag's write, the only one at node 0").hasSize(1);
    assertThat(resumed[0]).isGreaterThanOrEqualTo(writes.get(0)[0]);
  }

  /**
   * A program's own loop on {@link Shmem#localLong} sees a put's word no sooner than the host can (stop 69): until then
   * memory held the NIC's bytes from when it made the write, a host-link crossing early, and such a loop saw them up
   * to about 250 ns before the write was visible (only {@code waitUntil} guarded against it).
   */
  @Test
  void aProgramsOwnPollingLoopDoesNotSeeAPutBeforeItIsVisible() {
    AriesSystem sys = system();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).build();
    Symmetric flag = job.allocate(8);
    List<long[]> writes = new ArrayList<>();
    sys.node(0).nic().addHostWriteProbe((visible, pa, length) -> writes.add(new long[] {visible, pa, length}));
    long[] sawAt = {-1};
    job.run(pe -> {
      if (pe.myPe() == 0) {
        while (pe.localLong(flag, 0) != 9) {
          pe.compute(1_000); // 1 ns a turn: the loop looks every few nanoseconds
        }
        sawAt[0] = pe.now();
      } else {
        pe.compute(1_000_000);
        pe.putLong(flag, 0, 9, 0);
        pe.quiet();
      }
    });
    assertThat(writes).as("the flag's write, the only one at node 0").hasSize(1);
    long visible = writes.get(0)[0];
    assertThat(sawAt[0]).isGreaterThanOrEqualTo(visible);
  }

  /**
   * A PE that begins to wait after its NIC made the write of its word but before the host can see it wakes when the
   * write lands (stop 69's first build left it waiting for ever: the write was announced before it waited, and memory
   * did not hold it yet). The first run finds when the NIC writes and when the write is visible; the second, the same
   * simulation, begins to wait halfway between.
   */
  @Test
  void aWaitBegunWhileTheWriteIsOnItsWayWakesWhenItLands() {
    long[] madeAndVisible = new long[2];
    long[] resumed = waitBegunAt(madeAndVisible, false);
    assertThat(resumed[0]).as("began to wait between the write and its landing")
        .isGreaterThan(madeAndVisible[0]).isLessThan(madeAndVisible[1]);
    // woken when it landed; the poll that saw it cost a load of the word (under a microsecond)
    assertThat(resumed[1]).isGreaterThanOrEqualTo(madeAndVisible[1]).isLessThan(madeAndVisible[1] + 1_000_000);
  }

  /**
   * The same, the wait begun at the very picosecond the write lands, by an event that runs before the landing's (the
   * review of stop 69: the PE read the old value, found the landing not later than now, and waited for ever).
   */
  @Test
  void aWaitBegunAtThePicosecondTheWriteLandsWakes() {
    long[] madeAndVisible = new long[2];
    long[] resumed = waitBegunAt(madeAndVisible, true);
    assertThat(resumed[0]).isEqualTo(madeAndVisible[1]);
    assertThat(resumed[1]).isGreaterThanOrEqualTo(madeAndVisible[1]).isLessThan(madeAndVisible[1] + 1_000_000);
  }

  /**
   * Runs the put twice: the first run finds when the NIC writes the flag and when the write is visible; the second
   * begins PE 0's wait halfway between, or at the visible time.
   *
   * @return when PE 0 began to wait and when it resumed, in the second run
   */
  private static long[] waitBegunAt(long[] madeAndVisible, boolean atLanding) {
    long[] resumed = new long[2];
    for (int run = 0; run < 2; run++) {
      AriesSystem sys = system();
      ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).build();
      Symmetric flag = job.allocate(8);
      List<long[]> writes = new ArrayList<>();
      long[] clockAtWrite = {-1};
      sys.node(0).nic().addHostWriteProbe((visible, pa, length) -> {
        writes.add(new long[] {visible});
        clockAtWrite[0] = sys.scheduler(0).now();
      });
      long waitFrom = atLanding ? madeAndVisible[1] : (madeAndVisible[0] + madeAndVisible[1]) / 2;
      boolean second = run == 1;
      job.run(pe -> {
        if (pe.myPe() == 0) {
          if (second) {
            pe.compute(waitFrom - pe.now());
            resumed[0] = pe.now();
            pe.waitUntil(flag, 0, v -> v == 3);
            resumed[1] = pe.now();
          }
        } else {
          pe.compute(1_000_000);
          pe.putLong(flag, 0, 3, 0);
          pe.quiet();
        }
      });
      assertThat(writes).hasSize(1);
      if (!second) {
        madeAndVisible[0] = clockAtWrite[0];
        madeAndVisible[1] = writes.get(0)[0];
        assertThat(madeAndVisible[1] - madeAndVisible[0]).as("a host-link crossing").isGreaterThan(200_000);
      } else {
        assertThat(clockAtWrite[0]).isEqualTo(madeAndVisible[0]);
      }
    }
    return resumed;
  }

  /**
   * {@code putLong} is Cray's {@code shmem_long_p}, an 8-byte PUT (stop 68; a non-fetching SWAP before): the target's
   * AMO unit never sees it, and its word is visible without the AMO unit's host read of the old value.
   */
  @Test
  void putLongIsAPutNotAnAtomic() {
    long[] putLong = visibleAfterPosting(false);
    long[] swap = visibleAfterPosting(true);
    assertThat(putLong[1]).as("AMOs executed at the target").isZero();
    assertThat(swap[1]).isEqualTo(1);
    // the swap's value can be written only after the AMO unit's read of the old one (hostReadLatencyPs, 500 ns, and
    // 3.5 ns on the host link) and its cycles (10 ns); 3 ns more come from the two requests' other differences (the
    // AMO's packet carries two operands). Both cost the CPU the post alone (the value put is the doorbell's [S7]).
    assertThat(swap[0] - putLong[0]).isEqualTo(516_500);
  }

  /**
   * PE 1 sets PE 0's word by putLong, or by a non-fetching SWAP: picoseconds from the call to the write's visibility,
   * and the AMOs the target executed.
   */
  private static long[] visibleAfterPosting(boolean swap) {
    AriesSystem sys = system();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).build();
    Symmetric flag = job.allocate(8);
    List<Long> visible = new ArrayList<>();
    sys.node(0).nic().addHostWriteProbe((at, pa, length) -> visible.add(at));
    long[] called = new long[1];
    job.run(pe -> {
      if (pe.myPe() == 1) {
        called[0] = pe.now();
        if (swap) {
          pe.atomic(io.github.ariesmodel.core.AmoOperation.of(io.github.ariesmodel.core.AmoKind.SWAP, false, 64), flag,
              0, 9, 0, 0);
        } else {
          pe.putLong(flag, 0, 9, 0);
        }
        pe.quiet();
      } else {
        pe.waitUntil(flag, 0, v -> v == 9);
      }
    });
    assertThat(visible).hasSize(1);
    return new long[] {visible.get(0) - called[0], sys.node(0).nic().statistics().amosExecuted()};
  }

  @Test
  void waitUntilOnAPutsLastWordAndASoftwareBarrierNeedNoRemoteEvents() {
    AriesSystem sys = system();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9, 18, 27).build();
    Symmetric buf = job.allocate(1 << 16);
    long[] got = new long[4];
    job.run(pe -> {
      int next = (pe.myPe() + 1) % pe.nPes();
      pe.localLong(buf, 32768 - 8, 100 + pe.myPe());
      pe.barrierAll();
      pe.putmem(buf, 32768, buf, 0, 32768, next); // its last word is the sender's 100 + its index
      int prev = (pe.myPe() + pe.nPes() - 1) % pe.nPes();
      pe.waitUntil(buf, 65536 - 8, v -> v == 100 + prev);
      got[pe.myPe()] = pe.localLong(buf, 65536 - 8);
      pe.barrierAll();
    });
    assertThat(got).containsExactly(103, 100, 101, 102);
    for (int node : new int[] {0, 9, 18, 27}) {
      assertThat(sys.node(node).nic().statistics().eventsWritten()).as("node %s", node)
          // a GLOBAL event a post and a LOCAL one for the putmem (it waits for its source to be read, since stop 74),
          // nothing at the targets
          .isEqualTo(sys.node(node).nic().statistics().posts() + 1);
    }
  }
}
