package io.github.ariesmodel.testkit.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Scheduler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManualSchedulerTest {

  @Test
  void advanceRunsDueEventsInOrderAndStopsTheClockWhereAsked() {
    ManualScheduler clock = new ManualScheduler();
    List<String> seen = new ArrayList<>();
    clock.scheduleAt(30, (now, ref, arg) -> seen.add("c@" + now), null, 0);
    clock.scheduleAt(10, (now, ref, arg) -> {
      seen.add("a@" + now);
      clock.scheduleAfter(0, (n2, r2, a2) -> seen.add("a'@" + n2), null, 0);
      clock.scheduleAfter(25, (n2, r2, a2) -> seen.add("a''@" + n2), null, 0);
    }, null, 0);
    clock.scheduleAt(10, (now, ref, arg) -> seen.add("b@" + now), null, 0);
    assertThat(clock.advanceTo(9)).isZero();
    assertThat(clock.now()).isEqualTo(9);
    assertThat(clock.advanceBy(21)).isEqualTo(4);
    assertThat(seen).containsExactly("a@10", "b@10", "a'@10", "c@30");
    assertThat(clock.now()).isEqualTo(30);
    assertThat(clock.pending()).isEqualTo(1);
    assertThat(clock.nextEventTime()).isEqualTo(35);
    assertThat(clock.runNext()).isTrue();
    assertThat(clock.now()).isEqualTo(35);
    assertThat(clock.runNext()).isFalse();
    assertThat(clock.executed()).isEqualTo(5);
  }

  @Test
  void callerMistakesAreRejected() {
    ManualScheduler clock = new ManualScheduler(100);
    assertThatThrownBy(() -> clock.advanceTo(99))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timePs must be >= now (100 ps) but was 99 ps");
    assertThatThrownBy(() -> clock.advanceBy(-1)).hasMessageContaining("delayPs must be in [0, 9223372036854775707] (to end within the clock from now, 100 ps) but was -1");
    assertThatThrownBy(() -> clock.scheduleAt(50, (n, r, a) -> {}, null, 0)).hasMessageContaining("but was 50 ps");
    assertThatThrownBy(() -> new ManualScheduler(-5)).hasMessageContaining("startPs must be >= 0 but was -5");
  }

  /**
   * A handler that moves the clock itself is refused: a handler at 100 ps calling advanceTo(300) inside the test's
   * advanceTo(200) ran an event at 250 ps, and the outer call then set the clock back to 200.
   */
  @Test
  void aHandlerMayNotMoveTheClockItself() {
    ManualScheduler clock = new ManualScheduler();
    List<String> seen = new ArrayList<>();
    List<Runnable> nested = List.of(() -> clock.advanceTo(300), () -> clock.advanceBy(200), clock::runNext,
        () -> clock.runAll(10));
    List<String> names = List.of("advanceTo", "advanceBy", "runNext", "runAll");
    for (int i = 0; i < nested.size(); i++) {
      Runnable call = nested.get(i);
      clock.scheduleAt(clock.now() + 100, (now, ref, arg) -> {
        try {
          call.run();
        } catch (IllegalStateException e) {
          seen.add(e.getMessage());
        }
      }, null, 0);
      clock.scheduleAt(clock.now() + 150, (now, ref, arg) -> seen.add("ran at " + now), null, 0);
      long start = clock.now();
      clock.advanceTo(start + 200);
      assertThat(seen).as(names.get(i)).containsExactly(names.get(i) + " was called by an event handler while"
          + " advanceTo runs events (at " + (start + 100) + " ps); the test moves the clock, between its calls: a"
          + " handler schedules an event instead", "ran at " + (start + 150));
      assertThat(clock.now()).isEqualTo(start + 200);
      seen.clear();
    }
    clock.scheduleAt(clock.now() + 10, (now, ref, arg) -> clock.advanceBy(5), null, 0);
    assertThatThrownBy(() -> clock.runNext()).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("advanceBy was called by an event handler while runNext runs events");
    clock.scheduleAt(clock.now() + 10, (now, ref, arg) -> clock.runNext(), null, 0);
    assertThatThrownBy(() -> clock.runAll(5)).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("runNext was called by an event handler while runAll runs events");
    assertThat(clock.advanceBy(1)).as("the clock runs on after a refusal").isZero();
  }

  @Test
  void runAllBoundsSelfSchedulingComponents() {
    ManualScheduler clock = new ManualScheduler();
    EventHandler forever = new EventHandler() {
      @Override
      public void onEvent(long now, Object ref, long arg) {
        clock.scheduleAfter(1, this, null, 0);
      }
    };
    clock.scheduleAt(0, forever, null, 0);
    assertThatThrownBy(() -> clock.runAll(100))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("after 100 events");
  }

  /** Schedules events that each schedule {@code arg % 3} more, and records (label, time). */
  private static List<String> drive(Scheduler s, List<Long> times, Runnable run) {
    List<String> seen = new ArrayList<>();
    EventHandler h = new EventHandler() {
      @Override
      public void onEvent(long now, Object ref, long arg) {
        seen.add(ref + "@" + now);
        for (int c = 0; c < arg % 3 && ((String) ref).length() < 6; c++) {
          s.scheduleAfter(c, this, ref + "." + c, arg / 3 + c);
        }
      }
    };
    for (int i = 0; i < times.size(); i++) {
      s.scheduleAt(times.get(i), h, "e" + i, times.get(i) * 7 + i);
    }
    run.run();
    return seen;
  }

  @Test
  void agreesWithTheCoreEventLoop() {
    qt().withExamples(1_000).forAll(lists().of(longs().between(0, 15)).ofSizeBetween(0, 40), integers().between(0, 40))
        .checkAssert((times, limit) -> {
          DeterministicEventLoop loop = new DeterministicEventLoop();
          ManualScheduler clock = new ManualScheduler();
          assertThat(drive(clock, times, () -> clock.advanceTo(limit)))
              .isEqualTo(drive(loop, times, () -> loop.runUntil(limit)));
          assertThat(clock.now()).isEqualTo(loop.now());
          assertThat(clock.pending()).isEqualTo(loop.pending());
        });
  }
}
