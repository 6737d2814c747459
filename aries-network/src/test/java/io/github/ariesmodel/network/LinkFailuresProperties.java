package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Random failures on random small Aries systems (as cabled): each spec either fails exactly its links and leaves a
 * routable system, or is refused in one line saying how many could fail; and the listed links, named one by one,
 * fail the same links again.
 */
class LinkFailuresProperties {

  private static final String[] COLOURS = {"green", "black", "blue", "any"};

  @Test
  void randomFailuresFailExactlyTheirLinksOrAreRefusedSayingHowManyCould() {
    int[] outcomes = new int[2];
    qt().withExamples(60)
        .forAll(integers().between(2, 5), integers().between(2, 4), integers().between(2, 4),
            integers().between(0, 1_000_000))
        .checkAssert((groups, rows, cols, x) -> {
          CabledDragonfly t = (CabledDragonfly) Topologies.parseTopology("cabled:aries:groups=" + groups + ",rows="
              + rows + ",cols=" + cols + ",h=" + (1 + x % 2));
          int colour = x % 4;
          int cabled = 0;
          for (int c = 0; c < 3; c++) {
            cabled += colour == 3 || colour == c ? t.linkCount(c) : 0;
          }
          int n = 1 + (x / 4) % cabled;
          String spec = "random:" + n + ":" + COLOURS[colour] + ":seed=" + x;
          CabledDragonfly f;
          try {
            f = t.withFailedLinks(spec);
          } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).startsWith("failed links " + spec + ": only ").doesNotContain("\n")
                .endsWith("but N was " + n);
            outcomes[1]++;
            return;
          }
          outcomes[0]++;
          assertThat(f.failedLinkCount()).isEqualTo(n);
          int lostEnds = 0;
          for (int r = 0; r < t.routerCount(); r++) {
            for (int p = 0; p < t.portCount(); p++) {
              if (f.neighborRouter(r, p) >= 0) {
                assertThat(f.neighborRouter(r, p)).isEqualTo(t.neighborRouter(r, p));
                assertThat(f.neighborPort(r, p)).isEqualTo(t.neighborPort(r, p));
              } else if (t.neighborRouter(r, p) >= 0) {
                lostEnds++;
                assertThat(colour == 3 || t.linkClass(r, p) == colour).as("a link of the colour").isTrue();
              }
            }
          }
          assertThat(lostEnds).isEqualTo(2 * n);
          // still routable: every two groups joined, every router reaches every other
          for (int g = 0; g < groups; g++) {
            for (int d = 0; d < groups; d++) {
              assertThat(g == d || f.linksBetween(g, d) >= 1).as("groups " + g + ", " + d).isTrue();
            }
          }
          for (int a = 0; a < f.routerCount(); a += 3) {
            for (int b = 0; b < f.routerCount(); b++) {
              assertThat(f.minimalHops(a, b)).isBetween(0, 3 * f.maxLocalHops() + 1);
            }
          }
          // the listed links, named one by one, fail the same links
          CabledDragonfly again = t;
          for (String line : f.failedLinks()) {
            again = again.withFailedLinks(line.substring(0, line.indexOf('(')));
          }
          assertThat(neighbours(again)).isEqualTo(neighbours(f));
        });
    // neither side of the property went untested
    assertThat(outcomes[0]).as("specs that failed their links").isPositive();
    assertThat(outcomes[1]).as("specs refused").isPositive();
  }

  private static int[] neighbours(CabledDragonfly t) {
    int[] out = new int[t.routerCount() * t.portCount()];
    for (int r = 0; r < t.routerCount(); r++) {
      for (int p = 0; p < t.portCount(); p++) {
        out[r * t.portCount() + p] = t.neighborRouter(r, p) * t.portCount() + t.neighborPort(r, p);
      }
    }
    return out;
  }

  @Test
  void theNeighboursHelperSeesAFailure() {
    CabledDragonfly t = (CabledDragonfly) Topologies.parseTopology("cabled:aries:groups=3,rows=2,cols=2,h=2");
    assertThat(Arrays.equals(neighbours(t), neighbours(t.withFailedLinks("random:1:blue")))).isFalse();
  }
}
