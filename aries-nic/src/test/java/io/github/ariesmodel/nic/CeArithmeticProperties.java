package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The collective engine's arithmetic agrees with independent references: FPADD with exact BigDecimal sums rounded
 * as IEEE 754 says, the bitwise and integer folds with plain Java in any order, min/max with a brute-force search,
 * and a reset accumulator with a fresh one.
 */
class CeArithmeticProperties {

  private static final BigDecimal MAX = new BigDecimal(Double.MAX_VALUE);
  /** 2^1024: the next double above MAX_VALUE if the exponent were unbounded. */
  private static final BigDecimal TWO_POW_1024 = new BigDecimal(2).pow(1024);
  /** MAX_VALUE + ulp(MAX_VALUE)/2: from here on, nearest-even rounds to 2^1024. */
  private static final BigDecimal NEAREST_OVERFLOW = MAX.add(new BigDecimal(0x1p970));

  private static final double[] EDGES = {0.0, -0.0, 1.0, -1.0, 0x1p-60, -0x1p-60, 0.1, 3.0, Double.MIN_VALUE,
      -Double.MIN_VALUE, Double.MIN_NORMAL, -Double.MIN_NORMAL, Math.nextDown(Double.MIN_NORMAL), Double.MAX_VALUE,
      -Double.MAX_VALUE, Math.nextDown(Double.MAX_VALUE), 0x1p970, -0x1p970, 0x1p1023, 0x1p-1074 * 3, 1.0 + 0x1p-52};

  private static long bits(double d) {
    return Double.doubleToRawLongBits(d);
  }

  private static double finite(long bits) {
    double d = Double.longBitsToDouble(bits);
    // Infinity and NaN have the all-ones exponent; clearing its top bit keeps the random mantissa and sign.
    return Double.isFinite(d) ? d : Double.longBitsToDouble(bits & ~0x4000_0000_0000_0000L);
  }

  /** A finite double: an edge, uniform bits, or a value near {@code near}'s exponent (to make rounding matter). */
  private static double operand(int kind, long random, int shift, double near) {
    if (kind < EDGES.length) {
      return EDGES[kind];
    }
    if (kind % 2 == 0) {
      return finite(random);
    }
    long exponent = Math.max(0, Math.min(0x7fe, ((bits(near) >>> 52) & 0x7ff) + shift));
    return Double.longBitsToDouble((random & 0x800f_ffff_ffff_ffffL) | exponent << 52);
  }

  /** Pairs of finite doubles; the second is often within a few dozen binades of the first. */
  private static Gen<double[]> finitePairs() {
    Gen<Integer> kind = integers().between(0, EDGES.length + 40);
    return kind.zip(longs().all(), kind, longs().all(), integers().between(-60, 60), (ka, ra, kb, rb, shift) -> {
      double a = operand(ka, ra, 0, 1.0);
      return new double[] {a, operand(kb, rb, shift, a)};
    });
  }

  private static RoundingMode javaMode(CeRounding r) {
    return switch (r) {
      case UP -> RoundingMode.CEILING;
      case DOWN -> RoundingMode.FLOOR;
      case NEAREST -> RoundingMode.HALF_EVEN;
      case TOWARD_ZERO -> RoundingMode.DOWN;
    };
  }

  /** The largest double not above x, for |x| at most MAX_VALUE, found by exact comparisons. */
  static double floorDouble(BigDecimal x) {
    double g = x.doubleValue();
    if (Double.isInfinite(g)) {
      g = Math.copySign(Double.MAX_VALUE, g);
    }
    while (new BigDecimal(g).compareTo(x) > 0) {
      g = Math.nextDown(g);
    }
    while (g != Double.MAX_VALUE && new BigDecimal(Math.nextUp(g)).compareTo(x) <= 0) {
      g = Math.nextUp(g);
    }
    return g;
  }

  /** x (|x| at most MAX_VALUE, non-zero) rounded to a double by a java.math rounding mode. */
  static double round(BigDecimal x, RoundingMode mode) {
    double below = floorDouble(x);
    if (new BigDecimal(below).compareTo(x) == 0) {
      return below;
    }
    double above = Math.nextUp(below);
    switch (mode) {
      case CEILING:
        return above;
      case FLOOR:
        return below;
      case DOWN:
        return x.signum() > 0 ? below : above;
      case HALF_EVEN: {
        int c = x.subtract(new BigDecimal(below)).compareTo(new BigDecimal(above).subtract(x));
        if (c != 0) {
          return c < 0 ? below : above;
        }
        return (bits(below) & 1) == 0 ? below : above;
      }
      default:
        throw new AssertionError(mode);
    }
  }

