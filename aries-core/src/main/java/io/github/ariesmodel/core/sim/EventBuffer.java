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
 * array): on the full system most appends go to a group whose buffer has left the cache. Both arrays grow by doubling
 * and never shrink.
 */
final class EventBuffer {

  private static final int LONGS = 4;

  private long[] data;
  private Object[] objects;
  private int size;
  private long minTime = Long.MAX_VALUE;

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

  /** Schedules every entry on its target group's loop under its own key and empties the buffer. */
  void drainInto(GroupScheduler[] groups) {
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
