package io.github.ariesmodel.system.mpi;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.LittleEndian;
import io.github.ariesmodel.system.mpi.CollectiveLedger.Kind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One rank's MPI one-sided communication, as MPICH's CH3 device does it in software (Cray MPICH's default on XC;
 * DMAPP's path only with {@code MPICH_RMA_OVER_DMAPP=1}, not modelled). Sources: MPICH 3.2's
 * {@code src/mpid/ch3/src/ch3u_rma_sync.c}, {@code ch3u_rma_progress.c} and {@code mpidi_rma.c} (docs/mpi.md [M11]).
 *
 * <h2>Packets</h2>
 * Every operation is a packet on the window's own communicator, sent as a message of the two-sided protocols (short,
 * eager, rendezvous, on-node), so it takes the channel's credits and order; a word in the header's kind
 * ({@link Rank#RMA_SHIFT}) marks it, so that the target hands it to its window instead of matching it: a PUT's data
 * lands in the window at the offset its tag carries, an accumulate's is combined into it, a GET request (12 bytes:
 * length and id) is answered with a GET response carrying the data. Lock, unlock, flush and decrement requests are
 * empty packets. A target's answers (lock granted, operations done) are CQ writes ({@link Rank#CQ_RMA}), as the
 * layer's other control values; MPICH's are packets on the channel. A target acts only in its own progress engine:
 * a rank that computes serves no one, as with CH3's software RMA.
 *
 * <h2>Issuing</h2>
 * An origin queues each operation per target and sends it once the epoch allows (a fence's barrier done, a lock
 * granted, every target of a start posted), always keeping the last one back until the synchronization call, which
 * sends it with the call's flag: decrement the target's counter (fence, complete), flush, or unlock
 * ({@code issue_ops_target}'s "skip last OP" with {@code MPIR_CVAR_CH3_RMA_DELAY_ISSUING_FOR_PIGGYBACKING} 0). A
 * target acts on a flag once every earlier operation of that origin is done. Operations on the rank's own window are
 * done at once, by copies (MPICH does them in place). A fence of {@link MpiConfig#rmaScalableFenceRanks()} ranks or
 * more takes MPICH's scalable algorithm.
 */
final class OneSided {

  static final int PUT = 1;
  static final int GET = 2;
  static final int GET_RESPONSE = 3;
  static final int ACCUMULATE = 4;
  static final int LOCK = 5;
  static final int UNLOCK = 6;
  static final int FLUSH = 7;
  static final int DECREMENT = 8;
  /**
   * An unlock that asks for no answer: every operation of the epoch to the target is already confirmed (MPICH CH3's
   * unlock packet with {@code MPIDI_CH3_PKT_FLAG_RMA_UNLOCK_NO_ACK}).
   */
  static final int UNLOCK_NO_ACK = 9;

  static final int F_DECREMENT = 1;
  static final int F_UNLOCK = 2;
  static final int F_FLUSH = 4;
  static final int F_EXCLUSIVE = 8;
  /**
   * At a target, among the flags an origin has pending: release its lock and answer nothing ({@link #UNLOCK_NO_ACK}).
   * Above a packet's four flag bits: it never travels as a flag.
   */
  private static final int F_UNLOCK_NO_ACK = 16;

  private static final int ANSWER_GRANTED = 1;
  private static final int ANSWER_DONE = 2;

  /** MPICH's {@code SYNC_POST_TAG}: the tag of a post's empty message to each origin. */
  static final int POST_TAG = 100;
  /** The tag of the fence's nonblocking barrier's messages on the window's communicator. */
  static final int BARRIER_TAG = 101;
  /** A GET request's payload: the length and the id of the response. */
  private static final int GET_REQUEST_BYTES = 12;
  private static final byte[] NO_BYTES = new byte[0];
  /** Windows a rank may make in one run: an answer's payload names one in the 18 bits above its 26. */
  static final int MAX_WINDOWS = 1 << 18;

  private final Rank rank;
  /** The windows this rank holds and has not freed, in creation order (a freed one's memory goes with it). */
  private final List<Window> windows = new ArrayList<>();
  /** The index the next window gets (never reused: packets and answers name windows by it). */
  private int nextIndex;
  private final Map<Long, Window> byContext = new HashMap<>();
  private final Map<Integer, PendingGet> gets = new HashMap<>();
  /** GET responses to send from the progress hook (never from inside a packet's arrival). */
  private final ArrayDeque<Runnable> deferred = new ArrayDeque<>();
  private int nextGet;
  private boolean busy;
  private long operations;
  private long packets;
  private long answers;

  private record PendingGet(Window.Target target, byte[] buffer, int offset, int length) {}

  OneSided(Rank rank) {
    this.rank = rank;
  }

  /** @return one-sided operations this rank has made (puts, gets, accumulates; own window included) */
  long operations() {
    return operations;
  }

  /** @return one-sided packets this rank has sent (operations, GET responses, lock and sync requests) */
  long packets() {
    return packets;
  }

  /** @return answers this rank has sent as a target (locks granted, operations done) */
  long answers() {
    return answers;
  }

  static int word(int code, int flags, ReduceOp op, ElementType type) {
    return code | flags << 4 | (op == null ? 0 : op.ordinal() + 1) << 8 | (type == ElementType.DOUBLE ? 1 : 0) << 12;
  }

  // ------------------------------------------------------------------------------------------- creation, free

  Window create(byte[] base, int displacementUnit, Communicator comm) {
    if (nextIndex >= MAX_WINDOWS) {
      throw new IllegalStateException("MPI rank " + rank.worldRank + ": more than " + MAX_WINDOWS + " windows made"
          + " in one run (a target's answer names the window in 18 bits)");
    }
    rank.enter(comm, new CollectiveLedger.Call(Kind.WIN_CREATE, -1, 0, null, null, null, null, rank.now()));
    // MPICH's MPID_Win_create: a dup of the communicator, then an allgather of each member's base, size, unit and
    // window handle (four MPI_Aint)
    Communicator wc = rank.collectives.split(comm, 0, comm.rank());
    Window w = new Window(rank, wc, base, displacementUnit, nextIndex++);
    windows.add(w);
    byContext.put(wc.context(), w);
    int n = wc.size();
    byte[] mine = new byte[32];
    LittleEndian.put(mine, 8, 8, base.length);
    LittleEndian.put(mine, 16, 8, displacementUnit);
    LittleEndian.put(mine, 24, 8, w.index);
    byte[] all = new byte[32 * n];
    rank.collectives.allgather(mine, all, wc);
    rank.leave();
    w.sizes = new long[n];
    w.units = new int[n];
    w.indices = new int[n];
    for (int i = 0; i < n; i++) {
      w.sizes[i] = LittleEndian.get(all, 32 * i + 8, 8);
      w.units[i] = (int) LittleEndian.get(all, 32 * i + 16, 8);
      w.indices[i] = (int) LittleEndian.get(all, 32 * i + 24, 8);
    }
    return w;
  }

  void free(Window w) {
    check(w);
    if (!noAccessEpoch(w) || w.exposed) {
      throw sync(w, "winFree", "inside an access or exposure epoch (end it first)");
    }
    for (Window.Target t : w.targets.values()) {
      if (!t.queued.isEmpty() || !t.inFlight.isEmpty() || t.getsPending > 0) {
        throw sync(w, "winFree", "with operations to rank " + t.rank + " no synchronization has completed (a fence"
            + " ends them)");
      }
    }
    rank.enter(w.comm, CollectiveLedger.Call.of(Kind.WIN_FREE, rank.now()));
    // MPICH's MPID_Win_free: wait until no lock is held or queued here, no origin's operations are pending and the
    // fence's barrier is done, then a barrier
    rank.waitFor("its window's locks, operations and fence barrier to finish (MPI_Win_free)",
        () -> w.sharedLocks == 0 && !w.exclusiveLock && w.lockQueue.isEmpty() && w.atCounter == 0
            && w.barrierReceive == null);
    rank.collectives.barrier(w.comm);
    rank.leave();
    w.freed = true;
    byContext.remove(w.comm.context());
    windows.remove(w);
  }

  // ------------------------------------------------------------------------------------------- operations

  void put(byte[] buf, int offset, int length, int target, long displacement, Window w) {
    Window.Target t = operation(w, "put", target, displacement, length);
    int at = targetOffset(w, target, displacement);
    if (t == null) {
      rank.spend(rank.copyPs(length)); // its own window: a copy
      System.arraycopy(buf, offset, w.base, at, length);
      return;
    }
    enqueue(w, t, new Window.Op(PUT, buf, offset, length, at, null, null));
  }

  void get(byte[] buf, int offset, int length, int target, long displacement, Window w) {
    Window.Target t = operation(w, "get", target, displacement, length);
    int at = targetOffset(w, target, displacement);
    if (t == null) {
      rank.spend(rank.copyPs(length));
      System.arraycopy(w.base, at, buf, offset, length);
      return;
    }
    enqueue(w, t, new Window.Op(GET, buf, offset, length, at, null, null));
  }

  void accumulate(byte[] data, ElementType type, ReduceOp op, int target, long displacement, Window w) {
    Window.Target t = operation(w, "accumulate", target, displacement, data.length);
    int at = targetOffset(w, target, displacement);
    if (t == null) {
      rank.spend(rank.reducePs(data.length));
      type.reduce(op, w.base, at, data, 0, data.length / ElementType.BYTES);
      return;
    }
    enqueue(w, t, new Window.Op(ACCUMULATE, data, 0, data.length, at, op, type));
  }

  /** Checks an operation and returns its target's entry, or null for the rank's own window. */
  private Window.Target operation(Window w, String what, int target, long displacement, int length) {
    check(w);
    checkTarget(w, target);
    checkArgument(displacement >= 0, "targetDisp must be >= 0 but was %s", displacement);
    long at = displacement * w.units[target];
    if (displacement > w.sizes[target] || at + length > w.sizes[target]) {
      throw new IllegalArgumentException("MPI_ERR_RMA_RANGE at rank " + rank.worldRank + ": a " + what + " of "
          + length + " bytes at displacement " + displacement + " (unit " + w.units[target] + ") lies outside rank "
          + target + "'s window of " + w.sizes[target] + " bytes");
    }
    Window.Target t = switch (w.access) {
      case FENCE_ISSUED, FENCE_GRANTED -> w.targets.computeIfAbsent(target, Window.Target::new);
      case LOCKS -> w.lockAll ? lockAllTarget(w, target) : w.targets.get(target);
      case PSCW_ISSUED, PSCW_GRANTED -> contains(w.startGroup, target)
          ? w.targets.computeIfAbsent(target, Window.Target::new) : null;
      case NONE -> null;
    };
    if (t == null) {
      throw sync(w, what, "to rank " + target + " outside an access epoch to it (call winFence, winLock or winStart"
          + " first)");
    }
    operations++;
    if (target == w.comm.rank()) {
      if (w.access == Window.Access.FENCE_ISSUED || w.access == Window.Access.FENCE_GRANTED
          || w.access == Window.Access.PSCW_ISSUED || w.access == Window.Access.PSCW_GRANTED) {
        w.targets.remove(target);
      }
      return null;
    }
    return t;
  }

  private static int targetOffset(Window w, int target, long displacement) {
    return (int) (displacement * w.units[target]);
  }

  private void enqueue(Window w, Window.Target t, Window.Op op) {
    t.queued.add(op);
    if (granted(w, t)) {
      exclusively(() -> issue(w, t, false, 0));
    }
  }

  /**
   * Runs sends of this engine's with its progress hook held off: a send that waits for a mailbox credit makes
   * progress, and the hook must not send another operation of the same target ahead of it meanwhile (a flag
   * would overtake the operations it closes).
   */
  private void exclusively(Runnable sends) {
    busy = true;
    try {
      sends.run();
    } finally {
      busy = false;
    }
  }

  private static boolean granted(Window w, Window.Target t) {
    return switch (w.access) {
      case FENCE_GRANTED, PSCW_GRANTED -> true;
      case LOCKS -> t.lock == Window.LockState.GRANTED;
      default -> false;
    };
  }

  /** Sends the target's queued operations, all of them with the flags on the last when {@code all}, else all but one. */
  private void issue(Window w, Window.Target t, boolean all, int lastFlags) {
    while (!t.queued.isEmpty()) {
      if (!all && t.queued.size() == 1) {
        return; // keep the last back for the synchronization call's flag
      }
      Window.Op op = t.queued.poll();
      int flags = t.queued.isEmpty() && all ? lastFlags : 0;
      send(w, t, op, flags);
    }
  }

  private void send(Window w, Window.Target t, Window.Op op, int flags) {
    int to = w.comm.worldRank(t.rank);
    long ctx = w.comm.context();
    packets++;
    if (op.code() == GET) {
      int id = nextGet++;
      gets.put(id, new PendingGet(t, op.buffer(), op.offset(), op.length()));
      t.getsPending++;
      byte[] request = new byte[GET_REQUEST_BYTES];
      LittleEndian.put(request, 0, 4, op.length());
      LittleEndian.put(request, 4, 8, id);
      rank.startSend(request, 0, request.length, to, op.targetOffset(), ctx, w.comm, false,
          word(GET, flags, null, null));
      confirmed(t, flags);
      return;
    }
    Request r = rank.startSend(op.buffer(), op.offset(), op.length(), to, op.targetOffset(), ctx, w.comm, false,
        word(op.code(), flags, op.op(), op.type()));
    t.inFlight.add(r);
    confirmed(t, flags);
  }

  /**
   * Counts an operation sent to {@code t}: one whose flags ask the target to answer once all before it are done
   * (flush, unlock) confirms every one sent before; any other leaves them to a later flush or unlock (MPICH's
   * {@code num_ops_flush_not_issued}).
   */
  private static void confirmed(Window.Target t, int flags) {
    if ((flags & (F_FLUSH | F_UNLOCK)) != 0) {
      t.unconfirmed = 0;
    } else {
      t.unconfirmed++;
    }
  }

  private void sendEmpty(Window w, int target, int code, int flags) {
    packets++;
    rank.startSend(NO_BYTES, 0, 0, w.comm.worldRank(target), 0, w.comm.context(), w.comm, false,
        word(code, flags, null, null));
  }

  private static boolean locallyDone(Window.Target t) {
    t.inFlight.removeIf(r -> r.complete);
    return t.inFlight.isEmpty() && t.getsPending == 0;
  }

  // ------------------------------------------------------------------------------------------- fence

  void fence(int assertion, Window w) {
    check(w);
    checkAssertion(assertion);
    if (!noAccessEpoch(w) || w.exposed) {
      throw sync(w, "winFence", "inside a lock or start/post epoch");
    }
    rank.enter(w.comm, CollectiveLedger.Call.fence(assertion, rank.now()));
    try {
      if ((assertion & Mpi.MODE_NOPRECEDE) != 0) {
        if ((assertion & Mpi.MODE_NOSUCCEED) == 0) {
          endBarrier(w);
          startBarrier(w);
        }
        return;
      }
      int n = w.comm.size();
      if (n < rank.config.rmaScalableFenceRanks()) {
        // each rank learns how many origins will send it operations (MPICH's reduce_scatter_block of marks)
        long[] marks = new long[n];
        w.targets.forEach((r, t) -> marks[r] = t.queued.isEmpty() ? 0 : 1);
        int[] counts = new int[n];
        Arrays.fill(counts, 1);
        byte[] mine = rank.collectives.reduceScatter(ElementType.LONG, ElementType.pack(marks), counts,
            ReduceOp.SUM, w.comm);
        w.atCounter += (int) LittleEndian.get(mine, 0, 8);
        endBarrier(w);
        w.access = Window.Access.FENCE_GRANTED;
        sendAllAndWait(w, F_DECREMENT, false);
        rank.waitFor("the window's origins' operations (MPI_Win_fence)", () -> w.atCounter == 0);
        w.targets.clear();
        if ((assertion & Mpi.MODE_NOSUCCEED) != 0) {
          w.access = Window.Access.NONE;
        } else {
          startBarrier(w);
        }
      } else {
        // MPICH's scalable fence: every target flushed (its acknowledgement awaited), then a barrier
        endBarrier(w);
        w.access = Window.Access.FENCE_GRANTED;
        sendAllAndWait(w, F_FLUSH, true);
        w.targets.clear();
        rank.collectives.barrier(w.comm);
        w.access = (assertion & Mpi.MODE_NOSUCCEED) != 0 ? Window.Access.NONE : Window.Access.FENCE_GRANTED;
      }
    } finally {
      rank.leave();
    }
  }

  /** Sends every target's queued operations with {@code flags} on each last one, and waits for them to complete. */
  private void sendAllAndWait(Window w, int flags, boolean remote) {
    exclusively(() -> {
      for (Window.Target t : w.targets.values()) {
        if (!t.queued.isEmpty()) {
          if (remote) {
            t.acksAwaited++;
          }
          issue(w, t, true, flags);
        }
      }
    });
    rank.waitFor("its one-sided operations to complete", () -> {
      for (Window.Target t : w.targets.values()) {
        if (!locallyDone(t) || t.acksAwaited > 0) {
          return false;
        }
      }
      return true;
    });
  }

  /**
   * Waits for the previous fence's barrier, which the progress hook advances (after a reduce-scatter over the window
   * it has all it needs; MPICH leaves its request to complete in the background).
   */
  private void endBarrier(Window w) {
    if (w.barrierReceive != null) {
      rank.waitFor("the previous fence's barrier", () -> w.barrierReceive == null);
    }
  }

  /** MPICH's {@code MPIR_Ibarrier}: dissemination rounds of empty messages, advanced by the progress engine. */
  private void startBarrier(Window w) {
    w.access = Window.Access.FENCE_ISSUED;
    w.barrierDistance = 1;
    exclusively(() -> barrierRound(w));
  }

  private void barrierRound(Window w) {
    int n = w.comm.size();
    if (w.barrierDistance >= n) {
      w.barrierReceive = null;
      if (w.access == Window.Access.FENCE_ISSUED) {
        w.access = Window.Access.FENCE_GRANTED;
        for (Window.Target t : w.targets.values()) {
          issue(w, t, false, 0);
        }
      }
      return;
    }
    int r = w.comm.rank();
    int d = w.barrierDistance;
    rank.startSend(NO_BYTES, 0, 0, w.comm.worldRank((r + d) % n), BARRIER_TAG, w.comm.context(), w.comm);
    w.barrierReceive = rank.postReceive(NO_BYTES, 0, 0, w.comm.worldRank((r - d + n) % n), BARRIER_TAG,
        w.comm.context(), w.comm);
  }

  private void advanceBarrier(Window w) {
    while (w.barrierReceive != null && w.barrierReceive.complete) {
      w.barrierDistance <<= 1;
      barrierRound(w);
    }
  }

  // ------------------------------------------------------------------------------------------- passive target

  void lock(boolean exclusive, int target, int assertion, Window w) {
    check(w);
    checkTarget(w, target);
    checkAssertion(assertion);
    if (w.lockEpochs == 0 ? !noAccessEpoch(w) : w.access != Window.Access.LOCKS) {
      throw sync(w, "winLock", "inside a start epoch");
    }
    if (w.lockAll) {
      throw sync(w, "winLock", "inside a lock-all epoch (winUnlockAll ends it)");
    }
    if (w.lockEpochs > 0 && w.targets.containsKey(target)) {
      throw sync(w, "winLock", "of rank " + target + ", which this rank has locked already");
    }
    if (w.lockEpochs == 0) {
      checkNoFenceOperations(w, "winLock");
    }
    if (w.lockEpochs == 0) {
      endBarrier(w); // a fence's barrier may still be in flight: it ends here, as in MPICH's progress
    }
    w.access = Window.Access.LOCKS;
    w.lockEpochs++;
    Window.Target t = new Window.Target(target);
    t.exclusive = exclusive;
    t.noCheck = (assertion & Mpi.MODE_NOCHECK) != 0;
    w.targets.put(target, t);
    if (t.noCheck) {
      t.lock = Window.LockState.GRANTED;
    } else if (target == w.comm.rank()) {
      t.lock = Window.LockState.ISSUED;
      request(w, target, exclusive);
      rank.waitFor("the lock on its own window", () -> t.lock == Window.LockState.GRANTED);
    } else {
      t.lock = Window.LockState.ISSUED;
      exclusively(() -> sendEmpty(w, target, LOCK, exclusive ? F_EXCLUSIVE : 0));
    }
  }

  void unlock(int target, Window w) {
    check(w);
    if (w.lockAll) {
      throw sync(w, "winUnlock", "inside a lock-all epoch (winUnlockAll ends it)");
    }
    Window.Target t = locked(w, "winUnlock", target);
    if (target == w.comm.rank()) {
      if (!t.noCheck) {
        release(w, target);
      }
      rank.progress();
    } else {
      completeTargets(w, List.of(t), Completion.UNLOCK);
    }
    w.targets.remove(target);
    if (--w.lockEpochs == 0) {
      w.access = Window.Access.NONE;
    }
  }

  void flush(int target, Window w) {
    Window.Target t = locked(w, "winFlush", target);
    if (t == null || target == w.comm.rank()) {
      rank.progress();
      return;
    }
    completeTargets(w, List.of(t), Completion.FLUSH);
  }

  void flushLocal(int target, Window w) {
    Window.Target t = locked(w, "winFlushLocal", target);
    if (t == null || target == w.comm.rank()) {
      rank.progress();
      return;
    }
    completeTargets(w, List.of(t), Completion.FLUSH_LOCAL);
  }

  void flushAll(boolean remote, Window w) {
    check(w);
    if (w.access != Window.Access.LOCKS) {
      throw sync(w, remote ? "winFlushAll" : "winFlushLocalAll", "outside a passive-target epoch");
    }
    completeTargets(w, remoteTargets(w), remote ? Completion.FLUSH : Completion.FLUSH_LOCAL);
  }

  /** The targets of this rank's epochs on the window but itself. */
  private static List<Window.Target> remoteTargets(Window w) {
    List<Window.Target> remotes = new ArrayList<>();
    for (Window.Target t : w.targets.values()) {
      if (t.rank != w.comm.rank()) {
        remotes.add(t);
      }
    }
    return remotes;
  }

  /** How {@link #completeTargets} completes a passive-target epoch's operations. */
  private enum Completion {
    /** {@code MPI_Win_flush_local}: sent, no flag, done locally. */
    FLUSH_LOCAL,
    /** {@code MPI_Win_flush}: the last carries a flush, whose answer is awaited. */
    FLUSH,
    /**
     * {@code MPI_Win_unlock}: the last carries the unlock (an empty unlock request when none), answer awaited; with none
     * queued and every operation confirmed, an unlock that asks for no answer.
     */
    UNLOCK
  }

  /**
   * MPICH's flush_local, flush or unlock of some targets of a passive-target epoch (their locks granted first, then
   * every target's queue sent, then all awaited): locally, or with the last operation carrying a flush or the unlock
   * (an empty unlock request where nothing is queued) and the target's answer awaited. An unlock with nothing queued
   * and every operation confirmed (by a flush, or none made) asks for no answer and awaits none, as MPICH's
   * {@code MPIDI_CH3_PKT_FLAG_RMA_UNLOCK_NO_ACK} (since stop 76). Where nothing is queued but
   * operations sent earlier (by a flush_local) have not been confirmed, a flush or unlock sends an empty flush
   * request and awaits its answer (MPI 3.1 §11.5.4: both complete the operations at the target). With
   * {@code MODE_NOCHECK} no lock was taken: an unlock is a flush, and needs nothing when every operation is
   * confirmed.
   */
  private void completeTargets(Window w, List<Window.Target> ts, Completion how) {
    rank.waitFor("the locks of its targets' windows", () -> {
      for (Window.Target t : ts) {
        if (t.lock != Window.LockState.GRANTED) {
          return false;
        }
      }
      return true;
    });
    exclusively(() -> {
      for (Window.Target t : ts) {
        boolean unlock = how == Completion.UNLOCK && !t.noCheck;
        if (!t.queued.isEmpty()) {
          if (how != Completion.FLUSH_LOCAL) {
            t.acksAwaited++;
          }
          issue(w, t, true, how == Completion.FLUSH_LOCAL ? 0 : unlock ? F_UNLOCK : F_FLUSH);
        } else if (unlock && t.unconfirmed == 0) {
          // every operation is confirmed (a flush's answer, or none was made): the unlock asks for no answer and
          // none is awaited, as MPICH's issue_ops_target sends it with MPIDI_CH3_PKT_FLAG_RMA_UNLOCK_NO_ACK when
          // num_ops_flush_not_issued is 0 (ch3u_rma_progress.c); until stop 76 it waited for one, a round trip
          sendEmpty(w, t.rank, UNLOCK_NO_ACK, 0);
        } else if (unlock) {
          t.acksAwaited++;
          t.unconfirmed = 0;
          sendEmpty(w, t.rank, UNLOCK, 0);
        } else if (how != Completion.FLUSH_LOCAL && t.unconfirmed > 0) {
          // operations a flush_local sent are done here but perhaps not yet at the target: a flush (for an unlock
          // without a lock, MODE_NOCHECK, too) asks for its answer, as MPICH's issue_ops_target sends a flush message
          t.acksAwaited++;
          t.unconfirmed = 0;
          sendEmpty(w, t.rank, FLUSH, 0);
        }
      }
    });
    rank.waitFor("its targets to finish its operations" + (how == Completion.UNLOCK ? " and release their locks" : ""),
        () -> {
          for (Window.Target t : ts) {
            if (t.acksAwaited > 0 || !locallyDone(t)) {
              return false;
            }
          }
          return true;
        });
  }

  /**
   * Opens a passive-target epoch to every rank of the window ({@code MPID_Win_lock_all}): a shared lock of the rank's
   * own window at once; each other target's shared lock is requested when the first operation to it is made (MPICH
   * piggybacks the request on that operation; here it goes as its own empty packet just before).
   */
  void lockAll(int assertion, Window w) {
    check(w);
    checkAssertion(assertion);
    if (!noAccessEpoch(w)) {
      throw sync(w, "winLockAll", "inside another access epoch");
    }
    checkNoFenceOperations(w, "winLockAll");
    endBarrier(w);
    w.access = Window.Access.LOCKS;
    w.lockAll = true;
    w.lockAllNoCheck = (assertion & Mpi.MODE_NOCHECK) != 0;
    w.lockEpochs = 1;
    Window.Target self = new Window.Target(w.comm.rank());
    w.targets.put(self.rank, self);
    if (w.lockAllNoCheck) {
      self.noCheck = true;
      self.lock = Window.LockState.GRANTED;
    } else {
      self.lock = Window.LockState.ISSUED;
      request(w, self.rank, false);
      rank.waitFor("the lock on its own window", () -> self.lock == Window.LockState.GRANTED);
    }
  }

  private Window.Target lockAllTarget(Window w, int target) {
    Window.Target t = w.targets.get(target);
    if (t == null) {
      t = new Window.Target(target);
      w.targets.put(target, t);
      if (w.lockAllNoCheck) {
        t.noCheck = true;
        t.lock = Window.LockState.GRANTED;
      } else {
        t.lock = Window.LockState.ISSUED;
        exclusively(() -> sendEmpty(w, target, LOCK, 0));
      }
    }
    return t;
  }

  /** Ends a lock-all epoch ({@code MPID_Win_unlock_all}): every target's operations sent with the unlock, all awaited. */
  void unlockAll(Window w) {
    check(w);
    if (!w.lockAll) {
      throw sync(w, "winUnlockAll", "without a lock-all epoch (winLockAll)");
    }
    completeTargets(w, remoteTargets(w), Completion.UNLOCK);
    if (!w.lockAllNoCheck) {
      release(w, w.comm.rank());
    }
    rank.progress();
    w.targets.clear();
    w.lockAll = false;
    w.lockEpochs = 0;
    w.access = Window.Access.NONE;
  }

  private Window.Target locked(Window w, String what, int target) {
    check(w);
    checkTarget(w, target);
    Window.Target t = w.access == Window.Access.LOCKS ? w.targets.get(target) : null;
    if (t == null && !(w.lockAll && what.startsWith("winFlush"))) {
      throw sync(w, what, "of rank " + target + ", which this rank has not locked"
          + (w.lockAll ? " alone (winUnlockAll ends a lock-all epoch)" : ""));
    }
    return t; // null: a lock-all epoch's target this rank has sent nothing yet
  }

  /** A lock request at this target (from {@code origin}, or this rank itself): granted now, or queued. */
  private void request(Window w, int origin, boolean exclusive) {
    if (acquire(w, exclusive)) {
      grant(w, origin);
    } else {
      w.lockQueue.add(new int[] {origin, exclusive ? 1 : 0});
    }
  }

  private static boolean acquire(Window w, boolean exclusive) {
    if (w.exclusiveLock || (exclusive && w.sharedLocks > 0)) {
      return false;
    }
    if (exclusive) {
      w.exclusiveLock = true;
    } else {
      w.sharedLocks++;
    }
    return true;
  }

  /** Releases {@code origin}'s lock and grants the queued requests it allows, in order. */
  private void release(Window w, int origin) {
    if (w.exclusiveLock) {
      w.exclusiveLock = false;
    } else if (w.sharedLocks > 0) {
      w.sharedLocks--;
    }
    for (var it = w.lockQueue.iterator(); it.hasNext(); ) {
      int[] q = it.next();
      if (acquire(w, q[1] == 1)) {
        it.remove();
        grant(w, q[0]);
      }
    }
  }

  private void grant(Window w, int origin) {
    if (origin == w.comm.rank()) {
      w.targets.get(origin).lock = Window.LockState.GRANTED;
    } else {
      answer(w, origin, ANSWER_GRANTED);
    }
  }

  /**
   * Answers an origin, naming the target's own window index and world rank (the origin finds its window from them;
   * the target may answer before its creation's allgather has told it the origin's index).
   */
  private void answer(Window w, int origin, int what) {
    long payload = (long) w.index << 26 | (long) what << 22 | rank.worldRank;
    answers++;
    rank.control(w.comm.worldRank(origin), Rank.CQ_RMA, payload);
  }

  /** A target's answer, taken from a completion queue or the doorbell. */
  void control(long payload) {
    int targetIndex = (int) (payload >>> 26);
    int what = (int) (payload >>> 22) & 0xF;
    int targetWorld = (int) (payload & 0x3F_FFFF);
    Window.Target t = null;
    for (Window w : windows) {
      if (w.indices != null) {
        int r = w.comm.rankOfWorld(targetWorld);
        if (r >= 0 && w.indices[r] == targetIndex) {
          t = w.targets.get(r);
          break;
        }
      }
    }
    if (t == null) {
      throw new IllegalStateException("MPI rank " + rank.worldRank + ": a one-sided answer from rank " + targetWorld
          + " for no window it holds");
    }
    if (what == ANSWER_GRANTED) {
      t.lock = Window.LockState.GRANTED;
    } else {
      t.acksAwaited--;
    }
  }

  // ------------------------------------------------------------------------------------------- post, start

  void post(int[] group, int assertion, Window w) {
    check(w);
    checkAssertion(assertion);
    int[] g = checkGroup(w, group);
    if (w.exposed) {
      throw sync(w, "winPost", "inside an exposure epoch (winWait or winTest ends it)");
    }
    w.exposed = true;
    w.atCounter += g.length;
    if ((assertion & Mpi.MODE_NOCHECK) == 0) {
      exclusively(() -> {
        for (int r : g) {
          if (r != w.comm.rank()) {
            rank.startSend(NO_BYTES, 0, 0, w.comm.worldRank(r), POST_TAG, w.comm.context(), w.comm);
          }
        }
      });
    }
  }

  void start(int[] group, int assertion, Window w) {
    check(w);
    checkAssertion(assertion);
    int[] g = checkGroup(w, group);
    if (!noAccessEpoch(w)) {
      throw sync(w, "winStart", "inside another access epoch");
    }
    checkNoFenceOperations(w, "winStart");
    endBarrier(w);
    w.startGroup = g;
    w.startReceives.clear();
    if ((assertion & Mpi.MODE_NOCHECK) == 0) {
      for (int r : g) {
        if (r != w.comm.rank()) {
          w.startReceives.add(rank.postReceive(NO_BYTES, 0, 0, w.comm.worldRank(r), POST_TAG, w.comm.context(),
              w.comm));
        }
      }
    }
    w.access = Window.Access.PSCW_ISSUED;
    exclusively(() -> checkPosted(w));
  }

  private void checkPosted(Window w) {
    if (w.access == Window.Access.PSCW_ISSUED && allComplete(w.startReceives)) {
      w.access = Window.Access.PSCW_GRANTED;
      for (Window.Target t : w.targets.values()) {
        issue(w, t, false, 0);
      }
    }
  }

  void complete(Window w) {
    check(w);
    if (w.access != Window.Access.PSCW_ISSUED && w.access != Window.Access.PSCW_GRANTED) {
      throw sync(w, "winComplete", "without a start epoch");
    }
    rank.waitFor("its targets' posts (MPI_Win_complete)", () -> w.access == Window.Access.PSCW_GRANTED);
    exclusively(() -> {
      for (int r : w.startGroup) {
        Window.Target t = w.targets.get(r);
        if (r == w.comm.rank()) {
          w.atCounter--;
        } else if (t != null && !t.queued.isEmpty()) {
          issue(w, t, true, F_DECREMENT);
        } else {
          sendEmpty(w, r, DECREMENT, 0);
        }
      }
    });
    sendAllAndWait(w, 0, false);
    w.targets.clear();
    w.access = Window.Access.NONE;
    w.startGroup = null;
  }

  void waitExposure(Window w) {
    check(w);
    if (!w.exposed) {
      throw sync(w, "winWait", "without an exposure epoch (winPost)");
    }
    rank.waitFor("its origins to complete (MPI_Win_wait)", () -> w.atCounter == 0);
    w.exposed = false;
  }

  boolean testExposure(Window w) {
    check(w);
    if (!w.exposed) {
      throw sync(w, "winTest", "without an exposure epoch (winPost)");
    }
    long passStartedPs = rank.now();
    rank.progress();
    if (w.atCounter == 0) {
      w.exposed = false;
      return true;
    }
    rank.emptyPoll(passStartedPs);
    return false;
  }

  // ------------------------------------------------------------------------------------------- target side

  /** A one-sided packet has arrived (in this rank's progress engine). */
  void arrive(Rank.Incoming m) {
    Window w = byContext.get(m.context);
    if (w == null) {
      throw new IllegalStateException("MPI rank " + rank.worldRank + ": a one-sided packet for a window it does"
          + " not hold (context " + m.context + ")");
    }
    int origin = w.comm.rankOfWorld(m.sourceWorld);
    int code = m.rma & 0xF;
    int flags = m.rma >>> 4 & 0xF;
    switch (code) {
      case PUT -> {
        opArrived(w, origin, flags);
        Request r = receive(w, m, w.base, m.tag);
        r.onComplete = () -> opDone(w, origin);
        rank.bind(r, m);
      }
      case ACCUMULATE -> {
        opArrived(w, origin, flags);
        ReduceOp op = ReduceOp.values()[(m.rma >>> 8 & 0xF) - 1];
        ElementType type = (m.rma >>> 12 & 1) == 1 ? ElementType.DOUBLE : ElementType.LONG;
        byte[] data = new byte[m.length];
        int at = m.tag;
        // MPI's default accumulate_ordering (rar,raw,war,waw, MPI 3.1 §11.7.2): an origin's accumulates are combined
        // in the order it issued them, though a short one's data is here at once and an eager or rendezvous one's
        // comes later (MPICH's target applies them as its channel delivers them, in order)
        Window.Accumulate a = new Window.Accumulate(() -> {
          rank.spend(rank.reducePs(data.length));
          type.reduce(op, w.base, at, data, 0, data.length / ElementType.BYTES);
          opDone(w, origin);
        });
        w.accumulates.computeIfAbsent(origin, o -> new ArrayDeque<>()).add(a);
        Request r = receive(w, m, data, 0);
        r.onComplete = () -> {
          a.received = true;
          applyAccumulates(w, origin);
        };
        rank.bind(r, m);
      }
      case GET -> {
        opArrived(w, origin, flags);
        int length = (int) LittleEndian.get(m.payload, 0, 4);
        int id = (int) LittleEndian.get(m.payload, 4, 8);
        int at = m.tag;
        int to = m.sourceWorld;
        deferred.add(() -> {
          packets++;
          Request s = rank.startSend(w.base, at, length, to, id, w.comm.context(), w.comm, false,
              word(GET_RESPONSE, 0, null, null));
          if (s.complete) {
            opDone(w, origin);
          } else {
            s.onComplete = () -> opDone(w, origin);
          }
        });
      }
      case GET_RESPONSE -> {
        PendingGet g = gets.remove(m.tag);
        Request r = new Request(Request.Kind.RECEIVE, rank.nextRequestId(), w.comm, m.context, m.sourceWorld,
            m.tag, g.buffer(), g.offset(), g.length());
        r.onComplete = () -> g.target().getsPending--;
        rank.bind(r, m);
      }
      case LOCK -> request(w, origin, (flags & F_EXCLUSIVE) != 0);
      case UNLOCK -> flagArrived(w, origin, F_UNLOCK);
      case UNLOCK_NO_ACK -> flagArrived(w, origin, F_UNLOCK_NO_ACK);
      case FLUSH -> flagArrived(w, origin, F_FLUSH);
      case DECREMENT -> flagArrived(w, origin, F_DECREMENT);
      default -> throw new IllegalStateException("MPI rank " + rank.worldRank + ": unknown one-sided packet " + code);
    }
  }

  /** Combines {@code origin}'s accumulates whose data is here, in the order they arrived, up to the first that is not. */
  private static void applyAccumulates(Window w, int origin) {
    ArrayDeque<Window.Accumulate> q = w.accumulates.get(origin);
    while (!q.isEmpty() && q.peek().received) {
      q.poll().apply.run();
    }
  }

  private Request receive(Window w, Rank.Incoming m, byte[] into, int at) {
    return new Request(Request.Kind.RECEIVE, rank.nextRequestId(), w.comm, m.context, m.sourceWorld, m.tag, into,
        at, m.length);
  }

  private static void opArrived(Window w, int origin, int flags) {
    w.pending[origin]++;
    w.pendingFlags[origin] |= flags;
  }

  private void flagArrived(Window w, int origin, int flag) {
    w.pendingFlags[origin] |= flag;
    if (w.pending[origin] == 0) {
      actOnFlags(w, origin);
    }
  }

  private void opDone(Window w, int origin) {
    if (--w.pending[origin] == 0 && w.pendingFlags[origin] != 0) {
      actOnFlags(w, origin);
    }
  }

  /** Every operation of {@code origin} before its flags is done: count it, release its lock, answer it. */
  private void actOnFlags(Window w, int origin) {
    int f = w.pendingFlags[origin];
    w.pendingFlags[origin] = 0;
    if ((f & F_DECREMENT) != 0) {
      w.atCounter--;
    }
    if ((f & F_UNLOCK) != 0) {
      release(w, origin);
      answer(w, origin, ANSWER_DONE);
    } else if ((f & F_UNLOCK_NO_ACK) != 0) {
      // (MPICH's MPIDI_CH3_PktHandler_Unlock: the lock released, no ack sent for UNLOCK_NO_ACK)
      release(w, origin);
      if ((f & F_FLUSH) != 0) {
        answer(w, origin, ANSWER_DONE);
      }
    } else if ((f & F_FLUSH) != 0) {
      answer(w, origin, ANSWER_DONE);
    }
  }

  /** MPICH's RMA progress hook: answers GETs, advances fence barriers and sends what grants allow. */
  void progress() {
    if (busy || (windows.isEmpty() && deferred.isEmpty())) {
      return;
    }
    busy = true;
    try {
      Runnable r;
      while ((r = deferred.poll()) != null) {
        r.run();
      }
      for (Window w : windows) {
        advanceBarrier(w);
        checkPosted(w);
        if (w.access == Window.Access.LOCKS) {
          for (Window.Target t : w.targets.values()) {
            if (t.lock == Window.LockState.GRANTED) {
              issue(w, t, false, 0);
            }
          }
        }
      }
    } finally {
      busy = false;
    }
    if (!deferred.isEmpty()) {
      // a GET came while this hook's own sends waited for credits: answer it on the next pass, not after the next event
      rank.moreLocalWork();
    }
  }

  // ------------------------------------------------------------------------------------------- checks

  private void check(Window w) {
    checkArgument(w != null, "win must not be null");
    if (w.owner != rank) {
      throw new IllegalArgumentException("win must be a window this rank holds (made by its own winCreate) but was "
          + w);
    }
    if (w.freed) {
      throw new IllegalArgumentException("win must not be freed but was " + w);
    }
  }

  private static void checkTarget(Window w, int target) {
    if (target < 0 || target >= w.comm.size()) {
      throw new IllegalArgumentException("target must be in [0, " + (w.comm.size() - 1) + "] but was " + target);
    }
  }

  private static void checkAssertion(int assertion) {
    int all = Mpi.MODE_NOCHECK | Mpi.MODE_NOSTORE | Mpi.MODE_NOPUT | Mpi.MODE_NOPRECEDE | Mpi.MODE_NOSUCCEED;
    checkArgument((assertion & ~all) == 0, "assertion must be an OR of Mpi.MODE_* bits (%s) but was %s", all,
        assertion);
  }

  private static int[] checkGroup(Window w, int[] group) {
    checkArgument(group != null, "group must not be null");
    int[] g = group.clone();
    boolean[] seen = new boolean[w.comm.size()];
    for (int r : g) {
      checkTarget(w, r);
      checkArgument(!seen[r], "group must not name a rank twice but named %s twice", r);
      seen[r] = true;
    }
    return g;
  }

  /**
   * No access epoch but a fence's, which the next epoch's opening call may end (MPICH cannot tell a fence epoch that
   * its last fence closed from one still open, so it accepts both: its {@code **rmasync} check).
   */
  private static boolean noAccessEpoch(Window w) {
    return w.access == Window.Access.NONE || w.access == Window.Access.FENCE_ISSUED
        || w.access == Window.Access.FENCE_GRANTED;
  }

  /**
   * Refuses to open a lock, lock-all or start epoch over a fence epoch whose operations no fence has completed yet
   * (MPI 3.1 §11.5: a fence must end them first; MPICH's {@code MPID_Win_lock} returns {@code **rmasync} when the
   * target already has an entry). Until stop 74 a lock dropped them, a lock-all kept them for ever and a start sent
   * them to ranks in no epoch.
   */
  private void checkNoFenceOperations(Window w, String what) {
    if (w.access != Window.Access.FENCE_ISSUED && w.access != Window.Access.FENCE_GRANTED) {
      return;
    }
    if (!w.targets.isEmpty()) { // a fence epoch's targets are those its operations went to since its last fence
      throw sync(w, what, "inside a fence epoch with operations to rank " + w.targets.firstKey() + " no fence has"
          + " completed (call winFence first)");
    }
  }

  private static boolean allComplete(List<Request> rs) {
    for (Request r : rs) {
      if (!r.complete) {
        return false;
      }
    }
    return true;
  }

  private static boolean contains(int[] group, int r) {
    for (int x : group) {
      if (x == r) {
        return true;
      }
    }
    return false;
  }

  private IllegalStateException sync(Window w, String what, String why) {
    return new IllegalStateException("MPI_ERR_RMA_SYNC at rank " + rank.worldRank + ": " + what + " on window #"
        + w.index + " " + why);
  }
}
