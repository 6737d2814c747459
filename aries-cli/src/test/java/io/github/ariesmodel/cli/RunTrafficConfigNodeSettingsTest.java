package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run traffic --config FILE} refuses a file that sets nic or iommu settings, in one line naming them and why
 * (exit 2, no {@code --out} made): the traffic experiments build no node, and the settings were dropped without a
 * word. The traffic workload named by the file is refused as the one named on the command line is; a file without
 * them runs, and so does the same file for a workload whose nodes use them.
 */
class RunTrafficConfigNodeSettingsTest {

  @TempDir Path tmp;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int aries(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    return AriesCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  private String onlyLine() {
    String e = err.toString();
    assertThat(e.lines().count()).as(e).isEqualTo(1);
    assertThat(e).doesNotContain("\tat ", "Exception");
    return e.strip();
  }

  private Path file(String name, String text) throws IOException {
    return Files.writeString(tmp.resolve(name), text);
  }

  @Test
  void trafficRefusesAConfigurationsNicAndIommuSettings() throws IOException {
    Path conf = file("node.yaml", "system: canonical:p=1,a=2,h=1\nnic: {requestTags: 32}\niommu: {ways: 8}\n");
    Path out1 = tmp.resolve("t1");
    assertThat(aries("run", "traffic", "--config", conf.toString(), "-p", "loads=0.1", "-p", "routings=minimal",
        "-p", "measureNs=100", "-q", "--out", out1.toString())).isEqualTo(2);
    assertThat(onlyLine()).contains(conf + ": settings nic.requestTags, iommu.ways would be ignored: translator, nic"
        + " and iommu settings configure the nodes' translators, NICs and IOMMUs, and workload traffic builds no node"
        + " (its experiments drive router fabrics of their own); drop them, or run a workload that uses them");
    assertThat(out1).doesNotExist();

    // the file's own workload key, and a file whose only setting equals the default
    Path named = file("named.json", "{\"workload\": \"traffic\", \"iommu\": {\"ways\": 4}}");
    assertThat(aries("run", "--config", named.toString(), "-q", "--out", tmp.resolve("t2").toString()))
        .isEqualTo(2);
    assertThat(onlyLine()).contains("setting iommu.ways would be ignored");
    assertThat(tmp.resolve("t2")).doesNotExist();
  }

  /** The nodes' translator too (the stop-68 review: `translator: iommu` and `--translator` ran and were dropped). */
  @Test
  void trafficRefusesATranslatorFromTheFileOrTheCommandLine() throws IOException {
    Path conf = file("tr.yaml", "system: canonical:p=1,a=2,h=1\ntranslator: iommu\n");
    assertThat(aries("run", "traffic", "--config", conf.toString(), "-p", "loads=0.1", "-p", "routings=minimal",
        "-p", "measureNs=100", "-q", "--out", tmp.resolve("t3").toString())).isEqualTo(2);
    assertThat(onlyLine()).contains("setting translator would be ignored");
    assertThat(aries("run", "traffic", "--system", "canonical:p=1,a=2,h=1", "--translator", "flat", "-p",
        "loads=0.1", "-p", "routings=minimal", "-p", "measureNs=100", "-q", "--out", tmp.resolve("t4").toString()))
        .isEqualTo(2);
    assertThat(onlyLine()).contains("--translator sets the nodes' address translation, and workload traffic builds"
        + " no node");
    assertThat(tmp.resolve("t3")).doesNotExist();
    assertThat(tmp.resolve("t4")).doesNotExist();
  }

  @Test
  void aFileWithoutThemRunsTrafficAndTheSameFileRunsAWorkloadWithNodes() throws IOException {
    Path plain = file("plain.yaml", "system: canonical:p=1,a=2,h=1\nseed: 3\n");
    assertThat(aries("run", "traffic", "--config", plain.toString(), "-p", "loads=0.1", "-p", "routings=minimal",
        "-p", "measureNs=100", "-q", "--no-wall-clock", "--out", tmp.resolve("ok").toString())).as(err.toString())
        .isZero();
    Path conf = file("node.yaml", "system: canonical:p=1,a=2,h=1\nnic: {requestTags: 32}\n");
    assertThat(aries("run", "pingpong", "--config", conf.toString(), "-p", "sizes=8", "-p", "iterations=1", "-q",
        "--no-wall-clock", "--out", tmp.resolve("pp").toString())).as(err.toString()).isZero();
    assertThat(Files.readString(tmp.resolve("pp/results.json"))).contains("\"requestTags\"");
  }
}
