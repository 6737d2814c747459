package io.github.ariesmodel.core.sim;

import java.util.Arrays;

/**
 * A 4-ary min-heap of (time, sequence, argument, slot) entries ordered by (time, sequence), in four primitive arrays
 * that grow by doubling and never shrink. The event's {@code long} argument travels with it so that running the event
 * reads it from the heap, which is in cache, rather than from the event's slot, which may not be. The {@link DeterministicEventLoop} keeps two: one for the calendar bucket it is
 * running and one for events beyond the calendar's horizon. Sequence numbers are unique, so the order is total.
 */
final class EventHeap {

  private long[] times;
  private long[] seqs;
  private long[] args;
  private int[] slots;
  private int size;

  EventHeap(int initialCapacity) {
    times = new long[initialCapacity];
    seqs = new long[initialCapacity];
    args = new long[initialCapacity];
    slots = new int[initialCapacity];
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  long minTime() {
    return times[0];
  }

  int minSlot() {
    return slots[0];
  }

  long minSeq() {
    return seqs[0];
  }

  long minArg() {
    return args[0];
  }

  void push(long time, long seq, long arg, int slot) {
    if (size == times.length) {
      int n = size * 2;
      times = Arrays.copyOf(times, n);
      seqs = Arrays.copyOf(seqs, n);
      args = Arrays.copyOf(args, n);
      slots = Arrays.copyOf(slots, n);
    }
    int i = size++;
    while (i > 0) {
      int parent = (i - 1) >>> 2;
      long pt = times[parent];
      if (pt < time || (pt == time && seqs[parent] < seq)) {
        break;
      }
      times[i] = pt;
      seqs[i] = seqs[parent];
      args[i] = args[parent];
      slots[i] = slots[parent];
      i = parent;
    }
    times[i] = time;
    seqs[i] = seq;
    args[i] = arg;
    slots[i] = slot;
  }

  /** Removes the smallest entry (the heap must not be empty). */
  void pop() {
    int last = --size;
    if (last == 0) {
      return;
    }
    long t = times[last];
    long s = seqs[last];
    long a = args[last];
    int sl = slots[last];
    int i = 0;
    while (true) {
      int first = (i << 2) + 1;
      if (first >= last) {
        break;
      }
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
      args[i] = args[best];
      slots[i] = slots[best];
      i = best;
    }
    times[i] = t;
    seqs[i] = s;
    args[i] = a;
    slots[i] = sl;
  }
}
