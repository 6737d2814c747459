package io.github.ariesmodel.cli.config;

import io.github.ariesmodel.iommu.spi.ReplacementPolicy;
import io.github.ariesmodel.iommu.spi.ReplacementPolicyProvider;

/** A user's policy as a test registers it through ServiceLoader: always evicts the last candidate way. */
public final class LastWayPolicyProvider implements ReplacementPolicyProvider {

  @Override
  public String name() {
    return "last-way";
  }

  @Override
  public ReplacementPolicy create(int sets, int ways, long seed) {
    return new ReplacementPolicy() {
      @Override
      public void onAccess(int set, int way) {}

      @Override
      public void onFill(int set, int way) {}

      @Override
      public void onInvalidate(int set, int way) {}

      @Override
      public int victim(int set, long candidates) {
        return 63 - Long.numberOfLeadingZeros(candidates);
      }
    };
  }
}
