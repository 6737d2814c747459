package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.network.Dragonfly;
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
 * of a background that ran and sent nothing (until stop 77). It counts the bytes delivered (their data at the receiving
 * rank), not the sends posted: a background stopped microseconds into its run reported sends whose data had not moved,
 * more than a node's link carries (until stop 78).
 */
class ReplayBackgroundRateTest {

  private static ConcurrentReplay.Result run(Path dir, long backgroundStartPs) throws IOException {
    return run(dir, 1000, SyntheticTraffic.uniform(4096, 0, 0, 1), 4, backgroundStartPs);
  }

  /** The exchange of {@code traceBytes} between two ranks, beside {@code load} on {@code nodes} nodes. */
  private static ConcurrentReplay.Result run(Path dir, int traceBytes, SyntheticTraffic load, int nodes,
      long backgroundStartPs) throws IOException {
    Path f = dir.resolve("exchange.txt");
    Files.writeString(f, "0 init\n1 init\n0 send 1 0 " + traceBytes + "\n1 recv 0 0 " + traceBytes
        + "\n0 finalize\n1 finalize\n");
    AriesSystem sys = AriesSystem.builder().system("default").seed(1).build();
    return ConcurrentReplay.builder(sys)
        .trace(TraceReplay.builder(sys, SimGridTrace.open(f)).build())
        .background(load, nodes, 1, Placement.LINEAR)
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
    assertThat(bg.bytesPerSecondPerNode()).isEqualTo(bg.bytesDelivered() / (bg.ranPs() / 1e12) / 4);
  }

  @Test
  void aBackgroundStoppedMicrosecondsInReportsNoMoreThanALinkCarries(@TempDir Path dir) throws IOException {
    // 1 MiB messages (rendezvous) on 8 nodes, stopped where a 1,000-byte exchange ends, a few microseconds in: each
    // rank has posted its first send, whose data takes over 100 us at the link's rate; counted as posted, 8 x 1 MiB
    // over those microseconds was hundreds of GB/s a node
    ConcurrentReplay.Background bg = run(dir, 1000, SyntheticTraffic.uniform(1 << 20, 0, 0, 1), 8, 0).background();
    assertThat(bg.finished()).isFalse();
    assertThat(bg.ranPs()).isPositive().isLessThan(10_000_000L);
    assertThat(bg.bytesSent()).isGreaterThanOrEqualTo(8L << 20);
    assertThat(bg.bytesDelivered()).isBetween(0L, bg.bytesSent());
    // the posted bytes over the run pass a node's link; the delivered ones cannot
    assertThat(bg.bytesSent() / (bg.ranPs() / 1e12) / 8).isGreaterThan(Dragonfly.ARIES_INJECTION_WIRE_RATE);
    assertThat(bg.bytesPerSecondPerNode()).isBetween(0.0, Dragonfly.ARIES_INJECTION_WIRE_RATE);
  }

  @Test
  void aLongBackgroundsRateIsItsDeliveredBytesOverItsTime(@TempDir Path dir) throws IOException {
    // a 2 MB exchange (about 200 us) beside 4 KiB messages on 4 nodes, each rank with at most two of its own in flight
    ConcurrentReplay.Background bg = run(dir, 2_000_000, SyntheticTraffic.uniform(4096, 0, 0, 1), 4, 0).background();
    assertThat(bg.finished()).isFalse();
    assertThat(bg.ranPs()).isGreaterThan(100_000_000L);
    assertThat(bg.bytesPerSecondPerNode()).isEqualTo(bg.bytesDelivered() / (bg.ranPs() / 1e12) / 4);
    assertThat(bg.bytesDelivered()).isLessThanOrEqualTo(bg.bytesSent())
        .isGreaterThanOrEqualTo(bg.bytesSent() - 2 * 4 * 4096L);
    assertThat(bg.bytesPerSecondPerNode()).isBetween(0.0, Dragonfly.ARIES_INJECTION_WIRE_RATE);
  }

  @Test
  void aBackgroundThatEndedByItselfDeliveredAllItSent(@TempDir Path dir) throws IOException {
    ConcurrentReplay.Background bg = run(dir, 2_000_000, SyntheticTraffic.uniform(4096, 0, 10, 1), 4, 0).background();
    assertThat(bg.finished()).isTrue();
    assertThat(bg.bytesSent()).isEqualTo(10 * 4 * 4096L);
    assertThat(bg.bytesDelivered()).isEqualTo(bg.bytesSent());
  }
}
