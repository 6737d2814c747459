package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.ariesmodel.core.AmoKind;
import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.AriesSystem;
import org.junit.jupiter.api.Test;

/** SHMEM calls made in the wrong state or with a misaligned word: one line naming the SHMEM parameter, no change. */
class ShmemMisuseTest {

  private static ShmemJob job() {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").build();
    return ShmemJob.builder(sys).nodes(0, 9).build();
  }

  /** The message of a compute refused at {@code nowPs}, which leaves {@code left} of a program's clock. */
  static String beyondTheClock(long left, long nowPs, long ps) {
    return "ps must be in [0, " + left + "] (what is left from now, " + nowPs + " ps, of a program's clock, which ends"
        + " 1000000000000000 ps before Long.MAX_VALUE to keep time for the communication after it:"
        + " AriesSystem.PROGRAM_CLOCK_END_PS) but was " + ps;
  }

  /**
   * A compute that ended at or near the clock's end was taken, and the next put failed inside the NIC or IOMMU with a
   * wrapped negative time ("timePs must be >= now ... but was -92233..."), an event's failure that left the system
   * unable to run again (the review of stop 72). It is refused, the PE's clock unmoved; the longest compute allowed
   * leaves the put after it its time, and the system runs on.
   */
  @Test
  void aComputePastAProgramsClockIsRefusedAndTheLongestAllowedLeavesTheNextPutItsTime() {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).build();
    Symmetric x = job.allocate(64);
    Throwable[] refused = new Throwable[3];
    long[] at = new long[4];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        at[0] = pe.now();
        refused[0] = catchThrowable(() -> pe.compute(Long.MAX_VALUE));
        refused[1] = catchThrowable(() -> pe.compute(Long.MAX_VALUE - 1_000_000 - pe.now()));
        refused[2] = catchThrowable(() -> pe.compute(-1));
        at[1] = pe.now();
        pe.compute(AriesSystem.PROGRAM_CLOCK_END_PS - pe.now());
        at[2] = pe.now();
        pe.putLong(x, 0, 5, 1);
        pe.quiet();
        at[3] = pe.now();
      } else {
        pe.waitUntil(x, 0, w -> w == 5);
      }
    });
    long left = AriesSystem.PROGRAM_CLOCK_END_PS - at[0];
    assertThat(refused[0]).isInstanceOf(IllegalArgumentException.class)
        .hasMessage(beyondTheClock(left, at[0], Long.MAX_VALUE));
    assertThat(refused[1]).isInstanceOf(IllegalArgumentException.class)
        .hasMessage(beyondTheClock(left, at[0], Long.MAX_VALUE - 1_000_000 - at[0]));
    assertThat(refused[2]).isInstanceOf(IllegalArgumentException.class).hasMessage(beyondTheClock(left, at[0], -1));
    assertThat(at[1]).as("the refusals moved no clock").isEqualTo(at[0]);
    assertThat(at[2]).isEqualTo(AriesSystem.PROGRAM_CLOCK_END_PS);
    assertThat(at[3]).isGreaterThan(at[2]);
    // the system runs on: another job on it puts and reads
    ShmemJob next = ShmemJob.builder(sys).nodes(1, 2).build();
    Symmetric y = next.allocate(64);
    long[] seen = {0};
    next.run(pe -> {
      if (pe.myPe() == 0) {
        pe.putLong(y, 0, 6, 1);
        pe.quiet();
      } else {
        pe.waitUntil(y, 0, w -> w == 6);
        seen[0] = pe.localLong(y, 0);
      }
    });
    assertThat(seen[0]).isEqualTo(6);
  }

  @Test
  void allocateDuringARunIsMisuseOfStateAndTheJobAllocatesAfterIt() {
    ShmemJob job = job();
    Throwable[] refused = new Throwable[2];
    job.run(pe -> refused[pe.myPe()] = catchThrowable(() -> job.allocate(64)));
    for (Throwable t : refused) {
      assertThat(t).isInstanceOf(IllegalStateException.class)
          .hasMessage("allocate may not be called while the job runs: allocate before run or after it returns");
    }
    Symmetric after = job.allocate(64);
    long[] seen = {0};
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.putLong(after, 0, 77, 1);
        pe.quiet();
      }
      pe.barrierAll();
      if (pe.myPe() == 1) {
        seen[0] = pe.localLong(after, 0);
      }
    });
    assertThat(seen[0]).isEqualTo(77);
  }

  @Test
  void aMisalignedAtomicNamesItsOffsetAndPostsNothing() {
    ShmemJob job = job();
    Symmetric words = job.allocate(64);
    Throwable[] refused = new Throwable[3];
    long[] posts = new long[2];
    long[] fetched = {-1};
    job.run(pe -> {
      if (pe.myPe() == 0) {
        long before = job.system().node(0).nicStatistics().posts();
        refused[0] = catchThrowable(() -> pe.atomicAdd(words, 3, 1, 1));
        refused[1] = catchThrowable(() -> pe.atomicFetchAdd(words, 12, 1, 1));
        refused[2] = catchThrowable(() -> pe.atomic(AmoOperation.of(AmoKind.IADD, false, 32), words, 6, 1, 0, 1));
        posts[0] = job.system().node(0).nicStatistics().posts() - before;
        pe.atomic(AmoOperation.of(AmoKind.IADD, false, 32), words, 4, 5, 0, 1); // 4-byte aligned: a 32-bit word
        pe.quiet();
        fetched[0] = pe.atomicFetchAdd(words, 0, 0, 1);
      }
    });
    assertThat(refused[0]).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("offset must be a multiple of 8 for IADD but was 3");
    assertThat(refused[1]).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("offset must be a multiple of 8 for FIADD but was 12");
    assertThat(refused[2]).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("offset must be a multiple of 4 for IADD_S but was 6");
    assertThat(posts[0]).as("posts made by the refused calls").isZero();
    assertThat(fetched[0]).as("the 32-bit add landed in the upper half").isEqualTo(5L << 32);
    assertThat(job.faults()).isZero();
  }

  @Test
  void localWordsAndWaitsNameAMisalignedOffsetAndTheObjectAsTheParameterIsCalled() {
    ShmemJob job = job();
    Symmetric words = job.allocate(64);
    Throwable[] refused = new Throwable[5];
    long[] seen = new long[2];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.localLong(words, 0, 0x1122334455667788L);
        pe.localLong(words, 8, 0x99AABBCCDDEEFF00L);
        refused[0] = catchThrowable(() -> pe.localLong(words, 3));
        refused[1] = catchThrowable(() -> pe.localLong(words, 4, -1L));
        refused[2] = catchThrowable(() -> pe.waitUntil(words, 12, v -> true));
        refused[3] = catchThrowable(() -> pe.localBytes(null, 0, 1));
        refused[4] = catchThrowable(() -> pe.waitUntil(words, 64, v -> true));
        seen[0] = pe.localLong(words, 0);
        seen[1] = pe.localLong(words, 8);
      }
    });
    assertThat(refused[0]).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("offset must be 8-byte aligned but was 3");
    assertThat(refused[1]).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("offset must be 8-byte aligned but was 4");
    assertThat(refused[2]).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("offset must be 8-byte aligned but was 12");
    assertThat(refused[3]).isInstanceOf(IllegalArgumentException.class).hasMessage("obj must not be null");
    assertThat(refused[4]).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("obj: offset + length must lie within the symmetric object's 64 bytes but were 64 + 8");
    assertThat(seen).as("the refused store changed neither word").containsExactly(0x1122334455667788L,
        0x99AABBCCDDEEFF00L);
  }

  @Test
  void aFailedRunLeavesTheLastCompletedRunsTimeRatherThanANegativeOne() {
    ShmemJob job = job();
    Symmetric word = job.allocate(64);
    job.run(pe -> {
      pe.compute(1_000_000);
      if (pe.myPe() == 0) {
        pe.putLong(word, 0, 1, 1); // its acknowledgement arrives after the PE returns
      }
    });
    long first = job.lastRunPs();
    assertThat(first).isGreaterThanOrEqualTo(1_000_000);
    assertThat(job.system().now()).as("the run's trailing events end after its last PE").isGreaterThan(first);
    Throwable failed = catchThrowable(() -> job.run(pe -> {
      pe.compute(5_000_000);
      throw new IllegalStateException("boom");
    }));
    assertThat(failed).isNotNull();
    assertThat(job.lastRunPs()).as("the last completed run's time").isEqualTo(first);
  }

  @Test
  void aNodeTooSmallForAPesCompletionQueueIsNamedWithThePeAndTheQueue() {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").nodeMemoryBytes(4096).build();
    Throwable t = catchThrowable(() -> ShmemJob.builder(sys).nodes(0, 9).build());
    assertThat(t).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("ShmemJob could not create the remote-event completion queue of PE 0 (node 0, 1024"
            + " entries, 8192 bytes of host memory): ")
        .hasMessageContaining("memory of 4096 bytes");
  }

  @Test
  void theDefaultNodesOnAOneNodeSystemAreNamedAsTheDefaultAndTakeNoQueue() {
    AriesSystem sys = AriesSystem.builder().system("canonical:p=1,a=1,h=0").build();
    assertThat(sys.nodeCount()).isEqualTo(1);
    Throwable t = catchThrowable(() -> ShmemJob.builder(sys).build());
    assertThat(t).isInstanceOf(IllegalArgumentException.class).hasMessage("ShmemJob nodes must be given for a system"
        + " of 1 node: the default, nodes(0, 1), names node 1, which it does not have (give nodes(0) for one PE)");
    assertThat(sys.node(0).nic().completionQueue(0)).as("no queue taken by the refused build").isNull();
    ShmemJob one = ShmemJob.builder(sys).nodes(0).build();
    assertThat(one.system().node(0).nic().completionQueue(0)).isNotNull();
    Symmetric w = one.allocate(8);
    long[] got = {-1};
    one.run(pe -> {
      pe.atomicAdd(w, 0, 3, 0);
      pe.quiet();
      got[0] = pe.localLong(w, 0);
    });
    assertThat(got[0]).isEqualTo(3);
  }

  /**
   * A waitUntil condition that calls a method of its own handle that posts, waits or lets time pass is refused at
   * once in one line naming the method and what a condition may call, the same whether the runner tests it first on
   * the PE's thread or later from the event of a NIC write, and before anything is posted (until stop 74: a putLong
   * was posted and the run reported a deadlock, an atomicFetchAdd passed or deadlocked as it was tested, a compute or
   * quiet failed as "process pe1 may only be suspended from its own code").
   */
  @Test
  void aConditionThatPostsWaitsOrTakesTimeIsRefusedAtOnceWhereverItIsTested() {
    java.util.Map<String, java.util.function.BiConsumer<Shmem, Symmetric>> calls = new java.util.LinkedHashMap<>();
    calls.put("putLong", (pe, w) -> pe.putLong(w, 8, 5, 0));
    calls.put("putmem", (pe, w) -> pe.putmem(w, 8, w, 16, 8, 0));
    calls.put("atomicFetchAdd", (pe, w) -> pe.atomicFetchAdd(w, 16, 1, 0));
    calls.put("atomicAdd", (pe, w) -> pe.atomicAdd(w, 16, 1, 0));
    calls.put("getmem", (pe, w) -> pe.getmem(w, 8, w, 16, 8, 0));
    calls.put("compute", (pe, w) -> pe.compute(1_000));
    calls.put("quiet", (pe, w) -> pe.quiet());
    calls.put("barrierAll", (pe, w) -> pe.barrierAll());
    calls.put("waitUntil", (pe, w) -> pe.waitUntil(w, 8, v -> true));
    for (var call : calls.entrySet()) {
      for (boolean later : new boolean[] {false, true}) {
        AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").build();
        ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).build();
        Symmetric w = job.allocate(64);
        Throwable t = catchThrowable(() -> job.run(pe -> {
          if (pe.myPe() == 0) {
            pe.compute(2_000_000);
            pe.putLong(w, 0, 1, 1); // wakes PE 1 through the NIC's write: its condition is tested from that event
            pe.quiet();
          } else {
            pe.waitUntil(w, 0, v -> {
              if (!later || v == 1) {
                call.getValue().accept(pe, w);
              }
              return v == 2; // never: the call is the condition's end
            });
          }
        }));
        String where = call.getKey() + (later ? ", tested from an event" : ", tested first on the PE's thread");
        assertThat(t).as(where).isInstanceOf(io.github.ariesmodel.system.process.ProcessRunner.ProcessFailedException
            .class);
        assertThat(t.getCause()).as(where).isInstanceOf(IllegalStateException.class).hasMessage(call.getKey()
            + " may not be called from a waitUntil condition (PE 1): a condition only reads, with now, myPe, nPes,"
            + " node, localLong, localBytes, remoteEvents and lastStatus (or stores with localLong and localBytes); it"
            + " may not post, wait or let time pass, so call " + call.getKey() + " after waitUntil returns");
        assertThat(sys.node(9).nic().statistics().posts()).as(where + ": PE 1's posts").isZero();
      }
    }
  }
}