  /** IEEE 754 §6.3: an exact zero sum is -0.0 if both operands are -0.0, or if any is not +0.0 when rounding down. */
  private static double zeroSum(double a, double b, CeRounding r) {
    boolean bothNegativeZero = bits(a) == bits(-0.0) && bits(b) == bits(-0.0);
    boolean bothPositiveZero = bits(a) == 0 && bits(b) == 0;
    return bothNegativeZero || (r == CeRounding.DOWN && !bothPositiveZero) ? -0.0 : 0.0;
  }

  private static CeAccumulator fpadd(CeRounding r, double a, double b) {
    CeAccumulator acc = new CeAccumulator();
    acc.reset(CeOperation.FPADD, r, false);
    acc.add(bits(a), 0, 0);
    acc.add(bits(b), 0, 0);
    return acc;
  }

  // ---- (a) FPADD against exact sums ----

  /**
   * Found by a CI run of the property below (seed 5741392453439): TwoSum's error term overflowed for operands of
   * opposite signs near MAX_VALUE, and DOWN and TOWARD_ZERO kept the nearest sum, one ulp high.
   */
  @Test
  void fpaddNearMaxValueWithOppositeSignsRoundsByTheMode() {
    double a = -0x1.671f6068fb74fp1022;
    double b = Double.MAX_VALUE;
    BigDecimal exact = new BigDecimal(a).add(new BigDecimal(b));
    for (CeRounding r : CeRounding.values()) {
      double expected = round(exact, javaMode(r));
      CeAccumulator acc = fpadd(r, a, b);
      assertThat(Double.longBitsToDouble(acc.result1())).as("%s", r).isEqualTo(expected);
      assertThat(acc.fpe()).as("%s", r).isEqualTo(CeFpe.INEXACT);
    }
    assertThat(Double.longBitsToDouble(fpadd(CeRounding.DOWN, a, b).result1())).isEqualTo(0x1.4c704fcb82457p1023);
  }

  @Test
  void fpaddIsTheExactSumRoundedByTheChannelsMode() {
    qt().withExamples(4000).forAll(finitePairs(), Generate.enumValues(CeRounding.class)).check((p, r) -> {
      double a = p[0];
      double b = p[1];
      BigDecimal exact = new BigDecimal(a).add(new BigDecimal(b));
      if (exact.abs().compareTo(MAX) > 0) {
        return true; // overflow: the next property
      }
      double expected = exact.signum() == 0 ? zeroSum(a, b, r) : round(exact, javaMode(r));
      boolean inexact = new BigDecimal(expected).compareTo(exact) != 0;
      CeAccumulator acc = fpadd(r, a, b);
      return acc.result1() == bits(expected) && acc.fpe() == (inexact ? CeFpe.INEXACT : 0);
    });
  }

  @Test
  void fpaddOverflowFollowsIeee754() {
    // Same-sign operands of at least 2^1022 (the first) and 2^969 (the second), so that many sums pass MAX_VALUE;
    // half of them within a few ulps of MAX_VALUE plus about 2^970, where each mode draws its own line.
    Gen<double[]> large = longs().all().zip(longs().all(), integers().between(0, 54), booleans().all(),
        (x, y, shift, negative) -> {
          boolean edge = (y & 1) == 0;
          double a = edge ? Double.longBitsToDouble(bits(Double.MAX_VALUE) - (x & 3))
              : Double.longBitsToDouble((x & 0x000f_ffff_ffff_ffffL) | (0x7fdL + (x >>> 63)) << 52);
          long bExponent = edge ? 0x7fe - 52 - 2 + shift % 3 : 0x7feL - shift;
          long bMantissa = edge && (x & 4) == 0 ? (y >>> 1) & 3 : y & 0x000f_ffff_ffff_ffffL;
          double b = Double.longBitsToDouble(bMantissa | bExponent << 52);
          return negative ? new double[] {-a, -b} : new double[] {a, b};
        });
    qt().withExamples(3000).forAll(large, Generate.enumValues(CeRounding.class)).check((p, r) -> {
      BigDecimal exact = new BigDecimal(p[0]).add(new BigDecimal(p[1]));
      if (exact.abs().compareTo(MAX) <= 0) {
        return true;
      }
      boolean positive = exact.signum() > 0;
      boolean awayFromZero = r == CeRounding.UP && positive || r == CeRounding.DOWN && !positive;
      // Overflow: the sum rounded with an unbounded exponent is above MAX_VALUE in magnitude.
      boolean overflow = r == CeRounding.NEAREST ? exact.abs().compareTo(NEAREST_OVERFLOW) >= 0
          : awayFromZero || exact.abs().compareTo(TWO_POW_1024) >= 0;
      double magnitude = overflow && (r == CeRounding.NEAREST || awayFromZero) ? Double.POSITIVE_INFINITY
          : Double.MAX_VALUE;
      double expected = positive ? magnitude : -magnitude;
      CeAccumulator acc = fpadd(r, p[0], p[1]);
      return acc.result1() == bits(expected)
          && acc.fpe() == (CeFpe.INEXACT | (overflow ? CeFpe.OVERFLOW : 0));
    });
  }

