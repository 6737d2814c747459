package io.github.ariesmodel.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsCsvTest {

  /** A minimal RFC 4180 reader, written independently of the writer, to check what the writer produced. */
  static List<List<String>> parse(String csv) {
    List<List<String>> rows = new ArrayList<>();
    List<String> row = new ArrayList<>();
    StringBuilder f = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < csv.length(); i++) {
      char c = csv.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < csv.length() && csv.charAt(i + 1) == '"') {
          f.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          f.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        row.add(f.toString());
        f.setLength(0);
      } else if (c == '\n') {
        row.add(f.toString());
        f.setLength(0);
        rows.add(row);
        row = new ArrayList<>();
      } else {
        f.append(c);
      }
    }
    return rows;
  }

  @Test
  void writesOneFilePerTableAndTheMetrics(@TempDir Path dir) throws IOException {
    List<Path> files = ResultsCsv.write(Fixtures.sample(false), dir);
    assertThat(files).containsExactly(dir.resolve("latency-by-size.csv"), dir.resolve("empty.csv"),
        dir.resolve("metrics.csv"));
    List<List<String>> t = parse(Files.readString(dir.resolve("latency-by-size.csv"), StandardCharsets.UTF_8));
    assertThat(t).containsExactly(
        List.of("size [B]", "latency [ns]", "routing"),
        List.of("8", "812.25", "ugal"),
        List.of("64", "840.0", "min,imal \"x\""),
        List.of("1048576", "", ""));
    assertThat(parse(Files.readString(dir.resolve("empty.csv")))).containsExactly(List.of("x"));
    assertThat(parse(Files.readString(dir.resolve("metrics.csv")))).containsExactly(
        List.of("name", "value", "unit"), List.of("latency.mean", "812.25", "ns"), List.of("hit-rate", "0.97", ""));
  }

  @Test
  void everyRandomTableParsesBackToItsCells() {
    for (long seed = 0; seed < 200; seed++) {
      ResultTable t = ResultsJsonProperties.table(seed);
      List<List<String>> parsed = parse(ResultsCsv.toCsv(t));
      assertThat(parsed).hasSize(t.rows().size() + 1);
      for (int c = 0; c < t.columns().size(); c++) {
        assertThat(parsed.get(0).get(c)).isEqualTo(t.columns().get(c).label());
      }
      for (int r = 0; r < t.rows().size(); r++) {
        for (int c = 0; c < t.columns().size(); c++) {
          Object v = t.rows().get(r).get(c);
          assertThat(parsed.get(r + 1).get(c)).isEqualTo(v == null ? "" : v.toString());
        }
      }
    }
  }

  @Test
  void quotesOnlyWhatRfc4180Requires() {
    assertThat(ResultsCsv.field("plain 1.5")).isEqualTo("plain 1.5");
    assertThat(ResultsCsv.field("a,b")).isEqualTo("\"a,b\"");
    assertThat(ResultsCsv.field("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
    assertThat(ResultsCsv.field("two\nlines")).isEqualTo("\"two\nlines\"");
  }
}
