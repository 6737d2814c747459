package io.github.ariesmodel.traces.simgrid;

import io.github.ariesmodel.traces.TraceFormatException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Lines of a text file read from any byte offset: a line ends at {@code \n}, {@code \r\n} or {@code \r}, as
 * {@link java.io.BufferedReader#readLine()} ends it, and its text is ISO-8859-1 (one char a byte, so offsets in the
 * text are offsets in the file). {@link #seek} to a line start that is still in the buffer costs nothing; one that is
 * not reads from there. The buffer grows only to hold a line longer than it, up to {@link #MAX_LINE_BYTES}: a longer
 * line is refused as a format error naming the file and the line (the buffer used to double until its length
 * overflowed an int, a {@code NegativeArraySizeException} on a line of a gigabyte or more). A UTF-8 byte-order mark
 * (bytes {@code EF BB BF}) at the start of the file is not part of the first line, as editors on Windows write one
 * (since stop 73; the line was refused as "found 'ï»¿0'"), and the offsets of the lines are the file's all the same.
 */
final class LineSource implements Closeable {
  /**
   * The longest line read, 64 MiB (assumed: SMPI's longest lines, an {@code alltoallv} with two counts a rank, take
   * about 2 x 11 bytes a rank, some 23 MB for a million ranks; anything far longer is not a trace line).
   */
  static final int MAX_LINE_BYTES = 64 << 20;

  private final Path file;
  private final FileChannel channel;
  private byte[] buf;
  private long bufStart;
  private int bufLength;
  private long position;
  private boolean endSeen;

  /**
   * @param file the file
   * @param bufferBytes bytes read at a time (a reader that seeks across the file wants few, one that streams many)
   */
  LineSource(Path file, int bufferBytes) throws IOException {
    this.file = file;
    this.channel = FileChannel.open(file, StandardOpenOption.READ);
    this.buf = new byte[bufferBytes];
  }

  /** @return the offset of the next line {@link #next} returns */
  long position() {
    return position;
  }

  /** Makes the line starting at this offset the next one read. */
  void seek(long offset) {
    position = offset;
  }

  /**
   * @param rank the rank to name if the line is too long, or {@link TraceFormatException#NO_RANK}
   * @param lineNumber the number of the line about to be read, to name if it is too long
   * @return the next line without its end, or null at the end of the file
   * @throws TraceFormatException if the line is longer than {@link #MAX_LINE_BYTES}
   */
  String next(int rank, long lineNumber) throws IOException {
    int i = 0;
    while (true) {
      if (i > MAX_LINE_BYTES) {
        throw TraceFormatException.atLine(file, rank, lineNumber, "line longer than " + MAX_LINE_BYTES
            + " bytes (64 MiB, the longest line read)");
      }
      int at = (int) (position - bufStart) + i;
      if (position < bufStart || at >= bufLength) {
        if (!fill(i)) {
          if (i == 0) {
            return null;
          }
          String line = text(i);
          position += i;
          return line;
        }
        continue;
      }
      byte b = buf[at];
      if (b == '\n' || b == '\r') {
        String line = text(i);
        long end = position + i + 1;
        if (b == '\r') {
          if (at + 1 >= bufLength) {
            fill(i + 1);
            at = (int) (position - bufStart) + i;
          }
          if (at + 1 < bufLength && buf[at + 1] == '\n') {
            end++;
          }
        }
        position = end;
        return line;
      }
      i++;
    }
  }

  /** The {@code length} bytes of the line at {@link #position}, less a byte-order mark if it is the file's first. */
  private String text(int length) {
    int from = (int) (position - bufStart);
    if (position == 0 && startsWithByteOrderMark(buf, from, length)) {
      from += BYTE_ORDER_MARK.length;
      length -= BYTE_ORDER_MARK.length;
    }
    return new String(buf, from, length, StandardCharsets.ISO_8859_1);
  }

  /** UTF-8's byte-order mark, U+FEFF encoded. */
  private static final byte[] BYTE_ORDER_MARK = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};

  /** @return whether the {@code length} bytes from {@code from} start with UTF-8's byte-order mark */
  static boolean startsWithByteOrderMark(byte[] b, int from, int length) {
    return length >= BYTE_ORDER_MARK.length && b[from] == BYTE_ORDER_MARK[0] && b[from + 1] == BYTE_ORDER_MARK[1]
        && b[from + 2] == BYTE_ORDER_MARK[2];
  }

  /** @return the bytes less a byte-order mark at their start */
  static byte[] withoutByteOrderMark(byte[] b) {
    return startsWithByteOrderMark(b, 0, b.length) ? Arrays.copyOfRange(b, BYTE_ORDER_MARK.length, b.length) : b;
  }

  /**
   * Reads so that the buffer holds the {@code have} bytes from {@link #position} on and more after them.
   *
   * @return false when the file has no more bytes after them
   */
  private boolean fill(int have) throws IOException {
    boolean kept = position >= bufStart && position + have <= bufStart + bufLength;
    if (kept && endSeen && position + have == bufStart + bufLength) {
      return false;
    }
    if (have >= buf.length) {
      // next() refuses a line before it is longer than MAX_LINE_BYTES, and a '\r' at its end asks for one more
      buf = Arrays.copyOf(buf, (int) Math.min(2L * buf.length, MAX_LINE_BYTES + 2L));
    }
    if (kept) {
      int from = (int) (position - bufStart);
      System.arraycopy(buf, from, buf, 0, have);
    } else {
      have = 0; // nothing of this line read yet
    }
    bufStart = position;
    endSeen = false;
    ByteBuffer target = ByteBuffer.wrap(buf, have, buf.length - have);
    while (target.hasRemaining()) {
      int n = channel.read(target, position + target.position()); // buf[k] is the file's byte position + k
      if (n < 0) {
        endSeen = true;
        break;
      }
      if (n == 0) {
        break;
      }
    }
    int read = target.position() - have;
    bufLength = have + read;
    return read > 0;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
