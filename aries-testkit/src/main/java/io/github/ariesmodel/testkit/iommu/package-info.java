/** Test support for aries-iommu: the contract a PTE-cache replacement policy proves itself with. */
package io.github.ariesmodel.testkit.iommu;
