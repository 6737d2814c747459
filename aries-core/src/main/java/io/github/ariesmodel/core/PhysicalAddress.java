package io.github.ariesmodel.core;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * A 52-bit host physical address, the result of an IOMMU translation and the address a NIC uses on the host
 * interface. 52 bits is the x86-64 architectural maximum; a PTE's 40-bit frame number times 4 KB covers it.
 *
 * <p>Text form: {@code 0x}-prefixed hex, e.g. {@code 0x1000}; round-trips through {@link #parse}.
 *
 * @param value 0 to 2^52 - 1
 */
public record PhysicalAddress(long value) implements Comparable<PhysicalAddress> {

  /** Significant bits of a physical address. */
  public static final int BITS = 52;
  /** Largest physical address. */
  public static final long MAX = (1L << BITS) - 1;

  /** Validates the range. */
  public PhysicalAddress {
    checkArgument(
        value >= 0 && value <= MAX, "physical address must be in [0, 2^52 - 1] but was 0x%s", Long.toHexString(value));
  }

  /**
   * Returns the address.
   *
   * @param value 0 to 2^52 - 1
   * @return the address
   */
  public static PhysicalAddress of(long value) {
    return new PhysicalAddress(value);
  }

  /**
   * Parses {@code 0x}-prefixed hex.
   *
   * @param text the text
   * @return the address
   * @throws IllegalArgumentException quoting the text when malformed or out of range
   */
  public static PhysicalAddress parse(String text) {
    checkArgument(text != null, "text must not be null");
    return new PhysicalAddress(Texts.parseHex(text, 14, "physical address"));
  }

  /** The 4 KB frame number. @return value >>> 12 */
  public long frameNumber() {
    return value >>> PageSize.SMALL_SHIFT;
  }

  /** The address {@code delta} bytes further. @param delta bytes @return the moved address */
  public PhysicalAddress plus(long delta) {
    return new PhysicalAddress(value + delta);
  }

  @Override
  public int compareTo(PhysicalAddress other) {
    return Long.compare(value, other.value);
  }

  /** {@code 0x}-prefixed lower-case hex. */
  @Override
  public String toString() {
    return "0x" + Long.toHexString(value);
  }
}
