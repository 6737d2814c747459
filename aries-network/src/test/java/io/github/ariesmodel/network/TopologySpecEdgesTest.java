package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Topology specs and builder settings at their edges: each refused in one line naming the option and its range. */
class TopologySpecEdgesTest {

  private static void refused(String spec, String message) {
    assertThatThrownBy(() -> Topologies.parse(spec)).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }

  /** links=-100 gave 480 links a pair (the builder's "default" sentinel), links=-5 the default. */
  @Test
  void negativeLinksArePairIsRefused() {
    refused("aries:groups=3,links=-100", "topology option links must be in [1, 480] (a·h / (g-1)) but was -100");
    refused("canonical:p=4,a=8,h=4,links=-5", "topology option links must be in [1, 1] (a·h / (g-1)) but was -5");
    refused("aries:groups=3,links=-1", "topology option links must be in [1, 480] (a·h / (g-1)) but was -1");
    assertThatThrownBy(() -> Dragonfly.canonicalBuilder(2, 4, 2).groups(3).linksPerPair(-5).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("linksPerPair must be in [1, 4] (a·h / (g-1)) but was -5");
    assertThat(Topologies.parse("aries:groups=3,links=7").linksPerPair()).isEqualTo(7);
  }

  /** One group has no pairs: links= was ignored in silence. */
  @Test
  void linksForOneGroupIsRefusedSayingItHasNoPairs() {
    refused("canonical:p=4,a=8,h=4,g=1,links=999999", "topology option links must not be set for a system of 1 group,"
        + " which has no group pairs, but was 999999");
    refused("aries:groups=1,links=1", "topology option links must not be set for a system of 1 group, which has no"
        + " group pairs, but was 1");
    assertThatThrownBy(() -> Dragonfly.ariesBuilder(1).linksPerPair(3).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("linksPerPair must not be set for a system of 1 group, which has no group pairs, but was 3");
    assertThat(Topologies.parse("aries:groups=1").linksPerPair()).isZero();
  }

  /** Whitespace around the options was ignored but not before the colon: "aries :groups=2" was no kind "aries ". */
  @Test
  void whitespaceBeforeTheColonIsIgnoredAsAroundTheOptions() {
    assertThat(Topologies.parse(" aries : groups = 2 ").describe()).isEqualTo(Topologies.parse("aries:groups=2")
        .describe());
    assertThat(Topologies.parse("canonical\t:p=2, a=4 ,h=2").describe()).isEqualTo(Topologies.canonicalSmall()
        .describe());
    refused("ari es:groups=2", "topology kind must be canonical, aries, default, two-groups, theta, edison, full,"
        + " aries-small or canonical-small but was \"ari es\"");
  }

  /**
   * Every system {@code ./aries systems} lists is a topology too: traffic's --topology refused default and two-groups
   * (and cabled:two-groups), which run's --system and systems --describe took, as "topology kind must be ...".
   */
  @Test
  void theSimulatorsOneAndTwoGroupPresetsAreTopologiesToo() {
    assertThat(Topologies.parse("default").describe()).isEqualTo(Topologies.aries(1).describe());
    assertThat(Topologies.parse(" Two-Groups ").describe()).isEqualTo(Topologies.aries(2).describe());
    assertThat(Topologies.parseTopology("cabled:two-groups").describe())
        .isEqualTo(CabledDragonfly.of(Topologies.aries(2)).describe());
    assertThat(Topologies.parseTopology("cabled:default+failed=random:1").nodeCount()).isEqualTo(384);
    refused("two-groups:groups=3", "topology two-groups is a preset and takes no options but was"
        + " \"two-groups:groups=3\"; use aries:groups=N or canonical:p=..,a=..,h=.. to choose a size");
  }

  /** An Aries spec's totals were told as the option nodes=, which the spec had not given. */
  @Test
  void anAriesSpecsTotalsAreNotToldAsAnOption() {
    refused("aries:groups=241,rows=32,cols=32", "topology nodes (groups × rows × cols × nodes) must be at most 262144"
        + " (18-bit node ids) but was 987136");
    refused("aries:groups=2,rows=64,cols=32", "topology rows × cols must be in [1, 1024] but was 2048");
    refused("aries:groups=2,nodes=65", "topology option nodes must be in [1, 64] but was 65");
  }
}
