package io.github.ariesmodel.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.system.mpi.MpiJob;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Calls that change a system's NICs are refused from a thread other than the one its clock belongs to, before they
 * change anything (found by stop 77's concurrency hunt: an allocation or a job built from another thread while a job
 * ran changed the NICs under that run and killed it).
 */
class ThreadOwnershipTest {

  private static Throwable onAnotherThread(Runnable call) throws InterruptedException {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread t = new Thread(() -> {
      try {
        call.run();
      } catch (Throwable e) {
        thrown.set(e);
      }
    }, "second");
    t.start();
    t.join();
    return thrown.get();
  }

  @Test
  void allocatingAndBuildingJobsFromAnotherThreadAreRefusedBeforeAnythingChanges() throws Exception {
    AriesSystem sys = AriesSystem.builder().seed(1).build();
    ShmemJob a = ShmemJob.builder(sys).nodes(0, 1).build();
    Symmetric x = a.allocate(64);
    a.run(pe -> pe.putLong(x, 0, 1, 1 - pe.myPe())); // the main thread owns the clock
    ShmemJob b = ShmemJob.builder(sys).nodes(0, 1).build();
    int queues = sys.node(0).nic().completionQueueCount();

    Throwable alloc = onAnotherThread(() -> b.allocate(4096));
    Throwable shmem = onAnotherThread(() -> ShmemJob.builder(sys).nodes(0, 1).build());
    Throwable mpi = onAnotherThread(() -> MpiJob.builder(sys).nodes(0, 1).build());

    assertThat(alloc).isInstanceOf(IllegalStateException.class).hasMessageContaining("ShmemJob.allocate")
        .hasMessageContaining("\"second\"");
    assertThat(shmem).isInstanceOf(IllegalStateException.class).hasMessageContaining("ShmemJob.Builder.build");
    assertThat(mpi).isInstanceOf(IllegalStateException.class).hasMessageContaining("MpiJob.Builder.build");
    assertThat(sys.node(0).nic().completionQueueCount()).isEqualTo(queues); // no job took a queue
    // the owner goes on as before
    Symmetric y = b.allocate(64);
    b.run(pe -> pe.putLong(y, 0, 2, 1 - pe.myPe()));
    a.run(pe -> pe.putLong(x, 8, 3, 1 - pe.myPe()));
  }

  @Test
  void statisticsDuringAnEnginesRunAreRefusedNamingTheCallMade() {
    AriesSystem sys = AriesSystem.builder().seed(1).threads(2).build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 1).build();
    AtomicReference<Throwable> seen = new AtomicReference<>();
    job.run(pe -> {
      if (pe.myPe() == 0) {
        try {
          sys.statistics();
        } catch (IllegalStateException e) {
          seen.set(e);
        }
      }
    });
    assertThat(seen.get()).hasMessageContaining("AriesSystem.statistics").hasMessageNotContaining("eventsExecuted");
    assertThat(sys.statistics()).isNotNull(); // between runs it reads
  }
}
