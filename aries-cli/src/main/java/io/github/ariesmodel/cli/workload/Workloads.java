package io.github.ariesmodel.cli.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/** The built-in workloads, chosen by name. */
public enum Workloads {
  /** The default job: a mixed workload on one full group. */
  MIXED(MixedWorkload::new),
  /** Ping-pong latency by size and distance. */
  PINGPONG(PingPongWorkload::new),
  /** Put and get bandwidth by size. */
  BANDWIDTH(BandwidthWorkload::new),
  /** Random remote atomic updates. */
  GUPS(GupsWorkload::new),
  /** All-to-all exchange. */
  ALLTOALL(AllToAllWorkload::new),
  /** Synthetic traffic load sweeps. */
  TRAFFIC(TrafficWorkload::new),
  /** IOMMU behaviour vs page size and access pattern. */
  IOMMU_STUDY(IommuStudyWorkload::new),
  /** MPI ping-pong latency (osu_latency) by size and distance. */
  MPI_LATENCY(MpiLatencyWorkload::new),
  /** MPI bandwidth (osu_bw) by size and distance. */
  MPI_BANDWIDTH(MpiBandwidthWorkload::new),
  /** MPI barrier and 8-byte allreduce latency by node count, in software and on the collective engine. */
  MPI_COLLECTIVES(MpiCollectivesWorkload::new),
  /** MPI one-sided latency (osu_put_latency, osu_get_latency) by synchronization, size and distance. */
  MPI_RMA(MpiRmaWorkload::new),
  /** Replay of an MPI trace (needs {@code -p trace=PATH}). */
  REPLAY(ReplayWorkload::new),
  /** The host cache's NIC write policies: put-to-observe latency, message rate, hot-spot AMO rate. */
  HOST_CACHE(HostCacheWorkload::new),
  /** The put issue rate of one node by SHMEM PEs a node (S1 Fig 13). */
  PUT_RATE(PutRateWorkload::new);

  private final Supplier<Workload> factory;

  Workloads(Supplier<Workload> factory) {
    this.factory = factory;
  }

  /** @return a new instance of the workload */
  public Workload create() {
    return factory.get();
  }

  /**
   * The workload with a name.
   *
   * @param name e.g. {@code pingpong}
   * @return a new instance
   * @throws IllegalArgumentException listing the names when none matches
   */
  public static Workload byName(String name) {
    String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    for (Workloads w : values()) {
      Workload x = w.create();
      if (x.name().equals(n)) {
        return x;
      }
    }
    throw new IllegalArgumentException("workload must be one of " + String.join(", ", names()) + " but was \""
        + io.github.ariesmodel.core.Texts.abbreviate(name) + "\"");
  }

  /** @return every workload's name */
  public static List<String> names() {
    List<String> out = new ArrayList<>();
    for (Workloads w : values()) {
      out.add(w.create().name());
    }
    return out;
  }

  /**
   * @return the names of the replay's metrics that count what it could not take from the trace, in their order
   *     (what {@code replay --json}'s summary repeats)
   */
  public static List<String> replayTraceCounts() {
    return ReplayWorkload.TRACE_COUNTS.stream().map(ReplayWorkload.TraceCount::metric).toList();
  }
}
