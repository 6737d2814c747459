package io.github.ariesmodel.sim.workload;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The default job: a short mixed workload that exercises every part of the model on one system. Ping-pong latency
 * by distance and size, put/get bandwidth by size, a GUPS-style AMO phase, an all-to-all exchange and a
 * synthetic-traffic load sweep. Sized to finish in well under a minute on two cores for one Aries group.
 */
public final class MixedWorkload implements Workload {

  /** The workload's name. */
  public static final String NAME = "mixed";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "the default job: latency, bandwidth, AMO rate, all-to-all and traffic on one system";
  }

  @Override
  public Map<String, String> parameters() {
    return new LinkedHashMap<>();
  }

  @Override
  public WorkloadReport run(SystemSpec spec, Params params) {
    params.checkAllUsed(parameters().keySet());
    WorkloadReport r = new WorkloadReport();
    r.addAll(new PingPongWorkload().run(spec, Params.of(Map.of("sizes", "8,64,512,4K,32K,256K", "iterations", "5"))));
    r.addAll(new BandwidthWorkload().run(spec, Params.of(Map.of("sizes", "64,256,1K,4K,16K,64K,256K",
        "bytes", "512K"))));
    r.addAll(new GupsWorkload().run(spec, Params.of(Map.of("pes", "16", "updates", "128"))));
    r.addAll(new AllToAllWorkload().run(spec, Params.of(Map.of("pes", "16", "bytes", "2K"))));
    r.addAll(new TrafficWorkload().run(spec, Params.of(Map.of("loads", "0.2,0.5,0.8",
        "routings", "minimal,adaptive0"))));
    return r;
  }
}
