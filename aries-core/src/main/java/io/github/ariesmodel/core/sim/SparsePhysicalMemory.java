package io.github.ariesmodel.core.sim;

import io.github.ariesmodel.core.LittleEndian;
import io.github.ariesmodel.core.PhysicalAddress;
import io.github.ariesmodel.core.spi.HostMemory;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * A node's physical memory that holds only the 4 KB pages that were written: an open-addressing hash map from page
 * number to a 4 KB array. Untouched memory reads as zero and costs nothing, so a 92,544-node system costs a few dozen
 * bytes per node until traffic writes into it.
 *
 * <p>Physical memory is reserved ({@link #allocate}) from {@value #FIRST_ALLOCATABLE} up, so that physical address 0
 * is never handed out, and given back by {@link #free}. While nothing was given back an allocation starts where the
 * last one ended (aligned up): a bump allocator, whose layout the MPI and SHMEM builds predict to refuse a job that
 * cannot fit before building any of it. Bytes given back are kept as free ranges, merged with their neighbours and
 * with the unreserved memory above the highest reservation; an allocation takes the lowest free range that holds it
 * aligned (first fit), else the memory above. The bytes an alignment skipped stay reserved until the allocation
 * below or above them is given back, and go with it. A memory into which nothing was ever given back lays out every
 * allocation as a bump allocator does, and one into which everything was given back is as it was new. Words are
 * little-endian (x86-64 hosts).
 */
public final class SparsePhysicalMemory implements HostMemory {

  /** Bytes per materialized page. */
  public static final int PAGE_BYTES = 4096;
  /** First address {@link #allocate} hands out. */
  public static final long FIRST_ALLOCATABLE = PAGE_BYTES;

  /**
   * Java heap one materialized page costs at least, 4,112 bytes: its {@code byte[4096]}, the 4,096 bytes and a
   * 16-byte array header (12 bytes of mark word, compressed class pointer and length; 20 without compressed class
   * pointers, 12 with compact object headers, rounded up to 8 bytes: 4,112 or more in every case). Its slot in the
   * page table, an 8-byte key and a 4- or 8-byte reference at a load between 3/8 and 3/4, adds 16 to 43 bytes more on
   * average; it is left out so that this stays a lower bound (the table may have room for the page already).
   * Measured on JDK 17 (heap in use after collections, before and after writing 2^14 to 400,000 pages): 4,150 to
   * 4,180 bytes a page with compressed references, 4,160 to 4,200 without. Callers that refuse work the heap cannot
   * hold (the IOMMU's registration) multiply pages by this, so they never refuse what would fit.
   */
  public static final long HEAP_BYTES_PER_PAGE = PAGE_BYTES + 16;

  private static final int PAGE_SHIFT = 12;
  private static final byte[] ZERO_PAGE = new byte[PAGE_BYTES];

  private final long capacity;
  private long[] keys;
  private byte[][] pages;
  private int pageCount;
  private long nextFree = FIRST_ALLOCATABLE;
  /** Ranges given back below {@link #nextFree}: first byte to the byte after the last, none touching another. */
  private final TreeMap<Long, Long> freeRanges = new TreeMap<>();
  private long freedBytes;
  /**
   * Bytes an alignment skipped above the highest reservation, first to after last: reserved (counted in {@link
   * #allocatedBytes}) but nobody's, so given back with the allocation below or above them.
   */
  private final TreeMap<Long, Long> skipped = new TreeMap<>();

  /**
   * Memory of the given size.
   *
   * @param capacityBytes bytes, a positive multiple of 4096 up to 2^52
   */
  public SparsePhysicalMemory(long capacityBytes) {
    if (capacityBytes <= 0 || capacityBytes % PAGE_BYTES != 0 || capacityBytes > PhysicalAddress.MAX + 1) {
      throw new IllegalArgumentException(
          "capacityBytes must be a positive multiple of 4096 up to 2^52 but was " + capacityBytes);
    }
    this.capacity = capacityBytes;
    this.keys = new long[16];
    Arrays.fill(keys, -1L);
    this.pages = new byte[16][];
  }

  @Override
  public HostMemory physicalMemory() {
    return this;
  }

  @Override
  public long capacity() {
    return capacity;
  }

  /** @return pages materialized by writes */
  public int materializedPages() {
    return pageCount;
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException when {@code dst} is null, the physical range leaves the memory, or {@code
   *     dstOffset} and {@code length} do not lie within {@code dst}; nothing is read then
   */
  @Override
  public void read(long address, byte[] dst, int dstOffset, int length) {
    if (dst == null) {
      throw new IllegalArgumentException("dst must not be null");
    }
    checkRange(address, length);
    // length >= 0 here (checkRange), so the subtraction cannot overflow where dstOffset + length could
    if (dstOffset < 0 || length > dst.length - dstOffset) {
      throw new IllegalArgumentException("dstOffset + length must be within dst (" + dst.length + " bytes) but were "
          + dstOffset + " + " + length);
    }
    while (length > 0) {
      int inPage = (int) (address & (PAGE_BYTES - 1));
      int n = Math.min(length, PAGE_BYTES - inPage);
      byte[] page = find(address >>> PAGE_SHIFT);
      System.arraycopy(page == null ? ZERO_PAGE : page, inPage, dst, dstOffset, n);
      address += n;
      dstOffset += n;
      length -= n;
    }
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException when {@code src} is null, the physical range leaves the memory, or {@code
   *     srcOffset} and {@code length} do not lie within {@code src}; nothing is written then
   */
  @Override
  public void write(long address, byte[] src, int srcOffset, int length) {
    if (src == null) {
      throw new IllegalArgumentException("src must not be null");
    }
    checkRange(address, length);
    // length >= 0 here (checkRange), so the subtraction cannot overflow where srcOffset + length could
    if (srcOffset < 0 || length > src.length - srcOffset) {
      throw new IllegalArgumentException("srcOffset + length must be within src (" + src.length + " bytes) but were "
          + srcOffset + " + " + length);
    }
    while (length > 0) {
      int inPage = (int) (address & (PAGE_BYTES - 1));
      int n = Math.min(length, PAGE_BYTES - inPage);
      System.arraycopy(src, srcOffset, materialize(address >>> PAGE_SHIFT), inPage, n);
      address += n;
      srcOffset += n;
      length -= n;
    }
  }

  @Override
  public long readLong(long address) {
    checkRange(address, 8);
    return readLittleEndian(address, 8);
  }

  @Override
  public void writeLong(long address, long value) {
    checkRange(address, 8);
    writeLittleEndian(address, 8, value);
  }

  @Override
  public int readInt(long address) {
    checkRange(address, 4);
    return (int) readLittleEndian(address, 4);
  }

  @Override
  public void writeInt(long address, int value) {
    checkRange(address, 4);
    writeLittleEndian(address, 4, value);
  }

  /** A little-endian number of {@code width} bytes, which may straddle two pages. */
  private long readLittleEndian(long address, int width) {
    int inPage = (int) (address & (PAGE_BYTES - 1));
    int first = Math.min(width, PAGE_BYTES - inPage);
    byte[] p = find(address >>> PAGE_SHIFT);
    long v = p == null ? 0 : LittleEndian.get(p, inPage, first);
    if (first < width) {
      byte[] q = find((address >>> PAGE_SHIFT) + 1);
      if (q != null) {
        v |= LittleEndian.get(q, 0, width - first) << (8 * first);
      }
    }
    return v;
  }

  private void writeLittleEndian(long address, int width, long value) {
    int inPage = (int) (address & (PAGE_BYTES - 1));
    int first = Math.min(width, PAGE_BYTES - inPage);
    LittleEndian.put(materialize(address >>> PAGE_SHIFT), inPage, first, value);
    if (first < width) {
      LittleEndian.put(materialize((address >>> PAGE_SHIFT) + 1), 0, width - first, value >>> (8 * first));
    }
  }

  @Override
  public long allocate(long bytes, long alignment) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("bytes must be > 0 but was " + bytes);
    }
    if (alignment <= 0 || Long.bitCount(alignment) != 1) {
      throw new IllegalArgumentException("alignment must be a power of two but was " + alignment);
    }
    for (Map.Entry<Long, Long> r : freeRanges.entrySet()) {
      long from = r.getKey();
      long end = r.getValue();
      long start = (from + alignment - 1) & -alignment;
      if (start >= from && start < end && bytes <= end - start) {
        freeRanges.remove(from);
        if (from < start) {
          freeRanges.put(from, start);
        }
        if (start + bytes < end) {
          freeRanges.put(start + bytes, end);
        }
        freedBytes -= bytes;
        return start;
      }
    }
    long start = (nextFree + alignment - 1) & -alignment;
    if (start < 0 || start > capacity - bytes) {
      throw new IllegalStateException("physical memory exhausted: cannot allocate " + bytes + " bytes aligned to "
          + alignment + " (capacity " + capacity + " bytes, " + allocatedBytes() + " reserved"
          + (freedBytes > 0 ? ", " + freedBytes + " given back and free in " + freeRanges.size() + " ranges" : "")
          + ", " + (capacity - nextFree) + " free above the highest reservation)");
    }
    if (start > nextFree) {
      skipped.put(nextFree, start);
    }
    nextFree = start + bytes;
    return start;
  }

  @Override
  public long allocatedBytes() {
    return nextFree - FIRST_ALLOCATABLE - freedBytes;
  }

  /**
   * Where an allocation that no range given back can hold starts, before alignment: the byte after the highest
   * reservation ({@value #FIRST_ALLOCATABLE} when nothing is reserved). While nothing was given back it is
   * {@value #FIRST_ALLOCATABLE} + {@link #allocatedBytes()}.
   *
   * @return the physical address
   */
  public long nextUnreserved() {
    return nextFree;
  }

  /** @return bytes given back below {@link #nextUnreserved()} and free again, which allocations may reuse */
  public long freedBytes() {
    return freedBytes;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Always gives back (answers true). The written pages wholly inside the range are dropped, which returns their
   * heap; bytes of a written page the range covers in part are zeroed.
   *
   * @throws IllegalArgumentException when {@code bytes} is not positive, or the range is not wholly reserved: it
   *     reaches below {@value #FIRST_ALLOCATABLE} or above the highest reservation, or overlaps a range given back
   *     already; nothing is given back then
   */
  @Override
  public boolean free(long address, long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("bytes must be > 0 but was " + bytes);
    }
    if (address < FIRST_ALLOCATABLE || address > nextFree - bytes) {
      throw new IllegalArgumentException("the range to free [0x" + Long.toHexString(address) + ", +" + bytes
          + ") must lie within the reserved memory [0x" + Long.toHexString(FIRST_ALLOCATABLE) + ", 0x"
          + Long.toHexString(nextFree) + ")");
    }
    long end = address + bytes;
    Map.Entry<Long, Long> below = freeRanges.floorEntry(address);
    Map.Entry<Long, Long> above = freeRanges.ceilingEntry(address);
    if ((below != null && below.getValue() > address) || (above != null && above.getKey() < end)) {
      Map.Entry<Long, Long> o = below != null && below.getValue() > address ? below : above;
      throw new IllegalArgumentException("the range to free [0x" + Long.toHexString(address) + ", +" + bytes
          + ") must be reserved but overlaps [0x" + Long.toHexString(o.getKey()) + ", 0x"
          + Long.toHexString(o.getValue()) + "), given back already");
    }
    long from = address;
    long to = end;
    long gained = bytes;
    // bytes an alignment skipped inside the range are given back with it (counted in bytes already); what of them
    // lies outside borders the range now, and goes with it below
    Map.Entry<Long, Long> s = skipped.floorEntry(address);
    if (s == null || s.getValue() <= address) {
      s = skipped.ceilingEntry(address);
    }
    while (s != null && s.getKey() < end) {
      long key = s.getKey();
      long value = s.getValue();
      skipped.remove(key);
      if (key < address) {
        skipped.put(key, address);
      }
      if (value > end) {
        skipped.put(end, value);
      }
      s = skipped.ceilingEntry(key + 1); // (a part put back above starts at end: the loop stops there)
    }
    // the bytes an alignment skipped beside the range belong to nobody: they go with it
    Map.Entry<Long, Long> skippedBelow = skipped.floorEntry(from);
    if (skippedBelow != null && skippedBelow.getValue() == from) {
      from = skippedBelow.getKey();
      skipped.remove(from);
      gained += address - from;
    }
    Long skippedAbove = skipped.remove(to);
    if (skippedAbove != null) {
      gained += skippedAbove - to;
      to = skippedAbove;
    }
    below = freeRanges.floorEntry(from);
    if (below != null && below.getValue() == from) {
      from = below.getKey();
      freeRanges.remove(from);
    }
    above = freeRanges.ceilingEntry(to);
    if (above != null && above.getKey() == to) {
      to = above.getValue();
      freeRanges.remove(above.getKey());
    }
    // (the whole merged range: a page given back in parts is dropped once all of it is free)
    dropContents(from, to);
    freedBytes += gained;
    if (to == nextFree) {
      // the unreserved memory above takes the range in
      freedBytes -= to - from;
      nextFree = from;
    } else {
      freeRanges.put(from, to);
    }
    return true;
  }

  /** Drops the written pages wholly inside [from, to) and zeroes the written bytes of the pages at its edges. */
  private void dropContents(long from, long to) {
    long firstWhole = (from + PAGE_BYTES - 1) >>> PAGE_SHIFT;
    long endWhole = to >>> PAGE_SHIFT;
    if (firstWhole > endWhole) { // inside one page
      zero(from, to);
      return;
    }
    zero(from, firstWhole << PAGE_SHIFT);
    zero(endWhole << PAGE_SHIFT, to);
    if (firstWhole == endWhole || pageCount == 0) {
      return;
    }
    if (endWhole - firstWhole <= pageCount) {
      // fewer pages in the range than written: each looked up and removed (a few, as a job's registrations are)
      for (long page = firstWhole; page < endWhole; page++) {
        removePage(page);
      }
      return;
    }
    // more pages in the range than written: one pass over the table (a 64 GB range costs what the memory holds)
    long[] oldKeys = keys;
    byte[][] oldPages = pages;
    boolean dropped = false;
    for (long k : oldKeys) {
      if (k >= firstWhole && k < endWhole) {
        dropped = true;
        break;
      }
    }
    if (!dropped) {
      return;
    }
    keys = new long[oldKeys.length];
    Arrays.fill(keys, -1L);
    pages = new byte[oldKeys.length][];
    pageCount = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      long k = oldKeys[i];
      if (k != -1L && (k < firstWhole || k >= endWhole)) {
        insert(k, oldPages[i]);
        pageCount++;
      }
    }
  }

  /** Removes a written page, if it is, shifting back the entries its slot's probe sequence passed. */
  private void removePage(long pageNumber) {
    int mask = keys.length - 1;
    int i = slot(pageNumber, mask);
    for (int probes = 0; keys[i] != pageNumber; probes++) {
      if (keys[i] == -1L || probes > mask) {
        return;
      }
      i = (i + 1) & mask;
    }
    int j = i;
    while (true) {
      j = (j + 1) & mask;
      long k = keys[j];
      if (k == -1L) {
        break;
      }
      int home = slot(k, mask);
      // the entry at j stays if its home lies cyclically in (i, j]; otherwise it moves into the hole at i
      boolean stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (!stays) {
        keys[i] = k;
        pages[i] = pages[j];
        i = j;
      }
    }
    keys[i] = -1L;
    pages[i] = null;
    pageCount--;
  }

  /** Zeroes [from, to), within one page, if the page was written. */
  private void zero(long from, long to) {
    if (from >= to) {
      return;
    }
    byte[] p = find(from >>> PAGE_SHIFT);
    if (p != null) {
      int at = (int) (from & (PAGE_BYTES - 1));
      Arrays.fill(p, at, at + (int) (to - from), (byte) 0);
    }
  }

  private void checkRange(long address, long length) {
    if (length < 0 || address < 0 || address > capacity - length) {
      throw new IllegalArgumentException("physical range [0x" + Long.toHexString(address) + ", +" + length
          + ") must lie within [0, 0x" + Long.toHexString(capacity) + ")");
    }
  }

  private static int slot(long key, int mask) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h >>> 40) & mask;
  }

  private byte[] find(long pageNumber) {
    int mask = keys.length - 1;
    int i = slot(pageNumber, mask);
    // The table is never full (load ≤ 3/4), so a probe reaches an empty slot within keys.length steps; one that
    // does not saw a table torn by another thread's rehash, which would otherwise spin forever.
    for (int probes = 0; probes <= mask; probes++) {
      long k = keys[i];
      if (k == pageNumber) {
        return pages[i];
      }
      if (k == -1L) {
        return null;
      }
      i = (i + 1) & mask;
    }
    throw new IllegalStateException("SparsePhysicalMemory's page table is inconsistent: it was used from two"
        + " threads at once, but it is not thread-safe (use one thread, or hand control over as the process"
        + " runner does)");
  }

  private byte[] materialize(long pageNumber) {
    byte[] p = find(pageNumber);
    if (p != null) {
      return p;
    }
    if ((pageCount + 1) * 4L > keys.length * 3L) {
      rehash();
    }
    p = new byte[PAGE_BYTES];
    insert(pageNumber, p);
    pageCount++;
    return p;
  }

  private void insert(long pageNumber, byte[] page) {
    int mask = keys.length - 1;
    int i = slot(pageNumber, mask);
    for (int probes = 0; keys[i] != -1L; probes++) {
      if (probes > mask) {
        throw new IllegalStateException("SparsePhysicalMemory's page table is full: it was used from two threads"
            + " at once, but it is not thread-safe");
      }
      i = (i + 1) & mask;
    }
    keys[i] = pageNumber;
    pages[i] = page;
  }

  private void rehash() {
    long[] oldKeys = keys;
    byte[][] oldPages = pages;
    keys = new long[oldKeys.length * 2];
    Arrays.fill(keys, -1L);
    pages = new byte[oldKeys.length * 2][];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != -1L) {
        insert(oldKeys[i], oldPages[i]);
      }
    }
  }
}
