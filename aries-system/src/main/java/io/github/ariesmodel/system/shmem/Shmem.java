package io.github.ariesmodel.system.shmem;

import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.Status;
import java.util.function.LongPredicate;

/**
 * A processing element's view of a SHMEM-like job, in simulated time: one-sided put and get, remote atomics, quiet,
 * fence and barrier, over the simulated Aries NIC. Calls that wait (blocking get, fetching atomics, quiet, barrier,
 * waitUntil) let simulated time pass; the blocking puts ({@link #putmem}, {@link #put}) return when their source may
 * be reused; the rest return as soon as the NIC has accepted the post.
 *
 * <p>Semantics follow OpenSHMEM loosely: puts complete at their target at {@link #quiet()};
 * {@link #fence()} is implemented as {@link #quiet()} (stronger than required); {@link #barrierAll()} implies quiet.
 * A modelled fault at the target (bad MDH, bounds, permission, translation) does not throw: the operation touches no
 * memory, the job counts it ({@link ShmemJob#faults()}), and {@link #lastStatus()} reports it.
 *
 * <p>With several PEs a node, a put or get to another PE of the same node is by default a CPU copy through shared
 * memory ({@link ShmemJob.Builder#sharedMemory(boolean)}): the call returns when the copy is done (so it is complete
 * at once, for {@link #quiet()} as for a blocking get), its time is the copy's, and the NIC sees none of it. Atomics
 * always go through the NIC. What this interface says of a put's or get's NIC transactions, staging buffer and
 * events is of the NIC path.
 *
 * <p>A handle is its PE's, for its program during a run: every method but {@link #myPe()}, {@link #nPes()} and
 * {@link #node()} refuses, with an {@link IllegalStateException} naming the handle's PE and its user and changing
 * nothing, a call from another PE's program, from a program of another job, or after the run. A condition given to
 * {@link #waitUntil} may call its own PE's handle (the runner may test it on another thread) to read: {@link #now()},
 * {@link #myPe()}, {@link #nPes()}, {@link #node()}, {@link #localLong}, {@link #localBytes}, {@link #remoteEvents()}
 * and {@link #lastStatus()} (and the stores of {@code localLong} and {@code localBytes}); a call of any other method
 * from it, which would post, wait or let time pass, is refused before anything is posted, with an {@link
 * IllegalStateException} naming the method, which the program's {@code waitUntil} throws (since stop 74; such calls
 * failed in different ways as the condition was tested first on the PE's thread or later from an event).
 */
public interface Shmem {

  /** @return this PE's index, 0 to nPes - 1 */
  int myPe();

  /** @return number of PEs in the job */
  int nPes();

  /** @return the node this PE runs on */
  int node();

  /** @return simulated time now, picoseconds */
  long now();

  /**
   * Lets simulated time pass for local computation.
   *
   * @param ps picoseconds, 0 to what is left from now of a program's clock (to
   *     {@link io.github.ariesmodel.system.AriesSystem#PROGRAM_CLOCK_END_PS})
   * @throws IllegalArgumentException when {@code ps} is negative or would end past that, naming the range; nothing
   *     changes
   */
  void compute(long ps);

