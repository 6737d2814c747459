package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.core.AmoKind;
import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.OsNoise;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Remote atomic update rate, GUPS-style: every PE applies {@code updates} atomic adds to words chosen uniformly at
 * random in a table spread over all PEs, then all meet at a barrier. Reports updates per second over the whole job
 * and the target IOMMUs' PTE-cache behaviour, which is where the page size shows (a random word in a large table
 * misses the 128-line PTE cache unless huge pages make one line cover it).
 *
 * <p>No published Aries AMO rate was found (aries-facts §7): this is a model output, not a calibration.
 */
final class GupsWorkload implements Workload {

  /** The workload's name. */
  public static final String NAME = "gups";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "random remote atomic updates over a distributed table (GUPS-style AMO rate)";
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("pes", "32: processing elements, spread over the system");
    m.put("updates", "256: atomic updates per PE");
    m.put("table", "16M: table bytes per PE");
    m.put("pageSize", "4K: page size of the table's registration (4K, 2M, ... 64G)");
    m.put("fetching", "false: fetching (FIADD, blocking) or non-fetching (IADD, pipelined) adds");
    m.put("window", "64: non-fetching updates in flight per PE before it waits (quiet)");
    m.put(NoiseParam.NAME, NoiseParam.HELP);
    return m;
  }

  /**
   * The parameters as {@link #run} uses them, read and checked in this one place, which {@link #check} shares: the
   * ranges, and that the table fits a node's memory.
   *
   * @param pes processing elements
   * @param updates atomic updates per PE
   * @param tableBytes table bytes per PE
   * @param pageSize the table's page size
   * @param fetching fetching or non-fetching adds
   * @param window non-fetching updates in flight per PE
   */
  private record Settings(int pes, int updates, long tableBytes, PageSize pageSize, boolean fetching, int window) {

    /** Reads the parameters; the system bounds the PEs (its nodes) and the table (a node's memory), no more. */
    static Settings read(AriesSystem system, Params params) {
      int pes = params.integer("pes", 32, 1, Math.min(4096, system.nodeCount()));
      int updates = params.integer("updates", 256, 1, 10_000_000);
      long tableBytes = params.longValue("table", 16L << 20, 8, 1L << 36);
      PageSize pageSize = PageSize.parse(params.string("pageSize", "4K"));
      boolean fetching = Boolean.parseBoolean(params.choice("fetching", "false", List.of("true", "false")));
      int window = params.integer("window", 64, 1, 4096);
      TableMemory.check(system, "table", tableBytes, pageSize); // one symmetric allocation on every PE's node
      return new Settings(pes, updates, tableBytes, pageSize, fetching, window);
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
    AriesSystem sys = NoiseParam.build(spec, noise);
    Settings s = Settings.read(sys, params);
    return run(sys, s.pes(), s.updates(), s.tableBytes(), s.pageSize(), s.fetching(), s.window(), "gups");
  }

  static WorkloadReport run(AriesSystem sys, int pes, int updates, long tableBytes, PageSize pageSize,
      boolean fetching, int window, String tableName) {
    int[] nodes = Distances.spread(sys.topology(), pes);
    ShmemJob job = ShmemJob.builder(sys).nodes(nodes).pageSize(pageSize).build();
    Symmetric table = job.allocate(tableBytes);
    long words = tableBytes / 8;
    AmoOperation op = AmoOperation.of(AmoKind.IADD, fetching, 64);
    long start = sys.now();
    Measurements.TranslationCounts before = Measurements.networkTranslations(sys, nodes);
    job.run(pe -> {
      SplittableRandom rnd = new SplittableRandom(sys.seed() * 1_000_003L + pe.myPe());
      for (int u = 0; u < updates; u++) {
        int target = rnd.nextInt(pe.nPes());
        long word = rnd.nextLong(words);
        pe.atomic(op, table, word * 8, 1, 0, target);
        if (!fetching && (u + 1) % window == 0) {
          pe.quiet();
        }
      }
      pe.barrierAll();
    });
    long elapsed = job.lastRunPs();
    double rate = (double) pes * updates / SimTime.toSeconds(elapsed);
    Measurements.TranslationCounts after = Measurements.networkTranslations(sys, nodes);
    long translations = after.translations() - before.translations();
    long hits = after.hits() - before.hits();
    // Without an IOMMU (--translator flat) nothing is translated: no hit rate and no latency (null), not 0, which
    // would read as "every translation missed".
    Double hitRate = translations == 0 ? null : Figures.round((double) hits / translations, 3);
    Double meanLatencyNs = translations == 0 ? null
        : Figures.round(SimTime.toNs(after.totalLatencyPs() - before.totalLatencyPs()) / translations, 3);
    WorkloadReport report = new WorkloadReport();
    report.table(ResultTable.builder(tableName)
        .integer("pes", "").integer("updatesPerPe", "").integer("tableBytes", "B").string("pageSize")
        .string("op").number("updateRate", "Mupdates/s").number("perPeRate", "Mupdates/s")
        .number("pteHitRate", "").number("translationLatency", "ns").integer("faults", "")
        .row(pes, updates, tableBytes, pageSize.toString(), op.toString(), Figures.round(rate / 1e6, 3),
            Figures.round(rate / 1e6 / pes, 3), hitRate, meanLatencyNs, job.faults())
        .build());
    report.metric(tableName + ".updateRate", Figures.round(rate / 1e6, 3), "Mupdates/s");
    report.cost(sys.now() - start, sys.eventsExecuted());
    return report;
  }


}
