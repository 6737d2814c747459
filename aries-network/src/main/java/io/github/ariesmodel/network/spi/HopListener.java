package io.github.ariesmodel.network.spi;

import io.github.ariesmodel.core.packet.Packet;

/**
 * Told of every hop a packet takes through a router fabric: the moment the packet starts crossing a link from one
 * router to the next. A per-hop tracer (the system library's {@code PacketTrace}) or a user's path check implements
 * it and hands it to the fabric's builder ({@code RouterFabric.Builder#hopListener}).
 *
 * <p>A fabric without a listener pays one null check per hop and nothing else. On a single event loop the listener
 * is called on the simulation thread, in simulated-time order. On a partitioned engine with several threads it is
 * called on the thread running the router's group: calls for routers of different groups may come at once and out
 * of time order with each other (in time order within a group only), so a listener shared by the groups must be
 * thread-safe and must not assume one order; results do not depend on the thread count only if it does not. It must
 * not change the packet or keep it beyond the packet's delivery.
 * The fabric does not number packets: a listener identifies one by its source, destination and tag, or by the
 * object itself while it is in flight (the system library's trace numbers packets in injection order).
 */
@FunctionalInterface
public interface HopListener {

  /**
   * A packet leaves a router.
   *
   * @param nowPs when its head starts across the link, picoseconds
   * @param packet the packet ({@link Packet#sourceNode()}, {@link Packet#destinationNode()}, kind, tag)
   * @param router the router it leaves
   * @param port the output port it leaves through (a cabled network port of {@code router})
   * @param vc the virtual channel it takes on that link
   * @param hop the hop's index, 1 for the link out of the source router; equal to {@link Packet#hops()} now
   */
  void hop(long nowPs, Packet packet, int router, int port, int vc, int hop);
}
