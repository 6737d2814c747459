package io.github.ariesmodel.cli.report;

import io.github.ariesmodel.cli.report.CategorySeries;
import io.github.ariesmodel.cli.report.Column;
import io.github.ariesmodel.cli.report.HtmlReport;
import io.github.ariesmodel.cli.report.Plots;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.ResultsCsv;
import io.github.ariesmodel.cli.report.ResultsJson;
import io.github.ariesmodel.cli.report.Scale;
import io.github.ariesmodel.cli.report.Series;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a run's results into a directory: {@code results.json} (the documented schema), one CSV per table plus
 * {@code metrics.csv}, the plots the workload asked for as PNG, and {@code report.html} tying them together.
 */
public final class ReportWriter {

  private ReportWriter() {}

  /**
   * Writes everything.
   *
   * @param results the results
   * @param plots the plots to draw from its tables
   * @param dir output directory (created)
   * @param includeWallClock whether the JSON and the HTML report keep wall-clock fields (false gives byte-identical
   *     files per seed)
   * @param title the HTML report's title
   * @return the HTML report's path
   * @throws IOException when a file cannot be written
   */
  public static Path write(Results results, List<PlotSpec> plots, Path dir, boolean includeWallClock, String title)
      throws IOException {
    Files.createDirectories(dir);
    ResultsJson.write(results, dir.resolve("results.json"), includeWallClock);
    ResultsCsv.write(results, dir);
    HtmlReport.Builder html = HtmlReport.builder(includeWallClock ? results : results.withoutWallClock()).title(title);
    for (PlotSpec p : plots) {
      Path png = dir.resolve(p.file());
      if (draw(results, p, png)) {
        html.plot(p.caption(), png);
      }
    }
    Path report = dir.resolve("report.html");
    html.build().write(report);
    return report;
  }

  /** Draws one plot; returns false (and draws nothing) when its table has no rows. */
  static boolean draw(Results results, PlotSpec p, Path png) throws IOException {
    ResultTable t = results.table(p.table()).orElseThrow(() ->
        new IllegalArgumentException("plot " + p.file() + " reads table \"" + p.table() + "\", which the results lack"));
    if (t.rows().isEmpty()) {
      return false;
    }
    int w = Plots.DEFAULT_WIDTH;
    int h = Plots.DEFAULT_HEIGHT;
    switch (p.kind()) {
      case LATENCY_VS_LOAD -> Plots.xy(png, p.caption(), label(t, p.x()), label(t, p.y()),
          Series.fromTable(t, p.x(), p.y(), p.group()), Scale.LINEAR, Scale.LINEAR, w, h);
      case BANDWIDTH_VS_SIZE -> Plots.bandwidthVsSize(png, Series.fromTable(t, p.x(), p.y(), p.group()), w, h);
      case LATENCY_VS_SIZE -> Plots.xy(png, p.caption(), label(t, p.x()), label(t, p.y()),
          Series.fromTable(t, p.x(), p.y(), p.group()), Scale.LOG2, Scale.LOG10, w, h);
      case LATENCY_BY_DISTANCE -> Plots.latencyByDistance(png, categories(t, p, true), w, h);
      case UTILIZATION_BY_RANK -> Plots.linkUtilizationByRank(png, categories(t, p, false), w, h);
      default -> throw new IllegalArgumentException("unknown plot kind " + p.kind());
    }
    return true;
  }

  private static String label(ResultTable t, String column) {
    Column c = t.columns().get(t.columnIndex(column));
    return c.unit() == null || c.unit().isEmpty() ? column : column + " (" + c.unit() + ")";
  }

  /**
   * Bars: categories from column x, one series per value of the group column. With {@code smallestGroupOnly}, only
   * the rows of the first group value are kept (e.g. the smallest message size).
   */
  private static List<CategorySeries> categories(ResultTable t, PlotSpec p, boolean smallestGroupOnly) {
    int xi = t.columnIndex(p.x());
    int yi = t.columnIndex(p.y());
    int gi = p.group() == null ? -1 : t.columnIndex(p.group());
    Map<String, Map<String, Double>> byGroup = new LinkedHashMap<>();
    for (List<Object> row : t.rows()) {
      String g = gi < 0 ? p.y() : String.valueOf(row.get(gi));
      if (smallestGroupOnly && !byGroup.isEmpty() && !byGroup.containsKey(g)) {
        continue;
      }
      byGroup.computeIfAbsent(g, k -> new LinkedHashMap<>())
          .put(String.valueOf(row.get(xi)), ((Number) row.get(yi)).doubleValue());
    }
    List<CategorySeries> out = new ArrayList<>();
    for (Map.Entry<String, Map<String, Double>> e : byGroup.entrySet()) {
      List<String> cats = new ArrayList<>(e.getValue().keySet());
      double[] v = new double[cats.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = e.getValue().get(cats.get(i));
      }
      String name = gi < 0 ? p.y() : p.group() + "=" + e.getKey();
      out.add(CategorySeries.of(name, cats, v));
    }
    return out;
  }
}