  /**
   * Puts bytes from this PE's own symmetric object into another PE's (the NIC reads the source from registered
   * memory; no host copy). Like {@code shmem_putmem}, it returns when the source may be reused: when the NIC's LOCAL
   * event says every request of it has left (the NIC reads a put's source as each packet issues, an FMA PUT's too:
   * docs/nic.md, "Source pipeline"); it completes at the target at {@link #quiet()}. Until stop 74 it returned once
   * posted, as {@link #putmemNbi} does, and a source changed before the quiet sent the new bytes.
   * The target learns of it by testing its memory ({@link #waitUntil}); a job built with
   * {@link ShmemJob.Builder#remoteEvents(boolean) remoteEvents(true)} also asks for a REMOTE event there.
   *
   * <p>A put longer than one NIC transaction (2^32 - 1 bytes, the BTE's 32-bit {@code xfer_len} [S6a]) is posted as
   * several, as DMAPP must (cut on 64-byte boundaries of {@code destOffset}, so no packet changes:
   * {@link ShmemJob#nicTransactions}); each asks for its own remote event when the job asks for them, and the put
   * completes at {@link #quiet()}
   * when all have. A fault in any of them is one faulted operation, as a single transaction's.
   *
   * @param dest destination object
   * @param destOffset byte offset in it
   * @param src source object (this PE's copy)
   * @param srcOffset byte offset in it
   * @param length bytes, 0 up to what both objects hold past their offsets (a symmetric object is at most 2^40 bytes)
   * @param pe target PE
   */
  void putmem(Symmetric dest, long destOffset, Symmetric src, long srcOffset, long length, int pe);

  /**
   * {@link #putmem}, returning once posted, as {@code shmem_putmem_nbi}: the source must not change before {@link
   * #quiet()} (what {@code putmem} did until stop 74). Split, its remote events and its faults as {@code putmem}'s.
   *
   * @param dest destination object
   * @param destOffset byte offset in it
   * @param src source object (this PE's copy)
   * @param srcOffset byte offset in it
   * @param length bytes, 0 up to what both objects hold past their offsets (a symmetric object is at most 2^40 bytes)
   * @param pe target PE
   */
  void putmemNbi(Symmetric dest, long destOffset, Symmetric src, long srcOffset, long length, int pe);

  /**
   * Puts a Java array into another PE's symmetric object: the bytes are first copied into a registered staging
   * buffer of this PE (host copy, untimed), then sent. Completes at {@link #quiet()}.
   *
   * @param dest destination object
   * @param destOffset byte offset in it
   * @param data the bytes (at most the staging buffer's size)
   * @param pe target PE
   */
  void put(Symmetric dest, long destOffset, byte[] data, int pe);

  /**
   * Puts one 64-bit word, as Cray SHMEM's {@code shmem_long_p}: an 8-byte FMA PUT whose data the CPU stores with
   * the descriptor ({@code Post.putValue}), so it needs no staging buffer and the value lands whole (one aligned
   * word, one packet). A target waiting on it in {@link #waitUntil} wakes when the write is visible in its memory.
   * Completes at {@link #quiet()}.
   *
   * @param dest destination object
   * @param destOffset byte offset, 8-byte aligned
   * @param value the word
   * @param pe target PE
   */
  void putLong(Symmetric dest, long destOffset, long value, int pe);

  /**
   * Gets bytes from another PE's symmetric object into this PE's own (blocking). A get longer than one NIC
   * transaction (2^32 - 1 bytes, the BTE's 32-bit {@code xfer_len} [S6a]) is posted as several, cut on 64-byte
   * boundaries of {@code srcOffset} ({@link ShmemJob#nicTransactions}), and returns when all have completed; a fault
   * in any of them is one faulted operation.
   *
   * <p>A NIC GET reads whole 4-byte words (uGNI's {@code GNI_RC_ALIGNMENT_ERROR}, docs/nic.md), so a get whose
   * {@code srcOffset} or {@code length} is not a multiple of 4 reads the words that hold it: up to 64 such bytes into
   * an internal bounce slot, a longer range's aligned interior straight into {@code dest} and its head and tail words
   * into the slot (one or two posts more); the PE's core then copies only the bytes asked, so no other byte of
   * {@code dest} changes (since stop 75; the NIC took unaligned FMA GETs before).
   *
   * @param dest this PE's object
   * @param destOffset byte offset in it
   * @param src the remote object
   * @param srcOffset byte offset in it
   * @param length bytes, 0 up to what both objects hold past their offsets (a symmetric object is at most 2^40 bytes);
   *     0 is a no-op, as a get of no elements is in OpenSHMEM: nothing is posted (uGNI refuses a zero-length GET [S5])
   *     and the call returns at once (until stop 74 it was refused and failed the program)
   * @param pe source PE
   */
  void getmem(Symmetric dest, long destOffset, Symmetric src, long srcOffset, long length, int pe);

