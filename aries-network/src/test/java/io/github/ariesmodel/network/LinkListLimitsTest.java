package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

  /** A reader of {@code count} copies of one character (then the end). */
  private static Reader repeat(char c, long count) {
    return new Reader() {
      private long left = count;

      @Override
      public int read(char[] b, int off, int len) {
        if (left == 0) {
          return -1;
        }
        int n = (int) Math.min(len, left);
        java.util.Arrays.fill(b, off, off + n, c);
        left -= n;
        return n;
      }

      @Override
      public void close() {}
    };
  }

  /** A line of 5,000 characters was read whole (and /dev/zero's one endless line until the heap was full). */
  @Test
  void aLineLongerThan4096CharactersIsRefusedAsTheWrongFile() {
    assertThatThrownBy(() -> CabledDragonfly.read(repeat('x', 5_000), "big.txt"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("big.txt:1: a line must be at most 4096 characters but this one is longer (is it the right"
            + " file?)");
  }

  /** Any number of blank lines was read before the list was refused as listing no port; the bound, made small. */
  @Test
  void textLongerThanTheBoundIsRefusedAsTheWrongFile() {
    assertThat(BoundedLines.MAX_CHARS).isEqualTo(128L << 20);
    BoundedLines in = new BoundedLines(repeat('\n', 10_000), "blank.txt", 9_999);
    assertThatThrownBy(() -> {
      while (in.readLine() != null) {
        // read on
      }
    }).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("blank.txt: must be at most 9999 characters but is longer (is it the right file?)");
  }

  @Test
  void devZeroIsRefusedInOneLineAsALinkListAndAsAFailedLinksFile() {
    assertThatThrownBy(() -> Topologies.parseTopology("links:/dev/zero"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("/dev/zero:1: a line must be at most 4096 characters but this one is longer (is it the right"
            + " file?)");
    assertThatThrownBy(() -> Topologies.parseTopology("cabled:aries-small+failed=file:/dev/zero"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("/dev/zero:1: a line must be at most 4096 characters but this one is longer (is it the right"
            + " file?)");
  }

  /** A byte-order mark made line 1 fail ("\ufeffc0-0c0s0a0l00..."). */
  @Test
  void aLeadingByteOrderMarkIsSkippedInALinkListAndAFailedLinksFile(@TempDir Path dir) throws IOException {
    List<String> lines = grid(2, 3);
    CabledDragonfly plain = read(lines);
    Path list = dir.resolve("bom-links.txt");
    Files.writeString(list, "\uFEFF" + String.join("\r\n", lines) + "\r\n", StandardCharsets.UTF_8);
    CabledDragonfly withBom = (CabledDragonfly) Topologies.parseTopology("links:" + list);
    assertThat(withBom.describe()).isEqualTo(plain.describe().replace("chain.txt", list.toString()));
    Path failed = dir.resolve("bom-failed.txt");
    Files.writeString(failed, "\uFEFF" + router(0, 0) + "l01\n", StandardCharsets.UTF_8);
    CabledDragonfly less = (CabledDragonfly) Topologies.parseTopology("links:" + list + "+failed=file:" + failed);
    assertThat(less.failedLinkCount()).isEqualTo(1);
  }

  /** Was "cannot be read: Input length = 1". */
  @Test
  void aFailedLinksFileThatIsNotUtf8IsRefusedSayingSo(@TempDir Path dir) throws IOException {
    Path failed = dir.resolve("latin1.txt");
    Files.write(failed, new byte[] {'#', ' ', 'c', 'a', 'f', (byte) 0xE9, '\n'});
    assertThatThrownBy(() -> Topologies.parseTopology("edison-cabled+failed=file:" + failed))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(failed + ":1: is not UTF-8 text");
  }
}
