package io.github.ariesmodel.cli.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.NumberTickUnitSource;
import org.jfree.chart.axis.TickUnit;
import org.jfree.chart.axis.TickUnitSource;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Plots of results, drawn with JFreeChart into PNG files: the report's standard figures (latency vs offered load,
 * bandwidth vs message size, latency by distance, link utilization by rank) and generic XY and bar helpers.
 *
 * <p>Rendering is headless: on first use this class sets {@code java.awt.headless=true} unless the property was set
 * explicitly, so plots draw on machines without a display (batch nodes, CI). Every method validates its input first
 * and throws {@link IllegalArgumentException} naming the plot, the series and the bad value: no series, an empty
 * series, a non-finite value, or a value that is not positive on a logarithmic axis.
 */
public final class Plots {

  /** Smallest accepted width or height, pixels. */
  public static final int MIN_SIZE = 64;
  /** Largest accepted width or height, pixels. */
  public static final int MAX_SIZE = 8192;
  /** Default width, pixels. */
  public static final int DEFAULT_WIDTH = 800;
  /** Default height, pixels. */
  public static final int DEFAULT_HEIGHT = 500;

  static {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  private Plots() {}

  /**
   * Mean (or chosen percentile of) packet latency against offered load, one series per routing algorithm.
   *
   * @param png file to write
   * @param byRouting one series per routing: x = offered load (fraction of injection bandwidth, {@code >= 0}), y =
   *     latency in ns
   * @param width image width, pixels
   * @param height image height, pixels
   * @throws IOException when the file cannot be written
   */
  public static void latencyVsLoad(Path png, List<Series> byRouting, int width, int height) throws IOException {
    xy(png, "Latency vs offered load", "offered load [fraction of injection bandwidth]", "latency [ns]",
        byRouting, Scale.LINEAR, Scale.LINEAR, width, height);
  }

  /**
   * Bandwidth against message size, on a base-2 logarithmic size axis.
   *
   * @param png file to write
   * @param series e.g. one for put, one for get: x = message size in bytes ({@code > 0}), y = bandwidth in GB/s
   * @param width image width, pixels
   * @param height image height, pixels
   * @throws IOException when the file cannot be written
   */
  public static void bandwidthVsSize(Path png, List<Series> series, int width, int height) throws IOException {
    xy(png, "Bandwidth vs message size", "message size [B]", "bandwidth [GB/s]", series, Scale.LOG2,
        Scale.LINEAR, width, height);
  }

  /**
   * Latency by distance between the two nodes, as bars.
   *
   * @param png file to write
   * @param series e.g. one per message size; categories such as "same router", "rank-1", "rank-2", "rank-3"; values
   *     in ns
   * @param width image width, pixels
   * @param height image height, pixels
   * @throws IOException when the file cannot be written
   */
  public static void latencyByDistance(Path png, List<CategorySeries> series, int width, int height)
      throws IOException {
    bars(png, "Latency by distance", "distance", "latency [ns]", series, width, height);
  }

  /**
   * Link utilization by link rank, as bars.
   *
   * @param png file to write
   * @param series e.g. "mean" and "max"; categories "rank-1", "rank-2", "rank-3"; values as fractions of link
   *     bandwidth in {@code [0, 1]}
   * @param width image width, pixels
   * @param height image height, pixels
   * @throws IOException when the file cannot be written
   * @throws IllegalArgumentException also when a value is outside {@code [0, 1]}
   */
  public static void linkUtilizationByRank(Path png, List<CategorySeries> series, int width, int height)
      throws IOException {
    String plot = "Link utilization by rank";
    checkCategories(plot, series);
    for (CategorySeries s : series) {
      for (int i = 0; i < s.categories().size(); i++) {
        double v = s.valueAt(i);
        if (v < 0 || v > 1) {
          throw new IllegalArgumentException(plot + ": series \"" + s.name() + "\" category \""
              + s.categories().get(i) + "\": utilization must be in [0, 1] but was " + v);
        }
      }
    }
    JFreeChart chart = barChart(plot, "link rank", "utilization [fraction of link bandwidth]", series);
    ((NumberAxis) chart.getCategoryPlot().getRangeAxis()).setRange(0, 1);
    save(chart, png, width, height);
  }

  /**
   * A generic XY line plot with point markers, one line per series, drawn in the series' point order.
   *
   * @param png file to write
   * @param title plot title
   * @param xLabel x axis label, with unit
   * @param yLabel y axis label, with unit
   * @param series the series, at least one, distinct names, none empty
   * @param xScale x axis scale
   * @param yScale y axis scale
   * @param width image width, pixels
   * @param height image height, pixels
   * @throws IOException when the file cannot be written
   * @throws IllegalArgumentException when the input is invalid (see class comment)
   */
  public static void xy(Path png, String title, String xLabel, String yLabel, List<Series> series, Scale xScale,
      Scale yScale, int width, int height) throws IOException {
    Objects.requireNonNull(png, "png");
    checkSize(title, width, height);
    checkSeries(title, series, xScale, yScale);
    save(xyChart(title, xLabel, yLabel, series, xScale, yScale), png, width, height);
  }

  /** The chart {@link #xy} draws, of series already checked. */
  static JFreeChart xyChart(String title, String xLabel, String yLabel, List<Series> series, Scale xScale,
      Scale yScale) {
    XYSeriesCollection data = new XYSeriesCollection();
    for (Series s : series) {
      XYSeries xs = new XYSeries(s.name(), false, true);
      for (int i = 0; i < s.size(); i++) {
        xs.add(s.xAt(i), s.yAt(i));
      }
      data.addSeries(xs);
    }
    JFreeChart chart = ChartFactory.createXYLineChart(title, xLabel, yLabel, data, PlotOrientation.VERTICAL,
        true, false, false);
    XYPlot plot = chart.getXYPlot();
    // (widened before the plot takes them: it fits their range to the data as it does)
    ValueAxis xAxis = axis(xLabel, xScale, false);
    widenIfOneValue(xAxis, xScale, series, true);
    ValueAxis yAxis = axis(yLabel, yScale, yScale == Scale.LINEAR);
    widenIfOneValue(yAxis, yScale, series, false);
    plot.setDomainAxis(xAxis);
    plot.setRangeAxis(yAxis);
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
    plot.setRenderer(renderer);
    // The replaced axes and renderer get the same fonts as the factory-made parts.
    ChartFactory.getChartTheme().apply(chart);
    for (int i = 0; i < series.size(); i++) {
      renderer.setSeriesStroke(i, new BasicStroke(2f));
    }
    style(chart);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    return chart;
  }

  /**
   * A generic grouped bar plot: one group of bars per category, one bar per series.
   *
   * @param png file to write
   * @param title plot title
   * @param categoryLabel category axis label
   * @param valueLabel value axis label, with unit
   * @param series the series, at least one, distinct names, equal categories, finite values
   * @param width image width, pixels
   * @param height image height, pixels
   * @throws IOException when the file cannot be written
   * @throws IllegalArgumentException when the input is invalid (see class comment)
   */
  public static void bars(Path png, String title, String categoryLabel, String valueLabel,
      List<CategorySeries> series, int width, int height) throws IOException {
    Objects.requireNonNull(png, "png");
    checkSize(title, width, height);
    checkCategories(title, series);
    save(barChart(title, categoryLabel, valueLabel, series), png, width, height);
  }

  static JFreeChart barChart(String title, String categoryLabel, String valueLabel,
      List<CategorySeries> series) {
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    for (CategorySeries s : series) {
      for (int i = 0; i < s.categories().size(); i++) {
        data.addValue(s.valueAt(i), s.name(), s.categories().get(i));
      }
    }
    JFreeChart chart = ChartFactory.createBarChart(title, categoryLabel, valueLabel, data,
        PlotOrientation.VERTICAL, series.size() > 1, false, false);
    CategoryPlot plot = chart.getCategoryPlot();
    // the factory's value axis labels its ticks in the default locale (see axis)
    ((NumberAxis) plot.getRangeAxis()).setStandardTickUnits(new RootTickUnits());
    BarRenderer renderer = (BarRenderer) plot.getRenderer();
    renderer.setBarPainter(new StandardBarPainter());
    renderer.setShadowVisible(false);
    style(chart);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    return chart;
  }

  private static void style(JFreeChart chart) {
    chart.setBackgroundPaint(Color.WHITE);
    chart.setAntiAlias(true);
  }

  /**
   * JFreeChart's standard tick units ({@link NumberTickUnitSource}: sizes 1, 2 and 5 × 10^p) labelled with the
   * patterns it picks for each power, but with {@link Locale#ROOT}'s symbols: its own use the default locale's, and
   * {@code NumberAxis.createStandardTickUnits(Locale)} labels every size with one pattern of at most three decimals
   * (a tick at 6e-5 read "0", one at 1.5e8 "150,000,000"). The patterns, as JFreeChart 1.5.6 chooses them: four to one
   * decimals at 10^-4 to 10^-1, grouped integers from 10^0 to 10^6, else scientific.
   */
  static final class RootTickUnits implements TickUnitSource {
    private final NumberTickUnitSource sizes = new NumberTickUnitSource(false);

    private static TickUnit labelled(TickUnit unit) {
      double size = unit.getSize();
      int power = (int) Math.floor(Math.log10(size) + 1e-9);
      String pattern = power >= -4 && power <= -1 ? "0." + "0".repeat(-power)
          : power >= 0 && power <= 6 ? "#,##0" : "#.######E0";
      return new NumberTickUnit(size, new DecimalFormat(pattern, DecimalFormatSymbols.getInstance(Locale.ROOT)),
          unit.getMinorTickCount());
    }

    @Override
    public TickUnit getLargerTickUnit(TickUnit unit) {
      // (asked of the delegate's own unit: its test for "the same unit" compares formats too)
      TickUnit same = sizes.getCeilingTickUnit(unit.getSize());
      return labelled(same.getSize() > unit.getSize() ? same : sizes.getLargerTickUnit(same));
    }

    @Override
    public TickUnit getCeilingTickUnit(TickUnit unit) {
      return getCeilingTickUnit(unit.getSize());
    }

    @Override
    public TickUnit getCeilingTickUnit(double size) {
      return labelled(sizes.getCeilingTickUnit(size));
    }
  }

  /**
   * Gives an axis whose points all have one value (a single size, or latencies that noise made equal) a range around
   * it: JFreeChart widens such a range by a fixed 1e-8, which a value such as 5e8 does not notice, and refused the
   * empty range ("A positive range length is required"), so the run failed after it had finished. A linear axis
   * spans half the value either side (1 either side of 0), and starts at 0 rather than below when the value is not
   * negative: it spanned at least 0.5 either side, so a one-point plot at load 0.3 drew its axis from -0.2.
   */
  private static void widenIfOneValue(ValueAxis axis, Scale scale, List<Series> series, boolean x) {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (Series s : series) {
      for (int i = 0; i < s.size(); i++) {
        double v = x ? s.xAt(i) : s.yAt(i);
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
    }
    if (max - min > 64 * Math.ulp(max)) {
      return;
    }
    if (scale == Scale.LINEAR) {
      double half = max == 0 ? 1 : Math.abs(max) / 2;
      boolean zero = axis instanceof NumberAxis n && n.getAutoRangeIncludesZero();
      double lower = min >= 0 ? Math.max(0, max - half) : max - half;
      double upper = max + half;
      axis.setRange(zero ? Math.min(0, lower) : lower, zero ? Math.max(0, upper) : upper);
    } else {
      double base = scale == Scale.LOG2 ? 2 : 10;
      axis.setRange(max / base, max * base);
    }
  }

  /**
   * An axis whose tick labels read the same on every machine: JFreeChart's and DecimalFormat's defaults follow the
   * default locale, which drew 1.500 for 1,500 under a German one and Arabic-Indic digits under an Arabic one.
   */
  static ValueAxis axis(String label, Scale scale, boolean includeZero) {
    if (scale == Scale.LINEAR) {
      NumberAxis a = new NumberAxis(label);
      a.setStandardTickUnits(new RootTickUnits());
      a.setAutoRangeIncludesZero(includeZero);
      return a;
    }
    LogAxis a = new StepLogAxis(label, scale == Scale.LOG2 ? 2 : 10);
    a.setStandardTickUnits(NumberAxis.createIntegerTickUnits(Locale.ROOT));
    a.setNumberFormatOverride(scale == Scale.LOG2 ? new BinaryPrefixFormat() : new DecimalLabelFormat());
    return a;
  }

  /**
   * A logarithmic axis labelled at 1, 2 and 5 × 10^k (base 10) or at the powers of 2 (base 2), with at least two
   * labelled ticks inside its range. JFreeChart's {@link LogAxis} labels whole powers only, so a latency axis from 867
   * to 978 ns had no label at all, and one from 1,480 to 11,300 ns one (10^4). An automatic range with fewer than two
   * such values inside is widened to the nearest ones around it; where the 1-2-5 labels would overlap (many decades
   * on a short axis) the axis labels whole decades, or every second, third ... decade.
   */
  static final class StepLogAxis extends LogAxis {
    private static final long serialVersionUID = 1L;
    /** Most steps tried when the labels of every power overlap (a tiny image): the coarsest is used then. */
    private static final int MAX_STRIDE = 64;

    StepLogAxis(String label, double base) {
      super(label);
      setBase(base);
    }

    /** @return whether {@code v} is a tick value of this axis: 1, 2 or 5 × 10^k, or a power of 2 */
    boolean isStep(double v) {
      return Math.abs(floorStep(v) / v - 1) < 1e-9;
    }

    /** The largest tick value at most {@code v} (> 0). */
    double floorStep(double v) {
      double power = Math.pow(getBase(), Math.floor(calculateLog(v) + 1e-9));
      if (getBase() != 10) {
        return power;
      }
      double m = v / power;
      return (m >= 5 - 1e-9 ? 5 : m >= 2 - 1e-9 ? 2 : 1) * power;
    }

    /** The tick value after {@code step} (a tick value). */
    double nextStep(double step) {
      if (getBase() != 10) {
        return step * getBase();
      }
      double power = Math.pow(10, Math.floor(Math.log10(step) + 1e-9));
      double m = Math.rint(step / power);
      return (m == 1 ? 2 : m == 2 ? 5 : 10) * power;
    }

    /** The tick values in [lower, upper], with {@code stride} 0 for every one, else every stride-th power only. */
    List<Double> steps(double lower, double upper, int stride) {
      List<Double> out = new java.util.ArrayList<>();
      double v = floorStep(lower);
      for (int guard = 0; v <= upper * (1 + 1e-9) && guard < 10_000; guard++, v = nextStep(v)) {
        if (v < lower * (1 - 1e-9)) {
          continue;
        }
        long exponent = Math.round(calculateLog(v));
        boolean power = Math.abs(calculateLog(v) - exponent) < 1e-9;
        if (stride == 0 || power && Math.floorMod(exponent, stride) == 0) {
          out.add(v);
        }
      }
      return out;
    }

    @Override
    protected void autoAdjustRange() {
      super.autoAdjustRange();
      if (!isAutoRange()) {
        return;
      }
      double lower = getLowerBound();
      double upper = getUpperBound();
      if (!(lower > 0) || !(upper > lower) || steps(lower, upper, 0).size() >= 2) {
        return;
      }
      double from = floorStep(lower);
      double to = nextStep(floorStep(upper));
      if (isStep(upper)) {
        to = upper;
      }
      while (steps(from, to, 0).size() < 2) {
        to = nextStep(to);
      }
      setRange(new org.jfree.data.Range(from, to), false, false);
    }

    /**
     * The labelled ticks: every tick value in the range when their labels keep apart, else the powers at the smallest
     * stride whose labels do (the label's height on a vertical axis, its width on a horizontal one).
     */
    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public List refreshTicks(java.awt.Graphics2D g2, org.jfree.chart.axis.AxisState state,
        java.awt.geom.Rectangle2D dataArea, org.jfree.chart.ui.RectangleEdge edge) {
      boolean vertical = org.jfree.chart.ui.RectangleEdge.isLeftOrRight(edge);
      org.jfree.chart.ui.TextAnchor anchor = vertical
          ? (edge == org.jfree.chart.ui.RectangleEdge.RIGHT ? org.jfree.chart.ui.TextAnchor.CENTER_LEFT
              : org.jfree.chart.ui.TextAnchor.CENTER_RIGHT)
          : (edge == org.jfree.chart.ui.RectangleEdge.TOP ? org.jfree.chart.ui.TextAnchor.BOTTOM_CENTER
              : org.jfree.chart.ui.TextAnchor.TOP_CENTER);
      g2.setFont(getTickLabelFont());
      java.awt.FontMetrics metrics = g2.getFontMetrics(getTickLabelFont());
      double lower = getLowerBound();
      double upper = getUpperBound();
      List<Double> values = List.of();
      for (int stride = getBase() == 10 ? 0 : 1; stride <= MAX_STRIDE; stride++) {
        values = steps(lower, upper, stride);
        if (fits(values, vertical, metrics, dataArea, edge)) {
          break;
        }
      }
      List ticks = new java.util.ArrayList();
      for (double v : values) {
        ticks.add(new org.jfree.chart.axis.LogTick(org.jfree.chart.axis.TickType.MAJOR, v, label(v), anchor));
      }
      return ticks;
    }

    /** The label of a tick, in the axis's tick label font (JFreeChart's own with a format override has none). */
    private java.text.AttributedString label(double v) {
      String text = getNumberFormatOverride().format(v);
      java.text.AttributedString s = new java.text.AttributedString(text);
      if (!text.isEmpty()) {
        s.addAttributes(getTickLabelFont().getAttributes(), 0, text.length());
      }
      return s;
    }

    private boolean fits(List<Double> values, boolean vertical, java.awt.FontMetrics metrics,
        java.awt.geom.Rectangle2D dataArea, org.jfree.chart.ui.RectangleEdge edge) {
      org.jfree.chart.ui.RectangleInsets insets = getTickLabelInsets();
      for (int i = 1; i < values.size(); i++) {
        double gap = Math.abs(valueToJava2D(values.get(i), dataArea, edge)
            - valueToJava2D(values.get(i - 1), dataArea, edge));
        double room = vertical ? metrics.getHeight() + insets.getTop() + insets.getBottom()
            : (metrics.stringWidth(getNumberFormatOverride().format(values.get(i)))
                + metrics.stringWidth(getNumberFormatOverride().format(values.get(i - 1)))) / 2.0
                + insets.getLeft() + insets.getRight();
        if (gap <= room) {
          return false;
        }
      }
      return true;
    }
  }

  /** A tick-label format: a label from the value as a double; a long is labelled as its double; labels are not parsed. */
  abstract static class TickLabelFormat extends NumberFormat {
    private static final long serialVersionUID = 1L;

    @Override
    public final StringBuffer format(long number, StringBuffer to, FieldPosition pos) {
      return format((double) number, to, pos);
    }

    @Override
    public final Number parse(String source, ParsePosition pos) {
      throw new UnsupportedOperationException("tick labels are not parsed");
    }
  }

  /**
   * Tick labels of a base-10 axis as the linear axes write theirs: {@code 500}, {@code 2,000}, {@code 0.05}, and
   * scientific below 10^-4 and from 10^7 on ({@code 2E7}), with {@link Locale#ROOT}'s symbols. (They were all
   * scientific, {@code 5E2}, {@code 1E3}.)
   */
  static final class DecimalLabelFormat extends TickLabelFormat {
    private static final long serialVersionUID = 1L;

    @Override
    public StringBuffer format(double number, StringBuffer to, FieldPosition pos) {
      double a = Math.abs(number);
      String pattern = a == 0 || a >= 1e-4 && a < 1e7 ? "#,##0.####" : "0.###E0";
      return to.append(new DecimalFormat(pattern, DecimalFormatSymbols.getInstance(Locale.ROOT)).format(number));
    }

  }

  /**
   * Writes the chart as a PNG atomically, as every output file is (docs/errors-and-guarantees.md, "Atomic files"): a
   * run's plots go through its staging directory anyway, but {@code merge --html --plot} writes its PNGs in place, and
   * a failure midway left half a PNG where a whole one had been.
   */
  private static void save(JFreeChart chart, Path png, int width, int height) throws IOException {
    AtomicFiles.write(png, f -> {
      try (OutputStream out = Files.newOutputStream(f)) {
        ChartUtils.writeChartAsPNG(out, chart, width, height);
      }
    });
  }

  private static void checkSize(String plot, int width, int height) {
    if (width < MIN_SIZE || width > MAX_SIZE) {
      throw new IllegalArgumentException(
          plot + ": width must be in [" + MIN_SIZE + ", " + MAX_SIZE + "] pixels but was " + width);
    }
    if (height < MIN_SIZE || height > MAX_SIZE) {
      throw new IllegalArgumentException(
          plot + ": height must be in [" + MIN_SIZE + ", " + MAX_SIZE + "] pixels but was " + height);
    }
  }

  /**
   * Checks series as {@link #xy} checks them before it draws, drawing nothing: for a caller that must refuse a plot
   * before it writes anything else ({@code merge --plot}, whose CSV table was written before its plot was refused).
   *
   * @param plot the plot's title, which the message names
   * @param series the series
   * @param xScale x axis scale
   * @param yScale y axis scale
   * @throws IllegalArgumentException when {@link #xy} would refuse them (see the class comment)
   */
  public static void checkXy(String plot, List<Series> series, Scale xScale, Scale yScale) {
    checkSeries(plot, series, xScale, yScale);
  }

  private static void checkSeries(String plot, List<Series> series, Scale xScale, Scale yScale) {
    if (series == null || series.isEmpty()) {
      throw new IllegalArgumentException(plot + ": needs at least one series but got none");
    }
    Set<String> names = new HashSet<>();
    for (Series s : series) {
      if (!names.add(s.name())) {
        throw new IllegalArgumentException(plot + ": series names must be distinct but \"" + s.name()
            + "\" appears twice");
      }
      if (s.size() == 0) {
        throw new IllegalArgumentException(plot + ": series \"" + s.name() + "\" must have at least one point");
      }
      for (int i = 0; i < s.size(); i++) {
        checkValue(plot, s.name(), "x", i, s.xAt(i), xScale);
        checkValue(plot, s.name(), "y", i, s.yAt(i), yScale);
      }
    }
  }

  private static void checkValue(String plot, String series, String axis, int i, double v, Scale scale) {
    if (!Double.isFinite(v)) {
      throw new IllegalArgumentException(plot + ": series \"" + series + "\" point " + i + ": " + axis
          + " must be finite but was " + v);
    }
    if (scale != Scale.LINEAR && v <= 0) {
      throw new IllegalArgumentException(plot + ": series \"" + series + "\" point " + i + ": " + axis
          + " must be > 0 on a " + scale + " axis but was " + v);
    }
  }

  private static void checkCategories(String plot, List<CategorySeries> series) {
    if (series == null || series.isEmpty()) {
      throw new IllegalArgumentException(plot + ": needs at least one series but got none");
    }
    Set<String> names = new HashSet<>();
    List<String> categories = series.get(0).categories();
    for (CategorySeries s : series) {
      if (!names.add(s.name())) {
        throw new IllegalArgumentException(plot + ": series names must be distinct but \"" + s.name()
            + "\" appears twice");
      }
      if (s.categories().isEmpty()) {
        throw new IllegalArgumentException(plot + ": series \"" + s.name() + "\" must have at least one category");
      }
      if (!s.categories().equals(categories)) {
        throw new IllegalArgumentException(plot + ": every series must have the categories " + categories
            + " but \"" + s.name() + "\" has " + s.categories());
      }
      for (int i = 0; i < categories.size(); i++) {
        if (!Double.isFinite(s.valueAt(i))) {
          throw new IllegalArgumentException(plot + ": series \"" + s.name() + "\" category \""
              + categories.get(i) + "\": value must be finite but was " + s.valueAt(i));
        }
      }
    }
  }

  /** Tick labels of a base-2 axis with binary prefixes: 512, 1Ki, 64Ki, 1Mi. */
  static final class BinaryPrefixFormat extends TickLabelFormat {
    private static final String[] PREFIXES = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};

    @Override
    public StringBuffer format(double number, StringBuffer to, FieldPosition pos) {
      double v = number;
      int p = 0;
      while (Math.abs(v) >= 1024 && p < PREFIXES.length - 1) {
        v /= 1024;
        p++;
      }
      String digits = v == Math.rint(v) ? Long.toString((long) v)
          : new DecimalFormat("0.##", DecimalFormatSymbols.getInstance(Locale.ROOT)).format(v);
      return to.append(digits).append(PREFIXES[p]);
    }

  }
}
