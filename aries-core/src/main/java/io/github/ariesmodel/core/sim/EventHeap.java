package io.github.ariesmodel.core.sim;

import java.util.Arrays;

/**
 * A 4-ary min-heap of (time, sequence, slot) entries ordered by (time, sequence), in three primitive arrays that grow
 * by doubling and never shrink. The {@link DeterministicEventLoop} keeps its events beyond the calendar's horizon in
 * one, and its {@link BucketHeap} turns to one when an entry does not fit its packed key. Sequence numbers are unique,
 * so the order is total.
 */
final class EventHeap {

  private long[] times;
  private long[] seqs;
  private int[] slots;
  private int size;

  EventHeap(int initialCapacity) {
    times = new long[initialCapacity];
    seqs = new long[initialCapacity];
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

  void push(long time, long seq, int slot) {
    if (size == times.length) {
      int n = size * 2;
      times = Arrays.copyOf(times, n);
      seqs = Arrays.copyOf(seqs, n);
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
      slots[i] = slots[parent];
      i = parent;
    }
    times[i] = time;
    seqs[i] = seq;
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
      slots[i] = slots[best];
      i = best;
    }
    times[i] = t;
    seqs[i] = s;
    slots[i] = sl;
  }
}
