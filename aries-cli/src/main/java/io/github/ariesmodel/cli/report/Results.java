package io.github.ariesmodel.cli.report;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The results of one job: its {@link RunMetadata}, scalar {@link Metric}s and named {@link ResultTable}s, in the
 * order the job added them. Every job and every output (JSON, CSV, plots, HTML, sweep merge) uses this one model; its
 * file forms are specified in {@code docs/results-schema.md}.
 *
 * <p>Example:
 *
 * <pre>{@code
 * Results r = Results.builder(RunMetadata.builder("aries-model 0.1.0", "run pingpong").seed(1L).build())
 *     .metric("latency.8B", 812.5, "ns")
 *     .table(ResultTable.builder("latency-by-size").integer("size", "B").number("latency", "ns")
 *         .row(8, 812.5).row(64, 840.0).build())
 *     .build();
 * }</pre>
 *
 * @param metadata what was run
 * @param metrics scalar results, unique names, in order
 * @param tables tables, unique names, in order
 */
public record Results(RunMetadata metadata, List<Metric> metrics, List<ResultTable> tables) {

  /**
   * Validates uniqueness of names and freezes the lists.
   *
   * @throws IllegalArgumentException when two metrics or two tables share a name
   */
  public Results {
    Objects.requireNonNull(metadata, "metadata");
    metrics = List.copyOf(metrics);
    tables = List.copyOf(tables);
    Set<String> seen = new HashSet<>();
    for (Metric m : metrics) {
      if (!seen.add(m.name())) {
        throw new IllegalArgumentException("metric names must be unique but \"" + m.name() + "\" appears twice");
      }
    }
    seen.clear();
    for (ResultTable t : tables) {
      if (!seen.add(t.name())) {
        throw new IllegalArgumentException("table names must be unique but \"" + t.name() + "\" appears twice");
      }
    }
  }

  /**
   * Starts results.
   *
   * @param metadata what was run
   * @return a builder
   */
  public static Builder builder(RunMetadata metadata) {
    return new Builder(metadata);
  }

  /**
   * A metric by name.
   *
   * @param name metric name
   * @return the metric, or empty
   */
  public Optional<Metric> metric(String name) {
    return metrics.stream().filter(m -> m.name().equals(name)).findFirst();
  }

  /**
   * A table by name.
   *
   * @param name table name
   * @return the table, or empty
   */
  public Optional<ResultTable> table(String name) {
    return tables.stream().filter(t -> t.name().equals(name)).findFirst();
  }

  /**
   * The same results with different metadata.
   *
   * @param newMetadata the metadata
   * @return new results
   */
  public Results withMetadata(RunMetadata newMetadata) {
    return new Results(newMetadata, metrics, tables);
  }

  /** @return the same results without the wall-clock interval: reproducible, byte for byte, from the same seed */
  public Results withoutWallClock() {
    return metadata.wallClock() == null ? this : withMetadata(metadata.toBuilder().wallClock(null).build());
  }

  /** Builds {@link Results}. */
  public static final class Builder {
    private final RunMetadata metadata;
    private final List<Metric> metrics = new ArrayList<>();
    private final List<ResultTable> tables = new ArrayList<>();

    private Builder(RunMetadata metadata) {
      this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    /**
     * Adds a metric.
     *
     * @param name metric name
     * @param value finite value
     * @param unit unit, empty for none
     * @return this builder
     */
    public Builder metric(String name, double value, String unit) {
      return metric(new Metric(name, value, unit));
    }

    /**
     * Adds a metric.
     *
     * @param metric the metric
     * @return this builder
     */
    public Builder metric(Metric metric) {
      metrics.add(Objects.requireNonNull(metric, "metric"));
      return this;
    }

    /**
     * Adds a table.
     *
     * @param table the table
     * @return this builder
     */
    public Builder table(ResultTable table) {
      tables.add(Objects.requireNonNull(table, "table"));
      return this;
    }

    /**
     * Builds the results.
     *
     * @return the results
     * @throws IllegalArgumentException when names repeat
     */
    public Results build() {
      return new Results(metadata, metrics, tables);
    }
  }
}
