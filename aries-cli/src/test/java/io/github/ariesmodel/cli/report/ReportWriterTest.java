package io.github.ariesmodel.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportWriterTest {

  @Test
  void withoutWallClockTheHtmlReportIsReproducibleToo(@TempDir Path dir) throws Exception {
    Path report = ReportWriter.write(Fixtures.sample(true), List.of(), dir, false, "t");
    String html = Files.readString(report);
    assertThat(html).doesNotContain("wall time").doesNotContain("2026-11-29T21:00");
    assertThat(Files.readString(dir.resolve("results.json"))).doesNotContain("wallClock");
  }

  @Test
  void withWallClockTheHtmlReportShowsIt(@TempDir Path dir) throws Exception {
    String html = Files.readString(ReportWriter.write(Fixtures.sample(true), List.of(), dir, true, "t"));
    assertThat(html).contains("wall time").contains("2026-11-29T21:00");
  }
}
