package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Link lists at and beyond the bounds a cabled system keeps: routers per group and hops inside a group. */
class LinkListLimitsTest {

  /** A Cray router name for (row, column) of group 0: cabinet by row, slot by column (unique, as the parser asks). */
  private static String router(int row, int column) {
    return "c" + row + "-0c0s" + column + "a0";
  }

  private static String port(int row, int column, int tile) {
    return router(row, column) + "l" + tile / 8 + tile % 8 + "(0:" + row + ":" + column + ")";
  }

  /**
   * One group of {@code rows × columns} routers, each joined by green cables to its row neighbours (tile l00 to the
   * left, l01 to the right) and by black cables to its column neighbours (l02 up, l03 down), two ptiles each.
   */
  static List<String> grid(int rows, int columns) {
    List<String> lines = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < columns; c++) {
        if (c > 0) {
          lines.add(port(r, c, 0) + " green -> " + port(r, c - 1, 1));
        }
        if (c + 1 < columns) {
          lines.add(port(r, c, 1) + " green -> " + port(r, c + 1, 0));
        }
        if (r > 0) {
          lines.add(port(r, c, 2) + " black -> " + port(r - 1, c, 3));
        }
        if (r + 1 < rows) {
          lines.add(port(r, c, 3) + " black -> " + port(r + 1, c, 2));
        }
        lines.add(router(r, c) + "l50(0:" + r + ":" + c + ") ptile -> processor");
        lines.add(router(r, c) + "l51(0:" + r + ":" + c + ") ptile -> processor");
      }
    }
    return lines;
  }

  static CabledDragonfly read(List<String> lines) throws IOException {
    return CabledDragonfly.read(new StringReader(String.join("\n", lines) + "\n"), "chain.txt");
  }

  @Test
  void aChainOf128RoutersIs127HopsLongAndIsRead() throws IOException {
    CabledDragonfly t = read(grid(1, 128));
    assertThat(t.maxLocalHops()).isEqualTo(127);
    assertThat(t.minimalHops(0, 127)).isEqualTo(127);
    int[] out = new int[t.maxMinimalPorts()];
    assertThat(t.minimalPorts(0, 127, 0, out)).isEqualTo(1);
  }

  /** 129 routers stored 128 hops as -128 and gave no minimal port; 130 failed with an array index error. */
  @Test
  void routersMoreThan127HopsApartAreRefusedNamingTheFileTheBoundAndTheDistance() {
    assertThatThrownBy(() -> read(grid(1, 129)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("chain.txt: routers of a group must be at most 127 rank-1 and rank-2 hops apart but router"
            + " (0:0:128) is 128 from (0:0:0)");
    assertThatThrownBy(() -> read(grid(1, 130)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("chain.txt: routers of a group must be at most 127 rank-1 and rank-2 hops apart");
  }

  /** Dragonfly's bound; a 256 × 256 group overflowed the int size of the group's route tables. */
  @Test
  void aGroupOfMoreThan1024RoutersIsRefusedNamingTheFileTheBoundAndTheCount() {
    assertThatThrownBy(() -> read(grid(33, 32)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("chain.txt: routers per group (rows × columns) must be at most 1024, as a generated Dragonfly's,"
            + " but the file lists 33 rows × 32 columns = 1056");
    assertThatThrownBy(() -> read(grid(256, 256)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith("but the file lists 256 rows × 256 columns = 65536");
  }
}
