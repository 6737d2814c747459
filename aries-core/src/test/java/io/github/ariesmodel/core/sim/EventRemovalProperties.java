package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.spi.EventHandler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * {@link DeterministicEventLoop#remove} against a reference: one list of pending events from which the smallest
 * (time, scheduling order) runs each step, and from which the removal takes the removed handler's events. Events of
 * a kept handler schedule children of either handler; the removed handler's events schedule nothing. The removal
 * happens between runs (after {@code runUntil}) or from inside a handler, on every calendar geometry the loop is
 * built with, so the removed and kept events sit in the sorted run, the running heap, the ring and the far heap.
 */
class EventRemovalProperties {

  /** An event: its time (absolute for roots, a delay for children), whether its handler is the removed one. */
  record Spec(long time, boolean dropped, List<Spec> children) {}

  record Ran(String label, long time) {}

  private record Pending(long time, long seq, String label, Spec spec, boolean remover) {}

  /** Roots over {@code [0, maxRoot × scale]}, delays mostly 0-3 and sometimes up to 400, all times {@code × scale}. */
  private static Gen<Spec> specs(long maxRoot, long scale) {
    Gen<Long> delays = longs().between(0, 3).mix(longs().between(0, 400), 40).map(d -> d * scale);
    Gen<Spec> leaf = delays.zip(booleans().all(), (d, x) -> new Spec(d, x, List.of()));
    Gen<Spec> middle = delays.zip(booleans().all(), lists().of(leaf).ofSizeBetween(0, 3), Spec::new);
    return longs().between(0, maxRoot).map(t -> t * scale)
        .zip(booleans().all(), lists().of(middle).ofSizeBetween(0, 3), Spec::new);
  }

  /** What the reference ran, and how many events the removal took out. */
  private record Outcome(List<Ran> ran, int removed) {}

  /**
   * The reference. With {@code inHandler} a remover event at {@code limit}, scheduled after the roots, removes; else
   * the removal comes once every event at or before {@code limit} has run.
   */
  private static Outcome reference(List<Spec> roots, long limit, boolean inHandler) {
    List<Pending> queue = new ArrayList<>();
    long seq = 0;
    for (int i = 0; i < roots.size(); i++) {
      queue.add(new Pending(roots.get(i).time(), seq++, "e" + i, roots.get(i), false));
    }
    if (inHandler) {
      queue.add(new Pending(limit, seq++, "remover", null, true));
    }
    List<Ran> ran = new ArrayList<>();
    int removed = 0;
    boolean done = false;
    while (!queue.isEmpty()) {
      Pending next = queue.get(0);
      for (Pending p : queue) {
        if (p.time() < next.time() || (p.time() == next.time() && p.seq() < next.seq())) {
          next = p;
        }
      }
      if (!inHandler && !done && next.time() > limit) {
        removed = takeOut(queue);
        done = true;
        continue;
      }
      queue.remove(next);
      if (next.remover()) {
        removed = takeOut(queue);
        continue;
      }
      ran.add(new Ran(next.label(), next.time()));
      if (!next.spec().dropped()) {
        List<Spec> children = next.spec().children();
        for (int c = 0; c < children.size(); c++) {
          queue.add(new Pending(next.time() + children.get(c).time(), seq++, next.label() + "." + c,
              children.get(c), false));
        }
      }
    }
    return new Outcome(ran, removed);
  }

  private static int takeOut(List<Pending> queue) {
    int before = queue.size();
    queue.removeIf(p -> !p.remover() && p.spec().dropped());
    return before - queue.size();
  }

  /** The loop's side: a kept handler that schedules children, a dropped one that schedules nothing, a remover. */
  private static final class Model {
    final DeterministicEventLoop loop;
    final List<Ran> ran = new ArrayList<>();
    final List<String> labels = new ArrayList<>();
    int removed = -1;
    final EventHandler kept = this::run;
    final EventHandler dropped = this::run;
    final EventHandler remover = (t, ref, arg) -> removed = loop().remove(dropped);

    Model(DeterministicEventLoop loop) {
      this.loop = loop;
    }

    DeterministicEventLoop loop() {
      return loop;
    }

    void schedule(long time, Spec spec, String label) {
      labels.add(label);
      loop.scheduleAt(time, spec.dropped() ? dropped : kept, spec, labels.size() - 1);
    }

    void run(long t, Object ref, long arg) {
      String label = labels.get((int) arg);
      ran.add(new Ran(label, t));
      Spec spec = (Spec) ref;
      if (!spec.dropped()) {
        for (int c = 0; c < spec.children().size(); c++) {
          schedule(t + spec.children().get(c).time(), spec.children().get(c), label + "." + c);
        }
      }
    }
  }

  private static void removesAsTheReference(DeterministicEventLoop loop, List<Spec> roots, long limit,
      boolean inHandler) {
    Model m = new Model(loop);
    for (int i = 0; i < roots.size(); i++) {
      m.schedule(roots.get(i).time(), roots.get(i), "e" + i);
    }
    if (inHandler) {
      loop.scheduleAt(limit, m.remover, null, 0);
      loop.run();
    } else {
      loop.runUntil(limit);
      m.removed = loop.remove(m.dropped);
      loop.run();
    }
    Outcome expected = reference(roots, limit, inHandler);
    assertThat(m.ran).isEqualTo(expected.ran());
    assertThat(m.removed).isEqualTo(expected.removed());
    assertThat(loop.pending()).isZero();
    assertThat(loop.remove(m.kept)).isZero();
  }

  @Test
  void removingBetweenRunsLeavesTheOtherEventsInTheirOrder() {
    // the default geometry, with up to hundreds of events on a few picoseconds: the sorted run and the running heap
    qt().withExamples(1_000).forAll(lists().of(specs(20, 1)).ofSizeBetween(0, 120), longs().between(0, 30))
        .checkAssert((roots, limit) -> removesAsTheReference(new DeterministicEventLoop(4), roots, limit, false));
  }

  @Test
  void removingFromInsideAHandlerLeavesTheOtherEventsInTheirOrder() {
    qt().withExamples(1_000).forAll(lists().of(specs(20, 1)).ofSizeBetween(0, 120), longs().between(0, 30))
        .checkAssert((roots, limit) -> removesAsTheReference(new DeterministicEventLoop(4), roots, limit, true));
  }

  @Test
  void everyCalendarGeometryRemovesAsTheReference() {
    // small buckets and rings, times over several horizons: the ring, its wrap and the far heap
    qt().withExamples(400)
        .forAll(lists().of(specs(3_000, 1)).ofSizeBetween(0, 100), integers().between(0, 4), integers().between(6, 7),
            longs().between(0, 3_500))
        .checkAssert((roots, widthLog2, ringLog2, limit) -> {
          removesAsTheReference(new DeterministicEventLoop(2, widthLog2, ringLog2), roots, limit, false);
          removesAsTheReference(new DeterministicEventLoop(2, widthLog2, ringLog2), roots, limit, true);
        });
  }

  @Test
  void theGroupLoopsGeometryRemovesAsTheReference() {
    qt().withExamples(200)
        .forAll(lists().of(specs(3_000, 1_700)).ofSizeBetween(0, 100), longs().between(0, 6_000_000))
        .checkAssert((roots, limit) -> {
          removesAsTheReference(new DeterministicEventLoop(2, GroupScheduler.BUCKET_WIDTH_LOG2,
              GroupScheduler.RING_BUCKETS_LOG2), roots, limit, false);
          removesAsTheReference(new DeterministicEventLoop(2, GroupScheduler.BUCKET_WIDTH_LOG2,
              GroupScheduler.RING_BUCKETS_LOG2), roots, limit, true);
        });
  }

  /** What the removal is for: a watchdog's next look, far ahead, no longer moves the clock of the next run. */
  @Test
  void aRemovedEventNoLongerMovesTheClock() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<Long> seen = new ArrayList<>();
    EventHandler work = (t, ref, arg) -> seen.add(t);
    EventHandler watchdog = (t, ref, arg) -> seen.add(-t);
    loop.scheduleAt(100, work, null, 0);
    loop.scheduleAt(100_000_000, watchdog, null, 0);
    loop.scheduleAt(200_000_000_000L, watchdog, null, 0); // beyond the ring's horizon
    loop.runUntil(150);
    loop.scheduleAt(3_000, work, null, 0);
    assertThat(loop.remove(watchdog)).isEqualTo(2);
    assertThat(loop.pending()).isEqualTo(1);
    loop.run();
    assertThat(seen).containsExactly(100L, 3_000L);
    assertThat(loop.now()).isEqualTo(3_000);
    assertThat(loop.remove(watchdog)).isZero();
  }

  @Test
  void misuseIsRefused() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    assertThatThrownBy(() -> loop.remove(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("handler must not be null");
    EventHandler h = (t, ref, arg) -> { };
    loop.scheduleAt(5, h, null, 0);
    Thread other = new Thread(() -> { });
    loop.bindOwner(other);
    assertThatThrownBy(() -> loop.remove(h)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("(remove)");
    loop.bindOwner(Thread.currentThread());
    assertThat(loop.pending()).isEqualTo(1);
  }

  @Test
  void theEngineRemovesInEveryGroupBetweenRunsOnly() {
    try (PartitionedEngine engine = PartitionedEngine.of(3, 1_000, 2)) {
      List<Long> seen = new ArrayList<>();
      EventHandler work = (t, ref, arg) -> {
        synchronized (seen) {
          seen.add(t);
        }
      };
      EventHandler[] stopper = new EventHandler[1];
      EventHandler watchdog = (t, ref, arg) -> {
        synchronized (seen) {
          seen.add(-t);
        }
      };
      stopper[0] = (t, ref, arg) -> {
        assertThatThrownBy(() -> engine.remove(watchdog)).isInstanceOf(IllegalStateException.class)
            .hasMessage("events can be removed only between runs of the engine");
        engine.stop();
      };
      for (int g = 0; g < 3; g++) {
        engine.group(g).scheduleAt(10 + g, work, null, 0);
        engine.group(g).scheduleAt(50_000_000 + g, watchdog, null, 0);
      }
      engine.group(1).scheduleAt(20, stopper[0], null, 0);
      engine.group(2).scheduleAt(40_000, work, null, 0);
      engine.runUntil(Long.MAX_VALUE);
      assertThat(engine.pending()).isEqualTo(4);
      assertThat(engine.remove(watchdog)).isEqualTo(3);
      engine.runUntil(Long.MAX_VALUE);
      assertThat(seen).containsExactlyInAnyOrder(10L, 11L, 12L, 40_000L);
      assertThat(engine.now()).isEqualTo(40_000);
      assertThat(engine.pending()).isZero();
    }
  }
}
