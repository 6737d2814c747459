package io.github.ariesmodel.cli;

import java.io.IOException;
import java.io.Reader;

/**
 * Reads the lines of a text with a bound on each line's length, so that a file with no line ends ({@code /dev/zero},
 * a sparse or binary file, NULs piped in) is refused at the bound instead of being gathered into one line until the
 * heap runs out; the text as a whole is not bounded (a trace may be long), and memory stays that of one line. A
 * byte-order mark (U+FEFF) at the start of the text is dropped, as editors on Windows write one. A line ends at
 * {@code \n}, {@code \r} or {@code \r\n}, as {@link java.io.BufferedReader#readLine}'s do.
 *
 * <p>The link lists' reader ({@code aries-network}'s {@code BoundedLines}) and the SimGrid traces' ({@code
 * aries-traces}' {@code LineSource}) do the same for their files, each inside its module; this is the command
 * line's, for {@code iommu}'s TRACE.
 */
final class BoundedLineReader {

  private static final char BOM = '\uFEFF';

  private final Reader in;
  private final int maxLineChars;
  private final char[] buf = new char[8192];
  private final StringBuilder line = new StringBuilder();
  private int pos;
  private int end;
  private long lineNumber;
  private boolean skipNewline;
  private boolean atStart = true;
  private boolean eof;

  /**
   * @param in the text, read in blocks (no need to buffer it)
   * @param maxLineChars the most characters a line may have, without its end
   */
  BoundedLineReader(Reader in, int maxLineChars) {
    if (maxLineChars < 1) {
      throw new IllegalArgumentException("maxLineChars must be >= 1 but was " + maxLineChars);
    }
    this.in = in;
    this.maxLineChars = maxLineChars;
  }

  /** @return the number of the line {@link #readLine} returned last (1 for the first), or was reading when it threw */
  long lineNumber() {
    return lineNumber;
  }

  /**
   * @return the next line without its end, or null at the end of the text
   * @throws IOException when the reader fails (a {@link java.nio.charset.CharacterCodingException} for text that is
   *     not in the reader's charset)
   * @throws LineTooLongException when the line has more than the bound's characters; {@link #lineNumber} is its
   *     number
   */
  String readLine() throws IOException {
    line.setLength(0);
    boolean any = false;
    while (true) {
      if (pos == end && !fill()) {
        if (!any) {
          return null;
        }
        lineNumber++;
        return line.toString();
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
        lineNumber++;
        return line.toString();
      }
      if (line.length() == maxLineChars) {
        lineNumber++;
        throw new LineTooLongException(maxLineChars);
      }
      line.append(c);
    }
  }

  private boolean fill() throws IOException {
    if (eof) {
      return false;
    }
    int n = in.read(buf, 0, buf.length);
    if (n == 0) {
      throw new IOException("reader returned no characters"); // (a Reader blocks until it has one or the end)
    }
    if (n < 0) {
      eof = true;
      return false;
    }
    pos = 0;
    end = n;
    return true;
  }

  /** A line longer than the bound: the caller names the file and the line ({@link #lineNumber}). */
  static final class LineTooLongException extends IOException {

    private static final long serialVersionUID = 1L;

    private final int maxLineChars;

    LineTooLongException(int maxLineChars) {
      super("a line must be at most " + maxLineChars + " characters but this one is longer");
      this.maxLineChars = maxLineChars;
    }

    /** @return the bound the line passed */
    int maxLineChars() {
      return maxLineChars;
    }
  }
}
