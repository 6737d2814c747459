package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one-line refusals of {@link CabledDragonfly#withFailedLinks} say what was wrong with the spec as given. */
class LinkFailuresMessagesTest {

  private static final CabledDragonfly SMALL =
      (CabledDragonfly) Topologies.parseTopology("cabled:aries:groups=2,rows=2,cols=2");

  @Test
  void aTileOfRowSixOrSevenIsNoTileAtAllNotAProcessorTile() {
    // an Aries' tiles are rows 0-5 (aries-facts §2): l60 and l77 were called processor tiles
    for (String tile : new String[] {"l60", "l77"}) {
      assertThatThrownBy(() -> SMALL.withFailedLinks("c0-0c0s0a0" + tile))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("failed link c0-0c0s0a0" + tile + ": an Aries has no tile " + tile + "; its tiles are rows 0-5,"
              + " network tiles l00..l47 and processor tiles l50..l57");
    }
    // row 5 is the processor tiles, as before
    assertThatThrownBy(() -> SMALL.withFailedLinks("c0-0c0s0a0l57")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed link c0-0c0s0a0l57: tile l57 is a processor tile (NIC port), not a network link; network"
            + " tiles are l00..l47");
  }

  @Test
  void aFileLineThatNamesNoPortIsToldAPortNameNotTheSpecForms(@TempDir Path dir) throws IOException {
    // a file's lines are port names: "random:1" on one was told to be random:N..., a port name or file:PATH
    Path file = dir.resolve("down.txt");
    Files.writeString(file, "c0-0c0s0a0l01\nrandom:1\n");
    assertThatThrownBy(() -> SMALL.withFailedLinks("file:" + file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(file + ":2: failed link random:1: must be a port name such as c0-0c0s0a0l01 (a failed-links file"
            + " names one port a line)");
    // the spec itself still lists every form
    assertThatThrownBy(() -> SMALL.withFailedLinks("c0-0c0s0a0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed link c0-0c0s0a0: must be random:N[:COLOUR][:seed=S] (COLOUR green, black, blue or any),"
            + " a port name such as c0-0c0s0a0l01, or file:PATH");
  }

  @Test
  void aSeedBeyondALongIsToldTheRangeNotThatItIsNoWholeNumber() {
    assertThatThrownBy(() -> SMALL.withFailedLinks("random:1:blue:seed=99999999999999999999"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed links random:1:blue:seed=99999999999999999999: seed must be a whole number from"
            + " -9223372036854775808 to 9223372036854775807 but was \"99999999999999999999\"");
    assertThatThrownBy(() -> SMALL.withFailedLinks("random:1:blue:seed=-99999999999999999999"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("seed must be a whole number from -9223372036854775808 to 9223372036854775807");
    // no whole number at all keeps its message
    assertThatThrownBy(() -> SMALL.withFailedLinks("random:1:blue:seed=x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed links random:1:blue:seed=x: seed must be a whole number but was \"x\"");
  }

  @Test
  void tooManyRandomFailuresAreToldOnlyTheReasonsTheirColourCanMeet() {
    // a rank-3 link cannot cut a group apart, a rank-1 or rank-2 one cannot leave two groups unjoined: blue was told
    // "or cutting a group apart", green and black "leaving two groups with no rank-3 link"
    assertThatThrownBy(() -> SMALL.withFailedLinks("random:40:blue")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed links random:40:blue: only 39 of the 40 blue links can fail without leaving two groups"
            + " with no rank-3 link, but N was 40");
    for (String colour : new String[] {"green", "black"}) {
      int all = SMALL.linkCount(colour.equals("green") ? 0 : 1);
      assertThatThrownBy(() -> SMALL.withFailedLinks("random:" + all + ":" + colour))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageEndingWith(" " + colour + " links can fail without cutting a group apart or taking two of its"
              + " routers more than 7 hops apart, but N was " + all);
    }
    // any colour: all three
    assertThatThrownBy(() -> SMALL.withFailedLinks("random:56")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed links random:56: only 49 of the 56 links can fail without leaving two groups with no rank-3"
            + " link, cutting a group apart or taking two of its routers more than 7 hops apart, but N was 56");
  }

  @Test
  void aCountReachedOnlyInTheSpecsRandomOrderIsSaidToBe() {
    // keeping a rank-3 link a group pair and every group connected, any order reaches the most (a matroid's bases):
    // a row of 18 routers, all to all, keeps a spanning tree of 17 of its 153 green links
    assertThatThrownBy(() -> Topologies.parseTopology("cabled:aries:groups=1,rows=1,cols=18+failed=random:153:green"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed links random:153:green: only 136 of the 153 green links can fail without cutting a group"
            + " apart or taking two of its routers more than 16 hops apart, but N was 153");
    // the route-length bound is no such condition: 96 routers stay connected by 95 of their 1,440 local links, but
    // not within 16 hops, and how many can go depends on the order (seed 1 reaches more than seed 2)
    int[] reached = new int[3];
    for (int seed = 1; seed <= 2; seed++) {
      String spec = "random:1345:any:seed=" + seed;
      String message = catchThrowableOfType(IllegalArgumentException.class,
          () -> Topologies.parseTopology("cabled:aries:groups=1+failed=" + spec)).getMessage();
      assertThat(message).matches("failed links " + spec + ": only [0-9]+ of the 1440 links can fail in this spec's"
          + " random order \\(seed " + seed + "\\) without cutting a group apart or taking two of its routers more"
          + " than 16 hops apart, but N was 1345");
      reached[seed] = Integer.parseInt(message.replaceAll(".*: only ([0-9]+) of .*", "$1"));
    }
    assertThat(reached[1]).isGreaterThan(reached[2]);
  }

  @Test
  void aColourAfterTheSeedAndASecondSeedAreRefusedSayingWhy() {
    // random:N:COLOUR:seed=S (docs/network.md): "blue" after the seed was called neither a colour nor seed=S
    assertThatThrownBy(() -> SMALL.withFailedLinks("random:1:seed=1:blue")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed links random:1:seed=1:blue: the colour comes before seed=S, as in random:N:COLOUR:seed=S,"
            + " but \"blue\" comes after it");
    // a second seed was taken, the last one winning
    assertThatThrownBy(() -> SMALL.withFailedLinks("random:1:seed=1:seed=2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed links random:1:seed=1:seed=2: seed=S may be given once, but was given twice");
    assertThatThrownBy(() -> SMALL.withFailedLinks("random:1:blue:green")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed links random:1:blue:green: random takes one colour, but \"green\" follows \"blue\"");
    // what the grammar allows still fails the same links: the colour's default any, the seed's 1
    assertThat(SMALL.withFailedLinks("random:3:any:seed=1").failedLinks())
        .isEqualTo(SMALL.withFailedLinks("random:3").failedLinks())
        .isEqualTo(SMALL.withFailedLinks("random:3:seed=1").failedLinks());
  }

  @Test
  void aCountOfOneIsSingularInTheRefusals(@TempDir Path dir) throws IOException {
    // "only 0 of the 1 links can fail", "at most the 1 links cabled now", "names no port (1 lines)"
    CabledDragonfly pair = (CabledDragonfly) Topologies.parseTopology("cabled:aries:groups=1,rows=1,cols=2,nodes=1");
    assertThatThrownBy(() -> pair.withFailedLinks("random:1")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed links random:1: only 0 of the 1 link can fail without cutting a group apart or taking two"
            + " of its routers more than 16 hops apart, but N was 1");
    assertThatThrownBy(() -> pair.withFailedLinks("random:2:green")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed links random:2:green: N must be at most the 1 green link cabled now but was 2");
    Path file = Files.writeString(dir.resolve("none.txt"), "# nothing\n");
    assertThatThrownBy(() -> pair.withFailedLinks("file:" + file)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed links file " + file + " names no port (1 line); it needs one port name a line, e.g."
            + " c0-0c0s0a0l01");
  }
}
