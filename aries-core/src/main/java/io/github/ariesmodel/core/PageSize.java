package io.github.ariesmodel.core;

import static com.google.common.base.Preconditions.checkArgument;


/**
 * A page size the Aries IOMMU can translate: 4 KB pages through a two-level table, or huge pages of 2 MB × 2^n
 * (n = 0..15, so 2 MB up to 64 GB) through a one-level table.
 *
 * <p>Sources (aries-facts §4, S6c): the IOMMU translation-context register has {@code pg_mode} 0 = two-level, 1 =
 * one-level with a default of 2 MB, and a 4-bit {@code pg_size} for the one-level mode. Reading that 4-bit field as
 * 2 MB·2^n gives exactly the published "huge pages up to 64 GB"; that encoding is our derivation (the headers do not
 * state it), and 4 KB as the two-level page size is likewise assumed.
 *
 * <p>Text form: {@code 4K}, {@code 2M} … {@code 512M}, {@code 1G} … {@code 64G}; {@link #parse} also accepts a
 * trailing {@code B} and lower case.
 *
 * @param shift log2 of the page size in bytes: 12, or 21 to 36
 */
public record PageSize(int shift) implements Comparable<PageSize> {

  /** log2 of the small page size. */
  public static final int SMALL_SHIFT = 12;
  /** log2 of the smallest huge page. */
  public static final int MIN_HUGE_SHIFT = 21;
  /** log2 of the largest huge page. */
  public static final int MAX_HUGE_SHIFT = 36;

  /** 4 KB, translated through two levels. */
  public static final PageSize SIZE_4K = new PageSize(SMALL_SHIFT);
  /** 2 MB, the smallest huge page. */
  public static final PageSize SIZE_2M = new PageSize(21);
  /** 1 GB. */
  public static final PageSize SIZE_1G = new PageSize(30);
  /** 64 GB, the largest huge page. */
  public static final PageSize SIZE_64G = new PageSize(MAX_HUGE_SHIFT);

  /** Validates the shift. */
  public PageSize {
    checkArgument(
        shift == SMALL_SHIFT || (shift >= MIN_HUGE_SHIFT && shift <= MAX_HUGE_SHIFT),
        "page size shift must be 12 (4K) or in [21, 36] (2M..64G) but was %s",
        shift);
  }

  /**
   * Returns the page size of the given number of bytes.
   *
   * @param bytes 4096, or 2 MiB × 2^n for n in 0..15
   * @return the page size
   * @throws IllegalArgumentException naming the valid sizes when {@code bytes} is not one of them
   */
  public static PageSize ofBytes(long bytes) {
    checkArgument(
        bytes > 0 && Long.bitCount(bytes) == 1,
        "page size must be 4K or a power of two from 2M to 64G but was %s bytes",
        bytes);
    int s = Long.numberOfTrailingZeros(bytes);
    checkArgument(
        s == SMALL_SHIFT || (s >= MIN_HUGE_SHIFT && s <= MAX_HUGE_SHIFT),
        "page size must be 4K or a power of two from 2M to 64G but was %s bytes",
        bytes);
    return new PageSize(s);
  }

