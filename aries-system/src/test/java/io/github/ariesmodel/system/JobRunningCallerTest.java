package io.github.ariesmodel.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.system.mpi.MpiJob;
import io.github.ariesmodel.system.shmem.ShmemJob;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A job's run and close, called while the job runs, are refused naming where the call came from: one of the job's
 * own PEs or ranks, or another thread while the thread that called run runs it. Every such refusal said "called from
 * one of its own PEs/ranks", an unrelated thread's too (found by stop 77's concurrency hunt). On the single loop and on
 * an engine of two threads; no timing (the unrelated thread is started and joined by a PE or rank).
 */
class JobRunningCallerTest {

  private static String me() {
    return Thread.currentThread().getName();
  }

  private static AriesSystem system(boolean engine) {
    return engine
        ? AriesSystem.builder().system("two-groups").threads(2).seed(1).build()
        : AriesSystem.builder().seed(1).build();
  }

  /** The far node of {@link #system}: in the other group on the engine, so each runs on its own thread. */
  private static int farNode(boolean engine) {
    return engine ? 384 : 1;
  }

  /** Runs {@code calls} on a thread named "other" and waits for it; returns the messages of what each threw. */
  private static List<String> fromOtherThread(Runnable... calls) {
    List<String> seen = new ArrayList<>();
    Thread other = new Thread(() -> {
      for (Runnable call : calls) {
        try {
          call.run();
          seen.add("accepted");
        } catch (IllegalStateException e) {
          seen.add(e.getMessage());
        }
      }
    }, "other");
    other.start();
    try {
      other.join();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    return seen;
  }

  @Test
  void aShmemJobsRunAndCloseFromAnUnrelatedThreadWhileItRunsNameBothThreads() {
    for (boolean engine : new boolean[] {false, true}) {
      AriesSystem sys = system(engine);
      ShmemJob job = ShmemJob.builder(sys).nodes(0, farNode(engine)).build();
      List<List<String>> seen = new ArrayList<>();
      List<String> own = new ArrayList<>();
      job.run(pe -> {
        if (pe.myPe() == 0) {
          seen.add(fromOtherThread(() -> job.run(p -> { }), job::close));
        } else {
          try {
            job.close();
          } catch (IllegalStateException e) {
            own.add(e.getMessage());
          }
        }
        pe.barrierAll();
      });
      String runner = me();
      assertThat(seen).as("engine %s", engine).containsExactly(List.of(
          "run was called while this job runs (from thread \"other\" while thread \"" + runner + "\" runs it): a job"
              + " runs one program at a time",
          "this job cannot be closed while it runs (close was called from thread \"other\" while thread \"" + runner
              + "\" runs it): close it after run returns"));
      assertThat(own).as("engine %s", engine).containsExactly("this job cannot be closed while it runs (close was"
          + " called from its own PE 1): close it after run returns");
      assertThat(job.closed()).isFalse();
      job.run(pe -> pe.barrierAll()); // nothing was changed by the refusals
      job.close();
      assertThat(job.closed()).isTrue();
    }
  }

  @Test
  void anMpiJobsRunAndCloseFromAnUnrelatedThreadWhileItRunsNameBothThreads() {
    for (boolean engine : new boolean[] {false, true}) {
      AriesSystem sys = system(engine);
      MpiJob job = MpiJob.builder(sys).nodes(0, farNode(engine)).ranksPerNode(1).build();
      List<List<String>> seen = new ArrayList<>();
      List<String> own = new ArrayList<>();
      job.run(mpi -> {
        if (mpi.rank() == 0) {
          seen.add(fromOtherThread(() -> job.run(m -> { }), job::close));
        } else {
          try {
            job.run(m -> { });
          } catch (IllegalStateException e) {
            own.add(e.getMessage());
          }
        }
        mpi.barrier(mpi.world());
      });
      String runner = me();
      assertThat(seen).as("engine %s", engine).containsExactly(List.of(
          "run was called while this job runs (from thread \"other\" while thread \"" + runner + "\" runs it): a job"
              + " runs one program at a time",
          "this job cannot be closed while it runs (close was called from thread \"other\" while thread \"" + runner
              + "\" runs it): close it after run returns"));
      assertThat(own).as("engine %s", engine).containsExactly("run was called while this job runs (from its own rank"
          + " 1): a job runs one program at a time");
      job.run(mpi -> mpi.barrier(mpi.world())); // nothing was changed by the refusals
      job.close();
    }
  }
}
