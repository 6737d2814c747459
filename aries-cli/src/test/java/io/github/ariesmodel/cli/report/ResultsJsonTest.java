package io.github.ariesmodel.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsJsonTest {

  @Test
  void roundTripPreservesEverythingIncludingWallClockAndNulls() throws IOException {
    Results r = Fixtures.sample(true);
    Results back = ResultsJson.read(new StringReader(ResultsJson.toJson(r, true)));
    assertThat(back).isEqualTo(r);
    assertThat(back.metadata().wallSeconds()).hasValue(2.5);
    assertThat(back.metadata().eventsPerSecond()).hasValue(400_000.0);
    assertThat(back.table("latency-by-size").orElseThrow().rows().get(2)).containsExactly(1048576L, null, null);
  }

  /**
   * A link rank's capacity past Long.MAX_VALUE (links × elapsed time: after 27 s of simulated time on the full system)
   * is written and read back exactly, and its utilization is a fraction: as a long it wrapped to a negative capacity
   * and utilization, and merge refused the results.json it had written (stop 76's statistics hunt).
   */
  @Test
  void aLinkCapacityPastLongMaxRoundTripsExactly() throws IOException {
    var tr = new java.util.EnumMap<io.github.ariesmodel.core.spi.TranslationClient,
        io.github.ariesmodel.system.SystemStatistics.Translations>(io.github.ariesmodel.core.spi.TranslationClient.class);
    for (var c : io.github.ariesmodel.core.spi.TranslationClient.values()) {
      tr.put(c, new io.github.ariesmodel.system.SystemStatistics.Translations(0, 0, 0, 0));
    }
    long elapsed = 500_000_000_095_000L;
    var rank1 = io.github.ariesmodel.system.SystemStatistics.LinkRank.over("rank-1", 21_600, 7_000_000, elapsed);
    assertThat(rank1.capacityPs()).isEqualTo(new java.math.BigInteger("10800000002052000000"));
    assertThat(rank1.utilization()).isPositive().isLessThan(1e-12);
    var stats = new io.github.ariesmodel.system.SystemStatistics(elapsed, 10, 2,
        new io.github.ariesmodel.system.SystemStatistics.Nics(0, 0, 0, 0, 0, 0, 0, 0), 2, tr,
        new io.github.ariesmodel.system.SystemStatistics.Fabric(1, 1, 3, 0, java.util.List.of(rank1)));
    Results r = Results.builder(Fixtures.sample(false).metadata()).statistics(stats).build();
    String json = ResultsJson.toJson(r, false);
    assertThat(json).contains("\"capacityPs\" : 10800000002052000000");
    Results back = ResultsJson.read(new StringReader(json));
    assertThat(back.statistics()).isEqualTo(stats);
    assertThat(back.statistics().fabric().links().get(0).plus(rank1).capacityPs())
        .isEqualTo(new java.math.BigInteger("21600000004104000000"));
  }

  @Test
  void roundTripThroughAFile(@TempDir Path dir) throws IOException {
    Results r = Fixtures.sample(true);
    Path f = dir.resolve("a/b/results.json");
    ResultsJson.write(r, f, true);
    assertThat(ResultsJson.read(f)).isEqualTo(r);
  }

  @Test
  void leavingOutTheWallClockGivesTheResultsWithoutIt() throws IOException {
    Results r = Fixtures.sample(true);
    String json = ResultsJson.toJson(r, false);
    assertThat(json).doesNotContain("wallClock").doesNotContain("startedAt");
    assertThat(ResultsJson.read(new StringReader(json))).isEqualTo(r.withoutWallClock());
  }

  @Test
  void equalResultsWithDifferentWallClocksWriteIdenticalBytesWithoutWallClock() {
    String a = ResultsJson.toJson(Fixtures.sample(true), false);
    String b = ResultsJson.toJson(Fixtures.sample(false), false);
    assertThat(a).isEqualTo(b);
    assertThat(ResultsJson.toJson(Fixtures.sample(true), true)).isNotEqualTo(a);
  }

  @Test
  void outputHasAFixedKeyOrderAndUnixLineEnds() {
    String json = ResultsJson.toJson(Fixtures.sample(true), true);
    assertThat(json).startsWith("{\n  \"schema\" : \"" + ResultsJson.SCHEMA + "\",\n  \"run\" : {\n");
    assertThat(json).doesNotContain("\r").endsWith("}\n");
    int[] positions = java.util.stream.Stream.of("tool", "command", "system", "routing", "fabric", "translator",
        "nic", "iommu", "seed", "parameters", "sweep", "simulatedTimePs", "events", "wallClock", "metrics", "tables")
        .mapToInt(key -> json.indexOf("\"" + key + "\" :")).toArray();
    assertThat(positions).isSorted().doesNotContain(-1);
  }

  @Test
  void theSystemSettingsRoundTripAndAFileWrittenBeforeThemReadsThemAsNotKnown() throws IOException {
    Results r = Fixtures.sample(false);
    String json = ResultsJson.toJson(r, false);
    assertThat(json).contains("\"fabric\" : \"routers\"", "\"translator\" : \"iommu\"",
        "\"nic\" : {\n      \"requestTags\" : \"32\"\n    }", "\"iommu\" : { }");
    RunMetadata back = ResultsJson.read(new StringReader(json)).metadata();
    assertThat(back.fabric()).isEqualTo("routers");
    assertThat(back.nic()).containsExactly(java.util.Map.entry("requestTags", "32"));
    assertThat(back.iommu()).isEmpty();
    String older = json.replaceAll("(?s)    \"fabric\".*?    \"seed\"", "    \"seed\"");
    assertThat(older).doesNotContain("fabric", "\"nic\"");
    RunMetadata old = ResultsJson.read(new StringReader(older)).metadata();
    assertThat(old.fabric()).isNull();
    assertThat(old.translator()).isNull();
    assertThat(old.nic()).isNull();
    assertThat(old.iommu()).isNull();
    assertThat(ResultsJson.toJson(r.withMetadata(r.metadata().toBuilder().iommu(null).build()), false))
        .contains("\"iommu\" : null");
    String bad = json.replace("\"requestTags\" : \"32\"", "\"requestTags\" : 32");
    assertThatThrownBy(() -> ResultsJson.read(new StringReader(bad))).hasMessageContaining("$.run.nic.requestTags");
  }

  @Test
  void rejectsAnotherSchema() {
    String json = ResultsJson.toJson(Fixtures.sample(false), false).replace(ResultsJson.SCHEMA, "other/9");
    assertThatThrownBy(() -> ResultsJson.read(new StringReader(json)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("$.schema").hasMessageContaining("other/9");
  }

  @Test
  void rejectsUnknownFieldsNamingThePath() {
    String json = ResultsJson.toJson(Fixtures.sample(false), false).replace("\"events\" :", "\"evnets\" : 1, \"events\" :");
    assertThatThrownBy(() -> ResultsJson.read(new StringReader(json)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("$.run").hasMessageContaining("evnets");
  }

  @Test
  void rejectsACellOfTheWrongType() {
    String json = ResultsJson.toJson(Fixtures.sample(false), false).replace("[8,812.25,", "[\"8\",812.25,");
    assertThatThrownBy(() -> ResultsJson.read(new StringReader(json)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("$.tables[0].rows[0][0]");
  }

  @Test
  void readingAFileNamesTheFileInErrors(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("bad.json");
    Files.writeString(f, "{\"schema\":\"" + ResultsJson.SCHEMA + "\"}");
    assertThatThrownBy(() -> ResultsJson.read(f))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(f.toString())
        .hasMessageContaining("$.run");
  }

  /**
   * A key twice in one object and text after the results object were accepted (the later value winning, the text
   * dropped), so a damaged or hand-edited point file was merged without a word (until stop 73); each is refused,
   * naming the file and the line.
   */
  @Test
  void aDuplicateKeyOrTextAfterTheObjectIsRefusedNamingTheFile(@TempDir Path dir) throws IOException {
    String json = ResultsJson.toJson(Fixtures.sample(false), false);
    // a metric twice inside metrics, the first value the one that should not be lost without a word
    String dup = json.replace("\"metrics\" : {",
        "\"metrics\" : {\n    \"hit-rate\" : {\"value\" : 0.5, \"unit\" : \"\"},");
    assertThat(dup).isNotEqualTo(json);
    Path d = Files.writeString(dir.resolve("dup.json"), dup);
    assertThatThrownBy(() -> ResultsJson.read(d)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(d + ", line ").hasMessageContaining(": not valid JSON: Duplicate field 'hit-rate'");
    Path t = Files.writeString(dir.resolve("trail.json"), json + "\n{\"schema\": \"junk\"}\n");
    assertThatThrownBy(() -> ResultsJson.read(t)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(t + ", line ").hasMessageContaining(": not valid JSON: more follows the first value");
    assertThatThrownBy(() -> ResultsJson.read(new StringReader(dup))).hasMessageContaining("Duplicate field");
    assertThatThrownBy(() -> ResultsJson.read(new StringReader(json + " 1"))).hasMessageContaining("Trailing token");
  }
}
