package io.github.ariesmodel.nic;

import static io.github.ariesmodel.nic.CeFpe.INEXACT;
import static io.github.ariesmodel.nic.CeFpe.INVALID;
import static io.github.ariesmodel.nic.CeFpe.OVERFLOW;
import static io.github.ariesmodel.nic.CeFpe.UNDERFLOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** Examples of the collective engine's arithmetic: every command, rounding mode and flag, and the code tables. */
class CeArithmeticTest {

  private static final double MAX = Double.MAX_VALUE;
  private static final double TINY = 0x1p-60;

  static long bits(double d) {
    return Double.doubleToRawLongBits(d);
  }

  /** A reduction of (operand, index) pairs, one accumulator (shared with {@link CeNanAndTieRulesTest}). */
  static CeAccumulator reduce(CeOperation op, CeRounding r, boolean two, long... pairs) {
    CeAccumulator acc = new CeAccumulator();
    acc.reset(op, r, two);
    for (int i = 0; i < pairs.length; i += 2) {
      acc.add(pairs[i], pairs[i + 1], 0);
    }
    return acc;
  }

  /** FPADD of a and b, one operand. */
  private static CeAccumulator fpadd(CeRounding r, double a, double b) {
    return reduce(CeOperation.FPADD, r, false, bits(a), 0, bits(b), 0);
  }

  private static void assertSum(CeRounding r, double a, double b, double expected, int fpe) {
    CeAccumulator acc = fpadd(r, a, b);
    assertThat(acc.result1()).as("%s + %s under %s", a, b, r).isEqualTo(bits(expected));
    assertThat(CeFpe.describe(acc.fpe())).as("flags of %s + %s under %s", a, b, r).isEqualTo(CeFpe.describe(fpe));
  }

  // ---- integer and bitwise commands ----

  @Test
  void bitwiseCommandsFoldOperandOneAndIgnoreOperandTwoWithOneOperand() {
    assertThat(reduce(CeOperation.AND, CeRounding.NEAREST, false, 0b1110, 7, 0b0111, 9).result1()).isEqualTo(0b0110);
    assertThat(reduce(CeOperation.OR, CeRounding.NEAREST, false, 0b1000, 7, 0b0001, 9).result1()).isEqualTo(0b1001);
    CeAccumulator xor = reduce(CeOperation.XOR, CeRounding.NEAREST, false, 0b1100, 7, 0b1010, 9);
    assertThat(xor.result1()).isEqualTo(0b0110);
    assertThat(xor.result2()).isZero();
    assertThat(xor.twoOperands()).isFalse();
    assertThat(xor.fpe()).isZero();
  }

  @Test
  void twoOperandModeFoldsBothElementWise() {
    CeAccumulator and = reduce(CeOperation.AND, CeRounding.NEAREST, true, 0b1110, 0xF0, 0b0111, 0x3C);
    assertThat(and.result1()).isEqualTo(0b0110);
    assertThat(and.result2()).isEqualTo(0x30);
    CeAccumulator or = reduce(CeOperation.OR, CeRounding.NEAREST, true, 1, 2, 4, 8, 16, 32);
    assertThat(or.result1()).isEqualTo(21);
    assertThat(or.result2()).isEqualTo(42);
    CeAccumulator xor = reduce(CeOperation.XOR, CeRounding.NEAREST, true, 3, -1, 5, -1);
    assertThat(xor.result1()).isEqualTo(6);
    assertThat(xor.result2()).isZero();
    CeAccumulator add = reduce(CeOperation.IADD, CeRounding.NEAREST, true, 1, 10, 2, 20, 3, 30);
    assertThat(add.result1()).isEqualTo(6);
    assertThat(add.result2()).isEqualTo(60);
  }

  @Test
  void iaddWrapsWithoutAFlag() {
    CeAccumulator acc = reduce(CeOperation.IADD, CeRounding.NEAREST, true, Long.MAX_VALUE, Long.MIN_VALUE, 1, -1);
    assertThat(acc.result1()).isEqualTo(Long.MIN_VALUE);
    assertThat(acc.result2()).isEqualTo(Long.MAX_VALUE);
    assertThat(acc.fpe()).isZero();
    assertThat(reduce(CeOperation.IADD, CeRounding.UP, false, -1, 0, -1, 0, 2, 0).result1()).isZero();
  }

