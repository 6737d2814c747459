package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.cli.report.ResultsJson;
import io.github.ariesmodel.cli.sweep.SweepSpec;
import io.github.ariesmodel.cli.system.SystemSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Preset and routing names are read in any case and recorded in their own: {@code --system DEFAULT} was refused in a
 * line that contradicted itself, {@code --system Theta} and {@code --routing MINIMAL} ran and were recorded as typed,
 * and a sweep over {@code routing=minimal,MINIMAL} ran one point twice (stop 75's hunt).
 */
class NameCaseTest {

  @TempDir Path tmp;

  @Test
  void aRunRecordsThePresetAndRoutingInTheirOwnCase() throws Exception {
    Path dir = tmp.resolve("o");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = AriesCli.execute(new String[] {"run", "pingpong", "--system", "DEFAULT", "--routing", "MINIMAL", "-p",
        "sizes=8", "-p", "iterations=1", "-q", "--no-wall-clock", "--out", dir.toString()}, new PrintWriter(out, true),
        new PrintWriter(err, true));
    assertThat(rc).as(err.toString()).isZero();
    var m = ResultsJson.read(dir.resolve("results.json")).metadata();
    assertThat(m.system()).isEqualTo("default");
    assertThat(m.routing()).isEqualTo("minimal");
    assertThat(out.toString()).contains("on default (routing minimal,");
  }

  /**
   * The header names the routing results.json records: on the ideal fabric it printed "routing by-delivery-mode" where
   * the results record none (stop 75's hunt).
   */
  @Test
  void theHeaderNamesTheRoutingTheResultsRecord() throws Exception {
    Path dir = tmp.resolve("ideal");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = AriesCli.execute(new String[] {"run", "pingpong", "--fabric", "ideal", "-p", "sizes=8", "-p",
        "iterations=1", "-q", "--no-wall-clock", "--out", dir.toString()}, new PrintWriter(out, true),
        new PrintWriter(err, true));
    assertThat(rc).as(err.toString()).isZero();
    assertThat(ResultsJson.read(dir.resolve("results.json")).metadata().routing()).isNull();
    assertThat(out.toString().lines().findFirst().orElseThrow()).isEqualTo("aries run pingpong on default (seed 1)")
        .doesNotContain("routing");
  }

  /**
   * traffic's routings parameter wins over --routing (docs/errors-and-guarantees.md), and the header says so: it
   * printed --routing's, which the run had not used.
   */
  @Test
  void theTrafficHeaderNamesTheRoutingsThatRan() throws Exception {
    Path dir = tmp.resolve("t");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = AriesCli.execute(new String[] {"run", "traffic", "--system", "aries-small", "--routing", "ugal", "-p",
        "routings=minimal", "-p", "loads=0.1", "-p", "measureNs=200", "-q", "--no-wall-clock", "--out",
        dir.toString()}, new PrintWriter(out, true), new PrintWriter(err, true));
    assertThat(rc).as(err.toString()).isZero();
    String recorded = ResultsJson.read(dir.resolve("results.json")).metadata().routing();
    assertThat(recorded).isEqualTo("minimal");
    assertThat(out.toString()).contains("(routing minimal, seed").doesNotContain("ugal");
  }

  @Test
  void namesAreCanonicalButPathsKeepTheirCase() {
    assertThat(SystemSpec.canonicalSystem(" Theta ")).isEqualTo("theta");
    assertThat(SystemSpec.canonicalSystem("EDISON-cabled")).isEqualTo("edison-cabled");
    assertThat(SystemSpec.canonicalSystem("links:Edison.txt")).isEqualTo("links:Edison.txt");
    assertThat(SystemSpec.canonicalRouting("UGAL")).isEqualTo("ugal");
    assertThat(SystemSpec.canonicalRouting("By-Delivery-Mode")).isEqualTo("by-delivery-mode");
    assertThat(SystemSpec.of("Theta", 1).system()).isEqualTo("theta");
  }

  @Test
  void aSweepOverOneNameInTwoCasesIsRefused() {
    assertThatThrownBy(() -> SweepSpec.parse("routing=minimal,MINIMAL")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("parameter routing lists minimal twice, as \"minimal\" and \"MINIMAL\"; give each value once");
    assertThatThrownBy(() -> SweepSpec.parse("system=theta,Theta")).hasMessageContaining("lists theta twice");
    assertThat(SweepSpec.parse("system=links:a.txt,links:A.txt").size()).as("paths differ by case").isEqualTo(2);
  }
}
