package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.spi.EventHandler;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Which handler failure a run of the {@link PartitionedEngine} reports when several groups fail: the one a single
 * thread meets, on every thread count (found by stop 77's concurrency hunt: it was whichever was recorded first). No
 * timing: where the threads' order matters, a handler waits for the other thread's state, not for a while.
 */
class PartitionedEngineFailureOrderTest {

  private static final long LOOKAHEAD = 1_000;

  /** A failure of a group's handler, told apart by its group. */
  static final class GroupFailure extends IllegalStateException {
    final int group;

    GroupFailure(int group) {
      super("handler of group " + group);
      this.group = group;
    }
  }

  /**
   * Four groups; groups 1 and 3 each throw in the same window (group 1 at {@code time1}, group 3 at {@code time3}),
   * after 200 events of work each group does first. With {@code group3First}, on several threads group 1's handler
   * waits until group 3 has failed and its thread waits at the barrier (so group 3's failure is recorded first); on
   * one thread group 3's turn never comes in that window, so it does not wait.
   */
  private static Throwable failingRun(int threads, long time1, long time3, boolean group3First) {
    try (PartitionedEngine engine = PartitionedEngine.of(4, LOOKAHEAD, threads)) {
      long[] ran = new long[4];
      CountDownLatch group3Failed = new CountDownLatch(1);
      AtomicReference<Thread> group3Thread = new AtomicReference<>();
      for (int g = 0; g < 4; g++) {
        int gg = g;
        GroupScheduler s = engine.group(g);
        for (int i = 0; i < 200; i++) {
          s.scheduleAt(10 + i, (now, ref, arg) -> ran[gg]++, null, 0);
        }
      }
      engine.group(3).scheduleAt(time3, (now, ref, arg) -> {
        group3Thread.set(Thread.currentThread());
        group3Failed.countDown();
        throw new GroupFailure(3);
      }, null, 0);
      engine.group(1).scheduleAt(time1, (now, ref, arg) -> {
        if (group3First && threads > 1) {
          try {
            group3Failed.await();
          } catch (InterruptedException e) {
            throw new AssertionError(e);
          }
          while (group3Thread.get().getState() != Thread.State.WAITING) {
            Thread.onSpinWait(); // (its failure is recorded before it parks at the barrier that ends the window)
          }
        }
        throw new GroupFailure(1);
      }, null, 0);
      Throwable thrown = null;
      try {
        engine.runUntil(1L << 40);
      } catch (Throwable t) {
        thrown = t;
      }
      // the engine runs no more, naming the failure it reported
      Throwable first = thrown;
      assertThatThrownBy(() -> engine.runUntil(1L << 41)).isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith("a handler failed in an earlier run of this engine (GroupFailure: "
              + (first == null ? "none" : first.getMessage()) + ")");
      return thrown;
    }
  }

  /**
   * Groups 1 and 3 fail at the same simulated time. One thread runs group 1's window first and stops there, so it
   * reports group 1; two, three and four threads report group 1 as well, with group 3's failure (which one thread never
   * reaches) added as suppressed, even when group 3's is recorded first. Before, two and three threads reported group
   * 3 whenever its thread got there first (a quarter of the runs of the hunt's program; here every time).
   */
  @Test
  void theLowestFailingGroupIsReportedOnEveryThreadCountWhicheverThreadFailsFirst() {
    for (int threads = 1; threads <= 4; threads++) {
      for (boolean group3First : new boolean[] {true, false}) {
        for (int rep = 0; rep < (group3First ? 3 : 20); rep++) {
          Throwable t = failingRun(threads, 500, 500, group3First);
          assertThat(t).as("threads %d, group 3 first %s, rep %d", threads, group3First, rep)
              .isInstanceOf(GroupFailure.class).hasMessage("handler of group 1");
          assertThat(t.getSuppressed()).allSatisfy(s -> assertThat(s).hasMessage("handler of group 3"));
          if (threads == 1) {
            assertThat(t.getSuppressed()).as("one thread never reaches group 3's turn").isEmpty();
          } else if (group3First) {
            assertThat(t.getSuppressed()).as("threads %d", threads).hasSize(1);
          }
        }
      }
    }
  }

  /**
   * Group 3 fails earlier in the window (100 ps) than group 1 (900 ps): one thread still meets group 1's failure
   * first (a window runs group after group, each through the whole window), and so does every thread count. The
   * window's groups do not reach one another within it, so which groups fail does not depend on the partitioning.
   */
  @Test
  void withinAWindowTheGroupOrderDecidesNotTheTime() {
    for (int threads = 1; threads <= 4; threads++) {
      for (int rep = 0; rep < 3; rep++) {
        assertThat(failingRun(threads, 900, 100, true)).as("threads %d", threads).isInstanceOf(GroupFailure.class)
            .hasMessage("handler of group 1");
      }
    }
  }

  /**
   * Group 3 fails in the first window (at 500 ps; the window is [10, 1009]); group 1 would fail in a later one (at
   * 2,000 ps). Every thread count reports group 3 and never runs group 1's handler: no partition starts a window
   * before every partition has ended the one before and the barrier's planning has seen no failure, so a later
   * window's failure can never be met before an earlier one's, on any thread.
   */
  @Test
  void aFailureInAnEarlierWindowIsReportedBeforeALowerGroupsInALaterOne() {
    for (int threads = 1; threads <= 4; threads++) {
      for (int rep = 0; rep < 5; rep++) {
        Throwable t = failingRun(threads, 2_000, 500, false);
        assertThat(t).as("threads %d", threads).isInstanceOf(GroupFailure.class).hasMessage("handler of group 3");
        assertThat(t.getSuppressed()).isEmpty();
      }
    }
  }

  /** A handler failure with nothing else failing comes out as itself, with nothing added (one thread and four). */
  @Test
  void aSingleFailureIsReportedAsItIs() {
    for (int threads : new int[] {1, 4}) {
      try (PartitionedEngine engine = PartitionedEngine.of(4, LOOKAHEAD, threads)) {
        IllegalArgumentException mine = new IllegalArgumentException("only this");
        EventHandler fail = (now, ref, arg) -> {
          throw mine;
        };
        engine.group(2).scheduleAt(50, fail, null, 0);
        assertThatThrownBy(() -> engine.runUntil(10_000)).isSameAs(mine);
        assertThat(mine.getSuppressed()).isEmpty();
      }
    }
  }
}
