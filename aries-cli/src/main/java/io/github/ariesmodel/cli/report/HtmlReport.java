package io.github.ariesmodel.cli.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A single self-contained HTML file for one run: title, run metadata, metrics, notes, every table, and plots. Plots are
 * embedded as base64 {@code data:image/png} URIs, so the file can be mailed, attached to a CI run or opened from any
 * directory without its PNGs. All text from the results (names, units, strings, captions) is HTML-escaped. Tables
 * longer than {@link Builder#maxRows(int)} rows are cut, with a note saying how many rows are left out and, when the
 * caller said where ({@link Builder#wholeTablesIn}), the files that hold them.
 *
 * <pre>{@code
 * HtmlReport.builder(results).title("Ping-pong latency").plot("Latency by distance", dir.resolve("distance.png"))
 *     .build().write(dir.resolve("report.html"));
 * }</pre>
 */
public final class HtmlReport {

  /** Default limit of rows shown per table. */
  public static final int DEFAULT_MAX_ROWS = 500;

  private final Results results;
  private final String title;
  private final List<Plot> plots;
  private final List<String> notes;
  private final int maxRows;
  private final String json;
  private final String csvDirectory;

  private record Plot(String caption, byte[] png) {}

  private HtmlReport(Builder b) {
    this.results = b.results;
    this.title = b.title == null ? b.results.metadata().command() : b.title;
    this.plots = List.copyOf(b.plots);
    this.notes = List.copyOf(b.notes);
    this.maxRows = b.maxRows;
    this.json = b.json;
    this.csvDirectory = b.csvDirectory;
  }

  /**
   * Starts a report of some results.
   *
   * @param results the results
   * @return a builder
   */
  public static Builder builder(Results results) {
    return new Builder(results);
  }

  /**
   * Writes the report (UTF-8), creating parent directories.
   *
   * @param html the file to write
   * @throws IOException when it cannot be written
   */
  public void write(Path html) throws IOException {
    Path parent = html.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    String text = toHtml();
    AtomicFiles.writeText(html, w -> w.write(text));
  }

  /** @return the whole HTML document */
  public String toHtml() {
    StringBuilder h = new StringBuilder(4096);
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
        .append(escape(title)).append("</title>\n<style>\n")
        .append("body{font-family:system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#222}\n")
        .append("table{border-collapse:collapse;margin:0.5em 0 1.5em}\n")
        .append("th,td{border:1px solid #ccc;padding:0.2em 0.6em}\n")
        .append("td.n{text-align:right;font-variant-numeric:tabular-nums}\n")
        .append("th{background:#f3f3f3}\nfigure{margin:1em 0}\nimg{max-width:100%}\n")
        .append("</style>\n</head>\n<body>\n<h1>").append(escape(title)).append("</h1>\n");
    appendRun(h, results.metadata());
    if (!results.metrics().isEmpty()) {
      h.append("<h2>Metrics</h2>\n<table>\n<tr><th>metric</th><th>value</th><th>unit</th></tr>\n");
      for (Metric m : results.metrics()) {
        h.append("<tr><td>").append(escape(m.name())).append("</td><td class=\"n\">").append(number(m.value()))
            .append("</td><td>").append(escape(m.unit())).append("</td></tr>\n");
      }
      h.append("</table>\n");
    }
    for (String n : notes) {
      h.append("<p class=\"note\">").append(escape(n)).append("</p>\n");
    }
    if (!plots.isEmpty()) {
      h.append("<h2>Plots</h2>\n");
      for (Plot p : plots) {
        h.append("<figure><img alt=\"").append(escape(p.caption())).append("\" src=\"data:image/png;base64,")
            .append(Base64.getEncoder().encodeToString(p.png())).append("\"><figcaption>")
            .append(escape(p.caption())).append("</figcaption></figure>\n");
      }
    }
    for (ResultTable t : results.tables()) {
      appendTable(h, t);
    }
    h.append("</body>\n</html>\n");
    return h.toString();
  }

  private void appendRun(StringBuilder h, RunMetadata m) {
    h.append("<h2>Run</h2>\n<table>\n");
    row(h, "tool", m.tool());
    row(h, "command", m.command());
    if (m.system() != null) {
      row(h, "system", m.system());
    }
    if (m.routing() != null) {
      row(h, "routing", m.routing());
    }
    if (m.fabric() != null) {
      row(h, "fabric", m.fabric());
    }
    if (m.translator() != null) {
      row(h, "translator", m.translator());
    }
    settingsRow(h, "nic", m.nic());
    settingsRow(h, "iommu", m.iommu());
    if (m.seed() != null) {
      row(h, "seed", Long.toString(m.seed()));
    }
    for (Map.Entry<String, String> e : m.parameters().entrySet()) {
      row(h, "parameter " + e.getKey(), e.getValue());
    }
    if (m.sweep() != null) {
      row(h, "sweep point", m.sweep().index() + " of " + m.sweep().points() + " (" + m.sweep().spec() + ")");
    }
    row(h, "simulated time", String.format(java.util.Locale.ROOT, "%,d ps", m.simulatedTimePs()));
    row(h, "events", String.format(java.util.Locale.ROOT, "%,d", m.events()));
    if (m.wallClock() != null) {
      row(h, "started", m.wallClock().startedAt().toString());
      row(h, "finished", m.wallClock().finishedAt().toString());
      row(h, "wall time", String.format(java.util.Locale.ROOT, "%.3f s", m.wallClock().wallSeconds()));
    }
    m.eventsPerSecond().ifPresent(
        eps -> row(h, "events/s", String.format(java.util.Locale.ROOT, "%,.0f", eps)));
    h.append("</table>\n");
  }

  /** A run's NIC or IOMMU settings on one line, {@code key=value, ...}, or "defaults" when it changed none. */
  private static void settingsRow(StringBuilder h, String key, Map<String, String> settings) {
    if (settings != null) {
      StringBuilder v = new StringBuilder();
      settings.forEach((k, x) -> v.append(v.length() == 0 ? "" : ", ").append(k).append('=').append(x));
      row(h, key, v.length() == 0 ? "defaults" : v.toString());
    }
  }

  private static void row(StringBuilder h, String key, String value) {
    h.append("<tr><th>").append(escape(key)).append("</th><td>").append(escape(value)).append("</td></tr>\n");
  }

  private void appendTable(StringBuilder h, ResultTable t) {
    h.append("<h2>").append(escape(t.name())).append("</h2>\n<table>\n<tr>");
    for (Column c : t.columns()) {
      h.append("<th>").append(escape(c.label())).append("</th>");
    }
    h.append("</tr>\n");
    int shown = Math.min(maxRows, t.rows().size());
    for (int r = 0; r < shown; r++) {
      h.append("<tr>");
      for (Object v : t.rows().get(r)) {
        h.append(v instanceof Number ? "<td class=\"n\">" : "<td>")
            .append(v == null ? "" : v instanceof Double d ? number(d) : escape(v.toString()))
            .append("</td>");
      }
      h.append("</tr>\n");
    }
    h.append("</table>\n");
    if (shown < t.rows().size()) {
      h.append("<p>").append(escape(leftOut(t.name(), t.rows().size() - shown))).append("</p>\n");
    }
  }

  /**
   * The note under a cut table: how many rows it leaves out, and the files that hold them, those written only. It said
   * "1 more rows are in the JSON and CSV results" of a merge that wrote no CSV.
   */
  private String leftOut(String table, int rows) {
    String count = String.format(java.util.Locale.ROOT, "%,d more row%s", rows, rows == 1 ? "" : "s");
    if (json == null) {
      return count + (rows == 1 ? " is" : " are") + " not shown.";
    }
    String in = json;
    if (csvDirectory != null) {
      String csv = table + ".csv";
      in += " and " + (csvDirectory.isEmpty() ? csv : Path.of(csvDirectory).resolve(csv).toString());
    }
    return count + (rows == 1 ? " is" : " are") + " in " + in + ".";
  }

  /**
   * Escapes text for HTML element content and attribute values.
   *
   * @param s text
   * @return the text with {@code & < > " '} replaced by character references
   */
  public static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  /** Builds an {@link HtmlReport}. */
  public static final class Builder {
    private final Results results;
    private String title;
    private final List<Plot> plots = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private int maxRows = DEFAULT_MAX_ROWS;
    private String json;
    private String csvDirectory;

    private Builder(Results results) {
      this.results = Objects.requireNonNull(results, "results");
    }

    /**
     * @param value the report's title; defaults to the run's command
     * @return this builder
     */
    public Builder title(String value) {
      this.title = Names.checkText("title", value);
      return this;
    }

    /**
     * Adds a plot, read now from a PNG file and embedded.
     *
     * @param caption caption under the plot
     * @param png a PNG file, such as one written by {@link Plots}
     * @return this builder
     * @throws IOException when the file cannot be read
     * @throws IllegalArgumentException when the file is not a PNG
     */
    public Builder plot(String caption, Path png) throws IOException {
      return plot(caption, Files.readAllBytes(png));
    }

    /**
     * Adds a plot from PNG bytes.
     *
     * @param caption caption under the plot
     * @param png the PNG image
     * @return this builder
     * @throws IllegalArgumentException when the bytes are not a PNG
     */
    public Builder plot(String caption, byte[] png) {
      Names.checkText("caption", caption);
      byte[] sig = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
      if (png.length < sig.length || !java.util.Arrays.equals(png, 0, sig.length, sig, 0, sig.length)) {
        throw new IllegalArgumentException("plot \"" + caption + "\" must be a PNG image (signature 89 50 4E 47)");
      }
      plots.add(new Plot(caption, png.clone()));
      return this;
    }

    /**
     * Adds a note, shown after the metrics: what the figures cannot say (a statistic with no data).
     *
     * @param text one line
     * @return this builder
     */
    public Builder note(String text) {
      notes.add(Names.checkText("note", text));
      return this;
    }

    /**
     * @param value most rows shown per table, {@code >= 1}
     * @return this builder
     */
    public Builder maxRows(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("maxRows must be >= 1 but was " + value);
      }
      this.maxRows = value;
      return this;
    }

    /**
     * Names the files that hold every row of the tables, for the note under a table cut at {@link #maxRows(int)}:
     * without it the note says only how many rows are not shown.
     *
     * @param jsonFile the results file, as the reader should find it (e.g. {@code results.json} beside the report)
     * @param csvDirectory the directory of the CSV tables ({@code TABLE.csv} each), empty for beside the report, or
     *     null when no CSV was written
     * @return this builder
     */
    public Builder wholeTablesIn(String jsonFile, String csvDirectory) {
      this.json = Objects.requireNonNull(jsonFile, "jsonFile");
      this.csvDirectory = csvDirectory;
      return this;
    }

    /** @return the report */
    public HtmlReport build() {
      return new HtmlReport(this);
    }
  }

  /**
   * A number as a reader wants it: a whole value as an integer (13584368, not Java's 1.3584368E7, which counts of ten
   * million or more became), others in plain decimals from 0.001 to 10^15, and as Java writes them beyond.
   */
  static String number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 0x1p53) {
      return Long.toString((long) v);
    }
    double a = Math.abs(v);
    if (a >= 1e-3 && a < 1e15) {
      return java.math.BigDecimal.valueOf(v).toPlainString(); // 13584368.5, not 1.35843685E7
    }
    return Double.toString(v);
  }
}
