package io.github.ariesmodel.network;

import io.github.ariesmodel.core.Texts;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;

/**
 * Reads the lines of a link list or a failed-links file with bounds, so a wrong file ({@code /dev/zero}, a binary, a
 * disk image) is refused in one line instead of filling the heap: at most {@link #MAX_LINE_CHARS} characters a line
 * and {@link #MAX_CHARS} in all. A byte-order mark (U+FEFF) at the start of the text is dropped, as editors on Windows
 * write one. A line ends at {@code \n}, {@code \r} or {@code \r\n}, as {@link java.io.BufferedReader#readLine}'s do.
 * Every refusal is an {@link IllegalArgumentException} starting {@code SOURCE:LINE:} or {@code SOURCE:}.
 */
final class BoundedLines {

  /**
   * Most characters a line may have: 4,096 (assumed: 73 times the longest line of Edison's link list, 56 characters,
   * and room for any comment a person writes).
   */
  static final int MAX_LINE_CHARS = 4096;

  /**
   * Most characters a file may have: 128 MiB (derived: Edison's link list is 3,379,200 bytes, 48 lines of about 49
   * bytes for each of its 1,440 routers; a full 241-group Aries system's would be about 54 MB, 241 × 96 routers ×
   * 48 lines; this is 2.4 times that).
   */
  static final long MAX_CHARS = 128L << 20;

  private static final char BOM = '\uFEFF';

  private final Reader in;
  private final String source;
  private final long maxChars;
  private final char[] buf = new char[8192];
  private final StringBuilder line = new StringBuilder();
  private int pos;
  private int end;
  private long consumed;
  private int lineNo;
  private boolean skipNewline;
  private boolean atStart = true;
  private boolean eof;

  BoundedLines(Reader in, String source) {
    this(in, source, MAX_CHARS);
  }

  BoundedLines(Reader in, String source, long maxChars) {
    this.in = in;
    this.source = Texts.abbreviate(source);
    this.maxChars = maxChars;
  }

  /** @return the number of the line {@link #readLine} returned last (1 for the first) */
  int lineNumber() {
    return lineNo;
  }

  /**
   * @return the next line without its end, or null at the end of the text
   * @throws IOException when the reader fails
   * @throws IllegalArgumentException when a line or the text is too long, or the text cannot be decoded
   */
  String readLine() throws IOException {
    line.setLength(0);
    boolean any = false;
    while (true) {
      if (pos == end) {
        if (eof || !fill()) {
          if (!any) {
            return null;
          }
          lineNo++;
          return line.toString();
        }
      }
      char c = buf[pos++];
      if (skipNewline) {
        skipNewline = false;
        if (c == '\n') {
          continue;
        }
      }
      if (atStart) {
        atStart = false;
        if (c == BOM) {
          continue;
        }
      }
      any = true;
      if (c == '\n' || c == '\r') {
        skipNewline = c == '\r';
        lineNo++;
        return line.toString();
      }
      if (line.length() == MAX_LINE_CHARS) {
        throw new IllegalArgumentException(source + ":" + (lineNo + 1) + ": a line must be at most " + MAX_LINE_CHARS
            + " characters but this one is longer (is it the right file?)");
      }
      line.append(c);
    }
  }

  private boolean fill() throws IOException {
    int n;
    try {
      n = in.read(buf, 0, buf.length);
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(source + ":" + (lineNo + 1) + ": is not UTF-8 text", e);
    }
    if (n <= 0) {
      eof = n < 0;
      if (n == 0) {
        throw new IOException("reader returned no characters");
      }
      return false;
    }
    consumed += n;
    if (consumed > maxChars) {
      throw new IllegalArgumentException(source + ": must be at most " + maxChars + " characters but is longer (is it"
          + " the right file?)");
    }
    pos = 0;
    end = n;
    return true;
  }
}
