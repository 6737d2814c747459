package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.report.Figures;
import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.cli.system.SystemSpec;
import io.github.ariesmodel.core.AmoKind;
import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.SimTime;
import io.github.ariesmodel.core.cache.HostCacheConfig;
import io.github.ariesmodel.core.spi.HostCache;
import io.github.ariesmodel.core.spi.HostCacheStatistic;
import io.github.ariesmodel.core.spi.NicWritePolicy;
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
 *   <li><b>hot-spot AMO rate</b>: {@code pes} PEs apply {@code amos} fetching adds each to one word at PE 0.
 * </ul>
 *
 * The NIC's AMO cache (cached {@code _C} AMO commands) is not modelled yet, so the AMO rate is the uncached one and the
 * same in every mode (AMOs are executed by the target NIC, not the host CPU): it is reported as the reference the
 * cached commands will be compared with.
 */
final class HostCacheWorkload implements Workload {

  /** The workload's name. */
  public static final String NAME = "host-cache";

  private static final List<String> MODES = List.of("update", "invalidate", "bypass", "none");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "put-to-observe latency, message rate and hot-spot AMO rate per host-cache NIC write policy";
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("rounds", "50: ping-pong rounds of the put-to-observe test");
    m.put("messages", "200: 8-byte messages of the message-rate test");
    m.put("pes", "8: PEs of the hot-spot AMO test");
    m.put("amos", "50: fetching adds per PE on the hot word");
    return m;
  }

  @Override
  public WorkloadReport run(SystemSpec spec, Params params, Progress progress) {
    params.checkAllUsed(parameters().keySet());
    int rounds = params.integer("rounds", 50, 1, 100_000);
    int messages = params.integer("messages", 200, 1, 1_000_000);
    int pes = params.integer("pes", 8, 2, 4096);
    int amos = params.integer("amos", 50, 1, 1_000_000);
    ResultTable.Builder table = ResultTable.builder("host-cache")
        .string("mode").number("putToObserveLatency", "ns").number("messageRate", "M/s").number("amoRate", "M/s")
        .integer("targetLoadHits", "").integer("targetLoadMisses", "");
    WorkloadReport report = new WorkloadReport();
    long simulated = 0;
    long events = 0;
    for (String mode : MODES) {
      AriesSystem sys = spec.build(b -> {
        if (mode.equals("none")) {
          b.noHostCache();
        } else {
          b.hostCache(HostCacheConfig.xc40().withNicWritePolicy(NicWritePolicy.parse(mode)));
        }
      });
      int pesHere = Math.min(pes, sys.nodeCount());
      int[] pair = Distances.spread(sys.topology(), 2);
      double latencyNs = putToObserveNs(sys, pair, rounds);
      double messageRate = messageRate(sys, pair, messages);
      double amoRate = hotSpotAmoRate(sys, Distances.spread(sys.topology(), pesHere), amos);
      HostCache target = sys.node(pair[1]).hostCache();
      table.row(mode, Figures.round(latencyNs, 3), Figures.round(messageRate / 1e6, 3), Figures.round(amoRate / 1e6,
          3), target.count(HostCacheStatistic.CPU_LOAD_HIT), target.count(HostCacheStatistic.CPU_LOAD_MISS));
      report.metric(NAME + "." + mode + ".putToObserveLatency", Figures.round(latencyNs, 3), "ns");
      simulated += sys.loop().now();
      events += sys.loop().eventsExecuted();
    }
    report.table(table.build());
    report.cost(simulated, events);
    return report;
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

  /** Fetching adds per second on one word at PE 0 by every PE. */
  private static double hotSpotAmoRate(AriesSystem sys, int[] nodes, int amos) {
    ShmemJob job = ShmemJob.builder(sys).nodes(nodes).build();
    Symmetric word = job.allocate(8);
    AmoOperation op = AmoOperation.of(AmoKind.IADD, true, 64);
    long start = sys.loop().now();
    job.run(pe -> {
      for (int a = 0; a < amos; a++) {
        pe.atomic(op, word, 0, 1, 0, 0);
      }
    });
    return (double) nodes.length * amos / SimTime.toSeconds(sys.loop().now() - start);
  }
}
