package io.github.ariesmodel.cli.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.cli.AriesCli;
import io.github.ariesmodel.cli.report.ColumnType;
import io.github.ariesmodel.cli.report.PlotSpec;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run traffic}'s table where the network measured nothing or could not carry the load, and what its check
 * refuses before any point runs.
 */
class TrafficWorkloadTest {

  private static final SystemSpec CANONICAL_SMALL = SystemSpec.of("canonical-small", 1);

  private static ResultTable traffic(WorkloadReport r) {
    return r.tables().stream().filter(t -> t.name().equals("traffic")).findFirst().orElseThrow();
  }

  /** The row's cell in a column, by name. */
  private static Object cell(ResultTable t, int row, String column) {
    return t.rows().get(row).get(t.columnIndex(column));
  }

  /** A point whose window measured no packet has no latency, hops or minimal fraction: null cells, where it had 0.0. */
  @Test
  void aPointThatMeasuredNoPacketHasNullCellsNotZeros() {
    ResultTable t = traffic(new TrafficWorkload().run(CANONICAL_SMALL, Params.of(Map.of("loads", "0.0001",
        "measureNs", "100", "routings", "minimal"))));
    assertThat(cell(t, 0, "measuredPackets")).isEqualTo(0L);
    assertThat(cell(t, 0, "unfinishedPackets")).isEqualTo(0L);
    for (String column : List.of("latencyMean", "latencyP99", "minimalFraction", "meanHops")) {
      assertThat(cell(t, 0, column)).as(column).isNull();
    }
  }

  /**
   * Past saturation (adversarial traffic under minimal routing takes about 1/8 of injection on canonical-small) the
   * latency of the few delivered packets is no latency of the point: it is null once more than 2 % of the measured
   * packets are unfinished, and the two counts say how many. At load 2 none is delivered, so the hops and minimal
   * fraction, of the delivered ones, are null too. The counts are the experiment's, as {@code ./aries traffic}
   * reports them.
   */
  @Test
  void latencyPastSaturationIsNullAndTheCountsSayHowManyPacketsWereUnfinished() {
    ResultTable t = traffic(new TrafficWorkload().run(CANONICAL_SMALL, Params.of(Map.of("loads", "0.1,1,2",
        "pattern", "adversarial", "routings", "minimal"))));
    assertThat(t.columns().get(t.columnIndex("measuredPackets")).type()).isEqualTo(ColumnType.INTEGER);
    assertThat(t.columns().get(t.columnIndex("unfinishedPackets")).type()).isEqualTo(ColumnType.INTEGER);
    // below saturation: every measured packet delivered, and the latency reported
    assertThat(cell(t, 0, "unfinishedPackets")).isEqualTo(0L);
    assertThat((Long) cell(t, 0, "measuredPackets")).isPositive();
    assertThat((Double) cell(t, 0, "latencyMean")).isPositive();
    assertThat((Double) cell(t, 0, "latencyP99")).isPositive();
    // load 1: some delivered (their hops and minimal fraction are given), far more unfinished: no latency
    TrafficResult one = TrafficExperiment.on(Topologies.canonicalSmall()).routing("minimal")
        .pattern(TrafficPattern.ADVERSARIAL).load(1).seed(1).run();
    assertThat(one.unfinishedPackets()).isLessThan(one.measuredPackets())
        .isGreaterThan(one.measuredPackets() / 50);
    assertThat(cell(t, 1, "measuredPackets")).isEqualTo(one.measuredPackets());
    assertThat(cell(t, 1, "unfinishedPackets")).isEqualTo(one.unfinishedPackets());
    assertThat(cell(t, 1, "latencyMean")).isNull();
    assertThat(cell(t, 1, "latencyP99")).isNull();
    assertThat(cell(t, 1, "meanHops")).isNotNull();
    assertThat(cell(t, 1, "minimalFraction")).isEqualTo(1.0);
    // load 2: nothing measured is delivered
    assertThat(cell(t, 2, "unfinishedPackets")).isEqualTo(cell(t, 2, "measuredPackets"));
    for (String column : List.of("latencyMean", "latencyP99", "minimalFraction", "meanHops")) {
      assertThat(cell(t, 2, column)).as(column).isNull();
    }
  }

