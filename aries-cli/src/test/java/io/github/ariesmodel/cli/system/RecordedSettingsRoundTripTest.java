package io.github.ariesmodel.cli.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.ariesmodel.cli.config.RunConfig;
import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.ResultsJson;
import io.github.ariesmodel.cli.report.RunMetadata;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run repeated from what its results.json records: the {@code run} block's system, routing, seed, fabric,
 * translator, {@code nic} and {@code iommu}, copied as they are into a JSON configuration file ({@code run --config}),
 * configure the same system. The record writes the NIC and IOMMU settings as text; a JSON file made of them was
 * refused ("iommu.seed must be an integer ... but was \"5\"") until stop 77.
 */
class RecordedSettingsRoundTripTest {

  @TempDir Path tmp;

  private static final ObjectMapper JSON = new ObjectMapper();

  private RunConfig read(String name, String text) throws Exception {
    Path f = tmp.resolve(name);
    Files.writeString(f, text);
    return RunConfig.read(f);
  }

  /** @return the run block of the results.json a run of this spec writes */
  private static JsonNode recordedRunBlock(SystemSpec s) throws Exception {
    RunMetadata m = RunMetadata.builder("aries-model test", "run gups").system(s.system()).routing(s.routing())
        .fabric(RecordedSettings.fabric(s.fabric())).translator(RecordedSettings.translator(s.translator()))
        .nic(RecordedSettings.nic(s.nic())).iommu(RecordedSettings.iommu(s.iommu())).seed(s.seed()).build();
    return JSON.readTree(ResultsJson.toJson(Results.builder(m).build(), false)).get("run");
  }

  /** @return a JSON configuration made of a run block's settings, copied as the file records them */
  private static String configFrom(JsonNode run) {
    ObjectNode c = JSON.createObjectNode();
    for (String k : new String[] {"system", "routing", "seed", "fabric", "translator", "nic", "iommu"}) {
      c.set(k, run.get(k));
    }
    return c.toString();
  }

  @Test
  void aJsonConfigurationCopiedFromTheRecordConfiguresTheSameSystem() throws Exception {
    // every nic and iommu key away from its default, values of every type and form the record writes them in
    RunConfig original = read("all.yaml", "system: two-groups\nrouting: minimal\nseed: -12345678901\n"
        + "fabric: routers\ntranslator: iommu\n"
        + "nic: {requestTags: 32, bteChannels: 2, fmaBteThreshold: 2048, amoRequestList: 16,"
        + " clockMHz: 850.3, packetCycles: 4, hostGBps: 8.1, hostLatencyNs: 999999.999, hostReadLatencyNs: 600.5,"
        + " hostOverheadBytes: 16, txPipelineCycles: 30, rxPipelineCycles: 0, amoUnitCycles: 4, amoCacheEntries: 0,"
        + " amoCacheWriteBack: eviction}\n"
        + "iommu: {ways: 8, sets: 64, ptesPerLine: 4, policy: random, maxInFlight: 16, fetchBuffers: 4,"
        + " pteFetchLatencyNs: 400.001, hitLatencyNs: 0, issueIntervalNs: 2.5, prefetch: false, seed: -7,"
        + " pageTables: per-registration}\n");
    JsonNode run = recordedRunBlock(original.spec());
    assertThat(run.get("nic").size()).isEqualTo(RecordedSettings.NIC_KEYS.size());
    assertThat(run.get("iommu").size()).isEqualTo(RecordedSettings.IOMMU_KEYS.size());
    assertThat(run.get("nic").get("requestTags").isTextual()).isTrue(); // the record's form: text
    assertThat(run.get("nic").get("hostLatencyNs").asText()).isEqualTo("999999.999");

    RunConfig back = read("back.json", configFrom(run));

    assertThat(back.spec().nic()).isEqualTo(original.spec().nic());
    assertThat(back.spec().iommu()).isEqualTo(original.spec().iommu());
    assertThat(back.spec().system()).isEqualTo("two-groups");
    assertThat(back.spec().routing()).isEqualTo("minimal");
    assertThat(back.spec().seed()).isEqualTo(-12345678901L);
    assertThat(back.spec().fabric()).isEqualTo(original.spec().fabric());
    assertThat(back.spec().translator()).isEqualTo(original.spec().translator());
    assertThat(recordedRunBlock(back.spec())).isEqualTo(run); // and the repeat records what the original did
  }

  @Test
  void textThatIsNoRecordedNumberIsStillRefusedNamingTheKeyAndTheValue() {
    assertThatThrownBy(() -> read("a.json", "{\"nic\": {\"requestTags\": \"thirty-two\"}}"))
        .hasMessageContaining("nic.requestTags must be an integer").hasMessageContaining("thirty-two");
    assertThatThrownBy(() -> read("b.json", "{\"nic\": {\"hostGBps\": \"NaN\"}}"))
        .hasMessageContaining("nic.hostGBps must be a number").hasMessageContaining("NaN");
    assertThatThrownBy(() -> read("c.json", "{\"iommu\": {\"prefetch\": \"yes\"}}"))
        .hasMessageContaining("iommu.prefetch must be true or false").hasMessageContaining("yes");
    assertThatThrownBy(() -> read("d.json", "{\"iommu\": {\"seed\": \"99999999999999999999\"}}"))
        .hasMessageContaining("iommu.seed must be an integer").hasMessageContaining("99999999999999999999");
    assertThatThrownBy(() -> read("e.json", "{\"nic\": {\"requestTags\": \" 32\"}}"))
        .hasMessageContaining("nic.requestTags must be an integer");
    // a recorded number out of range is refused for its range, as the number itself is
    assertThatThrownBy(() -> read("f.json", "{\"nic\": {\"bteChannels\": \"5\"}}"))
        .hasMessageContaining("nic.bteChannels must be in [1, 4] but was 5");
  }

  @Test
  void hostLatenciesAndBandwidthAreRefusedUnderTheFilesKeysAtTheNicsOwnLimits() throws Exception {
    // the limits themselves are taken, and recorded in a form read back
    RunConfig top = read("top.yaml", "nic: {hostLatencyNs: 1000000, hostReadLatencyNs: 1000000, hostGBps: 1000}\n");
    assertThat(top.spec().nic().timing().hostLatencyPs()).isEqualTo(1_000_000_000L);
    assertThat(top.spec().nic().timing().hostBytesPerSecond()).isEqualTo(1e12);
    assertThat(read("top.json", configFrom(recordedRunBlock(top.spec()))).spec().nic()).isEqualTo(top.spec().nic());
    // beyond them, the message names the file's key, its unit and range (it named the NIC's hostLatencyPs, in ps)
    assertThatThrownBy(() -> read("a.yaml", "nic: {hostLatencyNs: 2000000}\n"))
        .hasMessageEndingWith("nic.hostLatencyNs must be in [0.0, 1000000.0] but was 2000000.0");
    assertThatThrownBy(() -> read("b.yaml", "nic: {hostReadLatencyNs: 1000000.001}\n"))
        .hasMessageEndingWith("nic.hostReadLatencyNs must be in [0.0, 1000000.0] but was 1000000.001");
    assertThatThrownBy(() -> read("c.yaml", "nic: {hostGBps: 5000}\n"))
        .hasMessageEndingWith("nic.hostGBps must be in [0.001, 1000.0] but was 5000.0");
  }
}
