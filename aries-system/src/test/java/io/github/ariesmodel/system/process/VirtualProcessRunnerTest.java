package io.github.ariesmodel.system.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
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
        seen.add(Thread.currentThread().getName() + " virtual " + isVirtual(Thread.currentThread()));
        self.waitUntil(() -> false);
        seen.add("never");
      });
      runner.run();
      assertThat(runner.unfinished()).extracting(SimProcess::name).containsExactly("stuck");
    }
    stuckThread[0].join(); // close() interrupted it: its code ended without going on
    assertThat(seen).containsExactly("sim-stuck virtual true");
  }

  /** {@code Thread.isVirtual()}, which a Java 17 build cannot call directly. */
  static boolean isVirtual(Thread t) {
    try {
      return (Boolean) Thread.class.getMethod("isVirtual").invoke(t);
    } catch (ReflectiveOperationException e) {
      return false;
    }
  }
}
