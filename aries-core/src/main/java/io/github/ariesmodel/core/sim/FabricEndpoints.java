package io.github.ariesmodel.core.sim;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;

/**
 * The node side of a {@link Fabric}: which endpoint each node has attached, and the argument checks the port's
 * contract asks for. Every fabric (built-in, fake or a user's) keeps one instead of writing the checks again.
 * Lookups are an array access; nothing is allocated.
 */
public final class FabricEndpoints {

  private final FabricEndpoint[] endpoints;
  private java.util.function.IntConsumer onDemand;

  /**
   * A table for a fabric of {@code nodeCount} nodes.
   *
   * @param nodeCount 1 to 2^18
   */
  public FabricEndpoints(int nodeCount) {
    if (nodeCount < 1 || nodeCount > (1 << 18)) {
      throw new IllegalArgumentException("nodeCount must be in [1, 262144] but was " + nodeCount);
    }
    this.endpoints = new FabricEndpoint[nodeCount];
  }

  /** @return the number of nodes */
  public int nodeCount() {
    return endpoints.length;
  }

  /**
   * Attaches a node's endpoint, as {@link Fabric#attach} specifies.
   *
   * @param nodeId 0 to nodeCount - 1
   * @param endpoint the endpoint
   * @throws IllegalArgumentException when the node is out of range or the endpoint is null
   * @throws IllegalStateException when the node is already attached
   */
  public void attach(int nodeId, FabricEndpoint endpoint) {
    checkNode("nodeId", nodeId);
    if (endpoint == null) {
      throw new IllegalArgumentException("endpoint must not be null");
    }
    if (endpoints[nodeId] != null) {
      throw new IllegalStateException("node " + nodeId + " is already attached");
    }
    endpoints[nodeId] = endpoint;
  }

  /**
   * The endpoint of a node.
   *
   * @param nodeId 0 to nodeCount - 1
   * @return its endpoint
   * @throws IllegalArgumentException when the node is out of range
   * @throws IllegalStateException when the node has no endpoint attached
   */
  public FabricEndpoint endpoint(int nodeId) {
    checkNode("nodeId", nodeId);
    FabricEndpoint e = endpoints[nodeId];
    if (e == null) {
      throw new IllegalStateException("node " + nodeId + " has no endpoint attached");
    }
    return e;
  }

  /**
   * The endpoint a packet is delivered to (its destination's).
   *
   * @param p a packet whose destination was checked at injection
   * @return the destination's endpoint
   * @throws IllegalStateException naming the packet when its destination has no endpoint attached (a packet sent to
   *     a node nobody built)
   */
  public FabricEndpoint endpointFor(Packet p) {
    FabricEndpoint e = endpoints[p.destinationNode()];
    if (e == null && onDemand != null) {
      onDemand.accept(p.destinationNode());
      e = endpoints[p.destinationNode()];
    }
    if (e == null) {
      throw new IllegalStateException("packet for node " + p.destinationNode() + " which has no endpoint attached: "
          + p);
    }
    return e;
  }

  /**
   * Installs the callback {@link Fabric#attachOnDemand} describes: {@link #endpointFor} calls it for a destination
   * with no endpoint, then looks again.
   *
   * @param attacher attaches the endpoint of the node it is given, or null for none
   */
  public void attachOnDemand(java.util.function.IntConsumer attacher) {
    this.onDemand = attacher;
  }

  /**
   * The endpoint of a node, or null when none is attached.
   *
   * @param nodeId a node in range
   * @return the endpoint or null
   */
  public FabricEndpoint endpointOrNull(int nodeId) {
    return endpoints[nodeId];
  }

  /**
   * Checks that a packet's source and destination are nodes of this fabric, as {@link Fabric#inject} specifies.
   *
   * @param packet the packet offered
   * @throws IllegalArgumentException for a null packet, or naming the field, the range and the value
   */
  public void checkPacket(Packet packet) {
    if (packet == null) {
      throw new IllegalArgumentException("packet must not be null");
    }
    checkNode("packet.sourceNode", packet.sourceNode());
    checkNode("packet.destinationNode", packet.destinationNode());
  }

  /**
   * Checks a node id.
   *
   * @param what the parameter's name, for the message
   * @param node the value
   * @throws IllegalArgumentException naming the parameter, the range and the value
   */
  public void checkNode(String what, int node) {
    if (node < 0 || node >= endpoints.length) {
      throw new IllegalArgumentException(what + " must be in [0, " + (endpoints.length - 1) + "] but was " + node);
    }
  }
}