  // ---- (b) order-free folds ----

  private static final CeOperation[] FOLDS = {CeOperation.AND, CeOperation.OR, CeOperation.XOR, CeOperation.IADD};

  private static long fold(CeOperation op, long x, long y) {
    return switch (op) {
      case AND -> x & y;
      case OR -> x | y;
      case XOR -> x ^ y;
      case IADD -> x + y;
      default -> throw new AssertionError(op);
    };
  }

  /** Contributions: {operand1, operand2, fpeIn}. */
  private static Gen<List<long[]>> contributions(Gen<Long> operand1, Gen<Long> operand2, int minSize) {
    Gen<long[]> one = operand1.zip(operand2, integers().between(0, 15), (x, y, f) -> new long[] {x, y, f});
    return lists().of(one).ofSizeBetween(minSize, 40);
  }

  private static CeAccumulator run(CeAccumulator acc, List<long[]> items) {
    for (long[] c : items) {
      acc.add(c[0], c[1], (int) c[2]);
    }
    return acc;
  }

  private static CeAccumulator run(CeOperation op, CeRounding r, boolean two, List<long[]> items) {
    CeAccumulator acc = new CeAccumulator();
    acc.reset(op, r, two);
    return run(acc, items);
  }

  @Test
  void bitwiseAndIntegerFoldsAreOrderFreeAndMatchJava() {
    Gen<Long> wide = longs().all().mix(longs().between(-3, 3), 30);
    qt().withExamples(1500)
        .forAll(integers().between(0, FOLDS.length - 1), booleans().all(), contributions(wide, wide, 1), longs().all())
        .check((i, two, items, seed) -> {
          CeOperation op = FOLDS[i];
          long r1 = items.get(0)[0];
          long r2 = two ? items.get(0)[1] : 0;
          int flags = (int) items.get(0)[2];
          for (long[] c : items.subList(1, items.size())) {
            r1 = fold(op, r1, c[0]);
            r2 = two ? fold(op, r2, c[1]) : 0;
            flags |= (int) c[2];
          }
          List<long[]> shuffled = new ArrayList<>(items);
          Collections.shuffle(shuffled, new Random(seed));
          CeAccumulator inOrder = run(op, CeRounding.NEAREST, two, items);
          CeAccumulator reordered = run(op, CeRounding.DOWN, two, shuffled);
          return inOrder.result1() == r1 && inOrder.result2() == r2 && inOrder.fpe() == flags
              && reordered.result1() == r1 && reordered.result2() == r2 && reordered.fpe() == flags;
        });
  }

  // ---- (c) min/max against a brute-force search ----

  private static final CeOperation[] INDEXED = {CeOperation.IMIN_LIDX, CeOperation.IMAX_LIDX, CeOperation.IMIN_GIDX,
      CeOperation.IMAX_GIDX, CeOperation.FPMIN_LIDX, CeOperation.FPMAX_LIDX, CeOperation.FPMIN_GIDX,
      CeOperation.FPMAX_GIDX};

  /**
   * Palettes of values, a prefix of which each example draws from: with a short prefix every list is full of ties
   * (only the two zeros, say, which compare equal). FP lists also get a NaN now and then.
   */
  private static final double[] FP_VALUES = {-0.0, 0.0, 1.0, -1.0, Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY, 0x1p-1074, 2.0, -2.0};
  private static final long[] INT_VALUES = {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE, 2, -2};

  private static long value(boolean fp, long draw, int palette) {
    if (!fp) {
      return INT_VALUES[Math.floorMod(draw, Math.min(palette, INT_VALUES.length))];
    }
    int k = Math.floorMod(draw, palette * 8 + 1);
    return k == palette * 8 ? 0x7ff8_0000_0000_0000L | Math.floorMod(draw, 1000) : bits(FP_VALUES[k / 8]);
  }

