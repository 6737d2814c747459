package io.github.ariesmodel.network;

import java.util.Arrays;

/**
 * A multiset of non-negative times (picoseconds) in an open-addressing hash table: add, remove and count in O(1)
 * expected time, allocating nothing once grown to the working size. The router fabric keeps the times of its pending
 * arrival events here, to learn whether a buffer release falls on the very picosecond of one (see {@link
 * RouterFabric}). Single-threaded.
 */
final class TimeMultiset {
  private static final long EMPTY = -1;
  private long[] keys;
  private int[] counts;
  private int mask;
  private int used;

  TimeMultiset() {
    keys = new long[1024];
    counts = new int[1024];
    Arrays.fill(keys, EMPTY);
    mask = keys.length - 1;
  }

  /** @param t a time, ≥ 0, added once more */
  void add(long t) {
    int i = find(t);
    if (keys[i] == t) {
      counts[i]++;
      return;
    }
    keys[i] = t;
    counts[i] = 1;
    if (++used * 2 > keys.length) {
      grow();
    }
  }

  /** @param t a time added before and not yet removed as often, removed once */
  void remove(long t) {
    int i = find(t);
    if (keys[i] != t) {
      throw new IllegalStateException("time " + t + " ps was not in the set");
    }
    if (--counts[i] > 0) {
      return;
    }
    // backward-shift deletion keeps every probe sequence unbroken without tombstones
    int hole = i;
    int j = i;
    while (true) {
      j = (j + 1) & mask;
      if (keys[j] == EMPTY) {
        break;
      }
      int home = slot(keys[j]);
      // move j into the hole unless its home lies cyclically in (hole, j]
      boolean stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
      if (!stays) {
        keys[hole] = keys[j];
        counts[hole] = counts[j];
        hole = j;
      }
    }
    keys[hole] = EMPTY;
    counts[hole] = 0;
    used--;
  }

  /** @param t a time @return whether it is in the set */
  boolean contains(long t) {
    return keys[find(t)] == t;
  }

  private int find(long t) {
    int i = slot(t);
    while (keys[i] != EMPTY && keys[i] != t) {
      i = (i + 1) & mask;
    }
    return i;
  }

  private int slot(long t) {
    long h = t * 0x9E3779B97F4A7C15L;
    return (int) (h >>> 32) & mask;
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldCounts = counts;
    keys = new long[oldKeys.length * 2];
    counts = new int[oldKeys.length * 2];
    Arrays.fill(keys, EMPTY);
    mask = keys.length - 1;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != EMPTY) {
        int j = find(oldKeys[i]);
        keys[j] = oldKeys[i];
        counts[j] = oldCounts[i];
      }
    }
  }
}
