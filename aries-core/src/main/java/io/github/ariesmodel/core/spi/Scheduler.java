package io.github.ariesmodel.core.spi;

/**
 * The clock and event queue of a simulation (a driven port: every component that models time calls it). Time is a
 * {@code long} of picoseconds. Events at equal times run in the order they were scheduled (an event scheduled for
 * "now" from inside a handler runs after those already waiting at that time), so a run is a function of its
 * configuration and seed alone. While an event runs, {@link #now()} is its time; time never goes backwards. The port
 * has no cancellation, and running the events is the owner's business (the event loop's {@code run} methods; the
 * built-in loop and engine can also remove a handler's pending events at the end of a phase, their {@code remove}).
 *
 * <p>{@code io.github.ariesmodel.testkit.core.SchedulerContract} (aries-testkit) checks an implementation against
 * this contract.
 *
 * <p>The built-in implementation is {@link io.github.ariesmodel.core.sim.DeterministicEventLoop}.
 */
public interface Scheduler {

  /** @return the current simulated time, picoseconds */
  long now();

  /**
   * Schedules an event at an absolute time.
   *
   * @param timePs when, ≥ {@link #now()}
   * @param handler what to call
   * @param ref an object passed back to the handler (may be null)
   * @param arg a long passed back to the handler
   * @throws IllegalArgumentException when {@code timePs} is before now (the message names it) or the handler is null
   */
  void scheduleAt(long timePs, EventHandler handler, Object ref, long arg);

  /**
   * Schedules an event after a delay.
   *
   * @param delayPs how long from now, in [0, {@code Long.MAX_VALUE - now()}] (ending within the clock)
   * @param handler what to call
   * @param ref an object passed back to the handler (may be null)
   * @param arg a long passed back to the handler
   * @throws IllegalArgumentException when {@code delayPs} is negative or would end past {@code Long.MAX_VALUE}
   */
  default void scheduleAfter(long delayPs, EventHandler handler, Object ref, long arg) {
    long now = now();
    if (delayPs < 0 || delayPs > Long.MAX_VALUE - now) {
      // now + delayPs past the clock's end wrapped to a negative time, reported as a timePs never given
      throw new IllegalArgumentException("delayPs must be in [0, " + (Long.MAX_VALUE - now)
          + "] (to end within the clock from now, " + now + " ps) but was " + delayPs);
    }
    scheduleAt(now + delayPs, handler, ref, arg);
  }

  /**
   * Refuses a call from a thread that may not use this clock now, before the caller changes anything: for a
   * component whose entry point changes its own state first and schedules after (a NIC's post, an IOMMU's
   * translation), which the scheduling call's own refusal would leave half done. The built-in loop and engine refuse a
   * thread other than the owner of the loop (with no owner yet, any thread passes: its first scheduling call makes it
   * the owner); the default accepts every thread (an implementation that is not held to one thread).
   *
   * <p>Cost: the built-in loop's is one field compare, as its own scheduling check.
   *
   * @param call what was called, for the message ({@code "Nic.post"})
   * @throws IllegalStateException naming the call and both threads
   */
  default void checkCaller(String call) {}
}
