package io.github.ariesmodel.cli.report;

import java.util.Objects;

/**
 * A scalar result, such as a mean latency or a PTE-cache hit rate.
 *
 * @param name metric name, non-empty, unique in its {@link Results}; dotted names ({@code latency.p99}) are usual
 * @param value the value, finite
 * @param unit its unit, empty for dimensionless
 */
public record Metric(String name, double value, String unit) {

  /**
   * Validates the metric.
   *
   * @throws IllegalArgumentException when the name is empty or the value is not finite
   */
  public Metric {
    Names.checkText("metric name", name);
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("metric \"" + name + "\" must have a finite value but was " + value);
    }
    Objects.requireNonNull(unit, "unit (use \"\" for none)");
  }
}