  @Test
  void theFirstContributionIsTakenAsIs() {
    assertThat(reduce(CeOperation.AND, CeRounding.NEAREST, true, 0x1234, -5).result1()).isEqualTo(0x1234);
    assertThat(reduce(CeOperation.AND, CeRounding.NEAREST, true, 0x1234, -5).result2()).isEqualTo(-5);
    // -0.0 alone stays -0.0: it is not added to a +0.0 identity.
    assertThat(fpadd(CeRounding.NEAREST, -0.0, -0.0).result1()).isEqualTo(bits(-0.0));
    assertThat(reduce(CeOperation.FPADD, CeRounding.NEAREST, false, bits(-0.0), 0).result1()).isEqualTo(bits(-0.0));
  }

  // ---- FPADD rounding ----

  @Test
  void eachRoundingOfOnePlusATinyValue() {
    assertSum(CeRounding.NEAREST, 1.0, TINY, 1.0, INEXACT);
    assertSum(CeRounding.UP, 1.0, TINY, Math.nextUp(1.0), INEXACT);
    assertSum(CeRounding.DOWN, 1.0, TINY, 1.0, INEXACT);
    assertSum(CeRounding.TOWARD_ZERO, 1.0, TINY, 1.0, INEXACT);
  }

  @Test
  void eachRoundingOfMinusOneMinusATinyValue() {
    assertSum(CeRounding.NEAREST, -1.0, -TINY, -1.0, INEXACT);
    assertSum(CeRounding.UP, -1.0, -TINY, -1.0, INEXACT);
    assertSum(CeRounding.DOWN, -1.0, -TINY, Math.nextDown(-1.0), INEXACT);
    assertSum(CeRounding.TOWARD_ZERO, -1.0, -TINY, -1.0, INEXACT);
  }

  @Test
  void eachRoundingOfATinyValueTakenFromOne() {
    // Below a power of two the gap is half an ulp: nextDown(1.0) = 1 - 2^-53.
    assertSum(CeRounding.NEAREST, 1.0, -TINY, 1.0, INEXACT);
    assertSum(CeRounding.UP, 1.0, -TINY, 1.0, INEXACT);
    assertSum(CeRounding.DOWN, 1.0, -TINY, 1.0 - 0x1p-53, INEXACT);
    assertSum(CeRounding.TOWARD_ZERO, 1.0, -TINY, 1.0 - 0x1p-53, INEXACT);
    assertSum(CeRounding.UP, -1.0, TINY, -1.0 + 0x1p-53, INEXACT);
    assertSum(CeRounding.TOWARD_ZERO, -1.0, TINY, -1.0 + 0x1p-53, INEXACT);
    assertSum(CeRounding.DOWN, -1.0, TINY, -1.0, INEXACT);
  }

  @Test
  void exactSumsAreExactInEveryModeAndTiesGoToEven() {
    for (CeRounding r : CeRounding.values()) {
      assertSum(r, 0.5, 0.25, 0.75, 0);
      assertSum(r, Double.MIN_VALUE, Double.MIN_VALUE, 2 * Double.MIN_VALUE, 0);
      assertSum(r, Double.MIN_NORMAL, -Double.MIN_VALUE, Math.nextDown(Double.MIN_NORMAL), 0);
    }
    // 1 + 2^-53 is halfway between 1 and 1 + 2^-52: to even (1.0); 1 + 3*2^-53 is halfway too: to 1 + 2^-51.
    assertSum(CeRounding.NEAREST, 1.0, 0x1p-53, 1.0, INEXACT);
    assertSum(CeRounding.NEAREST, 1.0 + 0x1p-52, 0x1p-53, 1.0 + 0x1p-51, INEXACT);
    assertSum(CeRounding.UP, 1.0, 0x1p-53, 1.0 + 0x1p-52, INEXACT);
  }

  @Test
  void overflowOfLargeSumsInEachMode() {
    assertSum(CeRounding.NEAREST, MAX, MAX, Double.POSITIVE_INFINITY, OVERFLOW | INEXACT);
    assertSum(CeRounding.UP, MAX, MAX, Double.POSITIVE_INFINITY, OVERFLOW | INEXACT);
    assertSum(CeRounding.DOWN, MAX, MAX, MAX, OVERFLOW | INEXACT);
    assertSum(CeRounding.TOWARD_ZERO, MAX, MAX, MAX, OVERFLOW | INEXACT);
    assertSum(CeRounding.NEAREST, -MAX, -MAX, Double.NEGATIVE_INFINITY, OVERFLOW | INEXACT);
    assertSum(CeRounding.UP, -MAX, -MAX, -MAX, OVERFLOW | INEXACT);
    assertSum(CeRounding.DOWN, -MAX, -MAX, Double.NEGATIVE_INFINITY, OVERFLOW | INEXACT);
    assertSum(CeRounding.TOWARD_ZERO, -MAX, -MAX, -MAX, OVERFLOW | INEXACT);
  }

