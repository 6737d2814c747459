package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.ResultsJson;
import io.github.ariesmodel.cli.sweep.SweepMerge;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepCommandTest {

  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int aries(String... args) {
    return AriesCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  @Test
  void shardedSweepThenMergeGivesOneRowPerPoint() throws IOException {
    for (int i = 0; i < 2; i++) {
      assertThat(aries("sweep", "--job", "pingpong", "--param", "sizes=8,64,512", "--param", "seed=1..2",
          "--param", "iterations=1", "--shard", i + "/2", "--out", dir.resolve("s" + i).toString())).isZero();
    }
    assertThat(err.toString()).contains("sweep: point 0 {sizes=8, seed=1, iterations=1} done (1/3 of shard 0/2)");
    Path merged = dir.resolve("merged.json");
    Path html = dir.resolve("report/index.html");
    assertThat(aries("merge", "--out", merged.toString(), "--csv", dir.resolve("csv").toString(),
        "--html", html.toString(), "--plot", "sizes:latency.same-router:seed",
        dir.resolve("s0").toString(), dir.resolve("s1").toString())).isZero();
    assertThat(out.toString()).contains("merged 6 points into " + merged);
    Results r = ResultsJson.read(merged);
    ResultTable t = r.table(SweepMerge.TABLE).orElseThrow();
    assertThat(t.rows()).hasSize(6);
    assertThat(t.columnIndex("latency.same-router")).isPositive();
    assertThat(dir.resolve("csv/sweep.csv")).exists();
    assertThat(Files.readString(html)).contains("data:image/png;base64,").contains("latency.same-router vs sizes by seed");
    assertThat(dir.resolve("report/index-plot-0.png")).exists();
  }

  @Test
  void valuesInBracketsSweepNoiseSpecsWhoseCommasSplitThemBefore() throws IOException {
    // a noise spec holds commas, so no sweep could list one (stop 59); in brackets it is one value
    assertThat(aries("sweep", "-q", "--no-wall-clock", "--job", "mpi-collectives", "-p", "nodes=2",
        "-p", "osNoise=none, [period=10us,detour=1us,phase=aligned]", "-p", "warmup=2", "-p", "iterations=20",
        "--out", dir.resolve("s").toString())).as(err.toString()).isZero();
    Path merged = dir.resolve("merged.json");
    assertThat(aries("merge", "--out", merged.toString(), "--csv", dir.resolve("csv").toString(),
        dir.resolve("s").toString())).isZero();
    ResultTable t = ResultsJson.read(merged).table(SweepMerge.TABLE).orElseThrow();
    int noise = t.columnIndex("osNoise");
    int allreduce = t.columnIndex("allreduce.engine-off");
    assertThat(t.rows()).extracting(row -> row.get(noise))
        .containsExactly("none", "period=10us,detour=1us,phase=aligned");
    assertThat(((Number) t.rows().get(1).get(allreduce)).doubleValue())
        .isGreaterThan(((Number) t.rows().get(0).get(allreduce)).doubleValue());
    assertThat(Files.readString(dir.resolve("csv/sweep.csv"))).contains(",\"period=10us,detour=1us,phase=aligned\",");
    assertThat(Files.readString(dir.resolve("s/point-1.json")))
        .contains("\"spec\" : \"nodes=2;osNoise=none,[period=10us,detour=1us,phase=aligned];warmup=2;iterations=20\"");
    // without brackets the spec splits at its commas, and the refusal says to bracket it, in one line
    err.getBuffer().setLength(0);
    assertThat(aries("sweep", "--job", "mpi-collectives", "-p", "osNoise=none,period=100us,detour=10us",
        "--out", dir.resolve("t").toString())).isEqualTo(2);
    assertThat(err.toString().strip()).doesNotContain("\n").contains("\"period=100us\"")
        .contains("must stand in brackets");
    assertThat(dir.resolve("t")).doesNotExist();
  }

  @Test
  void sizesWithBinarySuffixesMergeAsNumbersAndPlot() throws IOException {
    // The README's example: sizes written as 4K and 32K made the merged column text, and --plot refused it.
    assertThat(aries("sweep", "-q", "--job", "pingpong", "--param", "sizes=8,4K,32K", "--param", "iterations=1",
        "--out", dir.resolve("s").toString())).isZero();
    Path merged = dir.resolve("merged.json");
    assertThat(aries("merge", "--out", merged.toString(), "--html", dir.resolve("m.html").toString(),
        "--plot", "sizes:latency.same-router", dir.resolve("s").toString())).isZero();
    ResultTable t = ResultsJson.read(merged).table(SweepMerge.TABLE).orElseThrow();
    int sizes = t.columnIndex("sizes");
    assertThat(t.rows()).extracting(row -> row.get(sizes)).containsExactly(8L, 4096L, 32768L);
    assertThat(Files.readString(dir.resolve("m.html"))).contains("latency.same-router vs sizes");
  }

  @Test
  void quietAndNoWallClockRerunsAreSilentAndByteIdentical() throws IOException {
    for (String d : new String[] {"a", "b"}) {
      assertThat(aries("sweep", "-q", "--no-wall-clock", "--job", "pingpong", "--param", "sizes=8",
          "--param", "iterations=1", "--out", dir.resolve(d).toString())).isZero();
    }
    assertThat(err.toString()).isEmpty();
    assertThat(Files.readAllBytes(dir.resolve("a/point-0.json"))).isEqualTo(Files.readAllBytes(dir.resolve("b/point-0.json")));
  }

  /**
   * A shard of this sweep into a directory holding another build's points of it is refused as another sweep's points
   * are (merge refuses the mix, which was found only there, after every shard had run), and replaces them with --force.
   */
  @Test
  void anotherBuildsPointsOfTheSameSweepAreRefusedUnlessForced() throws IOException {
    Path sw = dir.resolve("builds");
    String[] shard0 = {"sweep", "--job", "pingpong", "--param", "sizes=8,64", "--param", "iterations=1", "--out",
        sw.toString(), "-q", "--no-wall-clock", "--shard", "0/2"};
    assertThat(aries(shard0)).isZero();
    Path p0 = sw.resolve("point-0.json");
    String tool = io.github.ariesmodel.cli.report.RunMetadata.currentTool();
    String old = Files.readString(p0).replace("\"tool\" : \"" + tool + "\"", "\"tool\" : \"aries-model 0.0.9\"");
    assertThat(old).contains("aries-model 0.0.9");
    Files.writeString(p0, old);
    String[] shard1 = shard0.clone();
    shard1[shard1.length - 1] = "1/2";
    assertThat(aries(shard1)).isEqualTo(2);
    assertThat(err.toString()).hasLineCount(1).contains(sw + " holds 1 point file(s) of another sweep (point-0.json:"
        + " written by \"aries-model 0.0.9\", not " + tool + ")").contains("add --force");
    assertThat(Files.readString(p0)).as("left as it was").isEqualTo(old);
    assertThat(sw.resolve("point-1.json")).doesNotExist();
    String[] forced = java.util.Arrays.copyOf(shard1, shard1.length + 1);
    forced[shard1.length] = "--force";
    assertThat(aries(forced)).isZero();
    assertThat(p0).as("the other build's point is gone").doesNotExist();
    assertThat(aries(shard0)).isZero();
    assertThat(aries("merge", sw.toString(), "--out", dir.resolve("m.json").toString())).isZero();
  }

  @Test
  void concurrentPointsGiveTheFilesAndProgressOfASequentialSweep() throws IOException {
    String[] sweep = {"sweep", "--no-wall-clock", "--job", "pingpong", "--param", "sizes=8,64,512",
        "--param", "seed=1..2", "--param", "iterations=1"};
    String[] progress = new String[2];
    for (int run = 0; run < 2; run++) {
      err.getBuffer().setLength(0);
      String jobs = run == 0 ? "1" : "3";
      String[] args = java.util.stream.Stream.concat(java.util.Arrays.stream(sweep),
          java.util.stream.Stream.of("--jobs", jobs, "--out", dir.resolve("j" + jobs).toString()))
          .toArray(String[]::new);
      assertThat(aries(args)).isZero();
      progress[run] = err.toString().replace(dir.resolve("j" + jobs).toString(), "OUT");
    }
    assertThat(progress[1]).isEqualTo(progress[0]).contains("done (6/6 of shard 0/1)");
    for (int i = 0; i < 6; i++) {
      assertThat(Files.readAllBytes(dir.resolve("j3/point-" + i + ".json")))
          .isEqualTo(Files.readAllBytes(dir.resolve("j1/point-" + i + ".json")));
    }
    assertThat(aries("sweep", "--job", "pingpong", "--param", "sizes=8", "--jobs", "0")).isEqualTo(2);
    assertThat(err.toString()).contains("--jobs must be in [1, 4096] but was 0");
  }

  /**
   * --jobs outside [1, 4096] or not a number: one line naming the range and the value. Until stop 69, 32768 went on
   * to the JDK's virtual-thread scheduler (a 31-line ExceptionInInitializerError on Java 25) and "x" was said to need
   * an integer from -2147483648 to 2147483647, which is not the range the option takes.
   */
  @Test
  void jobsOutsideItsRangeIsOneLineNamingTheRange() {
    for (String bad : new String[] {"32768", "4097", "-1", "x", "2147483648"}) {
      err.getBuffer().setLength(0);
      assertThat(aries("sweep", "--job", "pingpong", "-p", "sizes=8", "--jobs", bad, "--dry-run")).as(bad)
          .isEqualTo(2);
      assertThat(err.toString().strip()).as(bad).doesNotContain("\n").contains("--jobs must be in [1, 4096] but was "
          + bad);
    }
    assertThat(SweepCommand.jobCount("4096")).isEqualTo(4096);
    assertThat(SweepCommand.jobCount("1")).isEqualTo(1);
  }

  @Test
  void aBadFirstPointOfTenMillionIsRefusedWithoutMakingTheOtherPoints() {
    // 3,162 × 3,162 = 9,998,244 points from 6,324 values. Every point was made before point 0 was checked: about
    // 400 bytes and 3 µs a point, some 4 GB and half a minute before the one-line refusal (stop 48). The points are
    // now made as they are read, so the refusal allocates what one point's check does. Measured in bytes allocated
    // by this thread (the command runs on it), not in time.
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    assertThat(aries("sweep", "--job", "pingpong", "--param", "iterations=0..3161", "--param", "seed=1..3162",
        "--out", dir.resolve("never").toString())).isEqualTo(2);
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    assertThat(err.toString().strip()).isEqualTo("aries sweep: point 0 {iterations=0, seed=1}: iterations must be in"
        + " [1, 100000] but was 0 (--param)");
    assertThat(allocated).as("bytes allocated").isLessThan(1L << 30);
    assertThat(dir.resolve("never")).doesNotExist();
  }

  @Test
  void dryRunListsTheShardsPoints() {
    assertThat(aries("sweep", "--dry-run", "--job", "pingpong", "--param", "sizes=8,64,512",
        "--param", "seed=1,2", "--shard", "1/4")).isZero();
    assertThat(out.toString()).contains("6 points, shard 1/4 runs 2").contains("1 {sizes=8, seed=2}")
        .contains("5 {sizes=512, seed=2}");
  }

  @Test
  void theShortParamOptionOfRunWorksForSweepToo() {
    assertThat(aries("sweep", "--dry-run", "--job", "pingpong", "-p", "sizes=8,64", "-p", "seed=1..2")).isZero();
    String shortForm = out.toString();
    out.getBuffer().setLength(0);
    assertThat(aries("sweep", "--dry-run", "--job", "pingpong", "--param", "sizes=8,64", "--param", "seed=1..2"))
        .isZero();
    assertThat(shortForm).isEqualTo(out.toString()).contains("4 points").contains("3 {sizes=64, seed=2}");
  }

  @Test
  void listsJobs() {
    assertThat(aries("sweep", "--list-jobs")).isZero();
    assertThat(out.toString()).contains("pingpong").contains("traffic").doesNotContain("link-queue");
  }

  @Test
  void usageErrorsExitWithTwoAndAMessage() {
    assertThat(aries("sweep", "--job", "nope", "--param", "a=1")).isEqualTo(2);
    assertThat(err.toString()).contains("sweep job must be one of [", "pingpong", "traffic", "but was \"nope\"");
    assertThat(aries("sweep", "--job", "pingpong", "--param", "sizes=8", "--shard", "2/2")).isEqualTo(2);
    // located at the option typed, not "(arguments)" (stop 48)
    assertThat(err.toString()).contains("shard index must be in [0, 1] for 2 shards but was 2 (--shard)");
    assertThat(aries("sweep", "--job", "pingpong", "--param", "seed=1..2..3")).isEqualTo(2);
    assertThat(err.toString())
        .contains("range of parameter seed must be a..b with integers a <= b but was \"1..2..3\" (--param)");
    assertThat(aries("sweep", "--job", "pingpong", "--param", "sizes=0", "--out", dir.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("sizes elements must be in [1, ");
    assertThat(aries("merge", "--out", dir.resolve("m.json").toString(), dir.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("merge: found no point-*.json");
  }
}