  /**
   * A routing past saturation at every load has no latency to draw: the latency plot draws the routings that have one,
   * with a note naming the one left out. Its empty series made the plot refuse the run after every point had run (and
   * nothing was written), and then (stop 75 to 76) the whole plot was left out for it. With no routing that has a
   * latency there is no plot, and the note says so.
   */
  @Test
  void aRoutingWithoutLatencyAtAnyLoadIsLeftOutOfTheLatencyPlotWithANote(@TempDir Path tmp) throws Exception {
    Params params = Params.of(Map.of("loads", "0.3", "pattern", "adversarial", "routings", "minimal,valiant"));
    WorkloadReport r = new TrafficWorkload().run(CANONICAL_SMALL, params);
    ResultTable t = traffic(r);
    assertThat(cell(t, 0, "latencyMean")).as("minimal, past its 1/8").isNull();
    assertThat((Double) cell(t, 1, "latencyMean")).as("valiant, below its saturation").isPositive();
    assertThat(r.plots()).extracting(PlotSpec::y).contains("latencyMean", "acceptedLoad");
    assertThat(r.notes()).containsExactly("the latency plot leaves out minimal: no latency at any load for minimal (more"
        + " than 2 % of the measured packets unfinished at each: past saturation)");
    // the run writes its results and report, with the latency of valiant drawn
    Path out = tmp.resolve("out");
    StringWriter err = new StringWriter();
    assertThat(AriesCli.execute(new String[] {"run", "traffic", "--system", "canonical-small", "-p", "loads=0.3", "-p",
        "pattern=adversarial", "-p", "routings=minimal,valiant", "-q", "--out", out.toString()},
        new PrintWriter(new StringWriter(), true), new PrintWriter(err, true))).as(err.toString()).isZero();
    assertThat(out.resolve("results.json")).exists();
    assertThat(out.resolve("traffic-accepted-vs-offered.png")).exists();
    assertThat(out.resolve("traffic-latency-vs-load.png")).exists();
    assertThat(java.nio.file.Files.readString(out.resolve("report.html"))).contains("the latency plot leaves out"
        + " minimal").contains("alt=\"Packet latency vs offered load (adversarial)\"");
    // no routing with a latency: no latency plot, and the note says so
    Path alone = tmp.resolve("alone");
    assertThat(AriesCli.execute(new String[] {"run", "traffic", "--system", "canonical-small", "-p", "loads=0.3", "-p",
        "pattern=adversarial", "-p", "routings=minimal", "-q", "--out", alone.toString()},
        new PrintWriter(new StringWriter(), true), new PrintWriter(err, true))).as(err.toString()).isZero();
    assertThat(alone.resolve("traffic-latency-vs-load.png")).doesNotExist();
    assertThat(java.nio.file.Files.readString(alone.resolve("report.html"))).contains("no latency plot: no latency"
        + " at any load for minimal (");
    // with a latency for every routing the plot is drawn, and there is no note
    WorkloadReport below = new TrafficWorkload().run(CANONICAL_SMALL, Params.of(Map.of("loads", "0.1",
        "pattern", "adversarial", "routings", "minimal,valiant")));
    assertThat(below.plots()).extracting(PlotSpec::y).contains("latencyMean");
    assertThat(below.notes()).isEmpty();
  }

  /** The threshold: at most 2 % of the measured packets unfinished, and at least one measured. */
  @Test
  void latencyIsMeaningfulUpToTwoPercentUnfinished() {
    assertThat(TrafficWorkload.latencyMeaningful(100, 0)).isTrue();
    assertThat(TrafficWorkload.latencyMeaningful(100, 2)).isTrue();
    assertThat(TrafficWorkload.latencyMeaningful(100, 3)).isFalse();
    assertThat(TrafficWorkload.latencyMeaningful(1000, 21)).isFalse();
    assertThat(TrafficWorkload.latencyMeaningful(0, 0)).isFalse();
  }

  /**
   * Adversarial traffic on one group is refused by the check, as the experiment refuses it: a sweep found it only as
   * the point ran, after the points before it had written their files.
   */
  @Test
  void theCheckRefusesAdversarialTrafficOnOneGroup() {
    SystemSpec oneGroup = SystemSpec.of("canonical:p=2,a=4,h=2,g=1", 1);
    Params adversarial = Params.of(Map.of("loads", "0.1", "routings", "minimal", "pattern", "adversarial"));
    String message = "pattern adversarial sends each group's nodes to the next group and needs at least 2 groups, but"
        + " the topology has 1; choose another pattern";
    assertThatThrownBy(() -> new TrafficWorkload().check(oneGroup.build(), adversarial))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    assertThatThrownBy(() -> new TrafficWorkload().run(oneGroup, adversarial))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    new TrafficWorkload().check(oneGroup.build(), Params.of(Map.of("loads", "0.1", "routings", "minimal")));
  }

  /**
   * A window shorter than a packet slot is refused by the check and by the run in the parameter's name and unit (the
   * run's line named the experiment's measurePs, in ps, with a value the user never typed).
   */
  @Test
  void aWindowShorterThanAPacketSlotIsRefusedInTheParametersNameAndUnit() {
    Params one = Params.of(Map.of("loads", "0.1", "routings", "minimal", "measureNs", "1"));
    String message = "measureNs must be at least one packet slot, 16 ns here, but was 1";
    assertThatThrownBy(() -> new TrafficWorkload().check(CANONICAL_SMALL.build(), one))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    assertThatThrownBy(() -> new TrafficWorkload().run(CANONICAL_SMALL, one))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    // aries-small's slot is 6,274.5 ps: 6 ns is short, 7 ns a slot
    assertThatThrownBy(() -> new TrafficWorkload().check(SystemSpec.of("aries-small", 1).build(),
        Params.of(Map.of("loads", "0.1", "routings", "minimal", "measureNs", "6"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("measureNs must be at least one packet slot, 6.275 ns here, but was 6");
    new TrafficWorkload().check(SystemSpec.of("aries-small", 1).build(),
        Params.of(Map.of("loads", "0.1", "routings", "minimal", "measureNs", "7")));
    new TrafficWorkload().check(CANONICAL_SMALL.build(),
        Params.of(Map.of("loads", "0.1", "routings", "minimal", "measureNs", "16")));
  }
}
