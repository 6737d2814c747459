package io.github.ariesmodel.system;

/** Which address translation each NIC gets. */
public enum TranslatorKind {
  /** The Aries IOMMU of {@code aries-iommu}: page tables, PTE cache, miss pipeline. */
  IOMMU,
  /** A flat fixed-latency translator (core's {@code FlatTranslation}): no page tables, no cache. */
  FLAT
}
