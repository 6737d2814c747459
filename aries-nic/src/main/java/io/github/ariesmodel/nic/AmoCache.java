package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.Scheduler;

/**
 * The datastore of the AMO unit that the cached AMO commands ({@code _C}, {@code _SC}) use: a small cache of 8-byte
 * words of host memory inside the NIC (aries-facts §3.3; docs/memory-hierarchy.md, "AMO cache").
 *
 * <p>What it models, and with which numbers ({@link AmoCacheConfig}): {@code entries} words (64, the 6-bit datastore
 * address [S6d]), fully associative, least-recently-used replacement among idle entries (assumed). A cached AMO that
 * misses allocates an entry and fills it from host memory (the caller charges the host read); one that hits works on
 * the entry. A dirty entry reaches host memory as {@link AmoWriteBack} says. The entry holds its own copy of the word,
 * so a dirty entry really differs from memory until it is written back: host loads in between see the old value.
 *
 * <p>Coherence inside the NIC (assumed; the hardware's is unpublished): every other access this NIC makes to host
 * memory goes through {@link #nicView()}, which writes a dirty entry back before any access overlapping its word and
 * refreshes a cached word from memory after a write overlapping it. So uncached AMOs, PUTs landing, GETs served, GET
 * data landing and CQ entries all see, and keep, the value the cached AMOs left. Host CPU stores are not seen: a word
 * the CPU stores to while the cache holds it stays stale in the cache until it is evicted or {@link #invalidateAll()
 * invalidated} (uGNI's cached commands are for words only AMOs touch; the hardware has an invalidate bit for stale
 * entries [S6d]).
 *
 * <p>The {@link AmoUnit} owns the timing of AMOs and fills; the cache books its own write-backs on the host link (since
 * stop 68). Entries carry the time their value is next available
 * ({@link #readyAt}) and the AMOs in flight on them ({@link #busy}) for it. The entries are allocated by the first
 * cached AMO; allocation-free after that.
 */
final class AmoCache {
  private final HostMemory memory;
  private final AmoWriteBack writeBack;
  private final NicStatistics stats;
  private final Scheduler clock;
  private final HostLink host;
  private final HostWriteProbes writes;
  private final int entries;
  // The entries, allocated by the first cached AMO (most NICs of a large system never see one).
  private long[] word = new long[0];
  private long[] value;
  private boolean[] valid;
  /**
   * Per entry, the halves of its word that AMOs changed since it was filled or written back: bit 0 the low 4 bytes,
   * bit 1 the high 4. A write-back writes only those (a 64-bit AMO changes both), so a 32-bit cached AMO never writes
   * back the other half of its word, which may be a variable of the host's own (assumed: the hardware's write-back
   * granule is unpublished; this touches only the bytes the AMOs wrote).
   */
  private byte[] dirty;
  private static final byte LOW = 1;
  private static final byte HIGH = 2;
  private static final byte BOTH = LOW | HIGH;
  private boolean[] dropWhenIdle;
  private int[] busy;
  private long[] readyAt;
  private long[] lastUse;
  private final HostMemory nicView = new NicView();
  private int validCount;
  private long useClock;

  /**
   * An empty cache.
   *
   * @param config its size and write-back policy (enabled)
   * @param memory host memory as the NIC sees it (the node's host-cache NIC path)
   * @param stats the NIC's counters
   * @param clock the NIC's clock
   * @param host the host link a write-back crosses (a posted write, visible when it has crossed)
   * @param writes the observers of the NIC's host writes
   */
  AmoCache(AmoCacheConfig config, HostMemory memory, NicStatistics stats, Scheduler clock, HostLink host,
      HostWriteProbes writes) {
    this.clock = clock;
    this.host = host;
    this.writes = writes;
    this.entries = config.entries();
    this.memory = memory;
    this.writeBack = config.writeBack();
    this.stats = stats;
  }

  private void allocateEntries() {
    word = new long[entries];
    value = new long[entries];
    valid = new boolean[entries];
    dirty = new byte[entries];
    dropWhenIdle = new boolean[entries];
    busy = new int[entries];
    readyAt = new long[entries];
    lastUse = new long[entries];
  }

  /** @return the aligned 8-byte word an access at {@code pa} belongs to */
  static long wordOf(long pa) {
    return pa & ~7L;
  }

