package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.spi.EventHandler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * {@link DeterministicEventLoop} against a reference: an unsorted list from which the event with the smallest
 * (time, scheduling order) is taken each step. Events schedule further events when they run, at delays of zero
 * (same time, after everything already scheduled for it) and up.
 */
class DeterministicEventLoopProperties {

  /** An event: its time (absolute for roots, a delay for children) and the events it schedules when it runs. */
  record Spec(long time, List<Spec> children) {}

  /** What ran: the event's label and the time it ran at. */
  record Ran(String label, long time) {}

  private static Gen<Spec> specs() {
    Gen<Long> delays = longs().between(0, 3);
    Gen<Spec> leaf = delays.map(d -> new Spec(d, List.of()));
    Gen<Spec> middle = delays.zip(lists().of(leaf).ofSizeBetween(0, 2), Spec::new);
    // Few distinct root times, so many events tie.
    return longs().between(0, 20).zip(lists().of(middle).ofSizeBetween(0, 3), Spec::new);
  }

  /**
   * Times spread over many calendar buckets of a small geometry: delays up to 400 ps and roots up to 3,000 ps, so
   * events land in the running bucket, in the ring, beyond its horizon, and after the ring has wrapped.
   */
  private static Gen<Spec> spreadSpecs() {
    return spreadSpecs(1);
  }

  /** {@link #spreadSpecs()} with every time and delay multiplied by {@code scale} (ties stay ties). */
  private static Gen<Spec> spreadSpecs(long scale) {
    Gen<Long> delays = longs().between(0, 3).mix(longs().between(0, 400), 50).map(d -> d * scale);
    Gen<Spec> leaf = delays.map(d -> new Spec(d, List.of()));
    Gen<Spec> middle = delays.zip(lists().of(leaf).ofSizeBetween(0, 2), Spec::new);
    return longs().between(0, 3_000).map(t -> t * scale).zip(lists().of(middle).ofSizeBetween(0, 3), Spec::new);
  }

  private static Gen<List<Spec>> schedules() {
    return lists().of(specs()).ofSizeBetween(0, 120);
  }

  /** A pending event of the reference model. */
  private record Pending(long time, long seq, String label, Spec spec) {}

  private static List<Ran> reference(List<Spec> roots, long limit) {
    List<Pending> queue = new ArrayList<>();
    long[] seq = {0};
    for (int i = 0; i < roots.size(); i++) {
      queue.add(new Pending(roots.get(i).time(), seq[0]++, "e" + i, roots.get(i)));
    }
    List<Ran> ran = new ArrayList<>();
    while (!queue.isEmpty()) {
      Pending next = queue.get(0);
      for (Pending p : queue) {
        if (p.time() < next.time() || (p.time() == next.time() && p.seq() < next.seq())) {
          next = p;
        }
      }
      if (next.time() > limit) {
        break;
      }
      queue.remove(next);
      ran.add(new Ran(next.label(), next.time()));
      List<Spec> children = next.spec().children();
      for (int c = 0; c < children.size(); c++) {
        Spec child = children.get(c);
        queue.add(new Pending(next.time() + child.time(), seq[0]++, next.label() + "." + c, child));
      }
    }
    return ran;
  }

  /** Runs the spec through the loop; each event's handler schedules its children, labelled like the reference. */
  private static final class Recorder implements EventHandler {
    final DeterministicEventLoop loop;
    final List<Ran> ran = new ArrayList<>();
    final List<String> labels = new ArrayList<>();

    Recorder(DeterministicEventLoop loop) {
      this.loop = loop;
    }

    void schedule(long time, Spec spec, String label) {
      labels.add(label);
      loop.scheduleAt(time, this, spec, labels.size() - 1);
    }

    @Override
    public void onEvent(long nowPs, Object ref, long arg) {
      assertThat(loop.now()).isEqualTo(nowPs);
      String label = labels.get((int) arg);
      ran.add(new Ran(label, nowPs));
      List<Spec> children = ((Spec) ref).children();
      for (int c = 0; c < children.size(); c++) {
        schedule(nowPs + children.get(c).time(), children.get(c), label + "." + c);
      }
    }
  }

