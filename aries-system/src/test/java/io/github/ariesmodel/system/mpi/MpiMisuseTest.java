package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.ProcessRunner;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import org.junit.jupiter.api.Test;

/** Misuse of the MPI interface found by a probe of the library (stop 47): each is one clear refusal or works. */
class MpiMisuseTest {

  private static AriesSystem system() {
    return AriesSystem.builder().system("default").seed(1).build();
  }

  /**
   * A compute or idle time that ended at or near the clock's end was taken, and the next send failed inside the NIC or
   * IOMMU with a wrapped negative time, leaving the system unable to run again (the review of stop 72). Both are
   * refused, the rank's clock unmoved; the longest allowed leaves the message after it its time.
   */
  @Test
  void aComputeOrIdleTimePastAProgramsClockIsRefusedAndTheLongestAllowedLeavesTheNextMessageItsTime() {
    AriesSystem s = system();
    MpiJob job = MpiJob.builder(s).nodes(0, 1).build();
    Throwable[] refused = new Throwable[4];
    long[] at = new long[3];
    byte[] got = new byte[8];
    job.run(m -> {
      if (m.rank() == 0) {
        at[0] = m.now();
        refused[0] = catchThrowable(() -> m.compute(Long.MAX_VALUE));
        refused[1] = catchThrowable(() -> m.compute(Long.MAX_VALUE - 1_000_000 - m.now()));
        refused[2] = catchThrowable(() -> MpiJob.idle(m, Long.MAX_VALUE - m.now()));
        refused[3] = catchThrowable(() -> m.compute(-1));
        at[1] = m.now();
        MpiJob.idle(m, AriesSystem.PROGRAM_CLOCK_END_PS - m.now());
        at[2] = m.now();
        m.send(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, 0, 8, 1, 0, m.world());
      } else {
        m.recv(got, 0, 8, 0, 0, m.world());
      }
    });
    long left = AriesSystem.PROGRAM_CLOCK_END_PS - at[0];
    long[] asked = {Long.MAX_VALUE, Long.MAX_VALUE - 1_000_000 - at[0], Long.MAX_VALUE - at[0], -1};
    for (int i = 0; i < refused.length; i++) {
      assertThat(refused[i]).isInstanceOf(IllegalArgumentException.class).hasMessage("ps must be in [0, " + left
          + "] (what is left from now, " + at[0] + " ps, of a program's clock, which ends 1000000000000000 ps before"
          + " Long.MAX_VALUE to keep time for the communication after it: AriesSystem.PROGRAM_CLOCK_END_PS) but was "
          + asked[i]);
    }
    assertThat(at[1]).as("the refusals moved no clock").isEqualTo(at[0]);
    assertThat(at[2]).isEqualTo(AriesSystem.PROGRAM_CLOCK_END_PS);
    assertThat(got[7]).isEqualTo((byte) 8);
    assertThat(job.lastRunPs()).isGreaterThan(AriesSystem.PROGRAM_CLOCK_END_PS - at[0]);
    // the system runs on: another job on it exchanges a message
    byte[] next = new byte[1];
    MpiJob.builder(s).nodes(2, 3).build().run(m -> {
      if (m.rank() == 0) {
        m.send(new byte[] {9}, 0, 1, 1, 0, m.world());
      } else {
        m.recv(next, 0, 1, 0, 0, m.world());
      }
    });
    assertThat(next[0]).isEqualTo((byte) 9);
  }

  @Test
  void aJobBuiltOnTheSameNodesAfterAnotherLeavesTheFirstOneWorking() {
    AriesSystem s = system();
    MpiJob first = MpiJob.builder(s).nodes(0, 1).build();
    MpiJob.builder(s).nodes(0, 1).build(); // takes the NICs' completion listener, and is never run
    ShmemJob.builder(s).nodes(0, 1).build(); // so does a SHMEM job
    byte[] got = new byte[4000];
    // a correct program used to be reported as deadlocked: its ranks were never woken
    first.run(m -> {
      byte[] b = new byte[4000];
      if (m.rank() == 0) {
        b[3999] = 9;
        m.send(b, 0, b.length, 1, 0, m.world());
      } else {
        m.recv(got, 0, got.length, 0, 0, m.world());
      }
    });
    assertThat(got[3999]).isEqualTo((byte) 9);
    // and the SHMEM side: a job built before another on its nodes still runs
    ShmemJob shmem = ShmemJob.builder(s).nodes(2, 3).build();
    Symmetric word = shmem.allocate(8);
    MpiJob.builder(s).nodes(2, 3).build();
    long[] seen = {0};
    shmem.run(pe -> {
      if (pe.myPe() == 0) {
        pe.putLong(word, 0, 77, 1);
        pe.quiet();
      }
      pe.barrierAll();
      if (pe.myPe() == 1) {
        seen[0] = pe.localLong(word, 0);
      }
    });
    assertThat(seen[0]).isEqualTo(77);
  }

