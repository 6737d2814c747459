package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
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
}
