package io.github.ariesmodel.core.sim;

import io.github.ariesmodel.core.spi.EventHandler;
import java.util.Arrays;

/**
 * Events one partition of a {@link PartitionedEngine} has scheduled into another partition (or one group into
 * another group's inbox) during a window, handed to the target's event loop at the next window. The order of the
 * entries does not matter: each carries its (time, key) and the target loop orders by it.
 *
 * <p>An entry's four numbers (time, key, arg, target group) sit side by side in one {@code long[]} and its handler
 * and ref in one {@code Object[]}, so an append writes two cache lines at the buffer's tail, not six (one per field
 * array). Both arrays grow by doubling and never shrink.
 *
 * <p>A partition's log of the events its groups send to one another is one such buffer, appended to in the order
 * sent, and handed over group by group at the next window: {@link #sortByTarget} groups its entries by target
 * (a stable counting sort) and {@link #drainTarget} hands one target's entries to its loop. One log instead of an
 * inbox a group keeps every append at one tail in the cache: with 241 inboxes, the tail of the one appended to had
 * usually left it (docs/performance.md, "Stop 36").
 */
final class EventBuffer {

  private static final int LONGS = 4;

  private long[] data;
  private Object[] objects;
  private int size;
  private long minTime = Long.MAX_VALUE;
  // sortByTarget's output: the entries grouped by target, and where each target's entries start (targets lo..hi)
  private long[] sortedData = new long[0];
  private Object[] sortedObjects = new Object[0];
  private int[] targetStart = new int[0];
  private int targetLo;
  private int targetHi = -1;

  EventBuffer() {
    int n = 64;
    data = new long[n * LONGS];
    objects = new Object[n * 2];
  }

  void add(int target, long time, long key, EventHandler handler, Object ref, long arg) {
    int i = size * LONGS;
    if (i == data.length) {
      data = Arrays.copyOf(data, i * 2);
      objects = Arrays.copyOf(objects, objects.length * 2);
    }
    long[] d = data;
    d[i] = time;
    d[i + 1] = key;
    d[i + 2] = arg;
    d[i + 3] = target;
    int o = size << 1;
    objects[o] = handler;
    objects[o + 1] = ref;
    size++;
    if (time < minTime) {
      minTime = time;
    }
  }

  /** @return the earliest time held, or {@link Long#MAX_VALUE} when empty */
  long minTime() {
    return minTime;
  }

  int size() {
    return size;
  }

  /**
   * Groups the entries by target group, keeping their order within a target, for {@link #drainTarget}. Every target
   * must lie in {@code lo..hi}.
   */
  void sortByTarget(int lo, int hi) {
    int n = hi - lo + 1;
    if (targetStart.length < n + 1) {
      targetStart = new int[n + 1];
    }
    int[] start = targetStart;
    Arrays.fill(start, 0, n + 1, 0);
    long[] d = data;
    for (int e = 0; e < size; e++) {
      start[(int) d[e * LONGS + 3] - lo + 1]++;
    }
    for (int t = 0; t < n; t++) {
      start[t + 1] += start[t];
    }
    if (sortedData.length < size * LONGS) {
      sortedData = new long[data.length];
      sortedObjects = new Object[objects.length];
    }
    long[] sd = sortedData;
    Object[] so = sortedObjects;
    Object[] objs = objects;
    for (int e = 0; e < size; e++) {
      int i = e * LONGS;
      int t = (int) d[i + 3] - lo;
      int to = start[t]++;
      int j = to * LONGS;
      sd[j] = d[i];
      sd[j + 1] = d[i + 1];
      sd[j + 2] = d[i + 2];
      sd[j + 3] = d[i + 3];
      so[to << 1] = objs[e << 1];
      so[(to << 1) + 1] = objs[(e << 1) + 1];
      objs[e << 1] = null;
      objs[(e << 1) + 1] = null;
    }
    // start[t] is now the end of target t's entries, which is where target t + 1's begin
    System.arraycopy(start, 0, start, 1, n);
    start[0] = 0;
    targetLo = lo;
    targetHi = hi;
  }

  /**
   * Schedules the entries for one target group on its loop, after {@link #sortByTarget}; when every target's
   * entries have been handed over, call {@link #clearSorted}.
   */
  void drainTarget(int target, GroupScheduler[] groups) {
    int t = target - targetLo;
    long[] d = sortedData;
    Object[] objs = sortedObjects;
    DeterministicEventLoop loop = groups[target].loop;
    for (int e = targetStart[t], end = targetStart[t + 1]; e < end; e++) {
      int i = e * LONGS;
      int o = e << 1;
      loop.scheduleKeyed(d[i], d[i + 1], (EventHandler) objs[o], objs[o + 1], d[i + 2]);
      objs[o] = null;
      objs[o + 1] = null;
    }
  }

  /** Empties the buffer after {@link #sortByTarget} and a {@link #drainTarget} of every target. */
  void clearSorted() {
    size = 0;
    minTime = Long.MAX_VALUE;
    targetHi = -1;
  }

  /** Schedules every entry on its target group's loop under its own key and empties the buffer. */
  void drainInto(GroupScheduler[] groups) {
    if (targetHi >= 0) {
      // sorted, and left part drained by a window that did not finish (a handler failed): what is left
      long[] sd = sortedData;
      Object[] so = sortedObjects;
      for (int e = 0; e < size; e++) {
        int i = e * LONGS;
        int o = e << 1;
        if (so[o] != null) {
          groups[(int) sd[i + 3]].loop.scheduleKeyed(sd[i], sd[i + 1], (EventHandler) so[o], so[o + 1], sd[i + 2]);
          so[o] = null;
          so[o + 1] = null;
        }
      }
      clearSorted();
      return;
    }
    long[] d = data;
    Object[] objs = objects;
    for (int e = 0; e < size; e++) {
      int i = e * LONGS;
      int o = e << 1;
      groups[(int) d[i + 3]].loop.scheduleKeyed(d[i], d[i + 1], (EventHandler) objs[o], objs[o + 1], d[i + 2]);
      objs[o] = null;
      objs[o + 1] = null;
    }
    size = 0;
    minTime = Long.MAX_VALUE;
  }
}
