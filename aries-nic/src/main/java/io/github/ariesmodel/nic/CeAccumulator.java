package io.github.ariesmodel.nic;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * The arithmetic of one virtual CE channel (aries-facts §5 CE; [S5] {@code gni_ce_cmd_type_t},
 * {@code GNI_CE_MODE_ROUND_*}, {@code GNI_CE_FPE_*}, {@code GNI_CEMODE_TWO_OP}): it folds the contributions of a
 * reduction, one {@link #add} per child, into two 64-bit results and a set of {@link CeFpe} flags. One instance per
 * channel, reused across reductions with {@link #reset}; {@link #add} allocates nothing.
 *
 * <p>Contributions are combined in the order {@code add} is called, the first one taken as is (it is not combined
 * with an identity element). The engine calls {@code add} in child-index order, which makes FPADD results
 * reproducible from run to run.
 *
 * <ul>
 *   <li><b>AND, OR, XOR, IADD</b>: {@link #result1()} folds operand 1; with two operands, {@link #result2()} folds
 *       operand 2 the same way, element-wise, else it stays 0 and operand 2 is ignored. IADD wraps around in two's
 *       complement and sets no flag.
 *   <li><b>FPADD</b>: the operands are IEEE-754 doubles' bits, element-wise as above. Each addition is rounded once,
 *       by the channel's {@link CeRounding}, as IEEE 754 specifies: to nearest is Java's {@code +}; the directed
 *       modes take that sum {@code s} and the exact error of it (TwoSum) and move {@code s} one ulp when the exact
 *       sum lies on the other side. A sum too large for a double gives, as IEEE 754's overflow rules do, ±infinity
 *       (NEAREST), +infinity or -{@link Double#MAX_VALUE} (UP), {@code MAX_VALUE} or -infinity (DOWN), and
 *       ±{@code MAX_VALUE} (TOWARD_ZERO). Flags of additions, per IEEE 754: OVERFLOW and INEXACT when finite
 *       operands give a sum whose rounding with an unbounded exponent exceeds {@code MAX_VALUE} in magnitude (so a
 *       sum just above {@code MAX_VALUE} overflows under UP but not under DOWN or TOWARD_ZERO, which round it to
 *       {@code MAX_VALUE}: INEXACT only); INVALID when infinities of opposite sign meet (the result is the canonical
 *       quiet NaN {@code 0x7ff8000000000000}); INEXACT when the sum was rounded; UNDERFLOW when a non-zero subnormal
 *       result is inexact, a rule kept for completeness that addition cannot trigger (a sum in the subnormal range is
 *       always exact). Zeros follow IEEE 754: {@code -0.0 + -0.0 = -0.0}; {@code x + (-x)} and {@code +0.0 + -0.0} are
 *       {@code +0.0}, except under DOWN, where they are {@code -0.0}. NaN operands, as IEEE 754 §6.2 and §7.2 say: a
 *       quiet NaN propagates with its bits unchanged and no flag; a signalling NaN (quiet bit, fraction bit 51,
 *       clear) sets INVALID and comes out quiet, its bits with the quiet bit set; when both operands are NaNs the
 *       first in call order gives the result. A reduction with a single contribution does no addition, so that
 *       contribution's bits come back unchanged, a signalling NaN's included, with no flag. Which NaN (payload,
 *       sign) the hardware returns is not published: where IEEE 754 leaves the choice, the choice is the model's.
 *   <li><b>IMIN, IMAX</b> ({@code _LIDX}, {@code _GIDX}): operand 1 is a signed 64-bit value and operand 2 its index;
 *       the result is the least (greatest) value with its index. On equal values {@code _LIDX} keeps the lower
 *       index, {@code _GIDX} the greater; on equal index as well, the earlier contribution stays. Indices are
 *       compared as signed 64-bit values (assumed: [S5] says "lowest" and "greatest index" and gives no type), so
 *       an IMAX_GIDX tie between index 5 and index -1 ({@code 0xffffffffffffffff}) keeps 5. Indexed commands always
 *       take two operands, whatever {@code reset} was told.
 *   <li><b>FPMIN, FPMAX</b> ({@code _LIDX}, {@code _GIDX}): as IMIN/IMAX (index rule included) but operand 1 is a
 *       double's bits, compared as doubles. -0.0 and +0.0 compare equal, so the index rule decides and the result
 *       carries the winner's bits: assumed, no source says how the CE orders signed zeros (the AMO unit's FPMIN
 *       differs: {@code AmoArithmetic} orders -0.0 below +0.0, so FPMIN of +0.0 and -0.0 is -0.0 there). A NaN
 *       value, quiet or signalling, makes the result NaN, with the bits (not quieted) and index of the first NaN
 *       seen, and sets INVALID (also when it is the first contribution). This NaN rule is the model's choice, not
 *       IEEE 754's: IEEE 754-2008 {@code minNum}/{@code maxNum} return the number beside a quiet NaN, 754-2019
 *       {@code minimum}/{@code maximum} return a quiet NaN, and neither flags a quiet NaN; the hardware's rule is
 *       not published.
 * </ul>
 *
 * <p>Flags a contribution already carries ({@code fpeIn}, from a child channel's intermediate result) are ORed into
 * the accumulated flags, for every command.
 */
final class CeAccumulator {

  /** Java's (and IEEE 754's usual) default quiet NaN, the result of an invalid addition. */
  static final long CANONICAL_NAN = 0x7ff8_0000_0000_0000L;

  /** The most significant fraction bit: set in a quiet NaN, clear in a signalling one (IEEE 754 §6.2.1). */
  static final long QUIET_BIT = 1L << 51;

  private CeOperation op;
  private CeRounding rounding;
  private boolean twoOperands;
  private boolean empty = true;
  private long result1;
  private long result2;
  private int fpe;

  /** An accumulator for a channel not yet used: {@link #add} is refused until the first {@link #reset}. */
  CeAccumulator() {}

  /**
   * Starts a reduction: the next add becomes the first contribution.
   *
   * @param op the command
   * @param rounding the channel's rounding mode (used by FPADD only, required for all)
   * @param twoOperands whether operand 2 is folded too ({@code GNI_CEMODE_TWO_OP}); ignored, taken as true, for
   *     {@link CeOperation#indexed() indexed} commands
   */
  void reset(CeOperation op, CeRounding rounding, boolean twoOperands) {
    checkArgument(op != null, "op must not be null");
    checkArgument(rounding != null, "rounding must not be null");
    this.op = op;
    this.rounding = rounding;
    this.twoOperands = twoOperands || op.indexed();
    this.empty = true;
    this.result1 = 0;
    this.result2 = 0;
    this.fpe = 0;
  }

  /**
   * Folds one contribution in; the first contribution after reset is taken as is (not combined with an identity).
   *
   * @param operand1 the first operand (the value, for indexed commands)
   * @param operand2 the second operand (the index, for indexed commands); ignored without two operands
   * @param fpeIn FPE flags the contribution already carries (an intermediate result from a child channel), ORed
   *     into the accumulated flags; {@link CeFpe} bits only
   * @throws IllegalStateException before the first {@link #reset}
   * @throws IllegalArgumentException if {@code fpeIn} has a bit outside 0xF
   */
  void add(long operand1, long operand2, int fpeIn) {
    if (op == null) {
      throw new IllegalStateException("add before reset: a CE accumulator must be reset with an operation first");
    }
    CeFpe.check(fpeIn);
    fpe |= fpeIn;
    if (empty) {
      empty = false;
      result1 = operand1;
      result2 = twoOperands ? operand2 : 0;
      if (op.floatingPoint() && op.indexed() && Double.isNaN(Double.longBitsToDouble(operand1))) {
        fpe |= CeFpe.INVALID;
      }
      return;
    }
    switch (op) {
      case AND:
        result1 &= operand1;
        if (twoOperands) {
          result2 &= operand2;
        }
        break;
      case OR:
        result1 |= operand1;
        if (twoOperands) {
          result2 |= operand2;
        }
        break;
      case XOR:
        result1 ^= operand1;
        if (twoOperands) {
          result2 ^= operand2;
        }
        break;
      case IADD:
        result1 += operand1;
        if (twoOperands) {
          result2 += operand2;
        }
        break;
      case FPADD:
        result1 = fpAdd(result1, operand1);
        if (twoOperands) {
          result2 = fpAdd(result2, operand2);
        }
        break;
      case IMIN_LIDX:
      case IMIN_GIDX:
      case IMAX_LIDX:
      case IMAX_GIDX:
        if (wins(Long.compare(operand1, result1), operand2)) {
          result1 = operand1;
          result2 = operand2;
        }
        break;
      case FPMIN_LIDX:
      case FPMIN_GIDX:
      case FPMAX_LIDX:
      case FPMAX_GIDX:
        fpMinMax(operand1, operand2);
        break;
      default:
        throw new AssertionError(op);
    }
  }

  /** Whether no contribution was added since the last reset (or ever). */
  boolean empty() {
    return empty;
  }

  /** The first result (the value, for indexed commands); 0 while {@link #empty()}. */
  long result1() {
    return result1;
  }

  /** The second result (the index, for indexed commands; 0 without two operands or while {@link #empty()}). */
  long result2() {
    return result2;
  }

  /** The accumulated {@link CeFpe} flags of this reduction. */
  int fpe() {
    return fpe;
  }

  /** The command of this reduction, or null before the first reset. */
  CeOperation operation() {
    return op;
  }

  /** The rounding mode of this reduction, or null before the first reset. */
  CeRounding rounding() {
    return rounding;
  }

  /** Whether operand 2 is folded: as reset was told, or always for indexed commands. */
  boolean twoOperands() {
    return twoOperands;
  }

  /**
   * Whether a contribution replaces the kept one.
   *
   * @param cmp the contribution's value compared with the kept value (negative: less)
   * @param index the contribution's index
   */
  private boolean wins(int cmp, long index) {
    if (cmp != 0) {
      return op.minimum() ? cmp < 0 : cmp > 0;
    }
    return op.greatestIndex() ? index > result2 : index < result2;
  }

  private void fpMinMax(long valueBits, long index) {
    double kept = Double.longBitsToDouble(result1);
    if (Double.isNaN(kept)) {
      // The first NaN stays; INVALID was set when it came in.
      return;
    }
    double value = Double.longBitsToDouble(valueBits);
    if (Double.isNaN(value)) {
      fpe |= CeFpe.INVALID;
      result1 = valueBits;
      result2 = index;
      return;
    }
    // Not Double.compare: that orders -0.0 below +0.0, and the model's CE compares them equal (assumed, class
    // javadoc; the AMO unit's FPMIN, Math.min, does order them).
    int cmp = value < kept ? -1 : value > kept ? 1 : 0;
    if (wins(cmp, index)) {
      result1 = valueBits;
      result2 = index;
    }
  }

  /** One rounded double addition, {@code aBits + bBits}, ORing its flags into {@link #fpe}. */
  private long fpAdd(long aBits, long bBits) {
    double a = Double.longBitsToDouble(aBits);
    double b = Double.longBitsToDouble(bBits);
    if (Double.isNaN(a) || Double.isNaN(b)) {
      // IEEE 754 §7.2: a signalling NaN operand is an invalid operation; the result is a quiet NaN (§6.2.3: the
      // first NaN's payload, its quiet bit set). A quiet NaN alone propagates unchanged, with no flag.
      if (signalling(aBits) || signalling(bBits)) {
        fpe |= CeFpe.INVALID;
      }
      return (Double.isNaN(a) ? aBits : bBits) | QUIET_BIT;
    }
    double s = a + b;
    if (Double.isNaN(s)) {
      fpe |= CeFpe.INVALID;
      return CANONICAL_NAN;
    }
    if (Double.isInfinite(a) || Double.isInfinite(b)) {
      return Double.doubleToRawLongBits(s);
    }
    if (s == 0.0) {
      // Sums in the subnormal range are exact, so a zero sum is an exact zero: its sign is IEEE 754's rule.
      boolean negative = rounding == CeRounding.DOWN ? aBits != 0 || bBits != 0 : aBits < 0 && bBits < 0;
      return negative ? Long.MIN_VALUE : 0L;
    }
    double r;
    if (Double.isInfinite(s)) {
      // The exact sum is at least MAX_VALUE + ulp/2 in magnitude, so both operands are at least 2^970 in magnitude
      // and halving them is exact; rounding the halved sum is rounding the sum with one more exponent bit.
      double ha = a * 0.5;
      double hb = b * 0.5;
      double hs = ha + hb;
      r = directed(hs, twoSumError(ha, hb, hs)) * 2.0;
      fpe |= CeFpe.INEXACT;
    } else {
      double err = twoSumError(a, b, s);
      if (Double.isNaN(err) || Double.isInfinite(err)) {
        // TwoSum's s - a overflowed (operands of opposite signs near MAX_VALUE: a CI run's property test found
        // -1.67 x 2^1022 + MAX_VALUE rounded DOWN one ulp high, the NaN error read as none). Both operands are then
        // at least 2^970 in magnitude, so halving them is exact and so is doubling the halved sum's error.
        double ha = a * 0.5;
        double hb = b * 0.5;
        err = twoSumError(ha, hb, ha + hb) * 2.0;
      }
      r = directed(s, err);
      if (err != 0.0) {
        fpe |= CeFpe.INEXACT;
        if (r != 0.0 && Math.abs(r) < Double.MIN_NORMAL) {
          fpe |= CeFpe.UNDERFLOW;
        }
      }
    }
    if (Double.isInfinite(r)) {
      fpe |= CeFpe.OVERFLOW | CeFpe.INEXACT;
      r = overflowed(r > 0);
    }
    return Double.doubleToRawLongBits(r);
  }

  /** Whether the bits are a signalling NaN: a NaN whose quiet bit is clear. */
  private static boolean signalling(long bits) {
    return Double.isNaN(Double.longBitsToDouble(bits)) && (bits & QUIET_BIT) == 0;
  }

  /** The exact error of {@code s = a + b} (Knuth's TwoSum); valid when {@code s} is finite. */
  private static double twoSumError(double a, double b, double s) {
    double bv = s - a;
    double av = s - bv;
    return (a - av) + (b - bv);
  }

  /** The exact sum {@code s + err} (s its nearest double) rounded by this reduction's mode. */
  private double directed(double s, double err) {
    switch (rounding) {
      case UP:
        return err > 0 ? Math.nextUp(s) : s;
      case DOWN:
        return err < 0 ? Math.nextDown(s) : s;
      case TOWARD_ZERO:
        return s > 0 && err < 0 ? Math.nextDown(s) : s < 0 && err > 0 ? Math.nextUp(s) : s;
      case NEAREST:
        return s;
      default:
        throw new AssertionError(rounding);
    }
  }

  /** The result of an overflowed sum of the given sign: IEEE 754's rule for this reduction's mode. */
  private double overflowed(boolean positive) {
    switch (rounding) {
      case NEAREST:
        return positive ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
      case UP:
        return positive ? Double.POSITIVE_INFINITY : -Double.MAX_VALUE;
      case DOWN:
        return positive ? Double.MAX_VALUE : Double.NEGATIVE_INFINITY;
      case TOWARD_ZERO:
        return positive ? Double.MAX_VALUE : -Double.MAX_VALUE;
      default:
        throw new AssertionError(rounding);
    }
  }
}
