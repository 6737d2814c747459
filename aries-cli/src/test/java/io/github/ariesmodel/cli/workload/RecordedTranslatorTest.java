package io.github.ariesmodel.cli.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.cli.report.HtmlReport;
import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.ResultsJson;
import io.github.ariesmodel.cli.report.RunMetadata;
import io.github.ariesmodel.cli.report.SweepCoordinates;
import io.github.ariesmodel.cli.sweep.SweepMerge;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.nic.NicConfig;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run block records the translator, NIC and IOMMU settings a run used, and none for a run that built no node:
 * {@code traffic} drives router fabrics of its own, with no NIC and nothing translated, and recorded
 * {@code "translator" : "iommu"}, {@code "nic" : { }} and {@code "iommu" : { }} all the same.
 */
class RecordedTranslatorTest {

  private static final SystemSpec SMALL = SystemSpec.of("aries:groups=2", 1);

  private static final Map<String, String> ONE_TRAFFIC_POINT =
      Map.of("loads", "0.1", "routings", "minimal", "measureNs", "2000");

  @TempDir Path tmp;

  @Test
  void trafficRecordsNoTranslatorNicOrIommu() throws IOException {
    // settings that differ from the defaults were recorded too, though no NIC or IOMMU was built to use them
    SystemSpec spec = SMALL.withNic(NicConfig.defaults().withRequestTags(32))
        .withIommu(IommuConfig.builder().ways(2).build());
    Results r = WorkloadRun.run(new TrafficWorkload(), spec, Params.of(ONE_TRAFFIC_POINT), "run traffic").results();
    RunMetadata m = r.metadata();
    assertThat(m.fabric()).isEqualTo("routers"); // what it does use
    assertThat(m.routing()).isEqualTo("minimal");
    assertThat(m.translator()).isNull();
    assertThat(m.nic()).isNull();
    assertThat(m.iommu()).isNull();
    assertThat(r.statistics()).isNull(); // no system built: the same fact, said by the statistics
    String json = ResultsJson.toJson(r, false);
    assertThat(json).contains("\"fabric\" : \"routers\",\n    \"translator\" : null,\n    \"nic\" : null,\n"
        + "    \"iommu\" : null,\n");
    assertThat(ResultsJson.read(new StringReader(json)).metadata()).isEqualTo(m.toBuilder().wallClock(null).build());
    assertThat(HtmlReport.builder(r).build().toHtml()).contains("<th>fabric</th><td>routers</td>")
        .doesNotContain("<th>translator</th>", "<th>nic</th>", "<th>iommu</th>");
  }

  @Test
  void aTrafficSweepPointRecordsNoTranslatorNicOrIommu() {
    Map<String, String> point = new java.util.LinkedHashMap<>(ONE_TRAFFIC_POINT);
    point.put("system", "aries:groups=2");
    point.put("translator", "iommu");
    RunMetadata m = WorkloadRun.sweepPoint(new TrafficWorkload(), point).metadata();
    assertThat(m.translator()).isNull();
    assertThat(m.nic()).isNull();
    assertThat(m.iommu()).isNull();
  }

  @Test
  void aWorkloadThatBuildsNodesStillRecordsTheirTranslatorAndSettings() {
    SystemSpec spec = SMALL.withNic(NicConfig.defaults().withRequestTags(32));
    RunMetadata m = WorkloadRun.run(new PingPongWorkload(), spec,
        Params.of(Map.of("sizes", "8", "iterations", "1")), "run pingpong").results().metadata();
    assertThat(m.translator()).isEqualTo("iommu");
    assertThat(m.nic()).containsExactly(Map.entry("requestTags", "32"));
    assertThat(m.iommu()).isEmpty(); // the defaults
  }

  @Test
  void pointsWrittenBeforeAndAfterTheChangeStillMerge() throws IOException {
    // a sweep half run by an older build: its points record iommu, { } and { }, the newer ones null
    String spec = "loads=0.1,0.3";
    Results older = point(0, "0.1", "iommu", Map.of(), Map.of());
    Results newer = point(1, "0.3", null, null, null);
    ResultsJson.write(older, tmp.resolve("point-0.json"), false);
    ResultsJson.write(newer, tmp.resolve("point-1.json"), false);
    Results merged = SweepMerge.mergeFiles(List.of(tmp), List.of(), "merge");
    assertThat(merged.tables().get(0).rows()).hasSize(2);
    RunMetadata m = merged.metadata();
    assertThat(m.parameters()).containsEntry("spec", spec);
    assertThat(m.fabric()).isEqualTo("routers");
    assertThat(m.translator()).isNull(); // the points differ
    assertThat(m.nic()).isNull();
    assertThat(m.iommu()).isNull();
    assertThat(HtmlReport.builder(merged).build().toHtml()).doesNotContain("<th>translator</th>");
  }

  private static Results point(int index, String load, String translator, Map<String, String> nic,
      Map<String, String> iommu) {
    return Results.builder(RunMetadata.builder("aries-model test", "sweep --job traffic")
            .system("default").routing("minimal").fabric("routers").translator(translator).nic(nic).iommu(iommu)
            .seed(1L).parameter("loads", load).sweep(new SweepCoordinates(index, 2, "loads=0.1,0.3")).build())
        .metric("traffic.uniform.minimal.maxAcceptedLoad", Double.parseDouble(load), "")
        .build();
  }
}
