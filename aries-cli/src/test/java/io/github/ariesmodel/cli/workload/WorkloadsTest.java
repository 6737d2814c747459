package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.cli.system.SystemSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.cli.report.ResultTable;
import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.nic.NicConfig;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.FabricKind;
import io.github.ariesmodel.system.TranslatorKind;
import io.github.ariesmodel.system.mpi.MpiConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each built-in workload, small, on small systems: behaviour the model must show, not exact figures. */
class WorkloadsTest {
  /** The send and receive overheads a one-way MPI message pays, ns. */
  private static final double OVERHEADS_NS =
      (MpiConfig.defaults().sendOverheadPs() + MpiConfig.defaults().recvOverheadPs()) / 1000.0;


  private static final SystemSpec ONE_GROUP = SystemSpec.of("default", 1);
  private static final SystemSpec TWO_GROUPS = SystemSpec.of("two-groups", 1);

  private static ResultTable table(WorkloadReport r, String name) {
    return r.tables().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void noWorkloadHasAParameterNamedAsTheRecordedSimulationEngine() {
    // run --threads records the partitioned engine under this name; a workload's own would be lost
    for (Workloads w : Workloads.values()) {
      assertThat(w.create().parameters()).as(w.name()).doesNotContainKey(WorkloadRun.SIMULATION_ENGINE);
    }
    assertThat(new MpiCollectivesWorkload().parameters()).containsKey("engine");
  }

  @Test
  void pingPongLatencyGrowsWithDistanceAndSize() {
    WorkloadReport r = new PingPongWorkload().run(TWO_GROUPS, Params.of(Map.of("sizes", "8,16K",
        "iterations", "3")));
    ResultTable t = table(r, "pingpong");
    double[] lat = t.numbers("latency");
    // rows: (same-router, 8), (same-router, 16K), (rank-1, 8), ... (rank-3, 16K)
    assertThat(t.rows()).hasSize(8);
    for (int d = 0; d < 4; d++) {
      assertThat(lat[2 * d + 1]).as("16K slower than 8 B").isGreaterThan(lat[2 * d]);
    }
    assertThat(lat[2]).as("rank-1 vs same router").isGreaterThan(lat[0]);
    assertThat(lat[6]).as("rank-3 vs rank-1").isGreaterThan(lat[2]);
  }

  @Test
  void bandwidthNeverExceedsTheNicPeakAndGrowsFromSmallMessages() {
    WorkloadReport r = new BandwidthWorkload().run(ONE_GROUP, Params.of(Map.of("sizes", "64,4K", "bytes", "64K")));
    double[] bw = table(r, "bandwidth").numbers("bandwidth");
    assertThat(java.util.Arrays.stream(bw).boxed().toList()).allMatch(v -> v > 0 && v <= 10.24);
    assertThat(bw[1]).isGreaterThan(bw[0] * 0.99); // put 4K vs 64 B
  }

  /**
   * Puts both ways at once (S1's bidirectional curve, stop 64): each direction below the one-way rate at a size the
   * NIC bounds, where the two directions share each node's host interface and NIC; equal where each PE's own posting
   * bounds it.
   */
  @Test
  void bandwidthBothWaysIsEachDirectionsAndNoMoreThanOneWays() {
    Map<String, String> p = Map.of("sizes", "64,1M", "bytes", "2M", "ops", "put", "distance", "same-router");
    double[] one = table(new BandwidthWorkload().run(ONE_GROUP, Params.of(p)), "bandwidth").numbers("bandwidth");
    Map<String, String> both = new java.util.HashMap<>(p);
    both.put("directions", "both");
    double[] two = table(new BandwidthWorkload().run(ONE_GROUP, Params.of(both)), "bandwidth").numbers("bandwidth");
    assertThat(two[0]).as("64 B: each PE's posting bounds it").isEqualTo(one[0]);
    assertThat(two[1]).as("1 MiB each way").isPositive().isLessThan(one[1]);
    assertThatThrownBy(() -> new BandwidthWorkload().run(ONE_GROUP, Params.of(Map.of("directions", "three"))))
        .hasMessageContaining("directions");
  }

  @Test
  void gupsCompletesEveryUpdateWithoutFaults() {
    WorkloadReport r = new GupsWorkload().run(ONE_GROUP, Params.of(Map.of("pes", "8", "updates", "40")));
    ResultTable t = table(r, "gups");
    assertThat(t.numbers("faults")[0]).isZero();
    assertThat(t.numbers("updateRate")[0]).isPositive();
    assertThat(t.numbers("pteHitRate")[0]).isBetween(0.0, 1.0);
  }

  /** The metrics named for the smallest or largest size take that size's row wherever the list puts it. */
  @Test
  void sizeMetricsTakeTheSmallestOrLargestSizeNotTheFirstOrLast() {
    WorkloadReport ping = new PingPongWorkload().run(ONE_GROUP, Params.of(Map.of("sizes", "64,8,4K",
        "iterations", "2", "distances", "same-router")));
    assertThat(metric(ping, "latency.same-router")).isEqualTo(cell(table(ping, "pingpong"), "latency", 8));
    WorkloadReport mpiLat = new MpiLatencyWorkload().run(ONE_GROUP, Params.of(Map.of("sizes", "64,8",
        "iterations", "2", "distances", "same-router")));
    assertThat(metric(mpiLat, "latency.same-router")).isEqualTo(cell(table(mpiLat, "mpi-latency"), "latency", 8));
    WorkloadReport mpiBw = new MpiBandwidthWorkload().run(ONE_GROUP, Params.of(Map.of("sizes", "1K,64",
        "iterations", "1", "distances", "same-router")));
    assertThat(metric(mpiBw, "bandwidth.same-router"))
        .isEqualTo(cell(table(mpiBw, "mpi-bandwidth"), "bandwidth", 1024));
  }

  private static double metric(WorkloadReport r, String name) {
    return r.metrics().stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow().value();
  }

  /** The value in column {@code y} of the row whose {@code bytes} is {@code bytes}. */
  private static double cell(ResultTable t, String y, long bytes) {
    int b = t.columnIndex("bytes");
    int yi = t.columnIndex(y);
    return t.rows().stream().filter(row -> ((Number) row.get(b)).longValue() == bytes).findFirst()
        .map(row -> ((Number) row.get(yi)).doubleValue()).orElseThrow();
  }

  @Test
  void gupsWithoutAnIommuHasNoHitRateOrTranslationLatency() {
    SystemSpec flat = new SystemSpec("default", AriesSystem.Builder.BY_DELIVERY_MODE, 1, FabricKind.IDEAL,
        TranslatorKind.FLAT, IommuConfig.defaults(), NicConfig.defaults(), null);
    WorkloadReport r = new GupsWorkload().run(flat, Params.of(Map.of("pes", "4", "updates", "16")));
    ResultTable t = table(r, "gups");
    assertThat(t.numbers("updateRate")[0]).isPositive();
    // No value (null, NaN in numbers()), not 0, which would read as "every translation missed".
    assertThat(t.numbers("pteHitRate")[0]).isNaN();
    assertThat(t.numbers("translationLatency")[0]).isNaN();
  }

  @Test
  void hugePagesRaiseTheTargetPteHitRateOfRandomTraffic() {
    WorkloadReport r = new IommuStudyWorkload().run(ONE_GROUP, Params.of(Map.of("pageSizes", "4K,2M",
        "patterns", "random", "table", "256M", "pes", "4", "puts", "64")));
    double[] hit = table(r, "iommu").numbers("pteHitRate");
    assertThat(hit[1]).as("2M vs 4K").isGreaterThan(hit[0]);
  }

  @Test
  void allToAllMovesEveryByte() {
    WorkloadReport r = new AllToAllWorkload().run(ONE_GROUP, Params.of(Map.of("pes", "6", "bytes", "1K")));
    ResultTable t = table(r, "alltoall");
    assertThat(t.numbers("aggregateBandwidth")[0]).isPositive();
    assertThat(t.numbers("time")[0]).isPositive();
  }

  @Test
  void trafficAcceptsWhatIsOfferedAtLowLoad() {
    WorkloadReport r = new TrafficWorkload().run(SystemSpec.of("aries:groups=2", 1),
        Params.of(Map.of("loads", "0.1", "routings", "minimal", "measureNs", "2000")));
    ResultTable t = table(r, "traffic");
    assertThat(t.numbers("acceptedLoad")[0]).isCloseTo(0.1, org.assertj.core.data.Offset.offset(0.03));
    // load is the point's load as asked; offeredLoad what the sources generated, as the traffic command reports it
    assertThat(t.numbers("load")[0]).isEqualTo(0.1);
    assertThat(t.numbers("offeredLoad")[0]).isCloseTo(0.1, org.assertj.core.data.Offset.offset(0.03));
  }

  @Test
  void mpiLatencyGrowsWithSizeAndFromSameRouterToAnotherGroup() {
    WorkloadReport r = new MpiLatencyWorkload().run(TWO_GROUPS, Params.of(Map.of("sizes", "8,16K",
        "distances", "same-router,rank-3", "warmup", "1", "iterations", "2")));
    ResultTable t = table(r, "mpi-latency");
    double[] lat = t.numbers("latency");
    assertThat(t.rows()).hasSize(4); // (same-router, 8), (same-router, 16K), (rank-3, 8), (rank-3, 16K)
    assertThat(lat[1]).as("16K slower than 8 B").isGreaterThan(lat[0]);
    assertThat(lat[2]).as("rank-3 vs same router").isGreaterThan(lat[0]);
    // an 8-byte MPI message costs at least the two software overheads (docs/mpi.md)
    assertThat(lat[0]).isGreaterThan(OVERHEADS_NS);
  }

  @Test
  void mpiRmaMeasuresEachOperationAndSynchronizationWithALockCostingARoundTripMoreThanAFlush() {
    WorkloadReport r = new MpiRmaWorkload().run(ONE_GROUP, Params.of(Map.of("sizes", "8,16K",
        "distances", "same-router", "syncs", "flush,lock", "warmup", "2", "iterations", "3")));
    ResultTable t = table(r, "mpi-rma");
    assertThat(t.rows()).extracting(row -> row.get(0)).containsExactly("put flush same-router",
        "put flush same-router", "put lock same-router", "put lock same-router", "get flush same-router",
        "get flush same-router", "get lock same-router", "get lock same-router");
    double[] lat = t.numbers("latency");
    assertThat(lat[1]).as("16K put slower than 8 B").isGreaterThan(lat[0]);
    // a lock epoch adds the lock request and its grant: one round trip of empty messages, more than two overheads
    assertThat(lat[2] - lat[0]).isGreaterThan(OVERHEADS_NS);
    // a get's data comes back behind its request, a put's acknowledgement is a CQ write
    assertThat(lat[4]).isGreaterThan(lat[0]);
    assertThat(metric(r, "latency.put.flush.same-router")).isEqualTo(lat[0]);
  }

  @Test
  void mpiRmaFlushLocalAwaitsNoAnswerAndLockAllCostsWhatALockDoes() {
    WorkloadReport r = new MpiRmaWorkload().run(ONE_GROUP, Params.of(Map.of("sizes", "8", "operations", "put",
        "distances", "same-router", "syncs", "flush,flush_local,lock,lock_all", "warmup", "2", "iterations", "3")));
    double[] lat = table(r, "mpi-rma").numbers("latency");
    // a short put is complete locally once sent: no round trip
    assertThat(lat[1]).isLessThan(lat[0] / 2);
    // a lock-all's target is locked, shared, as the first put reaches it: the lock epoch's messages
    assertThat(lat[3]).isEqualTo(lat[2]);
  }

  @Test
  void mpiWorkloadsMeasureTwoRanksOfOneNodeAsTheOnNodeDistance() {
    WorkloadReport r = new MpiLatencyWorkload().run(ONE_GROUP, Params.of(Map.of("sizes", "8",
        "distances", "on-node,same-router", "warmup", "16", "iterations", "2")));
    ResultTable t = table(r, "mpi-latency");
    assertThat(t.rows()).extracting(row -> row.get(0)).containsExactly("on-node", "same-router");
    double[] lat = t.numbers("latency");
    // shared memory: no NIC, no network, but the same software overheads
    assertThat(lat[0]).isLessThan(lat[1]).isGreaterThan(OVERHEADS_NS);
    WorkloadReport b = new MpiBandwidthWorkload().run(ONE_GROUP, Params.of(Map.of("sizes", "64K",
        "distances", "on-node", "window", "4", "iterations", "1")));
    assertThat(table(b, "mpi-bandwidth").numbers("bandwidth")[0]).isPositive();
  }

  @Test
  void mpiCollectivesRunsEachNodeCountInSoftwareAndOnTheEngine() {
    WorkloadReport r = new MpiCollectivesWorkload().run(ONE_GROUP, Params.of(Map.of("nodes", "2,8",
        "warmup", "1", "iterations", "3")));
    ResultTable t = table(r, "mpi-collectives");
    assertThat(t.rows()).extracting(row -> row.get(0) + "/" + row.get(1))
        .containsExactly("2/off", "8/off", "2/on", "8/on");
    double[] barrier = t.numbers("barrier");
    // the software barrier takes log2(n) rounds of messages, each at least the two software overheads (docs/mpi.md)
    assertThat(barrier[0]).isGreaterThan(OVERHEADS_NS / 1000.0);
    assertThat(barrier[1]).isGreaterThan(3 * OVERHEADS_NS / 1000.0);
    // the engine's call pays the same two overheads, once, whatever the node count
    assertThat(barrier[2]).isGreaterThan(OVERHEADS_NS / 1000.0);
    assertThat(metric(r, "barrier.engine-on")).isEqualTo(barrier[3]);
    assertThat(metric(r, "allreduce.engine-off")).isEqualTo(t.numbers("allreduce")[1]);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new MpiCollectivesWorkload().run(ONE_GROUP,
        Params.of(Map.of("engine", "maybe")))).hasMessage("engine elements must be among off, on but one was \"maybe\"");
  }

