package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * {@link Topologies#canonical}: every spelling of one system gives one text ({@code ARIES:groups=2} and
 * {@code aries:groups=2} were recorded as two), and that text builds the same system.
 */
class TopologyCanonicalFormTest {

  @Test
  void caseWhitespaceOrderNumbersAndDefaultsOfAGeneratedSpecAreOneText() {
    assertThat(Topologies.canonical("ARIES:groups=2")).isEqualTo("aries:groups=2");
    assertThat(Topologies.canonical(" Aries : GROUPS = +02 ,, rows=6, cols=16 ,rank2=3,h=10,nodes=4,links=960,"
        + "arrangement=Consecutive,exit=OWN ")).isEqualTo("aries:groups=2");
    assertThat(Topologies.canonical("aries:exit=any,nodes=2,arrangement=palm-tree,groups=3"))
        .isEqualTo("aries:groups=3,nodes=2,arrangement=relative,exit=any");
    assertThat(Topologies.canonical("canonical:h=4,a=8,p=4,g=33,bw=5.25E9,links=1,arrangement=absolute"))
        .isEqualTo("canonical:p=4,a=8,h=4");
    assertThat(Topologies.canonical("canonical:p=4,a=8,h=4,g=2,bw=1e10,links=32"))
        .isEqualTo("canonical:p=4,a=8,h=4,g=2,bw=10000000000");
    assertThat(Topologies.canonical("canonical:p=4,a=8,h=4,g=2,bw=84000.50,links=16"))
        .isEqualTo("canonical:p=4,a=8,h=4,g=2,bw=84000.5,links=16");
    // links= is refused with one group whatever its value: kept, so that the canonical form is refused too
    assertThat(Topologies.canonical("aries:groups=1,links=0")).isEqualTo("aries:groups=1,links=0");
    assertThatThrownBy(() -> Topologies.parse("aries:groups=1,links=0"))
        .hasMessageContaining("links must not be set for a system of 1 group");
    // the default links of a pair follow the layout given: 2 × 4 routers × 2 global ports over 2 other groups
    assertThat(Topologies.canonical("aries:groups=3,rows=2,cols=4,h=2,links=8")).isEqualTo("aries:groups=3,rows=2,"
        + "cols=4,h=2");
    assertThat(Topologies.parse("aries:groups=3,rows=2,cols=4,h=2").linksPerPair()).isEqualTo(8);
  }

  @Test
  void presetsPrefixesAndFailuresAreInLowerCaseButPathsAndFailuresKeepTheirs() {
    assertThat(Topologies.canonical(" THETA ")).isEqualTo("theta");
    assertThat(Topologies.canonical("Two-Groups")).isEqualTo("two-groups");
    assertThat(Topologies.canonical("Canonical-Small")).isEqualTo("canonical-small");
    assertThat(Topologies.canonical("Edison-Cabled")).isEqualTo("edison-cabled");
    assertThat(Topologies.canonical("CABLED: Theta ")).isEqualTo("cabled:theta");
    assertThat(Topologies.canonical("Cabled:ARIES:groups=4,rows=6")).isEqualTo("cabled:aries:groups=4");
    assertThat(Topologies.canonical("LINKS: /Data/Edison Links.txt ")).isEqualTo("links:/Data/Edison Links.txt");
    assertThat(Topologies.canonical("Edison-Cabled +FAILED= random:24:blue +Failed=c0-0c0s0a0l01"))
        .isEqualTo("edison-cabled+failed=random:24:blue+failed=c0-0c0s0a0l01");
    assertThat(Topologies.canonical("cabled:Theta+failed=file:Down.txt")).isEqualTo("cabled:theta+failed=file:Down.txt");
    // a preset stays a preset, and a spec a spec, though aries:groups=9 is theta
    assertThat(Topologies.canonical("aries:groups=9")).isEqualTo("aries:groups=9");
  }

  @Test
  void theCanonicalFormBuildsTheSameSystem() {
    for (String spec : new String[] {"CABLED: Aries:groups=3,rows=2,cols=4,h=2 +FAILED= random:5:blue",
        " Aries : GROUPS = +02, links=960, exit=OWN", "canonical:h=2,a=4,p=2,bw=5250000000.0,arrangement=palmtree"}) {
      assertThat(Topologies.parseTopology(Topologies.canonical(spec)).describe().replace("palmtree", "relative"))
          .as(spec).isEqualTo(Topologies.parseTopology(spec).describe().replace("palmtree", "relative"));
    }
  }

  @Test
  void malformedTextIsRefusedAndValuesOutOfRangeAreLeftToTheBuild() {
    assertThatThrownBy(() -> Topologies.canonical(null)).hasMessage("spec must not be null");
    assertThatThrownBy(() -> Topologies.canonical("aries:groups=2,foo=1"))
        .hasMessage("topology options [foo] are unknown for aries");
    assertThatThrownBy(() -> Topologies.canonical("canonical:p=4,a=8,h=4,rows=2"))
        .hasMessage("topology options [rows] are unknown for canonical");
    assertThatThrownBy(() -> Topologies.canonical("aries:groups=x"))
        .hasMessage("topology option groups must be an integer but was \"x\"");
    assertThatThrownBy(() -> Topologies.canonical("aries:groups=2,groups=2"))
        .hasMessageContaining("topology option groups is given twice");
    assertThatThrownBy(() -> Topologies.canonical("aries:rows=2")).hasMessage("topology option groups= is required");
    assertThatThrownBy(() -> Topologies.canonical("dragonfly:p=1")).hasMessageContaining("topology kind must be");
    assertThatThrownBy(() -> Topologies.canonical("aries:groups=2,exit=some"))
        .hasMessage("topology option exit must be own or any but was \"some\"");
    assertThat(Topologies.canonical("aries:groups=500")).isEqualTo("aries:groups=500");
    assertThat(Topologies.canonical("canonical:p=99,a=8,h=4,bw=1e300")).isEqualTo("canonical:p=99,a=8,h=4,bw=1.0e300");
  }
}
