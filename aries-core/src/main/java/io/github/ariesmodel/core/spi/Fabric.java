package io.github.ariesmodel.core.spi;

import io.github.ariesmodel.core.packet.Packet;

/**
 * The network as a NIC sees it (a driven port): inject a packet at the node's router port; packets for the node are
 * delivered to its {@link FabricEndpoint}.
 *
 * <p>Implementations: the dragonfly router fabric in {@code aries-network}, and the ideal fixed-latency {@link
 * io.github.ariesmodel.core.sim.IdealFabric} for tests of the NIC alone.
 */
public interface Fabric {

  /** @return the number of nodes; node ids are 0 to nodeCount - 1 */
  int nodeCount();

  /**
   * Connects a node's NIC. Each node is attached at most once, before traffic starts.
   *
   * @param nodeId 0 to nodeCount - 1
   * @param endpoint where the node's packets are delivered
   * @throws IllegalArgumentException when the node id is out of range
   * @throws IllegalStateException when the node is already attached
   */
  void attach(int nodeId, FabricEndpoint endpoint);

  /**
   * Offers a packet to the fabric at its source node at the scheduler's current time.
   *
   * @param packet the packet; from now on owned by the fabric until delivered
   * @return true when accepted; false when the injection port has no room now (the NIC keeps the packet and waits
   *     for {@link FabricEndpoint#injectionReady})
   * @throws IllegalArgumentException when the source or destination node is outside the fabric
   */
  boolean inject(Packet packet);
}
