package io.github.ariesmodel.core.sim;

import java.util.concurrent.atomic.AtomicReference;

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
 * <p>Cost: one volatile read for a nested call, one compare-and-set and one volatile write for an outer one.
 */
public final class ConcurrentUseCheck {

  private final String component;
  private final AtomicReference<Thread> inside = new AtomicReference<>();

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
    Thread holder = inside.get();
    if (holder == me) {
      return false;
    }
    if (holder == null && inside.compareAndSet(null, me)) {
      return true;
    }
    Thread other = inside.get();
    throw new IllegalStateException(component + " is not thread-safe: thread \"" + me.getName()
        + "\" called it while thread \"" + (other == null ? "?" : other.getName()) + "\" was using it; use it from"
        + " one thread at a time");
  }

  /** Leaves the component (after an {@link #enter()} that returned true). */
  public void exit() {
    inside.set(null);
  }
}
