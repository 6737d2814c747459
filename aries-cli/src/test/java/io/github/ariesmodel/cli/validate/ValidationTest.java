package io.github.ariesmodel.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.cli.AriesCli;
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

  /**
   * A known disagreement is the model's measured value, outside the band: the day the model reproduces the figure,
   * this fails, and the entry must leave {@link Validation#KNOWN_DISAGREEMENTS} (so no row stays excused when it need
   * not be). The farthest pair minus the nearest on Theta measured 580 ns against 420 ns +- 150 at stop 47.
   */
  @Test
  void theKnownDisagreementStillDisagreesMeasuredAsLabelled() {
    // one entry: a second must get a measurement here too
    assertThat(Validation.KNOWN_DISAGREEMENTS).containsOnlyKeys("farthest-minus-nearest");
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
    assertThat(out.toString()).contains("all figures within their accepted bands");
  }
}
