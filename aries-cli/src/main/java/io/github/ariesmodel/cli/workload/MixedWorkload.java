package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.system.SystemSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The default job: a short mixed workload that exercises every part of the model on one system. Ping-pong latency
 * by distance and size, put/get bandwidth by size, a GUPS-style AMO phase, an all-to-all exchange, a
 * synthetic-traffic load sweep and, last, the memory hierarchy's headline (a short {@code host-cache} run: the
 * put-to-observe latency with the host cache's {@code update} and {@code invalidate} NIC write policies, and a
 * hot-spot counter and lock with uncached and cached AMO commands). Each phase runs on systems of its own, so the
 * phases before the last give the figures they gave before it was added. Sized to finish in seconds on two cores for
 * two Aries groups.
 */
final class MixedWorkload implements Workload {

  /** The workload's name. */
  public static final String NAME = "mixed";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "the default job: latency, bandwidth, AMO rate, all-to-all, traffic and the host-cache headline on one"
        + " system";
  }

  private static void phase(WorkloadReport r, Progress progress, double start, double share, Workload w,
      SystemSpec spec, Map<String, String> params) {
    r.addAll(w.run(spec, Params.of(params), progress.part(start, share, r.simulatedPs(), r.events())));
    progress.update(start + share, r.simulatedPs(), r.events());
  }

  @Override
  public Map<String, String> parameters() {
    return new LinkedHashMap<>();
  }

  @Override
  public WorkloadReport run(SystemSpec spec, Params params, Progress progress) {
    params.checkAllUsed(parameters().keySet());
    WorkloadReport r = new WorkloadReport();
    // Shares of the whole, from measured wall times of the parts on one group (pingpong and traffic dominate).
    phase(r, progress, 0.00, 0.30, new PingPongWorkload(), spec, Map.of("sizes", "8,64,512,4K,32K,256K",
        "iterations", "5"));
    phase(r, progress, 0.30, 0.10, new BandwidthWorkload(), spec, Map.of("sizes", "64,256,1K,4K,16K,64K,256K",
        "bytes", "512K"));
    phase(r, progress, 0.40, 0.10, new GupsWorkload(), spec, Map.of("pes", "16", "updates", "128"));
    phase(r, progress, 0.50, 0.05, new AllToAllWorkload(), spec, Map.of("pes", "16", "bytes", "2K"));
    phase(r, progress, 0.55, 0.42, new TrafficWorkload(), spec, Map.of("loads", "0.2,0.5,0.8",
        "routings", "minimal,adaptive0"));
    phase(r, progress, 0.97, 0.03, new HostCacheWorkload(), spec, Map.of("modes", "update,invalidate",
        "rounds", "20", "messages", "50", "pes", "8", "amos", "20"));
    progress.update(1.0, r.simulatedPs(), r.events());
    return r;
  }
}
