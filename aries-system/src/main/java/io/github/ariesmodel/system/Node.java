package io.github.ariesmodel.system;

import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.HostCache;
import io.github.ariesmodel.iommu.Iommu;
import io.github.ariesmodel.iommu.IommuStatistics;
import io.github.ariesmodel.nic.Nic;
import io.github.ariesmodel.nic.NicStatistics;
import java.util.Optional;

/**
 * One compute node of a simulated system: its physical memory, the host cache in front of it (the CPU's loads and
 * stores and the NIC's writes and reads of host memory all go through it), its NIC's address translation (the IOMMU or
 * a flat translator), and its NIC attached to the fabric.
 *
 * @param id the node id (0 to nodeCount - 1)
 * @param memory the node's sparse physical memory (raw: a dirty line in the host cache is newer)
 * @param hostCache the node's host cache (or the pass-through one)
 * @param translation the NIC's address translation
 * @param nic the NIC
 */
public record Node(
    int id, SparsePhysicalMemory memory, HostCache hostCache, AddressTranslation translation, Nic nic) {

  /** Validates the parts: a node of nulls was accepted, and its accessors then threw NullPointerExceptions. */
  public Node {
    if (id < 0) {
      throw new IllegalArgumentException("id must be >= 0 but was " + id);
    }
    if (memory == null || hostCache == null || translation == null || nic == null) {
      throw new IllegalArgumentException((memory == null ? "memory" : hostCache == null ? "hostCache"
          : translation == null ? "translation" : "nic") + " must not be null");
    }
    if (nic.nodeId() != id) {
      throw new IllegalArgumentException("nic must be node " + id + "'s but was node " + nic.nodeId() + "'s");
    }
  }

  /** @return the node's IOMMU, or empty when it translates with the flat translator or a user's translation */
  public Optional<Iommu> iommu() {
    return translation instanceof Iommu i ? Optional.of(i) : Optional.empty();
  }

  /** @return a snapshot of the IOMMU's statistics, or empty when the node has no IOMMU (see {@link #iommu()}) */
  public Optional<IommuStatistics> iommuStatistics() {
    return iommu().map(Iommu::statistics);
  }

  /**
   * @return a snapshot of the NIC's statistics, which later work does not change (it returned the live counters,
   *     so a snapshot taken before a run read the values after it); {@code nic().statistics()} gives the live ones
   */
  public NicStatistics nicStatistics() {
    return nic.statistics().snapshot();
  }
}
