package io.github.ariesmodel.system.mpi;

/**
 * A persistent communication request ({@code MPI_Send_init}, {@code MPI_Ssend_init}, {@code MPI_Recv_init}): a send's
 * or a receive's arguments, checked and fixed once, then started any number of times with {@link Mpi#start} or
 * {@link Mpi#startall}. Each start is the nonblocking call those arguments name, made then (MPICH's CH3
 * {@code MPID_Startall} calls {@code MPID_Isend}, {@code MPID_Issend} or {@code MPID_Irecv} with them), and returns
 * that activation's {@link Request}, which completes as the nonblocking call's would; creating the persistent request
 * moves nothing and takes no simulated time (MPICH's {@code MPID_Send_init} only fills in a request).
 *
 * <p>An activation stays active until a wait or test has returned it complete ({@link Mpi#wait}, {@link Mpi#waitall},
 * {@link Mpi#waitany}, {@link Mpi#test}); starting an active request is refused, as MPICH's
 * {@code MPIR_ERRTEST_PERSISTENT_ACTIVE} refuses it. The buffer is the caller's: a send reads it at each start, a
 * receive writes it as each activation's message lands. There is nothing to free: one no longer referenced is
 * garbage (an activation in progress goes on to complete).
 */
public final class PersistentRequest {

  /** Which nonblocking call a start makes. */
  public enum Mode {
    /** A standard-mode send ({@code MPI_Send_init}; ready ones are standard sends here). */
    SEND,
    /** A buffered-mode send ({@code MPI_Bsend_init}): each activation copies into the attached buffer. */
    BUFFERED_SEND,
    /** A synchronous-mode send ({@code MPI_Ssend_init}): each activation completes once the receiver has matched. */
    SYNCHRONOUS_SEND,
    /** A receive ({@code MPI_Recv_init}). */
    RECEIVE
  }

  final Mode mode;
  final byte[] buffer;
  final int offset;
  /** Bytes sent, or the receive's capacity. */
  final int length;
  /** The peer's world rank; -1 for a receive from any source. */
  final int peerWorld;
  /** The peer as the caller named it, in {@link #comm}. */
  final int peer;
  final int tag;
  final Communicator comm;
  Request active;
  long starts;

  PersistentRequest(Mode mode, byte[] buffer, int offset, int length, int peer, int peerWorld, int tag,
      Communicator comm) {
    this.mode = mode;
    this.buffer = buffer;
    this.offset = offset;
    this.length = length;
    this.peer = peer;
    this.peerWorld = peerWorld;
    this.tag = tag;
    this.comm = comm;
  }

  /** @return which nonblocking call each start makes */
  public Mode mode() {
    return mode;
  }

  /** @return the peer in the communicator: destination of a send, source of a receive ({@link Mpi#ANY_SOURCE}) */
  public int peer() {
    return peer;
  }

  /** @return the tag sent, or the tag a receive matches ({@link Mpi#ANY_TAG}) */
  public int tag() {
    return tag;
  }

  /** @return bytes sent, or the receive buffer's capacity */
  public int length() {
    return length;
  }

  /** @return the communicator */
  public Communicator communicator() {
    return comm;
  }

  /** @return the last start's request, or null before the first start */
  public Request lastStart() {
    return active;
  }

  /** @return how many times it has been started */
  public long starts() {
    return starts;
  }

  /**
   * Whether a start is in progress: started, and not yet returned complete by a wait or a test (MPI's active state;
   * a start is refused while it holds).
   *
   * @return whether it is active
   */
  public boolean isActive() {
    return active != null && !active.waited;
  }

  @Override
  public String toString() {
    return "PersistentRequest[" + mode + (mode == Mode.RECEIVE ? " from " + (peer < 0 ? "any" : peer) : " to " + peer)
        + ", tag " + tag + ", " + length + " bytes, " + starts + " starts" + (isActive() ? ", active" : "") + "]";
  }
}
