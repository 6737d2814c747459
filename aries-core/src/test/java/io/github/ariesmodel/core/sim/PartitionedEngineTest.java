package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.spi.EventHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The partitioned engine on the synthetic group model, and its failure modes. No timing. */
class PartitionedEngineTest {

  private static final long LOOKAHEAD = 50;

  /** What one run gave: the model's outcome, events run and windows crossed. */
  record Run(List<Long> outcome, long events, long windows, long now) {}

  private static Run run(int groups, int threads, long seed) {
    try (PartitionedEngine engine = PartitionedEngine.of(groups, LOOKAHEAD, threads)) {
      ToyGroupModel model = ToyGroupModel.onEngine(engine, 20_000, seed);
      model.start(3);
      engine.runUntil(30_000);
      return new Run(model.outcome(), engine.eventsExecuted(), engine.windows(), engine.now());
    }
  }

  @Test
  void oneTwoAndThreeThreadsGiveIdenticalResults() {
    Run one = run(7, 1, 42);
    assertThat(one.events()).as("the model does work").isGreaterThan(5_000);
    assertThat(run(7, 2, 42)).isEqualTo(one);
    assertThat(run(7, 3, 42)).isEqualTo(one);
    assertThat(run(7, 7, 42)).isEqualTo(one);
    assertThat(run(7, 1, 43).outcome()).as("another seed moves the hashes").isNotEqualTo(one.outcome());
  }

  @Test
  void resultsMatchTheReferenceOrderOfTimeSchedulingGroupAndItsCounter() {
    ToyGroupModel.Reference ref = new ToyGroupModel.Reference(5, LOOKAHEAD, 20_000, 9);
    ref.model.start(3);
    long events = ref.run();
    Run engine = run(5, 3, 9);
    assertThat(engine.outcome()).isEqualTo(ref.model.outcome());
    assertThat(engine.events()).isEqualTo(events);
  }

  @Test
  void groupsAreDealtInContiguousBlocks() {
    try (PartitionedEngine engine = PartitionedEngine.of(7, LOOKAHEAD, 3)) {
      List<Integer> parts = new ArrayList<>();
      for (int g = 0; g < 7; g++) {
        parts.add(engine.partitionOf(g));
      }
      assertThat(parts).containsExactly(0, 0, 0, 1, 1, 2, 2);
    }
  }

  @Test
  void runWhileChecksItsConditionAtWindowBoundariesTheSameForEveryThreadCount() {
    List<Run> runs = new ArrayList<>();
    for (int threads = 1; threads <= 3; threads++) {
      try (PartitionedEngine engine = PartitionedEngine.of(6, LOOKAHEAD, threads)) {
        ToyGroupModel model = ToyGroupModel.onEngine(engine, 1_000_000, 5);
        model.start(2);
        engine.runWhile(Long.MAX_VALUE, () -> sum(model.count) < 3_000);
        assertThat(sum(model.count)).isGreaterThanOrEqualTo(3_000);
        runs.add(new Run(model.outcome(), engine.eventsExecuted(), engine.windows(), engine.now()));
        // and it resumes where it stopped
        engine.runUntil(engine.now() + 10_000);
        runs.add(new Run(model.outcome(), engine.eventsExecuted(), engine.windows(), engine.now()));
      }
    }
    assertThat(runs.get(2)).isEqualTo(runs.get(0));
    assertThat(runs.get(3)).isEqualTo(runs.get(1));
    assertThat(runs.get(4)).isEqualTo(runs.get(0));
    assertThat(runs.get(5)).isEqualTo(runs.get(1));
  }

  @Test
  void releasedThreadsEndAndTheNextRunStartsNewOnesWithTheSameResult() throws InterruptedException {
    Run whole = wholeToyRun();
    try (PartitionedEngine engine = PartitionedEngine.of(6, LOOKAHEAD, 3)) {
      ToyGroupModel model = ToyGroupModel.onEngine(engine, 1_000_000, 5);
      model.start(2);
      engine.runUntil(400_000);
      engine.releaseThreads();
      assertThat(workerThreads()).as("no worker waits for a next run").isZero();
      engine.runUntil(Long.MAX_VALUE);
      assertThat(workerThreads()).as("the second run started its own").isEqualTo(2);
      engine.releaseThreads();
      // (a run split at a time has one window boundary more: the split)
      assertThat(model.outcome()).isEqualTo(whole.outcome());
      assertThat(engine.eventsExecuted()).isEqualTo(whole.events());
      assertThat(engine.now()).isEqualTo(whole.now());
    }
  }