  /**
   * Gets bytes from another PE into a new Java array (blocking; through this PE's staging buffer).
   *
   * @param src the remote object
   * @param srcOffset byte offset in it
   * @param length bytes, 0 to the staging buffer's size (0: an empty array, nothing posted, as {@link #getmem})
   * @param pe source PE
   * @return the bytes (zeros where a fault prevented the read)
   */
  byte[] get(Symmetric src, long srcOffset, int length, int pe);

  /**
   * A remote atomic operation. A fetching operation blocks and returns the old value; a non-fetching one returns 0
   * at once and completes at {@link #quiet()}.
   *
   * <p>A 32-bit operation's old value is its 4 bytes zero-extended, as the NIC returns them (docs/nic.md, "AMO
   * unit"), not sign-extended: a target int of -1 returns 4294967295. OpenSHMEM's fetching atomics return the target's
   * type, which this one method cannot know: a 32-bit operation serves {@code shmem_int_*}, {@code shmem_uint32_*} and
   * {@code shmem_float_*} alike, and an {@link AmoOperation} does not say which. Zero-extension keeps the word's 32 bits
   * as they are for all of them, so the caller takes its type from them: {@code (int) r} for an int (what {@code
   * shmem_int_atomic_fetch_add} returns), {@code r} itself for an unsigned 32-bit value, {@code
   * Float.intBitsToFloat((int) r)} for a float. A 64-bit operation's old value is the word.
   *
   * @param op the operation
   * @param dest the object
   * @param offset naturally aligned byte offset
   * @param operand1 first operand (CSWAP: compare; AX: AND mask)
   * @param operand2 second operand (CSWAP: swap; AX: XOR mask)
   * @param pe target PE
   * @return the old value for fetching operations (a 32-bit one's zero-extended, above), else 0
   */
  long atomic(AmoOperation op, Symmetric dest, long offset, long operand1, long operand2, int pe);

  /**
   * Fetch-and-add on a 64-bit word (uGNI {@code FIADD}).
   *
   * @param dest the object
   * @param offset 8-byte aligned offset
   * @param value the addend
   * @param pe target PE
   * @return the old value
   */
  long atomicFetchAdd(Symmetric dest, long offset, long value, int pe);

  /**
   * Non-fetching add on a 64-bit word (uGNI {@code IADD}); completes at {@link #quiet()}.
   *
   * @param dest the object
   * @param offset 8-byte aligned offset
   * @param value the addend
   * @param pe target PE
   */
  void atomicAdd(Symmetric dest, long offset, long value, int pe);

  /**
   * Compare-and-swap on a 64-bit word (uGNI {@code FCSWAP}).
   *
   * @param dest the object
   * @param offset 8-byte aligned offset
   * @param expected the compare value
   * @param desired the new value if the old equals {@code expected}
   * @param pe target PE
   * @return the old value
   */
  long atomicCompareSwap(Symmetric dest, long offset, long expected, long desired, int pe);

  /**
   * Gets bytes from another PE's symmetric object into this PE's own without waiting; completes at {@link #quiet()}
   * (when every NIC transaction of it has: split as {@link #getmem}'s). An unaligned get is read as {@link #getmem}'s
   * is; the PE copies its bytes out of the bounce slot at {@code quiet}, when it needs the slot, or when its program
   * returns.
   *
   * @param dest this PE's object
   * @param destOffset byte offset in it
   * @param src the remote object
   * @param srcOffset byte offset in it
   * @param length bytes, 0 up to what both objects hold past their offsets (a symmetric object is at most 2^40 bytes);
   *     0 is a no-op, as {@link #getmem}'s
   * @param pe source PE
   */
  void getmemNbi(Symmetric dest, long destOffset, Symmetric src, long srcOffset, long length, int pe);

