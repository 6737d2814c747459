package io.github.ariesmodel.cli.workload;

/**
 * Where a workload reports how far it has got, for a progress display. Reporting never changes results.
 */
@FunctionalInterface
public interface Progress {

  /** A sink that ignores everything. */
  Progress NONE = (fraction, simulatedPs, events) -> {};

  /**
   * Reports progress.
   *
   * @param fraction share of the workload done, 0 to 1
   * @param simulatedPs simulated time covered so far (over every system the workload built), picoseconds
   * @param events events executed so far
   */
  void update(double fraction, long simulatedPs, long events);

  /**
   * A view of this sink for one part of a larger job.
   *
   * @param start fraction at which the part starts
   * @param share fraction of the whole the part is
   * @param simulatedPsBefore simulated time of the parts before it
   * @param eventsBefore events of the parts before it
   * @return a sink that maps the part's own progress into the whole
   */
  default Progress part(double start, double share, long simulatedPsBefore, long eventsBefore) {
    return (f, ps, ev) -> update(start + share * f, simulatedPsBefore + ps, eventsBefore + ev);
  }
}
