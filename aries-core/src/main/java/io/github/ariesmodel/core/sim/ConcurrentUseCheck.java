package io.github.ariesmodel.core.sim;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A cheap guard on a component that is not thread-safe (a NIC, an IOMMU): its entry points enter and exit it, and a
 * thread entering while another thread is inside fails fast with {@link IllegalStateException} naming both threads,
 * instead of corrupting the component's state.
 *
 * <p>Scope, chosen so that hand-over designs keep working: the check is on overlapping calls, not on the identity
 * of the calling thread. Simulated processes that run as threads handing control to one another (the SHMEM/MPI
 * process runner: one runs at a time, the hand-over is a semaphore) use a component from several threads, never at
 * once, and pass. Two threads that really use it at the same time are caught when their calls overlap, which is
 * where corruption happens; a race so narrow that the calls never overlap in an entry point may go unnoticed.
 * Re-entry from the thread inside (a NIC's delivery calling its IOMMU, an event calling {@code post}) is allowed.
 *
 * <p>Memory ordering. {@link #exit()} is a release store. An outer {@link #enter()} by a thread other than the one
 * that entered last is a compare-and-set (a full fence). An outer {@link #enter()} by the thread that entered last,
 * finding nobody inside, is an opaque store: no locked instruction, which is what a component called again and again
 * from one thread (the simulator's event loop, a benchmark) pays on every call. What each case gives:
 *
 * <ul>
 *   <li>Hand-over: whatever hands control from one thread to the next (a semaphore, a join, a lock) orders the first
 *       thread's exit, and its record of having entered last, before the second thread's entry. The second finds
 *       the guard empty and itself not the last, enters by compare-and-set and becomes the last. Nothing is
 *       reported.
 *   <li>Overlap: a thread entering while another is inside finds it there once the other's entry store (a
 *       compare-and-set or an opaque store) is visible, and fails. The release store on exit does not delay that in
 *       any way that could hide an overlap: it differs from a volatile store only in letting the exiting thread's
 *       own later reads run ahead of it (on x86 HotSpot, the same store without the fence after it).
 *   <li>What the opaque entry gives up: two threads entering at almost the same moment, one of them the thread that
 *       entered last, can both pass, because that thread's entry store may still be on its way (in its core's store
 *       buffer, a few nanoseconds) when the other reads the field and compares-and-sets. Two compare-and-sets could
 *       not both succeed. Such a pair is often caught a moment later all the same: one of the two entry stores is
 *       left in the field, so the other thread's next nested call finds a thread other than itself there and fails.
 *       Overlaps that begin further apart than that are caught as before. The guard is a fail-fast check against
 *       misuse, not a lock: it never promised to see a race whose calls do not overlap (above).
 * </ul>
 *
 * <p>Cost: one plain read for a nested call; for an outer one, one read, one compare and one opaque store on entry
 * when the same thread entered last (else a compare-and-set), and one release store on exit.
 */
public final class ConcurrentUseCheck {

  private static final VarHandle INSIDE;

  static {
    try {
      INSIDE = MethodHandles.lookup().findVarHandle(ConcurrentUseCheck.class, "inside", Thread.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final String component;
  /** The thread inside, or null; written on entry (compare-and-set or opaque store) and by a release store on exit. */
  @SuppressWarnings("unused") // accessed through INSIDE
  private volatile Thread inside;
  /**
   * The thread whose compare-and-set entered last: it enters again with an opaque store while nobody is inside.
   * Written only by a thread that has just entered, before its exit's release store.
   */
  private Thread lastEntered;

  /**
   * A guard for one component.
   *
   * @param component how messages name it, e.g. {@code "Nic of node 3"}
   */
  public ConcurrentUseCheck(String component) {
    this.component = component;
  }

  /**
   * Enters the component.
   *
   * @return true when this call entered (call {@link #exit()} when done), false for a nested call of the thread
   *     already inside (do not exit)
   * @throws IllegalStateException when another thread is inside
   */
  public boolean enter() {
    Thread me = Thread.currentThread();
    Thread holder = (Thread) INSIDE.getAcquire(this);
    if (holder == me) {
      return false;
    }
    if (holder == null) {
      if (lastEntered == me) {
        // The thread that entered last enters again and nobody is inside: a thread that had entered since would
        // have made itself the last. What this misses, a thread entering at this very moment, is in the class
        // comment.
        INSIDE.setOpaque(this, me);
        return true;
      }
      if (INSIDE.compareAndSet(this, null, me)) {
        lastEntered = me;
        return true;
      }
    }
    Thread other = (Thread) INSIDE.getVolatile(this);
    throw new IllegalStateException(component + " is not thread-safe: thread \"" + me.getName()
        + "\" called it while thread \"" + (other == null ? "?" : other.getName()) + "\" was using it; use it from"
        + " one thread at a time");
  }

  /** Leaves the component (after an {@link #enter()} that returned true). */
  public void exit() {
    INSIDE.setRelease(this, null);
  }
}
