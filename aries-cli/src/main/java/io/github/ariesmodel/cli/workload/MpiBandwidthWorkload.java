package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.cli.report.PlotSpec;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.mpi.MpiConfig;
import io.github.ariesmodel.system.mpi.OsuBenchmarks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * osu_bw on the MPI layer, by message size and by distance: the sender keeps a window of isends in flight, the
 * receiver as many irecvs, both wait, and the receiver acknowledges with 4 bytes ({@link OsuBenchmarks#bandwidth}).
 * Each distance runs on a fresh system built from the spec; {@code on-node} is two ranks of one node, which Cray
 * MPICH connects through shared memory.
 */
final class MpiBandwidthWorkload implements Workload {

  /** The workload's name. */
  public static final String NAME = "mpi-bandwidth";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "MPI uni-directional bandwidth (osu_bw, a window of messages in flight) by message size and distance";
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("sizes", "8,1K,16K,64K: message sizes in bytes (K/M suffixes)");
    m.put("distances", "rank-1: comma-separated distance names (on-node, then the system's), or all");
    m.put("window", "16: messages in flight (osu_bw uses 64)");
    m.put("warmup", "1: untimed windows per size");
    m.put("iterations", "2: timed windows per size");
    return m;
  }

  @Override
  public WorkloadReport run(SystemSpec spec, Params params, Progress progress) {
    params.checkAllUsed(parameters().keySet());
    long[] sizes = params.longList("sizes", "8,1K,16K,64K", 1, 1L << 30);
    int window = params.integer("window", 16, 1, 1024);
    int warmup = params.integer("warmup", 1, 0, 100_000);
    int iterations = params.integer("iterations", 2, 1, 100_000);
    AriesSystem probe = spec.build();
    Map<String, int[]> pairs = MpiLatencyWorkload.pairs(probe);
    List<String> names = new ArrayList<>(pairs.keySet());
    String fallback = names.contains("rank-1") ? "rank-1" : names.get(names.size() - 1);
    String asked = params.string("distances", fallback);
    List<String> wanted = asked.equals("all") ? names : params.choices("distances", fallback, names);
    ResultTable.Builder table = ResultTable.builder("mpi-bandwidth")
        .string("distance").integer("bytes", "B").number("bandwidth", "GB/s");
    WorkloadReport report = new WorkloadReport();
    boolean first = true;
    int done = 0;
    for (String distance : wanted) {
      AriesSystem sys = first ? probe : spec.build();
      first = false;
      int[] pair = pairs.get(distance);
      List<OsuBenchmarks.BandwidthRow> rows = OsuBenchmarks.bandwidth(sys, pair[0], pair[1], sizes, window, warmup,
          iterations, MpiConfig.defaults());
      for (OsuBenchmarks.BandwidthRow r : rows) {
        table.row(distance, r.bytes(), Figures.round(r.gigabytesPerSecond(), 3));
      }
      report.cost(sys.now(), sys.eventsExecuted());
      progress.update((double) ++done / wanted.size(), report.simulatedPs(), report.events());
      report.metric("bandwidth." + distance, Figures.round(rows.get(rows.size() - 1).gigabytesPerSecond(), 3),
          "GB/s"); // largest size
    }
    report.table(table.build());
    report.plot(new PlotSpec("mpi-bandwidth-vs-size.png", "MPI bandwidth (osu_bw) by message size",
        PlotSpec.Kind.BANDWIDTH_VS_SIZE, "mpi-bandwidth", "bytes", "bandwidth", "distance"));
    return report;
  }
}
