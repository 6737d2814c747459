package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.spi.EventHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Entering a run of the {@link PartitionedEngine}: a call that is refused changes nothing, and of two threads racing
 * into an engine exactly one runs (found by stop 77's concurrency hunt). No timing: the threads meet at barriers and
 * joins.
 */
class PartitionedEngineEntryTest {

  private static final EventHandler NOTHING = (now, ref, arg) -> { };

  /**
   * The loops belong to the thread that scheduled the set-up; another thread's run is refused by their owner check,
   * and the engine is left as it was: no controller, its clock at 0, and its owner runs it. The controller (and the
   * run's limit and condition) used to be set before that check, so the refused thread became the controller and the
   * real owner was refused from then on ("engine is run by thread "other" but thread "main" called run").
   */
  @Test
  void aRunTheLoopsOwnerCheckRefusesChangesNothingAndTheOwnerRunsOn() throws InterruptedException {
    for (int threads = 1; threads <= 2; threads++) {
      try (PartitionedEngine engine = PartitionedEngine.of(2, 1_000, threads)) {
        long[] ranAt = new long[2]; // (each group's own slot: the groups may run on two threads)
        EventHandler note = (now, ref, arg) -> ranAt[(int) arg] = now;
        engine.group(0).scheduleAt(100, note, null, 0); // set-up on this thread: it owns the loops
        engine.group(1).scheduleAt(200, note, null, 1);
        AtomicReference<Throwable> refused = new AtomicReference<>();
        Thread other = new Thread(() -> {
          try {
            engine.runUntil(10_000);
          } catch (Throwable t) {
            refused.set(t);
          }
        }, "other");
        other.start();
        other.join();
        String me = Thread.currentThread().getName();
        assertThat(refused.get()).as("threads %d", threads).isInstanceOf(IllegalStateException.class)
            .hasMessage("event loop owned by thread \"" + me + "\" was called (run) from thread \"other\"; a loop is"
                + " used by one thread (PartitionedEngine.bindController hands it over)");
        assertThat(engine.controller()).as("threads %d", threads).isNull();
        assertThat(engine.isRunning()).isFalse();
        assertThat(engine.now()).isZero();
        assertThat(engine.pending()).isEqualTo(2);

        assertThat(engine.runUntil(10_000)).as("threads %d", threads).isEqualTo(2);
        assertThat(ranAt).containsExactly(100, 200);
        assertThat(engine.controller()).isSameAs(Thread.currentThread());
        assertThat(engine.now()).isEqualTo(10_000);
      }
    }
  }

  /** What one of two racing threads saw: its run's outcome, then (if it ran) a second run's. */
  private record Attempt(Thread thread, Throwable refused, Throwable again) {}

  /**
   * Two threads call run on a fresh engine at once: exactly one runs, the other is refused in one line, and the one
   * that ran is the controller and runs again. The checks and the changes used to interleave (the controller was set
   * before the loops were checked, and the running flag after), so the refused thread could be left the controller or
   * both could pass the checks. Repeated: the race is the threads' to win.
   */
  @Test
  void ofTwoThreadsRacingIntoAFreshEngineExactlyOneRunsAndTheOtherIsRefusedInOneLine() throws Exception {
    for (int threads = 1; threads <= 2; threads++) {
      for (int rep = 0; rep < 200; rep++) {
        try (PartitionedEngine engine = PartitionedEngine.of(2, 1_000, threads)) {
          CyclicBarrier start = new CyclicBarrier(2);
          CyclicBarrier raced = new CyclicBarrier(2);
          Attempt[] seen = new Attempt[2];
          Thread[] racers = new Thread[2];
          for (int k = 0; k < 2; k++) {
            int kk = k;
            racers[k] = new Thread(() -> {
              Throwable refused = null;
              Throwable again = null;
              try {
                start.await();
                try {
                  engine.runUntil(5_000);
                } catch (RuntimeException e) {
                  refused = e;
                }
                raced.await();
                if (refused == null) {
                  try {
                    engine.group(kk).scheduleAt(6_000, NOTHING, null, 0); // the loops are its own
                    engine.runUntil(7_000);
                  } catch (RuntimeException e) {
                    again = e;
                  }
                }
              } catch (Exception e) {
                refused = e;
              }
              seen[kk] = new Attempt(Thread.currentThread(), refused, again);
            }, "racer-" + k);
            racers[k].start();
          }
          for (Thread t : racers) {
            t.join();
          }
          int r = rep;
          int n = threads;
          List<Attempt> ran = new ArrayList<>();
          for (Attempt a : seen) {
            if (a.refused() == null) {
              ran.add(a);
            } else {
              assertThat(a.refused()).as("threads %d rep %d", n, r).isInstanceOf(IllegalStateException.class);
              assertThat(a.refused().getMessage()).as("threads %d rep %d", n, r).doesNotContain("\n");
            }
          }
          assertThat(ran).as("threads %d rep %d: the racers that ran", n, r).hasSize(1);
          assertThat(ran.get(0).again()).as("threads %d rep %d: the winner's second run", n, r).isNull();
          assertThat(engine.controller()).as("threads %d rep %d", n, r).isSameAs(ran.get(0).thread());
          assertThat(engine.now()).isEqualTo(7_000);
          assertThat(engine.eventsExecuted()).isEqualTo(1);
        }
      }
    }
  }
}