  @Test
  void sumsJustAboveMaxOverflowOnlyWhereIeeeSaysSo() {
    // MAX + 2^970 is the midpoint between MAX and 2^1024: nearest-even rounds it up, so it overflows.
    assertSum(CeRounding.NEAREST, MAX, 0x1p970, Double.POSITIVE_INFINITY, OVERFLOW | INEXACT);
    assertSum(CeRounding.UP, MAX, 0x1p970, Double.POSITIVE_INFINITY, OVERFLOW | INEXACT);
    assertSum(CeRounding.DOWN, MAX, 0x1p970, MAX, INEXACT);
    assertSum(CeRounding.TOWARD_ZERO, MAX, 0x1p970, MAX, INEXACT);
    assertSum(CeRounding.UP, -MAX, -0x1p970, -MAX, INEXACT);
    assertSum(CeRounding.DOWN, -MAX, -0x1p970, Double.NEGATIVE_INFINITY, OVERFLOW | INEXACT);
    // MAX + 2^960 rounds to MAX to nearest; only rounding up overflows.
    assertSum(CeRounding.NEAREST, MAX, 0x1p960, MAX, INEXACT);
    assertSum(CeRounding.UP, MAX, 0x1p960, Double.POSITIVE_INFINITY, OVERFLOW | INEXACT);
    assertSum(CeRounding.DOWN, MAX, 0x1p960, MAX, INEXACT);
    assertSum(CeRounding.TOWARD_ZERO, -MAX, -0x1p960, -MAX, INEXACT);
    assertSum(CeRounding.DOWN, -MAX, -0x1p960, Double.NEGATIVE_INFINITY, OVERFLOW | INEXACT);
  }

  @Test
  void infinities() {
    for (CeRounding r : CeRounding.values()) {
      assertSum(r, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, INVALID);
      assertThat(fpadd(r, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY).result1())
          .isEqualTo(CeAccumulator.CANONICAL_NAN);
      assertSum(r, Double.POSITIVE_INFINITY, 1.0, Double.POSITIVE_INFINITY, 0);
      assertSum(r, -MAX, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, 0);
      assertSum(r, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, 0);
    }
  }

  @Test
  void signedZeros() {
    for (CeRounding r : CeRounding.values()) {
      assertSum(r, -0.0, -0.0, -0.0, 0);
      assertSum(r, 0.0, 0.0, 0.0, 0);
      double cancelled = r == CeRounding.DOWN ? -0.0 : 0.0;
      assertSum(r, 1.5, -1.5, cancelled, 0);
      assertSum(r, -MAX, MAX, cancelled, 0);
      assertSum(r, 0.0, -0.0, cancelled, 0);
      assertSum(r, -0.0, 0.0, cancelled, 0);
      assertSum(r, -0.0, 2.0, 2.0, 0);
    }
  }

  @Test
  void aQuietNanOperandPropagatesWithItsBitsAndNoFlag() {
    long payload = 0x7ff8_0000_0000_0123L;
    long negative = 0xfff8_0000_0000_0001L; // signalling NaNs: CeNanAndTieRulesTest
    for (CeRounding r : CeRounding.values()) {
      CeAccumulator acc = reduce(CeOperation.FPADD, r, false, bits(1.0), 0, payload, 0, bits(2.0), 0, negative, 0);
      assertThat(acc.result1()).isEqualTo(payload);
      assertThat(acc.fpe()).isZero();
      assertThat(reduce(CeOperation.FPADD, r, false, bits(Double.POSITIVE_INFINITY), 0, negative, 0).result1())
          .isEqualTo(negative);
    }
  }

  @Test
  void twoOperandFpaddRoundsEachElementAndSharesTheFlags() {
    CeAccumulator acc = new CeAccumulator();
    acc.reset(CeOperation.FPADD, CeRounding.UP, true);
    acc.add(bits(1.0), bits(MAX), 0);
    acc.add(bits(0.5), bits(MAX), 0);
    acc.add(bits(TINY), bits(1.0), 0);
    assertThat(acc.result1()).isEqualTo(bits(Math.nextUp(1.5)));
    assertThat(acc.result2()).isEqualTo(bits(Double.POSITIVE_INFINITY));
    assertThat(acc.fpe()).isEqualTo(OVERFLOW | INEXACT);
  }

