/**
 * Driven ports of the IOMMU that a user may implement: the PTE-cache replacement policy, and a named
 * provider of it found through {@link java.util.ServiceLoader}. Prove an implementation
 * with {@code io.github.ariesmodel.testkit.iommu.ReplacementPolicyContract} from aries-testkit.
 */
package io.github.ariesmodel.iommu.spi;
