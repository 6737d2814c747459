package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.spi.EventHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A partition's log of the events its groups send one another: sorted by target, each target's entries reach that
 * target's loop alone, every entry once, with its own time, key, ref and arg; and a log left part drained (a window
 * cut short) hands over exactly what is left.
 */
class EventBufferTest {

  private static final int GROUPS = 5;

  private static GroupScheduler[] groupsOf(PartitionedEngine engine) {
    GroupScheduler[] groups = new GroupScheduler[GROUPS];
    for (int g = 0; g < GROUPS; g++) {
      groups[g] = engine.group(g);
    }
    return groups;
  }

  /** Fills a buffer with n random entries at base..base + 49 ps for groups 1..4 (never 0) and returns what each should run, by group. */
  private static List<List<String>> fill(EventBuffer b, List<String> ran, long seed, int n, long base) {
    List<List<String>> expected = new ArrayList<>();
    for (int g = 0; g < GROUPS; g++) {
      expected.add(new ArrayList<>());
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    List<long[]> entries = new ArrayList<>();
    for (int e = 0; e < n; e++) {
      int target = 1 + rnd.nextInt(GROUPS - 1);
      long time = base + rnd.nextInt(50);
      entries.add(new long[] {target, time, e});
      int t = target;
      EventHandler h = (now, ref, arg) -> ran.add(t + ":" + now + ":" + arg + ":" + ref);
      b.add(target, time, e, h, "r" + e, e);
    }
    // a loop runs by (time, key); the key here is the entry's index
    entries.sort((x, y) -> x[1] != y[1] ? Long.compare(x[1], y[1]) : Long.compare(x[2], y[2]));
    for (long[] x : entries) {
      expected.get((int) x[0]).add(x[0] + ":" + x[1] + ":" + x[2] + ":r" + x[2]);
    }
    return expected;
  }

  @Test
  void sortedEntriesReachOnlyTheirTargetsLoopEachOnce() {
    try (PartitionedEngine engine = PartitionedEngine.of(GROUPS, 100, 1)) {
      GroupScheduler[] groups = groupsOf(engine);
      EventBuffer b = new EventBuffer();
      List<String> ran = new ArrayList<>();
      List<List<String>> expected = fill(b, ran, 7, 400, 1_000);
      assertThat(b.size()).isEqualTo(400);
      assertThat(b.minTime()).isEqualTo(expected.stream().flatMap(List::stream)
          .mapToLong(s -> Long.parseLong(s.split(":")[1])).min().orElseThrow());
      b.sortByTarget(0, GROUPS - 1);
      for (int g = 0; g < GROUPS; g++) {
        b.drainTarget(g, groups);
        assertThat(groups[g].loop.pending()).as("group %d", g).isEqualTo(expected.get(g).size());
        ran.clear();
        groups[g].loop.run();
        assertThat(ran).as("group %d", g).isEqualTo(expected.get(g));
      }
      b.clearSorted();
      assertThat(b.size()).isZero();
      assertThat(b.minTime()).isEqualTo(Long.MAX_VALUE);

      // used again, larger than before: the sorted arrays grow with it
      List<List<String>> again = fill(b, ran, 8, 900, 2_000);
      b.sortByTarget(1, GROUPS - 1);
      for (int g = 1; g < GROUPS; g++) {
        b.drainTarget(g, groups);
      }
      b.clearSorted();
      for (int g = 0; g < GROUPS; g++) {
        ran.clear();
        groups[g].loop.run();
        assertThat(ran).as("group %d", g).isEqualTo(again.get(g));
      }
    }
  }

  @Test
  void aLogLeftPartDrainedHandsOverWhatIsLeftOnce() {
    try (PartitionedEngine engine = PartitionedEngine.of(GROUPS, 100, 1)) {
      GroupScheduler[] groups = groupsOf(engine);
      EventBuffer b = new EventBuffer();
      List<String> ran = new ArrayList<>();
      List<List<String>> expected = fill(b, ran, 11, 400, 1_000);
      b.sortByTarget(0, GROUPS - 1);
      b.drainTarget(0, groups);
      b.drainTarget(1, groups);
      b.drainTarget(2, groups);
      b.drainInto(groups); // as the end of a run does after a failed window
      assertThat(b.size()).isZero();
      for (int g = 0; g < GROUPS; g++) {
        ran.clear();
        groups[g].loop.run();
        assertThat(ran).as("group %d", g).isEqualTo(expected.get(g));
      }
      // and a plain (unsorted) drain afterwards still works
      List<List<String>> next = fill(b, ran, 12, 300, 2_000);
      b.drainInto(groups);
      for (int g = 0; g < GROUPS; g++) {
        ran.clear();
        groups[g].loop.run();
        assertThat(ran).as("group %d", g).isEqualTo(next.get(g));
      }
    }
  }
}
