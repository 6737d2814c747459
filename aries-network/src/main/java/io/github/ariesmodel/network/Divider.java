package io.github.ariesmodel.network;

/**
 * Division by a divisor fixed at construction, as a multiply and a shift: {@code x / d} for every {@code x} in [0,
 * max]. An integer division by a variable takes tens of cycles and the fabric does several on every hop (a port's
 * router, a router's group). With {@code 2^s ≥ 2 × 2^a × 2^b} for {@code max < 2^a} and {@code d ≤ 2^b}, and {@code m =
 * floor(2^s / d) + 1}, {@code floor(x × m / 2^s) = floor(x / d)} on that range (the rounding error of {@code m} stays
 * below one {@code d}-th; Granlund and Montgomery, PLDI 1994, section 4), and {@code x × m} fits a {@code long} for
 * {@code a ≤ 30}. Tested against {@code /} in {@code DividerProperties}.
 */
final class Divider {

  private final long multiplier;
  private final int shift;

  /**
   * @param divisor ≥ 1
   * @param max the largest dividend, ≥ 0 and below 2^30
   */
  Divider(int divisor, int max) {
    if (divisor < 1) {
      throw new IllegalArgumentException("divisor must be >= 1 but was " + divisor);
    }
    if (max < 0 || max >= 1 << 30) {
      throw new IllegalArgumentException("max must be in [0, 2^30) but was " + max);
    }
    int a = 32 - Integer.numberOfLeadingZeros(max); // max < 2^a
    int b = 32 - Integer.numberOfLeadingZeros(divisor - 1); // divisor ≤ 2^b
    this.shift = a + b + 1;
    this.multiplier = (1L << shift) / divisor + 1;
  }

  /** @param x in [0, max] @return {@code x / divisor} */
  int divide(int x) {
    return (int) ((x * multiplier) >>> shift);
  }
}
