package io.github.ariesmodel.cli.sweep;

import io.github.ariesmodel.core.ByteCount;
import io.github.ariesmodel.core.Texts;

import io.github.ariesmodel.cli.report.Column;
import io.github.ariesmodel.cli.report.Metric;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.ResultsJson;
import io.github.ariesmodel.cli.report.RunMetadata;
import io.github.ariesmodel.cli.report.SweepCoordinates;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Merges the point files of a sweep, from any number of shards and directories, into one {@link Results} with one
 * table, {@value #TABLE}: one row per point in index order; columns {@code point}, then the sweep's parameters, then
 * the chosen metrics (with their units). A point without one of the metrics (it had no value for it: a replay without
 * point-to-point messages has no latency) has a null cell there.
 *
 * <p>Parameter columns are typed from their values: {@code integer} when every value is a whole number, {@code number}
 * when every value is a number, {@code string} otherwise. The merged metadata keeps the tool of the points, the
 * system, routing, fabric, translator, NIC and IOMMU settings and seed when all points agree (else null), sums
 * simulated time and events, records the sweep's specification as parameter {@code spec}, and has no wall clock, so
 * the merged file depends only on the points' contents, not on how they were sharded or when they ran.
 *
 * <p>Errors ({@link IllegalArgumentException}, naming files and points): no point files; a file that is not a sweep
 * point; points from different sweeps, or of one sweep's specification run by different jobs (their commands
 * differ), or written by different versions of the tool ({@code run.tool}); the same point twice; missing points (listed); a chosen metric no point has; a
 * metric whose unit differs between points.
 */
public final class SweepMerge {

  /** Name of the merged table. */
  public static final String TABLE = "sweep";

  private SweepMerge() {}

