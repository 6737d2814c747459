package io.github.ariesmodel.cli.workload;

import com.google.common.primitives.Longs;
import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.cli.report.PlotSpec;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.OsNoise;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ping-pong latency by message size and by distance. Two PEs take turns: one puts {@code size} bytes to the other,
 * which waits for the put's remote event (the arrival notification uGNI gives [S5]) and puts the same size back.
 * One-way latency is half the mean round trip, after one warm-up exchange. Each distance runs on a fresh system
 * built from the spec, so distances do not disturb each other.
 */
final class PingPongWorkload implements Workload {

  /** The workload's name. */
  public static final String NAME = "pingpong";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "ping-pong latency by message size and distance (same router, rank-1, rank-2, rank-3)";
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("sizes", "8,64,512,4K,32K,256K,1M: message sizes in bytes (K/M suffixes)");
    m.put("distances", "all: comma-separated distance names, or all");
    m.put("iterations", "10: round trips per size (fewer for sizes above 8K, at least 2)");
    m.put("modes", "ugni: delivery modes of the posts: ugni (every post ADAPTIVE_0, uGNI's default"
        + " GNI_DLVMODE_PERFORMANCE, as the published OSU, Chapel and GASNet curves ran) or dmapp (PUTs MIN_HASH,"
        + " GETs ADAPTIVE_0: DMAPP's and the SHMEM job's default); with an explicit --routing the modes choose no"
        + " route and are not set");
    m.put(NoiseParam.NAME, NoiseParam.HELP);
    m.put(WorkBound.ALLOW_LONG, WorkBound.HELP);
    return m;
  }

  /**
   * The parameters as {@link #run} uses them, read and range-checked in this one place, which {@link #check} shares.
   *
   * @param sizes message sizes
   * @param iterations round trips per size
   * @param ugni whether the posts use uGNI's delivery mode
   * @param pairs the system's node pairs by distance
   * @param wanted the distances to measure, each one of {@code pairs}
   */
  private record Settings(long[] sizes, int iterations, boolean ugni, Map<String, int[]> pairs, List<String> wanted) {

    /** Reads the parameters; the system's topology gives the distances it has, and nothing else is touched. */
    static Settings read(AriesSystem system, Params params) {
      long[] sizes = params.longList("sizes", "8,64,512,4K,32K,256K,1M", 1, 1L << 30);
      int iterations = params.integer("iterations", 10, 1, 100_000);
      boolean ugni = params.choice("modes", "ugni", List.of("ugni", "dmapp")).equals("ugni");
      Map<String, int[]> pairs = Distances.pairs(system.topology());
      List<String> wanted = Distances.wanted(params, pairs, "all");
      long packets = 0; // a round trip is two messages; the first of each size's is a warm-up
      for (long size : sizes) {
        packets = WorkBound.plus(packets, WorkBound.times(WorkBound.packets(size),
            2L * (Measurements.iterationsFor(size, iterations) + 1)));
      }
      WorkBound.check(params, WorkBound.times(packets, wanted.size()), "smaller sizes, fewer iterations or distances");
      return new Settings(sizes, iterations, ugni, pairs, wanted);
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
    int iterations = settings.iterations();
    boolean ugni = settings.ugni();
    Map<String, int[]> pairs = settings.pairs();
    List<String> wanted = settings.wanted();
    ResultTable.Builder table = ResultTable.builder("pingpong")
        .string("distance").integer("bytes", "B").number("latency", "ns").number("bandwidth", "GB/s");
    WorkloadReport report = new WorkloadReport();
    long maxSize = 0;
    for (long s : sizes) {
      maxSize = Math.max(maxSize, s);
    }
    boolean first = true;
    int done = 0;
    // the metrics are of the smallest size, wherever the list puts it (they took the first)
    int smallest = Longs.indexOf(sizes, Longs.min(sizes));
    for (String distance : wanted) {
      AriesSystem sys = first ? probe : NoiseParam.build(spec, noise);
      first = false;
      int[] pair = pairs.get(distance);
      // uGNI's way for a target to learn that a put arrived: a REMOTE event (the measurement waits for them)
      ShmemJob.Builder jb = ShmemJob.builder(sys).nodes(pair).pageSize(SystemSpec.defaultPageSize())
          .remoteEvents(true);
      ShmemJob job = Measurements.deliveryModes(jb, sys, ugni).build();
      Symmetric buf = job.allocate(maxSize);
      double[] latencyNs = Measurements.pingPongOneWayNs(job, buf, sizes, iterations);
      for (int si = 0; si < sizes.length; si++) {
        table.row(distance, sizes[si], Figures.round(latencyNs[si], 3), Figures.round(sizes[si] / latencyNs[si], 3));
      }
      report.cost(sys.now(), sys.eventsExecuted());
      progress.update((double) ++done / wanted.size(), report.simulatedPs(), report.events());
      report.metric("latency." + distance, Figures.round(latencyNs[smallest], 3), "ns");
    }
    ResultTable t = table.build();
    report.table(t);
    report.plot(new PlotSpec("pingpong-latency-vs-size.png", "Ping-pong one-way latency by message size",
        PlotSpec.Kind.LATENCY_VS_SIZE, "pingpong", "bytes", "latency", "distance"));
    report.plot(new PlotSpec("pingpong-latency-by-distance.png",
        "Ping-pong one-way latency of the smallest message by distance", PlotSpec.Kind.LATENCY_BY_DISTANCE,
        "pingpong", "distance", "latency", "bytes"));
    return report;
  }


}
