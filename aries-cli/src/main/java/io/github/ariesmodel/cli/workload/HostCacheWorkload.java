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
 * A second table, {@code host-cache-amo}, runs two hot-spot tests on the first mode's system, each with uncached and
 * with cached ({@code _C}) commands: a <b>counter</b> ({@code pes} PEs apply {@code amos} fetching adds each,
 * {@code FIADD} or {@code FIADD_C}) and a <b>lock</b> ({@code pes} PEs acquire and release one lock word
 * {@code amos} times each: fetching compare-and-swap 0 → PE + 1 until it succeeds, then a non-fetching swap back to 0
 * and a quiet; {@code FCSWAP}/{@code SWAP} or {@code FCSWAP_C}/{@code SWAP_C}). The NIC's AMO cache keeps the hot
 * word, so cached AMOs after the first skip the host read round trip. Columns: the test, {@code uncached} or
 * {@code cached} commands and their mnemonics, operations (adds, or lock acquisitions) per second, AMOs the target
 * NIC executed per second, the mean time a PE waits for one fetching AMO, and the target NIC's AMO-cache hits,
 * misses and write-backs.
 */
final class HostCacheWorkload implements Workload {

  /** The workload's name. */
  public static final String NAME = "host-cache";

  private static final List<String> MODES = List.of("update", "invalidate", "bypass", "none");
  /** Every mode {@code modes} accepts: the default list and {@code allocate} (Data Direct I/O's write-allocate). */
  private static final List<String> ALL_MODES = List.of("update", "invalidate", "bypass", "allocate", "none");

  /** The tests of the {@code host-cache-amo} table. */
  private static final List<String> HOT_SPOT_TESTS = List.of("counter", "lock");