  private static int total(Spec s) {
    int n = 1;
    for (Spec c : s.children()) {
      n += total(c);
    }
    return n;
  }

  @Test
  void runExecutesEventsInTimeThenSchedulingOrder() {
    qt().withExamples(2_000).forAll(schedules(), integers().between(1, 8))
        .checkAssert((roots, capacity) -> {
          DeterministicEventLoop loop = new DeterministicEventLoop(capacity);
          Recorder rec = new Recorder(loop);
          for (int i = 0; i < roots.size(); i++) {
            rec.schedule(roots.get(i).time(), roots.get(i), "e" + i);
          }
          long count = loop.run();
          List<Ran> expected = reference(roots, Long.MAX_VALUE);
          assertThat(rec.ran).isEqualTo(expected);
          assertThat(count).isEqualTo(expected.size()).isEqualTo(roots.stream().mapToInt(s -> total(s)).sum());
          assertThat(loop.eventsExecuted()).isEqualTo(count);
          assertThat(loop.pending()).isZero();
          assertThat(loop.nextEventTime()).isEqualTo(Long.MAX_VALUE);
          if (!expected.isEmpty()) {
            assertThat(loop.now()).isEqualTo(expected.get(expected.size() - 1).time());
          }
        });
  }

  @Test
  void runUntilRunsExactlyTheEventsUpToTheLimitAndTheRestLater() {
    qt().withExamples(2_000).forAll(schedules(), longs().between(0, 30))
        .checkAssert((roots, limit) -> {
          DeterministicEventLoop loop = new DeterministicEventLoop(4);
          Recorder rec = new Recorder(loop);
          for (int i = 0; i < roots.size(); i++) {
            rec.schedule(roots.get(i).time(), roots.get(i), "e" + i);
          }
          List<Ran> upToLimit = reference(roots, limit);
          assertThat(loop.runUntil(limit)).isEqualTo(upToLimit.size());
          assertThat(rec.ran).isEqualTo(upToLimit);
          assertThat(loop.now()).isEqualTo(limit);
          assertThat(loop.nextEventTime()).isGreaterThan(limit);
          loop.run();
          assertThat(rec.ran).isEqualTo(reference(roots, Long.MAX_VALUE));
        });
  }

  @Test
  void everyCalendarGeometryRunsEventsInTheOrderOfOneGlobalHeap() {
    qt().withExamples(300)
        .forAll(lists().of(spreadSpecs()).ofSizeBetween(0, 120), integers().between(0, 4), integers().between(6, 7),
            longs().between(0, 3_500))
        .checkAssert((roots, widthLog2, ringLog2, limit) ->
            runsAsOneGlobalHeap(new DeterministicEventLoop(2, widthLog2, ringLog2), roots, limit));
  }

  @Test
  void theGroupLoopsGeometryRunsEventsInTheOrderOfOneGlobalHeap() {
    // GroupScheduler's wide buckets and short ring, with times over about three ring horizons (0 to 6.1 µs) so that
    // events go to the running bucket, the ring and the far heap, and with ties on the same picosecond
    qt().withExamples(200)
        .forAll(lists().of(spreadSpecs(1_700)).ofSizeBetween(0, 120), longs().between(0, 6_000_000))
        .checkAssert((roots, limit) -> runsAsOneGlobalHeap(
            new DeterministicEventLoop(2, GroupScheduler.BUCKET_WIDTH_LOG2, GroupScheduler.RING_BUCKETS_LOG2), roots,
            limit));
  }

  /** Schedules {@code roots} on {@code loop}, runs up to {@code limit} and then to the end, against the reference. */
  private static void runsAsOneGlobalHeap(DeterministicEventLoop loop, List<Spec> roots, long limit) {
    Recorder rec = new Recorder(loop);
    for (int i = 0; i < roots.size(); i++) {
      rec.schedule(roots.get(i).time(), roots.get(i), "e" + i);
    }
    List<Ran> upToLimit = reference(roots, limit);
    assertThat(loop.runUntil(limit)).isEqualTo(upToLimit.size());
    assertThat(rec.ran).isEqualTo(upToLimit);
    loop.run();
    assertThat(rec.ran).isEqualTo(reference(roots, Long.MAX_VALUE));
    assertThat(loop.pending()).isZero();
  }

