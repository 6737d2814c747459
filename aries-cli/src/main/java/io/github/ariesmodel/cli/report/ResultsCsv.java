package io.github.ariesmodel.cli.report;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes {@link Results} as CSV: one file per table, {@code <table>.csv}, and the scalar metrics in {@code
 * metrics.csv} (specified in {@code docs/results-schema.md}).
 *
 * <p>Each file has one header line, {@code name [unit]} per column (the name alone when there is no unit), then one
 * line per row. Fields follow RFC 4180 quoting (a field holding a comma, a double quote, CR or LF is quoted, inner
 * quotes doubled); lines end with {@code \n}; files are UTF-8; a cell without value is an empty field; numbers are in
 * Java's shortest round-trip form. CSV carries no run metadata: the JSON file does.
 */
public final class ResultsCsv {

  /** Name of the file holding the scalar metrics. */
  public static final String METRICS_FILE = ResultTable.RESERVED_NAME + ".csv";

  private ResultsCsv() {}

  /**
   * Writes every table, and the metrics when there are any, into a directory (created when missing).
   *
   * @param results the results
   * @param directory the directory
   * @return the files written, tables in order then {@value #METRICS_FILE}
   * @throws IOException when a file cannot be written
   */
  public static List<Path> write(Results results, Path directory) throws IOException {
    Files.createDirectories(directory);
    List<Path> written = new ArrayList<>();
    for (ResultTable t : results.tables()) {
      Path f = directory.resolve(t.name() + ".csv");
      try (Writer w = Files.newBufferedWriter(f, StandardCharsets.UTF_8)) {
        writeTable(t, w);
      }
      written.add(f);
    }
    if (!results.metrics().isEmpty()) {
      Path f = directory.resolve(METRICS_FILE);
      try (Writer w = Files.newBufferedWriter(f, StandardCharsets.UTF_8)) {
        writeMetrics(results.metrics(), w);
      }
      written.add(f);
    }
    return written;
  }

  /**
   * Writes one table as CSV. The writer is not closed.
   *
   * @param table the table
   * @param out where to write
   * @throws IOException when writing fails
   */
  public static void writeTable(ResultTable table, Writer out) throws IOException {
    List<Column> cols = table.columns();
    for (int i = 0; i < cols.size(); i++) {
      if (i > 0) {
        out.write(',');
      }
      out.write(field(cols.get(i).label()));
    }
    out.write('\n');
    for (List<Object> row : table.rows()) {
      for (int i = 0; i < row.size(); i++) {
        if (i > 0) {
          out.write(',');
        }
        Object v = row.get(i);
        out.write(v == null ? "" : field(v.toString()));
      }
      out.write('\n');
    }
    out.flush();
  }

  /**
   * Writes metrics as CSV with the header {@code name,value,unit}. The writer is not closed.
   *
   * @param metrics the metrics
   * @param out where to write
   * @throws IOException when writing fails
   */
  public static void writeMetrics(List<Metric> metrics, Writer out) throws IOException {
    out.write("name,value,unit\n");
    for (Metric m : metrics) {
      out.write(field(m.name()));
      out.write(',');
      out.write(Double.toString(m.value()));
      out.write(',');
      out.write(field(m.unit()));
      out.write('\n');
    }
    out.flush();
  }

  /**
   * One table as a CSV string.
   *
   * @param table the table
   * @return the CSV text
   */
  public static String toCsv(ResultTable table) {
    StringWriter w = new StringWriter();
    try {
      writeTable(table, w);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return w.toString();
  }

  /**
   * Quotes a field when RFC 4180 requires it.
   *
   * @param s field text
   * @return the field as it appears in the file
   */
  static String field(String s) {
    boolean quote = false;
    for (int i = 0; i < s.length() && !quote; i++) {
      char c = s.charAt(i);
      quote = c == ',' || c == '"' || c == '\n' || c == '\r';
    }
    return quote ? '"' + s.replace("\"", "\"\"") + '"' : s;
  }
}
