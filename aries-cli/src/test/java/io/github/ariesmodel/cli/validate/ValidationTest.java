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
      assertThat(r.passed())
          .as("%s: model %s %s vs published %s (ratio %s)", r.figure().id(), r.model(), r.figure().unit(),
              r.figure().value(), r.ratio())
          .isTrue();
    }
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
