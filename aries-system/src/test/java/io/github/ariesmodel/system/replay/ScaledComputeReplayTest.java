package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.traces.simgrid.SimGridTrace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scale:F} scales a rank's work (its flops' time), not its sleeps: a sleep is time with nothing to do, as long
 * on a faster core, as SimGrid's replay sleeps whatever the host's speed. Until stop 75 {@code scale:0.5} halved a
 * sleep too (the hunt of stop 75: 2,000 µs of compute where 1,500 µs of work and a 1 ms sleep make 2,500 µs).
 */
class ScaledComputeReplayTest {

  @TempDir Path tmp;

  private ReplayResult replay(ComputeMode compute) throws IOException {
    Path f = tmp.resolve("t.txt");
    Files.writeString(f, "0 init\n1 init\n0 compute 1000000\n1 compute 3000000\n0 send 1 0 8\n1 recv 0 0 8\n"
        + "0 compute 2000000\n1 sleep 0.001\n0 finalize\n1 finalize\n");
    AriesSystem sys = AriesSystem.builder().system("default").seed(1).build();
    return TraceReplay.builder(sys, SimGridTrace.open(f)).compute(compute).build().run();
  }

  @Test
  void aSleepIsNotScaledAndTheFlopRateIsRecorded() throws IOException {
    ReplayResult traced = replay(ComputeMode.AS_TRACED);
    ReplayResult half = replay(ComputeMode.scale(0.5));
    // rank 1: 3e6 flops at 1 Gflop/s, 3 ms, and a 1 ms sleep
    assertThat(traced.computePs().get(1)).isEqualTo(4_000_000_000L);
    assertThat(half.computePs().get(1)).isEqualTo(1_500_000_000L + 1_000_000_000L);
    // rank 0: work only, halved
    assertThat(half.computePs().get(0)).isEqualTo(traced.computePs().get(0) / 2);
    assertThat(half.flopsPerSecond()).isEqualTo(TraceReplay.DEFAULT_FLOPS_PER_SECOND);
    assertThat(half.flopActions()).isEqualTo(3);
    assertThat(replay(ComputeMode.SKIP).flopActions()).isZero();
  }
}
