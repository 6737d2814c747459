package io.github.ariesmodel.cli.validate;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.network.Dragonfly;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.FabricKind;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import io.github.ariesmodel.cli.workload.Measurements;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures the model against the published Aries figures (aries-facts §7), each by a small simulation with the
 * default configuration:
 *
 * <ul>
 *   <li>8-byte put latency between nearest nodes (two NICs of one Aries): one-way latency as half a put ping-pong
 *       round trip, each side woken by the put's remote event — 0.8 µs [S3 via S1];
 *   <li>latency added by a router-to-router hop: rank-1 pair minus same-router pair — about 100 ns [S3 via S1];
 *   <li>any pair on a quiet network: the pair with the most minimal hops between two groups of a multi-group system —
 *       under 2 µs [S3 via S1];
 *   <li>NIC peak: four back-to-back 4 MiB puts over an ideal (router-less) network — 10.2 GB/s [S2 via S1];
 *   <li>rank-1 (electrical) and rank-3 (optical) link rates: the wire bytes per second of an in-order (single path)
 *       stream of four 4 MiB puts whose bottleneck is one such link — 5.25 and 4.7 GB/s per direction [S3 via S1].
 * </ul>
 */
public final class Validation {

  /** One figure's outcome. */
  public record Row(PublishedFigure figure, double model) {
    /** @return model / published */
    public double ratio() {
      return model / figure.value();
    }

    /** @return whether the figure is reproduced */
    public boolean passed() {
      return figure.accepts(model);
    }
  }

  /** The published figures, in the order they are checked. */
  public static final List<PublishedFigure> FIGURES = List.of(
      new PublishedFigure("put8-nearest-latency", "8-byte put, nearest nodes (same Aries), one way", 800, "ns", false,
          "S3 via S1 (aries-facts §7)"),
      new PublishedFigure("per-hop-latency", "latency added per router-to-router hop, quiet network", 100, "ns",
          false, "S3 via S1 (aries-facts §7)"),
      new PublishedFigure("farthest-pair-latency", "8-byte put, farthest pair of a multi-group system, one way", 2000,
          "ns", true, "S3 via S1: any pair < 2 us (aries-facts §7)"),
      new PublishedFigure("nic-peak-bandwidth", "NIC peak put bandwidth (no network limit)", 10.2, "GB/s", false,
          "S2 via S1: 64 B per 5 cycles at 800 MHz (aries-facts §3)"),
      new PublishedFigure("rank1-link-rate", "rank-1 (electrical) link rate, per direction", 5.25, "GB/s", false,
          "S3 via S1 (aries-facts §1)"),
      new PublishedFigure("rank3-link-rate", "rank-3 (optical) link rate, per direction", 4.7, "GB/s", false,
          "S3 via S1 (aries-facts §1)"));

  private final long seed;

  /** @param seed the seed of every system built */
  public Validation(long seed) {
    this.seed = seed;
  }

  /** @return every figure, measured */
  public List<Row> run() {
    List<Row> rows = new ArrayList<>();
    double nearest = pingPongNs("default", 0, 1);
    double rank1 = pingPongNs("default", 0, 4);
    rows.add(new Row(FIGURES.get(0), nearest));
    rows.add(new Row(FIGURES.get(1), rank1 - nearest));
    rows.add(new Row(FIGURES.get(2), farthestPairNs()));
    rows.add(new Row(FIGURES.get(3), nicPeakGBps()));
    rows.add(new Row(FIGURES.get(4), linkRateGBps("default", 0, 4)));
    AriesSystem two = AriesSystem.builder().system("two-groups").build();
    rows.add(new Row(FIGURES.get(5), linkRateGBps("two-groups", 0, globalPeerNode(two.topology()))));
    return rows;
  }

  /** One-way 8-byte put latency between two nodes, ns (the ping-pong workload's measurement, 20 round trips). */
  double pingPongNs(String system, int a, int b) {
    AriesSystem sys = AriesSystem.builder().system(system).seed(seed).build();
    ShmemJob job = ShmemJob.builder(sys).nodes(a, b).build();
    return Measurements.pingPongOneWayNs(job, job.allocate(8), new long[] {8}, 20)[0];
  }

  /** The farthest pair of a 9-group system (Theta): from node 0 to the node with the most minimal hops. */
  double farthestPairNs() {
    AriesSystem sys = AriesSystem.builder().system("theta").seed(seed).build();
    Dragonfly t = sys.topology();
    int best = -1;
    int bestHops = -1;
    for (int r = t.routersPerGroup(); r < t.routerCount(); r++) {
      int h = t.minimalHops(0, r);
      if (h > bestHops) {
        bestHops = h;
        best = r;
      }
    }
    return pingPongNs("theta", 0, best * t.nodesPerRouter());
  }

  /**
   * Put bandwidth of four back-to-back 4 MiB puts over an ideal, router-less network, GB/s: a peak, so transfers
   * are large enough that per-transaction setup (a BTE descriptor, the first host read) is amortized.
   */
  double nicPeakGBps() {
    AriesSystem sys = AriesSystem.builder().system("default").fabric(FabricKind.IDEAL).seed(seed).build();
    return streamGBps(ShmemJob.builder(sys).nodes(0, 1).pageSize(PageSize.SIZE_2M).build());
  }

  /** Payload bandwidth of four back-to-back 4 MiB puts from PE 0 to PE 1, GB/s. */
  private static double streamGBps(ShmemJob job) {
    long size = 4L << 20;
    int n = 4;
    Symmetric src = job.allocate(size);
    double[] gbps = new double[1];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        long start = pe.now();
        for (int k = 0; k < n; k++) {
          pe.putmem(src, 0, src, 0, size, 1);
        }
        pe.quiet();
        gbps[0] = n * size / SimTime.toSeconds(pe.now() - start) / 1e9;
      }
    });
    return gbps[0];
  }

  /**
   * Wire rate of the bottleneck link of an in-order (single-path) put stream between two nodes: payload bandwidth
   * × wire bytes per payload byte (84 B on the wire per 64 B packet, {@link
   * io.github.ariesmodel.core.packet.WireFormat}).
   */
  double linkRateGBps(String system, int a, int b) {
    AriesSystem sys = AriesSystem.builder().system(system).seed(seed).build();
    double payload = streamGBps(ShmemJob.builder(sys).nodes(a, b).pageSize(PageSize.SIZE_2M)
        .deliveryMode(DeliveryMode.IN_ORDER).build());
    double wirePerPayload = io.github.ariesmodel.core.packet.WireFormat.wireBytes(true, 64) / 64.0;
    return payload * wirePerPayload;
  }

  /** A node in group 1 whose router has a direct global link from router 0's group, reached in one global hop. */
  static int globalPeerNode(Dragonfly t) {
    for (int port = 0; port < t.portCount(); port++) {
      int n = t.neighborRouter(0, port);
      if (n >= 0 && t.groupOfRouter(n) != 0) {
        return n * t.nodesPerRouter();
      }
    }
    return t.routersPerGroup() * t.nodesPerRouter();
  }
}
