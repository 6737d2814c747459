package io.github.ariesmodel.cli.report;

import io.github.ariesmodel.cli.report.CategorySeries;
import io.github.ariesmodel.cli.report.HtmlReport;
import io.github.ariesmodel.cli.report.Plots;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.ResultsCsv;
import io.github.ariesmodel.cli.report.ResultsJson;
import io.github.ariesmodel.cli.report.Scale;
import io.github.ariesmodel.cli.report.Series;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Writes a run's results into a directory: {@code results.json} (the documented schema), one CSV per table plus
 * {@code metrics.csv}, the plots the workload asked for as PNG, and {@code report.html} tying them together.
 */
public final class ReportWriter {

  private ReportWriter() {}

  /**
   * Writes everything, so that a reader never mistakes a failed run for a finished one: every file is first
   * written into a hidden staging directory inside {@code dir}; a previous run's {@code results.json} is removed
   * before anything moves; then the new files are renamed into place, {@code results.json} last, so its presence
   * marks a finished run. The files an earlier report wrote there and this one does not (its CSV tables, plots and
   * report, as listed in the hidden {@value #WRITTEN} beside them) are removed, so a directory never mixes two runs;
   * no other file is touched. (Every {@code *.csv} and {@code *.png} was removed, a user's own files included.) A
   * directory written before that list existed has its earlier run's files read from its {@code results.json}: its
   * tables' CSVs, {@code metrics.csv} and {@code report.html}. Whether {@code dir} may be reused at all is the
   * caller's decision.
   *
   * @param results the results
   * @param plots the plots to draw from its tables
   * @param dir output directory (created)
   * @param includeWallClock whether the JSON and the HTML report keep wall-clock fields (false gives byte-identical
   *     files per seed)
   * @param title the HTML report's title
   * @return the HTML report's path
   * @throws IOException when a file cannot be written (then {@code dir} holds no {@code results.json})
   */
  public static Path write(Results results, List<PlotSpec> plots, Path dir, boolean includeWallClock, String title)
      throws IOException {
    return write(results, plots, List.of(), dir, includeWallClock, title);
  }

