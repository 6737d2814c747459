package io.github.ariesmodel.nic;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.LittleEndian;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.Scheduler;
import java.util.Arrays;

/**
 * The NIC's writes into host memory that are on their way: posted writes that have left the NIC's order but are not
 * yet where the host can see them. Every stage of the NIC reads and writes host memory through this view, so the NIC
 * sees its own writes at once, in the order it made them (a later read of the NIC's does not pass its earlier posted
 * writes, as PCI Express orders a read behind the posted writes before it); the node's memory below, which the host's
 * CPU and cache read, takes each write only when the host can see it.
 *
 * <p>A write made through this view is held until the stage that made it says when it is visible, with the same
 * range, through {@link HostWriteProbes#wrote} ({@link #settle}): the stage books the write's crossing of the
 * {@link HostLink} and passes its arrival. A write visible no later than now goes to memory at once; a later one is
 * held, and an event at its time writes it. Until stop 69 every NIC write went to memory when the NIC made it, up to
 * a host-link crossing (about 250 ns) before the host could see it, so a CPU loop on a word saw a put's value early;
 * SHMEM's {@code waitUntil} guarded against it, a program's own loop did not.
 *
 * <p>Order: the writes whose crossings are booked arrive in the order booked (the host link's node-bound channel is
 * first in, first out), so they reach memory in that order. A memory AMO's result is written when the unit computes
 * it and settled, by itself ({@link #deferNewest}, {@link #settleDeferred}), when its result write is booked, a read
 * round trip later ({@link AmoUnit}); AMOs on one word answer in the order they executed. A write that lands after a
 * newer one over the same bytes (the AMO's result behind a put made meanwhile) leaves the newer one's bytes, which
 * memory already has; the NIC's view applies the held writes over memory in the order made.
 *
 * <p>Nothing is allocated in steady state: held writes are pooled records of up to 64 bytes (a longer write is held as
 * several). One event a held write: a PUT packet's part, a GET response's, a memory AMO's result, an AMO-cache
 * write-back, a collective result (one 24-byte write).
 */
final class PostedWrites implements HostMemory {
  /** Bytes a held write keeps at most; the NIC writes host memory 64 bytes at a time [S1 p.21]. */
  static final int CHUNK = 64;

  private static final long UNSETTLED = Long.MIN_VALUE;

  private static final class Held {
    long pa;
    int length;
    long visiblePs = UNSETTLED;
    boolean done;
    /** Settled by {@link #settleDeferred} alone (a memory AMO's result), not by a range. */
    boolean deferred;
    final byte[] data = new byte[CHUNK];
  }

  private final Scheduler clock;
  private final HostMemory memory;
  private final EventHandler land = (now, ref, arg) -> land((Held) ref);
  private final byte[] word = new byte[8];

  /** Held writes in the order made (a ring); landed ones leave from the front. */
  private Held[] ring = new Held[16];
  private int head;
  private int size;
  private Held[] pool = new Held[16];
  private int pooled;
  /** Held writes not yet settled. */
  private int unsettled;
  /**
   * Writes in the ring that have landed: those that landed before an older one (the front's are returned to the pool
   * as they land). While there are none, nothing held is shadowed by a newer write, and no read or landing looks.
   */
  private int landedInRing;

  /**
   * @param clock the NIC's clock
   * @param memory the node's memory as the host sees it (its cache's NIC view on a system)
   */
  PostedWrites(Scheduler clock, HostMemory memory) {
    this.clock = clock;
    this.memory = memory;
  }

  /** @return writes made and not yet in memory (held), for tests */
  int held() {
    return size - landedInRing;
  }

  /** @return writes made whose visible time no stage has given yet, for tests */
  int unsettled() {
    return unsettled;
  }

  /**
   * @return when the first of the held writes over {@code [pa, pa + length)} whose visible time is known lands in
   *     memory, or -1 when none is held
   */
  long nextLanding(long pa, int length) {
    long first = -1;
    long end = pa + length;
    for (int k = 0; k < size; k++) {
      Held h = at(k);
      if (!h.done && h.visiblePs != UNSETTLED && h.pa < end && h.pa + h.length > pa
          && (first < 0 || h.visiblePs < first)) {
        first = h.visiblePs;
      }
    }
    return first;
  }

  @Override
  public long capacity() {
    return memory.capacity();
  }

  @Override
  public HostMemory physicalMemory() {
    return memory.physicalMemory();
  }

