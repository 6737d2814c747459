package io.github.ariesmodel.cli.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.cli.system.SystemSpec;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code osNoise} parameter of every workload that runs simulated processes (SHMEM PEs, MPI ranks). */
class WorkloadNoiseTest {

  private static final SystemSpec ONE_GROUP = SystemSpec.of("default", 1);
  /** Half of every node's CPU gone, on every node at once: every process's work is stretched. */
  private static final String HEAVY = "period=2us,detour=1us,phase=aligned";

  static Stream<Arguments> workloads() {
    return Stream.of(
        Arguments.of(new PingPongWorkload(), Map.of("sizes", "8", "iterations", "2", "distances", "same-router")),
        // a SHMEM put or get costs its PE no modelled CPU time, so a noisy PE posts them at the same pace and the
        // figures stay; only the PE's start moves past the first detour (docs/mpi.md, "Operating-system noise")
        Arguments.of(new BandwidthWorkload(), Map.of("sizes", "64", "bytes", "1K", "distance", "same-router")),
        Arguments.of(new GupsWorkload(), Map.of("pes", "4", "updates", "16")),
        Arguments.of(new AllToAllWorkload(), Map.of("pes", "4", "bytes", "64")),
        Arguments.of(new MpiLatencyWorkload(), Map.of("sizes", "8", "iterations", "2", "distances", "same-router")),
        Arguments.of(new MpiBandwidthWorkload(), Map.of("sizes", "8", "window", "4", "distances", "same-router")),
        Arguments.of(new MpiRmaWorkload(), Map.of("sizes", "8", "operations", "put", "syncs", "flush",
            "distances", "same-router", "iterations", "2")),
        Arguments.of(new MpiCollectivesWorkload(), Map.of("nodes", "2", "engine", "off", "warmup", "1",
            "iterations", "4")));
  }

  private static Map<String, String> with(Map<String, String> params, String noise) {
    Map<String, String> m = new HashMap<>(params);
    m.put("osNoise", noise);
    return m;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("workloads")
  void noiseLengthensTheRunAndNoneIsTheDefaultExactly(Workload w, Map<String, String> params) {
    WorkloadReport plain = w.run(ONE_GROUP, Params.of(params));
    WorkloadReport none = w.run(ONE_GROUP, Params.of(with(params, "none")));
    WorkloadReport noisy = w.run(ONE_GROUP, Params.of(with(params, HEAVY)));
    assertThat(none.tables()).isEqualTo(plain.tables());
    assertThat(none.simulatedPs()).isEqualTo(plain.simulatedPs());
    assertThat(none.events()).isEqualTo(plain.events());
    assertThat(noisy.simulatedPs()).as(w.name()).isGreaterThan(plain.simulatedPs());
    if (!(w instanceof BandwidthWorkload)) {
      assertThat(noisy.tables()).as(w.name()).isNotEqualTo(plain.tables());
    }
    // the same noise, the same run
    assertThat(w.run(ONE_GROUP, Params.of(with(params, HEAVY))).tables()).isEqualTo(noisy.tables());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("workloads")
  void aBadSpecIsRefusedByTheCheckAndTheRunNamingIt(Workload w, Map<String, String> params) {
    Params bad = Params.of(with(params, "period=1us"));
    assertThatThrownBy(() -> w.check(ONE_GROUP.build(), bad)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("period= and detour=").hasMessageContaining("\"period=1us\"");
    assertThatThrownBy(() -> w.run(ONE_GROUP, Params.of(with(params, "period=1us,detour=2us"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("detour");
  }
}
