package io.github.ariesmodel.system.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.GroupScheduler;
import io.github.ariesmodel.core.sim.PartitionedEngine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Examples of the runner on platform threads; {@link VirtualProcessRunnerTest} runs every one of them again on virtual
 * threads where the JVM has them.
 */
class ProcessRunnerTest {

  /** @return the kind of thread the runners of these examples use */
  ProcessRunner.ThreadKind kind() {
    return ProcessRunner.ThreadKind.PLATFORM;
  }

  @Test
  void sleepingProcessesInterleaveBySimulatedTimeAndSchedulingOrder() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<String> log = new ArrayList<>();
    try (ProcessRunner runner = new ProcessRunner(loop, kind())) {
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
    try (ProcessRunner runner = new ProcessRunner(loop, kind())) {
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
    try (ProcessRunner runner = new ProcessRunner(loop, kind())) {
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
    try (ProcessRunner runner = new ProcessRunner(loop, kind())) {
      runner.spawn("stuck", self -> self.waitUntil(() -> false));
      runner.run();
      assertThat(runner.unfinished()).extracting(SimProcess::name).containsExactly("stuck");
    }
  }

  /**
   * A run stopped while a process sleeps leaves the process's wake-up queued: closing the runner takes it out, so a
   * later run on the same clock ends at its own last event, not at the wake-up's time (where the clock used to end,
   * 1 ms on; the wake-up itself did nothing, the process being killed).
   */
  @Test
  void closingARunnerTakesItsStoppedProcessesWakeUpsOutOfTheQueue() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    try (ProcessRunner runner = new ProcessRunner(loop, kind())) {
      runner.spawn("sleeper", self -> self.sleep(1_000_000_000));
      loop.scheduleAt(10, (now, ref, arg) -> loop.stop(), null, 0);
      runner.run();
      assertThat(runner.unfinished()).extracting(SimProcess::name).containsExactly("sleeper");
    }
    loop.scheduleAt(20, (now, ref, arg) -> { }, null, 0);
    loop.run();
    assertThat(loop.now()).isEqualTo(20);
    assertThat(loop.pending()).isZero();
    for (int threads = 1; threads <= 2; threads++) {
      try (PartitionedEngine engine = PartitionedEngine.of(2, 100, threads)) {
        try (ProcessRunner runner = new ProcessRunner(engine, kind())) {
          runner.spawn("sleeper", 0, self -> self.sleep(1_000_000_000));
          engine.group(1).scheduleAt(10, (now, ref, arg) -> engine.stop(), null, 0);
          runner.run();
          assertThat(runner.unfinished()).extracting(SimProcess::name).containsExactly("sleeper");
        }
        long end = engine.now();
        engine.group(0).scheduleAt(end + 20, (now, ref, arg) -> { }, null, 0);
        engine.runUntil(Long.MAX_VALUE);
        assertThat(engine.now()).as("threads %d", threads).isEqualTo(end + 20);
        assertThat(engine.pending()).isZero();
      }
    }
  }

  /**
   * Closing the runner from a thread other than the one that ran the engine throws nothing (the removal of its
   * wake-ups would be refused by the engine's loops, and close() runs in a finally, where it would hide the run's own
   * failure): the wake-up is left, as on a loop whose owner is another thread.
   */
  @Test
  void closingFromAThreadThatDoesNotRunTheEngineThrowsNothing() throws InterruptedException {
    try (PartitionedEngine engine = PartitionedEngine.of(2, 100, 2)) {
      ProcessRunner runner = new ProcessRunner(engine, kind());
      runner.spawn("sleeper", 0, self -> self.sleep(1_000_000_000));
      engine.group(1).scheduleAt(10, (now, ref, arg) -> engine.stop(), null, 0);
      Thread other = new Thread(runner::run, "runner-thread");
      engine.bindController(other);
      other.start();
      other.join();
      assertThat(runner.unfinished()).extracting(SimProcess::name).containsExactly("sleeper");
      runner.close();
      assertThat(engine.pending()).isEqualTo(1);
    }
  }

  @Test
  void anExceptionInProcessCodeSurfacesFromRun() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    try (ProcessRunner runner = new ProcessRunner(loop, kind())) {
      runner.spawn("bad", self -> {
        self.sleep(5);
        throw new IllegalStateException("boom at " + self.now());
      });
      assertThatThrownBy(runner::run)
          .isInstanceOf(ProcessRunner.ProcessFailedException.class)
          .hasRootCauseMessage("boom at 5");
    }
  }

