package io.github.ariesmodel.system.mpi;

/**
 * A non-blocking operation in progress ({@code MPI_Request}): complete it with {@link Mpi#wait(Request)},
 * {@link Mpi#waitall}, {@link Mpi#waitany} or {@link Mpi#test}.
 */
public final class Request {

  /** What the request does. */
  public enum Kind {
    /** A send. */
    SEND,
    /** A receive. */
    RECEIVE
  }

  private final Kind kind;
  final long id;
  boolean complete;
  /** Set once a wait or test has returned it complete (MPI's end of an activation: a persistent one may restart). */
  boolean waited;
  boolean cancelled;
  long completedAtPs = -1;
  MpiStatus status;
  /** A receive's: the call site its sender had named for the matched message ({@link #senderCallSite}). */
  long senderSite;
  // receive side
  final long context;
  final int sourceWorld; // -1 for any
  final int tag; // Mpi.ANY_TAG for any
  final byte[] buffer;
  final int offset;
  final int capacity;
  final Communicator comm;
  /** Run when the request completes (a one-sided operation's own bookkeeping), or null. */
  Runnable onComplete;

  Request(Kind kind, long id, Communicator comm, long context, int sourceWorld, int tag, byte[] buffer, int offset,
      int capacity) {
    this.kind = kind;
    this.id = id;
    this.comm = comm;
    this.context = context;
    this.sourceWorld = sourceWorld;
    this.tag = tag;
    this.buffer = buffer;
    this.offset = offset;
    this.capacity = capacity;
  }

  /** @return send or receive */
  public Kind kind() {
    return kind;
  }

  /** @return whether the operation has completed (without waiting; {@link Mpi#test} also makes progress) */
  public boolean isComplete() {
    return complete;
  }

  /**
   * When the operation completed in simulated time (for a receive: when its data was in the user buffer; for a
   * send: when its buffer could be reused), whether or not the rank has waited for it yet.
   *
   * @return picoseconds, or -1 before completion
   */
  public long completedAtPs() {
    return completedAtPs;
  }

  /**
   * Whether {@link Mpi#cancel} took the operation back before it matched ({@code MPI_Test_cancelled}): then it
   * completed moving nothing, and a receive's status is null.
   *
   * @return whether it was cancelled
   */
  public boolean isCancelled() {
    return cancelled;
  }

  /** @return the status of a completed receive, or null before completion, for sends and for a cancelled receive */
  public MpiStatus status() {
    return complete ? status : null; // (it is known from the match on, before the data has moved)
  }

  /**
   * The call site ({@link Mpi#callSite}) the sender of the message this receive matched had named when it started
   * that message: with a site per call, as a trace replay names them, it tells which of the sender's calls sent the
   * message. It travels beside the simulated message, not in it: nothing simulated depends on it.
   *
   * @return the site, or 0 when the sender named none, before the match, for a send and for a cancelled receive
   */
  public long senderCallSite() {
    return complete ? senderSite : 0;
  }

  boolean matches(long ctx, int srcWorld, int msgTag) {
    return context == ctx && (sourceWorld < 0 || sourceWorld == srcWorld) && (tag == Mpi.ANY_TAG || tag == msgTag);
  }

  @Override
  public String toString() {
    return "Request[" + kind + " #" + id + (complete ? ", complete" : "") + "]";
  }
}
