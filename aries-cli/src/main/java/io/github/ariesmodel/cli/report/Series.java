package io.github.ariesmodel.cli.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A named series of (x, y) points for an XY plot, in drawing order. Immutable; the arrays are copied in and out.
 * Points are checked when plotted, so that the message can name the plot's axis ({@link Plots}).
 */
public final class Series {
  private final String name;
  private final double[] x;
  private final double[] y;

  private Series(String name, double[] x, double[] y) {
    this.name = name;
    this.x = x;
    this.y = y;
  }

  /**
   * A series.
   *
   * @param name legend name, non-empty
   * @param x x values
   * @param y y values, as many as x
   * @return the series
   * @throws IllegalArgumentException when the name is empty or the lengths differ
   */
  public static Series of(String name, double[] x, double[] y) {
    Names.checkText("series name", name);
    Objects.requireNonNull(x, "x");
    Objects.requireNonNull(y, "y");
    if (x.length != y.length) {
      throw new IllegalArgumentException(
          "series \"" + name + "\" must have as many y values as x values (" + x.length + ") but had " + y.length);
    }
    return new Series(name, x.clone(), y.clone());
  }

  /**
   * Series from a table: one per distinct value of {@code groupColumn} (in order of first appearance), or a single
   * series named after {@code yColumn} when {@code groupColumn} is null. Rows where x or y has no value are skipped,
   * and a group with no row that has both makes no series (a routing with no latency at any load): an empty series,
   * which {@link Plots} refuses, failed the plot of every other group with it. A table without any such row gives
   * no series at all.
   *
   * @param table the table
   * @param xColumn numeric column for x
   * @param yColumn numeric column for y
   * @param groupColumn column whose values name the series (typically the routing), or null
   * @return the series, in order, none empty
   * @throws IllegalArgumentException when a column is missing or x/y hold text
   */
  public static List<Series> fromTable(ResultTable table, String xColumn, String yColumn, String groupColumn) {
    double[] xs = table.numbers(xColumn);
    double[] ys = table.numbers(yColumn);
    int g = groupColumn == null ? -1 : table.columnIndex(groupColumn);
    Map<String, List<double[]>> groups = new LinkedHashMap<>();
    for (int r = 0; r < xs.length; r++) {
      String key = g < 0 ? yColumn : String.valueOf(table.rows().get(r).get(g));
      List<double[]> points = groups.computeIfAbsent(key, k -> new ArrayList<>());
      if (!Double.isNaN(xs[r]) && !Double.isNaN(ys[r])) {
        points.add(new double[] {xs[r], ys[r]});
      }
    }
    List<Series> out = new ArrayList<>();
    groups.forEach((key, points) -> {
      if (points.isEmpty()) {
        return;
      }
      double[] px = new double[points.size()];
      double[] py = new double[points.size()];
      for (int i = 0; i < px.length; i++) {
        px[i] = points.get(i)[0];
        py[i] = points.get(i)[1];
      }
      out.add(new Series(key, px, py));
    });
    return out;
  }

  /** @return the legend name */
  public String name() {
    return name;
  }

  /** @return a copy of the x values */
  public double[] x() {
    return x.clone();
  }

  /** @return a copy of the y values */
  public double[] y() {
    return y.clone();
  }

  /** @return the number of points */
  public int size() {
    return x.length;
  }

  double xAt(int i) {
    return x[i];
  }

  double yAt(int i) {
    return y[i];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Series s && name.equals(s.name) && Arrays.equals(x, s.x) && Arrays.equals(y, s.y);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * name.hashCode() + Arrays.hashCode(x)) + Arrays.hashCode(y);
  }

  @Override
  public String toString() {
    return "Series[" + name + ", " + x.length + " points]";
  }
}
