package io.github.ariesmodel.core;

/**
 * Allocation-free helpers on packed {@link PageTableEntry} values (see its javadoc for the bit layout).
 */
public final class PageTableEntries {

  /** Bit of the present flag. */
  public static final long PRESENT_BIT = 1L;
  /** Bit of the writable flag. */
  public static final long WRITABLE_BIT = 1L << 1;
  /** Bit of the leaf flag. */
  public static final long LEAF_BIT = 1L << 2;
  /** Position of the page-size code. */
  public static final int SIZE_CODE_SHIFT = 3;
  /** Mask of the page-size code after shifting. */
  public static final int SIZE_CODE_MASK = 0x1F;
  /** Position of the frame number. */
  public static final int FRAME_SHIFT = 12;
  /** Bits that must be zero. */
  public static final long RESERVED_MASK = (0xFFFL << 52) | (0xFL << 8);

  private PageTableEntries() {}

  /**
   * Packs the fields without validation.
   *
   * @param present present flag
   * @param writable writable flag
   * @param leaf leaf flag
   * @param sizeCode page size code, 0..16
   * @param frameNumber 40-bit frame number
   * @return the packed entry
   */
  public static long pack(boolean present, boolean writable, boolean leaf, int sizeCode, long frameNumber) {
    return (present ? PRESENT_BIT : 0)
        | (writable ? WRITABLE_BIT : 0)
        | (leaf ? LEAF_BIT : 0)
        | ((long) (sizeCode & SIZE_CODE_MASK) << SIZE_CODE_SHIFT)
        | ((frameNumber & PageTableEntry.MAX_FRAME) << FRAME_SHIFT);
  }

  /** @param pte packed entry @return the present flag */
  public static boolean present(long pte) {
    return (pte & PRESENT_BIT) != 0;
  }

  /** @param pte packed entry @return the writable flag */
  public static boolean writable(long pte) {
    return (pte & WRITABLE_BIT) != 0;
  }

  /** @param pte packed entry @return the leaf flag */
  public static boolean leaf(long pte) {
    return (pte & LEAF_BIT) != 0;
  }

  /** @param pte packed entry @return the page size code */
  public static int pageSizeCode(long pte) {
    return (int) ((pte >>> SIZE_CODE_SHIFT) & SIZE_CODE_MASK);
  }

  /**
   * @param pte packed entry
   * @return the bytes of the page its size code names (4 KB for code 0, 2 MB · 2^(code − 1) above), without making a
   *     {@link PageSize}
   */
  public static long pageBytes(long pte) {
    int code = pageSizeCode(pte);
    return code == 0 ? 1L << PageSize.SMALL_SHIFT : 1L << (PageSize.MIN_HUGE_SHIFT + code - 1);
  }

  /** @param pte packed entry @return the frame number */
  public static long frameNumber(long pte) {
    return (pte >>> FRAME_SHIFT) & PageTableEntry.MAX_FRAME;
  }

  /** @param pte packed entry @return the physical address of the page or table (frame × 4096) */
  public static long physicalBase(long pte) {
    return frameNumber(pte) << FRAME_SHIFT;
  }
}
