package io.github.ariesmodel.traces.simgrid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.traces.TraceFormatException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cap on a line's length. The long lines are holes of sparse files (NUL bytes that take no disk), so the tests
 * write almost nothing.
 */
class LineSourceTest {
  @TempDir
  Path dir;

  /** A file of {@code head}, then {@code zeros} NUL bytes, then {@code tail}. */
  private Path sparse(String name, String head, long zeros, String tail) throws IOException {
    Path file = dir.resolve(name);
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.write(head.getBytes(StandardCharsets.ISO_8859_1));
      f.setLength(head.length() + zeros);
      f.seek(head.length() + zeros);
      f.write(tail.getBytes(StandardCharsets.ISO_8859_1));
    }
    return file;
  }

  @Test
  void aLineOfExactlyTheCapIsReadAndOneByteMoreIsRefusedNamingFileRankAndLine() throws IOException {
    int cap = LineSource.MAX_LINE_BYTES;
    for (String end : new String[] {"\n", "\r\n", "\r"}) {
      Path fits = sparse("fits.txt", "a\n", cap, end + "b\n");
      try (LineSource in = new LineSource(fits, 8192)) {
        assertThat(in.next(3, 1)).isEqualTo("a");
        assertThat(in.next(3, 2)).hasSize(cap);
        assertThat(in.next(3, 3)).as("after a line ended by %s", end.replace("\r", "CR").replace("\n", "LF"))
            .isEqualTo("b");
      }
    }
    Path over = sparse("over.txt", "a\n", cap + 1L, "\n");
    try (LineSource in = new LineSource(over, 8192)) {
      in.next(3, 1);
      assertThatThrownBy(() -> in.next(3, 2)).isInstanceOfSatisfying(TraceFormatException.class, e -> {
        assertThat(e.getMessage()).isEqualTo(over + ", rank 3, line 2: line longer than 67108864 bytes (64 MiB, the"
            + " longest line read)");
        assertThat(e.line()).isEqualTo(2);
      });
    }
  }
  /** A byte-order mark at the file's start is not the first line's, and the next line's offset is the file's. */
  @Test
  void aByteOrderMarkAtTheStartIsNotPartOfTheFirstLine() throws IOException {
    Path f = dir.resolve("bom.txt");
    java.nio.file.Files.write(f, new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf, '0', ' ', 'a', '\n',
        (byte) 0xef, (byte) 0xbb, (byte) 0xbf, '1', '\n'});
    try (LineSource in = new LineSource(f, 8192)) {
      assertThat(in.next(0, 1)).isEqualTo("0 a");
      assertThat(in.position()).isEqualTo(7);
      assertThat(in.next(0, 2)).isEqualTo("\u00ef\u00bb\u00bf1"); // (one char a byte)
      in.seek(0);
      assertThat(in.next(0, 1)).isEqualTo("0 a");
    }
  }
}
