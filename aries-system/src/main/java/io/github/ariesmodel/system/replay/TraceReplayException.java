package io.github.ariesmodel.system.replay;

/**
 * A trace that cannot be replayed: a corrupt or truncated file, a call the MPI layer refuses (a message longer than
 * its receive, a collective on an unknown communicator), a send no receive matches, or a deadlock the trace itself
 * causes. The message starts {@code FILE, rank R, call N: } and, for a deadlock, lists what every waiting rank waits
 * for.
 */
public final class TraceReplayException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Rank value when the problem is not one rank's. */
  public static final int NO_RANK = -1;

  private final String file;
  private final int rank;
  private final long call;

  TraceReplayException(String file, int rank, long call, String problem, Throwable cause) {
    super(file + (rank == NO_RANK ? "" : ", rank " + rank) + (call <= 0 ? "" : ", call " + call) + ": " + problem,
        cause);
    this.file = file;
    this.rank = rank;
    this.call = call;
  }

  /** @return the trace file (or the rank's file) */
  public String file() {
    return file;
  }

  /** @return the rank, or {@link #NO_RANK} */
  public int rank() {
    return rank;
  }

  /** @return the 1-based index of the call in the rank's stream of modelled calls, or 0 when none applies */
  public long call() {
    return call;
  }
}
