package io.github.ariesmodel.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PlotsTest {

  @TempDir Path dir;

  private static final double[] LOADS = {0.1, 0.3, 0.5, 0.7};
  private static final List<Series> BY_ROUTING = List.of(
      Series.of("minimal", LOADS, new double[] {900, 950, 1100, 1800}),
      Series.of("ugal", LOADS, new double[] {920, 960, 1050, 1300}));
  private static final List<String> RANKS = List.of("rank-1", "rank-2", "rank-3");

  private static BufferedImage png(Path f) throws IOException {
    byte[] bytes = Files.readAllBytes(f);
    assertThat(bytes).startsWith(0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n');
    BufferedImage img = ImageIO.read(f.toFile());
    assertThat(img).isNotNull();
    return img;
  }

  private static boolean hasSeveralColours(BufferedImage img) {
    int first = img.getRGB(0, 0);
    for (int y = 0; y < img.getHeight(); y += 3) {
      for (int x = 0; x < img.getWidth(); x += 3) {
        if (img.getRGB(x, y) != first) {
          return true;
        }
      }
    }
    return false;
  }

  @Test
  void latencyVsLoadIsAPngOfTheRequestedSize() throws IOException {
    Path f = dir.resolve("sub/latency.png");
    Plots.latencyVsLoad(f, BY_ROUTING, 640, 400);
    BufferedImage img = png(f);
    assertThat(img.getWidth()).isEqualTo(640);
    assertThat(img.getHeight()).isEqualTo(400);
    assertThat(hasSeveralColours(img)).isTrue();
  }

  @Test
  void bandwidthVsSizeUsesALog2Axis() throws IOException {
    double[] sizes = {8, 64, 512, 4096, 32768, 1 << 20};
    Path f = dir.resolve("bw.png");
    Plots.bandwidthVsSize(f, List.of(Series.of("put", sizes, new double[] {0.1, 0.8, 3, 7, 9.5, 9.9})), 300, 200);
    BufferedImage img = png(f);
    assertThat(img.getWidth()).isEqualTo(300);
    assertThat(img.getHeight()).isEqualTo(200);
  }

  /**
   * Points that all share one value on an axis (one size; latencies that OS noise made equal) are drawn around it: a
   * log axis failed with "A positive range length is required" (JFreeChart widens such a range by 1e-8, which 5e8
   * does not notice), and `run pingpong` under a long noise detour died after it had finished.
   */
  @Test
  void pointsOfOneValueOnAnAxisAreDrawnAroundIt() throws IOException {
    double[] sizes = {8, 64, 512};
    for (Scale scale : Scale.values()) {
      Path f = dir.resolve("equal-" + scale + ".png");
      Plots.xy(f, "equal", "bytes", "ns", List.of(Series.of("rank-1", sizes, new double[] {5e8, 5e8, 5e8})),
          Scale.LOG2, scale, 300, 200);
      assertThat(png(f).getWidth()).isEqualTo(300);
      Path g = dir.resolve("one-size-" + scale + ".png");
      Plots.xy(g, "one size", "bytes", "ns", List.of(Series.of("rank-1", new double[] {1e9}, new double[] {700})),
          scale, scale, 300, 200);
      assertThat(png(g).getHeight()).isEqualTo(200);
    }
  }

  /**
   * A linear axis of one value spans half of it either side (1 either side of 0) and does not reach below 0 when the
   * value is not negative: it spanned at least 0.5 either side, so one point at load 0.3 drew its axis from -0.2.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({"0.3, 0.15, 0.45", "0, 0, 1", "700, 350, 1050", "-4, -6, -2",
      "0.001, 0.0005, 0.0015"})
  void aLinearAxisOfOneValueSpansHalfOfItEitherSide(double v, double lower, double upper) {
    org.jfree.chart.JFreeChart chart = Plots.xyChart("t", "load", "latency [ns]", List.of(
        Series.of("a", new double[] {v}, new double[] {v})), Scale.LINEAR, Scale.LINEAR);
    org.jfree.data.Range x = chart.getXYPlot().getDomainAxis().getRange();
    assertThat(x.getLowerBound()).isCloseTo(lower, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(x.getUpperBound()).isCloseTo(upper, org.assertj.core.data.Offset.offset(1e-12));
    // the y axis includes 0, as every linear value axis does
    org.jfree.data.Range y = chart.getXYPlot().getRangeAxis().getRange();
    assertThat(y.getLowerBound()).isCloseTo(Math.min(0, lower), org.assertj.core.data.Offset.offset(1e-12));
    assertThat(y.getUpperBound()).isCloseTo(Math.max(0, upper), org.assertj.core.data.Offset.offset(1e-12));
  }

  @Test
  void barPlotsHaveTheRequestedSize() throws IOException {
    Plots.latencyByDistance(dir.resolve("d.png"), List.of(CategorySeries.of("8 B",
        List.of("same router", "rank-1", "rank-2", "rank-3"), new double[] {800, 900, 1000, 1200})), 500, 300);
    Plots.linkUtilizationByRank(dir.resolve("u.png"), List.of(
        CategorySeries.of("mean", RANKS, new double[] {0.2, 0.3, 0.5}),
        CategorySeries.of("max", RANKS, new double[] {0.6, 0.7, 1.0})), 320, 240);
    assertThat(png(dir.resolve("d.png")).getWidth()).isEqualTo(500);
    assertThat(png(dir.resolve("u.png")).getHeight()).isEqualTo(240);
  }

  /**
   * A plot replaces its file whole (written beside it, then moved into place), as every output does: a second name
   * (hard link) of the old file still shows the old picture. Written in place, as merge --html --plot's PNGs were,
   * both names saw the new bytes, and a failure midway left half a PNG.
   */
  @Test
  void aPlotReplacesItsFileWholeRatherThanRewritingIt() throws IOException {
    Path f = dir.resolve("latency.png");
    Plots.latencyVsLoad(f, BY_ROUTING, 300, 200);
    Path other = Files.createLink(dir.resolve("other-name.png"), f);
    byte[] before = Files.readAllBytes(other);
    Plots.latencyVsLoad(f, BY_ROUTING, 640, 400);
    assertThat(png(f).getWidth()).isEqualTo(640);
    assertThat(Files.readAllBytes(other)).isEqualTo(before);
    try (var left = Files.list(dir)) {
      assertThat(left.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("latency.png", "other-name.png");
    }
  }

  @Test
  void emptyInputIsAClearError() {
    Path f = dir.resolve("x.png");
    assertThatThrownBy(() -> Plots.latencyVsLoad(f, List.of(), 400, 300))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one series");
    assertThatThrownBy(() -> Plots.latencyVsLoad(f, List.of(Series.of("ugal", new double[0], new double[0])), 400,
        300)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"ugal\"")
        .hasMessageContaining("at least one point");
    assertThat(f).doesNotExist();
  }

  @Test
  void nonPositiveValueOnALogAxisIsAClearError() {
    Path f = dir.resolve("x.png");
    assertThatThrownBy(() -> Plots.bandwidthVsSize(f,
        List.of(Series.of("put", new double[] {0, 8}, new double[] {1, 2})), 400, 300))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"put\" point 0").hasMessageContaining("> 0").hasMessageContaining("LOG2")
        .hasMessageContaining("was 0.0");
    assertThat(f).doesNotExist();
  }

  @Test
  void otherBadInputIsAClearError() {
    Path f = dir.resolve("x.png");
    assertThatThrownBy(() -> Plots.latencyVsLoad(f, BY_ROUTING, 10, 300)).hasMessageContaining("width")
        .hasMessageContaining("was 10");
    assertThatThrownBy(() -> Plots.latencyVsLoad(f,
        List.of(Series.of("a", new double[] {1}, new double[] {Double.NaN})), 400, 300)).hasMessageContaining("finite");
    assertThatThrownBy(() -> Plots.latencyVsLoad(f, List.of(BY_ROUTING.get(0), BY_ROUTING.get(0)), 400, 300))
        .hasMessageContaining("\"minimal\" appears twice");
    assertThatThrownBy(() -> Series.of("a", new double[] {1, 2}, new double[] {1}))
        .hasMessageContaining("as many y values");
    assertThatThrownBy(() -> Plots.linkUtilizationByRank(f,
        List.of(CategorySeries.of("max", RANKS, new double[] {0.5, 1.5, 0.1})), 400, 300))
        .hasMessageContaining("rank-2").hasMessageContaining("[0, 1]").hasMessageContaining("1.5");
    assertThatThrownBy(() -> Plots.bars(f, "t", "c", "v", List.of(
        CategorySeries.of("a", RANKS, new double[3]), CategorySeries.of("b", List.of("x"), new double[1])), 400, 300))
        .hasMessageContaining("categories");
  }

  @Test
  void seriesFromATableGroupByAColumnAndSkipEmptyCells() {
    ResultTable t = ResultTable.builder("s").number("load", "").string("routing").number("latency", "ns")
        .row(0.1, "minimal", 900).row(0.1, "ugal", 920).row(0.5, "minimal", null).row(0.5, "ugal", 1050).build();
    List<Series> s = Series.fromTable(t, "load", "latency", "routing");
    assertThat(s).containsExactly(
        Series.of("minimal", new double[] {0.1}, new double[] {900}),
        Series.of("ugal", new double[] {0.1, 0.5}, new double[] {920, 1050}));
    assertThat(Series.fromTable(t, "load", "latency", null)).singleElement()
        .satisfies(one -> assertThat(one.name()).isEqualTo("latency"));
  }

  /**
   * A group none of whose rows has both values (a routing with no latency at any load) makes no series: its empty
   * series made the plot refuse every other group with it. A table with no such row at all gives no series.
   */
  @Test
  void aGroupWithoutAPointMakesNoSeries() {
    ResultTable t = ResultTable.builder("s").number("load", "").string("routing").number("latency", "ns")
        .row(0.1, "minimal", null).row(0.1, "valiant", 920).row(0.5, "minimal", null).row(0.5, "valiant", 1050)
        .build();
    assertThat(Series.fromTable(t, "load", "latency", "routing")).containsExactly(
        Series.of("valiant", new double[] {0.1, 0.5}, new double[] {920, 1050}));
    ResultTable none = ResultTable.builder("s").number("load", "").string("routing").number("latency", "ns")
        .row(0.1, "minimal", null).row(null, "valiant", 920).build();
    assertThat(Series.fromTable(none, "load", "latency", "routing")).isEmpty();
    assertThat(Series.fromTable(none, "load", "latency", null)).isEmpty();
  }

  /** The labelled ticks of a chart's axis as the chart draws it at 800 × 500. */
  private static List<org.jfree.chart.axis.ValueTick> labelledTicks(org.jfree.chart.JFreeChart chart, boolean y) {
    BufferedImage img = new BufferedImage(800, 500, BufferedImage.TYPE_INT_RGB);
    java.awt.Graphics2D g2 = img.createGraphics();
    try {
      org.jfree.chart.ChartRenderingInfo info = new org.jfree.chart.ChartRenderingInfo();
      chart.draw(g2, new java.awt.geom.Rectangle2D.Double(0, 0, 800, 500), info);
      org.jfree.chart.axis.ValueAxis axis = y ? chart.getXYPlot().getRangeAxis() : chart.getXYPlot().getDomainAxis();
      List<?> ticks = axis.refreshTicks(g2, new org.jfree.chart.axis.AxisState(), info.getPlotInfo().getDataArea(),
          y ? org.jfree.chart.ui.RectangleEdge.LEFT : org.jfree.chart.ui.RectangleEdge.BOTTOM);
      List<org.jfree.chart.axis.ValueTick> labelled = new java.util.ArrayList<>();
      for (Object t : ticks) {
        org.jfree.chart.axis.ValueTick v = (org.jfree.chart.axis.ValueTick) t;
        String text = v instanceof org.jfree.chart.axis.LogTick l && l.getAttributedLabel() != null ? labelText(l)
            : v.getText();
        if (text != null && !text.isEmpty()) {
          labelled.add(v);
        }
      }
      return labelled;
    } finally {
      g2.dispose();
    }
  }

  private static String labelText(org.jfree.chart.axis.LogTick t) {
    java.text.AttributedCharacterIterator it = t.getAttributedLabel().getIterator();
    StringBuilder b = new StringBuilder();
    for (char c = it.first(); c != java.text.CharacterIterator.DONE; c = it.next()) {
      b.append(c);
    }
    return b.toString();
  }

  /**
   * A base-10 axis labels 1, 2 and 5 × 10^k, at least two of them inside its range, whatever the range: it labelled
   * whole decades only, so latencies from 867 to 978 ns had no label at all and 1,480 to 11,300 ns one. The data stay
   * inside the range, and the labels read as the linear axes' do.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({"867, 978", "1480, 11300", "1, 1e6", "0.0003, 0.0009", "5e8, 5e8",
      "1e-3, 1e9", "200, 500"})
  void aBase10AxisLabelsAtLeastTwoTicksOfTheOneTwoFiveForm(double low, double high) {
    org.jfree.chart.JFreeChart chart = Plots.xyChart("t", "bytes", "latency [ns]", List.of(
        Series.of("a", new double[] {8, 64, 512}, new double[] {low, Math.sqrt(low * high), high})),
        Scale.LOG2, Scale.LOG10);
    List<org.jfree.chart.axis.ValueTick> ticks = labelledTicks(chart, true);
    org.jfree.data.Range range = chart.getXYPlot().getRangeAxis().getRange();
    assertThat(range.getLowerBound()).isLessThanOrEqualTo(low);
    assertThat(range.getUpperBound()).isGreaterThanOrEqualTo(high);
    assertThat(ticks).as("labelled ticks of [%s, %s] on %s", low, high, range).hasSizeGreaterThanOrEqualTo(2);
    for (org.jfree.chart.axis.ValueTick t : ticks) {
      double v = t.getValue();
      assertThat(range.contains(v)).as("%s inside %s", v, range).isTrue();
      double mantissa = v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9));
      assertThat(List.of(1L, 2L, 5L)).as("%s is 1, 2 or 5 x 10^k", v).contains(Math.round(mantissa));
      assertThat(Math.abs(mantissa - Math.round(mantissa))).as("%s", v).isLessThan(1e-6);
    }
    if (low == 867) {
      assertThat(ticks).extracting(t -> labelText((org.jfree.chart.axis.LogTick) t)).containsExactly("500", "1,000");
    }
  }

  /** A base-2 axis (message sizes) also labels two powers at least, e.g. sizes from 3,000 to 5,000 bytes. */
  @Test
  void aBase2AxisLabelsAtLeastTwoPowers() {
    org.jfree.chart.JFreeChart chart = Plots.xyChart("t", "bytes", "latency [ns]", List.of(
        Series.of("a", new double[] {3000, 5000}, new double[] {900, 950})), Scale.LOG2, Scale.LOG10);
    List<org.jfree.chart.axis.ValueTick> ticks = labelledTicks(chart, false);
    assertThat(ticks).hasSizeGreaterThanOrEqualTo(2);
    for (org.jfree.chart.axis.ValueTick t : ticks) {
      assertThat(Long.bitCount(Math.round(t.getValue()))).as("%s is a power of 2", t.getValue()).isEqualTo(1);
    }
    assertThat(ticks).extracting(t -> labelText((org.jfree.chart.axis.LogTick) t)).contains("2Ki", "4Ki");
  }

  @Test
  void binaryPrefixTickLabels() {
    Plots.BinaryPrefixFormat f = new Plots.BinaryPrefixFormat();
    assertThat(f.format(8.0)).isEqualTo("8");
    assertThat(f.format(1024.0)).isEqualTo("1Ki");
    assertThat(f.format(1536.0)).isEqualTo("1.5Ki");
    assertThat(f.format((double) (1 << 20))).isEqualTo("1Mi");
  }

  /**
   * Under an English locale the linear axes label their ticks as JFreeChart's own standard units do, for every size
   * from 10^-7 to 10^9 (the first locale fix used one pattern for all and drew 6e-5 as "0").
   */
  @Test
  void linearTickLabelsAreJFreeChartsOwnUnderAnEnglishLocale() {
    Locale display = Locale.getDefault(Locale.Category.DISPLAY);
    Locale format = Locale.getDefault(Locale.Category.FORMAT);
    try {
      Locale.setDefault(Locale.US);
      org.jfree.chart.axis.TickUnitSource ours = ((NumberAxis) Plots.axis("x", Scale.LINEAR, false))
          .getStandardTickUnits();
      org.jfree.chart.axis.TickUnitSource theirs = NumberAxis.createStandardTickUnits();
      for (int p = -7; p <= 9; p++) {
        for (double k : new double[] {1, 2, 3, 5, 7}) {
          double size = k * Math.pow(10, p);
          org.jfree.chart.axis.TickUnit a = ours.getCeilingTickUnit(size);
          org.jfree.chart.axis.TickUnit b = theirs.getCeilingTickUnit(size);
          assertThat(a.getSize()).as("size for %s", size).isEqualTo(b.getSize());
          assertThat(a.valueToString(3 * a.getSize())).as("label at %s", size)
              .isEqualTo(b.valueToString(3 * b.getSize()));
          assertThat(ours.getLargerTickUnit(a).getSize()).as("larger than %s", size)
              .isEqualTo(theirs.getLargerTickUnit(b).getSize());
        }
      }
    } finally {
      Locale.setDefault(Locale.Category.DISPLAY, display);
      Locale.setDefault(Locale.Category.FORMAT, format);
    }
  }

  /** Tick labels read the same on every machine: a German default drew 1,5Ki and 1.500, an Arabic one its digits. */
  @ParameterizedTest
  @ValueSource(strings = {"de-DE", "ar-EG"})
  void tickLabelsDoNotFollowTheDefaultLocale(String tag) {
    Locale display = Locale.getDefault(Locale.Category.DISPLAY);
    Locale format = Locale.getDefault(Locale.Category.FORMAT);
    try {
      Locale.setDefault(Locale.forLanguageTag(tag));
      assertThat(new Plots.BinaryPrefixFormat().format(1536.0)).isEqualTo("1.5Ki");
      NumberAxis linear = (NumberAxis) Plots.axis("x", Scale.LINEAR, false);
      assertThat(linear.getStandardTickUnits().getCeilingTickUnit(1000).valueToString(1500)).isEqualTo("1,500");
      assertThat(linear.getStandardTickUnits().getCeilingTickUnit(0.25).valueToString(1.5)).isEqualTo("1.5");
      // JFreeChart's pattern for each power, not one for all: scientific below 10^-4 and above 10^6
      assertThat(linear.getStandardTickUnits().getCeilingTickUnit(2e-5).valueToString(6e-5)).isEqualTo("6E-5");
      assertThat(linear.getStandardTickUnits().getCeilingTickUnit(1e8).valueToString(1.5e8)).isEqualTo("1.5E8");
      assertThat(Plots.axis("x", Scale.LOG10, false).getStandardTickUnits().getCeilingTickUnit(1000)
          .valueToString(2000)).isEqualTo("2,000");
      assertThat(((LogAxis) Plots.axis("x", Scale.LOG10, false)).getNumberFormatOverride().format(1500.0))
          .isEqualTo("1,500");
      assertThat(((LogAxis) Plots.axis("x", Scale.LOG10, false)).getNumberFormatOverride().format(2e7))
          .isEqualTo("2E7");
      assertThat(((LogAxis) Plots.axis("x", Scale.LOG10, false)).getNumberFormatOverride().format(0.0005))
          .isEqualTo("0.0005");
      NumberAxis bars = (NumberAxis) Plots.barChart("t", "c", "v",
          List.of(CategorySeries.of("a", RANKS, new double[] {0.2, 0.3, 0.5}))).getCategoryPlot().getRangeAxis();
      assertThat(bars.getStandardTickUnits().getCeilingTickUnit(0.25).valueToString(1.5)).isEqualTo("1.5");
    } finally {
      Locale.setDefault(Locale.Category.DISPLAY, display);
      Locale.setDefault(Locale.Category.FORMAT, format);
    }
  }
}
