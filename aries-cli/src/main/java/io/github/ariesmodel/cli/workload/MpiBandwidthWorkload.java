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
import java.util.Arrays;
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
    m.put(NoiseParam.NAME, NoiseParam.HELP);
    return m;
  }

  /**
   * The parameters as {@link #run} uses them, read and range-checked in this one place, which {@link #check} shares.
   *
   * @param sizes message sizes
   * @param window messages in flight
   * @param warmup untimed windows per size
   * @param iterations timed windows per size
   * @param pairs the node pairs by distance
   * @param wanted the distances to measure, each one of {@code pairs}
   */
  private record Settings(long[] sizes, int window, int warmup, int iterations, Map<String, int[]> pairs,
      List<String> wanted) {

    /** Reads the parameters; the system's topology gives the distances it has, and nothing else is touched. */
    static Settings read(AriesSystem system, Params params) {
      long[] sizes = params.longList("sizes", "8,1K,16K,64K", 1, 1L << 30);
      int window = params.integer("window", 16, 1, 1024);
      // Each rank registers its buffer space, raised to hold two windows of the largest size, in one piece: more than
      // a node's memory can never be registered, so that is refused here, before any point of a sweep runs. (Within
      // the memory, the page tables may still not fit: the IOMMU then refuses it as the job is built, in one line.)
      long registration = OsuBenchmarks.bandwidthRegistrationBytes(sizes, window, MpiConfig.defaults());
      if (registration > system.nodeMemoryBytes()) {
        throw new IllegalArgumentException("window x the largest of sizes must fit a node's memory: window=" + window
            + " and sizes up to " + Arrays.stream(sizes).max().getAsLong() + " need 2 x window x (size + 128) = "
            + OsuBenchmarks.bandwidthBufferBytes(sizes, window) + " bytes of MPI buffer space on each rank's node,"
            + " with its mailboxes more than the node's memory of " + system.nodeMemoryBytes() + " bytes");
      }
      int warmup = params.integer("warmup", 1, 0, 100_000);
      int iterations = params.integer("iterations", 2, 1, 100_000);
      Map<String, int[]> pairs = MpiLatencyWorkload.pairs(system);
      String fallback = pairs.containsKey("rank-1") ? "rank-1" : List.copyOf(pairs.keySet()).get(pairs.size() - 1);
      List<String> wanted = Distances.wanted(params, pairs, fallback);
      return new Settings(sizes, window, warmup, iterations, pairs, wanted);
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
    int window = settings.window();
    int warmup = settings.warmup();
    int iterations = settings.iterations();
    Map<String, int[]> pairs = settings.pairs();
    List<String> wanted = settings.wanted();
    ResultTable.Builder table = ResultTable.builder("mpi-bandwidth")
        .string("distance").integer("bytes", "B").number("bandwidth", "GB/s");
    WorkloadReport report = new WorkloadReport();
    boolean first = true;
    int done = 0;
    // the metrics are of the largest size, wherever the list puts it (they took the last)
    int largest = Longs.indexOf(sizes, Longs.max(sizes));
    for (String distance : wanted) {
      AriesSystem sys = first ? probe : NoiseParam.build(spec, noise);
      first = false;
      int[] pair = pairs.get(distance);
      List<OsuBenchmarks.BandwidthRow> rows = OsuBenchmarks.bandwidth(sys, pair[0], pair[1], sizes, window, warmup,
          iterations, MpiConfig.defaults());
      for (OsuBenchmarks.BandwidthRow r : rows) {
        table.row(distance, r.bytes(), Figures.round(r.gigabytesPerSecond(), 3));
      }
      report.cost(sys.now(), sys.eventsExecuted());
      progress.update((double) ++done / wanted.size(), report.simulatedPs(), report.events());
      report.metric("bandwidth." + distance, Figures.round(rows.get(largest).gigabytesPerSecond(), 3), "GB/s");
    }
    report.table(table.build());
    report.plot(new PlotSpec("mpi-bandwidth-vs-size.png", "MPI bandwidth (osu_bw) by message size",
        PlotSpec.Kind.BANDWIDTH_VS_SIZE, "mpi-bandwidth", "bytes", "bandwidth", "distance"));
    return report;
  }
}
