package io.github.ariesmodel.cli.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.cli.report.ColumnType;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.ResultsJson;
import io.github.ariesmodel.cli.report.RunMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepMergeTest {

  @TempDir Path dir;

  /** A cheap deterministic job: metrics are arithmetic on the parameters. */
  static final Function<Map<String, String>, Results> JOB = p -> {
    double load = Double.parseDouble(p.get("load"));
    long seed = Long.parseLong(p.get("seed"));
    return Results.builder(RunMetadata.builder("test-tool", "job").system("default").routing(p.get("routing"))
            .seed(seed).simulatedTimePs(1000).events(10 + seed).build())
        .metric("latency", 100 + 1000 * load + seed, "ns")
        .metric("throughput", load * (p.get("routing").equals("ugal") ? 0.9 : 0.8), "")
        .build();
  };

  private final SweepSpec spec = SweepSpec.parse("load=0.1,0.5,0.9;routing=minimal,ugal;seed=1,2");

  @Test
  void mergingShardsEqualsRunningUnsharded() throws IOException {
    new SweepRunner(JOB).run(spec, Shard.ALL, dir.resolve("all"), false, null);
    Results whole = SweepMerge.mergeFiles(List.of(dir.resolve("all")), List.of(), "merge");
    for (int n : new int[] {2, 5, 12, 13}) {
      List<Path> shards = new ArrayList<>();
      for (int i = n - 1; i >= 0; i--) {
        Path d = dir.resolve("n" + n + "/shard-" + i);
        new SweepRunner(JOB).run(spec, new Shard(i, n), d, true, null);
        shards.add(d);
      }
      Results merged = SweepMerge.mergeFiles(shards, List.of(), "merge");
      assertThat(merged).isEqualTo(whole);
      assertThat(ResultsJson.toJson(merged, true)).isEqualTo(ResultsJson.toJson(whole, true));
    }
  }

  /**
   * Points two versions of the tool wrote (shards run by two builds) are refused, from files and in memory, naming
   * both versions: they were merged under the first point's tool.
   */
  @Test
  void pointsOfTwoVersionsOfTheToolAreRefused() throws IOException {
    Function<Map<String, String>, Results> twoBuilds = p -> Results.builder(RunMetadata.builder(
        p.get("seed").equals("2") ? "aries-model 0.0.9" : "test-tool", "job").seed(Long.parseLong(p.get("seed")))
        .build()).metric("latency", 1, "ns").build();
    new SweepRunner(twoBuilds).run(spec, Shard.ALL, dir, false, null);
    assertThatThrownBy(() -> SweepMerge.mergeFiles(List.of(dir), List.of(), "merge"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("points come from different versions of the tool: point 0 (" + dir.resolve("point-0.json")
            + ") was written by \"test-tool\" but point 1 (" + dir.resolve("point-1.json") + ") by \"aries-model"
            + " 0.0.9\"; merge the points of one build (run the sweep again with it)");
    List<Results> points = new ArrayList<>();
    for (Path f : SweepMerge.pointFiles(List.of(dir))) {
      points.add(ResultsJson.read(f));
    }
    assertThatThrownBy(() -> SweepMerge.merge(points, List.of(), "merge"))
        .hasMessage("points come from different versions of the tool: point 0 was written by \"test-tool\" but point 1"
            + " by \"aries-model 0.0.9\"; merge the points of one build (run the sweep again with it)");
  }

  /**
   * Whole numbers of 19 digits are integers, and numbers two of which are one double are text: a range of 19-digit
   * seeds was typed number, its three points merged as three rows of the seed 1.0E18.
   */
  @Test
  void wholeNumbersOfNineteenDigitsStayDistinctInTheMergedTable() throws IOException {
    Function<Map<String, String>, Results> job = p -> Results.builder(RunMetadata.builder("test-tool", "job").build())
        .metric("m", 1, "").build();
    SweepSpec big = SweepSpec.parse("seed=1000000000000000000..1000000000000000002;"
        + "id=12345678901234567890,12345678901234567891");
    new SweepRunner(job).run(big, Shard.ALL, dir, false, null);
    ResultTable t = SweepMerge.mergeFiles(List.of(dir), List.of(), "merge").table(SweepMerge.TABLE).orElseThrow();
    assertThat(t.columns().get(1).type()).isEqualTo(ColumnType.INTEGER);
    assertThat(t.columns().get(2).type()).isEqualTo(ColumnType.STRING);
    assertThat(t.rows()).extracting(r -> r.get(1) + "/" + r.get(2)).containsExactly(
        "1000000000000000000/12345678901234567890", "1000000000000000000/12345678901234567891",
        "1000000000000000001/12345678901234567890", "1000000000000000001/12345678901234567891",
        "1000000000000000002/12345678901234567890", "1000000000000000002/12345678901234567891");
    assertThat(SweepMerge.wholeNumber("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
    assertThat(SweepMerge.wholeNumber("-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
    assertThat(SweepMerge.wholeNumber("9223372036854775808")).isNull();
  }

  @Test
  void mergedTableHasOneTypedRowPerPointInIndexOrder() throws IOException {
    new SweepRunner(JOB).run(spec, Shard.ALL, dir, false, null);
    Results merged = SweepMerge.mergeFiles(List.of(dir), List.of("throughput"), "merge");
    ResultTable t = merged.table(SweepMerge.TABLE).orElseThrow();
    assertThat(t.columns()).extracting(c -> c.name() + ":" + c.type())
        .containsExactly("point:INTEGER", "load:NUMBER", "routing:STRING", "seed:INTEGER", "throughput:NUMBER");
    assertThat(t.rows()).hasSize(12);
    assertThat(t.rows().get(3)).containsExactly(3L, 0.1, "ugal", 2L, 0.1 * 0.9);
    assertThat(merged.metadata().seed()).isNull();
    assertThat(merged.metadata().routing()).isNull();
    assertThat(merged.metadata().system()).isEqualTo("default");
    assertThat(merged.metadata().events()).isEqualTo(6 * 11 + 6 * 12);
    assertThat(merged.metadata().parameters()).containsEntry("spec", spec.toString());
    assertThat(t.columns().get(0).type()).isEqualTo(ColumnType.INTEGER);
  }

  @Test
  void pointFilesRecordTheirCoordinatesAndParameters() throws IOException {
    List<Path> files = new SweepRunner(JOB).run(spec, new Shard(1, 4), dir, true, null);
    assertThat(files).extracting(f -> f.getFileName().toString())
        .containsExactly("point-1.json", "point-5.json", "point-9.json");
    Results p5 = ResultsJson.read(dir.resolve("point-5.json"));
    assertThat(p5.metadata().sweep().index()).isEqualTo(5);
    assertThat(p5.metadata().sweep().points()).isEqualTo(12);
    assertThat(p5.metadata().parameters()).containsEntry("load", "0.5").containsEntry("routing", "minimal")
        .containsEntry("seed", "2");
    assertThat(p5.metadata().wallClock()).isNotNull();
  }

  @Test
  void mergedMetadataKeepsTheSystemSettingsAllPointsShareAndNullsTheOthers() throws IOException {
    Function<Map<String, String>, Results> job = p -> Results.builder(RunMetadata.builder("test-tool", "job")
            .system("default").routing("minimal").fabric(p.get("fabric")).translator("iommu")
            .nic(Map.of("requestTags", p.get("tags"))).iommu(Map.of("ways", "2")).seed(1L).build())
        .metric("x", 1, "").build();
    new SweepRunner(job).run(SweepSpec.parse("fabric=routers,ideal;tags=32"), Shard.ALL, dir.resolve("a"), false,
        null);
    RunMetadata a = SweepMerge.mergeFiles(List.of(dir.resolve("a")), List.of(), "merge").metadata();
    assertThat(a.fabric()).isNull(); // the points differ
    assertThat(a.translator()).isEqualTo("iommu");
    assertThat(a.nic()).containsExactly(Map.entry("requestTags", "32"));
    assertThat(a.iommu()).containsExactly(Map.entry("ways", "2"));
    new SweepRunner(job).run(SweepSpec.parse("fabric=ideal;tags=32,64"), Shard.ALL, dir.resolve("b"), false, null);
    RunMetadata b = SweepMerge.mergeFiles(List.of(dir.resolve("b")), List.of(), "merge").metadata();
    assertThat(b.fabric()).isEqualTo("ideal");
    assertThat(b.nic()).isNull();
  }

  @Test
  void aPointWithoutAMetricHasANullCellThere() throws IOException {
    // a replay point whose trace has no point-to-point message has no latency metrics; the merge used to refuse it
    Map<String, Integer> messages = Map.of("a", 0, "b", 4, "c", 0, "d", 8);
    Function<Map<String, String>, Results> job = p -> {
      int n = messages.get(p.get("trace"));
      Results.Builder b = Results.builder(RunMetadata.builder("test-tool", "job").seed(1L).build())
          .metric("messages", n, "");
      if (n > 0) {
        b.metric("latency.p50", 500 + n, "ns");
      }
      return b.build();
    };
    new SweepRunner(job).run(SweepSpec.parse("trace=a,b,c,d"), Shard.ALL, dir, false, null);
    ResultTable t = SweepMerge.mergeFiles(List.of(dir), List.of(), "merge").table(SweepMerge.TABLE).orElseThrow();
    assertThat(t.columns()).extracting(c -> c.name() + ":" + c.unit())
        .containsExactly("point:", "trace:", "messages:", "latency.p50:ns"); // every point's metrics
    assertThat(t.rows()).extracting(row -> row.get(3)).containsExactly(null, 504.0, null, 508.0);
    assertThatThrownBy(() -> SweepMerge.mergeFiles(List.of(dir), List.of("latency.p99"), "m"))
        .hasMessageContaining("no metric latency.p99"); // a metric no point has is still a mistake
  }

  @Test
  void rejectsMissingPointsListingThem() throws IOException {
    new SweepRunner(JOB).run(spec, new Shard(0, 3), dir.resolve("a"), false, null);
    new SweepRunner(JOB).run(spec, new Shard(2, 3), dir.resolve("c"), false, null);
    assertThatThrownBy(() -> SweepMerge.mergeFiles(List.of(dir.resolve("a"), dir.resolve("c")), List.of(), "m"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has 12 points but 4 are missing: [1, 4, 7, 10]");
  }

  @Test
  void rejectsDuplicatePointsNamingBothFiles() throws IOException {
    new SweepRunner(JOB).run(spec, Shard.ALL, dir.resolve("a"), false, null);
    new SweepRunner(JOB).run(spec, new Shard(3, 12), dir.resolve("b"), false, null);
    assertThatThrownBy(() -> SweepMerge.mergeFiles(List.of(dir.resolve("a"), dir.resolve("b")), List.of(), "m"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("point 3 appears twice")
        .hasMessageContaining(dir.resolve("a/point-3.json").toString())
        .hasMessageContaining(dir.resolve("b/point-3.json").toString());
  }

  @Test
  void rejectsPointsOfDifferentSweepsMissingMetricsAndNonPoints() throws IOException {
    new SweepRunner(JOB).run(spec, new Shard(0, 2), dir.resolve("a"), false, null);
    new SweepRunner(JOB).run(SweepSpec.parse("load=0.1,0.5,0.9;routing=minimal,ugal;seed=1,3"), new Shard(1, 2),
        dir.resolve("b"), false, null);
    assertThatThrownBy(() -> SweepMerge.mergeFiles(List.of(dir.resolve("a"), dir.resolve("b")), List.of(), "m"))
        .hasMessageContaining("different sweeps").hasMessageContaining("seed=1,3");
    new SweepRunner(JOB).run(spec, new Shard(1, 2), dir.resolve("a"), false, null);
    assertThatThrownBy(() -> SweepMerge.mergeFiles(List.of(dir.resolve("a")), List.of("latency.p99"), "m"))
        .hasMessageContaining("point 0").hasMessageContaining("no metric latency.p99")
        .hasMessageContaining("[latency, throughput]");
    Path plain = dir.resolve("plain.json");
    ResultsJson.write(JOB.apply(spec.point(0).parameters()), plain, false);
    assertThatThrownBy(() -> SweepMerge.mergeFiles(List.of(plain), List.of(), "m"))
        .hasMessageContaining("not a sweep point");
    Files.createDirectories(dir.resolve("empty"));
    assertThatThrownBy(() -> SweepMerge.mergeFiles(List.of(dir.resolve("empty")), List.of(), "m"))
        .hasMessageContaining("no point-*.json");
  }

  /**
   * Two whole sweeps are told as two sweeps, not as a point that appears twice; an input given twice, or a point file
   * reached twice, is told as such (stop 75's hunt: "point 0 appears twice" for both, naming one file twice).
   */
  @Test
  void twoSweepsAndAnInputGivenTwiceAreToldAsSuch() throws IOException {
    new SweepRunner(JOB).run(spec, Shard.ALL, dir.resolve("a"), false, null);
    new SweepRunner(JOB).run(SweepSpec.parse("load=0.1,0.5,0.9;routing=minimal,ugal;seed=1,3"), Shard.ALL,
        dir.resolve("b"), false, null);
    assertThatThrownBy(() -> SweepMerge.mergeFiles(List.of(dir.resolve("a"), dir.resolve("b")), List.of(), "m"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("points come from different sweeps: point 0 (" + dir.resolve("a/point-0.json")
            + ") is from \"load=0.1,0.5,0.9;routing=minimal,ugal;seed=1,2\" (12 points) but point 0 ("
            + dir.resolve("b/point-0.json") + ")");
    assertThatThrownBy(() -> SweepMerge.mergeFiles(List.of(dir.resolve("a"), dir.resolve("a")), List.of(), "m"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("merge input " + dir.resolve("a") + " is given twice; give each input once");
    assertThatThrownBy(() -> SweepMerge.mergeFiles(List.of(dir.resolve("a"), dir.resolve("./a/")), List.of(), "m"))
        .hasMessage("merge input " + dir.resolve("./a/") + " is " + dir.resolve("a") + " again; give each input once");
    assertThatThrownBy(() -> SweepMerge.mergeFiles(List.of(dir.resolve("a"), dir.resolve("a/point-3.json")),
        List.of(), "m")).hasMessage("point file " + dir.resolve("a/point-3.json") + " is reached twice by the"
            + " inputs (also as " + dir.resolve("a/point-3.json") + "); give each directory or point file once");
  }

  @Test
  void rejectsPointsOfOneSpecificationRunByDifferentJobsNamingBoth() throws IOException {
    // merge compared the spec and the size alone, so two jobs' points of one spec made one table
    Function<Map<String, String>, Results> other = p -> {
      Results r = JOB.apply(p);
      return r.withMetadata(r.metadata().toBuilder().command("sweep --job gups " + spec).build());
    };
    Function<Map<String, String>, Results> mine = p -> {
      Results r = JOB.apply(p);
      return r.withMetadata(r.metadata().toBuilder().command("sweep --job pingpong " + spec).build());
    };
    new SweepRunner(mine).run(spec, new Shard(0, 2), dir.resolve("a"), false, null);
    new SweepRunner(other).run(spec, new Shard(1, 2), dir.resolve("b"), false, null);
    assertThatThrownBy(() -> SweepMerge.mergeFiles(List.of(dir.resolve("a"), dir.resolve("b")), List.of(), "m"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("points come from different jobs: point 0 (" + dir.resolve("a/point-0.json") + ") is from job"
            + " pingpong but point 1 (" + dir.resolve("b/point-1.json") + ") is from job gups");
    new SweepRunner(mine).run(spec, new Shard(1, 2), dir.resolve("b"), false, null);
    assertThat(SweepMerge.mergeFiles(List.of(dir.resolve("a"), dir.resolve("b")), List.of(), "m")
        .table(SweepMerge.TABLE).orElseThrow().rows()).hasSize(12);
  }

  @Test
  void numbersWrittenInTheirOwnWayKeepTheirTextsInThePointsAndMerge() throws IOException {
    // the refusal of one number written two ways changes no valid sweep's points: their files merge as before
    SweepSpec own = SweepSpec.parse("load=0.10,0.5;routing=minimal;seed=01,2");
    new SweepRunner(JOB).run(own, Shard.ALL, dir, false, null);
    assertThat(ResultsJson.read(dir.resolve("point-0.json")).metadata().parameters())
        .containsEntry("load", "0.10").containsEntry("seed", "01");
    Results merged = SweepMerge.mergeFiles(List.of(dir), List.of(), "merge");
    assertThat(merged.metadata().parameters()).containsEntry("spec", "load=0.10,0.5;routing=minimal;seed=01,2");
    assertThat(merged.table(SweepMerge.TABLE).orElseThrow().rows()).extracting(r -> r.get(1) + "/" + r.get(3))
        .containsExactly("0.1/1", "0.1/2", "0.5/1", "0.5/2");
  }

  @Test
  void pointsOfASweepThatRanOneNumberTwiceAreRefusedNamingTheSpellings() throws IOException {
    // written before the refusal: load=0.5,0.50 ran one point twice; merged, two rows of the same coordinates
    String old = "load=0.5,0.50;routing=minimal;seed=1";
    for (int i = 0; i < 2; i++) {
      Map<String, String> p = Map.of("load", i == 0 ? "0.5" : "0.50", "routing", "minimal", "seed", "1");
      Results r = JOB.apply(p);
      r = r.withMetadata(r.metadata().toBuilder().parameters(p)
          .sweep(new io.github.ariesmodel.cli.report.SweepCoordinates(i, 2, old)).build());
      ResultsJson.write(r, dir.resolve("point-" + i + ".json"), false);
    }
    assertThatThrownBy(() -> SweepMerge.mergeFiles(List.of(dir), List.of(), "m"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("point 0 (" + dir.resolve("point-0.json") + ") is of the sweep \"" + old + "\", which cannot be"
            + " merged: parameter load lists 0.5 twice, as \"0.5\" and \"0.50\"; give each value once");
  }

  @Test
  void jobsRegistryLooksUpByNameAndRejectsUnknownAndDuplicates() {
    SweepJobs jobs = SweepJobs.builtIn().register("test", "arithmetic", JOB);
    assertThat(jobs.names()).contains("pingpong", "traffic", "test");
    assertThat(jobs.job("test").job()).isSameAs(JOB);
    assertThatThrownBy(() -> jobs.job("nope")).hasMessageContaining("nope").hasMessageContaining("pingpong");
    assertThatThrownBy(() -> jobs.register("test", "again", JOB)).hasMessageContaining("already registered");
  }
}