  /**
   * Remote events written at this PE so far, in a job built with {@link ShmemJob.Builder#remoteEvents(boolean)
   * remoteEvents(true)}: there every put and atomic of the program asks for one at its target, so this counts the
   * transactions that have arrived here (uGNI's remote CQ events [S5]); {@link #barrierAll()}'s own atomics ask for
   * none (since stop 74: the barrier is the library's synchronisation, not the program's RMA, and its atomics counted
   * here before); a put longer than one transaction is several
   * ({@link ShmemJob#nicTransactions}). A put's event comes with its last packet: it
   * may come before an earlier packet's data, with adaptive routing or when that packet's translation misses the PTE
   * cache (docs/nic.md, "Events"); the data of a single-packet put is there with its event.
   *
   * @return the count
   * @throws IllegalStateException in a job built without {@code remoteEvents(true)} (its puts ask for none: it would
   *     always be 0), or when the PE's remote-event queue has overrun (it dropped events, which no count can include:
   *     uGNI's {@code GNI_CqGetEvent} answers {@code GNI_RC_ERROR_RESOURCE} [S5]); it fills only while no run of this
   *     job takes its events, as while another job built on the node since holds the NIC's completion listener
   */
  long remoteEvents();

  /**
   * Waits until at least {@code count} remote events have been written at this PE.
   *
   * @param count the count to reach
   * @throws IllegalStateException in a job built without {@link ShmemJob.Builder#remoteEvents(boolean)
   *     remoteEvents(true)} (it would wait for ever; use {@link #waitUntil}), or when the PE's remote-event queue has
   *     overrun, before or while it waits (as {@link #remoteEvents()})
   */
  void waitRemoteEvents(long count);

  /** Waits until every put and non-fetching atomic of this PE has completed at its target. */
  void quiet();

  /** Orders earlier puts before later ones (implemented as {@link #quiet()}). */
  void fence();

  /** Waits until every PE has reached the barrier, after a quiet (a dissemination barrier of remote atomics). */
  void barrierAll();

  /**
   * Waits until a 64-bit word of this PE's own object satisfies a condition, as {@code shmem_wait_until} spins on
   * memory: the condition is tested again whenever the NIC writes the word (a put's data, {@link #putLong}, an
   * atomic's result or write-back), from the time the host can see the write ({@link
   * io.github.ariesmodel.nic.HostWriteListener}), and whenever one of this PE's own operations completes. The poll
   * that sees the awaited value costs its load through the host cache. A condition that also reads other words is
   * not woken by their writes. The condition may only read (see the interface's note on which calls of this handle it
   * may make): a call from it that would post, wait or let time pass is refused, and waitUntil throws the refusal.
   *
   * @param obj this PE's object
   * @param offset 8-byte aligned offset
   * @param condition tested on the word's value
   */
  void waitUntil(Symmetric obj, long offset, LongPredicate condition);

  /**
   * Reads a 64-bit word of this PE's own object (host CPU access, untimed).
   *
   * @param obj the object
   * @param offset 8-byte aligned offset
   * @return the word
   */
  long localLong(Symmetric obj, long offset);

  /**
   * Writes a 64-bit word of this PE's own object (host CPU access, untimed).
   *
   * @param obj the object
   * @param offset 8-byte aligned offset
   * @param value the word
   */
  void localLong(Symmetric obj, long offset, long value);

  /**
   * Reads bytes of this PE's own object (host CPU access, untimed).
   *
   * @param obj the object
   * @param offset byte offset
   * @param length bytes
   * @return the bytes
   */
  byte[] localBytes(Symmetric obj, long offset, int length);

  /**
   * Writes bytes of this PE's own object (host CPU access, untimed).
   *
   * @param obj the object
   * @param offset byte offset
   * @param data the bytes
   */
  void localBytes(Symmetric obj, long offset, byte[] data);

  /** @return the status of this PE's most recent completed operation that failed, or OK when none failed */
  Status lastStatus();
}
