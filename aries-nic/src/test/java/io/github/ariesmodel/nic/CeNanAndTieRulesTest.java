package io.github.ariesmodel.nic;

import static io.github.ariesmodel.nic.CeArithmeticTest.bits;
import static io.github.ariesmodel.nic.CeArithmeticTest.reduce;
import static io.github.ariesmodel.nic.CeFpe.INEXACT;
import static io.github.ariesmodel.nic.CeFpe.INVALID;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.AmoKind;
import org.junit.jupiter.api.Test;

/**
 * The collective engine's rules for NaNs, signed zeros and index ties that {@code CeAccumulator}'s javadoc gives:
 * FPADD's signalling-NaN rule is IEEE 754's; the others are the model's assumptions, pinned so that a change to them
 * is deliberate.
 */
class CeNanAndTieRulesTest {

  /** A signalling NaN (quiet bit clear) with a payload, and the same NaN quieted. */
  private static final long SNAN = 0x7ff0_0000_0000_0001L;
  private static final long SNAN_QUIETED = 0x7ff8_0000_0000_0001L;
  private static final long NEGATIVE_SNAN = 0xfff4_0000_0000_00abL;

  @Test
  void fpaddOfASignallingNanSetsInvalidAndGivesItQuieted() {
    for (CeRounding r : CeRounding.values()) {
      CeAccumulator after = reduce(CeOperation.FPADD, r, false, bits(1.0), 0, SNAN, 0);
      assertThat(after.result1()).as("1 + sNaN under %s", r).isEqualTo(SNAN_QUIETED);
      assertThat(after.fpe()).isEqualTo(INVALID);
      CeAccumulator before = reduce(CeOperation.FPADD, r, false, SNAN, 0, bits(1.0), 0, bits(2.0), 0);
      assertThat(before.result1()).as("sNaN + 1 + 2 under %s", r).isEqualTo(SNAN_QUIETED);
      assertThat(before.fpe()).isEqualTo(INVALID);
      CeAccumulator negative = reduce(CeOperation.FPADD, r, false, bits(Double.NEGATIVE_INFINITY), 0,
          NEGATIVE_SNAN, 0);
      assertThat(negative.result1()).isEqualTo(NEGATIVE_SNAN | 1L << 51);
      assertThat(Double.isNaN(Double.longBitsToDouble(negative.result1()))).isTrue();
      assertThat(negative.fpe()).isEqualTo(INVALID);
    }
  }

  @Test
  void withAQuietAndASignallingNanTheFirstGivesTheResultAndInvalidIsSet() {
    long quiet = 0x7ff8_0000_0000_0777L;
    CeAccumulator quietFirst = reduce(CeOperation.FPADD, CeRounding.NEAREST, false, quiet, 0, SNAN, 0);
    assertThat(quietFirst.result1()).isEqualTo(quiet);
    assertThat(quietFirst.fpe()).isEqualTo(INVALID);
    CeAccumulator signallingFirst = reduce(CeOperation.FPADD, CeRounding.NEAREST, false, SNAN, 0, quiet, 0);
    assertThat(signallingFirst.result1()).isEqualTo(SNAN_QUIETED);
    assertThat(signallingFirst.fpe()).isEqualTo(INVALID);
  }

  @Test
  void eachElementOfATwoOperandFpaddQuietsItsOwnSignallingNan() {
    CeAccumulator acc = reduce(CeOperation.FPADD, CeRounding.NEAREST, true, bits(1.0), SNAN, bits(0x1p-60), bits(2.0));
    assertThat(acc.result1()).isEqualTo(bits(1.0));
    assertThat(acc.result2()).isEqualTo(SNAN_QUIETED);
    assertThat(acc.fpe()).isEqualTo(INVALID | INEXACT);
  }

  @Test
  void aSingleContributionIsNotAnAdditionSoASignallingNanComesBackAsItWas() {
    CeAccumulator acc = reduce(CeOperation.FPADD, CeRounding.NEAREST, false, SNAN, 0);
    assertThat(acc.result1()).isEqualTo(SNAN);
    assertThat(acc.fpe()).isZero();
  }

  @Test
  void fpMinMaxFlagAQuietNanAsInvalidTheModelsChoice() {
    // IEEE 754 would not flag a quiet NaN here (2008 minNum returns 1.0, 2019 minimum a quiet NaN): the model does.
    long quiet = 0x7ff8_0000_0000_0000L;
    for (CeOperation op : new CeOperation[] {CeOperation.FPMIN_LIDX, CeOperation.FPMAX_GIDX}) {
      CeAccumulator acc = reduce(op, CeRounding.NEAREST, true, bits(3.0), 0, quiet, 1, bits(1.0), 2);
      assertThat(acc.result1()).isEqualTo(quiet);
      assertThat(acc.result2()).isEqualTo(1);
      assertThat(acc.fpe()).isEqualTo(INVALID);
      // A signalling NaN is kept as it came, not quieted (unlike FPADD's).
      assertThat(reduce(op, CeRounding.NEAREST, true, bits(3.0), 0, SNAN, 1).result1()).isEqualTo(SNAN);
    }
  }

  @Test
  void theCeComparesSignedZerosEqualWhereTheAmoUnitsFpminDoesNot() {
    CeAccumulator lowest = reduce(CeOperation.FPMIN_LIDX, CeRounding.NEAREST, true, bits(0.0), 0, bits(-0.0), 1);
    assertThat(lowest.result1()).isEqualTo(bits(0.0));
    assertThat(lowest.result2()).isZero();
    CeAccumulator greatest = reduce(CeOperation.FPMIN_GIDX, CeRounding.NEAREST, true, bits(0.0), 0, bits(-0.0), 1);
    assertThat(greatest.result1()).isEqualTo(bits(-0.0));
    assertThat(greatest.result2()).isEqualTo(1);
    assertThat(AmoArithmetic.apply64(AmoKind.FPMIN, bits(0.0), bits(-0.0), 0)).isEqualTo(bits(-0.0));
    assertThat(AmoArithmetic.apply64(AmoKind.FPMIN, bits(-0.0), bits(0.0), 0)).isEqualTo(bits(-0.0));
  }

  @Test
  void indexTiesCompareIndicesAsSignedNumbers() {
    CeAccumulator greatest = reduce(CeOperation.IMAX_GIDX, CeRounding.NEAREST, true, 7, 5, 7, -1);
    assertThat(greatest.result2()).isEqualTo(5);
    CeAccumulator lowest = reduce(CeOperation.IMAX_LIDX, CeRounding.NEAREST, true, 7, 5, 7, -1);
    assertThat(lowest.result2()).isEqualTo(-1);
    CeAccumulator fp = reduce(CeOperation.FPMAX_GIDX, CeRounding.NEAREST, true, bits(2.0), Long.MIN_VALUE,
        bits(2.0), 0);
    assertThat(fp.result2()).isZero();
  }
}
