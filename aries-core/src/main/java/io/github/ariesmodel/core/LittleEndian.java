package io.github.ariesmodel.core;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Little-endian packing of integers into byte arrays: the byte order of x86-64 host memory, of the NIC's
 * payloads and of page-table entries in the model. The one place the project packs and unpacks bytes, so
 * the NIC, the IOMMU, the sparse memory and the programming models cannot disagree.
 *
 * <p>Allocation-free; a width is 1 to 8 bytes. Values narrower than 8 bytes are zero-extended on read.
 */
public final class LittleEndian {
  private LittleEndian() {}

  /**
   * Reads {@code width} bytes at {@code offset} as an unsigned little-endian number.
   *
   * @param bytes the array
   * @param offset index of the least significant byte
   * @param width bytes to read, 1..8
   * @return the value, zero-extended
   */
  public static long get(byte[] bytes, int offset, int width) {
    checkSpan(bytes, offset, width);
    long v = 0;
    for (int i = width - 1; i >= 0; i--) {
      v = (v << 8) | (bytes[offset + i] & 0xFF);
    }
    return v;
  }

  /**
   * Writes the low {@code width} bytes of {@code value} at {@code offset}, least significant first.
   *
   * @param bytes the array
   * @param offset index of the least significant byte
   * @param width bytes to write, 1..8
   * @param value the value; bits above {@code width} bytes are ignored
   */
  public static void put(byte[] bytes, int offset, int width, long value) {
    checkSpan(bytes, offset, width);
    for (int i = 0; i < width; i++) {
      bytes[offset + i] = (byte) (value >>> (8 * i));
    }
  }

  /**
   * Refuses a null array, a width outside [1, 8] and a span that does not lie in the array (compared without {@code
   * offset + width}, which overflows near {@code Integer.MAX_VALUE}).
   */
  private static void checkSpan(byte[] bytes, int offset, int width) {
    if (bytes == null) {
      throw new IllegalArgumentException("bytes must not be null");
    }
    checkArgument(width >= 1 && width <= 8, "width must be in [1, 8] but was %s", width);
    if (bytes.length < width) {
      throw new IllegalArgumentException("bytes must hold at least " + width + " bytes but held " + bytes.length);
    }
    if (offset < 0 || offset > bytes.length - width) {
      throw new IllegalArgumentException("offset must be in [0, " + (bytes.length - width) + "] for " + width
          + " bytes of a " + bytes.length + "-byte array but was " + offset);
    }
  }

  /** Reads a 64-bit value at index 0. @param bytes at least 8 bytes @return the value */
  public static long getLong(byte[] bytes) {
    return get(bytes, 0, 8);
  }

  /** The 8 bytes of {@code value}, least significant first. @param value the value @return a new array */
  public static byte[] ofLong(long value) {
    byte[] b = new byte[8];
    put(b, 0, 8, value);
    return b;
  }

  /** The 4 bytes of {@code value}, least significant first. @param value the value @return a new array */
  public static byte[] ofInt(int value) {
    byte[] b = new byte[4];
    put(b, 0, 4, value);
    return b;
  }
}
