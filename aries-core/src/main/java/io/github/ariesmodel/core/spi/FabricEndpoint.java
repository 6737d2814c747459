package io.github.ariesmodel.core.spi;

import io.github.ariesmodel.core.packet.Packet;

/** The node side of a fabric connection: what the fabric calls on a NIC. */
public interface FabricEndpoint {

  /**
   * A packet addressed to this node has arrived (ejection). The NIC always accepts it.
   *
   * <p>The packet belongs to the endpoint from now on. An endpoint may give it back to a {@link
   * io.github.ariesmodel.core.packet.PacketPool} once it is done with it, after which it becomes another packet: a
   * fabric, observer or trace that wants a delivered packet's fields later copies them now.
   *
   * @param nowPs arrival time, picoseconds
   * @param packet the packet; the fabric no longer touches it
   */
  void deliver(long nowPs, Packet packet);

  /**
   * The fabric can accept an injection again after {@link Fabric#inject} refused one.
   *
   * @param nowPs time, picoseconds
   */
  default void injectionReady(long nowPs) {}
}
