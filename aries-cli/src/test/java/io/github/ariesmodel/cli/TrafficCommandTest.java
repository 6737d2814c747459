package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TrafficCommandTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return AriesCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  /** A window shorter than one packet slot is refused in the option's own name and unit, not the library's. */
  @Test
  void aMeasureWindowShorterThanAPacketSlotIsRefusedNamingTheOption() {
    assertThat(run("traffic", "--topology", "canonical-small", "--measure-us", "0.001")).isEqualTo(2);
    assertThat(err.toString().strip()).isEqualTo("aries traffic: --measure-us must be at least one packet slot, 0.016"
        + " µs here (84 wire bytes at the topology's injection rate), but was 0.001 (--measure-us)");
    // one picosecond short of the slot is refused, the slot itself runs (the experiment's own rule)
    assertThat(run("traffic", "--topology", "canonical-small", "--measure-us", "0.015999", "--warmup-us", "0"))
        .isEqualTo(2);
    assertThat(run("traffic", "--topology", "canonical-small", "--measure-us", "0.016", "--warmup-us", "0")).isZero();
  }

  /** A run that measures no packet says so in its text, as its JSON's nulls do, rather than printing NaN. */
  @Test
  void aRunThatMeasuresNothingPrintsNotApplicableNotNaN() {
    assertThat(run("traffic", "--topology", "canonical-small", "--load", "0.0001", "--measure-us", "0.02",
        "--warmup-us", "0")).as(err.toString()).isZero();
    assertThat(out.toString()).doesNotContain("NaN")
        .contains("latency ns        mean n/a  p50 n/a  p99 n/a  max n/a")
        .contains("minimal fraction  n/a");
  }

  /**
   * The text follows the README's number format: thousands grouped, and the VC occupancy in one decimal (it printed
   * every digit of the doubles, 146.97626363636363, and counts such as 165269 ungrouped; until stop 72). The JSON keeps
   * the plain numbers.
   */
  @Test
  void theTextGroupsThousandsAndRoundsTheVcOccupancy() throws Exception {
    String[] args = {"traffic", "--topology", "canonical:p=2,a=4,h=2", "--routing", "ugal", "--pattern",
        "adversarial", "--load", "0.3", "--seed", "7", "--warmup-us", "0.5", "--measure-us", "1", "--drain"};
    assertThat(run(args)).as(err.toString()).isZero();
    String text = out.toString();
    out.getBuffer().setLength(0);
    String[] json = java.util.Arrays.copyOf(args, args.length + 1);
    json[args.length] = "--json";
    assertThat(run(json)).as(err.toString()).isZero();
    JsonNode j = new ObjectMapper().readTree(out.toString());
    long measured = j.get("measuredPackets").asLong();
    assertThat(measured).as("enough packets to group").isGreaterThanOrEqualTo(1_000);
    assertThat(text).contains(String.format(java.util.Locale.ROOT, " of %,d measured packets", measured))
        .contains(String.format(java.util.Locale.ROOT, "(generated %,d, delivered %,d, duplicates 0)",
            j.get("generated").asLong(), j.get("delivered").asLong()))
        .contains(String.format(java.util.Locale.ROOT, "(%,d events in ", j.get("events").asLong()));
    String vc = text.lines().filter(l -> l.startsWith("  VC occupancy B")).findFirst().orElseThrow();
    StringBuilder expected = new StringBuilder("  VC occupancy B    [");
    for (int i = 0; i < j.get("vcOccupancyBytes").size(); i++) {
      expected.append(i == 0 ? "" : ", ").append(String.format(java.util.Locale.ROOT, "%,.1f",
          j.get("vcOccupancyBytes").get(i).asDouble()));
    }
    assertThat(vc).isEqualTo(expected.append(']').toString());
    assertThat(j.get("vcOccupancyBytes").get(0).asDouble()).as("the JSON keeps every digit")
        .isNotEqualTo(Math.round(j.get("vcOccupancyBytes").get(0).asDouble() * 10) / 10.0);
  }

  @Test
  void printsTheRequiredJsonKeys() throws Exception {
    int code = run("traffic", "--topology", "canonical:p=2,a=4,h=2", "--routing", "ugal", "--pattern",
        "adversarial", "--load", "0.3", "--seed", "7", "--warmup-us", "0.5", "--measure-us", "1", "--json");
    assertThat(code).as(err.toString()).isZero();
    JsonNode j = new ObjectMapper().readTree(out.toString());
    for (String key : new String[] {"offeredLoad", "acceptedLoad", "minimalFraction", "eventsPerSecond",
        "packetHopsPerSecond"}) {
      assertThat(j.has(key)).as(key).isTrue();
    }
    assertThat(j.get("latencyNs").get("mean").asDouble()).isPositive();
    assertThat(j.get("latencyNs").get("p99").asDouble()).isGreaterThanOrEqualTo(j.get("latencyNs").get("mean")
        .asDouble() * 0.5);
    assertThat(j.get("offeredLoad").asDouble()).isBetween(0.2, 0.4);
    assertThat(j.get("load").asDouble()).isEqualTo(0.3); // asked for, beside what the sources offered
    assertThat(j.get("minimalFraction").asDouble()).isBetween(0.0, 1.0);
    assertThat(j.get("nodes").asInt()).isEqualTo(72);
    assertThat(j.has("busiestLinks")).as("only when asked for").isFalse();
  }

  @Test
  void listsTheWindowsBusiestLinksWhenAsked() throws Exception {
    int code = run("traffic", "--topology", "canonical:p=2,a=4,h=2", "--routing", "minimal", "--pattern",
        "adversarial", "--load", "0.3", "--warmup-us", "0.5", "--measure-us", "1", "--busiest-links", "4", "--json");
    assertThat(code).as(err.toString()).isZero();
    JsonNode hot = new ObjectMapper().readTree(out.toString()).get("busiestLinks");
    assertThat(hot.size()).isEqualTo(4);
    double before = 2;
    for (JsonNode h : hot) {
      double u = h.get("utilization").asDouble();
      assertThat(u).isPositive().isLessThanOrEqualTo(before).isLessThanOrEqualTo(1.0);
      assertThat(h.get("busyNs").asDouble()).isCloseTo(u * 1000, org.assertj.core.data.Offset.offset(1e-6));
      assertThat(h.get("from").asText()).matches("router \\d+ port \\d+");
      before = u;
    }
    // minimal routing under adversarial traffic funnels each group's load onto one global link
    assertThat(hot.get(0).get("rank").asText()).isEqualTo("global");
    assertThat(hot.get(0).get("fromGroup").asInt()).isNotEqualTo(hot.get(0).get("toGroup").asInt());
    StringWriter text = new StringWriter();
    assertThat(AriesCli.execute(new String[] {"traffic", "--topology", "canonical:p=2,a=4,h=2", "--measure-us", "1",
        "--busiest-links", "2"}, new PrintWriter(text, true), new PrintWriter(err, true))).isZero();
    assertThat(text.toString().lines().filter(l -> l.startsWith("  busy link")).count()).isEqualTo(2);
    StringWriter bad = new StringWriter();
    assertThat(AriesCli.execute(new String[] {"traffic", "--busiest-links", "-1"}, new PrintWriter(new StringWriter()),
        new PrintWriter(bad, true))).isEqualTo(2);
    assertThat(bad.toString().strip()).isEqualTo("aries traffic: --busiest-links must be in [0, 1000] but was -1"
        + " (--busiest-links)");
  }

  @Test
  void runsAnAriesTopologyAndDrains() throws Exception {
    int code = run("traffic", "--topology", "aries:groups=2,rows=2,cols=4,h=2", "--routing", "adaptive1",
        "--load", "0.2", "--warmup-us", "0.2", "--measure-us", "0.5", "--drain", "--json");
    assertThat(code).as(err.toString()).isZero();
    JsonNode j = new ObjectMapper().readTree(out.toString());
    assertThat(j.get("drained").asBoolean()).isTrue();
    assertThat(j.get("delivered").asLong()).isEqualTo(j.get("generated").asLong());
    assertThat(j.get("linkUtilization").has("rank-3")).isTrue();
  }

  @Test
  void aDrainCutShortSaysWhatIsStuckInOneLineAndInTheJson() throws Exception {
    String[] args = {"traffic", "--topology", "canonical-small", "--routing", "ugal", "--load", "1", "--warmup-us",
        "0.2", "--measure-us", "0.5", "--drain", "--drain-limit-us", "0.01"};
    assertThat(run(args)).isEqualTo(1);
    String[] lines = out.toString().split("\\R");
    String stuck = java.util.Arrays.stream(lines).filter(l -> l.trim().startsWith("stuck")).findFirst().orElseThrow();
    // counts grouped (as 2,186), the numbers that name something plain
    assertThat(stuck).matches("  stuck +[\\d,]+ packets stuck \\(credit [\\d,]+, link [\\d,]+, ejection [\\d,]+, in"
        + " transit [\\d,]+\\) in [\\d,]+ buffers, most at router \\d+ .*; oldest \\d+->\\d+ tag \\d+, [\\d,]+ ns old, .*;"
        + " [\\d,]+ more queued at sources");
    out.getBuffer().setLength(0);
    String[] json = java.util.Arrays.copyOf(args, args.length + 1);
    json[args.length] = "--json";
    assertThat(run(json)).isEqualTo(1);
    JsonNode j = new ObjectMapper().readTree(out.toString());
    assertThat(j.get("drained").asBoolean()).isFalse();
    JsonNode s = j.get("stuck");
    long packets = s.get("packets").asLong();
    assertThat(packets).isPositive()
        .isEqualTo(j.get("generated").asLong() - j.get("delivered").asLong() - j.get("queuedAtSources").asLong());
    long sum = 0;
    for (String cause : new String[] {"credit", "link", "ejection", "in_transit"}) {
      sum += s.get("byCause").get(cause).asLong();
    }
    assertThat(sum).isEqualTo(packets);
    assertThat(s.get("oldest").get("ageNs").asLong()).isPositive();
    assertThat(s.get("fullestBuffers").size()).isBetween(1, 8);
    // the line writes the JSON's counts as Figures.text writes any count in the CLI's text (it wrote 2186; until
    // stop 73), though aries-network formats them itself
    assertThat(packets).as("enough packets to group").isGreaterThanOrEqualTo(1_000);
    StringBuilder counts = new StringBuilder(Figures.text(packets) + " packets stuck (");
    String[] causes = {"credit", "link", "ejection", "in transit"};
    for (int i = 0; i < causes.length; i++) {
      counts.append(i == 0 ? "" : ", ").append(causes[i]).append(' ')
          .append(Figures.text(s.get("byCause").get(causes[i].replace(' ', '_')).asLong()));
    }
    long buffers = s.get("buffers").asLong();
    counts.append(") in ").append(Figures.text(buffers)).append(buffers == 1 ? " buffer, " : " buffers, ");
    String summary = s.get("summary").asText();
    assertThat(summary).startsWith(counts.toString())
        .contains(" (" + Figures.text(s.get("fullestBuffers").get(0).get("packets").asLong()) + "); oldest ")
        .contains(", " + Figures.text(s.get("oldest").get("ageNs").asLong()) + " ns old, ");
    assertThat(stuck).contains(summary);
  }

  /**
   * The help's --topology line names every option the topology parser takes (it named only g, arrangement absolute or
   * relative, rows, cols and h, leaving out interleaved, exit=, links=, rank2=, nodes= and bw=, until stop 76), and
   * a spec written with all of them as the help shows them is taken.
   */
  @Test
  void theHelpNamesEveryTopologyOptionTheParserTakes() {
    assertThat(run("traffic", "--help")).isZero();
    // picocli wraps the description at spaces and punctuation: compare without the white space
    String help = out.toString().replaceAll("\\s+", "");
    assertThat(help).contains("canonical:p=P,a=A,h=H[,g=G][,bw=BYTES_PER_S]",
        "aries:groups=G[,rows=R,cols=C,rank2=K,h=H,nodes=N]", "links=PER_GROUP_PAIR",
        "arrangement=absolute|relative|interleaved", "exit=own|any");
    assertThat(Topologies.parse("canonical:p=2,a=4,h=2,g=5,bw=5e9,links=2,arrangement=interleaved,exit=any")
        .describe()).contains("2 links/group pair (interleaved, any exit link)");
    assertThat(Topologies.parse("aries:groups=3,rows=2,cols=4,rank2=2,h=2,nodes=2,links=8,arrangement=relative,"
        + "exit=own").describe()).contains("2 nodes/router, 2 rank-2 links/pair", "8 links/group pair (relative)");
  }

  @Test
  void badArgumentsAreReportedWithExitCode2() {
    assertThat(run("traffic", "--topology", "canonical-small", "--drain", "--drain-limit-us", "0")).isEqualTo(2);
    assertThat(err.toString()).contains("--drain-limit-us must be in (0, 1e6] but was 0.0");
    assertThat(run("traffic", "--topology", "canonical:p=4,a=8,h=4,g=40")).isEqualTo(2);
    assertThat(err.toString()).contains("topology option g must be in [1, 33]").contains("40");
    assertThat(run("traffic", "--topology", "canonical-small", "--routing", "teleport")).isEqualTo(2);
    assertThat(err.toString()).contains("teleport");
  }

  /** The load is printed as asked: with three decimals, --load 0.0004 (accepted down to 0.0001) read "load 0.000". */
  @Test
  void theTextPrintsTheLoadAsAsked() {
    assertThat(run("traffic", "--topology", "canonical-small", "--load", "0.0004", "--warmup-us", "0",
        "--measure-us", "0.02")).as(err.toString()).isZero();
    assertThat(out.toString()).contains("routing adaptive0, pattern uniform, load 0.0004, seed 1");
    out.getBuffer().setLength(0);
    assertThat(run("traffic", "--topology", "canonical-small", "--load", "1.25", "--warmup-us", "0",
        "--measure-us", "0.02")).as(err.toString()).isZero();
    assertThat(out.toString()).contains("routing adaptive0, pattern uniform, load 1.25, seed 1");
  }

  /**
   * Past saturation the text says the network did not carry the load and how many packets wait at the sources, whose
   * queues grow with the window without bound; below it, nothing of the kind.
   */
  @Test
  void aRunPastSaturationSaysPacketsQueueAtTheSources() {
    // adversarial traffic under minimal routing: about 1/8 of injection on canonical-small
    String[] past = {"traffic", "--topology", "canonical-small", "--routing", "minimal", "--pattern", "adversarial",
        "--load", "0.5", "--warmup-us", "0.5", "--measure-us", "1"};
    assertThat(run(past)).as(err.toString()).isZero();
    TrafficResult r = TrafficExperiment.on(Topologies.canonicalSmall()).routing("minimal")
        .pattern(TrafficPattern.ADVERSARIAL).load(0.5).seed(1).warmupPs(500_000).measurePs(1_000_000).run();
    assertThat(r.queuedAtSources()).isPositive();
    assertThat(out.toString()).contains(String.format(java.util.Locale.ROOT, "  saturated         the offered load"
        + " exceeds what the network accepts: %,d packets were queued at the sources at the end, a number that grows"
        + " with the window%n", r.queuedAtSources()));
    out.getBuffer().setLength(0);
    past[8] = "0.1";
    assertThat(run(past)).as(err.toString()).isZero();
    assertThat(out.toString()).contains("unfinished        0 of").doesNotContain("saturated");
  }

  /**
   * A window far above saturation fills the heap with the packets queued at the sources: the line says so, where it
   * said only that the heap was too small. (A JVM of its own, with a heap of 48 MB: the 5 ms window at load 2 queues
   * some 40 million packets.)
   */
  @Test
  void aHeapFilledPastSaturationSaysThePacketsQueueAtTheSources() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-Xmx48m", "-cp", System.getProperty("java.class.path"),
        AriesCli.class.getName(), "traffic", "--topology", "canonical-small", "--load", "2", "--warmup-us", "0",
        "--measure-us", "5000").start();
    p.getOutputStream().close();
    p.getInputStream().readAllBytes();
    String e = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(e).isEqualTo(1);
    assertThat(e.lines().toList()).singleElement().isEqualTo("aries traffic: the Java heap ran out during the run; at"
        + " an offered load (--load 2) above what the network accepts, packets queue at the sources without bound,"
        + " one object each, growing with the simulated time: lower --load, shorten --warmup-us or --measure-us, or"
        + " give more heap with ARIES_JAVA_OPTS=-Xmx<size> (memory)");
  }

  @Test
  void textOutputNamesTheTopology() {
    assertThat(run("traffic", "--topology", "canonical-small", "--load", "0.1", "--warmup-us", "0.2",
        "--measure-us", "0.3")).isZero();
    assertThat(out.toString()).contains("canonical dragonfly p=2 a=4 h=2 g=9").contains("accepted load");
  }

  /**
   * The JSON names every setting that changes the results, as given, so that a run can be repeated from its output
   * alone: the topology's spec (the description cannot be fed back), the VC buffer, the arbitration and the drain
   * were not written (until stop 77), and two runs differing only by them gave outputs that did not say why.
   */
  @Test
  void theJsonRecordsTheSettingsThatRepeatTheRun() throws Exception {
    assertThat(run("traffic", "--topology", "canonical:p=2,a=4,h=2", "--load", "0.3", "--warmup-us", "0.5",
        "--measure-us", "1", "--vc-buffer", "1024", "--arbitration", "age", "--drain", "--json"))
        .as(err.toString()).isZero();
    JsonNode first = new ObjectMapper().readTree(out.toString());
    out.getBuffer().setLength(0);
    assertThat(first.get("topologySpec").asText()).isEqualTo("canonical:p=2,a=4,h=2");
    assertThat(first.get("vcBufferBytes").asInt()).isEqualTo(1024);
    assertThat(first.get("arbitration").asText()).isEqualTo("age");
    assertThat(first.get("drain").asBoolean()).isTrue();
    assertThat(first.get("drainLimitUs").asDouble()).isEqualTo(100.0);
    // fed back from the output alone: the same results
    assertThat(run("traffic", "--topology", first.get("topologySpec").asText(), "--routing",
        first.get("routing").asText(), "--pattern", first.get("pattern").asText(), "--load",
        first.get("load").asText(), "--seed", first.get("seed").asText(), "--warmup-us",
        first.get("warmupUs").asText(), "--measure-us", first.get("measureUs").asText(), "--vc-buffer",
        first.get("vcBufferBytes").asText(), "--arbitration", first.get("arbitration").asText(), "--drain",
        "--drain-limit-us", first.get("drainLimitUs").asText(), "--json")).as(err.toString()).isZero();
    com.fasterxml.jackson.databind.node.ObjectNode again =
        (com.fasterxml.jackson.databind.node.ObjectNode) new ObjectMapper().readTree(out.toString());
    com.fasterxml.jackson.databind.node.ObjectNode once = first.deepCopy();
    for (String wall : new String[] {"wallSeconds", "eventsPerSecond", "packetHopsPerSecond"}) {
      again.remove(wall);
      once.remove(wall);
    }
    assertThat(again).isEqualTo(once);
  }

  /**
   * Two spellings of one system record one spec, its canonical form (until stop 78 the spec was recorded as typed:
   * {@code ARIES:groups=2} and {@code aries:groups=2}, one system, two texts); {@code -q} is taken as on run.
   */
  @Test
  void theTopologySpecIsRecordedInItsCanonicalForm() throws Exception {
    assertThat(run("traffic", "--topology", " CANONICAL: P=2, a=4 ,h=2, g=9 ", "--load", "0.1", "--warmup-us", "0.2",
        "--measure-us", "0.3", "--json", "-q")).as(err.toString()).isZero();
    JsonNode typed = new ObjectMapper().readTree(out.toString());
    assertThat(typed.get("topologySpec").asText()).isEqualTo("canonical:p=2,a=4,h=2");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void quietIsTakenByIommuToo() {
    assertThat(run("iommu", "--synthetic", "random:100", "--region", "1M", "-q")).as(err.toString()).isZero();
  }
}
