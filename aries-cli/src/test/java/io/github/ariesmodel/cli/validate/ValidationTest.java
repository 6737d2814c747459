package io.github.ariesmodel.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.cli.AriesCli;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.mpi.MpiConfig;
import io.github.ariesmodel.system.mpi.OsuBenchmarks;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The calibration itself: with its defaults the model reproduces every published Aries figure within the accepted
 * band. These are simulated-time results (deterministic), not wall-clock timings.
 */
class ValidationTest {

  @Test
  void everyPublishedFigureIsReproducedWithinTheBand() {
    List<Validation.Row> rows = new Validation(1).run();
    assertThat(rows).hasSize(Validation.FIGURES.size());
    for (Validation.Row r : rows) {
      if (Validation.KNOWN_DISAGREEMENTS.containsKey(r.figure().id())) {
        continue; // measured and documented below
      }
      assertThat(r.passed())
          .as("%s: model %s %s vs published %s (ratio %s)", r.figure().id(), r.model(), r.figure().unit(),
              r.figure().value(), r.ratio())
          .isTrue();
    }
  }

  /** Every calibration row names a row of the table, once, and none is also a known disagreement. */
  @Test
  void theCalibrationRowsAreRowsOfTheTable() {
    java.util.Set<String> ids = new java.util.HashSet<>();
    for (PublishedFigure f : Validation.FIGURES) {
      ids.add(f.id());
    }
    assertThat(Validation.CALIBRATION_ROWS).doesNotHaveDuplicates().isSubsetOf(ids)
        .doesNotContainAnyElementsOf(Validation.KNOWN_DISAGREEMENTS.keySet());
  }

  /**
   * A known disagreement is the model's measured value, outside the band: the day the model reproduces the figure,
   * this fails, and the entry must leave {@link Validation#KNOWN_DISAGREEMENTS} (so no row stays excused when it need
   * not be). The farthest pair minus the nearest on Theta measured 580 ns against 420 ns +- 150 at stop 47.
   */
  @Test
  void theKnownDisagreementStillDisagreesMeasuredAsLabelled() {
    // each entry gets a measurement here: the other is the next test's
    assertThat(Validation.KNOWN_DISAGREEMENTS).containsOnlyKeys("farthest-minus-nearest", "mpi-alltoall-6");
    PublishedFigure f = Validation.FIGURES.stream().filter(x -> x.id().equals("farthest-minus-nearest")).findFirst()
        .orElseThrow();
    Validation v = new Validation(1);
    // the farthest pair minus the nearest inter-node pair (same router), both on Theta: 580 ns at stop 47
    double spread = v.farthestPairNs() - v.pingPongNs("theta", 0, 1);
    Validation.Row r = new Validation.Row(f, spread);
    assertThat(r.passed()).as("the model now reproduces it (%s ns): drop it from KNOWN_DISAGREEMENTS", spread)
        .isFalse();
    assertThat(r.knownDisagreement()).isEqualTo("docs/validation.md, \"The farthest pair's spread\"");
  }

  /**
   * osu_alltoall of 8 bytes on 6 nodes: 3.9 us in the model (MPICH's isend/irecv algorithm below 8 ranks) against
   * 8.23 us of Cray MPICH on Dom, measured at stop 59. The same call as a pairwise exchange (one message time a peer)
   * gives 7.5 us: the size of the gap, not a source for the algorithm (docs/validation.md). Once the model reproduces
   * the figure this fails and the entry must leave the map.
   */
  @Test
  void theAlltoallDisagreementStillDisagreesAndAPairwiseExchangeIsTheGapsSize() {
    PublishedFigure f = Validation.FIGURES.stream().filter(x -> x.id().equals("mpi-alltoall-6")).findFirst()
        .orElseThrow();
    double model = alltoall6(MpiConfig.defaults());
    Validation.Row r = new Validation.Row(f, model);
    assertThat(r.passed()).as("the model now reproduces it (%s us): drop it from KNOWN_DISAGREEMENTS", model)
        .isFalse();
    assertThat(r.ratio()).as("below the figure, not above").isLessThan(f.lowRatio());
    assertThat(r.knownDisagreement())
        .isEqualTo("docs/validation.md, \"Collectives against CSCS's osu_allreduce and osu_alltoall\"");
    // MPICH's long-message pairwise exchange, forced by cut-overs of 0: five exchanges in a row, inside the band
    double pairwise = alltoall6(MpiConfig.builder().alltoallShortBytes(0)
        .alltoallMediumBytes(0).build());
    assertThat(f.accepts(pairwise)).as("pairwise %s us", pairwise).isTrue();
    assertThat(pairwise).isGreaterThan(1.5 * model);
  }

