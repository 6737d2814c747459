package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.FabricKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The default job: a short mixed workload that exercises every part of the model on one system. Ping-pong latency
 * by distance and size, put/get bandwidth by size, a GUPS-style AMO phase, an all-to-all exchange, a
 * synthetic-traffic load sweep and, last, the memory hierarchy's headline (a short {@code host-cache} run: the
 * put-to-observe latency with the host cache's {@code update} and {@code invalidate} NIC write policies, and a
 * hot-spot counter and lock with uncached and cached AMO commands). Each phase runs on systems of its own, so the
 * phases before the last give the figures they gave before it was added. On the ideal fabric the traffic phase is
 * left out (it loads the routers' links). Sized to finish in seconds on two cores for two Aries groups.
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

  /**
   * One phase: a workload with fixed parameters, and its part of the progress bar.
   *
   * @param start the fraction of the whole done when it starts
   * @param share its fraction of the whole
   * @param workload the workload
   * @param params its parameters
   */
  private record Phase(double start, double share, Workload workload, Map<String, String> params) {}

  /**
   * The phases, in the order they run. Shares of the whole, from measured wall times of the parts on one group
   * (pingpong and traffic dominate).
   */
  private static final List<Phase> PHASES = List.of(
      new Phase(0.00, 0.30, new PingPongWorkload(), Map.of("sizes", "8,64,512,4K,32K,256K", "iterations", "5")),
      new Phase(0.30, 0.10, new BandwidthWorkload(), Map.of("sizes", "64,256,1K,4K,16K,64K,256K", "bytes", "512K")),
      new Phase(0.40, 0.10, new GupsWorkload(), Map.of("pes", "16", "updates", "128")),
      new Phase(0.50, 0.05, new AllToAllWorkload(), Map.of("pes", "16", "bytes", "2K")),
      new Phase(0.55, 0.42, new TrafficWorkload(), Map.of("loads", "0.2,0.5,0.8", "routings", "minimal,adaptive0")),
      new Phase(0.97, 0.03, new HostCacheWorkload(), Map.of("modes", "update,invalidate", "rounds", "20",
          "messages", "50", "pes", "8", "amos", "20")));

  private static void phase(WorkloadReport r, Progress progress, Phase p, SystemSpec spec) {
    double start = p.start();
    double share = p.share();
    r.addAll(p.workload().run(spec, Params.of(p.params()), progress.part(start, share, r.simulatedPs(),
        r.events())));
    progress.update(start + share, r.simulatedPs(), r.events());
  }

  /**
   * Whether a phase runs: all of them on the router fabric; on the ideal fabric all but the traffic phase, which loads
   * the routers' links and has none there (it used to run on routers all the same).
   */
  private static boolean runs(Phase p, boolean routers) {
    return routers || !(p.workload() instanceof TrafficWorkload);
  }

  @Override
  public Map<String, String> parameters() {
    return new LinkedHashMap<>();
  }

  /**
   * Also checks every phase's fixed parameters against the system, as the phase's run would: some are bounded by it
   * (16 PEs need 16 nodes), and a phase that cannot run would otherwise be found only after the phases before it.
   */
  @Override
  public void check(AriesSystem system, Params params) {
    Workload.super.check(system, params);
    for (Phase p : PHASES) {
      if (runs(p, system.routerFabric().isPresent())) {
        try {
          p.workload().check(system, Params.of(p.params()));
        } catch (IllegalArgumentException e) {
          // the phase's check tells the user to set a parameter of the phase, which mixed does not take: say which
          // phase cannot run instead
          throw new IllegalArgumentException("the " + NAME + " job's " + p.workload().name() + " phase cannot run on"
              + " this system: " + String.valueOf(e.getMessage()).replaceAll(" \\(the default; set [^)]*\\)$", "")
              + "; run the workloads that fit it on their own", e);
        }
      }
    }
  }

  @Override
  public WorkloadReport run(SystemSpec spec, Params params, Progress progress) {
    params.checkAllUsed(parameters().keySet());
    WorkloadReport r = new WorkloadReport();
    for (Phase p : PHASES) {
      if (runs(p, spec.fabric() == FabricKind.ROUTERS)) {
        phase(r, progress, p, spec);
      }
    }
    progress.update(1.0, r.simulatedPs(), r.events());
    return r;
  }
}
