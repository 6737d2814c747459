package io.github.ariesmodel.traces;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The lines of a small text file that goes with a trace (a DUMPI {@code .meta} file, a replay's mapping file), read
 * one at a time with a bound on a line's length, so that a wrong file (a 4 GB file without a line end, a disk image)
 * is refused in one line naming the file, the line and the bound instead of filling the heap, as
 * {@code Files.readAllLines} did; what a caller keeps of the lines is its own to bound. A line ends at {@code \n},
 * {@code \r\n} or {@code \r}, as {@link java.io.BufferedReader#readLine}'s does. A UTF-8 byte-order mark (bytes
 * {@code EF BB BF}) at the start of the file is dropped, whatever the charset, as editors on Windows write one (link
 * lists and configuration files accept it too). Text the charset cannot decode is a
 * {@link java.nio.charset.CharacterCodingException}. {@link #of} reads any text so (standard input, another bound):
 * the command line's {@code iommu} TRACE.
 */
public final class TextLines implements Closeable {

  /**
   * The longest line read: 65,536 characters (assumed: the longest such line holds a path, a DUMPI
   * {@code fileprefix}, at most Linux's PATH_MAX of 4,096 bytes; this is 16 times that, and any comment a person
   * writes).
   */
  public static final int MAX_LINE_CHARS = 1 << 16;

  private final Path file;
  private final Reader in;
  private final int maxLineChars;
  /** Whether a U+FEFF that starts the text is still to be dropped (a reader's text; a file's mark goes as bytes). */
  private boolean bomToDrop;
  private final char[] buf = new char[8192];
  private final StringBuilder line = new StringBuilder();
  private int pos;
  private int end;
  private long lineNumber;
  private boolean skipNewline;
  private boolean eof;

  private TextLines(Path file, Reader in, int maxLineChars, boolean bomToDrop) {
    this.file = file;
    this.in = in;
    this.maxLineChars = maxLineChars;
    this.bomToDrop = bomToDrop;
  }

  /**
   * The lines of a text already opened, with a bound of the caller's; a byte-order mark (U+FEFF) that starts it is
   * dropped.
   *
   * @param in the text, read in blocks (no need to buffer it); closing these lines closes it
   * @param name what the text is, for messages (a file, or standard input)
   * @param maxLineChars the most characters a line may have, without its end, ≥ 1
   * @return its lines
   */
  public static TextLines of(Reader in, Path name, int maxLineChars) {
    if (in == null || name == null || maxLineChars < 1) {
      throw new IllegalArgumentException("in and name must not be null and maxLineChars must be >= 1 but were " + in
          + ", " + name + ", " + maxLineChars);
    }
    return new TextLines(name, in, maxLineChars, true);
  }

  /**
   * Opens a file's lines.
   *
   * @param file the file
   * @param charset its text's charset (decoding errors are reported, not replaced)
   * @return its lines
   * @throws IOException when it cannot be opened
   */
  public static TextLines open(Path file, Charset charset) throws IOException {
    if (file == null || charset == null) {
      throw new IllegalArgumentException("file and charset must not be null");
    }
    InputStream raw = new BufferedInputStream(Files.newInputStream(file));
    try {
      raw.mark(3);
      byte[] head = raw.readNBytes(3);
      if (!(head.length == 3 && (head[0] & 0xff) == 0xef && (head[1] & 0xff) == 0xbb && (head[2] & 0xff) == 0xbf)) {
        raw.reset(); // not a byte-order mark: the first line starts at the first byte
      }
    } catch (IOException | RuntimeException e) {
      raw.close();
      throw e;
    }
    return new TextLines(file, new InputStreamReader(raw, charset.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)), MAX_LINE_CHARS,
        false);
  }

  /** @return the number of the line {@link #next} returned last (1 for the first), 0 before */
  public long lineNumber() {
    return lineNumber;
  }

  /** @return the most characters a line may have ({@link #MAX_LINE_CHARS} for a file {@link #open}ed) */
  public int maxLineChars() {
    return maxLineChars;
  }

  /**
   * @return the next line without its end, or null at the end of the file
   * @throws TraceFormatException when the line is longer than {@link #maxLineChars} (naming the file and line, the
   *     number after {@link #lineNumber})
   * @throws IOException when the file cannot be read or decoded
   */
  public String next() throws IOException {
    line.setLength(0);
    boolean any = false;
    while (true) {
      if (pos == end && (eof || !fill())) {
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
      if (bomToDrop) {
        bomToDrop = false;
        if (c == '\uFEFF') {
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
        throw TraceFormatException.atLine(file, TraceFormatException.NO_RANK, lineNumber + 1, "line longer than "
            + maxLineChars + " characters, the longest read (is it the right file?)");
      }
      line.append(c);
    }
  }

  private boolean fill() throws IOException {
    int n;
    do {
      n = in.read(buf, 0, buf.length);
    } while (n == 0);
    if (n < 0) {
      eof = true;
      return false;
    }
    pos = 0;
    end = n;
    return true;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
