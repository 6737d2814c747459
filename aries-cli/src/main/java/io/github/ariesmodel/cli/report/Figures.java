package io.github.ariesmodel.cli.report;

import java.math.BigDecimal;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;

/**
 * Rounding of the figures a report shows: the one place that decides how many decimals a reported number keeps,
 * so that every workload and command rounds the same way.
 */
public final class Figures {

  private Figures() {}

  /**
   * Rounds half up (as {@link Math#round(double)}) to a number of decimal places. NaN, what a measurement of nothing
   * gives, is refused: {@code Math.round(NaN)} made it 0, a figure no run measured (until stop 76); a figure that may
   * have no value is rounded with {@link #roundOrNull}.
   *
   * @param value the figure, a number
   * @param decimals decimal places kept, in [0, 9]
   * @return the rounded figure
   * @throws IllegalArgumentException when {@code value} is NaN or {@code decimals} is outside [0, 9]
   */
  public static double round(double value, int decimals) {
    checkDecimals(decimals);
    if (Double.isNaN(value)) {
      throw new IllegalArgumentException("the figure to round is not a number (NaN, a measurement of nothing): round"
          + " a figure that may have no value with Figures.roundOrNull, whose null is a cell without value");
    }
    double scale = Math.pow(10, decimals);
    return Math.round(value * scale) / scale;
  }

  private static void checkDecimals(int decimals) {
    if (decimals < 0 || decimals > 9) {
      throw new IllegalArgumentException("decimals must be in [0, 9] but was " + decimals);
    }
  }

  /**
   * Rounds as {@link #round} does a figure that may have no value: NaN, what a measurement of nothing gives (a mean
   * latency when no packet was delivered), becomes {@code null}, the cell without value a results table holds; through
   * {@link #round} it became 0 ({@code Math.round(NaN)}), a figure no run measured.
   *
   * @param value the figure, or NaN for none
   * @param decimals decimal places kept, in [0, 9]
   * @return the rounded figure, or null when {@code value} is NaN
   * @throws IllegalArgumentException when {@code decimals} is outside [0, 9]
   */
  public static Double roundOrNull(double value, int decimals) {
    checkDecimals(decimals); // whatever the value
    return Double.isNaN(value) ? null : round(value, decimals);
  }

  /**
   * A recorded figure as the CLI's text output prints it: {@code ,} between thousands and {@code .} before the
   * decimals whatever the locale (the README's rule), a whole value without decimals (a count reads 13,584,368, not
   * 13584368.000) and any other with the decimals it has, which {@link #round} gave it before it was recorded
   * (517,572.055). Not for JSON or CSV, which keep plain numbers.
   *
   * @param value the figure
   * @return its text; a value that is not finite as Java writes it
   */
  public static String text(double value) {
    if (!Double.isFinite(value)) {
      return Double.toString(value);
    }
    BigDecimal exact = BigDecimal.valueOf(value).stripTrailingZeros(); // the shortest decimal that is the double
    DecimalFormat f = new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(Locale.ROOT));
    f.setMaximumFractionDigits(Math.max(0, exact.scale()));
    return f.format(exact);
  }
}
