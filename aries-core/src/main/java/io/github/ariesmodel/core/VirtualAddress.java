package io.github.ariesmodel.core;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * An x86-64 virtual address: 48 significant bits in canonical form (bits 63..47 all equal). On Aries the NIC forms
 * the virtual address of a remote reference as the MDD's base plus the offset, inside one of the IOMMU's 16
 * translation contexts (aries-facts §4: MDD {@code mem_base}/{@code mem_max} are bits [47:12]).
 *
 * <p>Text form: {@code 0x}-prefixed hex of the 64-bit value, e.g. {@code 0x7f0000001000}; round-trips through
 * {@link #parse}.
 *
 * @param value the 64-bit canonical value
 */
public record VirtualAddress(long value) implements Comparable<VirtualAddress> {

  /** Significant bits of a virtual address. */
  public static final int BITS = 48;
  /** Largest address of the lower canonical half. */
  public static final long MAX_LOWER_HALF = (1L << (BITS - 1)) - 1;

  /** Validates canonical form. */
  public VirtualAddress {
    checkArgument(
        isCanonical(value),
        "virtual address must be canonical (bits 63..47 equal; 48-bit x86-64) but was 0x%s",
        Long.toHexString(value));
  }

  /**
   * Returns the address.
   *
   * @param value a canonical 64-bit value
   * @return the address
   */
  public static VirtualAddress of(long value) {
    return new VirtualAddress(value);
  }

  /**
   * Whether a value is canonical.
   *
   * @param value any 64-bit value
   * @return true when bits 63..47 are all equal
   */
  public static boolean isCanonical(long value) {
    return (value << (64 - BITS)) >> (64 - BITS) == value;
  }

  /**
   * Parses {@code 0x}-prefixed hex.
   *
   * @param text the text
   * @return the address
   * @throws IllegalArgumentException quoting the text when malformed or not canonical
   */
  public static VirtualAddress parse(String text) {
    checkArgument(text != null, "text must not be null");
    return new VirtualAddress(Texts.parseHex(text, 16, "virtual address"));
  }

  /** The address {@code delta} bytes further. @param delta bytes @return the moved address */
  public VirtualAddress plus(long delta) {
    return new VirtualAddress(value + delta);
  }

  /** The page number for a page size. @param size page size @return value >>> size.shift() of the 48 bits */
  public long pageNumber(PageSize size) {
    checkArgument(size != null, "size must not be null");
    return (value & ((1L << BITS) - 1)) >>> size.shift();
  }

  /** The offset within the page. @param size page size @return the low size.shift() bits */
  public long pageOffset(PageSize size) {
    checkArgument(size != null, "size must not be null");
    return size.pageOffset(value);
  }

  @Override
  public int compareTo(VirtualAddress other) {
    return Long.compare(value, other.value);
  }

  /** {@code 0x}-prefixed lower-case hex. */
  @Override
  public String toString() {
    return "0x" + Long.toHexString(value);
  }
}
