package io.github.ariesmodel.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
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

  /**
   * A workload's plot labels its axes as the tables, the fixed plots and merge's plots do, {@code latency [ns]}: its
   * XY and bar plots wrote {@code latency (ns)}.
   */
  @Test
  void plotAxesAreLabelledAsTheTableHeadersAre() {
    ResultTable t = ResultTable.builder("x").integer("size", "B").number("latency", "ns").string("routing").build();
    assertThat(ReportWriter.label(t, "latency")).isEqualTo("latency [ns]");
    assertThat(ReportWriter.label(t, "size")).isEqualTo("size [B]");
    assertThat(ReportWriter.label(t, "routing")).isEqualTo("routing");
    assertThat(HtmlReport.builder(Results.builder(RunMetadata.builder("t", "c").build()).table(t).build()).build()
        .toHtml()).contains("<th>latency [ns]</th>");
  }

  @Test
  void withWallClockTheHtmlReportShowsIt(@TempDir Path dir) throws Exception {
    String html = Files.readString(ReportWriter.write(Fixtures.sample(true), List.of(), dir, true, "t"));
    assertThat(html).contains("wall time").contains("2026-11-29T21:00");
  }

  /**
   * A write that fails (here a file the report would replace is a directory with something in it; a full disk in use,
   * whose error names the hidden staging file) is named by the report's directory, and leaves no results.
   */
  @Test
  void aFailedWriteNamesTheReportsDirectory(@TempDir Path dir) throws IOException {
    Files.createDirectories(dir.resolve("latency-by-size.csv").resolve("inside"));
    assertThatThrownBy(() -> ReportWriter.write(Fixtures.sample(true), List.of(), dir, false, "t"))
        .isInstanceOf(IOException.class).hasMessageStartingWith("cannot write the report in " + dir + ": ");
    assertThat(dir.resolve(ReportWriter.RESULTS)).doesNotExist();
  }

  /**
   * A directory by a report file's name is found before the earlier run's results go: they were deleted first, and the
   * failed move left the directory with no results at all (stop 75).
   */
  @Test
  void aDirectoryByAReportFilesNameLeavesTheEarlierResultsWhole(@TempDir Path dir) throws IOException {
    ReportWriter.write(Fixtures.sample(true), List.of(), dir, false, "t");
    String before = Files.readString(dir.resolve(ReportWriter.RESULTS));
    Files.delete(dir.resolve("latency-by-size.csv"));
    Files.createDirectory(dir.resolve("latency-by-size.csv"));
    assertThatThrownBy(() -> ReportWriter.write(Fixtures.sample(true), List.of(), dir, false, "t"))
        .isInstanceOf(IOException.class).hasMessageContaining(dir.resolve("latency-by-size.csv")
            + " is not a regular file");
    assertThat(dir.resolve(ReportWriter.RESULTS)).hasContent(before);
  }

  /**
   * A file whose own write fails inside the staging directory is named by the path it was to have in the report's
   * directory, never the hidden staging one (stop 75: "cannot write DIR/.aries-partial-…/NAME.csv: File name too
   * long").
   */
  @Test
  void aFileThatCannotBeWrittenIsNamedByItsFinalPath(@TempDir Path dir) {
    String name = "t".repeat(252); // with .csv, longer than a file name may be
    Results r = Results.builder(Fixtures.sample(true).metadata())
        .table(ResultTable.builder(name).number("x", "").build()).build();
    assertThatThrownBy(() -> ReportWriter.write(r, List.of(), dir, false, "t")).isInstanceOf(IOException.class)
        .hasMessageStartingWith("cannot write the report in " + dir + ": cannot write " + dir.resolve(name + ".csv")
            + ": ")
        .hasMessageNotContaining(AtomicFiles.TEMP_PREFIX);
    assertThat(dir.resolve(ReportWriter.RESULTS)).doesNotExist();
  }

  /** An edited list of the report's files removes nothing but report files of the directory itself. */
  @Test
  void theListOfAnEarlierReportsFilesCanRemoveNothingElse(@TempDir Path dir) throws IOException {
    Path out = Files.createDirectories(dir.resolve("out"));
    Path outside = Files.writeString(dir.resolve("outside.csv"), "x");
    Path text = Files.writeString(out.resolve("notes.txt"), "x");
    Path hidden = Files.writeString(out.resolve(".hidden.csv"), "x");
    Path listed = Files.writeString(out.resolve("old.csv"), "x");
    Files.writeString(out.resolve(ReportWriter.WRITTEN), "../outside.csv\nnotes.txt\n.hidden.csv\nold.csv\n\n");
    ReportWriter.write(Fixtures.sample(true), List.of(), out, false, "t");
    assertThat(outside).exists();
    assertThat(text).exists();
    assertThat(hidden).exists();
    assertThat(listed).doesNotExist();
    assertThat(Files.readAllLines(out.resolve(ReportWriter.WRITTEN))).doesNotContain("old.csv", "results.json")
        .contains("report.html");
  }

  @Test
  void aDamagedListFailsNoRunAndRemovesNothingItCannotName(@TempDir Path dir) throws IOException {
    // a NUL in a name failed the run with the path's error after the old results.json had gone; bytes that are not
    // UTF-8 failed it as "not UTF-8 text (files)"
    Path nul = Files.createDirectories(dir.resolve("nul"));
    Path kept = Files.writeString(nul.resolve("old.csv"), "x");
    Files.writeString(nul.resolve(ReportWriter.WRITTEN), "bad\u0000x.csv\nold.csv\n");
    ReportWriter.write(Fixtures.sample(true), List.of(), nul, false, "t");
    assertThat(nul.resolve(ReportWriter.RESULTS)).exists();
    assertThat(kept).doesNotExist();
    Path latin = Files.createDirectories(dir.resolve("latin"));
    Path mine = Files.writeString(latin.resolve("old.csv"), "x");
    Files.write(latin.resolve(ReportWriter.WRITTEN), new byte[] {'c', 'a', 'f', (byte) 0xe9, '.', 'c', 's', 'v', '\n',
        'o', 'l', 'd', '.', 'c', 's', 'v', '\n'});
    ReportWriter.write(Fixtures.sample(true), List.of(), latin, false, "t");
    assertThat(latin.resolve(ReportWriter.RESULTS)).exists();
    assertThat(mine).as("an unreadable list names nothing to remove").exists();
  }

  @Test
  void aFailedAtomicWriteNamesItsTarget(@TempDir Path dir) {
    Path target = dir.resolve("out.json");
    assertThatThrownBy(() -> AtomicFiles.write(target, f -> {
      throw new java.nio.file.FileSystemException(f.toString(), null, "No space left on device");
    })).isInstanceOf(IOException.class).hasMessage("cannot write " + target + ": No space left on device");
    assertThat(target).doesNotExist();
  }

  /**
   * The report's files get the permissions of any new file in their directory (the umask's): the JSON and CSVs were
   * staged through {@code Files.createTempFile} and came out readable by their owner alone, beside PNGs anyone could
   * read.
   */
  @Test
  void writtenFilesHaveTheDirectorysDefaultPermissions(@TempDir Path dir) throws IOException {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        dir.getFileSystem().supportedFileAttributeViews().contains("posix"), "POSIX permissions");
    var expected = Files.getPosixFilePermissions(Files.createFile(dir.resolve("plain")));
    ReportWriter.write(Fixtures.sample(true), List.of(), dir.resolve("r"), false, "t");
    try (var files = Files.list(dir.resolve("r"))) {
      List<Path> written = files.toList();
      assertThat(written).extracting(p -> p.getFileName().toString()).contains("results.json", "report.html");
      for (Path f : written) {
        assertThat(Files.getPosixFilePermissions(f)).as(f.toString()).isEqualTo(expected);
      }
    }
  }
}
