package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationHit;
import org.junit.jupiter.api.Test;

/** Examples of {@link Iommu#translateHit}: when it takes a request, when it leaves it to the event path. */
class FastHitTest {

  private final Rig rig = new Rig(IommuConfig.defaults());
  private final int mdh = rig.iommu.register(MemoryRegistration.of(0, 1 << 20, Rig.TAG, Rig.KEY)).mdh();
  private final TranslationHit hit = new TranslationHit();

  private boolean fast(long offset, int length) {
    return rig.iommu.translateHit(TranslationClient.NETWORK_REQUEST, mdh, offset, length, AccessKind.WRITE, Rig.TAG,
        Rig.KEY, hit);
  }

  @Test
  void aColdLineIsLeftToTheEventPathAndAWarmOneCompletesAtOnce() {
    assertThat(fast(4096, 8)).isFalse();
    assertThat(rig.iommu.statistics().total().translations()).isZero();
    rig.translate(mdh, 4096, 1);
    rig.loop.run();
    long now = rig.loop.now();
    assertThat(fast(4096 + 64, 8)).isTrue();
    assertThat(hit.physicalAddress()).isEqualTo(rig.iommu.physicalBase(mdh) + 4096 + 64);
    assertThat(hit.completesAtPs()).isEqualTo(now + IommuConfig.DEFAULT_HIT_LATENCY_PS);
    assertThat(rig.iommu.statistics().total().hits()).isEqualTo(1);
    assertThat(rig.iommu.inFlight()).isEqualTo(1);
    // The issue interval has not passed: the next request must queue behind it.
    assertThat(fast(4096 + 128, 8)).isFalse();
  }

  /**
   * A fast hit's caller acts at once (a NIC writes or reads memory in the calling event), so a hit must not be granted
   * while an earlier request's completion event is still to run: that request completes first in simulated time and
   * its caller's access would then land after the later one's (stop 65's IOMMU hunt: a page-straddling PUT overwrote
   * the PUT received after it). Such a request takes the event path and completes at the same time it would have.
   */
  @Test
  void noFastHitWhileAnEarlierRequestsCompletionIsStillToRun() {
    rig.translate(mdh, 0, 1);
    rig.loop.run();
    long t = rig.loop.now() + 100_000;
    boolean[] granted = new boolean[2];
    rig.loop.scheduleAt(t, (now, ref, arg) -> rig.translate(mdh, 8, 2), null, 0); // a hit on the event path
    rig.loop.scheduleAt(t + IommuConfig.DEFAULT_ISSUE_INTERVAL_PS, (now, ref, arg) -> granted[0] = fast(16, 8), null,
        0);
    rig.loop.scheduleAt(t + IommuConfig.DEFAULT_HIT_LATENCY_PS + IommuConfig.DEFAULT_ISSUE_INTERVAL_PS,
        (now, ref, arg) -> granted[1] = fast(24, 8), null, 0);
    rig.loop.run();
    assertThat(granted[0]).as("request 2's completion, at t + 5 ns, is still to run").isFalse();
    assertThat(granted[1]).as("nothing left to run ahead of it").isTrue();
    assertThat(rig.done).extracting(Rig.Done::id).containsExactly(1L, 2L);
    assertThat(rig.done.get(1).timePs()).isEqualTo(t + IommuConfig.DEFAULT_HIT_LATENCY_PS);
  }

  @Test
  void faultsAndPageStraddlingRangesTakeTheEventPath() {
    rig.translate(mdh, 0, 1);
    rig.loop.run();
    rig.loop.scheduleAt(rig.loop.now() + 10_000, (now, ref, arg) -> {
      assertThat(rig.iommu.translateHit(TranslationClient.NETWORK_REQUEST, mdh, 0, 8, AccessKind.WRITE, Rig.TAG + 1,
          Rig.KEY, hit)).as("protection violation").isFalse();
      assertThat(fast(4090, 8)).as("straddles a 4 KB page").isFalse();
    }, null, 0);
    rig.loop.run();
    assertThat(rig.iommu.statistics().total().translations()).isEqualTo(1);
  }

  @Test
  void callerMistakesThrowLikeTranslate() {
    assertThatThrownBy(() -> rig.iommu.translateHit(TranslationClient.NETWORK_REQUEST, mdh, 0, 8, AccessKind.READ,
        Rig.TAG, Rig.KEY, null)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("hit");
    assertThatThrownBy(() -> rig.iommu.translateHit(TranslationClient.NETWORK_REQUEST, 4096, 0, 8, AccessKind.READ,
        Rig.TAG, Rig.KEY, hit)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("4096");
    assertThatThrownBy(() -> rig.iommu.translateHit(TranslationClient.NETWORK_REQUEST, mdh, 0, -1, AccessKind.READ,
        Rig.TAG, Rig.KEY, hit)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("length");
  }

  @Test
  void aZeroLengthAccessAtTheEndWalksTheLastPageOnBothPaths() {
    long end = 1 << 20;
    rig.translate(mdh, end - 8, 1);
    rig.loop.run();
    assertThat(fast(end, 0)).as("the last page's lines are warm").isTrue();
    assertThat(hit.physicalAddress()).isEqualTo(rig.iommu.physicalBase(mdh) + end)
        .isEqualTo(rig.iommu.translateNow(mdh, end, 0, AccessKind.WRITE, Rig.TAG, Rig.KEY).physicalAddress());
  }

  @Test
  void aTwoLevelHitTouchesTheDirectoryAndLeafLinesAndCountsATwoLevelWalk() {
    rig.translate(mdh, 8192, 1);
    rig.loop.run();
    assertThat(fast(8192 + 8, 8)).isTrue();
    assertThat(rig.iommu.statistics().total().hits()).isEqualTo(1);
    assertThat(rig.iommu.statistics().total().twoLevelWalks()).isEqualTo(2);
  }
}