  /**
   * Parses {@code 4K}, {@code 2M}, {@code 1G}, … as {@link ByteCount} reads sizes (case-insensitive, optional
   * trailing {@code B}).
   *
   * @param text the text
   * @return the page size
   * @throws IllegalArgumentException quoting the text when it is not a valid page size
   */
  public static PageSize parse(String text) {
    long bytes;
    try {
      bytes = ByteCount.parse("page size", text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "page size must look like 4K, 2M or 1G (4K, or 2M..64G in powers of two) but was \""
              + Texts.abbreviate(text) + "\"", e);
    }
    try {
      return ofBytes(bytes);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage() + " (text \"" + Texts.abbreviate(text) + "\")", e);
    }
  }

  /**
   * All 17 page sizes, smallest first.
   *
   * @return 4K, 2M, 4M, …, 64G
   */
  public static PageSize[] values() {
    PageSize[] all = new PageSize[1 + MAX_HUGE_SHIFT - MIN_HUGE_SHIFT + 1];
    all[0] = SIZE_4K;
    for (int s = MIN_HUGE_SHIFT; s <= MAX_HUGE_SHIFT; s++) {
      all[1 + s - MIN_HUGE_SHIFT] = new PageSize(s);
    }
    return all;
  }

  /** Bytes in a page. @return 2^shift */
  public long bytes() {
    return 1L << shift;
  }

  /** Whether this is a huge page (translated through one level). @return true for 2M and larger */
  public boolean isHuge() {
    return shift != SMALL_SHIFT;
  }

  /** Page-table levels walked to translate an address in a page of this size. @return 2 for 4K, 1 for huge pages */
  public int levels() {
    return isHuge() ? 1 : 2;
  }

  /**
   * The 5-bit code stored in a {@link PageTableEntry}: 0 for 4K, 1 + n for 2 MB·2^n.
   *
   * @return 0..16
   */
  public int code() {
    return isHuge() ? 1 + shift - MIN_HUGE_SHIFT : 0;
  }

  /**
   * The page size of a PTE code.
   *
   * @param code 0..16
   * @return the page size
   * @throws IllegalArgumentException when the code is outside 0..16
   */
  public static PageSize fromCode(int code) {
    checkArgument(code >= 0 && code <= 16, "page size code must be in [0, 16] but was %s", code);
    return code == 0 ? SIZE_4K : new PageSize(MIN_HUGE_SHIFT + code - 1);
  }

  /** The page number of an address. @param address a byte address @return address / bytes() */
  public long pageNumber(long address) {
    return address >>> shift;
  }

  /** The offset of an address within its page. @param address a byte address @return address mod bytes() */
  public long pageOffset(long address) {
    return address & (bytes() - 1);
  }

  /** The start of the page holding an address. @param address a byte address @return address rounded down */
  public long alignDown(long address) {
    return address & -bytes();
  }

  /**
   * The start of the first page at or above an address.
   *
   * @param address a byte address in [0, {@code Long.MAX_VALUE - bytes() + 1}] (the largest whose page boundary a
   *     {@code long} holds)
   * @return address rounded up to a page boundary
   * @throws IllegalArgumentException for an address outside that range, which used to wrap to a negative boundary
   */
  public long alignUp(long address) {
    long last = Long.MAX_VALUE - bytes() + 1;
    if (address < 0 || address > last) {
      throw new IllegalArgumentException("address must be in [0, " + last + "] to round up to a " + this
          + " page boundary but was " + address);
    }
    return (address + bytes() - 1) & -bytes();
  }

  /** Whether an address is on a page boundary. @param address a byte address @return true when aligned */
  public boolean isAligned(long address) {
    return pageOffset(address) == 0;
  }

  /**
   * Bytes from {@code address} to the end of its page.
   *
   * @param address a byte address
   * @return 1..bytes()
   */
  public long bytesToPageEnd(long address) {
    return bytes() - pageOffset(address);
  }

  /**
   * Number of pages touched by {@code length} bytes starting at {@code address}.
   *
   * @param address first byte
   * @param length byte count, ≥ 0
   * @return the page count (0 when length is 0)
   */
  public long pagesSpanned(long address, long length) {
    if (address < 0) {
      throw new IllegalArgumentException("address must be >= 0 but was " + address);
    }
    if (length < 0 || length - 1 > Long.MAX_VALUE - address) {
      // from address 0 the range's end is 2^63 bytes away, beyond a long: the longest length a caller can give is the
      // bound then (Long.MAX_VALUE - address + 1 wrapped to a negative one in this message)
      long longest = address == 0 ? Long.MAX_VALUE : Long.MAX_VALUE - address + 1;
      throw new IllegalArgumentException("length must be in [0, " + longest + "] (to end"
          + " within the address range from address " + address + ") but was " + length);
    }
    if (length == 0) {
      return 0;
    }
    return pageNumber(address + length - 1) - pageNumber(address) + 1;
  }

  @Override
  public int compareTo(PageSize other) {
    return Integer.compare(shift, other.shift);
  }

  /** The text form, e.g. {@code 4K}, {@code 2M}, {@code 64G}. */
  @Override
  public String toString() {
    if (shift >= 30) {
      return (1L << (shift - 30)) + "G";
    }
    if (shift >= 20) {
      return (1L << (shift - 20)) + "M";
    }
    return (1L << (shift - 10)) + "K";
  }
}
