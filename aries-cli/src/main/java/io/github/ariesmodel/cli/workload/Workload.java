package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.system.AriesSystem;

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
   * Checks what can be checked without simulating (a sweep calls it on every point before the first runs): by
   * default that every parameter name is known. A built-in workload also reads every parameter of its own as
   * {@link #run} does (the same reads, so the same ranges and messages), with the bounds that depend on the system
   * (PEs at most its nodes, a distance it has), and checks the needs it can compute up front (a table against a
   * node's memory): whatever {@code run} would refuse from the parameters and the system before simulating, this
   * refuses. It builds no nodes.
   *
   * @param system the system the point would run on
   * @param params the point's parameters
   * @throws IllegalArgumentException naming the parameter, the limit and the value
   */
  default void check(AriesSystem system, Params params) {
    params.checkAllUsed(parameters().keySet());
  }

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