  /**
   * Writes everything as {@link #write(Results, List, Path, boolean, String)} does, with notes in the HTML report.
   *
   * @param results the results
   * @param plots the plots to draw from its tables
   * @param notes sentences the HTML report shows beside the figures (results.json does not carry them)
   * @param dir output directory (created)
   * @param includeWallClock whether the JSON and the HTML report keep wall-clock fields
   * @param title the HTML report's title
   * @return the HTML report's path
   * @throws IOException when a file cannot be written (then {@code dir} holds no {@code results.json})
   */
  public static Path write(Results results, List<PlotSpec> plots, List<String> notes, Path dir,
      boolean includeWallClock, String title) throws IOException {
    Files.createDirectories(dir);
    Set<String> earlier = earlierFiles(dir);
    Path stage = Files.createTempDirectory(dir, AtomicFiles.TEMP_PREFIX);
    try {
      ResultsCsv.write(results, stage);
      HtmlReport.Builder html = HtmlReport.builder(includeWallClock ? results : results.withoutWallClock()).title(title)
          .wholeTablesIn(RESULTS, ""); // (the CSV tables beside it)
      notes.forEach(html::note);
      for (PlotSpec p : plots) {
        Path png = stage.resolve(p.file());
        if (draw(results, p, png)) {
          html.plot(p.caption(), png);
        }
      }
      html.build().write(stage.resolve(REPORT));
      ResultsJson.write(results, stage.resolve(RESULTS), includeWallClock);
      List<Path> fresh = new ArrayList<>();
      try (java.util.stream.Stream<Path> s = Files.list(stage)) {
        s.filter(f -> !f.getFileName().toString().startsWith(AtomicFiles.TEMP_PREFIX)).sorted().forEach(fresh::add);
      }
      // every new file can be moved in before the earlier results go: a directory by a file's name was met only at
      // its move, after the earlier run's results.json had been deleted (until stop 75)
      for (Path f : fresh) {
        Path target = dir.resolve(f.getFileName().toString());
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(target)) {
          throw new java.nio.file.FileSystemException(target.toString(), null, target + " is not a regular file (a"
              + " directory, device, pipe or socket), which the report's file of that name would replace");
        }
      }
      Files.deleteIfExists(dir.resolve(RESULTS));
      Set<String> names = new TreeSet<>();
      fresh.forEach(f -> names.add(f.getFileName().toString()));
      names.remove(RESULTS);
      // until the last move, the list names every file of either run, so that a failure in between leaves none of
      // them unlisted for the next run to clean up
      Set<String> either = new TreeSet<>(earlier);
      either.addAll(names);
      writeList(dir, either);
      for (String name : earlier) {
        Path f = dir.resolve(name);
        if (!names.contains(name) && Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
          Files.delete(f);
        }
      }
      for (Path f : fresh) {
        if (!f.getFileName().toString().equals(RESULTS)) {
          AtomicFiles.move(f, dir.resolve(f.getFileName().toString()));
        }
      }
      writeList(dir, names);
      AtomicFiles.move(stage.resolve(RESULTS), dir.resolve(RESULTS));
    } catch (IOException e) {
      // a file's own write inside the staging directory names the file there ("cannot write DIR/.aries-partial-…/x.csv:
      // File name too long"): named as the report's file it was to become (until stop 75 the staging path was shown)
      IOException failed = AtomicFiles.failed("cannot write the report in " + dir, e);
      String message = failed.getMessage().replace(stage.toString() + java.io.File.separator,
          dir.toString() + java.io.File.separator).replace(stage.toString(), dir.toString());
      throw new IOException(message, e);
    } finally {
      deleteTree(stage);
    }
    return dir.resolve(REPORT);
  }

  /** The results file; its presence marks a finished run. */
  public static final String RESULTS = "results.json";

  /** The HTML report's file name. */
  public static final String REPORT = "report.html";

  /**
   * Whether a file name is one this writer produces ({@code results.json}, {@code report.html}, {@code *.csv},
   * {@code *.png}).
   *
   * @param name a file name
   * @return whether a run's report could have written it
   */
  public static boolean owns(String name) {
    return name.equals(RESULTS) || name.equals(REPORT) || name.endsWith(".csv") || name.endsWith(".png");
  }

  /**
   * The hidden list of the files a report wrote in its directory besides {@code results.json}, one name a line: the
   * files the next report there may remove when it does not write them again.
   */
  public static final String WRITTEN = ".aries-report-files";

  /**
   * The files an earlier report wrote in {@code dir}: those its {@link #WRITTEN} list names, or, without one (a
   * directory written before the list existed), those its {@code results.json} implies (a CSV per table,
   * {@code metrics.csv}, {@code report.html}). Only plain names this writer could have written are taken, so that an
   * edited list can remove nothing else.
   */
  private static Set<String> earlierFiles(Path dir) throws IOException {
    Set<String> names = new TreeSet<>();
    Path list = dir.resolve(WRITTEN);
    if (Files.isRegularFile(list)) {
      try {
        for (String line : Files.readAllLines(list, StandardCharsets.UTF_8)) {
          names.add(line.strip());
        }
      } catch (IOException e) {
        // unreadable (not UTF-8, say): nothing is known to be an earlier report's, so nothing is removed; it failed
        // the run after its whole simulation, naming no file
        return new TreeSet<>();
      }
    } else if (Files.isRegularFile(dir.resolve(RESULTS))) {
      try {
        JsonNode root = new ObjectMapper().readTree(dir.resolve(RESULTS).toFile());
        for (JsonNode table : root.path("tables")) {
          names.add(table.path("name").asText() + ".csv");
        }
        if (root.path("metrics").size() > 0) {
          names.add("metrics.csv");
        }
        names.add(REPORT);
      } catch (IOException e) {
        // unreadable: nothing is known to be its report's, so nothing is removed
      }
    }
    names.removeIf(n -> n.equals(RESULTS) || !owns(n) || n.indexOf('/') >= 0 || n.indexOf('\\') >= 0
        || n.startsWith(".") || !plainName(dir, n));
    return names;
  }

  /** @return whether {@code name} is a file name here (a NUL in an edited list failed the run with the path's error) */
  private static boolean plainName(Path dir, String name) {
    try {
      return dir.resolve(name).getParent() != null;
    } catch (java.nio.file.InvalidPathException e) {
      return false;
    }
  }

  private static void writeList(Path dir, Set<String> names) throws IOException {
    AtomicFiles.writeText(dir.resolve(WRITTEN), w -> {
      for (String n : names) {
        w.write(n);
        w.write('\n');
      }
    });
  }

  private static void deleteTree(Path stage) throws IOException {
    if (!Files.exists(stage)) {
      return;
    }
    List<Path> all = new ArrayList<>();
    try (java.util.stream.Stream<Path> s = Files.walk(stage)) {
      s.forEach(all::add);
    }
    java.util.Collections.reverse(all);
    for (Path f : all) {
      Files.deleteIfExists(f);
    }
  }

  /**
   * Draws one plot; returns false (and draws nothing) when its table has no row with both an x and a y value (no
   * rows, or only null cells: a statistic with no data).
   */
  static boolean draw(Results results, PlotSpec p, Path png) throws IOException {
    ResultTable t = results.table(p.table()).orElseThrow(() ->
        new IllegalArgumentException("plot " + p.file() + " reads table \"" + p.table() + "\", which the results lack"));
    int xi = t.columnIndex(p.x());
    int yi = t.columnIndex(p.y());
    if (t.rows().stream().noneMatch(row -> row.get(xi) != null && row.get(yi) != null)) {
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
      case BARS -> Plots.bars(png, p.caption(), label(t, p.x()), label(t, p.y()), categories(t, p, false), w, h);
      default -> throw new IllegalArgumentException("unknown plot kind " + p.kind());
    }
    return true;
  }

  /**
   * An axis label: the column's own, {@code latency [ns]}, as the fixed plots, merge's plots and every table header
   * write it (these plots wrote {@code latency (ns)}).
   */
  static String label(ResultTable t, String column) {
    return t.columns().get(t.columnIndex(column)).label();
  }

  /**
   * The group value to keep: the smallest number when the column holds numbers (a message size), else the first
   * value. It was always the first, so {@code sizes=64,8} drew the 64-byte bars under a caption saying "smallest".
   */
  private static String smallestGroup(ResultTable t, int gi) {
    Object best = null;
    for (List<Object> row : t.rows()) {
      Object v = row.get(gi);
      if (v == null) {
        continue;
      }
      if (best == null) {
        best = v;
      } else if (v instanceof Number n && best instanceof Number b && n.doubleValue() < b.doubleValue()) {
        best = v;
      }
    }
    return best == null ? null : String.valueOf(best);
  }

  /**
   * Bars: categories from column x, one series per value of the group column. With {@code smallestGroupOnly}, only
   * the rows of the smallest group value are kept (the smallest message size; the first value of a text column).
   */
  private static List<CategorySeries> categories(ResultTable t, PlotSpec p, boolean smallestGroupOnly) {
    int xi = t.columnIndex(p.x());
    int yi = t.columnIndex(p.y());
    int gi = p.group() == null ? -1 : t.columnIndex(p.group());
    Map<String, Map<String, Double>> byGroup = new LinkedHashMap<>();
    String only = smallestGroupOnly && gi >= 0 ? smallestGroup(t, gi) : null;
    for (List<Object> row : t.rows()) {
      if (row.get(xi) == null || row.get(yi) == null) {
        continue; // no value to draw, as Series.fromTable skips it
      }
      String g = gi < 0 ? p.y() : String.valueOf(row.get(gi));
      if (only != null && !only.equals(g)) {
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