  @Test
  void aFailedRunLeavesTheLastCompletedRunsTimeNotANegativeOne() {
    AriesSystem s = system();
    MpiJob job = MpiJob.builder(s).nodes(0, 1).build();
    job.run(m -> {
      m.compute(1_000_000);
      m.barrier(m.world());
    });
    long completed = job.lastRunPs();
    assertThat(completed).isPositive();
    // the failed run set its start and not its end: lastRunPs() was the first run's end minus the second's start
    assertThatThrownBy(() -> job.run(m -> {
      m.compute(1_000_000);
      throw new IllegalStateException("the program's own failure");
    })).isInstanceOf(ProcessRunner.ProcessFailedException.class);
    assertThat(job.lastRunPs()).isEqualTo(completed);
  }

  @Test
  void anotherRanksHandleIsRefusedNamingBothRanks() {
    for (int threads : new int[] {0, 2}) {
      AriesSystem.Builder b = AriesSystem.builder().system("canonical:p=2,a=4,h=2").seed(1);
      if (threads > 0) {
        b.threads(threads);
      }
      AriesSystem s = b.build();
      // rank 0 in group 0, rank 1 in group 2: on two threads they run at once
      MpiJob job = MpiJob.builder(s).placement(0, 2 * s.nodeCount() / 9).build();
      Mpi[] handles = new Mpi[2];
      // ranks touch only their own slot before the barrier, and read the other's after it
      assertThatThrownBy(() -> job.run(m -> {
        handles[m.rank()] = m;
        m.barrier(m.world());
        if (m.rank() == 1) {
          // it posted from rank 0's NIC and matched rank 0's queues, in silence
          handles[0].send(new byte[8], 0, 8, 1, 0, handles[0].world());
        }
      })).as("threads %s", threads).isInstanceOf(ProcessRunner.ProcessFailedException.class)
          .hasRootCauseMessage("rank 0's handle was used by rank 1's program (each rank's program uses the Mpi"
              + " handle its run gives it)");
    }
  }

  @Test
  void aHandleAfterItsRunAndBadArgumentsAreRefusedNamingThem() {
    AriesSystem s = system();
    MpiJob job = MpiJob.builder(s).nodes(0, 1).build();
    Mpi[] kept = new Mpi[1];
    job.run(m -> {
      if (m.rank() == 0) {
        kept[0] = m;
      }
    });
    assertThatThrownBy(() -> kept[0].compute(10)).isInstanceOf(IllegalStateException.class)
        .hasMessage("rank 0's handle was used outside its job's run (keep no Mpi handle after run returns)");
    String[] refused = {
        "requests must not be null", "requests must not be null",
        "tag must be in [0, 268435455] or ANY_TAG (-1) but was -5",
        "recv must not be null", "recv must not be null", "recv must not be null"};
    for (int k = 0; k < refused.length; k++) {
      int which = k;
      MpiJob j = MpiJob.builder(system()).nodes(0, 1).build();
      assertThatThrownBy(() -> j.run(m -> {
        switch (which) {
          case 0 -> m.waitany((Request[]) null);
          case 1 -> m.testsome((Request[]) null); // a null array is refused, not MPI_UNDEFINED (no array at all)
          case 2 -> m.iprobe(1 - m.rank(), -5, m.world());
          case 3 -> m.allreduce(new long[] {3}, null, ReduceOp.SUM, m.world());
          // a reduce-scatter's null recv was reported as "had -1" elements (stop 60's hunt)
          case 4 -> m.reduceScatter(new long[] {3, 4}, null, new int[] {1, 1}, ReduceOp.SUM, m.world());
          default -> m.reduceScatter(new double[] {3, 4}, null, new int[] {1, 1}, ReduceOp.SUM, m.world());
        }
      })).as(refused[k]).isInstanceOf(ProcessRunner.ProcessFailedException.class)
          .hasRootCauseMessage(refused[k]);
    }
  }

