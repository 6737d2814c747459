package io.github.ariesmodel.core.cache;

import io.github.ariesmodel.core.spi.HostCache;
import io.github.ariesmodel.core.spi.HostCacheStatistic;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.NicWritePolicy;
import java.util.Arrays;

/**
 * A node's last-level cache: set-associative, write-back and write-allocate for the CPU, LRU replacement, holding its
 * own copy of each line's data (so a dirty line really differs from memory until it is written back), and a {@link
 * NicWritePolicy} for the NIC's writes. Geometry, latencies and their sources: {@link HostCacheConfig}.
 *
 * <p>Fidelity: one level (the shared L3 of the NIC's socket), one latency for a hit and one for a miss, no
 * bandwidth, no prefetching, no cache of the other socket. A NIC access allocates no line but under {@link
 * NicWritePolicy#ALLOCATE} (a write, in one of at most {@link #IO_WAYS} ways of its set); otherwise remote data enters
 * the cache only when the CPU reads what the NIC wrote. A NIC update of a cached line does not change its LRU position
 * (assumed); a line a NIC write allocates becomes its set's most recently used (assumed).
 *
 * <p>Sparse: sets are materialized on the first CPU access that maps to them (a NIC access to an untouched set
 * materializes nothing, but an allocating write), so a cache never used costs about 300 bytes (its counters and two
 * empty 8-slot set maps; measured on 200,000 untouched {@code xc40()} caches); a system builds a node's cache only
 * when the node is first used. A set that {@link #discard} empties (its memory was given back) is dropped again, and
 * its next use materializes it anew, which behaves exactly as the emptied set would have: before, a closed job's
 * emptied sets stayed (731 sets, 202 KB a node after a closed 16-rank MPI ring of 16 KiB messages on {@code full}).
 *
 * <p>Replacement is a small LRU of its own (a use stamp per way) rather than aries-iommu's replacement-policy SPI:
 * that SPI lives in aries-iommu, and aries-core, where this port and adapter belong, depends on no domain module.
 *
 * <p>Not thread-safe: a node's cache is used by the one thread that simulates the node.
 */
public final class SetAssociativeHostCache implements HostCache {

  private static final long INVALID = -1L;

  private final HostMemory memory;
  private final HostCacheConfig config;
  private final int lineBytes;
  private final int lineShift;
  private final int ways;
  private final int sets;
  private final long hitPs;
  private final long memoryPs;
  private final NicWritePolicy policy;
  private final long[] counts = new long[HostCacheStatistic.values().length];

  /** Open-addressing map from set index + 1 (0 = empty slot) to its set. */
  private int[] keys = new int[8];
  private CacheSet[] values = new CacheSet[8];
  private int setCount;
  private long clock;
  private long resident;

  /**
   * The ways of one set: which line each holds (or {@link #INVALID}), its last use, its state and data. Ways are
   * allocated as the set fills, doubling up to the associativity: a way beyond the arrays is empty, and the first
   * empty way is the one a fill takes, so a set behaves exactly as one allocated whole. A node that touches a line or
   * two in most of its sets (an MPI rank's buffers) costs a few hundred bytes a set, not ways × (line + 17).
   */
  private static final class CacheSet {
    long[] line;
    long[] stamp;
    boolean[] dirty;
    byte[] data;

    CacheSet(int initialWays, int lineBytes) {
      line = new long[initialWays];
      Arrays.fill(line, INVALID);
      stamp = new long[initialWays];
      dirty = new boolean[initialWays];
      data = new byte[initialWays * lineBytes];
    }

    /** Adds empty ways, up to {@code ways} in all. */
    void grow(int ways, int lineBytes) {
      int old = line.length;
      int cap = Math.min(ways, old * 2);
      line = Arrays.copyOf(line, cap);
      Arrays.fill(line, old, cap, INVALID);
      stamp = Arrays.copyOf(stamp, cap);
      dirty = Arrays.copyOf(dirty, cap);
      data = Arrays.copyOf(data, cap * lineBytes);
    }
  }

  /** Ways a set is given when first used. */
  private static final int INITIAL_WAYS = 2;

  /**
   * Ways of a set that a NIC write may allocate into under {@link NicWritePolicy#ALLOCATE}: ways 0 and 1 (the CPU's
   * fills use every way). Two is Data Direct I/O's default as Farshin et al. measured it on Skylake-SP Xeons (2 of
   * 11 L3 ways; "Reexamining Direct Cache Access ...", USENIX ATC 2020); assumed for the XC generation's Xeons (2 of
   * 20 ways, 10 % of the L3).
   */
  static final int IO_WAYS = 2;

