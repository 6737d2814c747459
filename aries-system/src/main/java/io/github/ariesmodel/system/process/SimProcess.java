package io.github.ariesmodel.system.process;

import java.util.function.BooleanSupplier;

/**
 * One simulated process as its own code sees it: a clock, and ways to let simulated time pass. A process's code is
 * ordinary sequential Java; every call here that lets time pass suspends the process and lets the event loop run
 * until the process is due again.
 */
public interface SimProcess {

  /** @return the process's name */
  String name();

  /** @return simulated time now, picoseconds */
  long now();

  /**
   * Lets simulated time pass (local computation).
   *
   * @param ps picoseconds, ≥ 0
   */
  void sleep(long ps);

  /**
   * Lets simulated time pass with nothing to do (a job that starts later, a pause), not computation: under
   * {@linkplain OsNoise OS noise} it is not stretched, but the process goes on only once its node's CPU is free. Without
   * noise it is {@link #sleep}.
   *
   * @param ps picoseconds, ≥ 0
   */
  default void idle(long ps) {
    sleep(ps);
  }

  /**
   * Suspends the process until {@code condition} holds. The condition is checked now and again each time the
   * process is {@linkplain ProcessRunner#wake woken}; whoever changes what it depends on must wake the process.
   *
   * @param condition what to wait for
   */
  void waitUntil(BooleanSupplier condition);
}