  /**
   * A request listed twice in one array is refused by every call on an array, naming both indices (MPI makes it
   * erroneous): testany of {r, r} with r complete returned index 0, then index 1, the same request twice; testsome gave
   * both indices; the waits went on as if the two were two (until stop 71). Checked on a short array (pair by pair)
   * and a long one (an identity set); null entries may repeat.
   */
  @Test
  void aRequestListedTwiceInOneArrayIsRefusedNamingBothIndices() {
    String[] calls = {"waitall", "waitany", "testall", "testany", "testsome"};
    for (String call : calls) {
      for (boolean longArray : new boolean[] {false, true}) {
        MpiJob j = MpiJob.builder(system()).nodes(0, 1).build();
        int again = longArray ? 11 : 2;
        assertThatThrownBy(() -> j.run(m -> {
          Request s = m.isend(new byte[8], 0, 8, 1 - m.rank(), 3, m.world());
          Request r = m.irecv(new byte[8], 0, 8, 1 - m.rank(), 3, m.world());
          m.waitall(s, r, null, null); // both complete; nulls (MPI_REQUEST_NULL) may repeat
          Request[] rs = new Request[again + 1];
          rs[0] = s;
          rs[again] = s;
          if (longArray) {
            rs[5] = r;
          }
          switch (call) {
            case "waitall" -> m.waitall(rs);
            case "waitany" -> m.waitany(rs);
            case "testall" -> m.testall(rs);
            case "testany" -> m.testany(rs);
            default -> m.testsome(rs);
          }
        })).as("%s, %s entries", call, again + 1).isInstanceOf(ProcessRunner.ProcessFailedException.class)
            .hasRootCauseMessage("requests[0] and requests[%s] must be different requests but were the same one (MPI"
                + " makes a request listed twice in one array erroneous)", again);
      }
    }
  }

  @Test
  void aCommunicatorOfAnotherRankOrJobIsRefused() {
    Communicator[] kept = new Communicator[2];
    MpiJob four = MpiJob.builder(system()).nodes(0, 1, 2, 3).build();
    four.run(m -> {
      if (m.rank() < 2) {
        kept[m.rank()] = m.world();
      }
    });
    // another job's: it gave an ArrayIndexOutOfBoundsException
    MpiJob two = MpiJob.builder(system()).nodes(0, 1).build();
    assertThatThrownBy(() -> two.run(m -> m.send(new byte[1], 0, 1, 1 - m.rank(), 0, kept[0])))
        .isInstanceOf(ProcessRunner.ProcessFailedException.class)
        .hasRootCauseMessage("comm must be one this rank holds (world, or made by its own split or dup) but was one"
            + " of another job");
    // another rank's of the same job: rank 1 acted as the root of a bcast in silence
    Communicator[] mine = new Communicator[2];
    MpiJob same = MpiJob.builder(system()).nodes(0, 1).build();
    assertThatThrownBy(() -> same.run(m -> {
      mine[m.rank()] = m.world();
      m.barrier(m.world());
      m.bcast(new byte[4], 0, 4, 0, mine[0]);
    })).isInstanceOf(ProcessRunner.ProcessFailedException.class)
        .hasRootCauseMessage("comm must be one this rank holds (world, or made by its own split or dup) but was rank"
            + " 0's");
  }

  @Test
  void aRequestOfAnotherRankIsRefused() {
    Request[] made = new Request[2];
    MpiJob job = MpiJob.builder(system()).nodes(0, 1).build();
    // rank 0 waited for rank 1's receive as if it were its own, and a deadlock named a receive it never posted
    assertThatThrownBy(() -> job.run(m -> {
      byte[] b = new byte[8];
      made[m.rank()] = m.irecv(b, 0, 8, 1 - m.rank(), 5, m.world());
      m.barrier(m.world());
      if (m.rank() == 0) {
        m.wait(made[1]);
      }
    })).isInstanceOf(ProcessRunner.ProcessFailedException.class)
        .hasRootCauseMessage("request must be one this rank made but was rank 1's");
  }

  @Test
  void configuredTimesAndRatesOutsideTheModelsBoundsAreRefusedNamingThem() {
    assertThatThrownBy(() -> MpiConfig.builder().sendOverheadPs(Long.MAX_VALUE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sendOverheadPs must be in [0, 1e9] ps (1 ms) but was " + Long.MAX_VALUE);
    assertThatThrownBy(() -> MpiConfig.builder().memcpyBytesPerSecond(1e-300))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("memcpyBytesPerSecond must be in [84000, 1e12] bytes/s or Infinity (no serialization time) but"
            + " was 1.0E-300");
    assertThat(MpiConfig.builder().reduceBytesPerSecond(Double.POSITIVE_INFINITY).build().reduceBytesPerSecond())
        .isInfinite();
  }
}
