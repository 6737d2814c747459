package io.github.ariesmodel.system.replay;

/**
 * Receives a replay's progress, from inside the simulation; keep it cheap. On the single event loop it is called on
 * the loop's side (a rank's code); on a partitioned engine from the thread of whichever group's rank completed the
 * step, but never by two threads at once, and with fraction and time that never decrease. Progress never changes
 * what is simulated.
 */
@FunctionalInterface
public interface ReplayProgress {

  /** Ignores progress. */
  ReplayProgress NONE = (fraction, simulatedPs) -> { };

  /**
   * Called at most about a hundred times per replay.
   *
   * @param fraction calls replayed over calls in the trace, 0 to 1
   * @param simulatedPs simulated time now, picoseconds (on an engine: the reporting rank's group's clock, or the
   *     latest reported if that is behind)
   */
  void update(double fraction, long simulatedPs);
}