  /**
   * The runner's message names the process and its time, then the cause's own message: it quoted the cause's
   * {@code toString()}, a Java class name ("java.lang.IllegalStateException: boom at 5") in every library user's
   * message (until stop 70). The cause stays attached; one without a message is named by its simple class name.
   */
  @Test
  void aFailureNamesTheProcessItsTimeAndTheCausesOwnMessage() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    IllegalStateException thrown = new IllegalStateException("boom at 5");
    try (ProcessRunner runner = new ProcessRunner(loop, kind())) {
      runner.spawn("bad", self -> {
        self.sleep(5);
        throw thrown;
      });
      assertThatThrownBy(runner::run).isInstanceOf(ProcessRunner.ProcessFailedException.class)
          .hasMessage("simulated process bad failed at 5 ps: boom at 5").hasCause(thrown);
    }
    try (ProcessRunner runner = new ProcessRunner(new DeterministicEventLoop(), kind())) {
      runner.spawn("bare", self -> {
        self.sleep(7);
        throw new UnsupportedOperationException();
      });
      assertThatThrownBy(runner::run).isInstanceOf(ProcessRunner.ProcessFailedException.class)
          .hasMessage("simulated process bare failed at 7 ps: UnsupportedOperationException")
          .cause().isExactlyInstanceOf(UnsupportedOperationException.class);
    }
  }

  /**
   * The runner's message is one line that names what failed: a cause of an anonymous class without a message gave
   * "simulated process pe1 failed at 0 ps: ", nothing after the colon (its simple name is empty), and a cause's message
   * with line breaks made the message several lines (until stop 71). The cause stays attached, its message as it was.
   */
  @Test
  void aFailureIsOneLineNamingTheCauseEvenAnAnonymousOneOrOneWithLineBreaks() {
    RuntimeException anonymous = new RuntimeException() { };
    try (ProcessRunner runner = new ProcessRunner(new DeterministicEventLoop(), kind())) {
      runner.spawn("pe1", self -> {
        throw anonymous;
      });
      assertThatThrownBy(runner::run).isInstanceOf(ProcessRunner.ProcessFailedException.class)
          .hasMessage("simulated process pe1 failed at 0 ps: " + anonymous.getClass().getName()).hasCause(anonymous);
    }
    String lines = "first line\n  second line\r\n\nthird line\n";
    IllegalStateException broken = new IllegalStateException(lines);
    try (ProcessRunner runner = new ProcessRunner(new DeterministicEventLoop(), kind())) {
      runner.spawn("pe2", self -> {
        self.sleep(3);
        throw broken;
      });
      assertThatThrownBy(runner::run).isInstanceOf(ProcessRunner.ProcessFailedException.class)
          .hasMessage("simulated process pe2 failed at 3 ps: first line second line third line").hasCause(broken)
          .cause().hasMessage(lines);
    }
  }

  @Test
  void aSleepEndingPastTheClocksEndIsRefusedNamingPsAndItsRange() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    try (ProcessRunner runner = new ProcessRunner(loop, kind())) {
      runner.spawn("long", self -> {
        self.sleep(1_000);
        self.sleep(Long.MAX_VALUE); // used to wrap to a negative time and fail as "timePs must be >= now"
      });
      assertThatThrownBy(runner::run).isInstanceOf(ProcessRunner.ProcessFailedException.class)
          .hasRootCauseMessage("ps must be in [0, " + (Long.MAX_VALUE - 1_000) + "] (to end within the clock from"
              + " now, 1000 ps) but was " + Long.MAX_VALUE);
    }
  }

  /**
   * Under {@code run()} a process that suspends carries the loop's next events on its own thread (the run is handed
   * from process to process, not back to the caller each time): an event that falls between two of its sleeps runs
   * on the thread of the process that suspended last, and the order is the one of the loop.
   */
  @Test
  void underRunTheProcessThatSuspendedRunsTheNextEventsOnItsThread() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<String> log = new ArrayList<>();
    try (ProcessRunner runner = new ProcessRunner(loop, kind())) {
      runner.spawn("p0", self -> {
        log.add(self.now() + ":p0");
        self.sleep(10);
        log.add(self.now() + ":p0");
      });
      runner.spawn("p1", self -> {
        log.add(self.now() + ":p1");
        self.sleep(20);
        log.add(self.now() + ":p1");
      });
      loop.scheduleAt(15, (now, ref, arg) -> log.add(now + ":event on " + Thread.currentThread().getName()), null, 0);
      runner.run();
      assertThat(runner.unfinished()).isEmpty();
    }
    // p0 ended at 10, and its thread went on with the loop until it resumed p1 at 20
    assertThat(log).containsExactly("0:p0", "0:p1", "10:p0", "15:event on sim-p0", "20:p1");
    assertThat(loop.owner()).isSameAs(Thread.currentThread());
  }

  @Test
  void anEventThatThrowsWhileAProcessCarriesTheRunSurfacesFromRunAsItself() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    try (ProcessRunner runner = new ProcessRunner(loop, kind())) {
      runner.spawn("sleeper", self -> self.sleep(50));
      loop.scheduleAt(7, (now, ref, arg) -> {
        throw new IllegalArgumentException("event failed at " + now);
      }, null, 0);
      assertThatThrownBy(runner::run).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("event failed at 7");
      assertThat(runner.unfinished()).extracting(SimProcess::name).containsExactly("sleeper");
      assertThat(loop.owner()).isSameAs(Thread.currentThread());
      assertThat(loop.pending()).isEqualTo(1); // the sleeper's wake-up at 50
    }
  }

  @Test
  void aProcessStillWaitingWhenARunEndsGoesOnInTheNextRun() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    boolean[] go = {false};
    long[] wokeAt = {-1};
    try (ProcessRunner runner = new ProcessRunner(loop, kind())) {
      SimProcess waiter = runner.spawn("waiter", self -> {
        self.sleep(3);
        self.waitUntil(() -> go[0]);
        wokeAt[0] = self.now();
        self.sleep(4);
      });
      runner.run();
      assertThat(runner.unfinished()).containsExactly(waiter);
      loop.runUntil(40);
      go[0] = true;
      runner.wake(waiter);
      runner.run();
      assertThat(runner.unfinished()).isEmpty();
    }
    assertThat(wokeAt[0]).isEqualTo(40);
    assertThat(loop.now()).isEqualTo(44);
  }

  /**
   * A caller that drives the loop itself, with its own runUntil (carried up to its limit) or event by event (control
   * comes back at every suspension), and then run(): the same order as run() alone.
   */
  @Test
  void aLoopDrivenByItsCallerAndThenByRunGivesTheSameInterleaving() {
    List<String> expected = interleaving();
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<String> log = new ArrayList<>();
    try (ProcessRunner runner = new ProcessRunner(loop, kind())) {
      spawnInterleaved(runner, log);
      loop.runUntil(12);
      int before = log.size();
      assertThat(before).isPositive().isLessThan(expected.size());
      assertThat(loop.now()).isEqualTo(12);
      assertThat(loop.owner()).isSameAs(Thread.currentThread());
      for (int i = 0; i < 40; i++) {
        assertThat(loop.step()).isTrue();
      }
      assertThat(log.size()).isGreaterThan(before).isLessThan(expected.size());
      runner.run();
      assertThat(runner.unfinished()).isEmpty();
    }
    assertThat(log).isEqualTo(expected);
  }

  @Test
  void sameProgramGivesTheSameInterleavingEveryRun() {
    assertThat(interleaving()).isEqualTo(interleaving());
  }

  private List<String> interleaving() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<String> log = new ArrayList<>();
    try (ProcessRunner runner = new ProcessRunner(loop, kind())) {
      spawnInterleaved(runner, log);
      runner.run();
    }
    return log;
  }

  private static void spawnInterleaved(ProcessRunner runner, List<String> log) {
    for (int i = 0; i < 20; i++) {
      int id = i;
      runner.spawn("p" + i, self -> {
        for (int k = 0; k < 5; k++) {
          self.sleep((id * 7L + k * 3L) % 11);
          log.add(id + "@" + self.now());
        }
      });
    }
  }

  /** Processes in three groups that message each other one lookahead ahead: the same log for 1, 2 and 3 threads. */
  @Test
  void onAnEngineEachGroupsProcessesRunOnItsThreadWithTheSameResultForEveryThreadCount() {
    List<String> one = engineLog(1);
    assertThat(one).hasSize(3 * 4 + 3 * 3);
    assertThat(engineLog(2)).isEqualTo(one);
    assertThat(engineLog(3)).isEqualTo(one);
  }

  @Test
  void onAnEngineTheLowestGroupsFailureIsReportedWhateverTheThreadCount() {
    for (int threads = 1; threads <= 3; threads++) {
      try (PartitionedEngine engine = PartitionedEngine.of(3, 100, threads);
          ProcessRunner runner = new ProcessRunner(engine, kind())) {
        for (int g = 2; g >= 0; g--) {
          int group = g;
          runner.spawn("p" + g, g, self -> {
            self.sleep(50);
            throw new IllegalStateException("failed in group " + group);
          });
        }
        assertThatThrownBy(runner::run).isInstanceOf(ProcessRunner.ProcessFailedException.class)
            .hasMessageContaining("failed in group 0");
      }
    }
  }

  /**
   * On an engine a group's process carries its group's window: a group event between two of its sleeps runs on the
   * process's thread, the partition's thread gets control back at the window's end, and so for every thread count.
   */
  @Test
  void onAnEngineAProcessCarriesItsGroupsWindow() {
    for (int threads = 1; threads <= 2; threads++) {
      List<String> log = new ArrayList<>();
      try (PartitionedEngine engine = PartitionedEngine.of(2, 100, threads);
          ProcessRunner runner = new ProcessRunner(engine, kind())) {
        runner.spawn("p", 1, self -> {
          self.sleep(10);
          self.sleep(10);
          log.add("p ends at " + self.now());
        });
        engine.group(1).scheduleAt(15, (now, ref, arg) -> log.add("15 on " + Thread.currentThread().getName()), null,
            0);
        // in the next window, with no process resumed: on the partition's thread again
        engine.group(1).scheduleAt(150, (now, ref, arg) -> log.add("150 on a process thread: "
            + Thread.currentThread().getName().startsWith("sim-")), null, 0);
        runner.run();
        assertThat(runner.unfinished()).isEmpty();
      }
      assertThat(log).as("threads %d", threads)
          .containsExactly("15 on sim-p", "p ends at 20", "150 on a process thread: false");
    }
  }

  /** An event that throws on a process's thread carrying an engine's window ends the run with that exception. */
  @Test
  @org.junit.jupiter.api.Timeout(60)
  void onAnEngineAnEventThatThrowsWhileAProcessCarriesTheWindowSurfacesFromRun() {
    for (int threads = 1; threads <= 2; threads++) {
      try (PartitionedEngine engine = PartitionedEngine.of(2, 100, threads);
          ProcessRunner runner = new ProcessRunner(engine, kind())) {
        runner.spawn("p", 1, self -> {
          self.sleep(10);
          self.sleep(500);
        });
        engine.group(1).scheduleAt(15, (now, ref, arg) -> {
          throw new IllegalArgumentException("event failed at " + now);
        }, null, 0);
        assertThatThrownBy(runner::run).as("threads %d", threads).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("event failed at 15");
        assertThat(runner.unfinished()).extracting(SimProcess::name).containsExactly("p");
      }
    }
  }

  @Test
  void onAnEngineAGroupOutOfRangeIsRefusedInOneLine() {
    try (PartitionedEngine engine = PartitionedEngine.of(3, 100, 1);
        ProcessRunner runner = new ProcessRunner(engine, kind())) {
      assertThatThrownBy(() -> runner.spawn("p", 3, self -> { })).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("group must be in [0, 2] but was 3");
    }
  }

  /**
   * Each group's process sleeps, logs, and sends a "message" (an event into the next group, one lookahead ahead)
   * that sets a per-group flag and wakes the receiver, which waits for it: a ring of three groups.
   */
  private List<String> engineLog(int threads) {
    List<List<String>> logs = new ArrayList<>();
    for (int g = 0; g < 3; g++) {
      logs.add(new ArrayList<>());
    }
    try (PartitionedEngine engine = PartitionedEngine.of(3, 100, threads);
        ProcessRunner runner = new ProcessRunner(engine, kind())) {
      int[] received = new int[3];
      SimProcess[] procs = new SimProcess[3];
      for (int g = 0; g < 3; g++) {
        int me = g;
        procs[g] = runner.spawn("p" + g, g, self -> {
          GroupScheduler mine = engine.group(me);
          for (int k = 0; k < 3; k++) {
            self.sleep(10L * (me + 1));
            logs.get(me).add(self.now() + " send " + k);
            int to = (me + 1) % 3;
            mine.scheduleInto(to, self.now() + 100 + me, (now, ref, arg) -> {
              received[to]++;
              runner.wake(procs[to]);
            }, null, 0);
            int want = k + 1;
            self.waitUntil(() -> received[me] >= want);
            logs.get(me).add(self.now() + " got " + k);
          }
          logs.get(me).add("done at " + self.now() + " on " + (Thread.currentThread().getName().startsWith("sim-")));
        });
      }
      runner.run();
      assertThat(runner.unfinished()).isEmpty();
    }
    List<String> all = new ArrayList<>();
    for (int g = 0; g < 3; g++) {
      for (String line : logs.get(g)) {
        all.add(g + ": " + line);
      }
    }
    return all;
  }
}
