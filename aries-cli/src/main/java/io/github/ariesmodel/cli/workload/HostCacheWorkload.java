package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.cli.report.PlotSpec;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.core.AmoKind;
import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.core.cache.HostCacheConfig;
import io.github.ariesmodel.core.spi.HostCache;
import io.github.ariesmodel.core.spi.HostCacheStatistic;
import io.github.ariesmodel.core.spi.NicWritePolicy;
import io.github.ariesmodel.nic.NicStatistics;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The node's memory hierarchy seen from a program (issue 12, docs/memory-hierarchy.md): for each NIC write policy of
 * the host cache ({@code update}, {@code invalidate}, {@code bypass}) and with no cache ({@code none}),
 *
 * <ul>
 *   <li><b>put-to-observe latency</b>: PE 0 puts an 8-byte flag into PE 1's memory while PE 1 polls it; the time from
 *       the put's post to the poll that sees the value, averaged over {@code rounds} ping-pong rounds (PE 1 answers
 *       each round with a put PE 0 polls for, so rounds do not overlap). The poller's line is cached, so the policy
 *       decides whether the poll that sees the value hits ({@code update}) or misses ({@code invalidate},
 *       {@code bypass});
 *   <li><b>message rate</b>: PE 0 puts {@code messages} 8-byte messages into consecutive slots and PE 1 polls each in
 *       turn; messages per second from the first post to the last observation;
 *   <li><b>hot-spot AMO rate</b>: {@code pes} PEs apply {@code amos} fetching adds each to one word at PE 0 with the
 *       uncached command ({@code FIADD}). It is the same in every mode: the target NIC executes AMOs, not the host
 *       CPU.
 * </ul>
 *
 * A second table, {@code host-cache-amo}, runs the hot-spot test on the first mode's system with the uncached
 * ({@code FIADD}) and the cached ({@code FIADD_C}) command: the NIC's AMO cache keeps the hot word, so the cached
 * command's adds after the first skip the host read round trip. Its columns: the rate, the mean time a PE waits for
 * one fetching add, and the target NIC's AMO-cache hits, misses and write-backs.
 */
final class HostCacheWorkload implements Workload {

  /** The workload's name. */
  public static final String NAME = "host-cache";

  private static final List<String> MODES = List.of("update", "invalidate", "bypass", "none");

