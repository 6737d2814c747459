package io.github.ariesmodel.cli.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.ariesmodel.core.packet.WireFormat;
import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.ResultsCsv;
import io.github.ariesmodel.cli.report.ResultsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LinkQueueJobTest {

  @Test
  void serviceTimeIsAMaximumRequestPacketAtTheRank1LinkRate() {
    double expectedPs = WireFormat.wireBytes(true, 64) / 5.25e9 * 1e12;
    assertThat((double) LinkQueueJob.servicePs()).isCloseTo(expectedPs, within(0.5));
  }

  @Test
  void meanLatencyAgreesWithTheMd1Formula() {
    for (String load : new String[] {"0.2", "0.6"}) {
      Results r = LinkQueueJob.run(Map.of("load", load, "seed", "7", "packets", "200000"));
      double sim = r.metric("latency.mean").orElseThrow().value();
      double theory = r.metric("latency.md1").orElseThrow().value();
      assertThat(sim).isCloseTo(theory, within(theory * 0.03));
      assertThat(r.metric("latency.p99").orElseThrow().value()).isGreaterThan(sim);
    }
  }

  @Test
  void sameSeedGivesByteIdenticalFilesAndAnotherSeedDoesNot(@TempDir Path dir) throws IOException {
    SweepSpec spec = SweepSpec.parse("load=0.5;seed=1,2");
    SweepRunner runner = new SweepRunner(LinkQueueJob::run);
    runner.run(spec, Shard.ALL, dir.resolve("a"), false, null);
    runner.run(spec, Shard.ALL, dir.resolve("b"), false, null);
    for (String f : List.of("point-0.json", "point-1.json")) {
      assertThat(Files.readAllBytes(dir.resolve("a").resolve(f))).isEqualTo(Files.readAllBytes(dir.resolve("b").resolve(f)));
    }
    assertThat(Files.readString(dir.resolve("a/point-0.json"))).isNotEqualTo(Files.readString(dir.resolve("a/point-1.json")));
    Results one = ResultsJson.read(dir.resolve("a/point-0.json"));
    ResultsCsv.write(one, dir.resolve("csv1"));
    ResultsCsv.write(ResultsJson.read(dir.resolve("b/point-0.json")), dir.resolve("csv2"));
    assertThat(Files.readAllBytes(dir.resolve("csv1/latency-histogram.csv")))
        .isEqualTo(Files.readAllBytes(dir.resolve("csv2/latency-histogram.csv")));
  }

  @Test
  void pointParametersComeFirstThenTheJobsOwn() {
    SweepSpec spec = SweepSpec.parse("seed=3;load=0.5");
    Results r = new SweepRunner(LinkQueueJob::run).runPoint(spec, spec.point(0));
    assertThat(r.metadata().parameters().keySet()).containsExactly("seed", "load", "packets");
    assertThat(r.metadata().seed()).isEqualTo(3L);
  }

  @Test
  void rejectsBadParameters() {
    assertThatThrownBy(() -> LinkQueueJob.run(Map.of())).hasMessageContaining("load is required");
    assertThatThrownBy(() -> LinkQueueJob.run(Map.of("load", "1.0"))).hasMessageContaining("(0, 1)")
        .hasMessageContaining("1.0");
    assertThatThrownBy(() -> LinkQueueJob.run(Map.of("load", "0.5", "routing", "ugal")))
        .hasMessageContaining("unknown parameter \"routing\"");
    assertThatThrownBy(() -> LinkQueueJob.run(Map.of("load", "0.5", "packets", "0"))).hasMessageContaining("packets");
  }
}
