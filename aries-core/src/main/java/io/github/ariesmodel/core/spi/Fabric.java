package io.github.ariesmodel.core.spi;

import io.github.ariesmodel.core.packet.Packet;

/**
 * The network as a NIC sees it (a driven port): inject a packet at the node's router port; packets for the node are
 * delivered to its {@link FabricEndpoint}.
 *
 * <p>Implementations: the dragonfly router fabric in {@code aries-network}, and the ideal fixed-latency {@link
 * io.github.ariesmodel.core.sim.IdealFabric} for tests of the NIC alone.
 *
 * <p>Contract. Every accepted packet is delivered exactly once, as the same object with its fields and data
 * unchanged, to the endpoint of its destination node, through the scheduler at a time no earlier than its injection
 * (never from inside {@link #inject}); {@link FabricEndpoint#deliver}'s time is the scheduler's {@code now()}. The
 * port promises no delivery order: an implementation that keeps one says so (the ideal fabric keeps each source's
 * order; the router fabric keeps a source/destination pair's {@code IN_ORDER} packets in order when it routes by
 * delivery mode). An endpoint may inject from inside {@code deliver} and {@code injectionReady}.
 * {@code io.github.ariesmodel.testkit.core.FabricContract} (aries-testkit) checks an implementation against this.
 */
public interface Fabric {

  /** @return the number of nodes; node ids are 0 to nodeCount - 1 */
  int nodeCount();

  /**
   * Connects a node's NIC. Each node is attached at most once, before traffic starts.
   *
   * @param nodeId 0 to nodeCount - 1
   * @param endpoint where the node's packets are delivered
   * @throws IllegalArgumentException when the node id is out of range (the message names the id and the range)
   * @throws IllegalStateException when the node is already attached (the message names the node)
   */
  void attach(int nodeId, FabricEndpoint endpoint);

  /**
   * Lets a system build nodes on demand: when a packet arrives for a node with no endpoint, a fabric that supports
   * this calls {@code attacher} with the node id first, which must {@link #attach} it. A system whose nodes exist
   * for every id (built lazily) installs one, so a request to a node nobody touched yet behaves as if the node had
   * always been there. The default ignores it (such a fabric fails on a packet for an unattached node).
   *
   * @param attacher called with a node id; attaches that node's endpoint
   */
  default void attachOnDemand(java.util.function.IntConsumer attacher) {}

  /**
   * Offers a packet to the fabric at its source node at the scheduler's current time.
   *
   * @param packet the packet; from now on owned by the fabric until delivered, and not to be injected again before
   *     then (the library's fabrics refuse that, by the packet's {@link Packet#inFabric()} mark)
   * @return true when accepted; false when the injection port has no room now (the NIC keeps the packet and waits
   *     for {@link FabricEndpoint#injectionReady}, which a fabric that refused must call later)
   * @throws IllegalArgumentException when the source or destination node is outside the fabric
   */
  boolean inject(Packet packet);
}
