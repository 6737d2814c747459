package org.example.policy;

import io.github.ariesmodel.iommu.spi.ReplacementPolicy;
import io.github.ariesmodel.iommu.spi.ReplacementPolicyProvider;

/**
 * Registers {@link FifoPolicy} as {@code fifo}: listed in
 * {@code META-INF/services/io.github.ariesmodel.iommu.spi.ReplacementPolicyProvider}, so
 * {@code ReplacementPolicies.byName("fifo")} finds it.
 */
public final class FifoProvider implements ReplacementPolicyProvider {

  @Override
  public String name() {
    return "fifo";
  }

  @Override
  public String description() {
    return "first in, first out: evicts the line filled longest ago";
  }

  @Override
  public ReplacementPolicy create(int sets, int ways, long seed) {
    return new FifoPolicy(sets, ways); // FIFO makes no random choice, so it needs no seed
  }
}
