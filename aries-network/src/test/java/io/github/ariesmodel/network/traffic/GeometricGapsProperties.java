package io.github.ariesmodel.network.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link GeometricGaps} against the formula it stands for, where they could part: at and around every bound. */
class GeometricGapsProperties {

  @Test
  void theTableGivesTheFormulasGapForEveryDraw() {
    qt().withExamples(300)
        .forAll(doubles().between(TrafficExperiment.MIN_LOAD, Math.nextDown(1.0)), longs().all())
        .checkAssert((p, seed) -> {
          GeometricGaps gaps = new GeometricGaps(p);
          double logOfIdle = Math.log1p(-p);
          SplittableRandom rnd = new SplittableRandom(seed);
          for (int i = 0; i < 2_000; i++) {
            double u = rnd.nextDouble();
            assertThat(gaps.slots(u)).as("p %s, u %s", p, u).isEqualTo(GeometricGaps.byFormula(u, logOfIdle));
          }
          // the draws where the two could disagree: each bound, the doubles next to it, and points just outside the
          // margin on both sides
          for (int m = 1; m <= GeometricGaps.BOUNDS + 1; m++) {
            double t = -Math.expm1(m * logOfIdle);
            for (double u : new double[] {t, Math.nextDown(t), Math.nextUp(t), t - GeometricGaps.MARGIN,
                t + GeometricGaps.MARGIN, t - 2 * GeometricGaps.MARGIN, t + 2 * GeometricGaps.MARGIN}) {
              if (u >= 0 && u < 1) {
                assertThat(gaps.slots(u)).as("p %s, u %s near bound %d", p, u, m)
                    .isEqualTo(GeometricGaps.byFormula(u, logOfIdle));
              }
            }
          }
        });
  }

  @Test
  void theEndsOfTheUnitInterval() {
    for (double p : new double[] {TrafficExperiment.MIN_LOAD, 0.1, 0.5, 0.9, Math.nextDown(1.0)}) {
      GeometricGaps gaps = new GeometricGaps(p);
      double logOfIdle = Math.log1p(-p);
      for (double u : new double[] {0, Double.MIN_VALUE, 1e-300, 0.5, Math.nextDown(1.0)}) {
        assertThat(gaps.slots(u)).as("p %s, u %s", p, u).isEqualTo(GeometricGaps.byFormula(u, logOfIdle));
      }
    }
    assertThat(new GeometricGaps(0.5).slots(0)).isEqualTo(1);
    assertThat(new GeometricGaps(0.5).slots(0.7)).as("between the bounds 1/2 and 3/4").isEqualTo(2);
    assertThat(new GeometricGaps(0.5).slots(0.8)).as("between the bounds 3/4 and 7/8").isEqualTo(3);
  }

  @Test
  void aProbabilityOutsideTheOpenUnitIntervalIsRefused() {
    for (double p : new double[] {0, 1, -0.5, 2, Double.NaN}) {
      assertThatThrownBy(() -> new GeometricGaps(p)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("p must be in (0, 1) but was " + p);
    }
  }
}
