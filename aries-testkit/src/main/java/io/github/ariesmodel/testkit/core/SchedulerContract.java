package io.github.ariesmodel.testkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Scheduler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * The contract of core's {@link Scheduler} port, as an abstract JUnit 5 test: extend it, say how to make a fresh
 * scheduler and how to run it (the port itself only schedules; running is the owner's business), and the inherited
 * tests check what the port promises:
 *
 * <ul>
 *   <li>every event runs once, at the time it was scheduled for, with {@code now()} equal to that time while it runs
 *       and with its {@code ref} and {@code arg} unchanged;
 *   <li>events run in time order and time never goes backwards, across events and across calls of the runner;
 *   <li>events at equal times run in the order they were scheduled, including events scheduled for "now" from
 *       inside a handler (they run after those already waiting at that time);
 *   <li>scheduling before {@code now()} and a negative delay are refused with an {@link IllegalArgumentException}
 *       that names the bad value, and change nothing; {@code scheduleAfter(d)} is {@code scheduleAt(now() + d)};
 *   <li>events far ahead of others, up to {@code Long.MAX_VALUE} itself, wait behind the earlier ones and then run
 *       in time and scheduling order, none lost (a calendar queue keeps them apart from its ring of near buckets:
 *       beyond its horizon, and in the last bucket of the clock);
 *   <li>the same schedule gives the same run (a property test against a reference model: a list kept in (time,
 *       scheduling order), on random nested schedules whose times tie near 0, tie far ahead of it (around a base of
 *       2^20 to 2^40 ps, past the horizon of a calendar's ring and wrapping it as the run gets there), spread up to
 *       2^40 ps, and tie within 2 ps of {@code Long.MAX_VALUE}).
 * </ul>
 *
 * <pre>{@code
 * class MyLoopContractTest extends SchedulerContract<MyLoop> {
 *   protected MyLoop create() { return new MyLoop(); }
 *   protected void runUntil(MyLoop s, long timePs) { s.runUntil(timePs); }
 *   protected void runAll(MyLoop s) { s.run(); }
 * }
 * }</pre>
 *
 * <p>The port has no cancellation, so none is checked.
 *
 * @param <S> the scheduler under test
 */
public abstract class SchedulerContract<S extends Scheduler> {

  /** For subclasses. */
  protected SchedulerContract() {}

  /** @return a fresh scheduler with nothing pending, at time 0 */
  protected abstract S create();

  /**
   * Runs every pending event due at or before a time (and those they schedule that fall due by then).
   *
   * @param scheduler the scheduler
   * @param timePs the last time to run, picoseconds
   */
  protected abstract void runUntil(S scheduler, long timePs);

  /**
   * Runs events until none is pending.
   *
   * @param scheduler the scheduler
   */
  protected abstract void runAll(S scheduler);

  /** One event as a handler saw it run. */
  private record Ran(String label, long time, long now, Object ref, long arg) {}

  /** A handler that records every run, with the scheduler's now() at that moment. */
  private static final class Recorder implements EventHandler {
    final Scheduler scheduler;
    final String label;
    final List<Ran> log;

    Recorder(Scheduler scheduler, String label, List<Ran> log) {
      this.scheduler = scheduler;
      this.label = label;
      this.log = log;
    }

    @Override
    public void onEvent(long nowPs, Object ref, long arg) {
      log.add(new Ran(label, nowPs, scheduler.now(), ref, arg));
    }
  }

  @Test
  void startsAtZeroWithTheClockStillWhileNothingRuns() {
    S s = create();
    assertThat(s.now()).as("a fresh scheduler's time").isZero();
    List<Ran> log = new ArrayList<>();
    s.scheduleAt(500, new Recorder(s, "a", log), null, 0);
    assertThat(s.now()).as("scheduling does not move the clock").isZero();
    assertThat(log).as("scheduling does not run the event").isEmpty();
  }

  @Test
  void eventsRunAtTheirTimeWithTheirRefAndArg() {
    S s = create();
    List<Ran> log = new ArrayList<>();
    Object ref = new Object();
    s.scheduleAt(300, new Recorder(s, "c", log), null, Long.MIN_VALUE);
    s.scheduleAt(100, new Recorder(s, "a", log), ref, 42);
    s.scheduleAfter(200, new Recorder(s, "b", log), "text", -1);
    s.scheduleAt(0, new Recorder(s, "zero", log), null, 0);
    runAll(s);
    assertThat(log).containsExactly(
        new Ran("zero", 0, 0, null, 0),
        new Ran("a", 100, 100, ref, 42),
        new Ran("b", 200, 200, "text", -1),
        new Ran("c", 300, 300, null, Long.MIN_VALUE));
    assertThat(log.get(1).ref()).isSameAs(ref);
    assertThat(s.now()).as("now after the last event").isGreaterThanOrEqualTo(300);
  }

  @Test
  void equalTimesRunInSchedulingOrderIncludingEventsScheduledForNow() {
    S s = create();
    List<Ran> log = new ArrayList<>();
    s.scheduleAt(10, (now, ref, arg) -> {
      log.add(new Ran("first", now, s.now(), ref, arg));
      s.scheduleAt(s.now(), new Recorder(s, "scheduled-by-first-for-now", log), null, 0);
      s.scheduleAfter(0, new Recorder(s, "scheduled-by-first-after-0", log), null, 0);
    }, null, 0);
    for (int i = 0; i < 5; i++) {
      s.scheduleAt(10, new Recorder(s, "then-" + i, log), null, i);
    }
    s.scheduleAt(9, new Recorder(s, "earlier", log), null, 0);
    runAll(s);
    assertThat(log).extracting(Ran::label).containsExactly(
        "earlier", "first", "then-0", "then-1", "then-2", "then-3", "then-4", "scheduled-by-first-for-now",
        "scheduled-by-first-after-0");
    assertThat(log).allSatisfy(r -> assertThat(r.now()).as("now() inside %s", r.label()).isEqualTo(r.time()));
  }

  @Test
  void runningUntilATimeLeavesLaterEventsWaitingAndNeverGoesBack() {
    S s = create();
    List<Ran> log = new ArrayList<>();
    s.scheduleAt(100, new Recorder(s, "a", log), null, 0);
    s.scheduleAt(200, new Recorder(s, "b", log), null, 0);
    s.scheduleAt(201, new Recorder(s, "c", log), null, 0);
    runUntil(s, 200);
    assertThat(log).extracting(Ran::label).containsExactly("a", "b");
    long after = s.now();
    assertThat(after).as("now after running until 200").isGreaterThanOrEqualTo(200).isLessThanOrEqualTo(201);
    assertThatThrownBy(() -> s.scheduleAt(199, new Recorder(s, "past", log), null, 0))
        .as("scheduling before now after a run")
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("199");
    runAll(s);
    assertThat(log).extracting(Ran::label).containsExactly("a", "b", "c");
    assertThat(s.now()).isGreaterThanOrEqualTo(after);
  }

  @Test
  void schedulingInThePastIsRefusedAndChangesNothing() {
    S s = create();
    List<Ran> log = new ArrayList<>();
    List<Throwable> refused = new ArrayList<>();
    s.scheduleAt(1_000, (now, ref, arg) -> {
      try {
        s.scheduleAt(now - 1, new Recorder(s, "past", log), null, 0);
      } catch (IllegalArgumentException e) {
        refused.add(e);
      }
      try {
        s.scheduleAfter(-5, new Recorder(s, "negative", log), null, 0);
      } catch (IllegalArgumentException e) {
        refused.add(e);
      }
      s.scheduleAt(now, new Recorder(s, "now", log), null, 0);
    }, null, 0);
    runAll(s);
    assertThat(refused).as("refusals inside a handler at 1000 ps").hasSize(2);
    assertThat(refused.get(0)).hasMessageContaining("999");
    assertThat(refused.get(1)).hasMessageContaining("-5");
    assertThat(log).extracting(Ran::label).as("only the legal event ran").containsExactly("now");
    assertThatThrownBy(() -> s.scheduleAt(-1, new Recorder(s, "x", log), null, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1");
    runAll(s);
    assertThat(log).hasSize(1);
  }

  /**
   * Events at the end of the clock, scheduled while an earlier one waits (so a calendar queue holds them beyond its
   * ring, in the last bucket there is), all run, after the earlier ones, ties in scheduling order. The contract used to
   * schedule {@code Long.MAX_VALUE} into an empty scheduler only, and passed a scheduler that lost such an event, one
   * that ran far ties last-in-first-out, and the core loop with 1-ps buckets, which threw (stop 76).
   */
  @Test
  void eventsAtTheEndOfTheClockRunBehindEarlierOnesInSchedulingOrder() {
    S s = create();
    List<Ran> log = new ArrayList<>();
    long max = Long.MAX_VALUE;
    s.scheduleAt(0, (now, ref, arg) -> {
      log.add(new Ran("first", now, s.now(), ref, arg));
      s.scheduleAt(max, new Recorder(s, "end-from-a-handler", log), null, 4);
    }, null, 0);
    s.scheduleAt(max, new Recorder(s, "end-a", log), null, 1);
    s.scheduleAt(max, new Recorder(s, "end-b", log), null, 2);
    s.scheduleAt(max - 1, new Recorder(s, "almost", log), null, 3);
    runAll(s);
    assertThat(log).containsExactly(
        new Ran("first", 0, 0, null, 0),
        new Ran("almost", max - 1, max - 1, null, 3),
        new Ran("end-a", max, max, null, 1),
        new Ran("end-b", max, max, null, 2),
        new Ran("end-from-a-handler", max, max, null, 4));
  }

  /**
   * Random nested schedules agree with a reference model: a pending list ordered by (time, scheduling order). Each
   * event may schedule a few more, at now or later, so the tie rule is exercised inside handlers too. The times mix
   * four kinds (see {@link TimeCode}): ties near 0, ties around a base far ahead, times spread up to
   * 2^40 ps, and ties at the end of the clock; the limit of the partial run is of the same kinds.
   */
  @Test
  void randomSchedulesRunAsTheReferenceModelSays() {
    Gen<TimeCode> time = integers().between(0, 3).zip(longs().between(0, 20), longs().between(0, 1L << 40),
        TimeCode::new);
    qt().withExamples(300)
        .forAll(lists().of(time).ofSizeBetween(0, 30), longs().between(1L << 20, 1L << 40), time)
        .checkAssert((codes, base, limitCode) -> {
          List<Long> times = codes.stream().map(c -> c.time(base)).toList();
          long limit = new TimeCode(limitCode.kind(), limitCode.small() * 2, limitCode.wide()).time(base);
          S s = create();
          List<String> actual = drive(s, times);
          runUntil(s, limit);
          List<String> afterLimit = new ArrayList<>(actual);
          runAll(s);
          Reference model = new Reference();
          List<String> expected = drive(model, times);
          model.runAll();
          assertThat(actual).as("events in (time, scheduling order), times %s", times).isEqualTo(expected);
          assertThat(afterLimit).as("events run by runUntil(%s), times %s", limit, times)
              .isEqualTo(expected.stream().filter(e -> timeOf(e) <= limit).toList());
          S again = create();
          List<String> second = drive(again, times);
          runAll(again);
          assertThat(second).as("same schedule, same run").isEqualTo(actual);
        });
  }

  /**
   * A time of the property test: kind 0 is {@code small} (0 to 20: ties near 0), 1 is {@code base + small} (ties far
   * ahead), 2 is {@code wide} (0 to 2^40), 3 is {@code Long.MAX_VALUE - small % 3} (ties at the end of the clock).
   */
  private record TimeCode(int kind, long small, long wide) {
    long time(long base) {
      return switch (kind) {
        case 0 -> small;
        case 1 -> base + small;
        case 2 -> wide;
        default -> Long.MAX_VALUE - small % 3;
      };
    }
  }

  private static long timeOf(String entry) {
    return Long.parseLong(entry.substring(entry.indexOf('@') + 1));
  }

  /**
   * Schedules one event per time; each schedules {@code arg % 3} children at now + 0, 1, 2 (those that end within the
   * clock). Records label@time.
   */
  private static List<String> drive(Scheduler s, List<Long> times) {
    List<String> seen = new ArrayList<>();
    EventHandler h = new EventHandler() {
      @Override
      public void onEvent(long now, Object ref, long arg) {
        if (s.now() != now) {
          seen.add("now() was " + s.now() + " inside " + ref + "@" + now);
        }
        seen.add(ref + "@" + now);
        for (int c = 0; c < arg % 3 && ((String) ref).length() < 7 && now <= Long.MAX_VALUE - c; c++) {
          s.scheduleAfter(c, this, ref + "." + c, arg / 3 + c);
        }
      }
    };
    for (int i = 0; i < times.size(); i++) {
      s.scheduleAt(times.get(i), h, "e" + i, (times.get(i) & 0xFFFF) * 7 + i);
    }
    return seen;
  }

  /** The reference: a list sorted by (time, scheduling order), the obvious way. */
  private static final class Reference implements Scheduler {
    private record Pending(long time, long seq, EventHandler handler, Object ref, long arg) {}

    private final List<Pending> pending = new ArrayList<>();
    private long now;
    private long seq;

    @Override
    public long now() {
      return now;
    }

    @Override
    public void scheduleAt(long timePs, EventHandler handler, Object ref, long arg) {
      if (timePs < now) {
        throw new IllegalArgumentException("timePs " + timePs + " is before now " + now);
      }
      pending.add(new Pending(timePs, seq++, handler, ref, arg));
    }

    void runAll() {
      while (!pending.isEmpty()) {
        Pending next = pending.stream()
            .min(Comparator.comparingLong(Pending::time).thenComparingLong(Pending::seq)).orElseThrow();
        pending.remove(next);
        now = next.time;
        next.handler.onEvent(next.time, next.ref, next.arg);
      }
    }
  }
}