  /** The hot-spot commands of the {@code host-cache-amo} table: uncached, then cached. */
  private static final List<AmoOperation> AMO_COMMANDS =
      List.of(AmoOperation.of(AmoKind.IADD, true, 64), AmoOperation.of(AmoKind.IADD, true, 64, true));

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "put-to-observe latency, message rate and hot-spot AMO rate per host-cache NIC write policy;"
        + " hot-spot AMO rate with and without the NIC's AMO cache";
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("rounds", "50: ping-pong rounds of the put-to-observe test");
    m.put("messages", "200: 8-byte messages of the message-rate test");
    m.put("pes", "8: PEs of the hot-spot AMO test");
    m.put("amos", "50: fetching adds per PE on the hot word");
    m.put("modes", "update,invalidate,bypass,none: host-cache modes to measure, in this order");
    return m;
  }

  @Override
  public WorkloadReport run(SystemSpec spec, Params params, Progress progress) {
    params.checkAllUsed(parameters().keySet());
    int rounds = params.integer("rounds", 50, 1, 100_000);
    int messages = params.integer("messages", 200, 1, 1_000_000);
    int pes = params.integer("pes", 8, 2, 4096);
    int amos = params.integer("amos", 50, 1, 1_000_000);
    List<String> modes = params.choices("modes", String.join(",", MODES), MODES);
    ResultTable.Builder table = ResultTable.builder("host-cache")
        .string("mode").number("putToObserveLatency", "ns").number("messageRate", "M/s").number("amoRate", "M/s")
        .integer("targetLoadHits", "").integer("targetLoadMisses", "");
    ResultTable.Builder amoTable = ResultTable.builder("host-cache-amo")
        .string("command").number("amoRate", "M/s").number("amoLatency", "ns").integer("amoCacheHits", "")
        .integer("amoCacheMisses", "").integer("amoCacheWriteBacks", "");
    WorkloadReport report = new WorkloadReport();
    long simulated = 0;
    long events = 0;
    for (String mode : modes) {
      AriesSystem sys = build(spec, mode);
      int pesHere = Math.min(pes, sys.nodeCount());
      int[] pair = Distances.spread(sys.topology(), 2);
      double latencyNs = putToObserveNs(sys, pair, rounds);
      double messageRate = messageRate(sys, pair, messages);
      double amoRate = hotSpotAmos(sys, Distances.spread(sys.topology(), pesHere), amos, AMO_COMMANDS.get(0))[0];
      HostCache target = sys.node(pair[1]).hostCache();
      table.row(mode, Figures.round(latencyNs, 3), Figures.round(messageRate / 1e6, 3), Figures.round(amoRate / 1e6,
          3), target.count(HostCacheStatistic.CPU_LOAD_HIT), target.count(HostCacheStatistic.CPU_LOAD_MISS));
      report.metric(NAME + "." + mode + ".putToObserveLatency", Figures.round(latencyNs, 3), "ns");
      simulated += sys.loop().now();
      events += sys.loop().eventsExecuted();
    }
    // The hot-spot test with and without the AMO cache, each on a fresh system of the first mode (the AMO cache does
    // not depend on the host cache's mode: AMOs never go through the host CPU).
    for (AmoOperation op : AMO_COMMANDS) {
      AriesSystem sys = build(spec, modes.get(0));
      int[] nodes = Distances.spread(sys.topology(), Math.min(pes, sys.nodeCount()));
      double[] rateAndLatency = hotSpotAmos(sys, nodes, amos, op);
      NicStatistics nic = sys.node(nodes[0]).nicStatistics();
      String name = op.cached() ? "cached" : "uncached";
      amoTable.row(op.toString(), Figures.round(rateAndLatency[0] / 1e6, 3), Figures.round(rateAndLatency[1], 3),
          nic.amoCacheHits(), nic.amoCacheMisses(), nic.amoCacheWriteBacks());
      report.metric(NAME + ".amo." + name + ".amoRate", Figures.round(rateAndLatency[0] / 1e6, 3), "M/s");
      simulated += sys.loop().now();
      events += sys.loop().eventsExecuted();
    }
    report.table(table.build());
    report.table(amoTable.build());
    report.plot(new PlotSpec("host-cache-put-to-observe.png", "Put-to-observe latency by host-cache mode",
        PlotSpec.Kind.BARS, "host-cache", "mode", "putToObserveLatency", null));
    report.plot(new PlotSpec("host-cache-amo-rate.png", "Hot-spot fetching-add rate, uncached and cached command",
        PlotSpec.Kind.BARS, "host-cache-amo", "command", "amoRate", null));
    report.cost(simulated, events);
    return report;
  }

  private static AriesSystem build(SystemSpec spec, String mode) {
    return spec.build(b -> {
      if (mode.equals("none")) {
        b.noHostCache();
      } else {
        b.hostCache(HostCacheConfig.xc40().withNicWritePolicy(NicWritePolicy.parse(mode)));
      }
    });
  }

  /** Mean time from PE 0's put of a flag to PE 1's poll that sees it. */
  private static double putToObserveNs(AriesSystem sys, int[] pair, int rounds) {
    ShmemJob job = ShmemJob.builder(sys).nodes(pair).build();
    Symmetric flag = job.allocate(64);
    Symmetric ack = job.allocate(64);
    long[] posted = new long[rounds];
    long[] observed = new long[rounds];
    job.run(pe -> {
      for (int r = 0; r < rounds; r++) {
        long value = r + 1;
        if (pe.myPe() == 0) {
          posted[r] = pe.now();
          pe.putLong(flag, 0, value, 1);
          pe.waitUntil(ack, 0, v -> v == value);
        } else {
          pe.waitUntil(flag, 0, v -> v == value);
          observed[r] = pe.now();
          pe.putLong(ack, 0, value, 0);
        }
      }
      pe.quiet();
    });
    long sum = 0;
    for (int r = 0; r < rounds; r++) {
      sum += observed[r] - posted[r];
    }
    return SimTime.toNs(sum) / rounds;
  }

  /** Messages per second: PE 0 puts 8-byte messages into consecutive slots, PE 1 polls each in turn. */
  private static double messageRate(AriesSystem sys, int[] pair, int messages) {
    ShmemJob job = ShmemJob.builder(sys).nodes(pair).build();
    Symmetric slots = job.allocate(8L * messages);
    long[] span = new long[2];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        span[0] = pe.now();
        for (int m = 0; m < messages; m++) {
          pe.putLong(slots, 8L * m, m + 1, 1);
        }
        pe.quiet();
      } else {
        for (int m = 0; m < messages; m++) {
          long expected = m + 1;
          pe.waitUntil(slots, 8L * m, v -> v == expected);
        }
        span[1] = pe.now();
      }
    });
    return messages / SimTime.toSeconds(span[1] - span[0]);
  }

  /**
   * Every PE applies {@code amos} fetching adds of one command to one word at PE 0.
   *
   * @return the adds per second over the whole test, and the mean time a PE waited for one add (ns)
   */
  private static double[] hotSpotAmos(AriesSystem sys, int[] nodes, int amos, AmoOperation op) {
    ShmemJob job = ShmemJob.builder(sys).nodes(nodes).build();
    Symmetric word = job.allocate(8);
    long start = sys.loop().now();
    long[] waited = new long[nodes.length];
    job.run(pe -> {
      for (int a = 0; a < amos; a++) {
        long t = pe.now();
        pe.atomic(op, word, 0, 1, 0, 0);
        waited[pe.myPe()] += pe.now() - t;
      }
    });
    long sum = 0;
    for (long w : waited) {
      sum += w;
    }
    double rate = (double) nodes.length * amos / SimTime.toSeconds(sys.loop().now() - start);
    return new double[] {rate, SimTime.toNs(sum) / ((double) nodes.length * amos)};
  }
}
