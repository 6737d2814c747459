package io.github.ariesmodel.iommu;

import io.github.ariesmodel.iommu.spi.ReplacementPolicy;
import java.util.SplittableRandom;

/** Random replacement: a uniformly chosen candidate, from a generator seeded by the IOMMU configuration. */
final class RandomPolicy implements ReplacementPolicy {

  private final SplittableRandom random;

  RandomPolicy(long seed) {
    this.random = new SplittableRandom(seed);
  }

  @Override
  public void onAccess(int set, int way) {}

  @Override
  public void onFill(int set, int way) {}

  @Override
  public void onInvalidate(int set, int way) {}

  @Override
  public int victim(int set, long candidates) {
    int k = random.nextInt(Long.bitCount(candidates));
    long c = candidates;
    for (int i = 0; i < k; i++) {
      c &= c - 1;
    }
    return Long.numberOfTrailingZeros(c);
  }
}
