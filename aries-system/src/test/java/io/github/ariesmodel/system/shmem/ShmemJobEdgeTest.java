package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AmoKind;
import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.spi.HostCacheStatistic;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.ProcessRunner;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShmemJobEdgeTest {

  private static ShmemJob job(int... nodes) {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").build();
    return ShmemJob.builder(sys).nodes(nodes).build();
  }

  /** Memory domains valid on a node's IOMMU. */
  private static long validMdds(AriesSystem sys, int node) {
    var iommu = sys.node(node).iommu().orElseThrow();
    return java.util.stream.IntStream.range(0, 4096).filter(m -> iommu.descriptor(m).map(d -> d.valid()).orElse(false))
        .count();
  }

  @Test
  void anAllocationOneNodeRefusesIsUndoneOnTheOthersAndTheJobStaysUsable() {
    AriesSystem sys = AriesSystem.builder().system("aries-small").nodeMemoryBytes(64L << 20).build();
    ShmemJob.builder(sys).nodes(5).build().allocate(40L << 20); // node 5 has about 24 MiB left
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 5).build();
    long before = validMdds(sys, 0);
    assertThatThrownBy(() -> job.allocate(40L << 20)).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("allocate of 41943040 bytes a PE was refused on PE 1 (node 5); its registrations on"
            + " PEs 0-0 were undone: ")
        .hasMessageContaining("physical memory exhausted");
    assertThat(validMdds(sys, 0)).as("node 0 keeps no registration of the refused object").isEqualTo(before);
    Symmetric small = job.allocate(4096);
    long[] seen = {0};
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.put(small, 0, new byte[] {7}, 1);
        pe.quiet();
      }
      pe.barrierAll();
      if (pe.myPe() == 1) {
        seen[0] = pe.localBytes(small, 0, 1)[0];
      }
    });
    assertThat(seen[0]).isEqualTo(7);
    assertThatThrownBy(() -> job.allocate(Long.MAX_VALUE)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bytes must be in [1, 2^40] (a registration's longest) but was " + Long.MAX_VALUE);
  }

  @Test
  void nullBuffersAndConditionsAreNamedFromInsideAProgram() {
    for (int k = 0; k < 2; k++) {
      ShmemJob job = job(0, 9);
      Symmetric buf = job.allocate(64);
      boolean buffer = k == 0;
      assertThatThrownBy(() -> job.run(pe -> {
        if (buffer) {
          pe.localBytes(buf, 0, (byte[]) null);
        } else {
          pe.waitUntil(buf, 0, null);
        }
      })).isInstanceOf(ProcessRunner.ProcessFailedException.class)
          .hasRootCauseInstanceOf(IllegalArgumentException.class)
          .hasRootCauseMessage(buffer ? "data must not be null" : "condition must not be null");
    }
    ShmemJob job = job(0, 9);
    assertThatThrownBy(() -> job.run(pe -> pe.waitRemoteEvents(-5)))
        .isInstanceOf(ProcessRunner.ProcessFailedException.class).hasRootCauseMessage("count must be >= 0 but was -5");
  }

  /**
   * One faulted put is one fault, whatever its size (stop 64's fault hunt): a large put's LOCAL event carried the
   * error response's fault too when that came back before its last request left, and both events were counted.
   */
  @Test
  void oneFaultedPutIsCountedOnceWhateverItsSize() {
    for (int size : new int[] {8, 4096, 64 * 1024}) {
      AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "aries-small").seed(1).build();
      ShmemJob job = ShmemJob.builder(sys).nodes(0, 1).build();
      Symmetric obj = job.allocate(1 << 17);
      sys.node(1).nic().deregister(obj.mdh(1));
      job.run(pe -> {
        if (pe.myPe() == 0) {
          pe.put(obj, 0, new byte[size], 1);
          pe.quiet();
        }
      });
      assertThat(job.faults()).as("%s bytes", size).isEqualTo(1);
      assertThat(job.firstFault()).as("%s bytes", size).isEqualTo(io.github.ariesmodel.core.Status.INVALID_MDH);
    }
  }

  /** A PE's own exception names the PE and its time (it said only "simulated process failed"; stop 64's user walk). */
  @Test
  void aPesFailureNamesThePeAndItsTime() {
    ShmemJob job = job(0, 9);
    Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> job.run(pe -> {
      if (pe.myPe() == 1) {
        pe.compute(2_000);
        throw new IllegalArgumentException("pe must be in [0, 1] but was 2");
      }
    }));
    assertThat(t).isInstanceOf(ProcessRunner.ProcessFailedException.class).hasMessage("simulated process pe1 failed"
        + " at 2000 ps: pe must be in [0, 1] but was 2");
    ProcessRunner.ProcessFailedException f = (ProcessRunner.ProcessFailedException) t;
    assertThat(f.processName()).isEqualTo("pe1");
    assertThat(f.timePs()).isEqualTo(2_000);
  }

  /**
   * Two PEs in different groups that fail in one engine window: the earlier failure is reported, as on the single
   * loop (the engine named the lower group's, a nanosecond later; stop 64's review).
   */
  @Test
  void theEarliestFailureIsReportedWhateverTheThreads() {
    for (int threads : new int[] {0, 1, 2}) {
      AriesSystem.Builder b = AriesSystem.builder().system("canonical:p=2,a=4,h=2");
      if (threads > 0) {
        b.threads(threads);
      }
      AriesSystem sys = b.build();
      assertThat(sys.groupOfNode(0)).isNotEqualTo(sys.groupOfNode(8));
      ShmemJob job = ShmemJob.builder(sys).nodes(0, 8).build();
      Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> job.run(pe -> {
        pe.compute(pe.myPe() == 0 ? 1_001 : 1_000);
        throw new IllegalStateException("pe" + pe.myPe());
      }));
      assertThat(t).as("threads %s", threads).isInstanceOf(ProcessRunner.ProcessFailedException.class)
          .hasMessage("simulated process pe1 failed at 1000 ps: pe1");
    }
  }

  /** A get longer than the staging buffer names the setting that sized it (user walk: it said only "length"). */
  @Test
  void aGetLongerThanTheStagingBufferNamesTheSetting() {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).stagingBytes(64).build();
    Symmetric x = job.allocate(256);
    Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.get(x, 0, 128, 1);
      }
    }));
    assertThat(t.getCause()).isInstanceOf(IllegalArgumentException.class).hasMessage("length must be in [0, 64] (the"
        + " job's stagingBytes, the buffer a get(src, ...) lands in; getmem into an object of your own has no such"
        + " limit) but was 128");
  }

  @Test
  void zeroLengthPutsCompleteAndQuietReturns() {
    ShmemJob job = job(0, 9);
    Symmetric buf = job.allocate(64);
    long[] done = {-1};
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.put(buf, 0, new byte[0], 1);
        pe.putmem(buf, 0, buf, 0, 0, 1);
        pe.quiet();
        done[0] = pe.now();
      }
    });
    assertThat(done[0]).isPositive();
    assertThat(job.faults()).isZero();
  }

  /**
   * A get of no bytes is a no-op, as OpenSHMEM's get of 0 elements (a program may pass 0 on some PE): nothing posted
   * on the NIC or copied on the node, nothing for quiet to wait for, no fault. Until stop 74 getmem, getmemNbi and
   * get refused it ("length must be >= 1") and failed the program, while a 0-byte put was accepted.
   */
  @Test
  void zeroLengthGetsAreNoOpsThatPostNothing() {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).pesPerNode(2).build();
    Symmetric buf = job.allocate(64);
    long[] postsBefore = new long[2];
    long[] postsAfter = new long[2];
    byte[][] got = new byte[4][];
    job.run(pe -> {
      pe.barrierAll();
      if (pe.myPe() == 0) {
        pe.localLong(buf, 0, 7);
        postsBefore[0] = sys.node(0).nic().statistics().posts();
        postsBefore[1] = sys.node(9).nic().statistics().posts();
        for (int peer : new int[] {1, 2, 0}) { // on the node (a copy), on the other node, itself (both NIC)
          pe.getmem(buf, 0, buf, 8, 0, peer);
          pe.getmemNbi(buf, 0, buf, 8, 0, peer);
          got[peer] = pe.get(buf, 0, 0, peer);
        }
        pe.quiet();
        postsAfter[0] = sys.node(0).nic().statistics().posts();
        postsAfter[1] = sys.node(9).nic().statistics().posts();
        got[3] = pe.localBytes(buf, 0, 8);
      }
      // (the other PEs return: nothing but PE 0's calls can post from here)
    });
    assertThat(postsAfter).as("posts on nodes 0 and 9 while PE 0 got nothing").containsExactly(postsBefore);
    assertThat(job.onNodeCopies()).isZero();
    assertThat(job.faults()).isZero();
    assertThat(got[0]).isEmpty();
    assertThat(got[1]).isEmpty();
    assertThat(got[2]).isEmpty();
    assertThat(got[3]).containsExactly(7, 0, 0, 0, 0, 0, 0, 0);
  }

  @Test
  void thirtyTwoBitAtomicsAndCompareSwapBehaveAsJava() {
    ShmemJob job = job(0, 20);
    Symmetric words = job.allocate(64);
    long[] got = new long[4];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        got[0] = pe.atomicCompareSwap(words, 0, 0, 42, 1);   // succeeds: old 0
        got[1] = pe.atomicCompareSwap(words, 0, 0, 99, 1);   // fails: old 42
        pe.atomic(AmoOperation.of(AmoKind.IADD, false, 32), words, 8, 0xFFFF_FFFFL, 0, 1);
        pe.atomic(AmoOperation.of(AmoKind.IADD, false, 32), words, 8, 2, 0, 1); // 32-bit wrap: -1 + 2 = 1
        pe.quiet();
        got[2] = pe.atomic(AmoOperation.of(AmoKind.IADD, true, 32), words, 8, 0, 0, 1);
      }
      pe.barrierAll();
      if (pe.myPe() == 1) {
        got[3] = pe.localLong(words, 0);
      }
    });
    assertThat(got[0]).isZero();
    assertThat(got[1]).isEqualTo(42);
    assertThat(got[2]).isEqualTo(1);
    assertThat(got[3]).isEqualTo(42);
  }

  /**
   * A 32-bit fetching atomic returns the old int zero-extended, as Shmem.atomic's javadoc says (the NIC's value; the
   * caller casts it to its type): pins the documented contract, so a change of it must change the javadoc too.
   */
  @Test
  void aThirtyTwoBitFetchReturnsTheOldWordZeroExtendedAndItsIntByACast() {
    ShmemJob job = job(0, 20);
    Symmetric w = job.allocate(8);
    long[] got = {0};
    job.run(pe -> {
      if (pe.myPe() == 1) {
        pe.localLong(w, 0, 0xFFFF_FFFFL); // int -1 in the low half
      }
      pe.barrierAll();
      if (pe.myPe() == 0) {
        got[0] = pe.atomic(AmoOperation.of(AmoKind.IADD, true, 32), w, 0, 1, 0, 1);
      }
    });
    assertThat(got[0]).isEqualTo(4_294_967_295L);
    assertThat((int) got[0]).isEqualTo(-1);
  }

  @Test
  void outOfRangeAccessesAreCallerMistakesNamingTheRange() {
    ShmemJob job = job(0, 1);
    Symmetric buf = job.allocate(16);
    assertThatThrownBy(() -> job.run(pe -> pe.putmem(buf, 8, buf, 0, 16, 1 - pe.myPe())))
        .hasRootCauseMessage("dest: offset + length must lie within the symmetric object's 16 bytes but were 8 + 16");
    ShmemJob job2 = job(0, 1);
    Symmetric b2 = job2.allocate(16);
    assertThatThrownBy(() -> job2.run(pe -> pe.putLong(b2, 0, 1, 5)))
        .hasRootCauseMessage("pe must be in [0, 1] but was 5");
  }

  @Test
  void aDeliveryModeOnASystemWithAnExplicitRoutingIsRefusedNamingBoth() {
    AriesSystem minimal = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").routing("minimal").build();
    assertThatThrownBy(() -> ShmemJob.builder(minimal).deliveryMode(DeliveryMode.NMIN_HASH).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ShmemJob deliveryMode(NMIN_HASH) cannot be combined with AriesSystem "
            + "routing(\"minimal\")");
    // Without an explicit mode the job uses the system's routing; routed by delivery mode, any mode is accepted.
    assertThat(ShmemJob.builder(minimal).build().nPes()).isEqualTo(2);
    AriesSystem byMode = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").build();
    assertThat(ShmemJob.builder(byMode).deliveryMode(DeliveryMode.NMIN_HASH).build().nPes()).isEqualTo(2);
    AriesSystem ideal = AriesSystem.builder().topology(Topologies.ariesSmall(), "small")
        .fabric(io.github.ariesmodel.system.FabricKind.IDEAL).build();
    assertThat(ShmemJob.builder(ideal).deliveryMode(DeliveryMode.IN_ORDER).build().nPes()).isEqualTo(2);
  }

  /** A failed run leaves barrier and message state half done: the job refuses another run, saying why. */
  @Test
  void aJobWhoseRunFailedRefusesToRunAgain() {
    ShmemJob job = job(0, 9);
    Symmetric t = job.allocate(64);
    assertThatThrownBy(() -> job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.putLong(t, 0, 1, -1); // no PE -1: this PE fails while the other waits at the barrier
      }
      pe.barrierAll();
    })).isInstanceOf(ProcessRunner.ProcessFailedException.class);
    assertThatThrownBy(() -> job.run(Shmem::barrierAll)).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("this job cannot run again: a run of it failed (")
        .hasMessageContaining("build a new ShmemJob on the system");
    // the system is fine: a new job on the same nodes runs, and so does one whose PE fails before another starts
    ShmemJob fresh = ShmemJob.builder(job.system()).nodes(0, 9).build();
    fresh.run(Shmem::barrierAll);
    assertThat(fresh.lastRunPs()).isPositive();
  }

  /**
   * A PE that throws at once stops the run while the other PE's first resumption is still pending in the loop; the
   * closed run's process must not start in the next job's run (it did, and that job deadlocked).
   */
  @Test
  void aRunStoppedBeforeAPeStartedLeavesTheSystemUsable() {
    ShmemJob job = job(0, 9);
    assertThatThrownBy(() -> job.run(pe -> {
      if (pe.myPe() == 0) {
        throw new IllegalStateException("boom");
      }
      pe.barrierAll();
    })).isInstanceOf(ProcessRunner.ProcessFailedException.class).hasMessageContaining("boom");
    ShmemJob other = ShmemJob.builder(job.system()).nodes(1, 10).build();
    long[] passed = new long[2];
    other.run(pe -> {
      pe.barrierAll();
      passed[pe.myPe()] = pe.now();
    });
    assertThat(passed[0]).isPositive();
    assertThat(passed[1]).isPositive();
  }

  @Test
  void runFromInsideItsOwnRunIsRefused() {
    ShmemJob job = job(0, 9);
    assertThatThrownBy(() -> job.run(pe -> {
      if (pe.myPe() == 0) {
        job.run(q -> { });
      }
    })).isInstanceOf(ProcessRunner.ProcessFailedException.class)
        .hasStackTraceContaining("run was called while this job runs");
  }

  @Test
  void aHandleKeptPastItsRunIsRefused() {
    ShmemJob job = job(0, 9);
    Symmetric t = job.allocate(64);
    Shmem[] kept = new Shmem[1];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        kept[0] = pe;
      }
    });
    assertThatThrownBy(() -> kept[0].putLong(t, 0, 77, 1)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("used outside its job's run");
    assertThatThrownBy(() -> kept[0].quiet()).isInstanceOf(IllegalStateException.class);
    long[] seen = {-1};
    job.run(pe -> seen[0] = pe.myPe() == 1 ? pe.localLong(t, 0) : seen[0]);
    assertThat(seen[0]).isZero(); // the refused put wrote nothing
  }

  /**
   * Another PE's handle used from a PE's program: a put was posted from that PE's NIC in silence, and an array put
   * overwrote that PE's staging buffer. Each call is refused naming both PEs and changes nothing, so a program that
   * catches the refusal goes on as if it had not been made.
   */
  @Test
  void anotherPesHandleIsRefusedNamingBothPesAndChangesNothing() {
    ShmemJob job = job(0, 9);
    Symmetric t = job.allocate(64);
    Shmem[] handles = new Shmem[2];
    List<String> refusals = new ArrayList<>();
    long[] seen = new long[2];
    job.run(pe -> {
      handles[pe.myPe()] = pe;
      pe.barrierAll();
      if (pe.myPe() == 1) {
        Shmem theirs = handles[0];
        List<Runnable> calls = List.of(
            () -> theirs.putLong(t, 0, 77, 1),
            () -> theirs.put(t, 8, new byte[] {5}, 1),
            () -> theirs.putmem(t, 16, t, 0, 8, 1),
            () -> theirs.atomicAdd(t, 24, 3, 1),
            () -> theirs.localLong(t, 32, 9),
            () -> theirs.localLong(t, 32),
            () -> theirs.quiet(),
            () -> theirs.compute(10),
            () -> theirs.now(),
            () -> theirs.remoteEvents());
        for (Runnable call : calls) {
          try {
            call.run();
            refusals.add("accepted");
          } catch (IllegalStateException e) {
            refusals.add(e.getMessage());
          }
        }
      }
      pe.barrierAll();
      seen[pe.myPe()] = pe.localLong(t, 0) + pe.localLong(t, 8) + pe.localLong(t, 16) + pe.localLong(t, 24)
          + pe.localLong(t, 32);
    });
    assertThat(refusals).hasSize(10).containsOnly("PE 0's handle was used by PE 1's program (each PE's program uses"
        + " the Shmem handle its run gives it)");
    assertThat(seen).as("no refused call wrote anything").containsExactly(0, 0);
    assertThat(job.faults()).isZero();
    // identity is no use of the handle: a program may ask whose it is
    job.run(pe -> seen[pe.myPe()] = handles[1 - pe.myPe()].myPe() * 10L + handles[1 - pe.myPe()].node());
    assertThat(seen).containsExactly(19, 0);
  }

  /**
   * The runner tests a PE's wait condition on whichever thread runs the event that wakes it (another PE's, or the
   * run's caller): a condition that asks its own handle is that PE's use, not another's.
   */
  @Test
  void aWaitConditionMayAskItsOwnHandleWhereverTheRunnerTestsIt() {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).remoteEvents(true).build();
    Symmetric flag = job.allocate(64);
    long[] events = {-1};
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.waitUntil(flag, 0, v -> v == 1 && pe.remoteEvents() >= 1 && pe.localLong(flag, 8) == 0);
        events[0] = pe.remoteEvents();
      } else {
        pe.compute(1_000_000);
        pe.putLong(flag, 0, 1, 0);
        pe.quiet();
      }
    });
    assertThat(events[0]).isEqualTo(1);
  }

  /** On a partitioned engine the PEs of two groups run on two threads: the refusal is the same. */
  @Test
  void anotherPesHandleIsRefusedOnAPartitionedEngine() {
    AriesSystem sys = AriesSystem.builder().system("canonical:p=2,a=4,h=2").threads(2).build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 8).build();
    assertThat(sys.groupOfNode(8)).isNotEqualTo(sys.groupOfNode(0));
    Symmetric t = job.allocate(64);
    Shmem[] handles = new Shmem[2];
    assertThatThrownBy(() -> job.run(pe -> {
      handles[pe.myPe()] = pe;
      pe.barrierAll();
      if (pe.myPe() == 0) {
        handles[1].putLong(t, 0, 7, 0);
      }
    })).isInstanceOf(ProcessRunner.ProcessFailedException.class).hasRootCauseInstanceOf(IllegalStateException.class)
        .hasRootCauseMessage("PE 1's handle was used by PE 0's program (each PE's program uses the Shmem handle its"
            + " run gives it)");
  }

  /** A handle of another job is not one of this run's PEs: refused naming its PE and the thread that used it. */
  @Test
  void aHandleOfAnotherJobIsRefusedNamingItsPeAndTheCaller() {
    ShmemJob a = job(0, 9);
    ShmemJob b = ShmemJob.builder(a.system()).nodes(0, 9).build();
    Symmetric theirs = b.allocate(64);
    Shmem[] kept = new Shmem[1];
    b.run(pe -> {
      if (pe.myPe() == 1) {
        kept[0] = pe;
      }
    });
    assertThatThrownBy(() -> a.run(pe -> {
      if (pe.myPe() == 0) {
        kept[0].putLong(theirs, 0, 7, 0);
      }
    })).isInstanceOf(ProcessRunner.ProcessFailedException.class).hasRootCauseInstanceOf(IllegalStateException.class)
        .hasRootCauseMessage("PE 1's handle was used outside its job's run, on thread sim-pe0 (keep no Shmem handle"
            + " after run returns, and use none of another job)");
    long[] seen = {-1};
    b.run(pe -> seen[0] = pe.myPe() == 1 ? pe.localLong(theirs, 0) : seen[0]);
    assertThat(seen[0]).as("the refused put wrote nothing").isZero();
  }

  /**
   * A refused array put or get changes nothing: its target object and PE are checked before it writes the staging
   * buffer through the host cache (a get of another job's object stored there first).
   */
  @Test
  void refusedArrayPutsAndGetsTouchNeitherTheStagingBufferNorTheCache() {
    ShmemJob a = job(0, 9);
    Symmetric mine = a.allocate(64);
    Symmetric theirs = ShmemJob.builder(a.system()).nodes(0, 9).build().allocate(64);
    var cache = a.system().node(0).hostCache();
    List<String> refusals = new ArrayList<>();
    long[] stores = new long[2];
    a.run(pe -> {
      if (pe.myPe() == 0) {
        stores[0] = cache.count(HostCacheStatistic.CPU_STORE_HIT) + cache.count(HostCacheStatistic.CPU_STORE_MISS);
        List<Runnable> calls = List.of(
            () -> pe.get(theirs, 0, 8, 1),
            () -> pe.get(mine, 60, 8, 1),
            () -> pe.get(mine, 0, 8, 2),
            () -> pe.put(mine, 0, new byte[8], 2));
        for (Runnable call : calls) {
          try {
            call.run();
            refusals.add("accepted");
          } catch (IllegalArgumentException e) {
            refusals.add(e.getMessage());
          }
        }
        stores[1] = cache.count(HostCacheStatistic.CPU_STORE_HIT) + cache.count(HostCacheStatistic.CPU_STORE_MISS);
      }
    });
    assertThat(refusals).containsExactly(
        "src must be a symmetric object this job allocated but was " + theirs + ", one of another job",
        "src: offset + length must lie within the symmetric object's 64 bytes but were 60 + 8",
        "pe must be in [0, 1] but was 2",
        "pe must be in [0, 1] but was 2");
    assertThat(stores[1]).as("no refused call stored into the staging buffer").isEqualTo(stores[0]);
  }

  @Test
  void anotherJobsObjectIsRefusedAndAPeOutOfRangeNamed() {
    ShmemJob a = job(0, 9);
    ShmemJob b = ShmemJob.builder(a.system()).nodes(0, 9).build();
    a.allocate(64);
    Symmetric theirs = b.allocate(64);
    assertThatThrownBy(() -> a.run(pe -> pe.putLong(theirs, 8, 7, 1 - pe.myPe())))
        .isInstanceOf(ProcessRunner.ProcessFailedException.class)
        .hasRootCauseMessage("dest must be a symmetric object this job allocated but was " + theirs + ", one of"
            + " another job");
    assertThatThrownBy(() -> theirs.mdh(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pe must be in [0, 1] but was -1");
  }
}
