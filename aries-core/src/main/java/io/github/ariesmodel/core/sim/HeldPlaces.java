package io.github.ariesmodel.core.sim;

/**
 * A fixed number of places (tags, table entries, pipeline slots), each held from when it is taken until a time known
 * when it is taken, and given back lazily: no event per place, the places whose time has come are freed by the next
 * call that asks about a time. Places are given back in the order they were taken, so the times passed to
 * {@link #take} must not decrease (a constant latency after a clock that does not go back, for example). Primitive
 * state only; allocation-free after construction.
 */
public final class HeldPlaces {

  /**
   * The most places a set may have: 65,536, 16 times the most any user here needs (the IOMMU's in-flight limit is
   * at most 4,096, a NIC has 64 request tags; the hardware's tables and queues have thousands of entries at most), in
   * an array of 512 KiB. Beyond it a capacity is a mistake, not a model: {@code Integer.MAX_VALUE} asked for a 16 GiB
   * array and failed with an {@link OutOfMemoryError}.
   */
  public static final int MAX_CAPACITY = 1 << 16;

  private final long[] freeAt;
  private int head;
  private int held;

  /**
   * @param capacity how many places there are, 1 to {@link #MAX_CAPACITY}
   * @throws IllegalArgumentException when {@code capacity} is outside that range
   */
  public HeldPlaces(int capacity) {
    if (capacity < 1 || capacity > MAX_CAPACITY) {
      throw new IllegalArgumentException("capacity must be in [1, " + MAX_CAPACITY + "] but was " + capacity);
    }
    freeAt = new long[capacity];
  }

  /** @return the number of places */
  public int capacity() {
    return freeAt.length;
  }

  /**
   * Frees the places whose time is at or before {@code now}.
   *
   * @param now the current time
   * @return places still held at {@code now}
   */
  public int held(long now) {
    while (held > 0 && freeAt[head] <= now) {
      head = head + 1 == freeAt.length ? 0 : head + 1;
      held--;
    }
    return held;
  }

  /**
   * Takes a place until {@code until}. The caller has checked that one is free ({@link #held} below
   * {@link #capacity}).
   *
   * @param until when it is given back, not before the time of any place still held
   * @throws IllegalStateException when every place is held
   */
  public void take(long until) {
    if (held == freeAt.length) {
      throw new IllegalStateException("all " + freeAt.length + " places are held");
    }
    int tail = head + held;
    freeAt[tail >= freeAt.length ? tail - freeAt.length : tail] = until;
    held++;
  }

  /** @return when the oldest held place is given back, or {@link Long#MAX_VALUE} when none is held */
  public long nextFree() {
    return held == 0 ? Long.MAX_VALUE : freeAt[head];
  }
}
