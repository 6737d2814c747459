package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.cli.report.PlotSpec;
import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.OsNoise;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Put and get bandwidth by message size between two PEs at one distance: PE 0 issues a window of non-blocking puts
 * (or gets) of one size back to back, then waits for all of them ({@code quiet}); bandwidth is the payload bytes
 * over the time from the first post to the last completion. The NIC's peak is 10.2 GB/s [S2 via S1]; a single
 * minimal path is bounded by one link (5.25 GB/s raw, less the packet headers), so adaptive routing that spreads
 * packets over non-minimal paths can exceed it.
 */
final class BandwidthWorkload implements Workload {

  /** The workload's name. */
  public static final String NAME = "bandwidth";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "put and get bandwidth by message size between two nodes";
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("sizes", "64,256,1K,4K,16K,64K,256K,1M: message sizes in bytes");
    m.put("distance", "rank-1: the distance between the two nodes (see pingpong), or same-router");
    m.put("ops", "put,get: which operations");
    m.put("bytes", "2M: bytes moved per size (at least 4 and at most 4096 messages)");
    m.put("directions", "one: one (PE 0 to PE 1) or both (each PE to the other at once, after a barrier a size; the"
        + " bandwidth is the mean of the two directions', each direction's own)");
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
   * @param volume bytes moved per size
   * @param ops which operations
   * @param ugni whether the posts use uGNI's delivery mode
   * @param pairs the system's node pairs by distance
   * @param distance the chosen distance, one of {@code pairs}
   */
  private record Settings(long[] sizes, long volume, List<String> ops, boolean ugni, Map<String, int[]> pairs,
      String distance, boolean both) {

    /** Reads the parameters; the system's topology gives the distances it has, and nothing else is touched. */
    static Settings read(AriesSystem system, Params params) {
      long[] sizes = params.longList("sizes", "64,256,1K,4K,16K,64K,256K,1M", 1, 1L << 30);
      long volume = params.longValue("bytes", 2L << 20, 1, 1L << 34);
      List<String> ops = params.choices("ops", "put,get", List.of("put", "get"));
      boolean ugni = params.choice("modes", "ugni", List.of("ugni", "dmapp")).equals("ugni");
      Map<String, int[]> pairs = Distances.pairs(system.topology());
      String distance = params.choice("distance", pairs.containsKey("rank-1") ? "rank-1" : "same-router",
          new ArrayList<>(pairs.keySet()));
      boolean both = params.choice("directions", "one", List.of("one", "both")).equals("both");
      long packets = 0; // each size's messages, as run counts them, for each operation and direction
      for (long size : sizes) {
        packets = WorkBound.plus(packets, WorkBound.times(WorkBound.packets(size), messages(volume, size)));
      }
      WorkBound.check(params, WorkBound.times(packets, (long) ops.size() * (both ? 2 : 1)),
          "smaller sizes or fewer bytes");
      return new Settings(sizes, volume, ops, ugni, pairs, distance, both);
    }
  }

  /** @return the messages of one size that move {@code volume} bytes: at least 4 and at most 4,096 */
  private static long messages(long volume, long size) {
    return Math.max(4, Math.min(4096, volume / size));
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
    AriesSystem sys = NoiseParam.build(spec, noise);
    Settings settings = Settings.read(sys, params);
    long[] sizes = settings.sizes();
    long volume = settings.volume();
    List<String> ops = settings.ops();
    boolean ugni = settings.ugni();
    Map<String, int[]> pairs = settings.pairs();
    String distance = settings.distance();
    long maxSize = 0;
    for (long s : sizes) {
      maxSize = Math.max(maxSize, s);
    }
    ShmemJob.Builder jb = ShmemJob.builder(sys).nodes(pairs.get(distance))
        .pageSize(io.github.ariesmodel.core.PageSize.SIZE_2M);
    ShmemJob job = Measurements.deliveryModes(jb, sys, ugni).build();
    Symmetric src = job.allocate(maxSize);
    Symmetric dst = job.allocate(maxSize);
    boolean both = settings.both();
    // [PE][op][size]: each direction's own rate; one direction leaves PE 1's empty
    double[][][] rate = new double[2][ops.size()][sizes.length];
    job.run(pe -> {
      int me = pe.myPe();
      if (me != 0 && !both) {
        return;
      }
      for (int oi = 0; oi < ops.size(); oi++) {
        boolean put = ops.get(oi).equals("put");
        for (int si = 0; si < sizes.length; si++) {
          long size = sizes[si];
          long n = messages(volume, size);
          if (both) {
            pe.barrierAll(); // both directions start together at every size
          }
          long start = pe.now();
          for (long k = 0; k < n; k++) {
            if (put) {
              pe.putmemNbi(dst, 0, src, 0, size, 1 - me); // a stream of non-blocking puts
            } else {
              pe.getmemNbi(dst, 0, src, 0, size, 1 - me);
            }
          }
          pe.quiet();
          long elapsed = pe.now() - start;
          rate[me][oi][si] = (double) n * size / SimTime.toSeconds(elapsed) / 1e9;
        }
      }
    });
    double[][] gbps = new double[ops.size()][sizes.length];
    for (int oi = 0; oi < ops.size(); oi++) {
      for (int si = 0; si < sizes.length; si++) {
        gbps[oi][si] = both ? (rate[0][oi][si] + rate[1][oi][si]) / 2 : rate[0][oi][si];
      }
    }
    ResultTable.Builder table = ResultTable.builder("bandwidth")
        .string("op").integer("bytes", "B").number("bandwidth", "GB/s");
    WorkloadReport report = new WorkloadReport();
    for (int oi = 0; oi < ops.size(); oi++) {
      double peak = 0;
      for (int si = 0; si < sizes.length; si++) {
        table.row(ops.get(oi), sizes[si], Figures.round(gbps[oi][si], 3));
        peak = Math.max(peak, gbps[oi][si]);
      }
      report.metric(ops.get(oi) + ".peakBandwidth", Figures.round(peak, 3), "GB/s");
    }
    report.table(table.build());
    report.cost(sys.now(), sys.eventsExecuted());
    report.plot(new PlotSpec("bandwidth-vs-size.png", "Put and get bandwidth by message size (" + distance
        + (both ? ", both directions, each" : "") + ")",
        PlotSpec.Kind.BANDWIDTH_VS_SIZE, "bandwidth", "bytes", "bandwidth", "op"));
    return report;
  }
}
