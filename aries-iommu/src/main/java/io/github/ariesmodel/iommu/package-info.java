/**
 * The Aries NIC's IOMMU: {@link io.github.ariesmodel.iommu.Iommu} implements core's address-translation port with
 * memory registration, page tables in host memory, and a timed set-associative PTE cache with a latency-hiding miss
 * pipeline. Configure it with {@link io.github.ariesmodel.iommu.IommuConfig}; choose a replacement policy with
 * {@link io.github.ariesmodel.iommu.BuiltInPolicy}, by name with {@link io.github.ariesmodel.iommu.ReplacementPolicies}
 * (which also finds users' {@link io.github.ariesmodel.iommu.spi.ReplacementPolicyProvider}s), or implement
 * {@link io.github.ariesmodel.iommu.spi.ReplacementPolicy}.
 */
package io.github.ariesmodel.iommu;
