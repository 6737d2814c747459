package io.github.ariesmodel.traces;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A recorded MPI application run: a number of ranks, each with a stream of calls.
 *
 * <p>Opening a trace checks that every rank's data exists; reading a rank's stream finds any problem inside it.
 */
public interface Trace {
  /** The format the trace was read from. */
  TraceFormat format();

  /** The file the trace was opened from (DUMPI's {@code .meta}, SimGrid's trace or index file). */
  Path source();

  /** Number of ranks ({@code MPI_COMM_WORLD}'s size). */
  int ranks();

  /**
   * Opens one rank's stream. Each call opens a fresh stream at the rank's first call.
   *
   * @param rank the rank, 0 to {@code ranks() - 1}
   * @return the rank's stream; close it after use
   * @throws IllegalArgumentException if the rank is out of range
   * @throws IOException if the rank's file cannot be opened or its fixed parts are corrupt
   */
  RankTrace open(int rank) throws IOException;

  /**
   * Reads every rank's stream to its end and gathers what the trace holds and leaves out.
   *
   * @return the coverage of every rank
   * @throws IOException if a stream is corrupt or unreadable
   */
  default TraceCoverage coverage() throws IOException {
    List<RankCoverage> ranks = new ArrayList<>(ranks());
    for (int r = 0; r < ranks(); r++) {
      try (RankTrace stream = open(r)) {
        while (stream.read() != null) {
          // reading to the end is what fills the coverage
        }
        ranks.add(stream.coverage());
      }
    }
    return new TraceCoverage(format(), ranks);
  }
}