  /**
   * Finds point files: a directory contributes its {@code point-*.json} files (not recursively), a file contributes
   * itself.
   *
   * @param inputs directories and files
   * @return the files, directories' files sorted by name
   * @throws IOException when a directory cannot be listed
   * @throws IllegalArgumentException when an input does not exist
   */
  public static List<Path> pointFiles(List<Path> inputs) throws IOException {
    List<Path> files = new ArrayList<>();
    for (Path in : inputs) {
      if (Files.isDirectory(in)) {
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(in, "point-*.json")) {
          ds.forEach(found::add);
        }
        found.sort(null);
        files.addAll(found);
      } else if (Files.isRegularFile(in)) {
        files.add(in);
      } else {
        throw new IllegalArgumentException("merge input " + in + " is neither a directory nor a file");
      }
    }
    return files;
  }

  /**
   * Reads and merges point files.
   *
   * @param inputs directories (their {@code point-*.json}) and files
   * @param metricNames metrics to put in the table, in order; empty for every metric of any point, the lowest-index
   *     point's first
   * @param command the command recorded in the merged metadata
   * @return the merged results
   * @throws IOException when a file cannot be read
   * @throws IllegalArgumentException on the errors listed in the class comment
   */
  public static Results mergeFiles(List<Path> inputs, List<String> metricNames, String command)
      throws IOException {
    List<Path> files = pointFiles(inputs);
    if (files.isEmpty()) {
      throw new IllegalArgumentException("found no point-*.json files in " + inputs);
    }
    refuseRepeatedInputs(inputs, files);
    TreeMap<Integer, Results> byIndex = new TreeMap<>();
    TreeMap<Integer, Path> from = new TreeMap<>();
    Results first = null;
    Path firstFile = null;
    for (Path f : files) {
      Results r = ResultsJson.read(f);
      SweepCoordinates c = r.metadata().sweep();
      if (c == null) {
        throw new IllegalArgumentException(f + " is not a sweep point (its run.sweep is null)");
      }
      if (first == null) {
        first = r;
        firstFile = f;
      }
      // the sweep's identity before the points' indices: two sweeps' points were told as "point 0 appears twice"
      // (until stop 75)
      SweepCoordinates c0 = first.metadata().sweep();
      if (!c.spec().equals(c0.spec()) || c.points() != c0.points()) {
        throw new IllegalArgumentException("points come from different sweeps: point " + c0.index() + " ("
            + firstFile + ") is from \"" + Texts.abbreviate(c0.spec()) + "\" (" + c0.points() + " points) but point "
            + c.index() + " (" + f + ") is from \"" + Texts.abbreviate(c.spec()) + "\" (" + c.points() + " points)");
      }
      if (!Objects.equals(r.metadata().command(), first.metadata().command())) {
        throw new IllegalArgumentException("points come from different jobs: point " + c0.index() + " (" + firstFile
            + ") is from " + job(first.metadata().command()) + " but point " + c.index() + " (" + f + ") is from "
            + job(r.metadata().command()));
      }
      refuseOtherTool(first, r, firstFile, f, c0.index(), c.index());
      Path earlier = from.putIfAbsent(c.index(), f);
      if (earlier != null) {
        throw new IllegalArgumentException("point " + c.index() + " appears twice: in " + earlier + " and " + f);
      }
      byIndex.put(c.index(), r);
    }
    return merge(new ArrayList<>(byIndex.values()), metricNames, command, from);
  }

  /**
   * Refuses an input given twice, or a point file reached twice (a directory and a point file in it): {@code merge sw1
   * sw1} was told as "point 0 appears twice" in one file named twice (until stop 75). Compared by real path, so that
   * {@code sw1} and {@code ./sw1/} are one.
   */
  private static void refuseRepeatedInputs(List<Path> inputs, List<Path> files) throws IOException {
    Map<Path, Path> seen = new java.util.HashMap<>();
    for (Path in : inputs) {
      Path earlier = seen.putIfAbsent(in.toRealPath(), in);
      if (earlier != null) {
        throw new IllegalArgumentException("merge input " + in + (in.equals(earlier) ? " is given twice"
            : " is " + earlier + " again") + "; give each input once");
      }
    }
    seen.clear();
    for (Path f : files) {
      Path earlier = seen.putIfAbsent(f.toRealPath(), f);
      if (earlier != null) {
        throw new IllegalArgumentException("point file " + f + " is reached twice by the inputs (also as " + earlier
            + "); give each directory or point file once");
      }
    }
  }

  /**
   * Merges point results already in memory.
   *
   * @param points results of sweep points, in any order
   * @param metricNames metrics to put in the table, in order; empty for every metric of any point, the lowest-index
   *     point's first
   * @param command the command recorded in the merged metadata
   * @return the merged results
   * @throws IllegalArgumentException on the errors listed in the class comment
   */
  public static Results merge(List<Results> points, List<String> metricNames, String command) {
    return merge(points, metricNames, command, null);
  }

  private static Results merge(List<Results> points, List<String> metricNames, String command,
      Map<Integer, Path> files) {
    Objects.requireNonNull(metricNames, "metricNames");
    if (points.isEmpty()) {
      throw new IllegalArgumentException("there are no sweep points to merge");
    }
    TreeMap<Integer, Results> byIndex = new TreeMap<>();
    for (Results r : points) {
      SweepCoordinates c = r.metadata().sweep();
      if (c == null) {
        throw new IllegalArgumentException("results of command \"" + r.metadata().command()
            + "\" are not a sweep point (no sweep coordinates)");
      }
      if (byIndex.put(c.index(), r) != null) {
        throw new IllegalArgumentException("point " + c.index() + " appears twice");
      }
    }
    Results first = byIndex.firstEntry().getValue();
    SweepCoordinates c0 = first.metadata().sweep();
    for (Results r : byIndex.values()) {
      SweepCoordinates c = r.metadata().sweep();
      if (!c.spec().equals(c0.spec()) || c.points() != c0.points()) {
        throw new IllegalArgumentException("points come from different sweeps: point " + c0.index() + where(files,
            c0.index()) + " is from \"" + c0.spec() + "\" (" + c0.points() + " points) but point " + c.index()
            + where(files, c.index()) + " is from \"" + c.spec() + "\" (" + c.points() + " points)");
      }
      if (!Objects.equals(r.metadata().command(), first.metadata().command())) {
        // the same spec run by another job: the rows would mix two workloads' figures under one set of coordinates
        throw new IllegalArgumentException("points come from different jobs: point " + c0.index() + where(files,
            c0.index()) + " is from " + job(first.metadata().command()) + " but point " + c.index()
            + where(files, c.index()) + " is from " + job(r.metadata().command()));
      }
      refuseOtherTool(first, r, files == null ? null : files.get(c0.index()),
          files == null ? null : files.get(c.index()), c0.index(), c.index());
    }
    SweepSpec spec;
    try {
      spec = SweepSpec.parse(c0.spec());
    } catch (IllegalArgumentException e) {
      // points of a sweep no sweep runs now (sizes=05,5, one point twice: merged, two rows of the same coordinates)
      throw new IllegalArgumentException("point " + c0.index() + where(files, c0.index()) + " is of the sweep \""
          + Texts.abbreviate(c0.spec()) + "\", which cannot be merged: " + e.getMessage(), e);
    }
    if (spec.size() != c0.points()) {
      // An edited count would otherwise be trusted: listing the missing points of a count of billions takes minutes.
      throw new IllegalArgumentException("point " + c0.index() + where(files, c0.index()) + " says its sweep has "
          + c0.points() + " points but the sweep \"" + Texts.abbreviate(c0.spec()) + "\" has " + spec.size());
    }
    if (byIndex.size() != c0.points()) {
      List<Integer> missing = new ArrayList<>();
      int count = 0;
      for (int i = 0; i < c0.points(); i++) {
        if (!byIndex.containsKey(i)) {
          count++;
          if (missing.size() < 20) {
            missing.add(i);
          }
        }
      }
      throw new IllegalArgumentException("sweep \"" + c0.spec() + "\" has " + c0.points() + " points but "
          + count + " are missing: " + missing + (count > missing.size() ? " ..." : ""));
    }
    List<String> metrics = new ArrayList<>(metricNames);
    if (metrics.isEmpty()) {
      java.util.Set<String> all = new java.util.LinkedHashSet<>();
      for (Results r : byIndex.values()) {
        r.metrics().forEach(m -> all.add(m.name()));
      }
      metrics.addAll(all);
    }
    ResultTable.Builder t = ResultTable.builder(TABLE).integer("point", "");
    List<SweepSpec.Parameter> params = spec.parameters();
    for (SweepSpec.Parameter p : params) {
      t.column(parameterColumn(p));
    }
    String[] units = new String[metrics.size()];
    for (int k = 0; k < metrics.size(); k++) {
      String name = metrics.get(k);
      // a point may lack a metric it has no value for (a replay without point-to-point messages has no latency): its
      // cell is null; a metric no point has is a mistake
      units[k] = byIndex.values().stream().flatMap(r -> r.metric(name).stream()).findFirst()
          .orElseThrow(() -> missingMetric(name, c0.index(), files, first)).unit();
      t.number(name, units[k]);
    }
    String system = first.metadata().system();
    String routing = first.metadata().routing();
    String fabric = first.metadata().fabric();
    String translator = first.metadata().translator();
    Map<String, String> nic = first.metadata().nic();
    Map<String, String> iommu = first.metadata().iommu();
    Long seed = first.metadata().seed();
    long simPs = 0;
    long events = 0;
    for (Results r : byIndex.values()) {
      RunMetadata m = r.metadata();
      int idx = m.sweep().index();
      List<Object> row = new ArrayList<>();
      row.add((long) idx);
      for (SweepSpec.Parameter p : params) {
        String v = m.parameters().get(p.name());
        if (v == null) {
          throw new IllegalArgumentException("point " + idx + where(files, idx) + " lacks parameter " + p.name());
        }
        String expected = spec.point(idx).parameters().get(p.name());
        if (!v.equals(expected)) {
          // An edited or mislabelled point file would give two rows with the same coordinates.
          throw new IllegalArgumentException("point " + idx + where(files, idx) + " has " + p.name() + "="
              + Texts.abbreviate(v) + " but the sweep's point " + idx + " has " + p.name() + "=" + expected);
        }
        row.add(typed(v, columnTypeOf(p)));
      }
      for (int k = 0; k < metrics.size(); k++) {
        String name = metrics.get(k);
        Metric metric = r.metric(name).orElse(null);
        if (metric != null && !metric.unit().equals(units[k])) {
          throw new IllegalArgumentException("metric " + name + " has unit \"" + units[k] + "\" at an earlier point"
              + " but \"" + metric.unit() + "\" at point " + idx + where(files, idx));
        }
        row.add(metric == null ? null : metric.value());
      }
      t.row(row);
      system = Objects.equals(system, m.system()) ? system : null;
      routing = Objects.equals(routing, m.routing()) ? routing : null;
      fabric = Objects.equals(fabric, m.fabric()) ? fabric : null;
      translator = Objects.equals(translator, m.translator()) ? translator : null;
      nic = Objects.equals(nic, m.nic()) ? nic : null;
      iommu = Objects.equals(iommu, m.iommu()) ? iommu : null;
      seed = Objects.equals(seed, m.seed()) ? seed : null;
      simPs = total(simPs, m.simulatedTimePs(), "run.simulatedTimePs", idx, files);
      events = total(events, m.events(), "run.events", idx, files);
    }
    RunMetadata merged = RunMetadata.builder(first.metadata().tool(), command)
        .system(system).routing(routing).fabric(fabric).translator(translator).nic(nic).iommu(iommu).seed(seed)
        .parameter("spec", c0.spec())
        .simulatedTimePs(simPs).events(events)
        .build();
    return Results.builder(merged).table(t.build()).build();
  }

  /**
   * Refuses points that two versions of the tool wrote (shards run by two builds): their figures may come from two
   * models, and the merged file recorded the first point's tool for all of them (until stop 76).
   */
  private static void refuseOtherTool(Results first, Results r, Path firstFile, Path file, int firstIndex, int index) {
    String a = first.metadata().tool();
    String b = r.metadata().tool();
    if (!a.equals(b)) {
      throw new IllegalArgumentException("points come from different versions of the tool: point " + firstIndex
          + (firstFile == null ? "" : " (" + firstFile + ")") + " was written by \"" + Texts.abbreviate(a)
          + "\" but point " + index + (file == null ? "" : " (" + file + ")") + " by \"" + Texts.abbreviate(b)
          + "\"; merge the points of one build (run the sweep again with it)");
    }
  }

  private static IllegalArgumentException missingMetric(String name, int idx, Map<Integer, Path> files, Results r) {
    List<String> have = new ArrayList<>();
    for (Metric m : r.metrics()) {
      have.add(m.name());
    }
    return new IllegalArgumentException("point " + idx + where(files, idx) + " has no metric "
        + Texts.abbreviate(name) + "; its metrics are " + have);
  }

  /**
   * A sum of the points' figures, refused in words when it leaves a long (an edited file: every real sweep's totals
   * fit many times over); it was an {@link ArithmeticException}, which reached the user as "integer overflow".
   */
  private static long total(long sum, long value, String field, int idx, Map<Integer, Path> files) {
    try {
      return Math.addExact(sum, value);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("point " + idx + where(files, idx) + " has " + field + " " + value
          + ", which takes the points' total beyond " + Long.MAX_VALUE, e);
    }
  }

  /** A point's job as its command names it ({@code sweep --job NAME SPEC}), or the command itself, quoted. */
  private static String job(String command) {
    java.util.regex.Matcher m = SWEEP_COMMAND.matcher(String.valueOf(command));
    return m.matches() ? "job " + Texts.abbreviate(m.group(1)) : "\"" + Texts.abbreviate(command) + "\"";
  }

  /** The command {@code aries sweep} records in its points: {@code sweep --job NAME SPEC}. */
  private static final java.util.regex.Pattern SWEEP_COMMAND = java.util.regex.Pattern.compile(
      "sweep --job (\\S+)(?: .*)?", java.util.regex.Pattern.DOTALL);

  private static String where(Map<Integer, Path> files, int idx) {
    return files == null || !files.containsKey(idx) ? "" : " (" + files.get(idx) + ")";
  }

  /**
   * A parameter column's type: integer when every value is a whole number within a long, number when every value is a
   * number and no two values are one double, else string. Until stop 77 an integer needed 18 digits at most, so a
   * range of 19-digit seeds ({@code seed=1000000000000000000..1000000000000000002}) was typed number and its three
   * points merged as three rows of the seed {@code 1.0E18}.
   */
  private static int columnTypeOf(SweepSpec.Parameter p) {
    boolean integers = true;
    boolean numbers = true;
    java.util.Set<Double> doubles = new java.util.HashSet<>();
    for (String v : p.values()) {
      integers &= wholeNumber(v) != null;
      numbers &= isFiniteNumber(v) && doubles.add(SweepSpec.decimal(v));
    }
    return integers ? 0 : numbers ? 1 : 2;
  }

  private static Column parameterColumn(SweepSpec.Parameter p) {
    return switch (columnTypeOf(p)) {
      case 0 -> Column.integer(p.name(), "");
      case 1 -> Column.number(p.name(), "");
      default -> Column.string(p.name());
    };
  }

  private static Object typed(String v, int type) {
    return switch (type) {
      case 0 -> wholeNumber(v);
      case 1 -> Double.parseDouble(v);
      default -> v;
    };
  }

  /**
   * A parameter value as a whole number, or null: plain digits with an optional sign, or a count with a binary suffix
   * ({@code 4K} = 4,096), which every workload's size and count parameters accept ({@link ByteCount#parseCount}), so
   * that a sweep over {@code sizes=8,4K,32K} can be plotted against size.
   */
  static Long wholeNumber(String v) {
    if (v.matches("[+-]?\\d{1,19}")) {
      try {
        return Long.parseLong(v);
      } catch (NumberFormatException e) {
        return null; // beyond a long
      }
    }
    if (!v.matches("\\d{1,19}[kKmMgGtT][bB]?")) {
      return null;
    }
    try {
      return ByteCount.parseCount("value", v);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static boolean isFiniteNumber(String v) {
    return SweepSpec.decimal(v) != null;
  }
}
