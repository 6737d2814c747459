package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.mpi.SyntheticTraffic;
import io.github.ariesmodel.traces.simgrid.SimGridTrace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The background's rate ({@link ConcurrentReplay.Background#bytesPerSecondPerNode}) is an average over its run: a
 * background that never ran (due after the traces had ended) has none, NaN, where it said 0 bytes a second, the rate
 * of a background that ran and sent nothing (until stop 77).
 */
class ReplayBackgroundRateTest {

  private static ConcurrentReplay.Result run(Path dir, long backgroundStartPs) throws IOException {
    Path f = dir.resolve("exchange.txt");
    Files.writeString(f, "0 init\n1 init\n0 send 1 0 1000\n1 recv 0 0 1000\n0 finalize\n1 finalize\n");
    AriesSystem sys = AriesSystem.builder().system("default").seed(1).build();
    return ConcurrentReplay.builder(sys)
        .trace(TraceReplay.builder(sys, SimGridTrace.open(f)).build())
        .background(SyntheticTraffic.uniform(4096, 0, 0, 1), 4, 1, Placement.LINEAR)
        .backgroundStartPs(backgroundStartPs)
        .build().run();
  }

  @Test
  void aBackgroundDueAfterTheTracesEndedHasNoRate(@TempDir Path dir) throws IOException {
    ConcurrentReplay.Result r = run(dir, 1_000_000_000L); // 1 ms: the exchange ends within microseconds
    ConcurrentReplay.Background bg = r.background();
    assertThat(r.replays().get(0).simulatedPs()).isLessThan(1_000_000_000L);
    assertThat(bg.ranPs()).isZero();
    assertThat(bg.bytesSent()).isZero();
    assertThat(bg.finished()).isFalse();
    assertThat(bg.bytesPerSecondPerNode()).isNaN();
  }

  @Test
  void aBackgroundThatRanHasItsBytesOverItsTimeAndNodes(@TempDir Path dir) throws IOException {
    ConcurrentReplay.Background bg = run(dir, 0).background();
    assertThat(bg.ranPs()).isPositive();
    assertThat(bg.bytesSent()).isPositive();
    assertThat(bg.bytesPerSecondPerNode()).isEqualTo(bg.bytesSent() / (bg.ranPs() / 1e12) / 4);
  }
}
