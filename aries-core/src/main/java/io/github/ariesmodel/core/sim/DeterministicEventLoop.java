package io.github.ariesmodel.core.sim;

import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Scheduler;
import java.util.Arrays;
import java.util.function.BooleanSupplier;

/**
 * The simulation's event loop: a 4-ary min-heap of events ordered by (time, sequence number), where the sequence
 * number counts schedulings, so events at equal times run in the order they were scheduled. A run is therefore a
 * function of its inputs alone.
 *
 * <p>Layout, chosen for speed on the simulator's hottest path: the heap holds only (time, sequence, slot) in three
 * primitive arrays; an event's handler, ref and arg stay put in slot arrays and are reached through the slot, so a
 * heap move copies three words instead of five. A 4-ary heap halves the depth of a binary one. All arrays grow by
 * doubling and never shrink, and freed slots are reused from a stack, so scheduling and running events allocate
 * nothing once the queue has reached its working size. Single-threaded: one simulation, one thread.
 */
public final class DeterministicEventLoop implements Scheduler {

  private long[] times;
  private long[] seqs;
  private int[] slots;
  private EventHandler[] handlers;
  private Object[] refs;
  private long[] args;
  private int[] freeSlots;
  private int freeTop;
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
    slots = new int[initialCapacity];
    handlers = new EventHandler[initialCapacity];
    refs = new Object[initialCapacity];
    args = new long[initialCapacity];
    freeSlots = new int[initialCapacity];
    for (int i = 0; i < initialCapacity; i++) {
      freeSlots[i] = initialCapacity - 1 - i;
    }
    freeTop = initialCapacity;
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
    int slot = freeSlots[--freeTop];
    handlers[slot] = handler;
    refs[slot] = ref;
    args[slot] = arg;
    long seq = nextSeq++;
    int i = size++;
    // sift up
    while (i > 0) {
      int parent = (i - 1) >>> 2;
      long pt = times[parent];
      if (pt < timePs || (pt == timePs && seqs[parent] < seq)) {
        break;
      }
      times[i] = pt;
      seqs[i] = seqs[parent];
      slots[i] = slots[parent];
      i = parent;
    }
    times[i] = timePs;
    seqs[i] = seq;
    slots[i] = slot;
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
    int slot = slots[0];
    EventHandler h = handlers[slot];
    Object r = refs[slot];
    long a = args[slot];
    handlers[slot] = null;
    refs[slot] = null;
    freeSlots[freeTop++] = slot;
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
    if (last == 0) {
      return;
    }
    long t = times[last];
    long s = seqs[last];
    int sl = slots[last];
    int i = 0;
    while (true) {
      int first = (i << 2) + 1;
      if (first >= last) {
        break;
      }
      // the smallest of up to four children
      int best = first;
      long bt = times[first];
      long bs = seqs[first];
      int end = Math.min(first + 4, last);
      for (int c = first + 1; c < end; c++) {
        long ct = times[c];
        if (ct < bt || (ct == bt && seqs[c] < bs)) {
          best = c;
          bt = ct;
          bs = seqs[c];
        }
      }
      if (t < bt || (t == bt && s < bs)) {
        break;
      }
      times[i] = bt;
      seqs[i] = bs;
      slots[i] = slots[best];
      i = best;
    }
    times[i] = t;
    seqs[i] = s;
    slots[i] = sl;
  }

  private void grow() {
    int old = times.length;
    int n = old * 2;
    times = Arrays.copyOf(times, n);
    seqs = Arrays.copyOf(seqs, n);
    slots = Arrays.copyOf(slots, n);
    handlers = Arrays.copyOf(handlers, n);
    refs = Arrays.copyOf(refs, n);
    args = Arrays.copyOf(args, n);
    // every slot is in use when the heap is full: the new free slots are old .. n-1
    freeSlots = new int[n];
    for (int i = 0; i < n - old; i++) {
      freeSlots[i] = n - 1 - i;
    }
    freeTop = n - old;
  }
}