  /** Worker threads from a caller's factory: one a partition after the first, named and daemons, same results. */
  @Test
  void workerThreadsComeFromTheCallersFactoryWithTheSameResult() {
    Run whole = wholeToyRun();
    List<Thread> made = new ArrayList<>();
    java.util.concurrent.ThreadFactory factory = r -> {
      Thread t = new Thread(r);
      made.add(t);
      return t;
    };
    try (PartitionedEngine engine = PartitionedEngine.of(6, LOOKAHEAD, 3)) {
      assertThat(engine.workerThreadFactory()).isNull();
      engine.workerThreads(factory);
      assertThat(engine.workerThreadFactory()).isSameAs(factory);
      ToyGroupModel model = ToyGroupModel.onEngine(engine, 1_000_000, 5);
      model.start(2);
      engine.runUntil(Long.MAX_VALUE);
      assertThat(made).extracting(Thread::getName).containsExactly("engine-partition-1", "engine-partition-2");
      assertThat(made).allMatch(Thread::isDaemon);
      assertThat(new Run(model.outcome(), engine.eventsExecuted(), engine.windows(), engine.now())).isEqualTo(whole);
      engine.group(0).scheduleAt(engine.now() + 1, (now, ref, arg) -> engine.workerThreads(null), null, 0);
      assertThatThrownBy(() -> engine.runUntil(Long.MAX_VALUE)).isInstanceOf(IllegalStateException.class)
          .hasMessage("engine is running; choose its worker threads after its run returns");
    }
  }

  /** The toy model on 6 groups and 3 threads, run to the end in one call on the engine's default threads. */
  private static Run wholeToyRun() {
    try (PartitionedEngine engine = PartitionedEngine.of(6, LOOKAHEAD, 3)) {
      ToyGroupModel model = ToyGroupModel.onEngine(engine, 1_000_000, 5);
      model.start(2);
      engine.runUntil(Long.MAX_VALUE);
      return new Run(model.outcome(), engine.eventsExecuted(), engine.windows(), engine.now());
    }
  }

