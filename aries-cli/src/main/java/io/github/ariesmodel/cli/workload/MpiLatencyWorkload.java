package io.github.ariesmodel.cli.workload;

import com.google.common.primitives.Longs;
import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.cli.report.PlotSpec;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.OsNoise;
import io.github.ariesmodel.system.mpi.MpiConfig;
import io.github.ariesmodel.system.mpi.OsuBenchmarks;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * osu_latency on the MPI layer, by message size and by distance: two ranks take turns with blocking sends and
 * receives, and the latency is half the mean round trip after the warm-up round trips
 * ({@link OsuBenchmarks#latency}). Each distance runs on a fresh system built from the spec; {@code on-node} is two
 * ranks of one node, which Cray MPICH connects through shared memory.
 */
final class MpiLatencyWorkload implements Workload {

  /** The workload's name. */
  public static final String NAME = "mpi-latency";
  /** The distance name of two ranks of one node. */
  public static final String ON_NODE = "on-node";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "MPI ping-pong latency (osu_latency) by message size and distance";
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("sizes", "8,64,1K,8K,64K: message sizes in bytes (K/M suffixes)");
    m.put("distances", "all: comma-separated distance names (on-node, then the system's), or all");
    m.put("warmup", "2: untimed round trips per size");
    m.put("iterations", "10: timed round trips per size");
    m.put(NoiseParam.NAME, NoiseParam.HELP);
    return m;
  }

  /**
   * The parameters as {@link #run} uses them, read and range-checked in this one place, which {@link #check} shares.
   *
   * @param sizes message sizes
   * @param warmup untimed round trips per size
   * @param iterations timed round trips per size
   * @param pairs the node pairs by distance
   * @param wanted the distances to measure, each one of {@code pairs}
   */
  private record Settings(long[] sizes, int warmup, int iterations, Map<String, int[]> pairs, List<String> wanted) {

    /** Reads the parameters; the system's topology gives the distances it has, and nothing else is touched. */
    static Settings read(AriesSystem system, Params params) {
      long[] sizes = params.longList("sizes", "8,64,1K,8K,64K", 1, 1L << 30);
      int warmup = params.integer("warmup", 2, 0, 100_000);
      int iterations = params.integer("iterations", 10, 1, 100_000);
      Map<String, int[]> pairs = MpiLatencyWorkload.pairs(system);
      List<String> wanted = Distances.wanted(params, pairs, "all");
      return new Settings(sizes, warmup, iterations, pairs, wanted);
    }
  }

  @Override
  public void check(AriesSystem system, Params params) {
    Workload.super.check(system, params);
    Settings.read(system, params);
    NoiseParam.read(params);
  }

  @Override
  public WorkloadReport run(SystemSpec spec, Params params, Progress progress) {
    params.checkAllUsed(parameters().keySet());
    OsNoise noise = NoiseParam.read(params);
    AriesSystem probe = NoiseParam.build(spec, noise);
    Settings settings = Settings.read(probe, params);
    long[] sizes = settings.sizes();
    int warmup = settings.warmup();
    int iterations = settings.iterations();
    Map<String, int[]> pairs = settings.pairs();
    List<String> wanted = settings.wanted();
    ResultTable.Builder table = ResultTable.builder("mpi-latency")
        .string("distance").integer("bytes", "B").number("latency", "ns");
    WorkloadReport report = new WorkloadReport();
    boolean first = true;
    int done = 0;
    // the metrics are of the smallest size, wherever the list puts it (they took the first)
    int smallest = Longs.indexOf(sizes, Longs.min(sizes));
    for (String distance : wanted) {
      AriesSystem sys = first ? probe : NoiseParam.build(spec, noise);
      first = false;
      int[] pair = pairs.get(distance);
      List<OsuBenchmarks.LatencyRow> rows = OsuBenchmarks.latency(sys, pair[0], pair[1], sizes, warmup, iterations,
          MpiConfig.defaults());
      for (OsuBenchmarks.LatencyRow r : rows) {
        table.row(distance, r.bytes(), Figures.round(r.latencyNs(), 3));
      }
      report.cost(sys.now(), sys.eventsExecuted());
      progress.update((double) ++done / wanted.size(), report.simulatedPs(), report.events());
      report.metric("latency." + distance, Figures.round(rows.get(smallest).latencyNs(), 3), "ns");
    }
    report.table(table.build());
    report.plot(new PlotSpec("mpi-latency-vs-size.png", "MPI ping-pong latency (osu_latency) by message size",
        PlotSpec.Kind.LATENCY_VS_SIZE, "mpi-latency", "bytes", "latency", "distance"));
    report.plot(new PlotSpec("mpi-latency-by-distance.png", "MPI latency of the smallest message by distance",
        PlotSpec.Kind.LATENCY_BY_DISTANCE, "mpi-latency", "distance", "latency", "bytes"));
    return report;
  }

  /**
   * The workload's node pairs: {@link #ON_NODE} (two ranks of node 0: Cray MPICH's on-node path, shared memory), then
   * the system's distances ({@link Distances#pairs}).
   */
  static Map<String, int[]> pairs(AriesSystem system) {
    Map<String, int[]> m = new LinkedHashMap<>();
    m.put(ON_NODE, new int[] {0, 0});
    m.putAll(Distances.pairs(system.topology()));
    return m;
  }
}
