package io.github.ariesmodel.core.sim;

import io.github.ariesmodel.core.spi.EventHandler;
import java.util.Arrays;

/**
 * Events one partition of a {@link PartitionedEngine} has scheduled into another partition during a window, kept in
 * primitive arrays that grow by doubling and never shrink, and handed to the target's event loop at the next window.
 * The order of the entries does not matter: each carries its (time, key) and the target loop orders by it.
 */
final class EventBuffer {

  private int[] targets;
  private long[] times;
  private long[] keys;
  private long[] args;
  private EventHandler[] handlers;
  private Object[] refs;
  private int size;
  private long minTime = Long.MAX_VALUE;

  EventBuffer() {
    int n = 64;
    targets = new int[n];
    times = new long[n];
    keys = new long[n];
    args = new long[n];
    handlers = new EventHandler[n];
    refs = new Object[n];
  }

  void add(int target, long time, long key, EventHandler handler, Object ref, long arg) {
    if (size == times.length) {
      int n = size * 2;
      targets = Arrays.copyOf(targets, n);
      times = Arrays.copyOf(times, n);
      keys = Arrays.copyOf(keys, n);
      args = Arrays.copyOf(args, n);
      handlers = Arrays.copyOf(handlers, n);
      refs = Arrays.copyOf(refs, n);
    }
    targets[size] = target;
    times[size] = time;
    keys[size] = key;
    args[size] = arg;
    handlers[size] = handler;
    refs[size] = ref;
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

  /** Schedules every entry on {@code loop} under its own key and empties the buffer. */
  void drainInto(GroupScheduler[] groups) {
    for (int i = 0; i < size; i++) {
      groups[targets[i]].loop.scheduleKeyed(times[i], keys[i], handlers[i], refs[i], args[i]);
      handlers[i] = null;
      refs[i] = null;
    }
    size = 0;
    minTime = Long.MAX_VALUE;
  }
}
