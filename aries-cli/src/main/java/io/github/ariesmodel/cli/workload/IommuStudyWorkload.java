package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.TranslatorKind;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The IOMMU at work inside a whole system: remote 8-byte puts from many PEs into a large table on one target node,
 * at random offsets or sequentially, for each page size. Reports the target IOMMU's PTE-cache hit rate and mean
 * translation latency and the achieved put rate. With 4 KB pages the 128-line cache covers 4 MB (128 lines × 8 PTEs
 * × 4 KB); with 2 MB pages it covers 2 GB, so random traffic over a larger table misses far less. Chapel's
 * observation that remote references run "much better" with huge pages (aries-facts §7, S14) is the hypothesis this
 * study lets one examine; no published PTE-miss cost exists, so the latencies follow the IOMMU's assumed defaults.
 *
 * <p>"Sequential" is each PE's own walk: PE i puts to {@code puts} consecutive words from (i - 1) × table / pes, so
 * the PEs' runs, interleaved at the target, start table / pes bytes apart. A multiple of 1 MiB (32 sets × 8 PTEs ×
 * 4 KB), as a power-of-two table and PE count give (the defaults: 8 MiB), maps every PE's 4 KB PTE line to one set,
 * and more PEs than its 4 ways evict each other: with the defaults the pattern is a set conflict, whose 4 KB hit rate
 * is below the random pattern's (docs/iommu.md, "what its two patterns touch"). The name stays: configurations and
 * results files use it.
 */
final class IommuStudyWorkload implements Workload {