  /**
   * A known row is excused only inside the interval its documented cause explains (Validation.KNOWN_DISAGREEMENTS):
   * until stop 69 any failing value of these rows printed {@code KNOWN} and exit 0, so a model giving 0, a negative
   * spread or a million passed. Today's values (580 ns, 3.96 us) stay {@code KNOWN}; values in the band are {@code ok}.
   */
  @Test
  void aKnownRowFailsOutsideTheIntervalItsCauseExplains() {
    PublishedFigure spread = figure("farthest-minus-nearest");
    for (double ns : new double[] {-500, 0, 1, 100, 10000, 1e6, 700, Double.NaN}) {
      Validation.Row r = new Validation.Row(spread, ns);
      assertThat(r.knownDisagreement()).as("%s ns", ns).isNull();
      assertThat(r.accepted()).as("%s ns", ns).isFalse();
      assertThat(r.result()).as("%s ns", ns).isEqualTo("FAIL");
    }
    assertThat(new Validation.Row(spread, 580).result()).isEqualTo("KNOWN");
    assertThat(new Validation.Row(spread, 580).accepted()).isTrue();
    assertThat(new Validation.Row(spread, 420).result()).isEqualTo("ok");
    PublishedFigure alltoall = figure("mpi-alltoall-6");
    for (double us : new double[] {-500, 0, 1, 3.0, 100, 10000, 1e6, 11, Double.NaN}) {
      Validation.Row r = new Validation.Row(alltoall, us);
      assertThat(r.knownDisagreement()).as("%s us", us).isNull();
      assertThat(r.accepted()).as("%s us", us).isFalse();
      assertThat(r.result()).as("%s us", us).isEqualTo("FAIL");
    }
    assertThat(new Validation.Row(alltoall, 3.96).result()).isEqualTo("KNOWN");
    assertThat(new Validation.Row(alltoall, 8.23).result()).isEqualTo("ok");
  }

  /**
   * osu-latency-bound is "<= 1.30 us and >= 0.5 us" (calibration-sources row 9): until stop 69 it had only the upper
   * bound, so any positive value under 1300 ns passed, 1 ns included.
   */
  @Test
  void theOsuLatencyBoundHasItsLowerBound() {
    PublishedFigure f = figure("osu-latency-bound");
    assertThat(f.accepts(1)).isFalse();
    assertThat(f.accepts(499)).isFalse();
    assertThat(f.accepts(500)).isTrue();
    assertThat(f.accepts(774)).isTrue();
    assertThat(f.accepts(1300)).isTrue();
    assertThat(f.accepts(1301)).isFalse();
    assertThat(f.accepts(0)).isFalse();
  }

  private static PublishedFigure figure(String id) {
    return Validation.FIGURES.stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
  }

  private static double alltoall6(MpiConfig config) {
    var sys = AriesSystem.builder().system("default").seed(1).build();
    return OsuBenchmarks.alltoall(sys, Validation.COLLECTIVE_NODES, 1, 8,
        Validation.COLLECTIVE_WARMUP, Validation.COLLECTIVE_ITERATIONS, config);
  }

  @Test
  void theSuiteHasAtLeastFifteenRowsFromAtLeastFiveSources() {
    assertThat(Validation.FIGURES).hasSizeGreaterThanOrEqualTo(15);
    assertThat(Validation.FIGURES.stream().map(f -> f.source().split("[ ,(]")[0]).distinct().count())
        .isGreaterThanOrEqualTo(5);
  }

  @Test
  void aFigureOutsideTheBandFails() {
    PublishedFigure f = new PublishedFigure("x", "x", 100, "ns", false, "test");
    assertThat(f.accepts(80)).isTrue();
    assertThat(f.accepts(79.9)).isFalse();
    assertThat(f.accepts(125)).isTrue();
    assertThat(f.accepts(125.1)).isFalse();
    PublishedFigure tight = new PublishedFigure("t", "t", 9.5, "GB/s", false, "test", 0.9, 1.1);
    assertThat(tight.accepts(8.56)).isTrue();
    assertThat(tight.accepts(8.5)).isFalse();
    assertThat(tight.accepts(10.5)).isFalse();
    PublishedFigure shape = PublishedFigure.shape("s", "s", "test");
    assertThat(shape.accepts(1)).isTrue();
    assertThat(shape.accepts(0)).isFalse();
    PublishedFigure bound = new PublishedFigure("y", "y", 2000, "ns", true, "test");
    assertThat(bound.accepts(1999)).isTrue();
    assertThat(bound.accepts(2001)).isFalse();
  }

  @Test
  void validateCommandPrintsEveryFigureAndExitsZero() {
    StringWriter out = new StringWriter();
    int rc = AriesCli.execute(new String[] {"validate"}, new PrintWriter(out, true), new PrintWriter(new StringWriter()));
    assertThat(rc).isZero();
    for (PublishedFigure f : Validation.FIGURES) {
      assertThat(out.toString()).contains(f.id());
    }
    assertThat(out.toString()).contains("all figures within their accepted bands but 2 known to disagree")
        .contains("mpi-alltoall-6").contains("KNOWN");
    java.util.List<String> lines = out.toString().lines().toList();
    assertThat(lines.get(lines.size() - 3)).isEqualTo("calibration rows, set from the figure they compare with"
        + " (docs/validation.md, \"Calibration rows\"): " + String.join(", ", Validation.CALIBRATION_ROWS));
    assertThat(lines.get(lines.size() - 2)).isEqualTo(Validation.DUPLICATES_NOTE)
        .contains("osu-latency-bound is put8-nearest-latency's value")
        .contains("mpi-latency-one-switch is mpi-latency-same-blade's value");
  }
}
