package io.github.ariesmodel.cli.system;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.SystemStatistics;

/**
 * Sums the statistics of the systems one run builds ({@link SystemSpec#build()}), for results.json's
 * {@code statistics} object. A workload uses its systems one after another (every built-in workload does: one system
 * per distance or page size, each run to completion before the next is built), so a system's statistics are taken
 * when the next one is built, and the last one's when the run asks for the sum; no finished system is kept alive. A
 * system a run uses while another is in use (a replay's baselines) is built aside and counted when it finishes.
 */
public final class BuiltSystems {

  private SystemStatistics finished;
  private AriesSystem current;

  /** @param s a system just built; the one before it is finished */
  void built(AriesSystem s) {
    close();
    current = s;
  }

  /** @param s a system built aside the current one ({@link SystemSpec#buildAside}), finished now */
  void aside(AriesSystem s) {
    SystemStatistics st = s.statistics();
    finished = finished == null ? st : finished.plus(st);
  }

  private void close() {
    if (current != null) {
      SystemStatistics st = current.statistics();
      finished = finished == null ? st : finished.plus(st);
      current = null;
    }
  }

  /** @return the sum over the systems built so far, or null when none was built */
  public SystemStatistics statistics() {
    close();
    return finished;
  }
}
