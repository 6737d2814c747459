package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.OsNoise;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * All-to-all personalized exchange: every PE puts {@code bytes} into every other PE's receive buffer (PE i starts
 * with PE i + 1 to spread the load), then quiet and barrier. Reports the exchange time and the aggregate bandwidth
 * (bytes moved over the whole exchange time).
 */
final class AllToAllWorkload implements Workload {

  /** The workload's name. */
  public static final String NAME = "alltoall";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "all-to-all personalized exchange: time and aggregate bandwidth";
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("pes", "32: processing elements, spread over the system");
    m.put("bytes", "4K: bytes each PE sends to each other PE");
    m.put(NoiseParam.NAME, NoiseParam.HELP);
    m.put(WorkBound.ALLOW_LONG, WorkBound.HELP);
    return m;
  }

  /**
   * The parameters as {@link #run} uses them, read and range-checked in this one place, which {@link #check} shares.
   *
   * @param pes processing elements
   * @param bytes bytes each PE sends to each other PE
   */
  private record Settings(int pes, long bytes) {

    /** Reads the parameters; the system bounds the PEs (its nodes) and is not otherwise touched. */
    static Settings read(AriesSystem system, Params params) {
      int pes = params.integer("pes", 32, 2, Math.min(4096, system.nodeCount()));
      long bytes = params.longValue("bytes", 4096, 1, 1L << 26);
      // Each PE's node holds the send buffer and a receive buffer of bytes x pes (2 MB pages, as run registers them):
      // checked as one table, whose page tables are within a 4 KB table of the two allocations' (TableMemory's
      // reserve covers it), so that too many bytes are refused here and not as "physical memory exhausted" mid-run.
      long buffers = PageSize.SIZE_2M.alignUp(bytes) + bytes * pes;
      long memory = system.nodeMemoryBytes();
      if (!TableMemory.fits(buffers, PageSize.SIZE_2M, memory)) {
        throw new IllegalArgumentException("bytes x pes must fit a node's memory with the send buffer: at most "
            + TableMemory.largest(PageSize.SIZE_2M, memory) + " bytes of buffers (node memory " + memory + " less "
            + TableMemory.RUNTIME_RESERVE + " for the SHMEM runtime and page tables) but bytes=" + bytes + " and pes="
            + pes + " need " + buffers);
      }
      // each PE sends its bytes to each other PE
      WorkBound.check(params, WorkBound.times(WorkBound.packets(bytes), (long) pes * (pes - 1)), "fewer bytes or pes");
      return new Settings(pes, bytes);
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
    Settings settings = Settings.read(sys, params);
    int pes = settings.pes();
    long bytes = settings.bytes();
    ShmemJob job = ShmemJob.builder(sys).nodes(Distances.spread(sys.topology(), pes)).pageSize(PageSize.SIZE_2M)
        .build();
    Symmetric send = job.allocate(bytes);
    Symmetric recv = job.allocate(bytes * pes);
    job.run(pe -> {
      int n = pe.nPes();
      for (int k = 1; k < n; k++) {
        int to = (pe.myPe() + k) % n;
        pe.putmemNbi(recv, bytes * pe.myPe(), send, 0, bytes, to); // all posted, then one quiet
      }
      pe.barrierAll();
    });
    double seconds = SimTime.toSeconds(job.lastRunPs());
    double aggregate = (double) pes * (pes - 1) * bytes / seconds / 1e9;
    WorkloadReport report = new WorkloadReport();
    report.table(ResultTable.builder("alltoall")
        .integer("pes", "").integer("bytes", "B").number("time", "us").number("aggregateBandwidth", "GB/s")
        .number("perPeBandwidth", "GB/s")
        .row(pes, bytes, Figures.round(SimTime.toUs(job.lastRunPs()), 3), Figures.round(aggregate, 3),
            Figures.round(aggregate / pes, 3))
        .build());
    report.metric("alltoall.aggregateBandwidth", Figures.round(aggregate, 3), "GB/s");
    report.cost(sys.now(), sys.eventsExecuted());
    return report;
  }
}
