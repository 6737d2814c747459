package io.github.ariesmodel.network.validation;

import io.github.ariesmodel.network.Dragonfly;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The validation sweep behind docs/network.md: latency and accepted load against offered load for each routing and
 * pattern on one topology; writes a CSV, two PNG plots per pattern, and prints a markdown table. Not a test (it runs
 * for minutes); run it with
 *
 * <pre>
 * mvn -B -o -q -pl aries-network -am install -DskipTests -Dmaven.javadoc.skip
 * mvn -B -o -q -pl aries-network test-compile dependency:build-classpath -Dmdep.includeScope=test \
 *   -Dmdep.outputFile=$PWD/aries-network/target/cp.txt
 * java -cp aries-network/target/test-classes:aries-network/target/classes:$(cat aries-network/target/cp.txt) \
 *   io.github.ariesmodel.network.validation.ValidationSweep \
 *   NAME TOPOLOGY ROUTINGS PATTERNS LOADS WARMUP_US MEASURE_US EXTRA_US OUTDIR
 * </pre>
 */
public final class ValidationSweep {

  private ValidationSweep() {}

  /**
   * Runs a sweep.
   *
   * @param args name, topology spec, routings (comma list), patterns, loads, warm-up µs, measure µs, extra µs, outdir
   * @throws IOException when writing fails
   */
  public static void main(String[] args) throws IOException {
    String name = args[0];
    Dragonfly topo = Topologies.parse(args[1]);
    String[] routings = args[2].split(",");
    String[] patterns = args[3].split(",");
    String[] loadText = args[4].split(",");
    long warmup = Math.round(Double.parseDouble(args[5]) * 1e6);
    long measure = Math.round(Double.parseDouble(args[6]) * 1e6);
    long extra = Math.round(Double.parseDouble(args[7]) * 1e6);
    Path out = Path.of(args[8]);
    Files.createDirectories(out);
    System.out.println(topo.describe());
    Path csv = Path.of("aries-network/target/validation/network-" + name + ".csv");
    Files.createDirectories(csv.getParent());
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv))) {
      w.println("pattern,routing,load,offered,accepted,latMean,latP50,latP99,latMax,hops,minimal,unfinished,measured,"
          + "wall,events,hops_executed");
      for (String pattern : patterns) {
        TrafficPattern pat = TrafficPattern.parse(pattern);
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        for (String routing : routings) {
          List<double[]> pts = new ArrayList<>();
          for (String l : loadText) {
            double load = Double.parseDouble(l);
            TrafficResult r = TrafficExperiment.on(topo).routing(routing).pattern(pat).load(load).seed(1)
                .warmupPs(warmup).measurePs(measure).extraPs(extra).run();
            String line = String.format(Locale.ROOT, "%s,%s,%.2f,%.4f,%.4f,%.1f,%.0f,%.0f,%.0f,%.3f,%.4f,%d,%d,%.2f,%d,%d",
                pat.id(), routing, load, r.offeredLoad(), r.acceptedLoad(), r.latencyMeanNs(), r.latencyP50Ns(),
                r.latencyP99Ns(), r.latencyMaxNs(), r.meanHops(), r.minimalFraction(), r.unfinishedPackets(),
                r.measuredPackets(), r.wallSeconds(), r.events(), r.packetHops());
            w.println(line);
            w.flush();
            System.out.println(line);
            pts.add(new double[] {r.offeredLoad(), r.acceptedLoad(), r.latencyMeanNs(),
                r.unfinishedPackets() / (double) Math.max(1, r.measuredPackets())});
          }
          series.put(routing, pts);
        }
        plot(out.resolve("network-" + name + "-" + pat.id() + "-latency.png").toFile(), topo.describe(), pat, series,
            true);
        plot(out.resolve("network-" + name + "-" + pat.id() + "-throughput.png").toFile(), topo.describe(), pat,
            series, false);
        System.out.println();
        System.out.println("| routing | saturation (max accepted load) | accepted at offered 1.0 (or highest) |"
            + " zero-load latency ns |");
        System.out.println("|---|---|---|---|");
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
          double max = 0;
          for (double[] p : e.getValue()) {
            max = Math.max(max, p[1]);
          }
          List<double[]> v = e.getValue();
          System.out.printf(Locale.ROOT, "| %s | %.3f | %.3f | %.0f |%n", e.getKey(), max, v.get(v.size() - 1)[1],
              v.get(0)[2]);
        }
      }
    }
  }

  private static void plot(File file, String title, TrafficPattern pat, Map<String, List<double[]>> series,
      boolean latency) throws IOException {
    XYSeriesCollection data = new XYSeriesCollection();
    for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
      XYSeries s = new XYSeries(e.getKey());
      for (double[] p : e.getValue()) {
        if (latency) {
          // past saturation the mean covers only delivered packets: stop the curve once 2% are unfinished
          if (p[3] > 0.02 || Double.isNaN(p[2])) {
            break;
          }
          s.add(p[0], p[2]);
        } else {
          s.add(p[0], p[1]);
        }
      }
      data.addSeries(s);
    }
    JFreeChart chart = ChartFactory.createXYLineChart(
        pat.id() + " traffic: " + (latency ? "mean latency" : "accepted load"),
        "offered load (fraction of injection bandwidth)",
        latency ? "mean packet latency, ns (log)" : "accepted load", data, PlotOrientation.VERTICAL, true, false,
        false);
    chart.addSubtitle(new org.jfree.chart.title.TextTitle(title, new java.awt.Font("SansSerif", java.awt.Font.PLAIN,
        10)));
    XYPlot plot = chart.getXYPlot();
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    if (latency) {
      LogAxis axis = new LogAxis("mean packet latency, ns (log)");
      axis.setSmallestValue(100);
      axis.setNumberFormatOverride(new java.text.DecimalFormat("#,##0"));
      axis.setTickUnit(new org.jfree.chart.axis.NumberTickUnit(0.1));
      plot.setRangeAxis(axis);
    }
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
    for (int i = 0; i < data.getSeriesCount(); i++) {
      renderer.setSeriesStroke(i, new BasicStroke(2f));
    }
    plot.setRenderer(renderer);
    ChartUtils.saveChartAsPNG(file, chart, 800, 520);
  }
}
