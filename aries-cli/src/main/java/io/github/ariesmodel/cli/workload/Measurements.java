package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.iommu.Iommu;
import io.github.ariesmodel.iommu.TranslationStatistics;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;

/**
 * Measurement loops and counters that more than one workload (or the validation) uses: the one place for them, so
 * that no workload borrows another's helpers. Node choice by distance lives beside it in {@link Distances}.
 */
public final class Measurements {

  /**
   * A SHMEM job builder with the delivery modes a workload's {@code -p modes=} asks for: {@code ugni} gives every post
   * ADAPTIVE_0 (uGNI's default, as the published curves ran), {@code dmapp} leaves DMAPP's defaults. On a system
   * built with an explicit routing the modes choose no route (and {@code ShmemJob} refuses an explicit mode there), so
   * none is set.
   *
   * @param jb the job builder
   * @param sys the system the job runs on
   * @param ugni whether {@code -p modes=ugni}
   * @return {@code jb}
   */
  public static ShmemJob.Builder deliveryModes(ShmemJob.Builder jb, AriesSystem sys, boolean ugni) {
    boolean modesRoute = sys.routerFabric().isEmpty() || sys.routingName().equals(AriesSystem.Builder.BY_DELIVERY_MODE);
    return ugni && modesRoute ? jb.deliveryMode(io.github.ariesmodel.core.DeliveryMode.ADAPTIVE_0) : jb;
  }

  private Measurements() {}

  /**
   * One-way latency by message size between a job's two PEs: PE 0 puts, PE 1 waits for the put's remote event and
   * puts back; half the mean round trip after one warm-up exchange (a uGNI-level ping-pong: a SHMEM program would
   * test the buffer's memory instead).
   *
   * @param job a job of exactly two PEs, built with {@link ShmemJob.Builder#remoteEvents(boolean) remoteEvents(true)}
   * @param buf a symmetric buffer of at least the largest size
   * @param sizes message sizes, bytes
   * @param iterations round trips per size (above 8 KB proportionally fewer, at least 2)
   * @return one-way latency per size, ns
   */
  public static double[] pingPongOneWayNs(ShmemJob job, Symmetric buf, long[] sizes, int iterations) {
    if (job.nPes() != 2) {
      throw new IllegalArgumentException("a ping-pong needs exactly 2 PEs but the job has " + job.nPes());
    }
    if (!job.remoteEvents()) {
      throw new IllegalArgumentException("a ping-pong waits for REMOTE events: build its job with remoteEvents(true)");
    }
    double[] latencyNs = new double[sizes.length];
    job.run(pe -> {
      long events = 0;
      for (int si = 0; si < sizes.length; si++) {
        long size = sizes[si];
        int iters = iterationsFor(size, iterations);
        long start = 0;
        for (int i = 0; i <= iters; i++) {
          if (i == 1) {
            start = pe.now();
          }
          events++;
          if (pe.myPe() == 0) {
            pe.putmem(buf, 0, buf, 0, size, 1);
            pe.waitRemoteEvents(events);
          } else {
            pe.waitRemoteEvents(events);
            pe.putmem(buf, 0, buf, 0, size, 0);
          }
        }
        pe.quiet();
        if (pe.myPe() == 0) {
          latencyNs[si] = SimTime.toNs(pe.now() - start) / (2.0 * iters);
        }
      }
    });
    return latencyNs;
  }

  /** Fewer round trips for large messages: at least 2, at most {@code iterations}. */
  static int iterationsFor(long size, int iterations) {
    if (size <= 8192) {
      return iterations;
    }
    return (int) Math.max(2, Math.min(iterations, iterations * 8192L / size));
  }

  /** Sums the network-request translation statistics of the nodes' IOMMUs (empty when translation is flat). */
  static TranslationCounts networkTranslations(AriesSystem sys, int[] nodes) {
    long tr = 0;
    long hits = 0;
    long lat = 0;
    for (int n : nodes) {
      AddressTranslation t = sys.node(n).translation();
      if (t instanceof Iommu iommu) {
        TranslationStatistics s = iommu.statistics().client(TranslationClient.NETWORK_REQUEST);
        tr += s.translations();
        hits += s.hits();
        lat += s.totalLatencyPs();
      }
    }
    return new TranslationCounts(tr, hits, lat);
  }

  /** Network-request translation counters summed over nodes. */
  record TranslationCounts(long translations, long hits, long totalLatencyPs) {}
}
