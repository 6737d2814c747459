package io.github.ariesmodel.cli.report;

/**
 * Rounding of the figures a report shows: the one place that decides how many decimals a reported number keeps,
 * so that every workload and command rounds the same way.
 */
public final class Figures {

  private Figures() {}

  /**
   * Rounds half up (as {@link Math#round(double)}) to a number of decimal places.
   *
   * @param value the figure
   * @param decimals decimal places kept, in [0, 9]
   * @return the rounded figure
   * @throws IllegalArgumentException when {@code decimals} is outside [0, 9]
   */
  public static double round(double value, int decimals) {
    if (decimals < 0 || decimals > 9) {
      throw new IllegalArgumentException("decimals must be in [0, 9] but was " + decimals);
    }
    double scale = Math.pow(10, decimals);
    return Math.round(value * scale) / scale;
  }
}
