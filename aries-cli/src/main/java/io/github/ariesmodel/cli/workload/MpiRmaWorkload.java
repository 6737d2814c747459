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
import io.github.ariesmodel.system.mpi.OsuBenchmarks.RmaSync;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * osu_put_latency and osu_get_latency on the MPI layer's one-sided communication (MPICH CH3's software RMA), by
 * synchronization, message size and distance ({@link OsuBenchmarks#rmaLatency}). Each point runs on a fresh system
 * built from the spec; {@code on-node} is two ranks of one node.
 */
final class MpiRmaWorkload implements Workload {

  /** The workload's name. */
  public static final String NAME = "mpi-rma";
  private static final List<String> OPERATIONS = List.of("put", "get");
  private static final List<String> SYNCS = List.of("flush", "flush_local", "lock", "lock_all", "fence", "pscw");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "MPI one-sided latency (osu_put_latency, osu_get_latency) by synchronization, size and distance";
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("sizes", "8,64,1K,8K,64K: message sizes in bytes (K/M suffixes)");
    m.put("operations", "put,get: put, get or both");
    m.put("syncs", "flush,lock,fence,pscw: OSU's -s choices, also flush_local and lock_all (flush is its MPI-3"
        + " default)");
    m.put("distances", "on-node,same-router: comma-separated distance names (on-node, then the system's), or all");
    m.put("warmup", "2: untimed iterations per size");
    m.put("iterations", "10: timed iterations per size");
    m.put(NoiseParam.NAME, NoiseParam.HELP);
    return m;
  }

  private record Settings(long[] sizes, List<String> operations, List<String> syncs, int warmup, int iterations,
      Map<String, int[]> pairs, List<String> wanted) {

    static Settings read(AriesSystem system, Params params) {
      long[] sizes = params.longList("sizes", "8,64,1K,8K,64K", 1, 1L << 30);
      List<String> operations = params.choices("operations", "put,get", OPERATIONS);
      List<String> syncs = params.choices("syncs", "flush,lock,fence,pscw", SYNCS);
      int warmup = params.integer("warmup", 2, 0, 100_000);
      int iterations = params.integer("iterations", 10, 1, 100_000);
      Map<String, int[]> pairs = MpiLatencyWorkload.pairs(system);
      String fallback = pairs.containsKey("same-router") ? "on-node,same-router" : "all";
      List<String> wanted = Distances.wanted(params, pairs, fallback);
      return new Settings(sizes, operations, syncs, warmup, iterations, pairs, wanted);
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
    Settings s = Settings.read(probe, params);
    ResultTable.Builder table = ResultTable.builder("mpi-rma").string("series").string("distance")
        .string("operation").string("sync").integer("bytes", "B").number("latency", "ns");
    WorkloadReport report = new WorkloadReport();
    boolean first = true;
    int done = 0;
    int total = s.wanted().size() * s.operations().size() * s.syncs().size();
    int smallest = Longs.indexOf(s.sizes(), Longs.min(s.sizes()));
    for (String distance : s.wanted()) {
      int[] pair = s.pairs().get(distance);
      for (String op : s.operations()) {
        for (String sync : s.syncs()) {
          AriesSystem sys = first ? probe : NoiseParam.build(spec, noise);
          first = false;
          List<OsuBenchmarks.LatencyRow> rows = OsuBenchmarks.rmaLatency(sys, pair[0], pair[1], op.equals("get"),
              RmaSync.valueOf(sync.toUpperCase(Locale.ROOT)), s.sizes(), s.warmup(), s.iterations(),
              MpiConfig.defaults());
          for (OsuBenchmarks.LatencyRow r : rows) {
            table.row(op + " " + sync + " " + distance, distance, op, sync, r.bytes(),
                Figures.round(r.latencyNs(), 3));
          }
          report.cost(sys.now(), sys.eventsExecuted());
          progress.update((double) ++done / total, report.simulatedPs(), report.events());
          report.metric("latency." + op + "." + sync + "." + distance,
              Figures.round(rows.get(smallest).latencyNs(), 3), "ns");
        }
      }
    }
    report.table(table.build());
    report.plot(new PlotSpec("mpi-rma-vs-size.png", "MPI one-sided latency (osu_put/get_latency) by message size",
        PlotSpec.Kind.LATENCY_VS_SIZE, "mpi-rma", "bytes", "latency", "series"));
    return report;
  }
}
