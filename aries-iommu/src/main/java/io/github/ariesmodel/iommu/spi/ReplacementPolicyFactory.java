package io.github.ariesmodel.iommu.spi;

/**
 * Makes a {@link ReplacementPolicy} for one PTE cache. The IOMMU calls it once, lazily, when its cache is first used,
 * so a system of many nodes builds no policy state for idle nodes.
 */
@FunctionalInterface
public interface ReplacementPolicyFactory {

  /**
   * Makes a policy.
   *
   * @param sets number of sets, ≥ 1
   * @param ways ways per set, 1..64
   * @param seed seed for any random choice (from the IOMMU configuration), so runs are repeatable
   * @return a new policy with all ways unused
   * @throws IllegalArgumentException when the policy cannot serve this geometry (e.g. tree pseudo-LRU needs a power
   *     of two ways)
   */
  ReplacementPolicy create(int sets, int ways, long seed);
}
