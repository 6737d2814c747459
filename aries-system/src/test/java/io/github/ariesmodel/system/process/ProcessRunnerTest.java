package io.github.ariesmodel.system.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProcessRunnerTest {

  @Test
  void sleepingProcessesInterleaveBySimulatedTimeAndSchedulingOrder() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<String> log = new ArrayList<>();
    try (ProcessRunner runner = new ProcessRunner(loop)) {
      for (int i = 0; i < 3; i++) {
        int id = i;
        runner.spawn("p" + i, self -> {
          for (int k = 0; k < 3; k++) {
            log.add(self.now() + ":p" + id);
            self.sleep(10L * (id + 1));
          }
        });
      }
      runner.run();
      assertThat(runner.unfinished()).isEmpty();
    }
    assertThat(log).containsExactly(
        "0:p0", "0:p1", "0:p2", "10:p0", "20:p1", "20:p0", "30:p2", "40:p1", "60:p2");
    // at t=20 p1 runs first: it scheduled its wake-up at t=0, p0 only at t=10
  }

  @Test
  void theLoopFollowsControlAndStaysClosedToOtherThreads() throws InterruptedException {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<String> seen = new ArrayList<>();
    try (ProcessRunner runner = new ProcessRunner(loop)) {
      runner.spawn("p", self -> {
        seen.add("owner " + (loop.owner() == Thread.currentThread()));
        Thread outsider = new Thread(() -> {
          try {
            loop.scheduleAt(loop.now() + 1, (now, ref, arg) -> { }, null, 0);
            seen.add("outsider scheduled");
          } catch (IllegalStateException e) {
            seen.add("outsider refused");
          }
        }, "outsider");
        outsider.start();
        try {
          outsider.join();
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
        self.sleep(5); // schedules from the process's thread
        seen.add("woke at " + self.now());
      });
      runner.run();
      assertThat(runner.unfinished()).isEmpty();
    }
    assertThat(seen).containsExactly("owner true", "outsider refused", "woke at 5");
    assertThat(loop.owner()).isSameAs(Thread.currentThread());
  }

  @Test
  void waitUntilResumesOnlyWhenWokenWithTheConditionTrue() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    int[] flag = {0};
    long[] seenAt = {-1};
    try (ProcessRunner runner = new ProcessRunner(loop)) {
      SimProcess waiter = runner.spawn("waiter", self -> {
        self.waitUntil(() -> flag[0] == 2);
        seenAt[0] = self.now();
      });
      loop.scheduleAt(100, (now, ref, arg) -> { flag[0] = 1; runner.wake(waiter); }, null, 0);
      loop.scheduleAt(250, (now, ref, arg) -> { flag[0] = 2; runner.wake(waiter); }, null, 0);
      runner.run();
      assertThat(runner.unfinished()).isEmpty();
    }
    assertThat(seenAt[0]).isEqualTo(250);
  }

  @Test
  void aProcessThatNeverGetsItsConditionIsReportedUnfinished() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    try (ProcessRunner runner = new ProcessRunner(loop)) {
      runner.spawn("stuck", self -> self.waitUntil(() -> false));
      runner.run();
      assertThat(runner.unfinished()).extracting(SimProcess::name).containsExactly("stuck");
    }
  }

  @Test
  void anExceptionInProcessCodeSurfacesFromRun() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    try (ProcessRunner runner = new ProcessRunner(loop)) {
      runner.spawn("bad", self -> {
        self.sleep(5);
        throw new IllegalStateException("boom at " + self.now());
      });
      assertThatThrownBy(runner::run)
          .isInstanceOf(ProcessRunner.ProcessFailedException.class)
          .hasRootCauseMessage("boom at 5");
    }
  }

  @Test
  void sameProgramGivesTheSameInterleavingEveryRun() {
    assertThat(interleaving()).isEqualTo(interleaving());
  }

  private static List<String> interleaving() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<String> log = new ArrayList<>();
    try (ProcessRunner runner = new ProcessRunner(loop)) {
      for (int i = 0; i < 20; i++) {
        int id = i;
        runner.spawn("p" + i, self -> {
          for (int k = 0; k < 5; k++) {
            self.sleep((id * 7L + k * 3L) % 11);
            log.add(id + "@" + self.now());
          }
        });
      }
      runner.run();
    }
    return log;
  }
}
