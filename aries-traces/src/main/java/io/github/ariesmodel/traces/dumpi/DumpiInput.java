package io.github.ariesmodel.traces.dumpi;

import io.github.ariesmodel.traces.TraceFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Big-endian reads from a DUMPI file through a fixed buffer, with the file position known at every byte and a limit
 * past which nothing may be read (the end of the call stream, or of the file), so a corrupt length can neither run
 * off the end nor make the reader allocate more than the file holds.
 */
final class DumpiInput implements AutoCloseable {
  /**
   * Bytes read at a time. Every read takes at most 8 bytes at once, so any size works; one buffer is held per open
   * rank stream, and a replay opens every rank's at once: 8 KiB is 32 MiB for 4,096 ranks, where 64 KiB was 256 MiB.
   */
  private static final int BUFFER_BYTES = 1 << 13;

  private final Path file;
  private final int rank;
  private final FileChannel channel;
  private final long size;
  private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES).order(ByteOrder.BIG_ENDIAN);
  private long bufferStart;
  private long limit;
  private String context = "";

  DumpiInput(Path file, int rank) throws IOException {
    this.file = file;
    this.rank = rank;
    try {
      this.channel = FileChannel.open(file, StandardOpenOption.READ);
    } catch (IOException e) {
      throw TraceFormatException.ofFile(file, rank, "cannot open rank file: " + e.getMessage(), e);
    }
    this.size = channel.size();
    this.limit = size;
    buffer.limit(0);
  }

  long size() {
    return size;
  }

  long position() {
    return bufferStart + buffer.position();
  }

  /** Sets what is being read, for error messages ("MPI_Isend record at byte 1234"). */
  void context(String context) {
    this.context = context;
  }

  /** Moves to an absolute position and sets the limit reads may not pass; both must lie within the file. */
  void seek(long position, long newLimit) {
    if (position < 0 || position > newLimit || newLimit > size) {
      throw new IllegalStateException("seek to " + position + " (limit " + newLimit + ") outside a file of " + size
          + " bytes: offsets must be checked before seeking");
    }
    if (position >= bufferStart && position <= bufferStart + buffer.limit()) {
      buffer.position((int) (position - bufferStart));
    } else {
      bufferStart = position;
      buffer.limit(0);
    }
    this.limit = newLimit;
  }

  long remaining() {
    return limit - position();
  }

  TraceFormatException error(long at, String problem) {
    String where = context.isEmpty() ? problem : context + ": " + problem;
    return TraceFormatException.atByte(file, rank, at, where);
  }

  private void need(int bytes) throws IOException {
    long pos = position();
    if (pos + bytes > limit) {
      if (limit == size) {
        throw error(pos, "file ends inside a record (truncated?): needed " + bytes + " bytes, "
            + Math.max(0, size - pos) + " left");
      }
      throw error(pos, "record runs past the end of the call stream at byte " + limit);
    }
    if (buffer.remaining() >= bytes) {
      return;
    }
    buffer.compact();
    bufferStart = pos;
    while (buffer.position() < bytes) {
      int n = channel.read(buffer, bufferStart + buffer.position());
      if (n < 0) {
        buffer.flip();
        throw error(pos, "file ends inside a record (truncated?)");
      }
    }
    buffer.flip();
  }

  int u8() throws IOException {
    need(1);
    return buffer.get() & 0xff;
  }

  int u16() throws IOException {
    need(2);
    return buffer.getShort() & 0xffff;
  }

  int i32() throws IOException {
    need(4);
    return buffer.getInt();
  }

  long i64() throws IOException {
    need(8);
    return buffer.getLong();
  }

  void skip(long bytes) throws IOException {
    if (bytes < 0 || bytes > remaining()) {
      throw error(position(), "a length of " + bytes + " bytes runs past the end of the "
          + (limit == size ? "file (truncated?)" : "call stream"));
    }
    long target = position() + bytes;
    seek(target, limit);
  }

  /**
   * Reads an element count and checks that that many elements of the given size fit before the limit.
   *
   * @param elementBytes bytes per element
   * @return the count
   */
  int count(int elementBytes) throws IOException {
    long at = position();
    int n = i32();
    if (n < 0) {
      throw error(at, "negative array length " + n);
    }
    if ((long) n * elementBytes > remaining()) {
      throw error(at, "array length " + n + " does not fit in the " + remaining() + " bytes left");
    }
    return n;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
