package io.github.ariesmodel.core.sim;

import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Scheduler;
import java.util.Arrays;
import java.util.function.BooleanSupplier;

/**
 * The simulation's event loop: a binary min-heap of events ordered by (time, sequence number), where the sequence
 * number counts schedulings, so events at equal times run in the order they were scheduled. A run is therefore a
 * function of its inputs alone.
 *
 * <p>The heap is kept in parallel primitive arrays (time, sequence, handler, ref, arg) that grow by doubling and
 * never shrink, so scheduling and running events allocate nothing once the queue has reached its working size.
 * Single-threaded: one simulation, one thread.
 */
public final class DeterministicEventLoop implements Scheduler {

  private long[] times;
  private long[] seqs;
  private EventHandler[] handlers;
  private Object[] refs;
  private long[] args;
  private int size;
  private long now;
  private long nextSeq;
  private long executed;
  private boolean stopRequested;

  /** An empty loop at time 0. */
  public DeterministicEventLoop() {
    this(1024);
  }

  /**
   * An empty loop at time 0 with room for {@code initialCapacity} pending events before it grows.
   *
   * @param initialCapacity ≥ 1
   */
  public DeterministicEventLoop(int initialCapacity) {
    if (initialCapacity < 1) {
      throw new IllegalArgumentException("initialCapacity must be >= 1 but was " + initialCapacity);
    }
    times = new long[initialCapacity];
    seqs = new long[initialCapacity];
    handlers = new EventHandler[initialCapacity];
    refs = new Object[initialCapacity];
    args = new long[initialCapacity];
  }

  @Override
  public long now() {
    return now;
  }

  @Override
  public void scheduleAt(long timePs, EventHandler handler, Object ref, long arg) {
    if (timePs < now) {
      throw new IllegalArgumentException(
          "timePs must be >= now (" + now + " ps) but was " + timePs + " ps");
    }
    if (handler == null) {
      throw new IllegalArgumentException("handler must not be null");
    }
    if (size == times.length) {
      grow();
    }
    int i = size++;
    long seq = nextSeq++;
    // sift up
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!before(timePs, seq, times[parent], seqs[parent])) {
        break;
      }
      move(parent, i);
      i = parent;
    }
    set(i, timePs, seq, handler, ref, arg);
  }

  /**
   * Runs the earliest event.
   *
   * @return false when there was none
   */
  public boolean step() {
    if (size == 0) {
      return false;
    }
    long t = times[0];
    EventHandler h = handlers[0];
    Object r = refs[0];
    long a = args[0];
    removeTop();
    now = t;
    executed++;
    h.onEvent(t, r, a);
    return true;
  }

  /**
   * Runs events until none is left or {@link #stop()} is called.
   *
   * @return events run by this call
   */
  public long run() {
    return runUntil(Long.MAX_VALUE);
  }

  /**
   * Runs every event at or before {@code limitPs}, then sets the clock to {@code limitPs} (unless stopped or the
   * limit is {@link Long#MAX_VALUE}).
   *
   * @param limitPs last time to run, picoseconds
   * @return events run by this call
   */
  public long runUntil(long limitPs) {
    stopRequested = false;
    long before = executed;
    while (size > 0 && times[0] <= limitPs && !stopRequested) {
      step();
    }
    if (!stopRequested && limitPs != Long.MAX_VALUE && limitPs > now) {
      now = limitPs;
    }
    return executed - before;
  }

  /**
   * Runs events while a condition holds (checked before each event) and events remain.
   *
   * @param condition checked before each event
   * @return events run by this call
   */
  public long runWhile(BooleanSupplier condition) {
    stopRequested = false;
    long before = executed;
    while (size > 0 && !stopRequested && condition.getAsBoolean()) {
      step();
    }
    return executed - before;
  }

  /** Makes the running {@code run*} call return after the current event. */
  public void stop() {
    stopRequested = true;
  }

  /** @return events waiting */
  public int pending() {
    return size;
  }

  /** @return events run since the loop was made */
  public long eventsExecuted() {
    return executed;
  }

  /** @return the time of the earliest pending event, or {@link Long#MAX_VALUE} when none */
  public long nextEventTime() {
    return size == 0 ? Long.MAX_VALUE : times[0];
  }

  private void removeTop() {
    int last = --size;
    long t = times[last];
    long s = seqs[last];
    EventHandler h = handlers[last];
    Object r = refs[last];
    long a = args[last];
    handlers[last] = null;
    refs[last] = null;
    if (last == 0) {
      handlers[0] = null;
      refs[0] = null;
      return;
    }
    int i = 0;
    int half = last >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      int right = child + 1;
      if (right < last && before(times[right], seqs[right], times[child], seqs[child])) {
        child = right;
      }
      if (!before(times[child], seqs[child], t, s)) {
        break;
      }
      move(child, i);
      i = child;
    }
    set(i, t, s, h, r, a);
  }

  private static boolean before(long t1, long s1, long t2, long s2) {
    return t1 < t2 || (t1 == t2 && s1 < s2);
  }

  private void move(int from, int to) {
    times[to] = times[from];
    seqs[to] = seqs[from];
    handlers[to] = handlers[from];
    refs[to] = refs[from];
    args[to] = args[from];
  }

  private void set(int i, long t, long s, EventHandler h, Object r, long a) {
    times[i] = t;
    seqs[i] = s;
    handlers[i] = h;
    refs[i] = r;
    args[i] = a;
  }

  private void grow() {
    int n = times.length * 2;
    times = Arrays.copyOf(times, n);
    seqs = Arrays.copyOf(seqs, n);
    handlers = Arrays.copyOf(handlers, n);
    refs = Arrays.copyOf(refs, n);
    args = Arrays.copyOf(args, n);
  }
}
