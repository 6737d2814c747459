package io.github.ariesmodel.system.mpi;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * A map of non-negative {@code long} keys to {@code long} values in two arrays (open addressing, linear probing,
 * deletion by shifting the entries after a removed one back, so no tombstone builds up): once it has grown to the most
 * entries it holds at once, a put, get or remove allocates nothing, where a {@code Map<Long, Long>} boxes a key and a
 * value on every put. Its methods are synchronized: {@link Rank}'s senders of other groups put into a receiver's map on
 * their own threads on a partitioned engine while the receiver takes from it.
 */
final class LongLongMap {

  /** A free slot's key (the keys are non-negative). */
  private static final long FREE = -1;

  /** The most slots: the arrays' largest power of two. */
  private static final int MAX_SLOTS = 1 << 30;

  private long[] keys;
  private long[] values;
  /** Entries held; volatile so that {@link #isEmpty} reads it without the lock. */
  private volatile int size;

  /** An empty map of 16 slots. */
  LongLongMap() {
    alloc(16);
  }

  private void alloc(int slots) {
    keys = new long[slots];
    values = new long[slots];
    java.util.Arrays.fill(keys, FREE);
  }

  /** The slot a key's probe starts at (the key's bits mixed, so that keys of one stride spread). */
  private static int home(long key, int mask) {
    long h = key * 0x9E3779B97F4A7C15L; // (2^64 over the golden ratio, Knuth's multiplicative hashing)
    return (int) (h ^ h >>> 32) & mask;
  }

  /** @return the slot holding {@code key}, or the free slot that ends its probe */
  private int find(long key) {
    int mask = keys.length - 1;
    int i = home(key, mask);
    while (keys[i] != FREE && keys[i] != key) {
      i = (i + 1) & mask;
    }
    return i;
  }

  /** @return whether the map holds no entry (read without the lock) */
  boolean isEmpty() {
    return size == 0;
  }

  /** @return the entries held */
  synchronized int size() {
    return size;
  }

  /**
   * Sets a key's value.
   *
   * @param key the key, at least 0
   * @param value the value
   */
  synchronized void put(long key, long value) {
    checkArgument(key >= 0, "key must be >= 0 but was %s", key);
    int i = find(key);
    if (keys[i] == key) {
      values[i] = value;
      return;
    }
    if (2 * (size + 1) > keys.length) { // kept at most half full: short probes
      checkArgument(keys.length < MAX_SLOTS, "a map holds at most %s entries", MAX_SLOTS / 2);
      long[] oldKeys = keys;
      long[] oldValues = values;
      alloc(keys.length * 2);
      for (int j = 0; j < oldKeys.length; j++) {
        if (oldKeys[j] != FREE) {
          int k = find(oldKeys[j]);
          keys[k] = oldKeys[j];
          values[k] = oldValues[j];
        }
      }
      i = find(key);
    }
    keys[i] = key;
    values[i] = value;
    size = size + 1;
  }

  /**
   * @param key the key
   * @param absent what is returned when the map holds no value of the key
   * @return the key's value, or {@code absent}
   */
  synchronized long get(long key, long absent) {
    if (key < 0) {
      return absent;
    }
    int i = find(key);
    return keys[i] == key ? values[i] : absent;
  }

  /**
   * Removes a key's entry.
   *
   * @param key the key
   * @param absent what is returned when the map holds no value of the key
   * @return the value removed, or {@code absent}
   */
  synchronized long remove(long key, long absent) {
    if (key < 0) {
      return absent;
    }
    int i = find(key);
    if (keys[i] != key) {
      return absent;
    }
    long removed = values[i];
    // The entries after it in its run move back into the hole when their probe starts at or before it (cyclically):
    // each stays reachable from its home without a tombstone.
    int mask = keys.length - 1;
    int hole = i;
    for (int j = (i + 1) & mask; keys[j] != FREE; j = (j + 1) & mask) {
      int h = home(keys[j], mask);
      // whether h lies cyclically in (hole, j]: then the entry may not move before its home
      boolean stays = hole <= j ? hole < h && h <= j : hole < h || h <= j;
      if (!stays) {
        keys[hole] = keys[j];
        values[hole] = values[j];
        hole = j;
      }
    }
    keys[hole] = FREE;
    size = size - 1;
    return removed;
  }
}
