package io.github.ariesmodel.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Locale;
import org.junit.jupiter.api.Test;

/** {@link Figures}: rounding, and the text the CLI prints a recorded figure as. */
class FiguresTest {

  @Test
  void textGroupsThousandsAndPrintsWholeValuesWithoutDecimals() {
    assertThat(Figures.text(13_584_368)).isEqualTo("13,584,368");
    assertThat(Figures.text(27)).isEqualTo("27");
    assertThat(Figures.text(0)).isEqualTo("0");
    assertThat(Figures.text(-0.0)).isEqualTo("0");
    assertThat(Figures.text(517_572.055)).isEqualTo("517,572.055");
    assertThat(Figures.text(840.5)).isEqualTo("840.5");
    assertThat(Figures.text(-1234.25)).isEqualTo("-1,234.25");
    assertThat(Figures.text(Figures.round(0.123456789, 4))).isEqualTo("0.1235");
    assertThat(Figures.text(1e-9)).isEqualTo("0.000000001");
    assertThat(Figures.text(1.5e20)).isEqualTo("150,000,000,000,000,000,000");
    assertThat(Figures.text(Double.NaN)).isEqualTo("NaN");
  }

  /** A figure without value (NaN) is no cell value, where rounding made it 0. */
  @Test
  void roundOrNullGivesNoValueForNaNAndRoundsTheRest() {
    assertThat(Figures.roundOrNull(Double.NaN, 4)).isNull();
    assertThat(Figures.roundOrNull(0.123456789, 4)).isEqualTo(0.1235);
    assertThat(Figures.roundOrNull(0.0, 4)).isEqualTo(0.0);
    assertThatThrownBy(() -> Figures.roundOrNull(Double.NaN, 10)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("decimals must be in [0, 9] but was 10");
  }

  /**
   * NaN, a measurement of nothing, is refused by round, which made it 0 ({@code Math.round(NaN)}), a figure no run
   * measured; roundOrNull is the way to round a figure that may have none.
   */
  @Test
  void roundRefusesNaN() {
    assertThatThrownBy(() -> Figures.round(Double.NaN, 3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("the figure to round is not a number (NaN").hasMessageContaining("roundOrNull");
    assertThatThrownBy(() -> Figures.round(0.0 / 0.0, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThat(Figures.round(0.0, 3)).isEqualTo(0.0);
    assertThat(Figures.round(2.5, 0)).isEqualTo(3.0);
    assertThatThrownBy(() -> Figures.round(1, -1)).hasMessage("decimals must be in [0, 9] but was -1");
  }

  @Test
  void textIsTheSameUnderAnyLocale() {
    Locale format = Locale.getDefault(Locale.Category.FORMAT);
    try {
      Locale.setDefault(Locale.Category.FORMAT, Locale.GERMANY);
      assertThat(Figures.text(1_234.5)).isEqualTo("1,234.5");
    } finally {
      Locale.setDefault(Locale.Category.FORMAT, format);
    }
  }
}
