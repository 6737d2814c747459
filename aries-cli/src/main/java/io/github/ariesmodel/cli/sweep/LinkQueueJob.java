package io.github.ariesmodel.cli.sweep;

import io.github.ariesmodel.core.packet.WireFormat;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.report.Results;
import io.github.ariesmodel.cli.report.RunMetadata;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A small built-in sweep job that needs no system: one Aries rank-1 link modelled as an M/D/1 queue of maximum-size
 * request packets, simulated packet by packet. It exists so that {@code sweep} and {@code merge} can be tried and
 * tested end to end, and it checks itself against the Pollaczek–Khinchine formula for the M/D/1 mean wait.
 *
 * <p>Model: Poisson arrivals at rate {@code load / service}; every packet carries {@link WireFormat#MAX_PAYLOAD} bytes
 * and occupies the link for {@code WireFormat.wireBytes(true, 64)} bytes at 5.25 GB/s, the intra-group per-direction
 * link rate (aries-facts §1, [S3 via S1]); first come, first served; no flow control, no router pipeline. Fidelity:
 * queueing only, far below the real fabric model.
 *
 * <p>Parameters: {@code load} (offered load in (0, 1), required), {@code seed} (long, default 1), {@code packets}
 * (number simulated, 1..10,000,000, default 20,000). Any other parameter is an error.
 */
final class LinkQueueJob {

  /** Name used with {@code --job}. */
  static final String NAME = "link-queue";
  /** One line for {@code --list-jobs}. */
  static final String DESCRIPTION =
      "one rank-1 link as an M/D/1 queue of 64-byte packets (params: load, seed, packets); a demo and self-check";

  /** Link rate used, bytes per second: 5.25 GB/s [S3 via S1]. */
  static final double LINK_BYTES_PER_SECOND = 5.25e9;

  private static final Set<String> KNOWN = Set.of("load", "seed", "packets");

  private LinkQueueJob() {}

  /** @return picoseconds one maximum-size request packet occupies the link */
  static long servicePs() {
    return Math.round(WireFormat.wireBytes(true, WireFormat.MAX_PAYLOAD) * 1e12 / LINK_BYTES_PER_SECOND);
  }

  static Results run(Map<String, String> params) {
    for (String k : params.keySet()) {
      if (!KNOWN.contains(k)) {
        throw new IllegalArgumentException(NAME + ": unknown parameter \"" + k + "\"; known are load, seed, packets");
      }
    }
    String loadText = params.get("load");
    if (loadText == null) {
      throw new IllegalArgumentException(NAME + ": parameter load is required (offered load in (0, 1))");
    }
    double load = parseDouble("load", loadText);
    if (!(load > 0 && load < 1)) {
      throw new IllegalArgumentException(NAME + ": load must be in (0, 1) but was " + loadText);
    }
    long seed = parseLong("seed", params.getOrDefault("seed", "1"));
    long packets = parseLong("packets", params.getOrDefault("packets", "20000"));
    if (packets < 1 || packets > 10_000_000) {
      throw new IllegalArgumentException(NAME + ": packets must be in [1, 10000000] but was " + packets);
    }
    long service = servicePs();
    double meanGapPs = service / load;
    SplittableRandom rng = new SplittableRandom(seed);
    long[] latency = new long[(int) packets];
    double arrival = 0;
    long linkFree = 0;
    double sum = 0;
    for (int i = 0; i < packets; i++) {
      arrival += -Math.log(1 - rng.nextDouble()) * meanGapPs;
      long at = (long) arrival;
      long start = Math.max(at, linkFree);
      linkFree = start + service;
      latency[i] = linkFree - at;
      sum += latency[i];
    }
    long[] sorted = latency.clone();
    Arrays.sort(sorted);
    double meanNs = sum / packets / 1e3;
    double p99Ns = sorted[(int) Math.min(packets - 1, (long) Math.ceil(0.99 * packets) - 1)] / 1e3;
    double theoryNs = (service + load * service / (2 * (1 - load))) / 1e3;
    ResultTable.Builder t = ResultTable.builder("latency-histogram").integer("upper", "ns").integer("packets", "");
    long bucketNs = 1;
    int idx = 0;
    while (idx < sorted.length) {
      long upperPs = bucketNs * 1000;
      int n = 0;
      while (idx < sorted.length && sorted[idx] <= upperPs) {
        idx++;
        n++;
      }
      if (n > 0) {
        t.row(bucketNs, (long) n);
      }
      bucketNs *= 2;
    }
    RunMetadata m = RunMetadata.builder(RunMetadata.currentTool(), NAME)
        .seed(seed)
        .parameter("load", loadText)
        .parameter("packets", Long.toString(packets))
        .simulatedTimePs(linkFree)
        .events(2 * packets)
        .build();
    return Results.builder(m)
        .metric("latency.mean", meanNs, "ns")
        .metric("latency.p99", p99Ns, "ns")
        .metric("latency.md1", theoryNs, "ns")
        .metric("service", service / 1e3, "ns")
        .table(t.build())
        .build();
  }

  private static double parseDouble(String name, String v) {
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(NAME + ": " + name + " must be a number but was \"" + v + "\"", e);
    }
  }

  private static long parseLong(String name, String v) {
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(NAME + ": " + name + " must be a whole number but was \"" + v + "\"", e);
    }
  }
}
