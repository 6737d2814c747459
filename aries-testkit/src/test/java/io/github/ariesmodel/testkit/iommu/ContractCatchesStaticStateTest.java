package io.github.ariesmodel.testkit.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.iommu.spi.ReplacementPolicy;
import io.github.ariesmodel.iommu.spi.ReplacementPolicyFactory;
import org.junit.jupiter.api.Test;

/**
 * The replacement-policy contract catches a policy that keeps its recency in static fields (forbidden by the SPI:
 * two nodes' IOMMUs would change each other's victims). An exact LRU of that kind passed every check before, since
 * each check drove one policy at a time; the same LRU with its state per instance passes.
 */
class ContractCatchesStaticStateTest {

  /** Exact LRU; with {@code shared} its stamps and clock are static, reset by each new policy. */
  static final class Lru implements ReplacementPolicy {
    private static long[] sharedStamps = new long[0];
    private static long sharedClock;
    private final boolean shared;
    private final int ways;
    private long[] stamps;
    private long clock;

    Lru(int sets, int ways, boolean shared) {
      this.shared = shared;
      this.ways = ways;
      if (shared) {
        sharedStamps = new long[sets * ways];
        sharedClock = 0;
      } else {
        stamps = new long[sets * ways];
      }
    }

    private long[] stamps() {
      return shared ? sharedStamps : stamps;
    }

    private long tick() {
      return shared ? ++sharedClock : ++clock;
    }

    @Override
    public void onAccess(int set, int way) {
      stamps()[set * ways + way] = tick();
    }

    @Override
    public void onFill(int set, int way) {
      onAccess(set, way);
    }

    @Override
    public void onInvalidate(int set, int way) {
      stamps()[set * ways + way] = 0;
    }

    @Override
    public int victim(int set, long candidates) {
      int best = -1;
      for (int w = 0; w < ways; w++) {
        if ((candidates & (1L << w)) != 0 && (best < 0 || stamps()[set * ways + w] < stamps()[set * ways + best])) {
          best = w;
        }
      }
      return best;
    }
  }

  /** Abstract so that JUnit does not run it as a test class. */
  abstract static class LruContract extends ReplacementPolicyContract {
    @Override
    protected boolean neverEvictsMostRecentlyUsed() {
      return true;
    }

    @Override
    protected boolean evictsLeastRecentlyUsed() {
      return true;
    }
  }

  private static LruContract of(boolean shared) {
    return new LruContract() {
      @Override
      protected ReplacementPolicyFactory factory() {
        return (sets, ways, seed) -> new Lru(sets, ways, shared);
      }
    };
  }

  @Test
  void aPolicyWithStaticStatePassesTheOneAtATimeChecksButNotTheTwoAtOnceOne() {
    LruContract flawed = of(true);
    flawed.victimIsAlwaysACandidate();
    flawed.sameSeedAndCallsGiveSameVictims();
    flawed.leastRecentlyUsedWayIsEvicted();
    assertThatThrownBy(flawed::twoPoliciesInUseAtOnceShareNoState).isInstanceOf(AssertionError.class);
  }

  @Test
  void theSamePolicyWithItsStateInTheInstancePasses() {
    LruContract sound = of(false);
    sound.twoPoliciesInUseAtOnceShareNoState();
    sound.leastRecentlyUsedWayIsEvicted();
    assertThat(sound.factory().create(1, 2, 0).victim(0, 0b10)).isEqualTo(1);
  }
}
