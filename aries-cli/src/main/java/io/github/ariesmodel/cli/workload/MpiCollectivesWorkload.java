package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.cli.report.PlotSpec;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.mpi.MpiConfig;
import io.github.ariesmodel.system.mpi.OsuBenchmarks;
import io.github.ariesmodel.system.process.OsNoise;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * osu_barrier and osu_allreduce (8 bytes) on the MPI layer by node count, with MPICH's software algorithms and with
 * the NICs' collective engine ({@link OsuBenchmarks#collectives}), and osu_alltoall at one block size when asked
 * ({@link OsuBenchmarks#alltoall}): on nodes spread evenly over the system (node i × ⌊nodes of the system / n⌋) or
 * packed (nodes 0 to n - 1: four a router, routers in chassis order, as a compact allocation gets them), each point
 * on a fresh system built from the spec.
 */
final class MpiCollectivesWorkload implements Workload {

  /** The workload's name. */
  public static final String NAME = "mpi-collectives";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "MPI barrier and 8-byte allreduce latency (osu_barrier, osu_allreduce) by node count, in software and on"
        + " the collective engine; alltoall (osu_alltoall) when asked";
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("nodes", "2,4,8,16,64: node counts (one rank each), 2 to the system's nodes");
    m.put("engine", "off,on: off (MPICH's software algorithms), on (the collective engine), or both");
    m.put("radix", "2: child channels a node's CE channel has (MpiConfig.collectiveEngineRadix), 1 to 31; only with"
        + " engine=on");
    m.put("ranksPerNode", "1: ranks on each node, 1 to 68 (the mean is over all ranks)");
    m.put("smp", "on: on or off: MPICH's SMP-aware barrier and allreduce where a node has two or more ranks");
    m.put("placement", "spread: spread (node i x the system's nodes / n) or packed (nodes 0 to n - 1, as a compact"
        + " allocation)");
    m.put("alltoall", "0: osu_alltoall's block in bytes (each rank to each rank), 1 to 1048576; 0 leaves it out");
    m.put(NoiseParam.NAME, NoiseParam.HELP);
    m.put("warmup", "5: untimed calls of each collective");
    m.put("iterations", "50: timed calls of each collective");
    return m;
  }

  /**
   * The parameters as {@link #run} uses them, read and range-checked in this one place, which {@link #check} shares.
   *
   * @param nodes node counts
   * @param engines for each run, whether it uses the engine
   * @param radix the engine's tree radix
   * @param ranksPerNode ranks on each node
   * @param smp whether MPICH's SMP-aware algorithms are used
   * @param packed nodes 0 to n - 1 instead of spread over the system
   * @param alltoallBytes osu_alltoall's block, 0 for none
   * @param osNoise the nodes' operating-system noise
   * @param warmup untimed calls
   * @param iterations timed calls
   */
  private record Settings(long[] nodes, List<Boolean> engines, int radix, int ranksPerNode, boolean smp,
      boolean packed, int alltoallBytes, OsNoise osNoise, int warmup, int iterations) {

    static Settings read(AriesSystem system, Params params) {
      long[] nodes = params.longList("nodes", "2,4,8,16,64", 2, system.nodeCount());
      List<Boolean> engines = params.choices("engine", "off,on", List.of("off", "on")).stream()
          .map("on"::equals).toList();
      int radix = params.integer("radix", 2, 1, 31);
      if (params.asMap().containsKey("radix") && !engines.contains(true)) {
        // the radix shapes the engine's tree alone: with the engine off it changed nothing, without a word
        throw new IllegalArgumentException("radix sets the collective engine's tree, which engine=off does not use,"
            + " but was " + radix + "; give engine=on (or off,on) or drop radix");
      }
      int rpn = params.integer("ranksPerNode", 1, 1, 68);
      boolean smp = params.choice("smp", "on", List.of("on", "off")).equals("on");
      boolean packed = params.choice("placement", "spread", List.of("spread", "packed")).equals("packed");
      int alltoall = params.integer("alltoall", 0, 0, 1 << 20);
      long mostRanks = (long) java.util.Arrays.stream(nodes).max().orElse(0) * rpn;
      if ((long) alltoall * mostRanks > OsuBenchmarks.MAX_BUFFER_BYTES) {
        // OsuBenchmarks refuses it too, but only at its point, after the barriers and allreduces before it had run
        throw new IllegalArgumentException("alltoall × ranks (each rank's send and receive buffer, a block for every"
            + " rank) must be at most " + OsuBenchmarks.MAX_BUFFER_BYTES + " (the largest Java array) but was "
            + alltoall + " × " + mostRanks + " = " + (long) alltoall * mostRanks + " (" + mostRanks / rpn + " nodes ×"
            + " ranksPerNode " + rpn + ")");
      }
      OsNoise osNoise = NoiseParam.read(params);
      int warmup = params.integer("warmup", 5, 0, 100_000);
      int iterations = params.integer("iterations", 50, 1, 100_000);
      return new Settings(nodes, engines, radix, rpn, smp, packed, alltoall, osNoise, warmup, iterations);
    }
  }

  @Override
  public void check(AriesSystem system, Params params) {
    Workload.super.check(system, params);
    Settings.read(system, params);
  }

  @Override
  public WorkloadReport run(SystemSpec spec, Params params, Progress progress) {
    params.checkAllUsed(parameters().keySet());
    AriesSystem probe = spec.build();
    Settings s = Settings.read(probe, params);
    ResultTable.Builder table = ResultTable.builder(NAME).integer("nodes", "").string("engine")
        .number("barrier", "us").number("allreduce", "us");
    if (s.alltoallBytes() > 0) {
      table.number("alltoall", "us");
    }
    WorkloadReport report = new WorkloadReport();
    int points = s.nodes().length * s.engines().size();
    int done = 0;
    boolean first = true;
    long largest = 0;
    for (long n : s.nodes()) {
      largest = Math.max(largest, n);
    }
    for (boolean engine : s.engines()) {
      String name = engine ? "on" : "off";
      for (long n : s.nodes()) {
        AriesSystem sys = first && s.osNoise().isNone() ? probe : NoiseParam.build(spec, s.osNoise());
        first = false;
        int stride = s.packed() ? 1 : sys.nodeCount() / (int) n;
        int[] ids = new int[(int) n];
        for (int i = 0; i < n; i++) {
          ids[i] = i * stride;
        }
        MpiConfig config = MpiConfig.builder().collectiveEngine(engine).collectiveEngineRadix(s.radix())
            .smpCollectives(s.smp()).build();
        OsuBenchmarks.CollectiveRow row = OsuBenchmarks.collectives(sys, ids, s.ranksPerNode(), s.warmup(),
            s.iterations(), config);
        double barrier = Figures.round(row.barrierUs(), 3);
        double allreduce = Figures.round(row.allreduceUs(), 3);
        report.cost(sys.now(), sys.eventsExecuted());
        if (n == largest) {
          report.metric("barrier.engine-" + name, barrier, "us");
          report.metric("allreduce.engine-" + name, allreduce, "us");
        }
        if (s.alltoallBytes() > 0) {
          // osu_alltoall is a program of its own: a job of its own on a fresh system, as for every point
          AriesSystem a2a = NoiseParam.build(spec, s.osNoise());
          double alltoall = Figures.round(OsuBenchmarks.alltoall(a2a, ids, s.ranksPerNode(), s.alltoallBytes(),
              s.warmup(), s.iterations(), config), 3);
          report.cost(a2a.now(), a2a.eventsExecuted());
          table.row(n, name, barrier, allreduce, alltoall);
          if (n == largest) {
            report.metric("alltoall.engine-" + name, alltoall, "us");
          }
        } else {
          table.row(n, name, barrier, allreduce);
        }
        progress.update((double) ++done / points, report.simulatedPs(), report.events());
      }
    }
    report.table(table.build());
    report.plot(new PlotSpec("mpi-collectives-barrier.png", "MPI_Barrier latency (osu_barrier) by nodes",
        PlotSpec.Kind.BARS, NAME, "nodes", "barrier", "engine"));
    return report;
  }
}
