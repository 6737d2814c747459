package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
