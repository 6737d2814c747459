package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.nic.NicStatistics;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.OsNoise;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The put issue rate of one node with several processes, as S1 measures it (p.23, Fig 13: up to 120 M puts/s a node
 * from 21 or more processes, up to 7.5 M/s from one): for each count k of {@code pesPerNode}, a job of k PEs on each
 * of two nodes spread over the system, in which every PE of the first node issues {@code puts} 8-byte puts
 * ({@code putLong}, Cray SHMEM's {@code shmem_long_p}) to the PEs of the second in turn, then a quiet. Reports puts a
 * second of the node (every PE's puts over the time until the last quiet returned) and a PE, and the source NIC's
 * posts that waited for a request tag and its most transactions outstanding at once, which show what bounds it.
 *
 * <p>Each count runs on a freshly built system. S1's figures are not used by the model: this compares with them.
 */
final class PutRateWorkload implements Workload {

  /** The workload's name. */
  public static final String NAME = "put-rate";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "put issue rate of one node by SHMEM PEs a node (8-byte puts to another node; S1 Fig 13)";
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("pesPerNode", "1,2,4,8,16,32: PEs on each of the two nodes, one run each (1 to 127)");
    m.put("puts", "2000: 8-byte puts each PE of the first node issues");
    m.put(NoiseParam.NAME, NoiseParam.HELP);
    return m;
  }

  /**
   * The parameters as {@link #run} uses them, read and checked in this one place, which {@link #check} shares.
   *
   * @param pesPerNode the PE counts a node to run
   * @param puts puts each source PE issues
   */
  private record Settings(long[] pesPerNode, int puts) {

    static Settings read(AriesSystem system, Params params) {
      long[] k = params.longList("pesPerNode", "1,2,4,8,16,32", 1, ShmemJob.MAX_PES_PER_NODE);
      int puts = params.integer("puts", 2000, 1, 1_000_000);
      if (system.nodeCount() < 2) {
        throw new SystemUnfitException("put-rate", 2, system.nodeCount());
      }
      return new Settings(k, puts);
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
    AriesSystem first = NoiseParam.build(spec, noise);
    Settings s = Settings.read(first, params);
    ResultTable.Builder table = ResultTable.builder(NAME)
        .integer("pesPerNode", "").integer("putsPerPe", "").number("putRate", "M/s").number("perPeRate", "M/s")
        .integer("postsDelayedForTags", "").integer("maxOutstanding", "").integer("faults", "");
    WorkloadReport report = new WorkloadReport();
    long simulated = 0;
    long events = 0;
    for (int i = 0; i < s.pesPerNode().length; i++) {
      int k = (int) s.pesPerNode()[i];
      AriesSystem sys = i == 0 ? first : NoiseParam.build(spec, noise);
      long start = sys.now();
      int[] pair = Distances.spread(sys.topology(), 2);
      Result r = measure(sys, pair, k, s.puts());
      table.row(k, s.puts(), Figures.round(r.rate() / 1e6, 3), Figures.round(r.rate() / 1e6 / k, 3),
          r.delayedForTags(), r.maxOutstanding(), r.faults());
      report.metric(NAME + "." + k + ".putRate", Figures.round(r.rate() / 1e6, 3), "M/s");
      simulated += sys.now() - start;
      events += sys.eventsExecuted();
      progress.update((double) (i + 1) / s.pesPerNode().length, simulated, events);
    }
    report.table(table.build());
    report.cost(simulated, events);
    return report;
  }

  /** What one count of PEs a node gave. */
  private record Result(double rate, long delayedForTags, long maxOutstanding, long faults) {}

  /** PEs 0 to k - 1 (the first node) each put to PEs k to 2k - 1 (the second) in turn, then quiet. */
  static Result measure(AriesSystem sys, int[] pair, int k, int puts) {
    ShmemJob job = ShmemJob.builder(sys).nodes(pair).pesPerNode(k).build();
    Symmetric slots = job.allocate(8L * puts);
    NicStatistics before = sys.node(pair[0]).nic().statistics().snapshot();
    job.run(pe -> {
      int me = pe.myPe();
      if (me >= k) {
        return;
      }
      for (int m = 0; m < puts; m++) {
        pe.putLong(slots, 8L * m, m + 1, k + (me + m) % k);
      }
      pe.quiet();
    });
    NicStatistics after = sys.node(pair[0]).nic().statistics();
    double rate = (double) k * puts / SimTime.toSeconds(job.lastRunPs());
    return new Result(rate, after.postsDelayedForTags() - before.postsDelayedForTags(), after.maxOutstanding(),
        job.faults());
  }
}