  /**
   * The entry holding a word.
   *
   * @param w an 8-byte aligned physical address
   * @return its entry, or -1 when the word is not cached
   */
  int lookup(long w) {
    if (validCount == 0) {
      return -1;
    }
    for (int i = 0; i < word.length; i++) {
      if (valid[i] && word[i] == w) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Allocates an entry for a word that missed and fills it from memory: an invalid entry if there is one, else the
   * least recently used idle entry (written back first if dirty).
   *
   * @param w an 8-byte aligned physical address not in the cache
   * @return the entry, or -1 when every entry has AMOs in flight; its value is available once {@link #filled} says
   */
  int allocate(long w) {
    if (word.length == 0) {
      allocateEntries();
    }
    int victim = -1;
    for (int i = 0; i < word.length; i++) {
      if (!valid[i]) {
        victim = i;
        break;
      }
      if (busy[i] == 0 && (victim < 0 || lastUse[i] < lastUse[victim])) {
        victim = i;
      }
    }
    if (victim < 0) {
      return -1;
    }
    if (valid[victim]) {
      stats.amoCacheEvictions++;
      if (dirty[victim] != 0) {
        writeBack(victim);
      }
    } else {
      validCount++;
    }
    word[victim] = w;
    value[victim] = memory.readLong(w);
    valid[victim] = true;
    dirty[victim] = 0;
    dropWhenIdle[victim] = false;
    readyAt[victim] = Long.MAX_VALUE;
    return victim;
  }

  /** @param i an entry just allocated @param at when its fill's data is back in the NIC */
  void filled(int i, long at) {
    readyAt[i] = at;
  }

  /**
   * The operand an AMO at {@code pa} sees in entry {@code i}.
   *
   * @param i the entry
   * @param pa the AMO's address (the word, or its upper half for a 32-bit AMO at word + 4)
   * @param widthBits 64 or 32
   * @return the 64-bit word, or the 32-bit half zero-extended
   */
  long operand(int i, long pa, int widthBits) {
    if (widthBits == 64) {
      return value[i];
    }
    int shift = (int) (pa - word[i]) * 8;
    return (value[i] >>> shift) & 0xFFFF_FFFFL;
  }

  /**
   * Stores an AMO's result in entry {@code i}, which becomes dirty.
   *
   * @param i the entry
   * @param pa the AMO's address
   * @param widthBits 64 or 32
   * @param updated the new word, or the new 32-bit half in the low bits
   */
  void store(int i, long pa, int widthBits, long updated) {
    if (widthBits == 64) {
      value[i] = updated;
      dirty[i] = BOTH;
    } else {
      int shift = (int) (pa - word[i]) * 8;
      long mask = 0xFFFF_FFFFL << shift;
      value[i] = (value[i] & ~mask) | ((updated & 0xFFFF_FFFFL) << shift);
      dirty[i] |= shift == 0 ? LOW : HIGH;
    }
    lastUse[i] = ++useClock;
  }

  /** @return when entry {@code i}'s value is next available to an AMO */
  long readyAt(int i) {
    return readyAt[i];
  }

  /**
   * An AMO on entry {@code i} is in flight (until its answer, which ends it, {@link #end}); the next AMO on the word
   * may start at {@code nextAt}, when the unit has its result for the next operation.
   *
   * @param i the entry
   * @param nextAt when the next AMO on the word may start
   */
  void begin(int i, long nextAt) {
    busy[i]++;
    readyAt[i] = nextAt;
  }

  /**
   * An AMO on entry {@code i} has answered. When it was the last in flight the entry goes idle: it is written back
   * under {@link AmoWriteBack#IDLE}, and dropped when an invalidation is waiting for it.
   *
   * @param i the entry
   */
  void end(int i) {
    busy[i]--;
    if (busy[i] > 0) {
      return;
    }
    if (dirty[i] != 0 && (writeBack == AmoWriteBack.IDLE || dropWhenIdle[i])) {
      writeBack(i);
    }
    if (dropWhenIdle[i]) {
      drop(i);
    }
  }

  /** @return entries the cache has */
  int capacity() {
    return entries;
  }

  /** @return when a dirty word is written back */
  AmoWriteBack writeBackPolicy() {
    return writeBack;
  }

  /** @return AMOs in flight on entry {@code i} */
  int busy(int i) {
    return busy[i];
  }

  /** @return whether entry {@code i} holds a value newer than memory */
  boolean dirty(int i) {
    return dirty[i] != 0;
  }

  /** @return entries holding a word */
  int validCount() {
    return validCount;
  }

  /**
   * Invalidates the cache (the AMO block's {@code cache_inv} setting [S6d]): dirty entries are written back, idle
   * entries dropped at once, entries with AMOs in flight when they go idle.
   */
  void invalidateAll() {
    for (int i = 0; i < word.length; i++) {
      if (!valid[i]) {
        continue;
      }
      if (dirty[i] != 0) {
        writeBack(i);
      }
      if (busy[i] == 0) {
        drop(i);
      } else {
        dropWhenIdle[i] = true;
      }
    }
  }

  /**
   * Host memory as the rest of this NIC sees it: coherent with the cache (class javadoc).
   *
   * @return the view
   */
  HostMemory nicView() {
    return nicView;
  }

  /** Writes entry {@code i}'s changed halves to memory (both: one 8-byte write). */
  private void writeBack(int i) {
    byte d = dirty[i];
    long now = clock.now();
    if (d == BOTH) {
      memory.writeLong(word[i], value[i]);
      writes.wrote(host.write(now, 8), word[i], 8);
    } else if (d == LOW) {
      memory.writeInt(word[i], (int) value[i]);
      writes.wrote(host.write(now, 4), word[i], 4);
    } else {
      memory.writeInt(word[i] + 4, (int) (value[i] >>> 32));
      writes.wrote(host.write(now, 4), word[i] + 4, 4);
    }
    dirty[i] = 0;
    stats.amoCacheWriteBacks++;
  }

  private void drop(int i) {
    valid[i] = false;
    dirty[i] = 0;
    dropWhenIdle[i] = false;
    validCount--;
  }

  /** Writes back every dirty entry whose word overlaps {@code [pa, pa + length)}. */
  private void beforeAccess(long pa, int length) {
    for (int i = 0; i < word.length; i++) {
      if (valid[i] && dirty[i] != 0 && overlaps(i, pa, length)) {
        writeBack(i);
      }
    }
  }

  /** Reloads every cached word overlapping {@code [pa, pa + length)} after a write there. */
  private void afterWrite(long pa, int length) {
    for (int i = 0; i < word.length; i++) {
      if (valid[i] && overlaps(i, pa, length)) {
        value[i] = memory.readLong(word[i]);
      }
    }
  }

  private boolean overlaps(int i, long pa, int length) {
    return word[i] < pa + length && word[i] + 8 > pa;
  }

  /** The NIC's other accesses to host memory, kept coherent with the cache. */
  private final class NicView implements HostMemory {
    @Override
    public long capacity() {
      return memory.capacity();
    }

    @Override
    public HostMemory physicalMemory() {
      return memory.physicalMemory();
    }

    @Override
    public void read(long address, byte[] dst, int dstOffset, int length) {
      if (validCount > 0) {
        beforeAccess(address, length);
      }
      memory.read(address, dst, dstOffset, length);
    }

    @Override
    public void write(long address, byte[] src, int srcOffset, int length) {
      if (validCount > 0) {
        beforeAccess(address, length);
      }
      memory.write(address, src, srcOffset, length);
      if (validCount > 0) {
        afterWrite(address, length);
      }
    }

    @Override
    public long readLong(long address) {
      if (validCount > 0) {
        beforeAccess(address, 8);
      }
      return memory.readLong(address);
    }

    @Override
    public void writeLong(long address, long v) {
      if (validCount > 0) {
        beforeAccess(address, 8);
      }
      memory.writeLong(address, v);
      if (validCount > 0) {
        afterWrite(address, 8);
      }
    }

    @Override
    public int readInt(long address) {
      if (validCount > 0) {
        beforeAccess(address, 4);
      }
      return memory.readInt(address);
    }

    @Override
    public void writeInt(long address, int v) {
      if (validCount > 0) {
        beforeAccess(address, 4);
      }
      memory.writeInt(address, v);
      if (validCount > 0) {
        afterWrite(address, 4);
      }
    }

    @Override
    public long allocate(long bytes, long alignment) {
      return memory.allocate(bytes, alignment);
    }

    /**
     * Keeps the memory (false, nothing changed) while a cached AMO is in flight on a word of the range, or a dirty
     * word lies across its edge; otherwise the memory below gives it back and the entries of its words are dropped
     * unwritten (their values belong to nobody).
     */
    @Override
    public boolean free(long address, long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("bytes must be > 0 but was " + bytes);
      }
      for (int i = 0; i < word.length; i++) {
        if (valid[i] && word[i] < address + bytes && word[i] + 8 > address
            && (busy[i] > 0 || (dirty[i] != 0 && (word[i] < address || word[i] + 8 > address + bytes)))) {
          return false; // (a dirty word the range covers in part has a value outside it too)
        }
      }
      if (!memory.free(address, bytes)) {
        return false;
      }
      for (int i = 0; i < word.length; i++) {
        if (valid[i] && word[i] < address + bytes && word[i] + 8 > address) {
          drop(i);
        }
      }
      return true;
    }

    @Override
    public long allocatedBytes() {
      return memory.allocatedBytes();
    }
  }
}
