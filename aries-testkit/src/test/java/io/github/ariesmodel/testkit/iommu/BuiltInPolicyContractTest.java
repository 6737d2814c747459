package io.github.ariesmodel.testkit.iommu;

import io.github.ariesmodel.iommu.BuiltInPolicy;
import io.github.ariesmodel.iommu.spi.ReplacementPolicyFactory;
import org.junit.jupiter.api.Nested;

/** Every built-in PTE-cache policy keeps the replacement-policy contract. */
class BuiltInPolicyContractTest {

  @Nested
  class Lru extends ReplacementPolicyContract {
    @Override
    protected ReplacementPolicyFactory factory() {
      return BuiltInPolicy.LRU;
    }

    @Override
    protected boolean neverEvictsMostRecentlyUsed() {
      return true;
    }

    @Override
    protected boolean evictsLeastRecentlyUsed() {
      return true;
    }
  }

  @Nested
  class PseudoLru extends ReplacementPolicyContract {
    @Override
    protected ReplacementPolicyFactory factory() {
      return BuiltInPolicy.PSEUDO_LRU;
    }

    @Override
    protected boolean neverEvictsMostRecentlyUsed() {
      return true;
    }
  }

  @Nested
  class Random extends ReplacementPolicyContract {
    @Override
    protected ReplacementPolicyFactory factory() {
      return BuiltInPolicy.RANDOM;
    }
  }
}
