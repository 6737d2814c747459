package io.github.ariesmodel.system;

import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.nic.Nic;

/**
 * One compute node of a simulated system: its physical memory, its NIC's address translation (the IOMMU or a flat
 * translator), and its NIC attached to the fabric.
 *
 * @param id the node id (0 to nodeCount - 1)
 * @param memory the node's sparse physical memory
 * @param translation the NIC's address translation
 * @param nic the NIC
 */
public record Node(int id, SparsePhysicalMemory memory, AddressTranslation translation, Nic nic) {}
