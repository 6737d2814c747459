package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.report.PlotSpec;
import io.github.ariesmodel.cli.report.Metric;
import io.github.ariesmodel.cli.report.ResultTable;
import java.util.ArrayList;
import java.util.List;

/**
 * What a workload run produced: result tables, scalar metrics, the plots it asks for, notes for its reader, and the
 * simulation's cost (simulated time and events, summed over every system it built).
 */
public final class WorkloadReport {

  private final List<ResultTable> tables = new ArrayList<>();
  private final List<Metric> metrics = new ArrayList<>();
  private final List<PlotSpec> plots = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private long simulatedPs;
  private long events;
  private boolean ownRouting;
  private String routing;

  /** @param t a table @return this report */
  public WorkloadReport table(ResultTable t) {
    tables.add(t);
    return this;
  }

  /** @param name metric name @param value its value @param unit its unit @return this report */
  public WorkloadReport metric(String name, double value, String unit) {
    metrics.add(new Metric(name, value, unit));
    return this;
  }

  /** @param p a plot @return this report */
  public WorkloadReport plot(PlotSpec p) {
    plots.add(p);
    return this;
  }

  /**
   * A sentence the text and HTML reports show beside the figures, for what the figures cannot say (a statistic with
   * no data, whose metrics are left out and whose cells are null). results.json does not carry it.
   *
   * @param text one line
   * @return this report
   */
  public WorkloadReport note(String text) {
    notes.add(text);
    return this;
  }

  /**
   * The routing the run used, when it is not the system's ({@code --routing}): a workload that runs its own list of
   * routings (traffic's {@code routings}) says which, so that the results do not record a routing nothing used.
   *
   * @param name the one routing used, or null when several were (each row names its own)
   * @return this report
   */
  public WorkloadReport routing(String name) {
    ownRouting = true;
    routing = name;
    return this;
  }

  /** @return whether {@link #routing(String)} was called */
  public boolean hasOwnRouting() {
    return ownRouting;
  }

  /** @return the routing given to {@link #routing(String)} */
  public String ownRouting() {
    return routing;
  }

  /** @param ps simulated time to add @param ev events to add @return this report */
  public WorkloadReport cost(long ps, long ev) {
    simulatedPs += ps;
    events += ev;
    return this;
  }

  /** @param other another report whose contents are appended @return this report */
  public WorkloadReport addAll(WorkloadReport other) {
    tables.addAll(other.tables);
    metrics.addAll(other.metrics);
    plots.addAll(other.plots);
    notes.addAll(other.notes);
    simulatedPs += other.simulatedPs;
    events += other.events;
    return this;
  }

  /** @return the tables */
  public List<ResultTable> tables() {
    return tables;
  }

  /** @return the metrics */
  public List<Metric> metrics() {
    return metrics;
  }

  /** @return the plots */
  public List<PlotSpec> plots() {
    return plots;
  }

  /** @return the notes, in the order they were made */
  public List<String> notes() {
    return notes;
  }

  /** @return simulated time over every system built, ps */
  public long simulatedPs() {
    return simulatedPs;
  }

  /** @return events executed over every system built */
  public long events() {
    return events;
  }
}
