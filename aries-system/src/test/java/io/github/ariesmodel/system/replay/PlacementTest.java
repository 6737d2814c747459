package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A mapping file ({@link Placement#parse}): read with bounds, refused in one line naming the file and line. */
class PlacementTest {
  @TempDir
  Path dir;

  /**
   * A line longer than 65,536 characters (a huge file without a line end) and more node ids than a trace has ranks
   * are refused naming the file, the line and the bound; until stop 73 the file was read whole, and a 4 GB one ran the
   * heap out ("the Java heap is too small").
   */
  @Test
  void aMappingFileTooLongALineOrTooManyNodeIdsIsRefusedNamingTheLineAndTheBound() throws IOException {
    Path longLine = Files.writeString(dir.resolve("long.txt"), "0\n" + "0".repeat(70_000));
    assertThatThrownBy(() -> Placement.parse(longLine.toString())).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mapping file " + longLine + ", line 2: line longer than 65536 characters, the longest read (is it"
            + " the right file?)");
    Path sparse = dir.resolve("sparse.txt"); // 4 GB of NULs, no line end: the hunt's file
    try (var f = new java.io.RandomAccessFile(sparse.toFile(), "rw")) {
      f.setLength(4L << 30);
    }
    assertThatThrownBy(() -> Placement.parse(sparse.toString())).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mapping file " + sparse + ", line 1: line longer than 65536 characters, the longest read (is it"
            + " the right file?)");
    Path many = dir.resolve("many.txt");
    try (Writer w = Files.newBufferedWriter(many)) {
      w.write("# one node id a rank\n");
      for (int i = 0; i <= Placement.MAX_NODE_IDS; i++) {
        w.write("0\n");
      }
    }
    assertThatThrownBy(() -> Placement.parse(many.toString())).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mapping file " + many + ", line 4194306: more than 4194304 node ids, one a rank (no trace has"
            + " more ranks)");
  }
  /**
   * A mapping holds at most 68 ranks a node, as --ranks-per-node does, and a refusal names the file, the line and the
   * bound: until stop 73 a file put 200 ranks on node 0 (where --ranks-per-node 200 is refused), and 300 were refused
   * only by the MPI layer, "placement puts more than 272 ranks on node 0", naming neither the file nor 68.
   */
  @Test
  void aMappingOfMoreRanksOnANodeThanRanksPerNodeAllowsIsRefusedNamingTheLine() throws IOException {
    Path full = Files.writeString(dir.resolve("full.txt"), "# node 0 full, then node 1\n" + "0\n".repeat(68) + "1\n");
    int[] expected = new int[69];
    expected[68] = 1;
    assertThat(Placement.parse(full.toString()).nodes(
        io.github.ariesmodel.system.AriesSystem.builder().system("default").build().topology(), 69, 1, 1))
        .containsExactly(expected);
    Path over = Files.writeString(dir.resolve("over.txt"), "# one too many on node 3\n" + "1\n3\n".repeat(68) + "3\n");
    assertThatThrownBy(() -> Placement.parse(over.toString())).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mapping file " + over + ", line 138: puts a 69th rank (rank 136) on node 3, more than 68, the most"
            + " ranks on one node (as --ranks-per-node)");
    int[] nodes = new int[69];
    Arrays.fill(nodes, 7);
    assertThatThrownBy(() -> Placement.explicit(nodes)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("nodeOfRank[68] puts a 69th rank on node 7, more than 68, the most ranks on one node (as"
            + " ranksPerNode)");
  }
  /** A UTF-8 byte-order mark at the start of a mapping file is skipped: it was refused, "found '\ufeff0'" (stop 73). */
  @Test
  void aByteOrderMarkAtTheStartOfAMappingFileIsSkipped() throws IOException {
    Path bom = Files.write(dir.resolve("bom.txt"), new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf, '0', '\n', '1',
        '\n'});
    assertThat(Placement.parse(bom.toString()).nodes(
        io.github.ariesmodel.system.AriesSystem.builder().system("default").build().topology(), 2, 1, 1))
        .containsExactly(0, 1);
  }
}
