package io.github.ariesmodel.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {

  @Test
  void rendersMetadataMetricsAndTables() {
    String html = HtmlReport.builder(Fixtures.sample(true)).build().toHtml();
    assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
    assertThat(html).contains("<h2>latency-by-size</h2>")
        .contains("<th>size [B]</th><th>latency [ns]</th><th>routing</th>")
        .contains("<tr><td class=\"n\">8</td><td class=\"n\">812.25</td><td>ugal</td></tr>")
        .contains("<td>latency.mean</td><td class=\"n\">812.25</td><td>ns</td>")
        .contains("<th>seed</th><td>42</td>")
        .contains("<th>events/s</th><td>400,000</td>");
    // the system settings the run block records
    assertThat(html).contains("<th>fabric</th><td>routers</td>", "<th>translator</th><td>iommu</td>",
        "<th>nic</th><td>requestTags=32</td>", "<th>iommu</th><td>defaults</td>");
  }

  /** Counts of ten million or more read as counts, not as Java's 1.3584368E7 (stop 64's hunt of the reports). */
  @Test
  void wholeNumbersArePrintedAsIntegersAndOthersUnchanged() {
    Results r = Results.builder(RunMetadata.builder("t", "replay").build())
        .metric("bytes", 13_584_368, "B").metric("ranks", 27, "").metric("share", 0.25, "")
        .table(ResultTable.builder("x").number("v", "").row(1.5e7).row(2.5).build())
        .build();
    String html = HtmlReport.builder(r).build().toHtml();
    assertThat(html).contains("<td>bytes</td><td class=\"n\">13584368</td>", "<td>ranks</td><td class=\"n\">27</td>",
        "<td>share</td><td class=\"n\">0.25</td>", "<td class=\"n\">15000000</td>", "<td class=\"n\">2.5</td>")
        .doesNotContain("E7");
    assertThat(HtmlReport.number(1e300)).isEqualTo("1.0E300");
    assertThat(HtmlReport.number(13_584_368.5)).isEqualTo("13584368.5");
    assertThat(HtmlReport.number(-3)).isEqualTo("-3");
  }

  @Test
  void escapesEveryPieceOfText() {
    Results r = Results.builder(RunMetadata.builder("t", "run <script>alert(1)</script>").build())
        .metric("a<b", 1, "<u>")
        .table(ResultTable.builder("x").string("c<d").row("<b>&\"'").build())
        .build();
    String html = HtmlReport.builder(r).build().toHtml();
    assertThat(html).doesNotContain("<script>").doesNotContain("<b>").doesNotContain("a<b").doesNotContain("<u>");
    assertThat(html).contains("run &lt;script&gt;alert(1)&lt;/script&gt;").contains("<td>&lt;b&gt;&amp;&quot;&#39;</td>")
        .contains("<th>c&lt;d</th>");
  }

  @Test
  void embedsPlotsAsDataUris(@TempDir Path dir) throws IOException {
    Path png = dir.resolve("p.png");
    Plots.latencyVsLoad(png, List.of(Series.of("ugal", new double[] {0.1, 0.2}, new double[] {1, 2})), 200, 150);
    Path out = dir.resolve("report.html");
    HtmlReport.builder(Fixtures.sample(false)).title("T & <t>").plot("Latency < 2 us", png).build().write(out);
    String html = Files.readString(out);
    String b64 = Base64.getEncoder().encodeToString(Files.readAllBytes(png));
    assertThat(html).contains("src=\"data:image/png;base64," + b64 + "\"")
        .contains("<figcaption>Latency &lt; 2 us</figcaption>").contains("<title>T &amp; &lt;t&gt;</title>");
  }

  /**
   * The note under a cut table counts in the singular or the plural and names only the files that hold the rows: it
   * said "1 more rows are in the JSON and CSV results" of a merge that wrote no CSV.
   */
  @Test
  void theNoteUnderACutTableNamesTheFilesWrittenInTheRightNumber() {
    ResultTable.Builder t = ResultTable.builder("sweep").integer("i", "");
    for (int i = 0; i < 4; i++) {
      t.row(i);
    }
    Results r = Results.builder(RunMetadata.builder("t", "merge").build()).table(t.build()).build();
    assertThat(HtmlReport.builder(r).maxRows(3).wholeTablesIn("out/sweep.json", null).build().toHtml())
        .contains("<p>1 more row is in out/sweep.json.</p>").doesNotContain("CSV");
    assertThat(HtmlReport.builder(r).maxRows(2).wholeTablesIn("out/sweep.json", "out/csv").build().toHtml())
        .contains("<p>2 more rows are in out/sweep.json and out/csv/sweep.csv.</p>");
    assertThat(HtmlReport.builder(r).maxRows(3).wholeTablesIn("results.json", "").build().toHtml())
        .contains("<p>1 more row is in results.json and sweep.csv.</p>");
    assertThat(HtmlReport.builder(r).maxRows(3).build().toHtml()).contains("<p>1 more row is not shown.</p>");
  }

  @Test
  void cutsLongTablesAndRejectsNonPng() {
    ResultTable.Builder t = ResultTable.builder("big").integer("i", "");
    for (int i = 0; i < 10; i++) {
      t.row(i);
    }
    Results r = Results.builder(RunMetadata.builder("t", "c").build()).table(t.build()).build();
    String html = HtmlReport.builder(r).maxRows(3).build().toHtml();
    assertThat(html).contains(">2</td>").doesNotContain(">3</td>").contains("<p>7 more rows are not shown.</p>");
    assertThatThrownBy(() -> HtmlReport.builder(r).plot("x", new byte[] {1, 2, 3}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PNG");
  }
}
