package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.ReadAhead;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeterministicEventLoopTest {

  @Test
  void equalTimesRunInSchedulingOrderAndTimesAscend() {
    DeterministicEventLoop loop = new DeterministicEventLoop(2);
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      long t = (i * 7919L) % 5; // many ties, out of order
      String label = t + ":" + i;
      loop.scheduleAt(t, (now, ref, arg) -> seen.add((String) ref), label, i);
    }
    loop.run();
    assertThat(seen).hasSize(50);
    for (int k = 1; k < seen.size(); k++) {
      String[] a = seen.get(k - 1).split(":");
      String[] b = seen.get(k).split(":");
      long ta = Long.parseLong(a[0]);
      long tb = Long.parseLong(b[0]);
      assertThat(ta).isLessThanOrEqualTo(tb);
      if (ta == tb) {
        assertThat(Integer.parseInt(a[1])).isLessThan(Integer.parseInt(b[1]));
      }
    }
    assertThat(loop.now()).isEqualTo(4);
    assertThat(loop.eventsExecuted()).isEqualTo(50);
  }

  @Test
  void schedulingInThePastIsRejectedWithTheTimes() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    loop.scheduleAt(100, (now, ref, arg) -> {}, null, 0);
    loop.run();
    assertThatThrownBy(() -> loop.scheduleAt(99, (now, ref, arg) -> {}, null, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timePs must be >= now (100 ps) but was 99 ps");
  }

  @Test
  void runUntilStopsAtTheLimitAndAdvancesTheClock() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<Long> times = new ArrayList<>();
    for (long t : new long[] {10, 20, 30}) {
      loop.scheduleAt(t, (now, ref, arg) -> times.add(now), null, 0);
    }
    assertThat(loop.runUntil(25)).isEqualTo(2);
    assertThat(times).containsExactly(10L, 20L);
    assertThat(loop.now()).isEqualTo(25);
    assertThat(loop.pending()).isEqualTo(1);
  }

  @Test
  void stopEndsTheRunAfterTheCurrentEventAndLeavesTheClockThere() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<Long> times = new ArrayList<>();
    loop.scheduleAt(10, (now, ref, arg) -> times.add(now), null, 0);
    loop.scheduleAt(20, (now, ref, arg) -> {
      times.add(now);
      loop.stop();
    }, null, 0);
    loop.scheduleAt(30, (now, ref, arg) -> times.add(now), null, 0);
    assertThat(loop.runUntil(100)).isEqualTo(2);
    assertThat(loop.now()).isEqualTo(20);
    assertThat(loop.nextEventTime()).isEqualTo(30);
    assertThat(loop.run()).isEqualTo(1);
    assertThat(times).containsExactly(10L, 20L, 30L);
  }

  @Test
  void runWhileChecksTheConditionBeforeEachEvent() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<Long> args = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      loop.scheduleAt(i, (now, ref, arg) -> args.add(arg), null, i);
    }
    assertThat(loop.runWhile(() -> args.size() < 3)).isEqualTo(3);
    assertThat(args).containsExactly(0L, 1L, 2L);
    assertThat(loop.pending()).isEqualTo(2);
    assertThat(loop.step()).isTrue();
    assertThat(loop.step()).isTrue();
    assertThat(loop.step()).isFalse();
  }

  @Test
  void refAndArgComeBackUnchangedAndScheduleAfterIsRelativeToNow() {
    DeterministicEventLoop loop = new DeterministicEventLoop(1);
    Object token = new Object();
    List<Object> seen = new ArrayList<>();
    loop.scheduleAt(5, (now, ref, arg) -> loop.scheduleAfter(7, (n2, r2, a2) -> {
      seen.add(n2);
      seen.add(r2);
      seen.add(a2);
    }, ref, arg + 1), token, Long.MAX_VALUE - 1);
    loop.run();
    assertThat(seen).containsExactly(12L, token, Long.MAX_VALUE);
  }

  /**
   * An event at Long.MAX_VALUE with 1-ps buckets (a width the constructor accepts): its bucket number is
   * Long.MAX_VALUE, which "the ring is empty" also was, so loading it from the far heap loaded the empty ring bucket
   * too and run() threw ArrayIndexOutOfBoundsException (chunkNext[-1]), and every later call again.
   */
  @Test
  void anEventAtTheEndOfTheClockRunsWithOnePsBuckets() {
    DeterministicEventLoop loop = new DeterministicEventLoop(16, 0, 6);
    List<String> seen = new ArrayList<>();
    loop.scheduleAt(0, (now, ref, arg) -> seen.add("first@" + now), null, 0);
    loop.scheduleAt(Long.MAX_VALUE, (now, ref, arg) -> seen.add("last@" + now), null, 0);
    assertThat(loop.run()).isEqualTo(2);
    assertThat(seen).containsExactly("first@0", "last@" + Long.MAX_VALUE);
    assertThat(loop.pending()).isZero();
    assertThat(loop.now()).isEqualTo(Long.MAX_VALUE);
    assertThat(loop.nextEventTime()).isEqualTo(Long.MAX_VALUE);
    assertThat(loop.run()).isZero();
  }

  /**
   * Ties at the end of the clock wait in the far heap behind an earlier event and run in scheduling order, one
   * scheduled by a handler last, on every width (1-ps buckets, where the last bucket is Long.MAX_VALUE, up to the
   * widest) and ring size.
   */
  @Test
  void tiesAtTheEndOfTheClockRunInSchedulingOrderOnEveryGeometry() {
    long max = Long.MAX_VALUE;
    for (int width : new int[] {0, 1, 6, 40}) {
      for (int ring : new int[] {6, 14}) {
        DeterministicEventLoop loop = new DeterministicEventLoop(1, width, ring);
        List<String> seen = new ArrayList<>();
        EventHandler rec = (now, ref, arg) -> seen.add(ref + "@" + (max - now));
        loop.scheduleAt(0, (now, ref, arg) -> {
          seen.add("first@" + now);
          loop.scheduleAt(max, rec, "d", 0);
        }, null, 0);
        loop.scheduleAt(max, rec, "a", 0);
        loop.scheduleAt(max, rec, "b", 0);
        loop.scheduleAt(max - 1, rec, "c", 0);
        assertThat(loop.runUntil(max - 1)).as("width 2^%s, ring 2^%s, up to MAX - 1", width, ring).isEqualTo(2);
        assertThat(loop.run()).as("width 2^%s, ring 2^%s, the rest", width, ring).isEqualTo(3);
        // times as distances from Long.MAX_VALUE: "a@0" ran at Long.MAX_VALUE
        assertThat(seen).as("width 2^%s, ring 2^%s", width, ring)
            .containsExactly("first@0", "c@1", "a@0", "b@0", "d@0");
        assertThat(loop.pending()).isZero();
      }
    }
  }

  @Test
  void aReservedSequenceRunsWhereTheEventWouldHaveRunIfScheduledAtReservation() {
    DeterministicEventLoop loop = new DeterministicEventLoop(2, 0, 6);
    List<String> seen = new ArrayList<>();
    loop.scheduleAt(500, (now, ref, arg) -> seen.add("first"), null, 0);
    long reserved = loop.reserveSequence();
    loop.scheduleAt(500, (now, ref, arg) -> seen.add("third"), null, 0);
    // Decided later, from inside an event at time 100: it must still run before "third", and after "first".
    loop.scheduleAt(100, (now, ref, arg) -> {
      seen.add("early");
      loop.scheduleReserved(500, reserved, (n, r, a) -> seen.add("second"), null, 0);
    }, null, 0);
    loop.run();
    assertThat(seen).containsExactly("early", "first", "second", "third");
    assertThat(loop.eventsExecuted()).isEqualTo(4);
  }

  @Test
  void scheduleReservedRefusesTheCurrentTimeAndUnreservedNumbers() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    long reserved = loop.reserveSequence();
    loop.scheduleAt(50, (now, ref, arg) -> {}, null, 0);
    loop.run();
    assertThatThrownBy(() -> loop.scheduleReserved(50, reserved, (now, ref, arg) -> {}, null, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timePs must be > now (50 ps) but was 50 ps");
    assertThatThrownBy(() -> loop.scheduleReserved(60, 2, (now, ref, arg) -> {}, null, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("seq must be a reserved number in [0, 0] (the latest reserved) but was 2");
    assertThat(loop.pending()).isZero();
  }

  @Test
  void scheduleReservedRefusesANumberNeverReservedAndOneUsedTwiceInARow() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<String> seen = new ArrayList<>();
    loop.scheduleAt(10, (now, ref, arg) -> seen.add("plain 0"), null, 0);
    // Number 0 went to scheduleAt and nothing was reserved: it was accepted, a second event under key (10, 0).
    assertThatThrownBy(() -> loop.scheduleReserved(10, 0, (now, ref, arg) -> seen.add("bad"), null, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("seq must be a number taken by reserveSequence() but none was taken yet; seq was 0");
    long reserved = loop.reserveSequence();
    loop.scheduleAt(20, (now, ref, arg) -> seen.add("plain 2"), null, 0);
    // Number 2 is above the latest reservation: scheduleAt took it.
    assertThatThrownBy(() -> loop.scheduleReserved(20, 2, (now, ref, arg) -> seen.add("bad"), null, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("seq must be a reserved number in [0, 1] (the latest reserved) but was 2");
    loop.scheduleReserved(20, reserved, (now, ref, arg) -> seen.add("reserved 1"), null, 0);
    assertThatThrownBy(() -> loop.scheduleReserved(30, reserved, (now, ref, arg) -> seen.add("bad"), null, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("seq 1 was used by the previous scheduleReserved call already; each reserved number may be used"
            + " once");
    // The refused calls changed nothing: three events, in (time, sequence) order.
    assertThat(loop.pending()).isEqualTo(3);
    loop.run();
    assertThat(seen).containsExactly("plain 0", "reserved 1", "plain 2");
  }

  @Test
  void callerMistakesAreRejected() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    assertThatThrownBy(() -> new DeterministicEventLoop(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("initialCapacity must be in [1, 67108864] but was 0");
    // (1 << 30 used to fail with NegativeArraySizeException)
    assertThatThrownBy(() -> new DeterministicEventLoop(1 << 30)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("initialCapacity must be in [1, 67108864] but was 1073741824");
    assertThatThrownBy(() -> loop.runWhile(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("condition must not be null");
    assertThatThrownBy(() -> new DeterministicEventLoop(8, 41, 14))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bucketWidthLog2 must be in [0, 40] but was 41");
    assertThatThrownBy(() -> new DeterministicEventLoop(8, 6, 5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ringBucketsLog2 must be in [6, 24] but was 5");
    assertThatThrownBy(() -> loop.scheduleAt(0, null, null, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("handler");
    assertThatThrownBy(() -> loop.scheduleAfter(-1, (now, ref, arg) -> {}, null, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("delayPs must be in [0, " + Long.MAX_VALUE + "] (to end within the clock from now, 0 ps) but was"
            + " -1");
  }

  /**
   * A delay that would end past the clock's end is refused naming delayPs and its range: now + delayPs wrapped to a
   * negative time, and the refusal named a timePs the caller never gave ("timePs must be >= now (200 ps) but was
   * -9223372036854775609 ps").
   */
  @Test
  void aDelayPastTheClocksEndIsRefusedNamingDelayPsAndItsRange() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    loop.runUntil(200);
    assertThatThrownBy(() -> loop.scheduleAfter(Long.MAX_VALUE, (now, ref, arg) -> {}, null, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("delayPs must be in [0, " + (Long.MAX_VALUE - 200) + "] (to end within the clock from now, 200 ps)"
            + " but was " + Long.MAX_VALUE);
    assertThat(loop.pending()).isZero();
    loop.scheduleAfter(Long.MAX_VALUE - 200, (now, ref, arg) -> {}, null, 0); // the last picosecond is allowed
    assertThat(loop.nextEventTime()).isEqualTo(Long.MAX_VALUE);
  }
  @Test
  void crowdedBucketsChainChunksAndReuseThemInOrder() {
    // 16-ps buckets, a 64-bucket ring: 6,000 events, most of them many to a bucket (chains of chunks), some beyond the
    // horizon (the far heap), each carrying its own ref and arg; the pool of chunks grows and is reused as the loop
    // runs and schedules more
    DeterministicEventLoop loop = new DeterministicEventLoop(1, 4, 6);
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
    List<long[]> seen = new ArrayList<>();
    io.github.ariesmodel.core.spi.EventHandler record = (now, ref, arg) -> {
      long[] e = (long[]) ref;
      assertThat(e[0]).isEqualTo(now);
      assertThat(e[1]).isEqualTo(arg);
      seen.add(e);
    };
    io.github.ariesmodel.core.spi.EventHandler spawn = (now, ref, arg) -> {
      for (int k = 0; k < 3; k++) {
        long t = now + rnd.nextLong(0, 3_000);
        loop.scheduleAt(t, record, new long[] {t, seen.size() * 10L + k}, seen.size() * 10L + k);
      }
    };
    for (int i = 0; i < 3_000; i++) {
      long t = rnd.nextLong(0, 2_000);
      loop.scheduleAt(t, record, new long[] {t, -1 - i}, -1 - i);
      loop.scheduleAt(rnd.nextLong(0, 2_000), spawn, null, 0);
    }
    loop.run();
    assertThat(seen).hasSize(3_000 + 3 * 3_000);
    for (int k = 1; k < seen.size(); k++) {
      assertThat(seen.get(k - 1)[0]).isLessThanOrEqualTo(seen.get(k)[0]);
    }
    assertThat(loop.pending()).isZero();
  }

  /** A ref that records when the loop asked it to read ahead and when its event ran. */
  private static final class Recorder implements ReadAhead {
    final List<String> log;
    final String name;

    Recorder(List<String> log, String name) {
      this.log = log;
      this.name = name;
    }

    @Override
    public void readAhead() {
      log.add("ahead " + name);
    }
  }

  @Test
  void theRefsOfTheNextBucketAreAskedToReadAheadBeforeTheirEventsRunAndTheOrderStays() {
    DeterministicEventLoop loop = new DeterministicEventLoop(4);
    List<String> log = new ArrayList<>();
    // one event in each of three buckets (64 ps wide by default), a second in the last one
    long[] times = {0, 100, 300, 310};
    for (int i = 0; i < times.length; i++) {
      loop.scheduleAt(times[i], (now, ref, arg) -> log.add("run " + ((Recorder) ref).name),
          new Recorder(log, "e" + i), i);
    }
    loop.run();
    // the first event starts the calendar at its own bucket (no load); loading e1's bucket reads ahead the refs of the
    // next non-empty one (e2's and e3's), before e1 runs
    assertThat(log).containsExactly("run e0", "ahead e2", "ahead e3", "run e1", "run e2", "run e3");
  }

  /**
   * {@code continueRun} runs, on whichever thread holds the loop, the events the {@code runUntil} call in progress
   * would run next, in its order, and stops where that call would stop (its limit, a stop); with no call in progress
   * it runs nothing.
   */
  @Test
  void continueRunCarriesTheRunInProgressOnAnotherThreadAndEndsWhereItWould() throws InterruptedException {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<String> log = new ArrayList<>();
    loop.scheduleAt(5, (now, ref, arg) -> log.add("late"), null, 0);
    assertThat(loop.continueRun()).isFalse();
    assertThat(loop.pending()).isEqualTo(1);

    Thread main = Thread.currentThread();
    boolean[] carrierRan = {false};
    loop.scheduleAt(10, (now, ref, arg) -> {
      log.add("10 carrier");
      // hand the loop to another thread, which carries the run, then take it back, as a process runner would
      Thread carrier = new Thread(() -> {
        while (loop.continueRun()) {
          carrierRan[0] = true;
        }
        loop.bindOwner(main);
      }, "carrier");
      loop.bindOwner(carrier);
      carrier.start();
      try {
        carrier.join();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    }, null, 0);
    for (long t : new long[] {30, 20, 150, 30}) {
      loop.scheduleAt(t, (now, ref, arg) -> log.add(now + " on " + Thread.currentThread().getName()), null, 0);
    }
    // "late" (at 5) and the carrier's event run here; the three the carrier ran count as this call's too
    assertThat(loop.runUntil(100)).isEqualTo(5);
    assertThat(carrierRan[0]).isTrue();
    assertThat(log).containsExactly("late", "10 carrier", "20 on carrier", "30 on carrier", "30 on carrier");
    assertThat(loop.now()).isEqualTo(100);
    assertThat(loop.pending()).isEqualTo(1); // the event at 150, past the limit
    assertThat(loop.owner()).isSameAs(main);
    assertThat(loop.continueRun()).isFalse(); // no call in progress any more
    assertThat(loop.pending()).isEqualTo(1);

    // a stop ends the carried run as it would end the call
    log.clear();
    loop.scheduleAt(200, (now, ref, arg) -> {
      log.add("200");
      while (loop.continueRun()) {
        // runs 210, which stops the run
      }
    }, null, 0);
    loop.scheduleAt(210, (now, ref, arg) -> {
      log.add("210 stops");
      loop.stop();
    }, null, 0);
    loop.scheduleAt(220, (now, ref, arg) -> log.add("220"), null, 0);
    loop.run();
    assertThat(log).containsExactly("150 on " + main.getName(), "200", "210 stops");
    assertThat(loop.pending()).isEqualTo(1);
  }
  /**
   * A handler's exception leaves the run call and is remembered as the loop's first handler failure; the loop keeps
   * running the other events afterwards, and a later failure does not replace the first.
   */
  @Test
  void theFirstHandlersFailureIsRememberedAndTheLoopRunsOn() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<Long> ran = new ArrayList<>();
    loop.scheduleAt(10, (now, r, a) -> ran.add(now), null, 0);
    loop.scheduleAt(20, (now, r, a) -> {
      throw new IllegalStateException("first");
    }, null, 0);
    loop.scheduleAt(30, (now, r, a) -> ran.add(now), null, 0);
    assertThat(loop.handlerFailure()).isNull();
    assertThatThrownBy(loop::run).hasMessage("first");
    assertThat(loop.handlerFailure()).hasMessage("first");
    assertThat(loop.run()).isEqualTo(1);
    assertThat(ran).containsExactly(10L, 30L);
    loop.scheduleAt(40, (now, r, a) -> {
      throw new IllegalArgumentException("second");
    }, null, 0);
    assertThatThrownBy(() -> loop.runUntil(100)).hasMessage("second");
    assertThat(loop.handlerFailure()).hasMessage("first");
  }

  /** step and runWhile remember a handler's failure too (they did not, and the CLI's progress bar runs with runWhile). */
  @Test
  void stepAndRunWhileRememberAHandlersFailure() {
    DeterministicEventLoop stepped = new DeterministicEventLoop();
    stepped.scheduleAt(10, (now, r, a) -> {
      throw new IllegalStateException("in step");
    }, null, 0);
    assertThatThrownBy(stepped::step).hasMessage("in step");
    assertThat(stepped.handlerFailure()).hasMessage("in step");
    DeterministicEventLoop whiled = new DeterministicEventLoop();
    whiled.scheduleAt(10, (now, r, a) -> {
      throw new IllegalStateException("in runWhile");
    }, null, 0);
    assertThatThrownBy(() -> whiled.runWhile(() -> true)).hasMessage("in runWhile");
    assertThat(whiled.handlerFailure()).hasMessage("in runWhile");
  }
}
