package io.github.ariesmodel.cli.report;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * A plot a workload asks for: which kind, from which table and columns. The report writer draws it.
 *
 * @param file file name of the PNG, e.g. {@code latency-vs-size.png}
 * @param caption caption in the HTML report
 * @param kind the kind of plot
 * @param table the result table it reads
 * @param x the x column (or category column for bar plots)
 * @param y the y column
 * @param group the column whose values split the rows into series, or null for one series
 */
public record PlotSpec(String file, String caption, Kind kind, String table, String x, String y, String group) {

  /** Kinds of plots, each drawn by the matching {@link io.github.ariesmodel.cli.report.Plots} method. */
  public enum Kind {
    /** Latency (y) against offered load (x). */
    LATENCY_VS_LOAD,
    /** Bandwidth (y) against message size (x, log2). */
    BANDWIDTH_VS_SIZE,
    /** Latency (y) against message size (x, log2, y log10). */
    LATENCY_VS_SIZE,
    /** Latency bars by distance category. */
    LATENCY_BY_DISTANCE,
    /** Utilization bars by link rank. */
    UTILIZATION_BY_RANK,
    /** Bars of any value (y) by category (x), titled with the caption. */
    BARS
  }

  /** Validates the fields. */
  public PlotSpec {
    checkArgument(file != null && file.endsWith(".png"), "file must end in .png but was %s", file);
    checkArgument(kind != null && table != null && x != null && y != null, "kind, table, x and y must be given");
  }
}
