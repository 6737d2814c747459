package io.github.ariesmodel.system.mpi;

import java.util.Map;
import java.util.TreeMap;

/**
 * First-fit allocator of a rank's registered internal buffer space (offsets within its registration), 64-byte
 * aligned so that every buffer starts on a cache line (and a BTE GET's offset is a multiple of 4 [S6a]).
 */
final class BufferHeap {

  static final int ALIGN = 64;

  private final long base;
  private final long length;
  private final TreeMap<Long, Long> free = new TreeMap<>();
  private long inUse;

  BufferHeap(long base, long length) {
    this.base = base;
    this.length = length;
    free.put(base, length);
  }

  /** @return an offset of at least {@code bytes} (rounded up to 64), or -1 when no free block is large enough */
  long allocate(long bytes) {
    long need = Math.max(ALIGN, (bytes + ALIGN - 1) / ALIGN * ALIGN);
    for (Map.Entry<Long, Long> e : free.entrySet()) {
      long size = e.getValue();
      if (size >= need) {
        long at = e.getKey();
        // Read the entry before removing it: TreeMap may reuse the removed node for its successor.
        free.remove(at);
        if (size > need) {
          free.put(at + need, size - need);
        }
        inUse += need;
        return at;
      }
    }
    return -1;
  }

  /**
   * Gives a block back: {@code offset} as {@link #allocate} returned it and the {@code bytes} asked for then.
   *
   * @throws IllegalStateException when the block lies outside the heap or overlaps free space (released twice, or
   *     never allocated); nothing changes then. Until stop 77 such a release was taken: a second release of a block
   *     put a free block of its size over the larger free block that held it, losing the rest of that block, and
   *     took its bytes off {@link #inUse} again, below zero
   */
  void release(long offset, long bytes) {
    long size = Math.max(ALIGN, (bytes + ALIGN - 1) / ALIGN * ALIGN);
    long start = offset;
    long end = offset + size;
    Map.Entry<Long, Long> before = free.floorEntry(offset);
    Map.Entry<Long, Long> after = free.ceilingEntry(offset);
    Map.Entry<Long, Long> overlap = before != null && before.getKey() + before.getValue() > offset ? before
        : after != null && after.getKey() < end ? after : null;
    if (offset < base || bytes < 0 || size > base + length - offset || overlap != null) {
      throw new IllegalStateException("internal buffer space [" + offset + ", +" + size + ") released "
          + (overlap != null ? "twice or never allocated: it overlaps the free block [" + overlap.getKey() + ", +"
              + overlap.getValue() + ")" : "outside the heap [" + base + ", +" + length + ")"));
    }
    inUse -= size;
    if (before != null && before.getKey() + before.getValue() == start) {
      start = before.getKey();
      free.remove(before.getKey());
    }
    Long afterLen = free.get(end);
    if (afterLen != null) {
      free.remove(end);
      end += afterLen;
    }
    free.put(start, end - start);
  }

  long inUse() {
    return inUse;
  }

  long capacity() {
    return length;
  }

  long base() {
    return base;
  }
}