  /** A keyed root event: its time, the high bits of its key, and the delays of the keyed events it schedules. */
  record Keyed(long time, long keyHigh, List<Long> childDelays) {}

  /**
   * Buckets loaded from the ring run in (time, key) order whether they are sorted as they load (a few events) or go
   * through the running heap (many), with keys too large for the packed form (they take the heap) among them, and
   * with events scheduled into the running bucket as it runs (the two are merged). The keys are the engine's kind
   * ({@link DeterministicEventLoop#scheduleKeyed}): any unique numbers, not a counter.
   */
  @Test
  void keyedBucketsOfEverySizeRunInTimeThenKeyOrder() {
    Gen<Long> high = longs().between(0, 1_000).mix(longs().between(0, (1L << 52) - 1), 50);
    Gen<Long> delays = longs().between(0, 3).mix(longs().between(0, 3_000), 50);
    Gen<Keyed> roots = longs().between(0, 2_000).zip(high, lists().of(delays).ofSizeBetween(0, 2), Keyed::new);
    qt().withExamples(300)
        .forAll(lists().of(roots).ofSizeBetween(0, 300), integers().between(0, 10), longs().between(0, 2_500))
        .checkAssert((list, widthLog2, limit) -> {
          DeterministicEventLoop loop = new DeterministicEventLoop(2, widthLog2, 6);
          List<long[]> ran = new ArrayList<>();
          int[] next = {0};
          // each event is (time, key); a root's children get keys after every root's, in the order they are made
          EventHandler[] handler = new EventHandler[1];
          handler[0] = (now, ref, arg) -> {
            ran.add(new long[] {now, arg});
            if (ref instanceof Keyed k) {
              for (long d : k.childDelays()) {
                long key = (k.keyHigh() << 10) | next[0]++;
                loop.scheduleKeyed(now + d, key, handler[0], null, key);
              }
            }
          };
          for (Keyed k : list) {
            long key = (k.keyHigh() << 10) | next[0]++;
            loop.scheduleKeyed(k.time(), key, handler[0], k, key);
          }
          loop.runUntil(limit);
          loop.run();
          assertThat(loop.pending()).isZero();
          // the reference: the smallest (time, key) pending runs next; children join as their parent runs
          List<long[]> expected = new ArrayList<>();
          List<Object[]> queue = new ArrayList<>();
          int made = 0;
          for (Keyed k : list) {
            queue.add(new Object[] {k.time(), (k.keyHigh() << 10) | made++, k});
          }
          while (!queue.isEmpty()) {
            Object[] best = queue.get(0);
            for (Object[] e : queue) {
              long t = (Long) e[0];
              long bt = (Long) best[0];
              if (t < bt || (t == bt && (Long) e[1] < (Long) best[1])) {
                best = e;
              }
            }
            queue.remove(best);
            long now = (Long) best[0];
            expected.add(new long[] {now, (Long) best[1]});
            if (best[2] instanceof Keyed k) {
              for (long d : k.childDelays()) {
                queue.add(new Object[] {now + d, (k.keyHigh() << 10) | made++, null});
              }
            }
          }
          assertThat(ran).hasSameSizeAs(expected);
          for (int i = 0; i < ran.size(); i++) {
            assertThat(ran.get(i)).as("event %d", i).containsExactly(expected.get(i));
          }
        });
  }

  @Test
  void theSameScheduleRunsTheSameWayTwice() {
    qt().withExamples(500).forAll(schedules())
        .checkAssert(roots -> {
          List<List<Ran>> runs = new ArrayList<>();
          for (int r = 0; r < 2; r++) {
            DeterministicEventLoop loop = new DeterministicEventLoop(r == 0 ? 1 : 1024);
            Recorder rec = new Recorder(loop);
            for (int i = 0; i < roots.size(); i++) {
              rec.schedule(roots.get(i).time(), roots.get(i), "e" + i);
            }
            loop.run();
            runs.add(rec.ran);
          }
          assertThat(runs.get(0)).isEqualTo(runs.get(1));
        });
  }
}
