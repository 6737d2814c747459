package io.github.ariesmodel.cli.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.cli.AriesCli;
import io.github.ariesmodel.cli.config.RunConfig;
import io.github.ariesmodel.cli.report.ResultsJson;
import io.github.ariesmodel.cli.report.RunMetadata;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two spellings of one system record one text: results.json kept the system as typed, so {@code ARIES:groups=2} and
 * {@code aries:groups=2}, one system, recorded differently (until stop 78). The record is the canonical form
 * ({@link SystemSpec#canonicalSystem}), which a configuration file takes back.
 */
class CanonicalSystemRecordTest {

  @TempDir Path tmp;

  private RunMetadata run(String system, String name) throws Exception {
    Path dir = tmp.resolve(name);
    StringWriter err = new StringWriter();
    int rc = AriesCli.execute(new String[] {"run", "pingpong", "--system", system, "-p", "sizes=8", "-p",
        "distances=rank-1", "-p", "iterations=1", "-q", "--no-wall-clock", "--out", dir.toString()},
        new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
    assertThat(rc).as(err.toString()).isZero();
    return ResultsJson.read(dir.resolve("results.json")).metadata();
  }

  @Test
  void twoSpellingsOfOneSystemRecordTheSameText() throws Exception {
    RunMetadata upper = run("ARIES:groups=2", "upper");
    RunMetadata spelled = run(" aries : Groups = 02 , rows=6, exit=own ", "spelled");
    assertThat(upper.system()).isEqualTo("aries:groups=2");
    assertThat(spelled.system()).isEqualTo("aries:groups=2");
  }

  @Test
  void theCanonicalFormIsWhatASpecRecordsAndAConfigurationFileReadsBack() throws Exception {
    assertThat(SystemSpec.of("Canonical: h=2, a=4, p=2, g=9", 1).system()).isEqualTo("canonical:p=2,a=4,h=2");
    assertThat(SystemSpec.canonicalSystem("CABLED:Two-Groups +FAILED=random:2")).isEqualTo(
        "cabled:two-groups+failed=random:2");
    assertThat(SystemSpec.canonicalSystem("Links:Edison.txt")).isEqualTo("links:Edison.txt");
    Path f = tmp.resolve("c.yaml");
    Files.writeString(f, "system: 'ARIES: groups=3, links=480, nodes=2'\n");
    SystemSpec read = RunConfig.read(f).spec();
    assertThat(read.system()).isEqualTo("aries:groups=3,nodes=2");
    Files.writeString(f, "system: '" + read.system() + "'\n");
    assertThat(RunConfig.read(f).spec().system()).isEqualTo(read.system());
    assertThat(read.build().topology().nodeCount()).isEqualTo(3 * 96 * 2);
  }

  @Test
  void aSpecTheCanonicalFormRefusesIsKeptForTheBuildToRefuse() {
    assertThat(SystemSpec.canonicalSystem(" aries:groups=2,Foo=1 ")).isEqualTo("aries:groups=2,Foo=1");
    assertThatThrownBy(() -> SystemSpec.of(" aries:groups=2,Foo=1 ", 1).build())
        .isInstanceOf(SystemSpecException.class).hasMessageEndingWith("topology options [foo] are unknown for aries");
  }
}
