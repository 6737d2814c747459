package io.github.ariesmodel.system.mpi;

import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An MPI window ({@code MPI_Win}) as one rank holds it: its own memory that others may access with
 * {@link Mpi#put}, {@link Mpi#get} and {@link Mpi#accumulate}, and the state of its access and exposure epochs.
 * Made by {@link Mpi#winCreate}, collectively; released by {@link Mpi#winFree}. The protocol is MPICH CH3's software
 * RMA ({@link OneSided}).
 */
public final class Window {

  /** Where this rank's access epoch stands (MPICH CH3's {@code access_state}). */
  enum Access {
    /** No access epoch. */
    NONE,
    /** A fence's closing barrier is still in flight: operations wait for it. */
    FENCE_ISSUED,
    /** A fence epoch whose operations may go. */
    FENCE_GRANTED,
    /** One or more passive-target (lock) epochs. */
    LOCKS,
    /** A start's post messages have not all come: operations wait for them. */
    PSCW_ISSUED,
    /** A start epoch whose targets have all posted. */
    PSCW_GRANTED
  }

  /** A passive-target lock's state at the origin. */
  enum LockState {
    /** No lock (a fence or start epoch). */
    NONE,
    /** The lock request has gone; operations wait for the grant. */
    ISSUED,
    /** The target granted the lock (or the origin asserted that none is needed). */
    GRANTED
  }

  /** An operation an origin has made and not yet sent: its kind, the origin buffer and the target's byte offset. */
  record Op(int code, byte[] buffer, int offset, int length, int targetOffset, ReduceOp op, ElementType type) {}

  /** What an origin keeps per target during an epoch (MPICH CH3's {@code MPIDI_RMA_Target_t}). */
  static final class Target {
    final int rank;
    final ArrayDeque<Op> queued = new ArrayDeque<>();
    final List<Request> inFlight = new ArrayList<>();
    LockState lock = LockState.NONE;
    boolean exclusive;
    boolean noCheck;
    int getsPending;
    int acksAwaited;
    /**
     * Operations sent to the target since the last flush or unlock request it answers (MPICH's
     * {@code num_ops_flush_not_issued}): a flush or unlock with nothing queued must still ask for them.
     */
    int unconfirmed;

    Target(int rank) {
      this.rank = rank;
    }
  }

  /** An accumulate arrived at this target: combined once its data is here and every earlier one of its origin is. */
  static final class Accumulate {
    final Runnable apply;
    boolean received;

    Accumulate(Runnable apply) {
      this.apply = apply;
    }
  }

  final Rank owner;
  /** The window's own communicator (MPICH dups the one it is made over): its collectives and its packets. */
  final Communicator comm;
  final byte[] base;
  final int displacementUnit;
  /** This window's index in its rank's list, which packets and answers name ({@code source_win_handle}). */
  final int index;
  /**
   * Each member's window size in bytes, displacement unit and window index, set by the creation's allgather (the
   * window takes packets from the start of it, as MPICH's exists before its allgather).
   */
  long[] sizes;
  int[] units;
  int[] indices;
  boolean freed;

  // origin side
  Access access = Access.NONE;
  final TreeMap<Integer, Target> targets = new TreeMap<>();
  int lockEpochs;
  /** A lock-all epoch ({@code MPI_Win_lock_all}): targets are locked, shared, as operations first reach them. */
  boolean lockAll;
  boolean lockAllNoCheck;
  int[] startGroup;
  final List<Request> startReceives = new ArrayList<>();
  /** The fence's nonblocking barrier: the receive of its current round (null when none is in flight). */
  Request barrierReceive;
  int barrierDistance;

  // target side
  boolean exposed;
  /** Origins whose operations this rank still awaits (MPICH's {@code at_completion_counter}). */
  int atCounter;
  int sharedLocks;
  boolean exclusiveLock;
  /** Lock requests waiting: {origin rank, 1 for exclusive}. */
  final ArrayDeque<int[]> lockQueue = new ArrayDeque<>();
  /** Per origin: operations arrived and not yet done, and flags to act on once none is left. */
  final int[] pending;
  final int[] pendingFlags;
  /** Per origin: its accumulates arrived and not yet combined, in arrival order (the order it issued them). */
  final Map<Integer, ArrayDeque<Accumulate>> accumulates = new HashMap<>();

  Window(Rank owner, Communicator comm, byte[] base, int displacementUnit, int index) {
    this.owner = owner;
    this.comm = comm;
    this.base = base;
    this.displacementUnit = displacementUnit;
    this.index = index;
    this.pending = new int[comm.size()];
    this.pendingFlags = new int[comm.size()];
  }

  /** @return this rank's window memory (the array given to {@link Mpi#winCreate}) */
  public byte[] base() {
    return base;
  }

  /** @return this rank's displacement unit, bytes */
  public int displacementUnit() {
    return displacementUnit;
  }

  /** @return the number of ranks the window spans */
  public int size() {
    return comm.size();
  }

  /** @return this rank's rank among them (its rank in the communicator the window was made over) */
  public int rank() {
    return comm.rank();
  }

  /**
   * The size of a member's window, as the creation's allgather told this rank.
   *
   * @param rank a rank in the window, 0 to {@link #size()} - 1
   * @return bytes
   */
  public long sizeOf(int rank) {
    checkRank(rank);
    return sizes[rank];
  }

  /**
   * A member's displacement unit, as the creation's allgather told this rank.
   *
   * @param rank a rank in the window, 0 to {@link #size()} - 1
   * @return bytes
   */
  public int displacementUnitOf(int rank) {
    checkRank(rank);
    return units[rank];
  }

  private void checkRank(int rank) {
    if (rank < 0 || rank >= comm.size()) {
      throw new IllegalArgumentException("rank must be in [0, " + (comm.size() - 1) + "] but was " + rank);
    }
  }

  /** @return whether {@link Mpi#winFree} has released the window */
  public boolean isFreed() {
    return freed;
  }

  @Override
  public String toString() {
    return "Window[#" + index + " of rank " + owner.worldRank + ", " + base.length + " bytes"
        + (freed ? ", freed" : "") + "]";
  }
}
