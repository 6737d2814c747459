package io.github.ariesmodel.core.sim;

import java.util.Arrays;

/**
 * The heap of the calendar bucket the {@link DeterministicEventLoop} is running: a 4-ary min-heap ordered by (time,
 * sequence), like {@link EventHeap}, but comparing one {@code long} per entry instead of two.
 *
 * <p>Every event of a bucket has a time in {@code [base, base + width)}, so its time is the bucket's start plus an
 * offset of {@code log2(width)} bits, and the entry's key is {@code offset << (63 - log2(width)) | sequence}: keys
 * order exactly as (time, sequence) do as long as each sequence fits below the offset. With the default 64-ps buckets
 * that is any sequence below 2^57 (the loop's own counter, or an engine key of a group below 2^17). Buckets of a
 * synthetic load are crowded (packets of one size on links of a few latencies make events fall on the same
 * picoseconds, hundreds to a bucket on 1,056 nodes), so halving the loads and compares of each sift-down level pays.
 *
 * <p>An event that does not fit (a time outside the bucket, which an event scheduled after a peek moved the calendar
 * ahead can have, or a sequence too large) turns the heap wide until it empties: its entries move to an {@link
 * EventHeap} and every operation goes there. The order is the same either way.
 */
final class BucketHeap {

  private final int offsetShift;
  private final long seqMask;
  private final long width;
  private long base;

  private long[] keys;
  private int[] slots;
  private int size;

  private final EventHeap wide;
  private boolean isWide;

  /**
   * @param widthLog2 log2 of the bucket width in ps, in [0, 40]
   * @param initialCapacity entries before the arrays grow, ≥ 1
   */
  BucketHeap(int widthLog2, int initialCapacity) {
    offsetShift = 63 - widthLog2;
    seqMask = offsetShift == 63 ? Long.MAX_VALUE : (1L << offsetShift) - 1;
    width = 1L << widthLog2;
    keys = new long[initialCapacity];
    slots = new int[initialCapacity];
    wide = new EventHeap(Math.min(initialCapacity, 64));
  }

  /** Starts a bucket at {@code baseTime} (the heap must be empty). */
  void startBucket(long baseTime) {
    base = baseTime;
  }

  boolean isEmpty() {
    return isWide ? wide.isEmpty() : size == 0;
  }

  int size() {
    return isWide ? wide.size() : size;
  }

  /** Whether the heap has turned wide (its entries are in the {@link EventHeap}, not packed). */
  boolean isWide() {
    return isWide;
  }

  /** The smallest entry's packed key (the heap must not be empty or wide). */
  long minKey() {
    return keys[0];
  }

  long minTime() {
    return isWide ? wide.minTime() : keyTime(keys[0]);
  }

  long minSeq() {
    return isWide ? wide.minSeq() : keySeq(keys[0]);
  }

  /**
   * The packed key of an event of the bucket started last, which orders as (time, sequence) do; the loop's sorted
   * run uses the same keys.
   *
   * @return the key (≥ 0), or -1 when the event does not fit (a time outside the bucket, a sequence too large)
   */
  long packedKey(long time, long seq) {
    long offset = time - base;
    return offset >= 0 && offset < width && seq >= 0 && seq <= seqMask ? (offset << offsetShift) | seq : -1;
  }

  /** @return the time of packed key {@code key} */
  long keyTime(long key) {
    return base + (key >>> offsetShift);
  }

  /** @return the sequence of packed key {@code key} */
  long keySeq(long key) {
    return key & seqMask;
  }

  int minSlot() {
    return isWide ? wide.minSlot() : slots[0];
  }

  void push(long time, long seq, int slot) {
    if (!isWide) {
      long key = packedKey(time, seq);
      if (key >= 0) {
        pushKey(key, slot);
        return;
      }
      widen();
    }
    wide.push(time, seq, slot);
  }

  private void widen() {
    for (int i = 0; i < size; i++) {
      wide.push(keyTime(keys[i]), keySeq(keys[i]), slots[i]);
    }
    size = 0;
    isWide = true;
  }

  private void pushKey(long key, int slot) {
    if (size == keys.length) {
      int n = size * 2;
      keys = Arrays.copyOf(keys, n);
      slots = Arrays.copyOf(slots, n);
    }
    rise(size++, key, slot);
  }

  /** Places (key, slot) at hole {@code i} or above it, moving down the parents that are larger. */
  private void rise(int i, long key, int slot) {
    long[] ks = keys;
    int[] ss = slots;
    while (i > 0) {
      int parent = (i - 1) >>> 2;
      long pk = ks[parent];
      if (pk < key) {
        break;
      }
      ks[i] = pk;
      ss[i] = ss[parent];
      i = parent;
    }
    ks[i] = key;
    ss[i] = slot;
  }

  /**
   * Removes the smallest entry (the heap must not be empty). Bottom-up: the hole left at the root moves down along
   * the smallest children to a leaf (three compares a level, none against the entry being placed), and the last
   * entry then rises from there, which it seldom does far, being a leaf's.
   */
  void pop() {
    if (isWide) {
      wide.pop();
      if (wide.isEmpty()) {
        isWide = false;
      }
      return;
    }
    int last = --size;
    if (last == 0) {
      return;
    }
    long[] ks = keys;
    int[] ss = slots;
    int i = 0;
    while (true) {
      int first = (i << 2) + 1;
      if (first >= last) {
        break;
      }
      int best = first;
      long bk = ks[first];
      int end = Math.min(first + 4, last);
      for (int c = first + 1; c < end; c++) {
        long ck = ks[c];
        if (ck < bk) {
          best = c;
          bk = ck;
        }
      }
      ks[i] = bk;
      ss[i] = ss[best];
      i = best;
    }
    rise(i, ks[last], ss[last]);
  }
}