  /** The workload's name. */
  public static final String NAME = "iommu-study";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "target IOMMU hit rate and latency vs page size and access pattern, inside a whole system";
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("pageSizes", "4K,2M: page sizes of the target table's registration");
    m.put("patterns", "random,sequential: access patterns. random: uniform over the table; sequential: PE i puts"
        + " to consecutive words from (i-1)*table/pes, so starts a multiple of 1M apart (power-of-two table and pes,"
        + " as the defaults) share one PTE-cache set with 4K pages: a set conflict, not a stream (docs/iommu.md)");
    m.put("table", "64M: table bytes on the target node");
    m.put("pes", "8: initiating PEs (the target is one more)");
    m.put("puts", "256: 8-byte puts per initiator");
    return m;
  }

  /**
   * The parameters as {@link #run} uses them, read and range-checked in this one place, which {@link #check} shares
   * (the page sizes are parsed, and the table checked against a node's memory, by {@link #checkTable}).
   *
   * @param pageSizes the page sizes, as given
   * @param patterns the access patterns
   * @param tableBytes table bytes on the target node
   * @param initiators initiating PEs
   * @param puts puts per initiator
   */
  private record Settings(List<String> pageSizes, List<String> patterns, long tableBytes, int initiators, int puts) {

    static Settings read(Params params) {
      List<String> pageSizes = params.list("pageSizes", "4K,2M");
      Params.refuseRepeats("pageSizes", pageSizes, pageSizes.stream().map(PageSize::parse).toList());
      List<String> patterns = params.choices("patterns", "random,sequential", List.of("random", "sequential"));
      long tableBytes = params.longValue("table", 64L << 20, 4096, 1L << 36);
      int initiators = params.integer("pes", 8, 1, 1024);
      int puts = params.integer("puts", 256, 1, 1_000_000);
      return new Settings(pageSizes, patterns, tableBytes, initiators, puts);
    }
  }

  /** Checks, before anything runs, the parameters and that the table fits the target node's memory. */
  @Override
  public void check(AriesSystem system, Params params) {
    Workload.super.check(system, params);
    Settings settings = Settings.read(params); // its ranges first, as the run reads them
    checkSystem(system, params);
    checkTable(system, settings);
  }

  /**
   * The system must have the IOMMU the study measures; and one target and {@code pes} initiators, each on a node of
   * its own: a default above that is cut to the nodes there are (documented), but a value the user gave is refused
   * rather than run as another and recorded as given. A system of one node has no node to put from, so nothing to
   * measure, and is refused as {@code put-rate} refuses it (it ran and wrote null cells, until stop 77).
   */
  private static void checkSystem(AriesSystem system, Params params) {
    if (system.nodeCount() < 2) {
      throw new SystemUnfitException(NAME, 2, system.nodeCount());
    }
    if (system.translatorKind() != TranslatorKind.IOMMU) {
      // its figures are the IOMMU's PTE cache's: on the flat translator they were all 0
      throw new IllegalArgumentException("iommu-study measures the IOMMU's PTE cache, but the system's translator is"
          + " flat; run it with --translator iommu");
    }
    if (params.asMap().containsKey("pes")) {
      params.integer("pes", 8, 1, Math.max(1, Math.min(1024, system.nodeCount() - 1)));
    }
  }

  /**
   * The table is one symmetric allocation on every PE's node, beside the SHMEM runtime's reservations, with each
   * page size in turn: the range [4096, 64G] alone would let a table through that the node cannot hold.
   */
  private static void checkTable(AriesSystem system, Settings settings) {
    for (String ps : settings.pageSizes()) {
      TableMemory.check(system, "table", settings.tableBytes(), PageSize.parse(ps.trim()));
    }
  }

  @Override
  public WorkloadReport run(SystemSpec spec, Params params, Progress progress) {
    params.checkAllUsed(parameters().keySet());
    Settings settings = Settings.read(params);
    List<String> sizes = settings.pageSizes();
    List<String> patterns = settings.patterns();
    long tableBytes = settings.tableBytes();
    int initiators = settings.initiators();
    int puts = settings.puts();
    ResultTable.Builder table = ResultTable.builder("iommu")
        .string("pageSize").string("pattern").number("pteHitRate", "").number("translationLatency", "ns")
        .number("putRate", "Mputs/s");
    WorkloadReport report = new WorkloadReport();
    int done = 0;
    for (String ps : sizes) {
      PageSize pageSize = PageSize.parse(ps.trim());
      for (String pattern : patterns) {
        AriesSystem sys = spec.build();
        if (done == 0) {
          checkSystem(sys, params); // on the first system the run builds (one more would be counted in its statistics)
          checkTable(sys, settings); // with every page size, before the first job runs
        }
        int[] nodes = Distances.spread(sys.topology(), Math.min(sys.nodeCount(), initiators + 1));
        ShmemJob job = ShmemJob.builder(sys).nodes(nodes).pageSize(pageSize).build();
        Symmetric t = job.allocate(tableBytes);
        boolean random = pattern.equals("random");
        long words = tableBytes / 8;
        job.run(pe -> {
          if (pe.myPe() == 0) {
            return; // the target only serves
          }
          SplittableRandom rnd = new SplittableRandom(sys.seed() * 31 + pe.myPe());
          long stride = words / Math.max(1, pe.nPes() - 1);
          byte[] word = new byte[8];
          for (int k = 0; k < puts; k++) {
            long w = random ? rnd.nextLong(words) : ((pe.myPe() - 1) * stride + k) % words;
            pe.put(t, w * 8, word, 0);
          }
          pe.quiet();
        });
        Measurements.TranslationCounts c = Measurements.networkTranslations(sys, new int[] {nodes[0]});
        // every initiator puts at least once to the target (checkSystem: two nodes at least), so each figure has a
        // value; a system of one node wrote null cells here, its 0/0 (stop 76), before it was refused (stop 77)
        double hit = (double) c.hits() / c.translations();
        double lat = SimTime.toNs(c.totalLatencyPs()) / c.translations();
        double rate = (double) (nodes.length - 1) * puts / SimTime.toSeconds(job.lastRunPs()) / 1e6;
        table.row(pageSize.toString(), pattern, Figures.round(hit, 3), Figures.round(lat, 3), Figures.round(rate, 3));
        report.metric("iommu.hitRate." + pageSize + "." + pattern, Figures.round(hit, 3), "");
        report.cost(sys.now(), sys.eventsExecuted());
        progress.update((double) ++done / (sizes.size() * patterns.size()), report.simulatedPs(), report.events());
      }
    }
    report.table(table.build());
    return report;
  }
}
