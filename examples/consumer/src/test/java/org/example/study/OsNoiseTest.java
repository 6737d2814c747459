package org.example.study;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.mpi.MpiConfig;
import io.github.ariesmodel.system.mpi.OsuBenchmarks;
import io.github.ariesmodel.system.process.OsNoise;
import org.junit.jupiter.api.Test;

/** The OS-noise snippet of docs/using-the-library.md, section 3, as written there, from outside the project. */
class OsNoiseTest {

  @Test
  void noiseLengthensTheBarrierAndTheAlltoallRuns() {
    int[] nodes = {0, 1, 2, 3, 4, 5};
    OsNoise noise = OsNoise.parse("period=100us,detour=2.5us");
    OsuBenchmarks.CollectiveRow quiet = OsuBenchmarks.collectives(
        AriesSystem.builder().system("default").seed(1).build(), nodes, 20, 100, MpiConfig.defaults());
    OsuBenchmarks.CollectiveRow loud = OsuBenchmarks.collectives(
        AriesSystem.builder().system("default").seed(1).osNoise(noise).build(), nodes, 20, 100, MpiConfig.defaults());
    double alltoallUs = OsuBenchmarks.alltoall(AriesSystem.builder().system("default").seed(1).osNoise(noise).build(),
        nodes, 1, 8, 20, 100, MpiConfig.defaults());                  // 8-byte blocks, one rank a node
    assertThat(loud.barrierUs()).isGreaterThan(quiet.barrierUs());
    // six ranks' alltoall is five messages each way at least: above one osu_latency (1.3 us)
    assertThat(alltoallUs).isGreaterThan(1.3);
    assertThat(noise.fraction()).isEqualTo(0.025);
  }
}
