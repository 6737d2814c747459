package io.github.ariesmodel.traces;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A trace that cannot be read: truncated, corrupt, or using something this reader does not know.
 *
 * <p>The message names the file, the rank (when the problem belongs to one rank's stream) and where in the file the
 * problem is (a byte offset for binary formats, a line number for text formats), then says what is wrong, so a user
 * can look at the record without a stack trace. Echoed file content is abbreviated to 80 characters, its control
 * characters escaped ({@link #echo}).
 */
public final class TraceFormatException extends IOException {
  private static final long serialVersionUID = 1L;
  private static final int ECHO_LIMIT = 80;

  /** Rank value meaning "the problem is not in one rank's stream". */
  public static final int NO_RANK = -1;

  private final transient Path file;
  private final int rank;
  private final String location;
  private final String problem;
  private final long line;

  private TraceFormatException(Path file, int rank, String location, long line, String problem, Throwable cause) {
    super(format(file, rank, location, problem), cause);
    this.file = file;
    this.rank = rank;
    this.location = location;
    this.line = line;
    this.problem = problem;
  }

  private static String format(Path file, int rank, String location, String problem) {
    StringBuilder b = new StringBuilder();
    b.append(file == null ? "(no file)" : file.toString());
    if (rank != NO_RANK) {
      b.append(", rank ").append(rank);
    }
    if (!location.isEmpty()) {
      b.append(", ").append(location);
    }
    return b.append(": ").append(problem).toString();
  }

  /**
   * A problem at a byte offset of a binary file.
   *
   * @param file the file
   * @param rank the rank whose stream it is, or {@link #NO_RANK}
   * @param offset byte offset from the start of the file
   * @param problem what is wrong
   * @return the exception
   */
  public static TraceFormatException atByte(Path file, int rank, long offset, String problem) {
    return new TraceFormatException(file, rank, "byte offset " + offset, -1, problem, null);
  }

  /**
   * A problem on a line of a text file.
   *
   * @param file the file
   * @param rank the rank the line belongs to, or {@link #NO_RANK}
   * @param line line number, counting from 1
   * @param problem what is wrong
   * @return the exception
   */
  public static TraceFormatException atLine(Path file, int rank, long line, String problem) {
    return new TraceFormatException(file, rank, "line " + line, line, problem, null);
  }

  /**
   * A problem with a file as a whole (missing, unreadable, inconsistent with its companions).
   *
   * @param file the file
   * @param rank the rank it belongs to, or {@link #NO_RANK}
   * @param problem what is wrong
   * @param cause the underlying I/O error, or null
   * @return the exception
   */
  public static TraceFormatException ofFile(Path file, int rank, String problem, Throwable cause) {
    return new TraceFormatException(file, rank, "", -1, problem, cause);
  }

  /**
   * A file that is not a regular file: none there ("no such WHAT"), or something else that is not a directory (a
   * pipe, a device, a socket), which is said: a trace is read more than once (a first pass checks every rank's stream,
   * then the replay reads it again), so it cannot be streamed from a pipe. Until stop 73 a FIFO was "no such trace
   * file".
   *
   * @param file the path
   * @param rank the rank it belongs to, or {@link #NO_RANK}
   * @param what what it should have been ("trace file", "DUMPI .meta file")
   * @return the exception
   */
  public static TraceFormatException notARegularFile(Path file, int rank, String what) {
    return ofFile(file, rank, java.nio.file.Files.exists(file) ? "not a regular file (a pipe, device or socket),"
        + " but a " + what + " is read more than once (a first pass checks it, then the replay reads it): save it to a"
        + " file and give that" : "no such " + what, null);
  }

  /**
   * Abbreviates text taken from a trace for an error message: at most 80 characters, with an ellipsis when cut, and
   * control characters (ESC, BEL, NUL, line breaks, Unicode's format characters) written as Java escapes
   * ({@code \u001b}), so that a file's bytes cannot move the terminal's cursor, colour or erase the line that reports
   * them. An escape counts as the characters it takes and is never cut.
   *
   * @param text text from the trace
   * @return the text, quoted, abbreviated, escaped
   */
  public static String echo(String text) {
    StringBuilder b = new StringBuilder(Math.min(text.length(), ECHO_LIMIT) + 2).append('\'');
    int limit = ECHO_LIMIT - 3; // room for the ellipsis if the text does not fit
    int shown = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      String piece = visible(c) ? null : String.format(Locale.ROOT, "\\u%04x", (int) c);
      int width = piece == null ? 1 : piece.length();
      if (shown + width > limit && !fitsWhole(text, i, shown)) {
        b.append("...");
        break;
      }
      if (piece == null) {
        b.append(c);
      } else {
        b.append(piece);
      }
      shown += width;
    }
    return b.append('\'').toString();
  }

  /** Whether the rest of the text from {@code from} fits in the limit with {@code shown} characters taken. */
  private static boolean fitsWhole(String text, int from, int shown) {
    for (int i = from; i < text.length() && shown <= ECHO_LIMIT; i++) {
      shown += visible(text.charAt(i)) ? 1 : 6;
    }
    return shown <= ECHO_LIMIT;
  }

  /**
   * Text for an error message with its control characters written as {@link #echo} writes them, neither quoted nor
   * cut: for a path built from a trace's text (an index entry resolved against a folder), which is named whole.
   *
   * @param text text from the trace, or built from it
   * @return the text, escaped
   */
  public static String escaped(String text) {
    StringBuilder b = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (visible(c)) {
        b.append(c);
      } else {
        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      }
    }
    return b.toString();
  }

  /** Whether a character shows as itself: not a control, line or paragraph separator or format character. */
  private static boolean visible(char c) {
    if (Character.isISOControl(c)) {
      return false;
    }
    int type = Character.getType(c);
    return type != Character.FORMAT && type != Character.LINE_SEPARATOR && type != Character.PARAGRAPH_SEPARATOR;
  }

  /** The file the problem is in (may be null if the trace had no file). */
  public Path file() {
    return file;
  }

  /** The rank whose stream has the problem, or {@link #NO_RANK}. */
  public int rank() {
    return rank;
  }

  /** Where in the file: "byte offset N", "line N", or empty for the file as a whole. */
  public String location() {
    return location;
  }

  /** The line number of a text trace's bad line, or -1. */
  public long line() {
    return line;
  }

  /** What is wrong, without the file and location. */
  public String problem() {
    return problem;
  }
}
