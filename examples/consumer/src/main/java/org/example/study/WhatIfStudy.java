package org.example.study;

import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.SystemStatistics;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A what-if study through the system library: routings × page sizes on one SHMEM job (random 8-byte puts between
 * processing elements spread over two Aries groups), reading the run time and the system-wide statistics.
 *
 * <p>Run it with {@code mvn -q exec:java}-style tooling or from the IDE: {@code main} prints the table.
 */
public final class WhatIfStudy {

  /**
   * One cell of the study.
   *
   * @param routing the routing name
   * @param pageSize the page size of every registration
   * @param runPs simulated time of the job, picoseconds
   * @param requestMisses PTE-cache misses of network requests, summed over nodes
   * @param requestHitRate their hit rate
   * @param nonMinimalFraction delivered packets routed through an intermediate group, as a fraction
   * @param statistics the whole system's statistics
   */
  public record Row(String routing, PageSize pageSize, long runPs, long requestMisses, double requestHitRate,
      double nonMinimalFraction, SystemStatistics statistics) {}

  private final int pes;
  private final int putsPerPe;
  private final long regionBytes;

  /**
   * @param pes processing elements, half in each group
   * @param putsPerPe random 8-byte puts each PE issues
   * @param regionBytes the symmetric region the puts land in
   */
  public WhatIfStudy(int pes, int putsPerPe, long regionBytes) {
    this.pes = pes;
    this.putsPerPe = putsPerPe;
    this.regionBytes = regionBytes;
  }

  /**
   * Runs every routing with every page size.
   *
   * @param routings routing names
   * @param pageSizes page sizes
   * @return one row per (routing, page size), routings outermost
   */
  public List<Row> run(List<String> routings, List<PageSize> pageSizes) {
    List<Row> rows = new ArrayList<>();
    for (String routing : routings) {
      for (PageSize page : pageSizes) {
        rows.add(cell(routing, page));
      }
    }
    return rows;
  }

  private Row cell(String routing, PageSize page) {
    AriesSystem sys = AriesSystem.builder().system("two-groups").routing(routing).seed(7).build();
    int[] nodes = new int[pes];
    int perGroup = sys.topology().nodeCount() / 2;
    for (int i = 0; i < pes; i++) {
      nodes[i] = (i % 2) * perGroup + (i / 2) * 13; // alternate groups, spread over routers
    }
    // No deliveryMode(...): with an explicit routing it would have no effect, and ShmemJob refuses it.
    ShmemJob job = ShmemJob.builder(sys).nodes(nodes).pageSize(page).build();
    Symmetric table = job.allocate(regionBytes);
    long words = regionBytes / 8;
    job.run(pe -> {
      SplittableRandom rnd = new SplittableRandom(1000 + pe.myPe());
      for (int i = 0; i < putsPerPe; i++) {
        pe.putLong(table, 8 * rnd.nextLong(words), i, rnd.nextInt(pe.nPes()));
      }
      pe.quiet();
    });
    SystemStatistics s = sys.statistics();
    SystemStatistics.Translations req = s.translations().get(TranslationClient.NETWORK_REQUEST);
    double nonMinimal = s.fabric().delivered() == 0 ? 0
        : (double) s.fabric().nonMinimalDelivered() / s.fabric().delivered();
    return new Row(routing, page, job.lastRunPs(), req.misses(), req.hitRate(), nonMinimal, s);
  }

  /**
   * @param rows the study's rows
   * @return a fixed-width table, one line per row
   */
  public static String table(List<Row> rows) {
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-10s %5s %12s %10s %9s %12s%n", "routing",
        "page", "run (us)", "misses", "hit rate", "non-minimal"));
    for (Row r : rows) {
      b.append(String.format(Locale.ROOT, "%-10s %5s %12.3f %10d %8.1f%% %11.1f%%%n", r.routing(), r.pageSize(),
          r.runPs() / 1e6, r.requestMisses(), 100 * r.requestHitRate(), 100 * r.nonMinimalFraction()));
    }
    return b.toString();
  }

  /**
   * Prints the study's table.
   *
   * @param args ignored
   */
  public static void main(String[] args) {
    List<Row> rows = new WhatIfStudy(16, 2_000, 256L << 20)
        .run(List.of("minimal", "adaptive0", "valiant"), List.of(PageSize.SIZE_4K, PageSize.SIZE_2M));
    System.out.print(table(rows));
    System.out.println(rows.get(rows.size() - 1).statistics());
  }
}
