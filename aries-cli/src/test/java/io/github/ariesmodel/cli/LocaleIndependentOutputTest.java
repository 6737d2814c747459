package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.system.AriesSystem;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the CLI prints does not depend on the machine's locale: under a German default it printed 5.760 nodes and
 * 13,39 GB/s (and a --failed-links file's header 1.440), under an Arabic one Arabic-Indic digits, in descriptions and
 * summaries that users compare between machines and that scripts and the CLI itself read back.
 */
class LocaleIndependentOutputTest {

  @TempDir Path tmp;

  private Locale display;
  private Locale format;

  @BeforeEach
  void remember() {
    display = Locale.getDefault(Locale.Category.DISPLAY);
    format = Locale.getDefault(Locale.Category.FORMAT);
  }

  @AfterEach
  void restore() {
    Locale.setDefault(Locale.Category.DISPLAY, display);
    Locale.setDefault(Locale.Category.FORMAT, format);
  }

  @ParameterizedTest
  @ValueSource(strings = {"de-DE", "ar-EG"})
  void systemsDescribeAndRunSummaryUseAsciiDigitsAndDecimalPoints(String tag) {
    Locale.setDefault(Locale.forLanguageTag(tag));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(run(out, err, "systems", "--describe", "edison-cabled")).as(err.toString()).isZero();
    assertThat(out.toString()).contains("  nodes             5,760  (4 per router)")
        .containsPattern("injection +\\d+\\.\\d\\d GB/s per node");
    assertAsciiNumbers(out.toString());
    StringWriter summary = new StringWriter();
    assertThat(run(summary, err, "run", "pingpong", "-p", "sizes=8", "-p", "iterations=2", "-q", "--no-wall-clock",
        "--out", tmp.resolve("r").toString(), "--trace", tmp.resolve("trace.json").toString())).as(err.toString())
        .isZero();
    assertThat(summary.toString()).containsPattern("simulated \\d+\\.\\d{3} us").contains(" packets, ");
    assertAsciiNumbers(summary.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"de-DE", "ar-EG"})
  void aSystemsDescriptionUsesAsciiDigitsAndDecimalPoints(String tag) {
    Locale.setDefault(Locale.forLanguageTag(tag));
    String d = AriesSystem.builder().system("two-groups").build().describe();
    assertThat(d).contains("  groups 2, routers 192, nodes 768").containsPattern("injection \\d+\\.\\d\\d GB/s");
    assertAsciiNumbers(d);
  }

  private static void assertAsciiNumbers(String text) {
    assertThat(text.chars().filter(c -> Character.isDigit(c) && (c < '0' || c > '9')).count()).as(text).isZero();
    assertThat(text).as(text).doesNotContain("٫", "٬");
  }

  private static int run(StringWriter out, StringWriter err, String... args) {
    return AriesCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }
}
