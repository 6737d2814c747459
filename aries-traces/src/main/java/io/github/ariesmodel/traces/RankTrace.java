package io.github.ariesmodel.traces;

import java.io.IOException;

/**
 * The recorded calls of one rank, read one at a time from the file (never loaded whole, so a trace larger than the
 * heap can be replayed).
 *
 * <p>Not thread-safe; each rank's stream is independent of the others, so ranks may be read on different threads.
 */
public interface RankTrace extends AutoCloseable {
  /** The rank this stream belongs to (its rank in {@code MPI_COMM_WORLD}). */
  int rank();

  /**
   * Reads the next modelled call. Records of calls the model leaves out are skipped (and counted in
   * {@link #coverage()}).
   *
   * @return the next call, or null at the end of the rank's stream (and on every later call)
   * @throws TraceFormatException if the stream is truncated or corrupt; the stream is then unusable
   * @throws IOException if the file cannot be read
   */
  TraceCall read() throws IOException;

  /**
   * What the stream holds and what the model leaves out, counting the records read so far; complete once
   * {@link #read()} returned null.
   *
   * @return the coverage so far
   */
  RankCoverage coverage();

  /** Releases the file. */
  @Override
  void close() throws IOException;
}