  /** What a hot-spot test measured. */
  private record HotSpot(double operationsPerSecond, double amosPerSecond, double meanWaitNs) {}

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
    m.put("modes", "update,invalidate,bypass,none: host-cache modes to measure, in this order (also allocate:"
        + " Data Direct I/O's write-allocate)");
    return m;
  }

  /**
   * The parameters as {@link #run} uses them, read and range-checked in this one place, which {@link #check} shares.
   *
   * @param rounds ping-pong rounds of the put-to-observe test
   * @param messages messages of the message-rate test
   * @param pes PEs of the hot-spot tests (at most the system's nodes are used)
   * @param amos operations per PE of the hot-spot tests
   * @param modes the host-cache modes to measure, in order
   */
  private record Settings(int rounds, int messages, int pes, int amos, List<String> modes) {

    static Settings read(Params params) {
      int rounds = params.integer("rounds", 50, 1, 100_000);
      int messages = params.integer("messages", 200, 1, 1_000_000);
      int pes = params.integer("pes", 8, 2, 4096);
      int amos = params.integer("amos", 50, 1, 1_000_000);
      List<String> modes = params.choices("modes", String.join(",", MODES), ALL_MODES);
      return new Settings(rounds, messages, pes, amos, modes);
    }
  }

  /** Also checks that the system has the two nodes the put-to-observe and message-rate tests use, as run picks them. */
  @Override
  public void check(AriesSystem system, Params params) {
    Workload.super.check(system, params);
    if (system.nodeCount() < 2) {
      // Distances.spread's own refusal read "count must be in [1, 1] but was 2", a count the user never gave
      throw new SystemUnfitException("host-cache", 2, system.nodeCount());
    }
    Settings.read(params);
    checkPes(system, params);
    Distances.spread(system.topology(), 2);
  }

  /**
   * The default {@code pes} is cut to the nodes there are (documented); a value the user gave is refused instead of
   * run as another and recorded as given.
   */
  private static void checkPes(AriesSystem system, Params params) {
    if (params.asMap().containsKey("pes")) {
      params.integer("pes", 8, 2, Math.max(2, Math.min(4096, system.nodeCount())));
    }
  }

  @Override
  public WorkloadReport run(SystemSpec spec, Params params, Progress progress) {
    params.checkAllUsed(parameters().keySet());
    Settings settings = Settings.read(params);
    int rounds = settings.rounds();
    int messages = settings.messages();
    int pes = settings.pes();
    int amos = settings.amos();
    List<String> modes = settings.modes();
    ResultTable.Builder table = ResultTable.builder("host-cache")
        .string("mode").number("putToObserveLatency", "ns").number("messageRate", "M/s").number("amoRate", "M/s")
        .integer("targetLoadHits", "").integer("targetLoadMisses", "");
    ResultTable.Builder amoTable = ResultTable.builder("host-cache-amo")
        .string("test").string("commands").string("command").number("operationRate", "M/s").number("amoRate", "M/s")
        .number("amoLatency", "ns").integer("amoCacheHits", "").integer("amoCacheMisses", "")
        .integer("amoCacheWriteBacks", "");
    WorkloadReport report = new WorkloadReport();
    long simulated = 0;
    long events = 0;
    for (String mode : modes) {
      AriesSystem sys = build(spec, mode);
      if (mode.equals(modes.get(0))) {
        checkPes(sys, params); // on the first system the run builds, before anything runs (one more would be counted)
      }
      int pesHere = Math.min(pes, sys.nodeCount());
      int[] pair = Distances.spread(sys.topology(), 2);
      double latencyNs = putToObserveNs(sys, pair, rounds);
      double messageRate = messageRate(sys, pair, messages);
      double amoRate = hotSpot(sys, Distances.spread(sys.topology(), pesHere), amos, false, false)
          .operationsPerSecond();
      HostCache target = sys.node(pair[1]).hostCache();
      table.row(mode, Figures.round(latencyNs, 3), Figures.round(messageRate / 1e6, 3), Figures.round(amoRate / 1e6,
          3), target.count(HostCacheStatistic.CPU_LOAD_HIT), target.count(HostCacheStatistic.CPU_LOAD_MISS));
      report.metric(NAME + "." + mode + ".putToObserveLatency", Figures.round(latencyNs, 3), "ns");
      simulated += sys.now();
      events += sys.eventsExecuted();
    }
    // The hot-spot test with and without the AMO cache, each on a fresh system of the first mode (the AMO cache does
    // not depend on the host cache's mode: AMOs never go through the host CPU).
    for (String test : HOT_SPOT_TESTS) {
      for (boolean cached : new boolean[] {false, true}) {
        AriesSystem sys = build(spec, modes.get(0));
        int[] nodes = Distances.spread(sys.topology(), Math.min(pes, sys.nodeCount()));
        boolean lock = test.equals("lock");
        HotSpot h = hotSpot(sys, nodes, amos, lock, cached);
        NicStatistics nic = sys.node(nodes[0]).nicStatistics();
        String command = lock ? (cached ? "FCSWAP_C+SWAP_C" : "FCSWAP+SWAP") : (cached ? "FIADD_C" : "FIADD");
        String name = cached ? "cached" : "uncached";
        amoTable.row(test, name, command, Figures.round(h.operationsPerSecond() / 1e6, 3),
            Figures.round(h.amosPerSecond() / 1e6, 3), Figures.round(h.meanWaitNs(), 3), nic.amoCacheHits(),
            nic.amoCacheMisses(), nic.amoCacheWriteBacks());
        if (lock) {
          report.metric(NAME + ".lock." + name + ".acquireRate", Figures.round(h.operationsPerSecond() / 1e6, 3),
              "M/s");
        } else {
          report.metric(NAME + ".amo." + name + ".amoRate", Figures.round(h.operationsPerSecond() / 1e6, 3), "M/s");
        }
        simulated += sys.now();
        events += sys.eventsExecuted();
      }
    }
    report.table(table.build());
    report.table(amoTable.build());
    report.plot(new PlotSpec("host-cache-put-to-observe.png", "Put-to-observe latency by host-cache mode",
        PlotSpec.Kind.BARS, "host-cache", "mode", "putToObserveLatency", null));
    report.plot(new PlotSpec("host-cache-amo-rate.png",
        "Hot-spot counter adds and lock acquisitions per second, uncached and cached commands", PlotSpec.Kind.BARS,
        "host-cache-amo", "commands", "operationRate", "test"));
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
   * A hot-spot test on one word at PE 0: every PE applies {@code ops} fetching adds to it (counter), or acquires and
   * releases it as a lock {@code ops} times (lock).
   *
   * @param cached whether to use the cached ({@code _C}) commands
   * @return operations (adds, or acquisitions) per second over the whole test, AMOs the target NIC executed per
   *     second, and the mean time a PE waited for one fetching AMO (ns)
   */
  private static HotSpot hotSpot(AriesSystem sys, int[] nodes, int ops, boolean lock, boolean cached) {
    ShmemJob job = ShmemJob.builder(sys).nodes(nodes).build();
    Symmetric word = job.allocate(8);
    AmoOperation add = AmoOperation.of(AmoKind.IADD, true, 64, cached);
    AmoOperation acquire = AmoOperation.of(AmoKind.CSWAP, true, 64, cached);
    AmoOperation release = AmoOperation.of(AmoKind.SWAP, false, 64, cached);
    long executedBefore = sys.node(nodes[0]).nicStatistics().amosExecuted();
    long start = sys.now();
    long[] waited = new long[nodes.length];
    long[] fetches = new long[nodes.length];
    job.run(pe -> {
      int me = pe.myPe();
      for (int k = 0; k < ops; k++) {
        if (!lock) {
          long t = pe.now();
          pe.atomic(add, word, 0, 1, 0, 0);
          waited[me] += pe.now() - t;
          fetches[me]++;
          continue;
        }
        long old;
        do {
          long t = pe.now();
          old = pe.atomic(acquire, word, 0, 0, me + 1, 0);
          waited[me] += pe.now() - t;
          fetches[me]++;
        } while (old != 0);
        pe.atomic(release, word, 0, 0, 0, 0);
        pe.quiet();
      }
    });
    long sum = 0;
    long n = 0;
    for (int i = 0; i < nodes.length; i++) {
      sum += waited[i];
      n += fetches[i];
    }
    double seconds = SimTime.toSeconds(sys.now() - start);
    long executed = sys.node(nodes[0]).nicStatistics().amosExecuted() - executedBefore;
    return new HotSpot((double) nodes.length * ops / seconds, executed / seconds, SimTime.toNs(sum) / n);
  }
}
