package io.github.ariesmodel.core;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * One 64-bit IOMMU page-table entry, in the model's documented format.
 *
 * <p>The Aries IOMMU has two PTE formats (v1/v2) whose bit layouts are not public (aries-facts §4, S6c). This model
 * uses its own 8-byte format, so that eight PTEs fill one 64-byte PTE-cache line as on the hardware:
 *
 * <pre>
 * | bits   | width | field        | meaning                                                     |
 * |--------|-------|--------------|-------------------------------------------------------------|
 * | 63..52 | 12    | reserved     | must be zero                                                |
 * | 51..12 | 40    | frameNumber  | 4 KB frame of the page (leaf) or of the next table (table)  |
 * | 11..8  | 4     | reserved     | must be zero                                                |
 * | 7..3   | 5     | pageSizeCode | {@link PageSize#code()}: 0 = 4K, 1 + n = 2 MB·2^n            |
 * | 2      | 1     | leaf         | 1 = maps a page; 0 = points to a next-level table           |
 * | 1      | 1     | writable     | writes and AMOs allowed                                     |
 * | 0      | 1     | present      | 0 = a translation fault on use                              |
 * </pre>
 *
 * <p>{@link #pack()} and {@link #unpack(long)} round-trip; {@link PageTableEntries} has allocation-free field
 * accessors on the packed {@code long}.
 *
 * @param present whether the entry is valid
 * @param writable whether the page may be written
 * @param leaf whether the entry maps a page (true) or points to a table (false)
 * @param pageSize the page size the entry maps (4K for table pointers)
 * @param frameNumber the 40-bit 4 KB frame number; for a huge page it must be aligned to the page size
 */
public record PageTableEntry(boolean present, boolean writable, boolean leaf, PageSize pageSize, long frameNumber) {

  /** Width of the frame number field. */
  public static final int FRAME_BITS = 40;
  /** Largest frame number. */
  public static final long MAX_FRAME = (1L << FRAME_BITS) - 1;
  /** Bytes of one packed entry. */
  public static final int BYTES = 8;
  /** The packed not-present entry. */
  public static final long NOT_PRESENT = 0L;

  /** Validates the fields. */
  public PageTableEntry {
    checkArgument(pageSize != null, "pageSize must not be null");
    checkArgument(
        frameNumber >= 0 && frameNumber <= MAX_FRAME,
        "frameNumber must be in [0, 2^40 - 1] but was %s",
        frameNumber);
    long framesPerPage = pageSize.bytes() >>> PageSize.SMALL_SHIFT;
    checkArgument(
        !leaf || (frameNumber & (framesPerPage - 1)) == 0,
        "frameNumber must be aligned to the %s page (a multiple of %s) but was %s",
        pageSize,
        framesPerPage,
        frameNumber);
  }

  /**
   * A present leaf entry mapping a page.
   *
   * @param physicalBase physical address of the page, aligned to {@code size}
   * @param size the page size
   * @param writable whether writes are allowed
   * @return the entry
   */
  public static PageTableEntry page(long physicalBase, PageSize size, boolean writable) {
    checkArgument(size != null, "size must not be null");
    checkArgument(
        size.isAligned(physicalBase),
        "physicalBase must be aligned to the %s page but was 0x%s",
        size,
        Long.toHexString(physicalBase));
    return new PageTableEntry(true, writable, true, size, physicalBase >>> PageSize.SMALL_SHIFT);
  }

  /**
   * A present entry pointing to a next-level table.
   *
   * @param tableBase physical address of the table, 4 KB aligned
   * @return the entry
   */
  public static PageTableEntry table(long tableBase) {
    checkArgument(
        PageSize.SIZE_4K.isAligned(tableBase),
        "tableBase must be 4K aligned but was 0x%s",
        Long.toHexString(tableBase));
    return new PageTableEntry(true, true, false, PageSize.SIZE_4K, tableBase >>> PageSize.SMALL_SHIFT);
  }

  /**
   * Decodes a packed entry.
   *
   * @param packed the 64-bit entry
   * @return the entry
   * @throws IllegalArgumentException when a reserved bit is set or the size code is invalid
   */
  public static PageTableEntry unpack(long packed) {
    checkArgument(
        (packed & PageTableEntries.RESERVED_MASK) == 0,
        "PTE reserved bits (63..52, 11..8) must be zero but PTE was 0x%s",
        Long.toHexString(packed));
    return new PageTableEntry(
        PageTableEntries.present(packed),
        PageTableEntries.writable(packed),
        PageTableEntries.leaf(packed),
        PageSize.fromCode(PageTableEntries.pageSizeCode(packed)),
        PageTableEntries.frameNumber(packed));
  }

  /** Encodes the entry. @return the 64-bit entry */
  public long pack() {
    return PageTableEntries.pack(present, writable, leaf, pageSize.code(), frameNumber);
  }

  /** Physical address of the page or table. @return frameNumber × 4096 */
  public long physicalBase() {
    return frameNumber << PageSize.SMALL_SHIFT;
  }
}
