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
 * <p>Memory ordering: an outer {@link #enter()} is a compare-and-set (a full fence), {@link #exit()} a release
 * store. The release store is enough for every case the guard accepts or rejects:
 *
 * <ul>
 *   <li>Hand-over: whatever hands control from one thread to the next (a semaphore, a join, a lock) orders the first
 *       thread's exit before the second thread's compare-and-set, so the second finds the guard empty, as with a
 *       volatile store.
 *   <li>Overlap: a thread entering while another is between its compare-and-set and its exit finds it there, since
 *       that compare-and-set is in the field's single modification order and the exit's store has not come after
 *       it yet. A release store differs from a volatile one only in letting the exiting thread's own later
 *       reads run ahead of it (on x86 HotSpot it is the same store without the fence after it), so it does not
 *       make the exit visible later in any way that could hide an overlap: at most an exit may look later to a
 *       racing thread by the time the store takes to drain, which can only turn a race that almost overlapped into
 *       a reported one.
 * </ul>
 *
 * <p>What the release store gives up against a volatile one is the store-load fence after it (the exiting thread's
 * next reads may be satisfied before its exit is visible). Nothing the guard reports depends on that: the only later
 * read of the field by the same thread is its own next {@link #enter()}, which sees its own store.
 *
 * <p>Cost: one plain read for a nested call; one compare-and-set and one plain (release) store for an outer one.
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
  /** The thread inside, or null; written by compare-and-set on entry and by a release store on exit. */
  @SuppressWarnings("unused") // accessed through INSIDE
  private volatile Thread inside;

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
    if (holder == null && INSIDE.compareAndSet(this, null, me)) {
      return true;
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
