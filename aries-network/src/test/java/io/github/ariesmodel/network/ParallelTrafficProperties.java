package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.sim.PartitionedEngine;
import io.github.ariesmodel.network.spi.Topology;
import io.github.ariesmodel.network.traffic.TrafficExperiment;
import io.github.ariesmodel.network.traffic.TrafficPattern;
import io.github.ariesmodel.network.traffic.TrafficResult;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Traffic runs on the partitioned engine give bit-identical results for 1, 2 and 3 threads: every field of the
 * result but the wall-clock time, over random seeds, routings, patterns and loads on a 9-group dragonfly.
 */
class ParallelTrafficProperties {

  private static final List<String> ROUTINGS = List.of("minimal", "valiant", "ugal", "adaptive0", "adaptive3");

  /** Every field of a result except the wall-clock time, floating-point values by their bits. */
  static String fingerprint(TrafficResult r) {
    return String.join(" ", List.of(
        bits(r.offeredLoad()), bits(r.acceptedLoad()), bits(r.latencyMeanNs()), bits(r.latencyP50Ns()),
        bits(r.latencyP99Ns()), bits(r.latencyMaxNs()), bits(r.meanHops()), String.valueOf(r.maxHops()),
        bits(r.minimalFraction()), String.valueOf(r.measuredPackets()), String.valueOf(r.unfinishedPackets()),
        String.valueOf(r.linkUtilization().entrySet().stream().map(e -> e.getKey() + "=" + bits(e.getValue())).toList()),
        Arrays.toString(Arrays.stream(r.vcOccupancyBytes()).mapToLong(Double::doubleToLongBits).toArray()),
        String.valueOf(r.generated()), String.valueOf(r.delivered()), String.valueOf(r.duplicates()),
        String.valueOf(r.drained()), String.valueOf(r.simulatedPs()), String.valueOf(r.events()),
        String.valueOf(r.packetHops())));
  }

  private static String bits(double d) {
    return Long.toHexString(Double.doubleToLongBits(d));
  }

  private static TrafficResult run(Topology t, String routing, TrafficPattern pattern, double load, long seed,
      boolean drain, int threads) {
    TrafficExperiment.Builder b = TrafficExperiment.on(t).routing(routing).pattern(pattern).load(load).seed(seed)
        .warmupPs(300_000).measurePs(700_000).threads(threads);
    if (drain) {
      b.drain();
    }
    return b.run();
  }

  @Test
  void oneTwoAndThreeThreadsGiveBitIdenticalResults() {
    Topology t = Topologies.canonicalSmall();
    assertThat(t.groupCount()).isGreaterThanOrEqualTo(3);
    qt().withExamples(12)
        .forAll(integers().between(0, ROUTINGS.size() - 1), integers().between(0, TrafficPattern.values().length - 1),
            integers().between(1, 19), longs().between(0, 1_000))
        .checkAssert((routing, pattern, loadTenths, seed) -> {
          TrafficPattern p = TrafficPattern.values()[pattern];
          double load = loadTenths / 10.0;
          boolean drain = seed % 2 == 0;
          TrafficResult one = run(t, ROUTINGS.get(routing), p, load, seed, drain, 1);
          assertThat(one.generated()).isPositive();
          String expected = fingerprint(one);
          for (int threads = 2; threads <= 3; threads++) {
            assertThat(fingerprint(run(t, ROUTINGS.get(routing), p, load, seed, drain, threads)))
                .as("%s %s load %.1f seed %d, %d threads", ROUTINGS.get(routing), p, load, seed, threads)
                .isEqualTo(expected);
          }
        });
  }

  @Test
  void theLookaheadIsTheSmallestLatencyBetweenGroupsAndLongerIsRefused() {
    Topology t = Topologies.canonicalSmall();
    long cross = RouterFabric.crossGroupLatencyPs(t);
    long expected = Long.MAX_VALUE;
    for (int c = 0; c < t.linkClassCount(); c++) {
      if (t.linkClassName(c).equals("global")) {
        expected = t.linkLatencyPs(c);
      }
    }
    assertThat(cross).isEqualTo(expected);
    try (PartitionedEngine engine = PartitionedEngine.of(t.groupCount(), cross + 1, 2)) {
      assertThatThrownBy(() -> RouterFabric.builder(t, engine).build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("engine lookahead must be at most the smallest latency of a link between groups (" + cross
              + " ps) but was " + (cross + 1) + " ps");
    }
    try (PartitionedEngine engine = PartitionedEngine.of(t.groupCount() - 1, cross, 2)) {
      assertThatThrownBy(() -> RouterFabric.builder(t, engine)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("engine groups must equal the topology's " + t.groupCount() + " groups");
    }
  }

  @Test
  void aRoutingInstanceCannotBeSharedByThreads() {
    Topology t = Topologies.canonicalSmall();
    assertThatThrownBy(() -> TrafficExperiment.on(t).routing(Routings.create("ugal", t, 1)).threads(2).run())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot be shared by the engine's 2 threads");
  }
}
