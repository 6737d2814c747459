package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.network.spi.RouterView;
import io.github.ariesmodel.network.spi.Topology;
import org.junit.jupiter.api.Test;

/** Adaptive routing's congestion estimate comes from the downstream router's credits, not this router's own burst. */
class CreditLoadTest {

  /** One router's view with settable credits and queue on every port. */
  private static final class View implements RouterView {
    final Dragonfly t = Dragonfly.aries(1);
    int creditsPerVc = 2048;
    int queued;

    @Override
    public int router() {
      return 0;
    }

    @Override
    public int group() {
      return 0;
    }

    @Override
    public Topology topology() {
      return t;
    }

    @Override
    public int vcCount() {
      return 4;
    }

    @Override
    public int vcBufferBytes() {
      return 2048;
    }

    @Override
    public long now() {
      return 0;
    }

    @Override
    public int congestion(int port) {
      return queued + 4 * (2048 - creditsPerVc);
    }

    @Override
    public int credits(int port, int vc) {
      return creditsPerVc;
    }

    @Override
    public int queuedBytes(int port) {
      return queued;
    }

    @Override
    public int intermediate() {
      return -1;
    }

    @Override
    public boolean nonMinimal() {
      return false;
    }
  }

  @Test
  void aFlowTheLinkCarriesAsFastAsItComesReadsZeroWhereTheOldEstimateTripped() {
    View v = new View();
    // Packets on the wire with nothing queued here: one credit round trip's worth of bytes ungranted.
    v.queued = 0;
    v.creditsPerVc = 2048 - 130; // 520 B ungranted over 4 VCs: what a 5.25 GB/s link keeps in flight per ~105 ns
    assertThat(BuiltInRouting.creditLoad(v, 0)).isZero();
    v.queued = 84; // one packet waiting for the port: less than one 4-bit load step (128 B)
    assertThat(BuiltInRouting.creditLoad(v, 0)).isZero();
    assertThat(v.congestionLevel(0)).as("the old estimate (queue + credits used)").isPositive();
  }

  @Test
  void aNeighbourHoldingItsBufferReadsHigh() {
    View v = new View();
    v.creditsPerVc = 0; // the downstream router granted nothing back: its own outputs are blocked
    assertThat(BuiltInRouting.creditLoad(v, 0)).isEqualTo(15);
    v.creditsPerVc = 2048 - 512; // 2 KiB held downstream, ~1.5 KiB beyond a quiet round trip
    int partial = BuiltInRouting.creditLoad(v, 0);
    assertThat(partial).isBetween(1, 14);
  }

  @Test
  void theNearEndQueueCountsFromItsFirstByteAsAriesLoadDoes() {
    View v = new View();
    v.queued = 410; // a burst injected faster than the link drains it: the port is oversubscribed
    assertThat(BuiltInRouting.creditLoad(v, 0)).isEqualTo(3); // 410 * 16 / 2048
    v.queued = 1024; // half a VC buffer
    assertThat(BuiltInRouting.creditLoad(v, 0)).isEqualTo(8);
    v.queued = 4096;
    assertThat(BuiltInRouting.creditLoad(v, 0)).isEqualTo(15);
  }
}
