package io.github.ariesmodel.network.traffic;

/**
 * The gap, in injection slots, between a Bernoulli source's packets: with probability {@code p} of a packet in each
 * slot, the gap is geometric, drawn by inversion from a uniform {@code u} in [0, 1) as
 * {@code 1 + floor(log1p(-u) / log1p(-p))} ({@link #byFormula}). That formula is the traffic runs' definition of a draw,
 * and every result depends on its exact value; this class gives the same value, mostly without the logarithm.
 *
 * <p>Why: on this JDK {@code Math.log1p} is {@code StrictMath.log1p}, a native call, and one draw per generated packet
 * put it at about 2.6 % of the 1,056-node run's CPU samples (docs/performance.md, "Stop 37").
 *
 * <p>How it stays exact. In exact arithmetic {@code log(1-u) / log(1-p) ≥ m} exactly when {@code u ≥ t_m = 1 - (1-p)^m},
 * so the gap is one more than the number of bounds {@code t_m} at or below {@code u}. A table holds the first
 * {@value #BOUNDS} bounds (computed as {@code -expm1(m × log1p(-p))}, a few units in the last place from exact). When
 * {@code u} lies more than {@value #MARGIN} from every bound, the exact quotient is at least {@code MARGIN / |log(1-p)|}
 * (above 10^-12 for any {@code p < 1} a double can hold, as {@code |log1p(-p)| < 38}) from an integer, while the
 * formula's double result is within a few units in the last place of the exact quotient (the logarithm, the stored
 * denominator and the division each round once; under 10^-13 for quotients below {@value #BOUNDS} + 1): so both floor to
 * the same integer, and the table's count is the formula's value. Otherwise (a {@code u} near a bound, or beyond the
 * table) the formula itself is used. {@code GeometricGapsProperties} checks the two against each other, bounds and
 * their neighbours included.
 */
final class GeometricGaps {

  /** Bounds held in the table: a gap longer than this is drawn by the formula. */
  static final int BOUNDS = 64;

  /** How far {@code u} must be from every bound for the table's count to be taken (see the class comment). */
  static final double MARGIN = 1e-9;

  private final double logOfIdle;
  /** {@code t_m = 1 - (1-p)^m} for m = 1 ... {@link #BOUNDS}, non-decreasing. */
  private final double[] bounds = new double[BOUNDS];

  /**
   * @param p the probability of a packet in a slot, in (0, 1)
   * @throws IllegalArgumentException when {@code p} is outside (0, 1)
   */
  GeometricGaps(double p) {
    if (!(p > 0 && p < 1)) {
      throw new IllegalArgumentException("p must be in (0, 1) but was " + p);
    }
    logOfIdle = Math.log1p(-p);
    for (int m = 1; m <= BOUNDS; m++) {
      bounds[m - 1] = -Math.expm1(m * logOfIdle);
    }
  }

  /**
   * @param u a uniform draw in [0, 1)
   * @return the gap in slots, ≥ 1: {@link #byFormula}'s value for the same {@code u}
   */
  long slots(double u) {
    double[] t = bounds;
    // m = the number of bounds at or below u (binary search for the first bound above it)
    int lo = 0;
    int hi = t.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (t[mid] <= u) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo < t.length && t[lo] - u > MARGIN && (lo == 0 || u - t[lo - 1] > MARGIN)) {
      return 1 + lo;
    }
    return byFormula(u, logOfIdle);
  }

  /**
   * The definition of a draw.
   *
   * @param u a uniform draw in [0, 1)
   * @param logOfIdle {@code Math.log1p(-p)}
   * @return {@code 1 + floor(log1p(-u) / logOfIdle)}
   */
  static long byFormula(double u, double logOfIdle) {
    return 1 + (long) Math.floor(Math.log1p(-u) / logOfIdle);
  }
}
