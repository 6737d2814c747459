package io.github.ariesmodel.cli.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.cli.system.RecordedSettings;
import io.github.ariesmodel.iommu.BuiltInPolicy;
import io.github.ariesmodel.system.TranslatorKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunConfigTest {

  @TempDir Path tmp;

  private RunConfig read(String name, String text) throws Exception {
    Path f = tmp.resolve(name);
    Files.writeString(f, text);
    return RunConfig.read(f);
  }

  @Test
  void yamlAndJsonGiveTheSameConfiguration() throws Exception {
    RunConfig y = read("a.yaml", "system: two-groups\nseed: 9\ntranslator: iommu\niommu:\n  ways: 8\n  policy: plru\n"
        + "nic:\n  requestTags: 128\n  hostLatencyNs: 300\nworkload: gups\nparams:\n  pes: 4\n");
    RunConfig j = read("a.json", "{\"system\":\"two-groups\",\"seed\":9,\"translator\":\"iommu\","
        + "\"iommu\":{\"ways\":8,\"policy\":\"plru\"},\"nic\":{\"requestTags\":128,\"hostLatencyNs\":300},"
        + "\"workload\":\"gups\",\"params\":{\"pes\":4}}");
    for (RunConfig c : new RunConfig[] {y, j}) {
      assertThat(c.spec().system()).isEqualTo("two-groups");
      assertThat(c.spec().seed()).isEqualTo(9);
      assertThat(c.spec().translator()).isEqualTo(TranslatorKind.IOMMU);
      assertThat(c.spec().iommu().ways()).isEqualTo(8);
      assertThat(c.spec().iommu().policy()).isEqualTo(BuiltInPolicy.PSEUDO_LRU);
      assertThat(c.spec().nic().requestTags()).isEqualTo(128);
      assertThat(c.spec().nic().timing().hostLatencyPs()).isEqualTo(300_000);
      assertThat(c.workload()).isEqualTo("gups");
      assertThat(c.params().asMap()).containsEntry("pes", "4");
    }
  }

  @Test
  void aUsersPolicyRegisteredThroughServiceLoaderIsChosenByName() throws Exception {
    RunConfig c = read("p.yaml", "iommu:\n  policy: last-way\n");
    assertThat(c.spec().iommu().policy()).isInstanceOf(LastWayPolicyProvider.class);
    assertThatThrownBy(() -> read("q.yaml", "iommu:\n  policy: mru\n"))
        .hasMessageContaining("iommu.policy").hasMessageContaining("last-way").hasMessageContaining("lru");
  }

  @Test
  void theSettingsAResultsFileRecordsReadBackAsTheSameConfiguration() throws Exception {
    // every nic and iommu key set away from its default: each is recorded, under its key, and a file made of the
    // record configures the same NIC and IOMMU
    RunConfig c = read("all.yaml", "nic: {requestTags: 32, bteChannels: 2, fmaBteThreshold: 2048, amoRequestList: 16,"
        + " clockMHz: 1000, packetCycles: 4, hostGBps: 8.5, hostLatencyNs: 300, hostReadLatencyNs: 600.5,"
        + " hostOverheadBytes: 16, txPipelineCycles: 30, rxPipelineCycles: 31, amoUnitCycles: 4, amoCacheEntries: 0,"
        + " amoCacheWriteBack: eviction}\n"
        + "iommu: {ways: 8, sets: 64, ptesPerLine: 4, policy: plru, maxInFlight: 16, fetchBuffers: 4,"
        + " pteFetchLatencyNs: 400, hitLatencyNs: 6, issueIntervalNs: 2.5, prefetch: false, seed: 7,"
        + " pageTables: per-registration}\n");
    Map<String, String> nic = RecordedSettings.nic(c.spec().nic());
    Map<String, String> iommu = RecordedSettings.iommu(c.spec().iommu());
    assertThat(nic.keySet()).isEqualTo(RecordedSettings.NIC_KEYS);
    assertThat(iommu.keySet()).isEqualTo(RecordedSettings.IOMMU_KEYS);
    assertThat(new ArrayList<>(nic.keySet())).isSorted();
    assertThat(new ArrayList<>(iommu.keySet())).isSorted();
    assertThat(nic).containsEntry("hostGBps", "8.5").containsEntry("amoCacheWriteBack", "eviction")
        .containsEntry("hostOverheadBytes", "16");
    assertThat(iommu).containsEntry("policy", "plru").containsEntry("prefetch", "false")
        .containsEntry("pageTables", "per-registration");
    RunConfig back = read("back.yaml", "nic: " + yaml(nic) + "\niommu: " + yaml(iommu) + "\n");
    assertThat(back.spec().nic()).isEqualTo(c.spec().nic());
    assertThat(back.spec().iommu()).isEqualTo(c.spec().iommu());
  }

  @Test
  void aFileThatSpellsOutTheDefaultsRecordsNoSettings() throws Exception {
    RunConfig c = read("d.yaml", "nic: {requestTags: 64, clockMHz: 800}\niommu: {ways: 4, policy: lru}\n");
    assertThat(RecordedSettings.nic(c.spec().nic())).isEmpty();
    assertThat(RecordedSettings.iommu(c.spec().iommu())).isEmpty();
  }

  /** A flow mapping of recorded settings, values unquoted so that YAML types them as a file would. */
  private static String yaml(Map<String, String> settings) {
    StringBuilder b = new StringBuilder("{");
    settings.forEach((k, v) -> b.append(b.length() > 1 ? ", " : "").append(k).append(": ").append(v));
    return b.append('}').toString();
  }

  @Test
  void unknownKeysAreNamedWithTheAllowedOnes() {
    assertThatThrownBy(() -> read("b.yaml", "sytem: default\n"))
        .hasMessageContaining("unknown key \"sytem\"").hasMessageContaining("system");
    assertThatThrownBy(() -> read("c.yaml", "nic:\n  tags: 3\n"))
        .hasMessageContaining("unknown key \"nic.tags\"").hasMessageContaining("requestTags");
  }

  @Test
  void outOfRangeValuesNameTheKeyTheRangeAndTheValue() {
    assertThatThrownBy(() -> read("d.yaml", "iommu:\n  ways: 0\n"))
        .hasMessageContaining("iommu.ways must be in [1, 64] but was 0");
    assertThatThrownBy(() -> read("p.yaml", "iommu:\n  pageTables: shared\n"))
        .hasMessageContaining("iommu.pageTables must be per-registration or per-context but was shared");
    assertThatThrownBy(() -> read("e.yaml", "nic:\n  bteChannels: 5\n"))
        .hasMessageContaining("nic.bteChannels must be in [1, 4] but was 5");
    assertThatThrownBy(() -> read("o.yaml", "nic:\n  hostOverheadBytes: -1\n"))
        .hasMessageContaining("nic.hostOverheadBytes must be in [0, 4096] but was -1");
    assertThatThrownBy(() -> read("f.yaml", "seed: abc\n"))
        .hasMessageContaining("seed must be an integer");
    assertThatThrownBy(() -> read("g.yaml", "fabric: mesh\n"))
        .hasMessageContaining("fabric must be routers or ideal but was \"mesh\"");
    assertThatThrownBy(() -> read("h.toml", "x = 1\n"))
        .hasMessageContaining("must end in .json, .yaml or .yml");
  }

  @Test
  void theNicsAmoCacheIsConfiguredAndCheckedUnderNic() throws Exception {
    RunConfig c = read("i.yaml", "nic:\n  amoCacheEntries: 16\n  amoCacheWriteBack: eviction\n");
    assertThat(c.spec().nic().amoCache()).isEqualTo(new io.github.ariesmodel.nic.AmoCacheConfig(16,
        io.github.ariesmodel.nic.AmoWriteBack.EVICTION));
    assertThat(read("j.yaml", "nic:\n  requestTags: 64\n").spec().nic().amoCache())
        .isEqualTo(io.github.ariesmodel.nic.AmoCacheConfig.defaults());
    assertThatThrownBy(() -> read("k.yaml", "nic:\n  amoCacheEntries: 5000\n"))
        .hasMessageContaining("nic.amoCacheEntries must be in [0, 4096] but was 5000");
    assertThatThrownBy(() -> read("l.yaml", "nic:\n  amoCacheWriteBack: never\n"))
        .hasMessageContaining("nic.amoCacheWriteBack must be one of idle, eviction but was never");
  }

  /**
   * YAML 1.1 reads a zero-padded number as octal, and takes binary, hexadecimal and _-grouped numbers, where JSON and
   * the command line read decimal only: {@code seed: 010} ran with seed 8, {@code pes: 010} with 8 PEs (until stop
   * 73). Each is refused naming the file, the key and the line.
   */
  @Test
  void yamlNumbersNotWrittenInPlainDecimalAreRefusedNamingTheFileKeyAndLine() throws Exception {
    String[][] cases = {
        {"workload: pingpong\nseed: 010\n", "seed is written 010 (line 2), which YAML 1.1 reads as octal 8"},
        {"seed: 08\n", "seed is written 08 (line 1), which YAML 1.1 reads as the text \"08\", not a number"},
        {"seed: 0b101\n", "seed is written 0b101 (line 1), which YAML 1.1 reads as binary 5"},
        {"seed: 0x10\n", "seed is written 0x10 (line 1), which YAML 1.1 reads as hexadecimal 16"},
        {"seed: -010\n", "seed is written -010 (line 1), which YAML 1.1 reads as octal -8"},
        {"seed: 1_000\n", "seed is written 1_000 (line 1), which YAML 1.1 reads as 1000 (its _ dropped)"},
        {"seed: 0o17\n", "seed is written 0o17 (line 1), which YAML 1.1 reads as the text \"0o17\", not a number"},
        {"nic: {requestTags: 064}\n", "nic.requestTags is written 064 (line 1), which YAML 1.1 reads as octal 52"},
        {"nic:\n  hostGBps: 1_6.5\n", "nic.hostGBps is written 1_6.5 (line 2), which YAML 1.1 reads as 16.5 (its _"},
        {"workload: gups\nparams: {pes: 010, updates: 4}\n", "params.pes is written 010 (line 2)"},
        {"workload: pingpong\nparams:\n  sizes: [8, 010]\n", "params.sizes[1] is written 010 (line 3)"}};
    for (String[] c : cases) {
      Path f = tmp.resolve("n.yaml");
      Files.writeString(f, c[0]);
      assertThatThrownBy(() -> RunConfig.read(f)).as(c[0]).isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith(f + ": " + c[1])
          .hasMessageEndingWith("; write the number in decimal, or quote it if a string is meant");
    }
    // decimal as JSON writes it is read as before; a quoted or tagged value is the text it says
    RunConfig d = read("d.yaml", "seed: -0\nnic: {requestTags: 64, hostGBps: 010.5}\nworkload: gups\n"
        + "params: {pes: +8, updates: \"010\", table: '0x10', sizes: !!str 08}\n");
    assertThat(d.spec().seed()).isZero();
    assertThat(d.spec().nic().requestTags()).isEqualTo(64);
    assertThat(d.spec().nic().timing().hostBytesPerSecond()).isEqualTo(10.5e9);
    assertThat(d.params().asMap()).containsEntry("pes", "8").containsEntry("updates", "010")
        .containsEntry("table", "0x10").containsEntry("sizes", "08");
    assertThat(read("p.yaml", "seed: +10\n").spec().seed()).isEqualTo(10);
  }

  /** The JSON parser refused a byte-order mark as "Unexpected character (U+FEFF ...)"; YAML's skipped it. */
  @Test
  void aByteOrderMarkAtTheStartIsSkippedInJsonAsInYaml() throws Exception {
    for (String name : new String[] {"bom.json", "bom.yaml"}) {
      String body = name.endsWith(".json") ? "{\"workload\": \"pingpong\", \"seed\": 7}"
          : "workload: pingpong\nseed: 7\n";
      RunConfig c = read(name, "\uFEFF" + body);
      assertThat(c.workload()).as(name).isEqualTo("pingpong");
      assertThat(c.spec().seed()).as(name).isEqualTo(7);
    }
  }
}
