package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import org.junit.jupiter.api.Test;

/** {@link Divider} against Java's {@code /}. */
class DividerProperties {

  @Test
  void dividesLikeTheOperatorOverItsWholeRange() {
    qt().withExamples(2_000)
        .forAll(integers().between(1, 1 << 24), integers().between(0, (1 << 30) - 1), integers().between(0, 1000))
        .checkAssert((d, max, k) -> {
          Divider div = new Divider(d, max);
          // the ends of the range, multiples of the divisor and their neighbours, and a spread of points between
          for (long x : new long[] {0, max, max - 1L, (long) max / d * d, (long) max / d * d - 1, (long) max * k / 1000,
              (long) d * k, (long) d * k - 1, (long) d * k + 1}) {
            if (x >= 0 && x <= max) {
              assertThat(div.divide((int) x)).as("%d / %d", x, d).isEqualTo((int) (x / d));
            }
          }
        });
  }

  @Test
  void everyDividendOfTheFullSystemsPorts() {
    // the full system's 925,440 ports by its radix (48) and by its ports a group (4,608), every dividend
    for (int d : new int[] {1, 3, 48, 96, 4_608, 925_440}) {
      Divider div = new Divider(d, 925_439);
      for (int x = 0; x < 925_440; x++) {
        if (div.divide(x) != x / d) {
          throw new AssertionError(x + " / " + d + " gave " + div.divide(x));
        }
      }
    }
  }

  @Test
  void badArgumentsNameTheRange() {
    assertThatThrownBy(() -> new Divider(0, 10)).hasMessage("divisor must be >= 1 but was 0");
    assertThatThrownBy(() -> new Divider(3, 1 << 30)).hasMessage("max must be in [0, 2^30) but was 1073741824");
  }
}
