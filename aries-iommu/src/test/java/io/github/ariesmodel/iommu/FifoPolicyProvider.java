package io.github.ariesmodel.iommu;

import io.github.ariesmodel.iommu.spi.ReplacementPolicy;
import io.github.ariesmodel.iommu.spi.ReplacementPolicyProvider;

/**
 * A user's policy as a user would ship it: first-in first-out (evict the way filled longest ago), registered in this
 * module's test {@code META-INF/services/io.github.ariesmodel.iommu.spi.ReplacementPolicyProvider}.
 */
public final class FifoPolicyProvider implements ReplacementPolicyProvider {

  /** Makes the provider (ServiceLoader needs a public no-argument constructor). */
  public FifoPolicyProvider() {}

  @Override
  public String name() {
    return "fifo";
  }

  @Override
  public String description() {
    return "first in, first out: evicts the way filled longest ago";
  }

  @Override
  public ReplacementPolicy create(int sets, int ways, long seed) {
    long[][] filledAt = new long[sets][ways];
    long[] clock = new long[1];
    return new ReplacementPolicy() {
      @Override
      public void onAccess(int set, int way) {}

      @Override
      public void onFill(int set, int way) {
        filledAt[set][way] = ++clock[0];
      }

      @Override
      public void onInvalidate(int set, int way) {}

      @Override
      public int victim(int set, long candidates) {
        int best = -1;
        for (long c = candidates; c != 0; c &= c - 1) {
          int w = Long.numberOfTrailingZeros(c);
          if (best < 0 || filledAt[set][w] < filledAt[set][best]) {
            best = w;
          }
        }
        return best;
      }
    };
  }
}
