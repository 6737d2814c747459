package io.github.ariesmodel.system.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.PartitionedEngine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every example of {@link ProcessRunnerTest} again with processes on virtual threads. Skipped on a JVM without them
 * (before Java 21): run the module's tests on a newer JVM to exercise them ({@code mvn -pl aries-system test
 * -Djvm=/path/to/java21+/bin/java}, CONTRIBUTING.md).
 */
class VirtualProcessRunnerTest extends ProcessRunnerTest {

  @BeforeEach
  void needsVirtualThreads() {
    assumeTrue(ProcessRunner.virtualThreadsAvailable(), "this JVM has no virtual threads (Java 21 or later)");
  }

  @Override
  ProcessRunner.ThreadKind kind() {
    return ProcessRunner.ThreadKind.VIRTUAL;
  }

  @Test
  void processesRunOnVirtualThreadsAndCloseEndsTheWaitingOnes() throws InterruptedException {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<String> seen = new ArrayList<>();
    Thread[] stuckThread = new Thread[1];
    try (ProcessRunner runner = new ProcessRunner(loop, kind())) {
      assertThat(runner.threadKind()).isEqualTo(ProcessRunner.ThreadKind.VIRTUAL);
      runner.spawn("stuck", self -> {
        stuckThread[0] = Thread.currentThread();
        Thread me = Thread.currentThread();
        seen.add(me.getName() + " virtual " + ProcessRunner.isVirtual(me));
        self.waitUntil(() -> false);
        seen.add("never");
      });
      runner.run();
      assertThat(runner.unfinished()).extracting(SimProcess::name).containsExactly("stuck");
    }
    stuckThread[0].join(); // close() interrupted it: its code ended without going on
    assertThat(seen).containsExactly("sim-stuck virtual true");
  }

  /**
   * On an engine, {@code run()} drives every partition from a virtual thread (so that their hand-offs to processes
   * stay off the kernel), and the caller has the engine and its loops back afterwards.
   */
  @Test
  void onAnEngineRunDrivesTheFirstPartitionFromAVirtualThreadAndGivesTheEngineBack() {
    for (int threads = 1; threads <= 2; threads++) {
      List<String> log = new ArrayList<>();
      try (PartitionedEngine engine = PartitionedEngine.of(2, 100, threads);
          ProcessRunner runner = new ProcessRunner(engine, kind())) {
        runner.spawn("p", 0, self -> self.sleep(10));
        engine.group(0).scheduleAt(150, (now, ref, arg) -> log.add(now + " on " + where()), null, 0);
        String[] group1 = new String[1]; // (its own slot: with two threads group 1 runs beside group 0)
        engine.group(1).scheduleAt(150, (now, ref, arg) -> group1[0] = now + " on " + where(), null, 0);
        runner.run();
        assertThat(group1[0]).as("threads %d", threads)
            .isEqualTo("150 on engine-partition-" + (threads - 1) + " virtual true");
        assertThat(runner.unfinished()).isEmpty();
        // the caller's again: it schedules and runs
        Thread caller = Thread.currentThread();
        engine.group(0).scheduleAt(300, (now, ref, arg) -> log.add(now + " on the caller "
            + (Thread.currentThread() == caller)), null, 0);
        engine.runUntil(Long.MAX_VALUE);
      }
      assertThat(log).as("threads %d", threads)
          .containsExactly("150 on engine-partition-0 virtual true", "300 on the caller true");
    }
  }

  /** The calling thread's name and whether it is virtual. */
  private static String where() {
    Thread me = Thread.currentThread();
    return me.getName() + " virtual " + ProcessRunner.isVirtual(me);
  }
}
