package io.github.ariesmodel.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.ariesmodel.core.sim.PartitionedEngine;
import io.github.ariesmodel.system.mpi.MpiJob;
import io.github.ariesmodel.system.mpi.MpiProgram;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.ShmemProgram;
import io.github.ariesmodel.system.shmem.Symmetric;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A system's clock belongs to the thread that first runs it. A job's run from another thread is refused before the
 * job records anything, so that once the clock is handed over ({@code loop().bindOwner}, or the engine's
 * {@code bindController}) the same job runs: the loop's own refusal came from inside the run, which counted as
 * failed, and the job could never run again (the review of stop 72).
 */
class JobRunOwnerThreadTest {

  /** Runs {@code body} on a thread of its own named "worker" and waits for it, rethrowing what it threw. */
  private static void onWorker(Runnable body) throws InterruptedException {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread t = new Thread(() -> {
      try {
        body.run();
      } catch (Throwable e) {
        thrown.set(e);
      }
    }, "worker");
    t.start();
    t.join();
    if (thrown.get() != null) {
      throw new AssertionError("the worker's run failed", thrown.get());
    }
  }

  private static String me() {
    return Thread.currentThread().getName();
  }

  private static ShmemProgram put(Symmetric x, long value) {
    return pe -> {
      if (pe.myPe() == 0) {
        pe.putLong(x, 0, value, 1);
        pe.quiet();
      } else {
        pe.waitUntil(x, 0, w -> w == value);
      }
    };
  }

  @Test
  void aShmemRunFromAThreadThatDoesNotOwnTheLoopChangesNothingAndRunsOnceTheLoopIsHandedOver() throws Exception {
    AriesSystem sys = AriesSystem.builder().seed(1).build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 1).build();
    Symmetric x = job.allocate(64);
    onWorker(() -> job.run(put(x, 1)));
    long now = sys.now();
    long events = sys.eventsExecuted();
    long took = job.lastRunPs();
    Throwable refused = catchThrowable(() -> job.run(put(x, 2)));
    assertThat(refused).isInstanceOf(IllegalStateException.class).hasMessageContaining("\"worker\"");
    assertThat(sys.now()).isEqualTo(now);
    assertThat(sys.eventsExecuted()).isEqualTo(events);
    assertThat(sys.loop().pending()).isZero();
    assertThat(job.lastRunPs()).isEqualTo(took);
    sys.loop().bindOwner(Thread.currentThread());
    long[] seen = {0};
    job.run(pe -> {
      put(x, 3).run(pe);
      seen[0] = pe.myPe() == 1 ? pe.localLong(x, 0) : seen[0];
    });
    assertThat(seen[0]).isEqualTo(3);
    assertThat(sys.now()).isGreaterThan(now);
    assertThat(refused).hasMessage("system default's event loop is owned by thread \"worker\" but ShmemJob.run was"
        + " called from thread \"" + me() + "\"; a system is run by one thread (loop().bindOwner(thread) hands it"
        + " over)");
  }

  @Test
  void anMpiRunAndASetOfJobsFromAThreadThatDoesNotOwnTheLoopRunOnceTheLoopIsHandedOver() throws Exception {
    AriesSystem sys = AriesSystem.builder().seed(1).build();
    MpiJob a = MpiJob.builder(sys).nodes(0, 1).build();
    MpiJob b = MpiJob.builder(sys).nodes(2, 3).build();
    MpiProgram barrier = mpi -> mpi.barrier(mpi.world());
    onWorker(() -> a.run(barrier));
    long now = sys.now();
    Throwable alone = catchThrowable(() -> a.run(barrier));
    assertThat(alone).isInstanceOf(IllegalStateException.class).hasMessageContaining("\"worker\"");
    Throwable set = catchThrowable(() -> MpiJob.together().job(a, barrier).job(b, barrier).run());
    assertThat(set).isInstanceOf(IllegalStateException.class).hasMessageContaining("\"worker\"");
    assertThat(sys.now()).isEqualTo(now);
    assertThat(sys.loop().pending()).isZero();
    sys.loop().bindOwner(Thread.currentThread());
    a.run(barrier);
    MpiJob.together().job(a, barrier).job(b, barrier).run();
    assertThat(a.lastRunPs()).isPositive();
    assertThat(b.lastRunPs()).isPositive();
    assertThat(sys.now()).isGreaterThan(now);
    assertThat(alone).hasMessage("system default's event loop is owned by thread \"worker\" but MpiJob.run was"
        + " called from thread \"" + me() + "\"; a system is run by one thread (loop().bindOwner(thread) hands it"
        + " over)");
    assertThat(set).hasMessageStartingWith("system default's event loop is owned by thread \"worker\" but"
        + " MpiJob.Together.run");
  }

  @Test
  void onAPartitionedEngineTheRunIsRefusedUpFrontAndRunsOnceTheEngineIsHandedOver() throws Exception {
    AriesSystem sys = AriesSystem.builder().system("two-groups").threads(2).seed(1).build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 384).build();
    Symmetric x = job.allocate(64);
    onWorker(() -> job.run(put(x, 1)));
    long now = sys.now();
    Throwable refused = catchThrowable(() -> job.run(put(x, 2)));
    assertThat(refused).isInstanceOf(IllegalStateException.class).hasMessageContaining("\"worker\"");
    assertThat(sys.now()).isEqualTo(now);
    PartitionedEngine engine = sys.engine().orElseThrow();
    engine.bindController(Thread.currentThread());
    job.run(put(x, 3));
    assertThat(sys.now()).isGreaterThan(now);
    assertThat(refused).hasMessage("system two-groups's engine is run by thread \"worker\" but ShmemJob.run was"
        + " called from thread \"" + me() + "\"; a system is run by one thread (engine().get().bindController(thread)"
        + " hands it over)");
  }
}