  /** Live worker threads of engines (the engine joins released ones, so none is left over from another test). */
  private static long workerThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("engine-partition-") && t.isAlive()).count();
  }

  @Test
  void anEventForAGroupThatRanEarlierInTheWindowStartsTheNextWindow() {
    // one thread runs group 0, then group 1, through each window; group 1 schedules into group 0, which has already
    // run: the next window must start at that event, not at group 0's later one
    for (int threads = 1; threads <= 2; threads++) {
      try (PartitionedEngine engine = PartitionedEngine.of(2, LOOKAHEAD, threads)) {
        GroupScheduler g0 = engine.group(0);
        GroupScheduler g1 = engine.group(1);
        List<String> ran = new ArrayList<>();
        EventHandler inGroup1 = (now, ref, arg) -> ran.add("g1@" + now + " w" + engine.windows());
        EventHandler inGroup0 = (now, ref, arg) -> {
          ran.add("g0@" + now + " w" + engine.windows());
          if (now == LOOKAHEAD) {
            g0.scheduleInto(1, 2 * LOOKAHEAD, inGroup1, null, 0);
          }
        };
        g1.scheduleAt(0, (now, ref, arg) -> g1.scheduleInto(0, LOOKAHEAD, inGroup0, null, 0), null, 0);
        g0.scheduleAt(20 * LOOKAHEAD, inGroup0, null, 0);
        engine.runUntil(Long.MAX_VALUE);
        assertThat(ran).as("threads %d", threads)
            .containsExactly("g0@50 w2", "g1@100 w3", "g0@1000 w4");
        assertThat(engine.windows()).isEqualTo(4);
      }
    }
  }

  @Test
  void anEventForAnotherGroupInsideTheLookaheadIsRefused() {
    try (PartitionedEngine engine = PartitionedEngine.of(4, LOOKAHEAD, 2)) {
      EventHandler nothing = (now, ref, arg) -> { };
      GroupScheduler g0 = engine.group(0);
      g0.scheduleAt(10, (now, ref, arg) -> g0.scheduleInto(3, now + LOOKAHEAD - 1, nothing, null, 0), null, 0);
      assertThatThrownBy(() -> engine.runUntil(1_000)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("timePs of an event for group 3 scheduled by group 0 must be >= now + lookahead")
          .hasMessageContaining("(10 + 50 ps) but was 59 ps");
    }
  }

  /** A time that overflowed (now + Long.MAX_VALUE, Long.MIN_VALUE) passed the lookahead's difference test. */
  @Test
  void anEventForAnotherGroupAtAnOverflowedTimeIsRefusedWhereItIsScheduled() {
    for (long bad : new long[] {Long.MIN_VALUE, 10 + Long.MAX_VALUE}) {
      try (PartitionedEngine engine = PartitionedEngine.of(2, LOOKAHEAD, 1)) {
        EventHandler nothing = (now, ref, arg) -> { };
        GroupScheduler g0 = engine.group(0);
        g0.scheduleAt(10, (now, ref, arg) -> g0.scheduleInto(1, bad, nothing, null, 0), null, 0);
        assertThatThrownBy(() -> engine.runUntil(1_000)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("timePs of an event for group 1 scheduled by group 0 must be >= now + lookahead (10 + 50 ps)"
                + " but was " + bad + " ps");
      }
    }
  }

  /**
   * A group's event scheduling straight into a sibling's scheduler (not through scheduleInto) ran on one thread and
   * failed on two: refused on every thread count, and between runs still allowed.
   */
  @Test
  void anEventSchedulingIntoAnotherGroupsSchedulerIsRefusedOnEveryThreadCount() {
    for (int threads = 1; threads <= 2; threads++) {
      try (PartitionedEngine engine = PartitionedEngine.of(2, LOOKAHEAD, threads)) {
        EventHandler nothing = (now, ref, arg) -> { };
        GroupScheduler g1 = engine.group(1);
        engine.group(0).scheduleAt(1_000, (now, ref, arg) -> g1.scheduleAt(now + 5, nothing, null, 0), null, 0);
        if (threads == 1) {
          assertThatThrownBy(() -> engine.runUntil(10_000)).isInstanceOf(IllegalStateException.class)
              .hasMessage("group 1's scheduleAt was called by an event of group 0 while the engine runs: an event"
                  + " uses its own group's scheduler, and reaches another group through its scheduleInto (at least the"
                  + " lookahead, 50 ps, ahead)");
        } else {
          assertThatThrownBy(() -> engine.runUntil(10_000)).as("threads %d", threads)
              .isInstanceOf(IllegalStateException.class);
        }
      }
    }
    try (PartitionedEngine engine = PartitionedEngine.of(2, LOOKAHEAD, 1)) {
      List<Long> ran = new ArrayList<>();
      engine.group(1).scheduleAt(20, (now, ref, arg) -> ran.add(now), null, 0);
      engine.runUntil(10);
      engine.group(1).scheduleAt(15, (now, ref, arg) -> ran.add(now), null, 0);
      engine.runUntil(100);
      assertThat(ran).containsExactly(15L, 20L);
    }
  }

  /**
   * An event of group 0 using group 1's scheduleInto (to reach group 2) or reserveSequence: they had no check of the
   * running group, so on one thread the event was held to group 1's clock (late for group 2's window, it ran after
   * it, or was refused as before group 2's clock) and on three it failed the owner check. Refused on every count,
   * naming the groups where one thread runs both.
   */
  @Test
  void anEventUsingAnotherGroupsScheduleIntoOrReserveSequenceIsRefusedOnEveryThreadCount() {
    for (int threads = 1; threads <= 3; threads++) {
      for (String call : new String[] {"scheduleInto", "reserveSequence"}) {
        try (PartitionedEngine engine = PartitionedEngine.of(3, 1_000, threads)) {
          List<String> ran = new ArrayList<>();
          EventHandler rec = (now, ref, arg) -> ran.add(ref + "@" + now);
          GroupScheduler g1 = engine.group(1);
          engine.group(0).scheduleAt(5_000, (now, ref, arg) -> {
            if (call.equals("scheduleInto")) {
              g1.scheduleInto(2, now + 1_000, rec, "via group 1", 0);
            } else {
              g1.reserveSequence();
            }
          }, null, 0);
          g1.scheduleAt(10, rec, "g1", 0);
          int n = threads;
          var refused = assertThatThrownBy(() -> engine.runUntil(Long.MAX_VALUE)).as("%s, threads %d", call, n)
              .isInstanceOf(IllegalStateException.class);
          if (engine.partitionOf(0) == engine.partitionOf(1)) {
            refused.hasMessage("group 1's " + call + " was called by an event of group 0 while the engine runs: an"
                + " event uses its own group's scheduler, and reaches another group through its scheduleInto (at least"
                + " the lookahead, 1000 ps, ahead)");
          } else {
            refused.hasMessageContaining("owned by thread \"engine-partition-");
          }
          assertThat(ran).as("%s, threads %d", call, n).containsExactly("g1@10");
        }
      }
    }
  }

  /**
   * The engine's counts read from a handler gave a partial window's values on one thread (other groups' turns not
   * run yet) and failed the owner check on two: they are read between runs, and refused while the engine runs.
   */
  @Test
  void theEnginesCountsAreRefusedWhileItRunsAndReadBetweenRuns() {
    for (int threads = 1; threads <= 2; threads++) {
      try (PartitionedEngine engine = PartitionedEngine.of(2, 1_000, threads)) {
        List<Throwable> refused = new ArrayList<>();
        engine.group(1).scheduleAt(100, (now, ref, arg) -> { }, null, 0);
        engine.group(1).scheduleAt(700, (now, ref, arg) -> { }, null, 0);
        engine.group(0).scheduleAt(500, (now, ref, arg) -> {
          for (Runnable read : new Runnable[] {engine::nextEventTime, engine::pending, engine::eventsExecuted}) {
            try {
              read.run();
            } catch (IllegalStateException e) {
              refused.add(e);
            }
          }
        }, null, 0);
        assertThat(engine.pending()).isEqualTo(3);
        assertThat(engine.nextEventTime()).isEqualTo(100);
        assertThat(engine.runUntil(Long.MAX_VALUE)).isEqualTo(3);
        assertThat(refused).as("threads %d", threads).extracting(Throwable::getMessage).containsExactly(
            "nextEventTime is read between runs of the engine, not while it runs",
            "pending is read between runs of the engine, not while it runs",
            "eventsExecuted is read between runs of the engine, not while it runs");
        assertThat(engine.eventsExecuted()).isEqualTo(3);
        assertThat(engine.pending()).isZero();
        assertThat(engine.nextEventTime()).isEqualTo(Long.MAX_VALUE);
      }
    }
  }

  /**
   * A runWhile condition that throws ends the run at a window boundary, where no handler runs and which is the same
   * for every thread count: its exception comes out, and the engine runs on afterwards. It was taken for a handler's
   * failure, and every later run was refused with "a handler failed in an earlier run of this engine".
   */
  @Test
  void aRunWhileConditionThatThrowsEndsTheRunAndTheEngineRunsOn() {
    List<String> logs = new ArrayList<>();
    for (int threads = 1; threads <= 2; threads++) {
      try (PartitionedEngine engine = PartitionedEngine.of(2, 1_000, threads)) {
        StringBuffer log = new StringBuffer();
        EventHandler rec = (now, ref, arg) -> log.append(ref).append('@').append(now).append(' ');
        engine.group(0).scheduleAt(100, rec, "a", 0);
        engine.group(1).scheduleAt(5_000, rec, "b", 0);
        IllegalStateException broke = new IllegalStateException("my condition broke");
        int[] calls = {0};
        assertThatThrownBy(() -> engine.runWhile(Long.MAX_VALUE, () -> {
          if (calls[0]++ == 1) {
            throw broke;
          }
          return true;
        })).isSameAs(broke);
        log.append("| now ").append(engine.now()).append(" pending ").append(engine.pending()).append(" | ");
        assertThat(engine.runUntil(Long.MAX_VALUE)).isEqualTo(1);
        logs.add(log.toString());
      }
    }
    assertThat(logs).containsExactly("a@100 | now 100 pending 1 | b@5000 ", "a@100 | now 100 pending 1 | b@5000 ");
  }

  @Test
  void anEventAtLongMaxValueRunsAloneAndFromAnotherPartition() {
    // Long.MAX_VALUE is also the engine's "none pending": such an event, the only one left, used never to run
    try (PartitionedEngine engine = PartitionedEngine.of(1, 1, 1)) {
      List<Long> ran = new ArrayList<>();
      engine.group(0).scheduleAt(Long.MAX_VALUE, (now, ref, arg) -> ran.add(now), null, 0);
      assertThat(engine.runUntil(Long.MAX_VALUE)).isEqualTo(1);
      assertThat(ran).containsExactly(Long.MAX_VALUE);
      assertThat(engine.pending()).isZero();
    }
    for (int threads = 1; threads <= 2; threads++) {
      try (PartitionedEngine engine = PartitionedEngine.of(2, LOOKAHEAD, threads)) {
        List<String> ran = new ArrayList<>();
        GroupScheduler g0 = engine.group(0);
        g0.scheduleAt(10, (now, ref, arg) -> g0.scheduleInto(1, Long.MAX_VALUE, (t, r, a) -> ran.add("at " + t), null,
            0), null, 0);
        assertThat(engine.runUntil(Long.MAX_VALUE)).as("threads %d", threads).isEqualTo(2);
        assertThat(ran).containsExactly("at " + Long.MAX_VALUE);
        assertThat(engine.pending()).isZero();
      }
    }
  }

  /**
   * A window whose end would pass the clock's end still ends at the run's limit: runUntil(Long.MAX_VALUE - 2) ran an
   * event at Long.MAX_VALUE (the window's overflowed end was taken as Long.MAX_VALUE, limit or not).
   */
  @Test
  void runUntilNearTheEndOfTheClockStopsAtItsLimit() {
    for (int threads = 1; threads <= 2; threads++) {
      try (PartitionedEngine engine = PartitionedEngine.of(2, LOOKAHEAD, threads)) {
        List<String> ran = new ArrayList<>();
        long max = Long.MAX_VALUE;
        engine.group(0).scheduleAt(max - 2, (now, ref, arg) -> ran.add("MAX - " + (max - now)), null, 0);
        engine.group(1).scheduleAt(max, (now, ref, arg) -> ran.add("MAX - " + (max - now)), null, 0);
        assertThat(engine.runUntil(max - 2)).as("threads %d", threads).isEqualTo(1);
        assertThat(ran).containsExactly("MAX - 2");
        assertThat(engine.now()).isEqualTo(max - 2);
        assertThat(engine.runUntil(max - 1)).as("threads %d", threads).isZero();
        assertThat(engine.runUntil(max)).as("threads %d", threads).isEqualTo(1);
        assertThat(ran).containsExactly("MAX - 2", "MAX - 0");
      }
    }
  }

  @Test
  void aHandlerFailureOnAWorkerThreadComesOutOfRun() {
    try (PartitionedEngine engine = PartitionedEngine.of(3, LOOKAHEAD, 3)) {
      engine.group(2).scheduleAt(100, (now, ref, arg) -> {
        throw new IllegalStateException("boom in group 2");
      }, null, 0);
      assertThatThrownBy(() -> engine.runUntil(1_000)).isInstanceOf(IllegalStateException.class)
          .hasMessage("boom in group 2");
    }
  }

  /**
   * A throwable on a worker thread outside any handler (an OutOfMemoryError while it waits at the barrier, say; here
   * its thread fails before its first window) comes out of run on the caller's thread, and the JVM prints nothing: the
   * worker had no handler, so the JVM's own "Exception in thread" line came first and the run waited for ever.
   */
  @Test
  void aThrowableOnAWorkerOutsideAnyHandlerComesOutOfRunAndTheJvmPrintsNothing() throws Exception {
    java.util.concurrent.CompletableFuture<Throwable> outcome = new java.util.concurrent.CompletableFuture<>();
    Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
    Thread.setDefaultUncaughtExceptionHandler((t, e) -> outcome.complete(
        new AssertionError("the JVM's handler got " + e + " from " + t.getName())));
    try {
      Thread controller = new Thread(() -> {
        try (PartitionedEngine engine = PartitionedEngine.of(3, LOOKAHEAD, 3)) {
          int[] made = {0};
          engine.workerThreads(r -> new Thread(++made[0] == 2 ? () -> {
            throw new OutOfMemoryError("no heap for the worker");
          } : r));
          ToyGroupModel model = ToyGroupModel.onEngine(engine, 20_000, 1);
          model.start(2);
          engine.runUntil(30_000);
          outcome.complete(null);
        } catch (Throwable t) {
          outcome.complete(t);
        }
      });
      controller.setDaemon(true);
      controller.start();
      assertThat(outcome.get()).isInstanceOf(OutOfMemoryError.class).hasMessage("no heap for the worker");
      controller.join();
    } finally {
      Thread.setDefaultUncaughtExceptionHandler(previous);
    }
  }

  @Test
  void schedulingIntoAGroupOfAnotherPartitionDirectlyFailsFastNamingBothThreads() {
    try (PartitionedEngine engine = PartitionedEngine.of(2, LOOKAHEAD, 2)) {
      EventHandler nothing = (now, ref, arg) -> { };
      // a handler of group 0 (partition 0, the calling thread) misuses group 1's own scheduler
      engine.group(0).scheduleAt(5, (now, ref, arg) -> engine.group(1).scheduleAt(now + 1_000, nothing, null, 0),
          null, 0);
      assertThatThrownBy(() -> engine.runUntil(1_000)).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("owned by thread \"engine-partition-1\"")
          .hasMessageContaining("from thread \"" + Thread.currentThread().getName() + "\"");
    }
  }

  @Test
  void anotherThreadMayNotRunTheEngine() throws InterruptedException {
    try (PartitionedEngine engine = PartitionedEngine.of(2, LOOKAHEAD, 1)) {
      engine.runUntil(10);
      AtomicReference<Throwable> seen = new AtomicReference<>();
      Thread other = new Thread(() -> {
        try {
          engine.runUntil(20);
        } catch (Throwable t) {
          seen.set(t);
        }
      }, "other");
      other.start();
      other.join();
      assertThat(seen.get()).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("thread \"other\" called run");
      assertThat(engine.now()).isEqualTo(10);
    }
  }

  /**
   * {@code bindController} hands the engine and every group's loop to another thread between runs: it runs the engine
   * and schedules into any group, the old controller may do neither, and handing it back restores both.
   */
  @Test
  void bindControllerHandsTheEngineAndItsLoopsToAnotherThreadAndBack() throws InterruptedException {
    try (PartitionedEngine engine = PartitionedEngine.of(3, LOOKAHEAD, 2)) {
      List<String> log = new ArrayList<>();
      EventHandler note = (now, ref, arg) -> log.add(now + " " + ref);
      engine.group(0).scheduleAt(5, note, "g0", 0);
      engine.runUntil(10);
      AtomicReference<Throwable> seen = new AtomicReference<>();
      Thread other = new Thread(() -> {
        try {
          engine.group(2).scheduleAt(15, note, "g2", 0); // a group of another partition: any loop is its now
          engine.runUntil(20);
        } catch (Throwable t) {
          seen.set(t);
        }
      }, "other");
      engine.bindController(other);
      assertThatThrownBy(() -> engine.runUntil(30)).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("engine is run by thread \"other\"");
      other.start();
      other.join();
      assertThat(seen.get()).isNull();
      assertThat(log).containsExactly("5 g0", "15 g2");
      assertThatThrownBy(() -> engine.group(1).scheduleAt(25, note, "g1", 0))
          .isInstanceOf(IllegalStateException.class);
      engine.bindController(Thread.currentThread());
      engine.group(1).scheduleAt(25, note, "g1", 0);
      engine.runUntil(30);
      assertThat(log).containsExactly("5 g0", "15 g2", "25 g1");
      assertThatThrownBy(() -> engine.bindController(null)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("thread must not be null");
      engine.group(0).scheduleAt(35, (now, ref, arg) -> engine.bindController(Thread.currentThread()), null, 0);
      assertThatThrownBy(() -> engine.runUntil(40)).isInstanceOf(IllegalStateException.class)
          .hasMessage("engine is running; hand it to another thread after its run returns");
    }
  }

  @Test
  void badSettingsAreRefusedNamingTheParameter() {
    assertThatThrownBy(() -> PartitionedEngine.of(0, 1, 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("groups must be in [1, ").hasMessageEndingWith("but was 0");
    assertThatThrownBy(() -> PartitionedEngine.of(4, 0, 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("lookaheadPs must be >= 1 but was 0");
    assertThatThrownBy(() -> PartitionedEngine.of(4, 10, 5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("threads must be in [1, 4] (one group at least per thread) but was 5");
    // inside the range but beyond any heap: refused before a group is made (it used to end in OutOfMemoryError)
    assertThatThrownBy(() -> PartitionedEngine.of((1 << 23) - 1, 1, 1)).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("an engine of 8388607 groups needs at least 838860700000 bytes of Java heap")
        .hasMessageEndingWith("give it more heap (-Xmx) or use fewer groups");
    try (PartitionedEngine engine = PartitionedEngine.of(4, 10, 2)) {
      assertThatThrownBy(() -> engine.group(4)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("group must be in [0, 3] but was 4");
    }
  }

  @Test
  void reservedKeysRunWhereTheyWereTaken() {
    try (PartitionedEngine engine = PartitionedEngine.of(1, 10, 1)) {
      GroupScheduler g = engine.group(0);
      List<String> ran = new ArrayList<>();
      long early = g.reserveSequence();
      g.scheduleAt(7, (now, ref, arg) -> ran.add("later"), null, 0);
      g.scheduleReserved(7, early, (now, ref, arg) -> ran.add("reserved first"), null, 0);
      engine.runUntil(100);
      assertThat(ran).containsExactly("reserved first", "later");
      assertThatThrownBy(() -> g.scheduleReserved(200, 99, (now, ref, arg) -> { }, null, 0))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key must be one reserved by group 0");
    }
  }

  @Test
  void reservedKeysNeverReservedOrUsedTwiceInARowAreRefused() {
    try (PartitionedEngine engine = PartitionedEngine.of(2, 10, 1)) {
      GroupScheduler g = engine.group(1);
      long base = 1L << GroupScheduler.COUNTER_BITS;
      List<String> ran = new ArrayList<>();
      g.scheduleAt(5, (now, ref, arg) -> ran.add("plain"), null, 0);
      assertThatThrownBy(() -> g.scheduleReserved(5, base, (now, ref, arg) -> ran.add("bad"), null, 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("key must be one reserved by group 1 but it has reserved none yet; key was " + base);
      long key = g.reserveSequence();
      g.scheduleAt(6, (now, ref, arg) -> ran.add("plain after"), null, 0);
      assertThatThrownBy(() -> g.scheduleReserved(6, key + 1, (now, ref, arg) -> ran.add("bad"), null, 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("key must be one reserved by group 1, in [" + base + ", " + key + "] (its latest reserved) but"
              + " was " + (key + 1));
      g.scheduleReserved(6, key, (now, ref, arg) -> ran.add("reserved"), null, 0);
      assertThatThrownBy(() -> g.scheduleReserved(7, key, (now, ref, arg) -> ran.add("bad"), null, 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("key " + key + " was used by the previous scheduleReserved call of group 1 already; each"
              + " reserved key may be used once");
      engine.runUntil(100);
      assertThat(ran).containsExactly("plain", "reserved", "plain after");
    }
  }

  private static long sum(long[] a) {
    long s = 0;
    for (long v : a) {
      s += v;
    }
    return s;
  }

  @Test
  void aWarmerRunsOnTheGroupsThreadBeforeEachWindowInWhichTheGroupHasEventsAndOnlyThen() {
    try (PartitionedEngine engine = PartitionedEngine.of(4, LOOKAHEAD, 2)) {
      List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
      List<String> wrongThread = java.util.Collections.synchronizedList(new ArrayList<>());
      java.util.Map<Integer, Thread> threadOf = new java.util.concurrent.ConcurrentHashMap<>();
      engine.addWarmer(g -> {
        seen.add("warm " + g);
        threadOf.put(g, Thread.currentThread());
      });
      EventHandler h = (now, ref, arg) -> {
        int g = (int) arg;
        seen.add("run " + g + "@" + now);
        if (threadOf.get(g) != Thread.currentThread()) {
          wrongThread.add(g + "@" + now);
        }
      };
      // group 0: one event; group 2: two in the first window and one two windows on; groups 1 and 3: none
      engine.group(0).scheduleAt(10, h, null, 0);
      engine.group(2).scheduleAt(10, h, null, 2);
      engine.group(2).scheduleAt(20, h, null, 2);
      engine.group(2).scheduleAt(10 + 3 * LOOKAHEAD, h, null, 2);
      engine.runUntil(1_000);

      assertThat(ofGroup(seen, 0)).containsExactly("warm 0", "run 0@10");
      assertThat(ofGroup(seen, 2)).containsExactly("warm 2", "run 2@10", "run 2@20", "warm 2",
          "run 2@" + (10 + 3 * LOOKAHEAD));
      assertThat(ofGroup(seen, 1)).isEmpty();
      assertThat(ofGroup(seen, 3)).isEmpty();
      assertThat(wrongThread).isEmpty();
      assertThat(threadOf.get(2)).as("group 2 is partition 1's, run on a worker").isNotSameAs(Thread.currentThread());
    }
  }

  @Test
  void aWarmerIsRefusedWhenNullOrAddedDuringARun() {
    try (PartitionedEngine engine = PartitionedEngine.of(2, LOOKAHEAD, 1)) {
      assertThatThrownBy(() -> engine.addWarmer(null)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("warmer must not be null");
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      engine.group(0).scheduleAt(5, (now, ref, arg) -> {
        try {
          engine.addWarmer(g -> { });
        } catch (IllegalStateException e) {
          thrown.set(e);
        }
      }, null, 0);
      engine.runUntil(100);
      assertThat(thrown.get()).hasMessage("a warmer cannot be added while the engine runs");
    }
  }

  private static List<String> ofGroup(List<String> seen, int g) {
    synchronized (seen) {
      return seen.stream().filter(s -> s.startsWith("warm " + g) || s.startsWith("run " + g + "@")).toList();
    }
  }

  /**
   * A handler that throws while another group's turn in the window has not come: that group's events from the window
   * before lie before the time the first group reached. Handing them over used to fail ("timePs must be >= now") and
   * that failure replaced the handler's own; the handler's exception is what comes out, on one thread and on two.
   */
  @Test
  void aHandlersFailureIsReportedEvenWhenAGroupsTurnNeverCame() {
    for (int threads = 1; threads <= 2; threads++) {
      try (PartitionedEngine engine = PartitionedEngine.of(3, 1_000, threads)) {
        IllegalStateException mine = new IllegalStateException("my routing failed");
        EventHandler nothing = (t, ref, arg) -> { };
        // group 0 sends group 2 an event for the second window and runs on to 1,900 in it
        engine.group(0).scheduleAt(10, (t, ref, arg) -> engine.group(0).scheduleInto(2, 1_500, nothing, null, 0),
            null, 0);
        engine.group(0).scheduleAt(1_000, nothing, null, 0);
        engine.group(0).scheduleAt(1_900, nothing, null, 0);
        engine.group(1).scheduleAt(1_100, (t, ref, arg) -> {
          throw mine;
        }, null, 0);
        int n = threads;
        assertThatThrownBy(() -> engine.runUntil(Long.MAX_VALUE)).as("threads %d", n).isSameAs(mine);
        // which of the window's events ran depends on the thread count (group 2's at 1,500 ran beside group 1's on
        // two threads, not on one): the engine runs no more rather than go on from a state that differs by it
        assertThatThrownBy(() -> engine.runUntil(Long.MAX_VALUE)).as("threads %d", n)
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("a handler failed in an earlier run of this engine (IllegalStateException: my routing failed):"
                + " which events of that window ran depends on the thread count, so its state is undefined; build a"
                + " new engine");
      }
    }
  }

  /**
   * A closed engine runs no more ({@link PartitionedEngine#close}), so an event scheduled into one would never run:
   * each way of scheduling into it, and of handing its groups to another thread, is refused in one line, and nothing
   * is added. Until stop 77 every scheduling call was accepted and the event was lost without a word (only the next
   * run call said "engine is closed").
   */
  @Test
  void aClosedEngineRefusesSchedulingInOneLineAndTakesNothing() {
    for (int threads = 1; threads <= 2; threads++) {
      PartitionedEngine engine = PartitionedEngine.of(2, LOOKAHEAD, threads);
      // (the two groups run side by side on two threads)
      List<Long> ran = java.util.Collections.synchronizedList(new ArrayList<>());
      EventHandler h = (t, ref, arg) -> ran.add(t);
      engine.group(0).scheduleAt(10, h, null, 0);
      engine.group(1).scheduleAt(20, h, null, 0);
      engine.runUntil(100);
      assertThat(ran).containsExactlyInAnyOrder(10L, 20L);
      long reserved = engine.group(0).reserveSequence();
      engine.close();
      String refusal = "group 0 of a closed PartitionedEngine was called (%s): a closed engine runs no more, so"
          + " nothing scheduled into it would run; build a new engine";
      GroupScheduler g0 = engine.group(0);
      int n = threads;
      assertThatThrownBy(() -> g0.scheduleAt(200, h, null, 0)).as("threads %d", n)
          .isInstanceOf(IllegalStateException.class).hasMessage(refusal, "scheduleAt");
      assertThatThrownBy(() -> g0.scheduleInto(0, 200, h, null, 0)).as("threads %d", n)
          .isInstanceOf(IllegalStateException.class).hasMessage(refusal, "scheduleAt");
      assertThatThrownBy(() -> engine.group(1).scheduleInto(0, 200, h, null, 0)).as("threads %d", n)
          .isInstanceOf(IllegalStateException.class).hasMessage(refusal, "scheduleAt");
      assertThatThrownBy(() -> g0.reserveSequence()).as("threads %d", n)
          .isInstanceOf(IllegalStateException.class).hasMessage(refusal, "reserveSequence");
      assertThatThrownBy(() -> g0.scheduleReserved(200, reserved, h, null, 0)).as("threads %d", n)
          .isInstanceOf(IllegalStateException.class).hasMessage(refusal, "scheduleReserved");
      // from another thread too, and handing a group over would open it again
      AtomicReference<Throwable> other = new AtomicReference<>();
      Thread t = new Thread(() -> {
        try {
          g0.scheduleAt(200, h, null, 0);
        } catch (Throwable e) {
          other.set(e);
        }
      });
      t.start();
      try {
        t.join();
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
      assertThat(other.get()).as("threads %d", n).isInstanceOf(IllegalStateException.class)
          .hasMessage(refusal, "scheduleAt");
      assertThatThrownBy(() -> g0.bindOwner(Thread.currentThread())).as("threads %d", n)
          .isInstanceOf(IllegalStateException.class).hasMessage(refusal, "bindOwner");
      assertThatThrownBy(() -> engine.bindController(Thread.currentThread())).as("threads %d", n)
          .isInstanceOf(IllegalStateException.class).hasMessage("engine is closed");
      // nothing was taken, the counts still read, and a second close is harmless
      assertThat(engine.pending()).as("threads %d", n).isZero();
      assertThat(engine.eventsExecuted()).as("threads %d", n).isEqualTo(2);
      engine.close();
      assertThatThrownBy(() -> engine.runUntil(1_000)).isInstanceOf(IllegalStateException.class)
          .hasMessage("engine is closed");
      assertThat(ran).containsExactlyInAnyOrder(10L, 20L);
    }
  }

  /** Releasing the threads is not closing: the engine takes events and runs them after it. */
  @Test
  void anEngineWhoseThreadsWereReleasedStillSchedulesAndRuns() {
    try (PartitionedEngine engine = PartitionedEngine.of(2, LOOKAHEAD, 2)) {
      List<Long> ran = java.util.Collections.synchronizedList(new ArrayList<>());
      EventHandler h = (t, ref, arg) -> ran.add(t);
      engine.group(1).scheduleAt(10, h, null, 0);
      engine.runUntil(100);
      engine.releaseThreads();
      engine.group(0).scheduleAt(200, h, null, 0);
      engine.group(1).scheduleInto(0, 300, h, null, 0);
      engine.runUntil(1_000);
      assertThat(ran).containsExactly(10L, 200L, 300L);
    }
  }
}
