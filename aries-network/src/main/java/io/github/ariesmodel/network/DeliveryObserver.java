package io.github.ariesmodel.network;

import io.github.ariesmodel.core.packet.Packet;

/**
 * Told of every packet a {@link RouterFabric} delivers, just before the destination node's endpoint receives it, with
 * how the fabric routed it: the route state that lives in the fabric rather than in the packet. Traffic experiments
 * use it to count minimal and non-minimal packets; the routing contract uses it to check that the count matches the
 * path each packet took. Called on the simulation thread; it must not keep the call beyond its return.
 */
@FunctionalInterface
public interface DeliveryObserver {

  /**
   * A packet is being delivered.
   *
   * @param nowPs delivery time, picoseconds
   * @param packet the packet ({@link Packet#hops()} is final now)
   * @param nonMinimal whether it was committed to an intermediate on its way (see {@code Candidates#addNonMinimal})
   */
  void delivered(long nowPs, Packet packet, boolean nonMinimal);
}
