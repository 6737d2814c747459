package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.Texts;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Every refusal that echoes a user's text cuts it to about {@link Texts#MAX_ECHO} characters
 * (docs/errors-and-guarantees.md): a 500-character name or spec used to come back whole, once or twice.
 */
class LongInputEchoTest {

  private static final String LONG = "x".repeat(500);
  /** The longest a message may be: its own words plus two echoes of at most MAX_ECHO and a length note each. */
  private static final int MOST = 400;

  private static void shortRefusal(ThrowingCallable call) {
    assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class)
        .satisfies(e -> org.assertj.core.api.Assertions.assertThat(e.getMessage()).hasSizeLessThan(MOST)
            .contains("(500 characters)").doesNotContain(LONG.substring(0, Texts.MAX_ECHO + 1)));
  }

  @Test
  void patternAndRoutingNamesAreCut() {
    shortRefusal(() -> TrafficPattern.parse(LONG));
    shortRefusal(() -> Routings.create(LONG, Topologies.canonicalSmall(), 1));
  }

  @Test
  void topologySpecPartsAreCut() {
    for (String spec : List.of("aries:groups=2," + LONG + "=1", "canonical:p=" + LONG + ",a=4,h=2",
        "aries:groups=2,exit=" + LONG, "aries:groups=2,arrangement=" + LONG, "aries:groups=2," + LONG,
        "canonical:bw=" + LONG + ",p=2,a=4,h=2", LONG + ":groups=2")) {
      shortRefusal(() -> Topologies.parse(spec));
    }
  }

  /** The whole spec was echoed after the part at fault; now both are cut. */
  @Test
  void aKeyGivenTwiceOrWithoutAValueEchoesTheSpecCut() {
    String pad = ",links=1".repeat(60);
    assertThatThrownBy(() -> Topologies.parse("aries:groups=2" + pad)).isInstanceOf(IllegalArgumentException.class)
        .satisfies(e -> org.assertj.core.api.Assertions.assertThat(e.getMessage()).hasSizeLessThan(MOST)
            .startsWith("topology option links is given twice in aries:groups=2,links=1"));
    assertThatThrownBy(() -> Topologies.parse("aries:groups=2,nokeyvalue" + pad))
        .isInstanceOf(IllegalArgumentException.class)
        .satisfies(e -> org.assertj.core.api.Assertions.assertThat(e.getMessage()).hasSizeLessThan(MOST)
            .startsWith("topology option must be key=value but was \"nokeyvalue\" in aries:groups=2,nokeyvalue"));
  }

  /**
   * A link list's line errors and its failure file's refusals name the list by its source, which was echoed whole:
   * a 500-character file name came back at the start of every such line.
   */
  @Test
  void aLinkListsSourceNameIsCutInItsLineErrors() {
    shortRefusal(() -> CabledDragonfly.read(new java.io.StringReader("not a link line\n"), LONG));
    shortRefusal(() -> CabledDragonfly.read(new java.io.StringReader("c0-0c0s0a0l00(0:0:0) blue -> nowhere\n"),
        LONG));
  }

  /** A cabled system where a generated one is wanted: the line used to tell a command-line user to call Java. */
  @Test
  void aCabledSystemWhereAGeneratedOneIsWantedIsWordedForBothAudiences() {
    assertThatThrownBy(() -> Topologies.parseTopology("cabled:edison-cabled"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("topology cabled: needs a generated Aries system, e.g. cabled:theta, but edison-cabled is cabled"
            + " already: give it without cabled:");
    assertThatThrownBy(() -> Topologies.parse("edison-cabled"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("topology \"edison-cabled\" is a cabled system, not a generated dragonfly, and is not taken here"
            + " (in Java, Topologies.parseTopology reads it)");
  }
}
