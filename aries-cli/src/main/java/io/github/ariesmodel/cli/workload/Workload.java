package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.system.SystemSpec;
import java.util.Map;

/**
 * A built-in job of the simulator: builds the systems it needs from a {@link SystemSpec}, runs, and reports tables,
 * metrics and plots. Deterministic: same spec and parameters, same report (wall-clock cost aside).
 */
public interface Workload {

  /** @return the name it is run by ({@code ./aries run NAME}) */
  String name();

  /** @return one line saying what it measures */
  String description();

  /** @return its parameters: name → "default: meaning" */
  Map<String, String> parameters();

  /**
   * Runs the workload, reporting progress.
   *
   * @param spec how to build systems
   * @param params parameters (unknown names are rejected)
   * @param progress where to report how far it has got
   * @return the report
   */
  WorkloadReport run(SystemSpec spec, Params params, Progress progress);

  /**
   * Runs the workload without progress reports.
   *
   * @param spec how to build systems
   * @param params parameters (unknown names are rejected)
   * @return the report
   */
  default WorkloadReport run(SystemSpec spec, Params params) {
    return run(spec, params, Progress.NONE);
  }
}
