package io.github.ariesmodel.system.replay;

/** Receives a replay's progress, from the simulation's thread; keep it cheap. */
@FunctionalInterface
public interface ReplayProgress {

  /** Ignores progress. */
  ReplayProgress NONE = (fraction, simulatedPs) -> { };

  /**
   * Called at most about a hundred times per replay.
   *
   * @param fraction calls replayed over calls in the trace, 0 to 1
   * @param simulatedPs simulated time now, picoseconds
   */
  void update(double fraction, long simulatedPs);
}