  /**
   * A cache in front of a node's memory.
   *
   * @param memory the node's memory, whose capacity is a whole number of lines
   * @param config geometry, latencies and NIC write policy
   * @throws IllegalArgumentException when either is null or the memory ends inside a line
   */
  public SetAssociativeHostCache(HostMemory memory, HostCacheConfig config) {
    if (memory == null || config == null) {
      throw new IllegalArgumentException("memory and config must not be null but were " + memory + ", " + config);
    }
    // A line is filled and written back whole, so a memory that ends inside a line would fail a valid access to
    // its last bytes with the memory's own error about bytes past its end.
    if (memory.capacity() % config.lineBytes() != 0) {
      throw new IllegalArgumentException("memory.capacity() must be a multiple of lineBytes (" + config.lineBytes()
          + ") but was " + memory.capacity());
    }
    this.memory = memory;
    this.config = config;
    this.lineBytes = config.lineBytes();
    this.lineShift = Integer.numberOfTrailingZeros(lineBytes);
    this.ways = config.ways();
    this.sets = config.sets();
    this.hitPs = config.hitLatencyPs();
    this.memoryPs = config.memoryLatencyPs();
    this.policy = config.nicWritePolicy();
  }

  /** @return the configuration */
  public HostCacheConfig config() {
    return config;
  }

  @Override
  public HostMemory memory() {
    return memory;
  }

  /** @return lines currently held */
  public long residentLines() {
    return resident;
  }

  /**
   * @return sets materialized now (each costs up to ways × (line + 17) bytes, as its ways fill): those used and not
   *     emptied since by {@link #discard}
   */
  public int materializedSets() {
    return setCount;
  }

  /** @return ways allocated in all materialized sets, each costing line + 17 bytes (a set's ways come as it fills) */
  public long allocatedWays() {
    long n = 0;
    for (CacheSet set : values) {
      if (set != null) {
        n += set.line.length;
      }
    }
    return n;
  }

  /**
   * Whether the line holding an address is cached.
   *
   * @param address physical address
   * @return whether a CPU load of it would hit
   */
  public boolean holds(long address) {
    checkRange(address, 1);
    long lineNo = address >>> lineShift;
    CacheSet s = find(setIndex(lineNo));
    return s != null && way(s, lineNo) >= 0;
  }

  /**
   * Whether the line holding an address is cached and differs from memory.
   *
   * @param address physical address
   * @return whether the line is dirty
   */
  public boolean holdsDirty(long address) {
    checkRange(address, 1);
    long lineNo = address >>> lineShift;
    CacheSet s = find(setIndex(lineNo));
    int w = s == null ? -1 : way(s, lineNo);
    return w >= 0 && s.dirty[w];
  }

  /**
   * {@inheritDoc}
   *
   * <p>A scan of the ways of the materialized sets (or of the range's lines, when fewer), so its cost is bounded by
   * the lines held, not by the range: a 64 GB registration given back costs what the cache holds.
   */
  @Override
  public void discard(long address, long bytes) {
    checkRange(address, bytes);
    if (bytes == 0 || resident == 0) {
      return;
    }
    long end = address + bytes;
    long firstLine = address >>> lineShift;
    long lastLine = (end - 1) >>> lineShift;
    if (lastLine - firstLine < resident) {
      for (long lineNo = firstLine; lineNo <= lastLine; lineNo++) {
        int index = setIndex(lineNo);
        CacheSet s = find(index);
        int w = s == null ? -1 : way(s, lineNo);
        if (w >= 0) {
          discard(s, w, address, end);
          if (empty(s)) {
            remove(index);
          }
        }
      }
      return;
    }
    boolean emptied = false;
    for (CacheSet s : values) {
      if (s == null) {
        continue;
      }
      boolean dropped = false;
      for (int w = 0; w < s.line.length; w++) {
        long lineNo = s.line[w];
        if (lineNo != INVALID && lineNo >= firstLine && lineNo <= lastLine) {
          discard(s, w, address, end);
          dropped = true;
        }
      }
      emptied |= dropped && empty(s);
    }
    if (emptied) {
      dropEmptySets();
    }
  }

  /** Whether a set holds no line (one that {@link #discard} emptied behaves as a set never used). */
  private static boolean empty(CacheSet s) {
    for (long lineNo : s.line) {
      if (lineNo != INVALID) {
        return false;
      }
    }
    return true;
  }