  @Test
  void flagsCarriedByContributionsAreOred() {
    CeAccumulator acc = new CeAccumulator();
    acc.reset(CeOperation.FPADD, CeRounding.NEAREST, false);
    acc.add(bits(1.0), 0, UNDERFLOW);
    acc.add(bits(2.0), 0, 0);
    acc.add(bits(TINY), 0, INVALID);
    assertThat(acc.fpe()).isEqualTo(UNDERFLOW | INVALID | INEXACT);
    acc.reset(CeOperation.IMAX_GIDX, CeRounding.NEAREST, false);
    acc.add(1, 1, OVERFLOW);
    assertThat(acc.fpe()).isEqualTo(OVERFLOW);
    assertThatThrownBy(() -> acc.add(1, 1, 0x10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("flags must be in [0x0, 0xf] (GNI_CE_FPE_* bits) but was 0x10");
  }

  // ---- min/max with an index ----

  @Test
  void integerMinMaxKeepTheWinnerWithItsIndex() {
    long[] data = {5, 10, -3, 20, 7, 30, -3, 40, Long.MIN_VALUE + 1, 50, Long.MAX_VALUE, 60};
    assertThat(pair(reduce(CeOperation.IMIN_LIDX, CeRounding.NEAREST, true, data)))
        .containsExactly(Long.MIN_VALUE + 1, 50);
    assertThat(pair(reduce(CeOperation.IMAX_LIDX, CeRounding.NEAREST, true, data))).containsExactly(Long.MAX_VALUE, 60);
    assertThat(pair(reduce(CeOperation.IMIN_GIDX, CeRounding.NEAREST, true, 1, 0, -1, 0)))
        .as("signed compare").containsExactly(-1, 0);
  }

  @Test
  void lidxKeepsTheLowestIndexAndGidxTheGreatestAmongEqualValues() {
    long[] ties = {4, 7, 4, 2, 9, 1, 4, 11, 4, -5};
    assertThat(pair(reduce(CeOperation.IMIN_LIDX, CeRounding.NEAREST, true, ties))).containsExactly(4, -5);
    assertThat(pair(reduce(CeOperation.IMIN_GIDX, CeRounding.NEAREST, true, ties))).containsExactly(4, 11);
    assertThat(pair(reduce(CeOperation.IMAX_LIDX, CeRounding.NEAREST, true, ties))).containsExactly(9, 1);
    long[] maxTies = {9, 3, 9, 1, 9, 8};
    assertThat(pair(reduce(CeOperation.IMAX_LIDX, CeRounding.NEAREST, true, maxTies))).containsExactly(9, 1);
    assertThat(pair(reduce(CeOperation.IMAX_GIDX, CeRounding.NEAREST, true, maxTies))).containsExactly(9, 8);
  }

  @Test
  void indexedCommandsAlwaysTakeTwoOperands() {
    CeAccumulator acc = reduce(CeOperation.IMAX_GIDX, CeRounding.NEAREST, false, 3, 17, 2, 18);
    assertThat(acc.twoOperands()).isTrue();
    assertThat(pair(acc)).containsExactly(3, 17);
    assertThat(reduce(CeOperation.FPMIN_LIDX, CeRounding.NEAREST, false, bits(2.0), 5).result2()).isEqualTo(5);
  }

  @Test
  void floatingPointMinMaxCompareAsDoubles() {
    long[] data = {bits(1.5), 1, bits(-2.5), 2, bits(Double.POSITIVE_INFINITY), 3, bits(-0x1p-1070), 4};
    assertThat(pair(reduce(CeOperation.FPMIN_LIDX, CeRounding.NEAREST, true, data))).containsExactly(bits(-2.5), 2);
    assertThat(pair(reduce(CeOperation.FPMAX_GIDX, CeRounding.NEAREST, true, data)))
        .containsExactly(bits(Double.POSITIVE_INFINITY), 3);
    long[] ties = {bits(-1.0), 6, bits(-1.0), 2, bits(3.0), 0, bits(-1.0), 9, bits(3.0), 4};
    assertThat(pair(reduce(CeOperation.FPMIN_LIDX, CeRounding.NEAREST, true, ties))).containsExactly(bits(-1.0), 2);
    assertThat(pair(reduce(CeOperation.FPMIN_GIDX, CeRounding.NEAREST, true, ties))).containsExactly(bits(-1.0), 9);
    assertThat(pair(reduce(CeOperation.FPMAX_LIDX, CeRounding.NEAREST, true, ties))).containsExactly(bits(3.0), 0);
    assertThat(pair(reduce(CeOperation.FPMAX_GIDX, CeRounding.NEAREST, true, ties))).containsExactly(bits(3.0), 4);
  }

  @Test
  void signedZerosAreEqualSoTheIndexRuleDecidesAndTheWinnerKeepsItsBits() {
    long[] zeros = {bits(0.0), 5, bits(-0.0), 3, bits(0.0), 8};
    assertThat(pair(reduce(CeOperation.FPMIN_LIDX, CeRounding.NEAREST, true, zeros))).containsExactly(bits(-0.0), 3);
    assertThat(pair(reduce(CeOperation.FPMIN_GIDX, CeRounding.NEAREST, true, zeros))).containsExactly(bits(0.0), 8);
    assertThat(pair(reduce(CeOperation.FPMAX_LIDX, CeRounding.NEAREST, true, zeros))).containsExactly(bits(-0.0), 3);
    assertThat(reduce(CeOperation.FPMAX_LIDX, CeRounding.NEAREST, true, zeros).fpe()).isZero();
  }

  @Test
  void aNanValueWinsMinAndMaxWithTheFirstNanAndSetsInvalid() {
    long nan1 = 0x7ff8_0000_0000_0001L;
    long nan2 = 0xfff8_0000_0000_0002L;
    for (CeOperation op : EnumSet.of(CeOperation.FPMIN_LIDX, CeOperation.FPMIN_GIDX, CeOperation.FPMAX_LIDX,
        CeOperation.FPMAX_GIDX)) {
      CeAccumulator acc = reduce(op, CeRounding.NEAREST, true,
          bits(1.0), 4, nan1, 7, bits(Double.NEGATIVE_INFINITY), 1, nan2, 0, bits(Double.POSITIVE_INFINITY), 9);
      assertThat(pair(acc)).as("%s", op).containsExactly(nan1, 7);
      assertThat(acc.fpe()).isEqualTo(INVALID);
      CeAccumulator first = reduce(op, CeRounding.NEAREST, true, nan2, 3);
      assertThat(pair(first)).containsExactly(nan2, 3);
      assertThat(first.fpe()).isEqualTo(INVALID);
    }
  }

  // ---- life cycle ----

  @Test
  void addBeforeResetIsRefused() {
    CeAccumulator acc = new CeAccumulator();
    assertThat(acc.empty()).isTrue();
    assertThat(acc.operation()).isNull();
    assertThatThrownBy(() -> acc.add(1, 2, 0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("add before reset");
  }

  @Test
  void resetStartsAnEmptyReduction() {
    CeAccumulator acc = reduce(CeOperation.FPADD, CeRounding.UP, true, bits(1.0), bits(2.0), bits(TINY), bits(3.0));
    assertThat(acc.empty()).isFalse();
    assertThat(acc.fpe()).isEqualTo(INEXACT);
    acc.reset(CeOperation.XOR, CeRounding.NEAREST, false);
    assertThat(acc.empty()).isTrue();
    assertThat(acc.operation()).isEqualTo(CeOperation.XOR);
    assertThat(acc.rounding()).isEqualTo(CeRounding.NEAREST);
    assertThat(acc.twoOperands()).isFalse();
    assertThat(acc.result1()).isZero();
    assertThat(acc.result2()).isZero();
    assertThat(acc.fpe()).isZero();
    acc.add(6, 6, 0);
    assertThat(acc.result1()).isEqualTo(6);
    assertThatThrownBy(() -> acc.reset(null, CeRounding.UP, true)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("op must not be null");
    assertThatThrownBy(() -> acc.reset(CeOperation.AND, null, true)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("rounding must not be null");
  }

  // ---- code tables ----

  @Test
  void commandsRoundTripAndMatchGniPubH() {
    for (CeOperation op : CeOperation.values()) {
      assertThat(CeOperation.ofCommand(op.command())).isSameAs(op);
    }
    assertThat(CeOperation.values()).extracting(CeOperation::command)
        .containsExactly(0x1, 0x3, 0x5, 0x11, 0x13, 0x15, 0x19, 0x1b, 0x1d, 0x31, 0x33, 0x39, 0x3b);
    assertThat(EnumSet.allOf(CeOperation.class)).filteredOn(CeOperation::floatingPoint).containsExactlyInAnyOrder(
        CeOperation.FPADD, CeOperation.FPMIN_LIDX, CeOperation.FPMAX_LIDX, CeOperation.FPMIN_GIDX,
        CeOperation.FPMAX_GIDX);
    assertThat(EnumSet.allOf(CeOperation.class)).filteredOn(CeOperation::indexed).containsExactlyInAnyOrder(
        CeOperation.IMIN_LIDX, CeOperation.IMAX_LIDX, CeOperation.FPMIN_LIDX, CeOperation.FPMAX_LIDX,
        CeOperation.IMIN_GIDX, CeOperation.IMAX_GIDX, CeOperation.FPMIN_GIDX, CeOperation.FPMAX_GIDX);
  }

  @Test
  void shortCommandsAreRefusedAsNotModelled() {
    assertThatThrownBy(() -> CeOperation.ofCommand(0x1c)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("command 0x1c is GNI_FMA_CE_FPADD_S: the short (32-bit) CE commands are not modelled");
    for (int code : new int[] {0x0, 0x2, 0x4, 0x10, 0x12, 0x14, 0x18, 0x1a, 0x1c, 0x30, 0x32, 0x38, 0x3a}) {
      assertThatThrownBy(() -> CeOperation.ofCommand(code)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("command 0x" + Integer.toHexString(code) + " ")
          .hasMessageContaining("short (32-bit) CE commands are not modelled");
    }
  }

  @Test
  void unknownCommandsAreRefusedWithTheValidCodes() {
    assertThatThrownBy(() -> CeOperation.ofCommand(0x7)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("command must be one of the 64-bit gni_ce_cmd_type_t values (0x1, 0x3, 0x5, 0x11, 0x13, 0x15, "
            + "0x19, 0x1b, 0x1d, 0x31, 0x33, 0x39, 0x3b) but was 0x7");
    assertThatThrownBy(() -> CeOperation.ofCommand(-1)).hasMessageEndingWith("but was 0xffffffff");
    assertThatThrownBy(() -> CeOperation.ofCommand(0x3c)).hasMessageEndingWith("but was 0x3c");
  }

  @Test
  void roundingModesRoundTripAndMatchGniPubH() {
    assertThat(CeRounding.ofMode(0x1)).isEqualTo(CeRounding.UP);
    assertThat(CeRounding.ofMode(0x2)).isEqualTo(CeRounding.DOWN);
    assertThat(CeRounding.ofMode(0x4)).isEqualTo(CeRounding.NEAREST);
    assertThat(CeRounding.ofMode(0x8)).isEqualTo(CeRounding.TOWARD_ZERO);
    for (CeRounding r : CeRounding.values()) {
      assertThat(CeRounding.ofMode(r.mode())).isSameAs(r);
    }
    assertThatThrownBy(() -> CeRounding.ofMode(0x3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mode must be one of GNI_CE_MODE_ROUND_UP 0x1, _DOWN 0x2, _NEAR 0x4, _ZERO 0x8 but was 0x3");
    assertThatThrownBy(() -> CeRounding.ofMode(0)).hasMessageEndingWith("but was 0x0");
  }

  @Test
  void fpeFlagsDescribeAndCheck() {
    assertThat(CeFpe.describe(0)).isEqualTo("none");
    assertThat(CeFpe.describe(OVERFLOW | INEXACT)).isEqualTo("overflow|inexact");
    assertThat(CeFpe.describe(0xF)).isEqualTo("invalid|overflow|underflow|inexact");
    assertThat(CeFpe.describe(INVALID | 0x30)).isEqualTo("invalid|0x30");
    assertThat(new int[] {INVALID, OVERFLOW, UNDERFLOW, INEXACT}).containsExactly(0x1, 0x2, 0x4, 0x8);
    for (int f = 0; f <= 0xF; f++) {
      CeFpe.check(f);
    }
    assertThatThrownBy(() -> CeFpe.check(0x10)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("flags must be in [0x0, 0xf] (GNI_CE_FPE_* bits) but was 0x10");
    assertThatThrownBy(() -> CeFpe.check(-1)).hasMessageEndingWith("but was 0xffffffff");
  }

  private static long[] pair(CeAccumulator acc) {
    return new long[] {acc.result1(), acc.result2()};
  }
}