  /**
   * osu_alltoall comes as a column of its own when asked; packed nodes (0 to 5: two routers) answer sooner than nodes
   * spread over the group (64 apart: six routers, a hop between any two), and without the parameter the table keeps
   * its two columns.
   */
  @Test
  void mpiCollectivesMeasuresAlltoallWhenAskedAndPacksNodesWhenAsked() {
    WorkloadReport packed = new MpiCollectivesWorkload().run(ONE_GROUP, Params.of(Map.of("nodes", "2,6",
        "engine", "off", "alltoall", "8", "placement", "packed", "warmup", "2", "iterations", "5")));
    ResultTable t = table(packed, "mpi-collectives");
    double[] alltoall = t.numbers("alltoall");
    assertThat(alltoall[1]).isGreaterThan(alltoall[0]).isPositive();
    assertThat(metric(packed, "alltoall.engine-off")).isEqualTo(alltoall[1]);
    WorkloadReport spread = new MpiCollectivesWorkload().run(ONE_GROUP, Params.of(Map.of("nodes", "6",
        "engine", "off", "warmup", "2", "iterations", "5")));
    assertThat(metric(spread, "allreduce.engine-off")).isGreaterThan(metric(packed, "allreduce.engine-off"));
    assertThat(table(spread, "mpi-collectives").columns()).extracting(c -> c.name())
        .containsExactly("nodes", "engine", "barrier", "allreduce");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new MpiCollectivesWorkload().run(ONE_GROUP,
        Params.of(Map.of("placement", "tight")))).hasMessage("placement must be one of spread, packed but was \"tight\"");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new MpiCollectivesWorkload().run(ONE_GROUP,
        Params.of(Map.of("alltoall", "2000000")))).hasMessage("alltoall must be in [0, 1048576] but was 2000000");
  }

  /**
   * With four ranks on each of four nodes, MPICH's SMP-aware barrier sends 8 messages between nodes where the flat
   * dissemination sends 44 (MpiSmpCollectivesTest): the flat one must be the slower, as each network message costs more
   * than a shared-memory one. One rank a node is not node-aware, so the switch changes nothing there.
   */
  @Test
  void mpiCollectivesTakesRanksPerNodeAndTheSmpSwitch() {
    Map<String, Double> barrier = new java.util.HashMap<>();
    for (String rpn : new String[] {"1", "4"}) {
      for (String smp : new String[] {"on", "off"}) {
        WorkloadReport r = new MpiCollectivesWorkload().run(ONE_GROUP, Params.of(Map.of("nodes", "4", "engine", "off",
            "ranksPerNode", rpn, "smp", smp, "warmup", "1", "iterations", "3")));
        barrier.put(rpn + "/" + smp, metric(r, "barrier.engine-off"));
      }
    }
    assertThat(barrier.get("1/on")).isEqualTo(barrier.get("1/off"));
    assertThat(barrier.get("4/off")).isGreaterThan(barrier.get("4/on"));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new MpiCollectivesWorkload().run(ONE_GROUP,
        Params.of(Map.of("ranksPerNode", "69")))).hasMessageContaining("ranksPerNode must be in [1, 68] but was 69");
  }

  @Test
  void mpiBandwidthStaysBelowTheNicPeakAndGrowsWithSize() {
    WorkloadReport r = new MpiBandwidthWorkload().run(ONE_GROUP, Params.of(Map.of("sizes", "64,16K",
        "window", "4", "iterations", "1")));
    ResultTable t = table(r, "mpi-bandwidth");
    double[] bw = t.numbers("bandwidth");
    assertThat(t.rows()).hasSize(2);
    assertThat(bw[0]).isPositive();
    assertThat(bw[1]).isGreaterThan(bw[0]).isLessThanOrEqualTo(10.24);
  }

  @Test
  void everyWorkloadRejectsUnknownParameters() {
    for (String name : Workloads.names()) {
      Workload w = Workloads.byName(name);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> w.run(ONE_GROUP, Params.of(Map.of("bogus", "1"))))
          .as(name).hasMessageContaining("unknown parameter \"bogus\"");
    }
    assertThat(Workloads.names()).containsExactly("mixed", "pingpong", "bandwidth", "gups", "alltoall", "traffic",
        "iommu-study", "mpi-latency", "mpi-bandwidth", "mpi-collectives", "mpi-rma", "replay", "host-cache", "put-rate");
    assertThat(List.of(Params.parse(List.of("a=1", "b=2K")).longValue("b", 0, 0, 10_000))).containsExactly(2048L);
  }

  @Test
  void anUnknownParameterNamesTheKnownOnesOrSaysThereAreNone() {
    Params p = Params.of(Map.of("pes", "4"));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.checkAllUsed(java.util.Set.of()))
        .hasMessage("unknown parameter \"pes\"; this workload takes no parameters");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.checkAllUsed(java.util.Set.of("sizes", "iterations")))
        .hasMessage("unknown parameter \"pes\"; known parameters: iterations, sizes");
  }

  @Test
  void parameterSizesAreReadByByteCountAndNegativesOnlyWhereTheRangeAllows() {
    Params p = Params.parse(List.of("t=1T", "kb=64KB", "neg=-2K", "bad=1.5K"));
    assertThat(p.longValue("t", 0, 0, Long.MAX_VALUE)).isEqualTo(1L << 40);
    assertThat(p.longValue("kb", 0, 0, Long.MAX_VALUE)).isEqualTo(64L << 10);
    assertThat(p.longValue("neg", 0, -4096, 4096)).isEqualTo(-2048);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.longValue("neg", 0, 0, 4096))
        .hasMessageContaining("neg must be in [0, 4096] but was -2K");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.longValue("bad", 0, 0, 4096))
        .hasMessageContaining("bad must be a whole number like 100, 64K or 2M");
    assertThat(p.longList("kb", "", 1, 1L << 20)).containsExactly(64L << 10);
  }

  @Test
  void theSeedsRuleShowsAsAFasterObserveUnderUpdateThanInvalidate() {
    WorkloadReport r = new HostCacheWorkload().run(ONE_GROUP, Params.of(Map.of("rounds", "5", "messages", "20",
        "pes", "4", "amos", "5")));
    ResultTable t = table(r, "host-cache");
    assertThat(t.rows()).extracting(row -> row.get(0)).containsExactly("update", "invalidate", "bypass", "none");
    double[] lat = t.numbers("putToObserveLatency");
    // The poll that sees the flag hits the updated line (17.4 ns) or misses the dropped one (82 ns); no cache: 0.
    assertThat(lat[1] - lat[0]).isCloseTo(82.0 - 17.4, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(lat[2]).isEqualTo(lat[1]);
    assertThat(lat[0] - lat[3]).isCloseTo(17.4, org.assertj.core.data.Offset.offset(1e-6));
    double[] amo = t.numbers("amoRate");
    assertThat(amo[0]).isPositive().isEqualTo(amo[1]).isEqualTo(amo[3]);
  }

  @Test
  void theCachedHotSpotCounterAndLockHitTheNicsAmoCacheAndRunFaster() {
    WorkloadReport r = new HostCacheWorkload().run(ONE_GROUP, Params.of(Map.of("rounds", "2", "messages", "4",
        "pes", "4", "amos", "5", "modes", "update")));
    assertThat(table(r, "host-cache").rows()).extracting(row -> row.get(0)).containsExactly("update");
    ResultTable t = table(r, "host-cache-amo");
    assertThat(t.rows()).extracting(row -> row.get(2)).containsExactly("FIADD", "FIADD_C", "FCSWAP+SWAP",
        "FCSWAP_C+SWAP_C");
    assertThat(t.rows()).extracting(row -> row.get(1)).containsExactly("uncached", "cached", "uncached", "cached");
    double[] ops = t.numbers("operationRate");
    double[] latency = t.numbers("amoLatency");
    double[] hits = t.numbers("amoCacheHits");
    double[] misses = t.numbers("amoCacheMisses");
    assertThat(ops[1]).isGreaterThan(ops[0]);
    assertThat(ops[3]).isGreaterThan(ops[2]);
    // A hit skips the 500 ns host read round trip a memory AMO pays (queueing on the hot word takes some back).
    assertThat(latency[0] - latency[1]).isGreaterThan(0).isLessThanOrEqualTo(500.0);
    // Counter: every add but the first finds the word in the cache; uncached commands never use it.
    assertThat(hits[0]).isZero();
    assertThat(hits[1]).isEqualTo(4 * 5 - 1);
    assertThat(misses[1]).isEqualTo(1);
    assertThat(hits[2] + misses[2]).isZero();
    // Lock: every AMO of the cached run is a cached command; only the first misses.
    assertThat(misses[3]).isEqualTo(1);
    assertThat(hits[3]).isGreaterThanOrEqualTo(2 * 4 * 5 - 1);
    // The counter's target executes exactly one AMO per add.
    assertThat(t.numbers("amoRate")[0]).isEqualTo(ops[0]);
    assertThat(r.metrics()).extracting(m -> m.name()).contains("host-cache.amo.uncached.amoRate",
        "host-cache.amo.cached.amoRate", "host-cache.lock.uncached.acquireRate", "host-cache.lock.cached.acquireRate");
  }
}
