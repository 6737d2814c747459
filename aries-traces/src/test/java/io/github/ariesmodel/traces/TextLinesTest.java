package io.github.ariesmodel.traces;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TextLines}: lines as BufferedReader ends them, numbered, with a bound on a line's length. */
class TextLinesTest {
  @TempDir
  Path dir;

  private List<String> read(Path file) throws IOException {
    List<String> out = new ArrayList<>();
    try (TextLines lines = TextLines.open(file, StandardCharsets.UTF_8)) {
      for (String l; (l = lines.next()) != null; ) {
        out.add(lines.lineNumber() + ":" + l);
      }
    }
    return out;
  }

  @Test
  void linesEndAtLfCrLfOrCrAndTheLastNeedsNoEnd() throws IOException {
    Path f = Files.writeString(dir.resolve("a.txt"), "one\ntwo\r\nthree\rfour\n\nlast");
    assertThat(read(f)).containsExactly("1:one", "2:two", "3:three", "4:four", "5:", "6:last");
    assertThat(read(Files.writeString(dir.resolve("e.txt"), ""))).isEmpty();
  }

  @Test
  void aLineLongerThanTheBoundIsRefusedNamingTheFileAndLine() throws IOException {
    Path f = Files.writeString(dir.resolve("b.txt"), "ok\n" + "y".repeat(TextLines.MAX_LINE_CHARS) + "\n"
        + "z".repeat(TextLines.MAX_LINE_CHARS + 1));
    try (TextLines lines = TextLines.open(f, StandardCharsets.UTF_8)) {
      assertThat(lines.next()).isEqualTo("ok");
      assertThat(lines.next()).hasSize(TextLines.MAX_LINE_CHARS); // the bound itself is read
      assertThatThrownBy(lines::next).isInstanceOf(TraceFormatException.class)
          .hasMessage(f + ", line 3: line longer than 65536 characters, the longest read (is it the right file?)");
    }
  }

  @Test
  void textTheCharsetCannotDecodeIsACodingError() throws IOException {
    Path f = Files.write(dir.resolve("c.txt"), new byte[] {'5', '\n', (byte) 0xC3, (byte) 0x28, '\n'});
    assertThatThrownBy(() -> read(f)).isInstanceOf(CharacterCodingException.class);
  }
  /** A UTF-8 byte-order mark at the file's start is dropped, in any charset; one later is the line's. */
  @Test
  void aByteOrderMarkAtTheStartIsDropped() throws IOException {
    Path f = Files.write(dir.resolve("bom.txt"), new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf, 'a', '=', '1', '\n',
        (byte) 0xef, (byte) 0xbb, (byte) 0xbf, 'b'});
    assertThat(read(f)).containsExactly("1:a=1", "2:\ufeffb");
    try (TextLines lines = TextLines.open(f, StandardCharsets.ISO_8859_1)) {
      assertThat(lines.next()).isEqualTo("a=1");
      assertThat(lines.next()).isEqualTo("\u00ef\u00bb\u00bfb");
    }
    Path two = Files.write(dir.resolve("two.txt"), new byte[] {(byte) 0xef, (byte) 0xbb});
    assertThatThrownBy(() -> read(two)).isInstanceOf(CharacterCodingException.class); // not a mark: not UTF-8
  }
}