  /**
   * Removes a materialized set from the map, shifting back the entries its slot's probe sequence passed (the table is
   * never full, so the probe ends at an empty slot).
   */
  private void remove(int setIndex) {
    int key = setIndex + 1;
    int mask = keys.length - 1;
    int i = slot(key, mask);
    while (keys[i] != key) {
      if (keys[i] == 0) {
        return;
      }
      i = (i + 1) & mask;
    }
    int j = i;
    while (true) {
      j = (j + 1) & mask;
      int k = keys[j];
      if (k == 0) {
        break;
      }
      int home = slot(k, mask);
      // the entry at j stays if its home lies cyclically in (i, j]; otherwise it moves into the hole at i
      boolean stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (!stays) {
        keys[i] = k;
        values[i] = values[j];
        i = j;
      }
    }
    keys[i] = 0;
    values[i] = null;
    setCount--;
  }

  /**
   * Rebuilds the map without the sets that hold no line, in the smallest table that holds the rest (the scan of
   * {@link #discard} has read the whole table already).
   */
  private void dropEmptySets() {
    int[] oldKeys = keys;
    CacheSet[] oldValues = values;
    int kept = 0;
    for (CacheSet s : oldValues) {
      if (s != null && !empty(s)) {
        kept++;
      }
    }
    int capacity = 8;
    while (kept * 4L > capacity * 3L) {
      capacity *= 2;
    }
    keys = new int[capacity];
    values = new CacheSet[capacity];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != 0 && !empty(oldValues[i])) {
        insert(oldKeys[i], oldValues[i]);
      }
    }
    setCount = kept;
  }

  @Override
  public boolean discards() {
    return true;
  }

  /**
   * Drops a way's line for {@link #discard}: of a dirty line partly outside [from, to), the bytes outside are written
   * back (the memory gave the range back and zeroed it: the bytes inside stay zero).
   */
  private void discard(CacheSet s, int w, long from, long to) {
    long lineStart = s.line[w] << lineShift;
    long lineEnd = lineStart + lineBytes;
    if (s.dirty[w] && (lineStart < from || lineEnd > to)) {
      if (lineStart < from) {
        memory.write(lineStart, s.data, w * lineBytes, (int) (from - lineStart));
      }
      if (lineEnd > to) {
        memory.write(to, s.data, w * lineBytes + (int) (to - lineStart), (int) (lineEnd - to));
      }
      counts[HostCacheStatistic.WRITEBACK.ordinal()]++;
    }
    s.dirty[w] = false;
    s.line[w] = INVALID;
    resident--;
  }

  @Override
  public long count(HostCacheStatistic statistic) {
    if (statistic == null) {
      throw new IllegalArgumentException("statistic must not be null");
    }
    return counts[statistic.ordinal()];
  }

  @Override
  public long cpuLoad(long address, byte[] dst, int dstOffset, int length) {
    checkRange(address, length);
    checkArray("dst", dst, dstOffset, length);
    return cpuAccess(address, dst, dstOffset, length, false);
  }

  @Override
  public long cpuStore(long address, byte[] src, int srcOffset, int length) {
    checkRange(address, length);
    checkArray("src", src, srcOffset, length);
    return cpuAccess(address, src, srcOffset, length, true);
  }

  /** A CPU load or store, line by line: hit or fill, LRU stamp, copy; returns the slowest line's latency. */
  private long cpuAccess(long address, byte[] buf, int offset, int length, boolean store) {
    HostCacheStatistic hit = store ? HostCacheStatistic.CPU_STORE_HIT : HostCacheStatistic.CPU_LOAD_HIT;
    HostCacheStatistic miss = store ? HostCacheStatistic.CPU_STORE_MISS : HostCacheStatistic.CPU_LOAD_MISS;
    long latency = 0;
    while (length > 0) {
      int inLine = (int) (address & (lineBytes - 1));
      int n = Math.min(length, lineBytes - inLine);
      long lineNo = address >>> lineShift;
      CacheSet s = materialize(setIndex(lineNo));
      int w = way(s, lineNo);
      if (w >= 0) {
        counts[hit.ordinal()]++;
        latency = Math.max(latency, hitPs);
      } else {
        w = fill(s, lineNo);
        counts[miss.ordinal()]++;
        latency = Math.max(latency, memoryPs);
      }
      s.stamp[w] = ++clock;
      if (store) {
        s.dirty[w] = true;
        System.arraycopy(buf, offset, s.data, w * lineBytes + inLine, n);
      } else {
        System.arraycopy(s.data, w * lineBytes + inLine, buf, offset, n);
      }
      address += n;
      offset += n;
      length -= n;
    }
    return latency;
  }

  @Override
  public long nicWrite(long address, byte[] src, int srcOffset, int length) {
    checkRange(address, length);
    checkArray("src", src, srcOffset, length);
    long latency = 0;
    while (length > 0) {
      int inLine = (int) (address & (lineBytes - 1));
      int n = Math.min(length, lineBytes - inLine);
      long lineNo = address >>> lineShift;
      CacheSet s = find(setIndex(lineNo));
      int w = s == null ? -1 : way(s, lineNo);
      switch (policy) {
        case UPDATE -> {
          if (w >= 0) {
            System.arraycopy(src, srcOffset, s.data, w * lineBytes + inLine, n);
            s.dirty[w] = true;
            counts[HostCacheStatistic.NIC_WRITE_UPDATED.ordinal()]++;
            latency = Math.max(latency, hitPs);
          } else {
            memory.write(address, src, srcOffset, n);
            counts[HostCacheStatistic.NIC_WRITE_MISS.ordinal()]++;
            latency = Math.max(latency, memoryPs);
          }
        }
        case INVALIDATE -> {
          if (w >= 0) {
            drop(s, w);
            counts[HostCacheStatistic.NIC_WRITE_INVALIDATED.ordinal()]++;
          } else {
            counts[HostCacheStatistic.NIC_WRITE_MISS.ordinal()]++;
          }
          memory.write(address, src, srcOffset, n);
          latency = Math.max(latency, memoryPs);
        }
        case BYPASS -> {
          if (w >= 0) {
            drop(s, w);
            counts[HostCacheStatistic.BACK_INVALIDATION.ordinal()]++;
          }
          counts[HostCacheStatistic.NIC_WRITE_BYPASSED.ordinal()]++;
          memory.write(address, src, srcOffset, n);
          latency = Math.max(latency, memoryPs);
        }
        case ALLOCATE -> {
          boolean allocated = w < 0;
          if (allocated) {
            s = materialize(setIndex(lineNo));
            w = fillIo(s, lineNo);
            s.stamp[w] = ++clock;
            counts[HostCacheStatistic.NIC_WRITE_ALLOCATED.ordinal()]++;
          } else {
            counts[HostCacheStatistic.NIC_WRITE_UPDATED.ordinal()]++;
          }
          System.arraycopy(src, srcOffset, s.data, w * lineBytes + inLine, n);
          s.dirty[w] = true;
          // an allocated line written in part needed the rest of it from memory first (assumed: a read for
          // ownership); a whole line, or a cached one, costs a hit
          latency = Math.max(latency, allocated && n < lineBytes ? memoryPs : hitPs);
        }
        default -> throw new AssertionError(policy);
      }
      address += n;
      srcOffset += n;
      length -= n;
    }
    return latency;
  }

  @Override
  public long nicRead(long address, byte[] dst, int dstOffset, int length) {
    checkRange(address, length);
    checkArray("dst", dst, dstOffset, length);
    long latency = 0;
    while (length > 0) {
      int inLine = (int) (address & (lineBytes - 1));
      int n = Math.min(length, lineBytes - inLine);
      long lineNo = address >>> lineShift;
      CacheSet s = find(setIndex(lineNo));
      int w = s == null ? -1 : way(s, lineNo);
      if (w >= 0 && policy != NicWritePolicy.BYPASS) {
        System.arraycopy(s.data, w * lineBytes + inLine, dst, dstOffset, n);
        counts[HostCacheStatistic.NIC_READ_CACHE.ordinal()]++;
        latency = Math.max(latency, hitPs);
      } else {
        if (w >= 0 && s.dirty[w]) {
          writeBack(s, w);
        }
        memory.read(address, dst, dstOffset, n);
        counts[HostCacheStatistic.NIC_READ_MEMORY.ordinal()]++;
        latency = Math.max(latency, memoryPs);
      }
      address += n;
      dstOffset += n;
      length -= n;
    }
    return latency;
  }

  @Override
  public String toString() {
    return "SetAssociativeHostCache[" + config + "]";
  }

  private int setIndex(long lineNo) {
    return (int) (lineNo % sets);
  }

  private int way(CacheSet s, long lineNo) {
    long[] line = s.line;
    for (int w = 0; w < line.length; w++) {
      if (line[w] == lineNo) {
        return w;
      }
    }
    return -1;
  }

  /** Brings a line into a set: its first empty way, else the least recently used line's. */
  private int fill(CacheSet s, long lineNo) {
    int victim = -1;
    long oldest = Long.MAX_VALUE;
    boolean empty = false;
    int allocated = s.line.length;
    for (int w = 0; w < allocated; w++) {
      if (s.line[w] == INVALID) {
        victim = w;
        empty = true;
        break;
      }
      if (s.stamp[w] < oldest) {
        oldest = s.stamp[w];
        victim = w;
      }
    }
    if (!empty && allocated < ways) {
      victim = allocated; // the first way not yet allocated is empty
      s.grow(ways, lineBytes);
    }
    return install(s, victim, lineNo);
  }

  /**
   * Brings a line into one of a set's first {@link #IO_WAYS} ways for a NIC write: the first of them that is empty,
   * else the least recently used of them.
   */
  private int fillIo(CacheSet s, long lineNo) {
    int io = Math.min(IO_WAYS, ways);
    while (s.line.length < io) {
      s.grow(ways, lineBytes);
    }
    int victim = -1;
    long oldest = Long.MAX_VALUE;
    for (int w = 0; w < io; w++) {
      if (s.line[w] == INVALID) {
        victim = w;
        break;
      }
      if (s.stamp[w] < oldest) {
        oldest = s.stamp[w];
        victim = w;
      }
    }
    return install(s, victim, lineNo);
  }

  /** Evicts a way's line (if any) and brings a line from memory into it, clean. */
  private int install(CacheSet s, int victim, long lineNo) {
    if (s.line[victim] != INVALID) {
      counts[HostCacheStatistic.EVICTION.ordinal()]++;
      drop(s, victim);
    }
    memory.read(lineNo << lineShift, s.data, victim * lineBytes, lineBytes);
    s.line[victim] = lineNo;
    s.dirty[victim] = false;
    resident++;
    return victim;
  }

  private void drop(CacheSet s, int w) {
    if (s.dirty[w]) {
      writeBack(s, w);
    }
    s.line[w] = INVALID;
    resident--;
  }

  private void writeBack(CacheSet s, int w) {
    memory.write(s.line[w] << lineShift, s.data, w * lineBytes, lineBytes);
    s.dirty[w] = false;
    counts[HostCacheStatistic.WRITEBACK.ordinal()]++;
  }

  private static int slot(int key, int mask) {
    return (key * 0x9E3779B9 >>> 8) & mask;
  }

  private CacheSet find(int setIndex) {
    int key = setIndex + 1;
    int mask = keys.length - 1;
    for (int i = slot(key, mask); ; i = (i + 1) & mask) {
      int k = keys[i];
      if (k == key) {
        return values[i];
      }
      if (k == 0) {
        return null;
      }
    }
  }

  private CacheSet materialize(int setIndex) {
    CacheSet s = find(setIndex);
    if (s != null) {
      return s;
    }
    if ((setCount + 1) * 4L > keys.length * 3L) {
      rehash();
    }
    s = new CacheSet(Math.min(ways, INITIAL_WAYS), lineBytes);
    insert(setIndex + 1, s);
    setCount++;
    return s;
  }

  private void insert(int key, CacheSet s) {
    int mask = keys.length - 1;
    int i = slot(key, mask);
    while (keys[i] != 0) {
      i = (i + 1) & mask;
    }
    keys[i] = key;
    values[i] = s;
  }

  private void rehash() {
    int[] oldKeys = keys;
    CacheSet[] oldValues = values;
    keys = new int[oldKeys.length * 2];
    values = new CacheSet[oldKeys.length * 2];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != 0) {
        insert(oldKeys[i], oldValues[i]);
      }
    }
  }

  private void checkRange(long address, long length) {
    long capacity = memory.capacity();
    if (length < 0 || address < 0 || address > capacity - length) {
      throw new IllegalArgumentException("physical range [0x" + Long.toHexString(address) + ", +" + length
          + ") must lie within [0, 0x" + Long.toHexString(capacity) + ")");
    }
  }

  private static void checkArray(String name, byte[] array, int offset, int length) {
    if (array == null || offset < 0 || offset > array.length - length) {
      if (array == null) {
        throw new IllegalArgumentException(name + " must not be null");
      }
      throw new IllegalArgumentException(name + "Offset + length must be within " + name + " (" + array.length
          + " bytes) but were " + offset + " + " + length);
    }
  }
}