  @Override
  public long allocate(long bytes, long alignment) {
    return memory.allocate(bytes, alignment);
  }

  @Override
  public long allocatedBytes() {
    return memory.allocatedBytes();
  }

  /** A stage that keeps translated accesses waiting to be served: whether one of them touches a range. */
  interface Waiting {
    /** @return whether an access translated and still waiting in the stage touches a byte of {@code [address, end)} */
    boolean touches(long address, long end);
  }

  /** Stages whose waiting accesses keep memory from being given back ({@link #keepWhileWaiting}). */
  private Waiting[] waiting = new Waiting[0];

  /**
   * Memory a waiting access of {@code stage} touches is not given back ({@link #free}) until the access is served:
   * the IOMMU translated it before the deregistration, and the NIC serves it on the physical address it was given (a
   * GET waiting for a tag of the non-posted table, an AMO waiting for room in the request list).
   */
  void keepWhileWaiting(Waiting stage) {
    waiting = Arrays.copyOf(waiting, waiting.length + 1);
    waiting[waiting.length - 1] = stage;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Keeps the memory (false, nothing changed) while a write into the range is held, or a stage keeps an access to it
   * that was translated and waits to be served ({@link #keepWhileWaiting}): the write would land, or the access read
   * or write, in memory given back, perhaps handed to another owner by then.
   */
  @Override
  public boolean free(long address, long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("bytes must be > 0 but was " + bytes);
    }
    long end = address + bytes;
    for (int k = 0; k < size; k++) {
      Held h = at(k);
      if (!h.done && h.pa < end && h.pa + h.length > address) {
        return false;
      }
    }
    for (Waiting w : waiting) {
      if (w.touches(address, end)) {
        return false;
      }
    }
    return memory.free(address, bytes);
  }

  @Override
  public void read(long address, byte[] dst, int dstOffset, int length) {
    memory.read(address, dst, dstOffset, length);
    if (size == 0) {
      return;
    }
    long end = address + length;
    // the held writes in the order made, over memory; but for the bytes of a newer write that has landed already,
    // which memory has (with whatever the host's CPU stored there since)
    for (int k = 0; k < size; k++) {
      Held h = at(k);
      if (!h.done && h.pa < end && h.pa + h.length > address) {
        long from = Math.max(address, h.pa);
        long to = Math.min(end, h.pa + h.length);
        if (!newerLandedOverlaps(k, from, to)) {
          System.arraycopy(h.data, (int) (from - h.pa), dst, dstOffset + (int) (from - address), (int) (to - from));
        } else {
          for (long b = from; b < to; b++) {
            if (!newerLandedCovers(k, b)) {
              dst[dstOffset + (int) (b - address)] = h.data[(int) (b - h.pa)];
            }
          }
        }
      }
    }
  }

  @Override
  public long readLong(long address) {
    if (size == 0) {
      return memory.readLong(address);
    }
    read(address, word, 0, 8);
    return LittleEndian.get(word, 0, 8);
  }

  @Override
  public int readInt(long address) {
    if (size == 0) {
      return memory.readInt(address);
    }
    read(address, word, 0, 4);
    return (int) LittleEndian.get(word, 0, 4);
  }

  @Override
  public void write(long address, byte[] src, int srcOffset, int length) {
    checkArgument(src != null, "src must not be null");
    checkArgument(srcOffset >= 0 && length >= 0 && srcOffset <= src.length - length,
        "src must hold %s bytes from index %s but has %s", length, srcOffset, src.length);
    checkArgument(address >= 0 && address <= memory.capacity() - length,
        "address must leave %s bytes within the memory's %s but was %s", length, memory.capacity(), address);
    while (length > 0) {
      int n = Math.min(length, CHUNK);
      hold(address, src, srcOffset, n);
      address += n;
      srcOffset += n;
      length -= n;
    }
  }

  @Override
  public void writeLong(long address, long value) {
    LittleEndian.put(word, 0, 8, value);
    write(address, word, 0, 8);
  }

  @Override
  public void writeInt(long address, int value) {
    LittleEndian.put(word, 0, 4, value);
    write(address, word, 0, 4);
  }

  /**
   * The writes made through this view within {@code [pa, pa + length)} and not yet settled, but those a memory AMO
   * defers ({@link #deferNewest}), are visible from {@code visiblePs}: those at or before now go to memory now, the
   * others when their time comes.
   */
  void settle(long visiblePs, long pa, int length) {
    if (unsettled == 0) {
      return;
    }
    long end = pa + length;
    for (int k = 0; k < size; k++) {
      Held h = at(k);
      if (!h.done && !h.deferred && h.visiblePs == UNSETTLED && h.pa >= pa && h.pa + h.length <= end) {
        settle(h, k, visiblePs);
      }
    }
    trim();
  }

  /** The newest write made is a memory AMO's result: it is settled by {@link #settleDeferred} alone. */
  void deferNewest() {
    checkArgument(size > 0 && at(size - 1).visiblePs == UNSETTLED, "no unsettled write to defer");
    at(size - 1).deferred = true;
  }

  /**
   * The oldest deferred write of exactly {@code [pa, pa + length)} not yet settled (a memory AMO's result; AMOs on a
   * word answer in the order they executed) is visible from {@code visiblePs}.
   */
  void settleDeferred(long visiblePs, long pa, int length) {
    for (int k = 0; k < size; k++) {
      Held h = at(k);
      if (!h.done && h.deferred && h.visiblePs == UNSETTLED && h.pa == pa && h.length == length) {
        settle(h, k, visiblePs);
        trim();
        return;
      }
    }
  }

  private void settle(Held h, int k, long visiblePs) {
    unsettled--;
    if (visiblePs <= clock.now()) {
      land(h, k);
    } else {
      h.visiblePs = visiblePs;
      clock.scheduleAt(visiblePs, land, h, 0);
    }
  }

  private void hold(long pa, byte[] src, int srcOffset, int n) {
    Held h = pooled > 0 ? pool[--pooled] : new Held();
    h.pa = pa;
    h.length = n;
    h.visiblePs = UNSETTLED;
    h.done = false;
    h.deferred = false;
    System.arraycopy(src, srcOffset, h.data, 0, n);
    if (size == ring.length) {
      Held[] n2 = new Held[ring.length * 2];
      for (int k = 0; k < size; k++) {
        n2[k] = at(k);
      }
      ring = n2;
      head = 0;
    }
    ring[(head + size) & (ring.length - 1)] = h;
    size++;
    unsettled++;
  }

  /** The event at a held write's visible time. */
  private void land(Held h) {
    for (int k = 0; k < size; k++) {
      if (at(k) == h) {
        land(h, k);
        trim();
        return;
      }
    }
    throw new IllegalStateException("a held write of " + h.length + " bytes at " + h.pa + " is not held");
  }

  /**
   * Writes held write {@code h}, at place {@code k} in the ring, to memory, but for the bytes a newer write that has
   * landed already owns (one settled before it with an earlier visible time): memory keeps those, with whatever the
   * host's CPU stored there since.
   */
  private void land(Held h, int k) {
    long end = h.pa + h.length;
    if (!newerLandedOverlaps(k, h.pa, end)) {
      memory.write(h.pa, h.data, 0, h.length);
    } else {
      long b = h.pa;
      while (b < end) {
        while (b < end && newerLandedCovers(k, b)) {
          b++;
        }
        long run = b;
        while (b < end && !newerLandedCovers(k, b)) {
          b++;
        }
        if (b > run) {
          memory.write(run, h.data, (int) (run - h.pa), (int) (b - run));
        }
      }
    }
    h.done = true;
    landedInRing++;
  }

  /** @return whether a write after place {@code k} in the ring has landed over part of {@code [from, to)} */
  private boolean newerLandedOverlaps(int k, long from, long to) {
    if (landedInRing == 0) {
      return false;
    }
    for (int j = k + 1; j < size; j++) {
      Held n = at(j);
      if (n.done && n.pa < to && n.pa + n.length > from) {
        return true;
      }
    }
    return false;
  }

  /** @return whether a write after place {@code k} in the ring has landed over byte {@code b} */
  private boolean newerLandedCovers(int k, long b) {
    return newerLandedOverlaps(k, b, b + 1);
  }

  /** Returns landed writes at the front to the pool. */
  private void trim() {
    while (size > 0 && ring[head].done) {
      Held h = ring[head];
      ring[head] = null;
      head = (head + 1) & (ring.length - 1);
      size--;
      landedInRing--;
      if (pooled == pool.length) {
        pool = Arrays.copyOf(pool, pooled * 2);
      }
      pool[pooled++] = h;
    }
  }

  private Held at(int k) {
    return ring[(head + k) & (ring.length - 1)];
  }
}
