package io.github.ariesmodel.cli.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A configuration knows which {@code nic} and {@code iommu} settings it gives, and refuses them, in one line naming
 * them and why, for a run of the traffic workload, which builds no node and would ignore them without a word.
 */
class RunConfigNodeSettingsTest {

  @TempDir Path tmp;

  private RunConfig read(String name, String text) throws Exception {
    return RunConfig.read(Files.writeString(tmp.resolve(name), text));
  }

  @Test
  void theNicAndIommuSettingsGivenAreListedByTheirDottedKeys() throws Exception {
    assertThat(read("a.yaml", "seed: 3\niommu: {ways: 8, policy: lru}\nnic: {requestTags: 32}\n").nodeSettings())
        .containsExactly("nic.requestTags", "iommu.ways", "iommu.policy");
    assertThat(read("b.json", "{\"nic\": {}}").nodeSettings()).containsExactly("nic");
    assertThat(read("c.yaml", "system: two-groups\nworkload: traffic\n").nodeSettings()).isEmpty();
  }

  @Test
  void trafficRefusesThemNamingThemAndWhy() throws Exception {
    RunConfig c = read("t.yaml", "nic: {requestTags: 32, hostLatencyNs: 250}\niommu: {ways: 4}\n");
    assertThatThrownBy(() -> c.checkUsedBy("traffic")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("settings nic.requestTags, nic.hostLatencyNs, iommu.ways would be ignored: translator, nic and"
            + " iommu settings configure the nodes' translators, NICs and IOMMUs, and workload traffic builds no node"
            + " (its experiments drive router fabrics of their own); drop them, or run a workload that uses them");
    // (iommu.ways 4 is the default: refused all the same, the file says it matters)
    assertThatThrownBy(() -> read("one.json", "{\"iommu\": {\"ways\": 4}}").checkUsedBy("traffic"))
        .hasMessageStartingWith("setting iommu.ways would be ignored: ");
    assertThatThrownBy(() -> read("many.yaml", "nic: {requestTags: 32, bteChannels: 2, fmaBteThreshold: 2048,"
        + " amoRequestList: 16, clockMHz: 1000, packetCycles: 4, hostGBps: 8.5}\n").checkUsedBy("traffic"))
        .hasMessageStartingWith("settings nic.requestTags, nic.bteChannels, nic.fmaBteThreshold, nic.amoRequestList,"
            + " nic.clockMHz, nic.packetCycles and 1 more would be ignored: ");
  }

  @Test
  void workloadsThatBuildNodesTakeThemAndTrafficTakesAFileWithout() throws Exception {
    RunConfig c = read("g.yaml", "nic: {requestTags: 32}\niommu: {ways: 8}\n");
    for (String w : new String[] {"mixed", "gups", "pingpong", "mpi-latency", "iommu-study"}) {
      assertThatCode(() -> c.checkUsedBy(w)).as(w).doesNotThrowAnyException();
    }
    RunConfig plain = read("plain.yaml", "system: two-groups\nrouting: minimal\nseed: 4\n");
    assertThatCode(() -> plain.checkUsedBy("traffic")).doesNotThrowAnyException();
  }
}