  /** The brute-force reference: {value, index, fpe}. */
  private static long[] bruteForce(CeOperation op, List<long[]> items) {
    boolean fp = op.floatingPoint();
    boolean min = op == CeOperation.IMIN_LIDX || op == CeOperation.IMIN_GIDX || op == CeOperation.FPMIN_LIDX
        || op == CeOperation.FPMIN_GIDX;
    boolean greatest = op == CeOperation.IMIN_GIDX || op == CeOperation.IMAX_GIDX || op == CeOperation.FPMIN_GIDX
        || op == CeOperation.FPMAX_GIDX;
    int carried = 0;
    for (long[] c : items) {
      carried |= (int) c[2];
    }
    if (fp) {
      for (long[] c : items) {
        if (Double.isNaN(Double.longBitsToDouble(c[0]))) {
          return new long[] {c[0], c[1], carried | CeFpe.INVALID};
        }
      }
    }
    // The best value, as a number: -0.0 and +0.0 are the same number.
    BigDecimal best = null;
    for (long[] c : items) {
      BigDecimal v = number(fp, c[0]);
      if (best == null || (min ? v.compareTo(best) < 0 : v.compareTo(best) > 0)) {
        best = v;
      }
    }
    Long bestIndex = null;
    for (long[] c : items) {
      if (number(fp, c[0]).compareTo(best) == 0
          && (bestIndex == null || (greatest ? c[1] > bestIndex : c[1] < bestIndex))) {
        bestIndex = c[1];
      }
    }
    for (long[] c : items) {
      if (number(fp, c[0]).compareTo(best) == 0 && c[1] == bestIndex) {
        return new long[] {c[0], c[1], carried}; // the first with the winning value and index
      }
    }
    throw new AssertionError();
  }

  /** A value as a number; infinities as numbers beyond every double. */
  private static BigDecimal number(boolean fp, long v) {
    if (!fp) {
      return BigDecimal.valueOf(v);
    }
    double d = Double.longBitsToDouble(v);
    return Double.isInfinite(d) ? TWO_POW_1024.multiply(BigDecimal.valueOf(d > 0 ? 2 : -2)) : new BigDecimal(d);
  }

  @Test
  void minMaxMatchABruteForceSearchWithManyTies() {
    Gen<Integer> opAndPalette = integers().between(0, INDEXED.length * FP_VALUES.length - 1);
    qt().withExamples(4000)
        .forAll(opAndPalette, booleans().all(), contributions(longs().all(), longs().between(-4, 4), 1),
            integers().between(0, 3))
        .check((k, two, draws, flagsEvery) -> {
          CeOperation op = INDEXED[k % INDEXED.length];
          int palette = 1 + k / INDEXED.length;
          List<long[]> items = new ArrayList<>();
          for (long[] d : draws) {
            items.add(new long[] {value(op.floatingPoint(), d[0], palette), d[1], flagsEvery == 0 ? d[2] : 0});
          }
          long[] expected = bruteForce(op, items);
          CeAccumulator acc = run(op, CeRounding.NEAREST, two, items);
          return acc.result1() == expected[0] && acc.result2() == expected[1] && acc.fpe() == expected[2]
              && acc.twoOperands();
        });
  }

  // ---- (d) reset forgets ----

  @Test
  void resetForgetsThePreviousReduction() {
    Gen<Long> mixed = longs().all().mix(longs().between(-3, 3), 30)
        .mix(Generate.pick(List.of(bits(Double.NaN), bits(Double.POSITIVE_INFINITY), bits(Double.NEGATIVE_INFINITY),
            bits(Double.MAX_VALUE), bits(-0.0), bits(1.0), bits(0x1p-60))), 30);
    Gen<CeOperation> ops = Generate.enumValues(CeOperation.class);
    Gen<CeRounding> roundings = Generate.enumValues(CeRounding.class);
    Gen<Object[]> reductions = ops.zip(roundings, booleans().all(), contributions(mixed, mixed, 0),
        (op, r, two, items) -> new Object[] {op, r, two, items});
    qt().withExamples(1500).forAll(reductions, reductions).check((first, second) -> {
      CeAccumulator reused = new CeAccumulator();
      reused.reset((CeOperation) first[0], (CeRounding) first[1], (Boolean) first[2]);
      run(reused, items(first));
      reused.reset((CeOperation) second[0], (CeRounding) second[1], (Boolean) second[2]);
      run(reused, items(second));
      CeAccumulator fresh = run((CeOperation) second[0], (CeRounding) second[1], (Boolean) second[2], items(second));
      return reused.result1() == fresh.result1() && reused.result2() == fresh.result2()
          && reused.fpe() == fresh.fpe() && reused.empty() == fresh.empty() && reused.empty() == items(second).isEmpty()
          && reused.twoOperands() == fresh.twoOperands() && reused.operation() == second[0];
    });
  }

  @SuppressWarnings("unchecked")
  private static List<long[]> items(Object[] reduction) {
    return (List<long[]>) reduction[3];
  }
}
