package io.github.ariesmodel.network.spi;

/**
 * What a routing algorithm may read while it routes one packet at one router: where it is, the topology, the
 * congestion of each output port, and the packet's route so far ({@link #intermediate()}, {@link #nonMinimal()}),
 * which the fabric keeps per packet in flight (not in the packet). Read-only; the fabric reuses one view object for
 * every decision, so an algorithm must not keep it beyond the call.
 */
public interface RouterView {

  /** @return the router deciding */
  int router();

  /** @return its group */
  int group();

  /** @return the topology */
  Topology topology();

  /** @return virtual channels per port */
  int vcCount();

  /** @return bytes of buffer per virtual channel at every router input */
  int vcBufferBytes();

  /** @return simulated time, picoseconds */
  long now();

  /**
   * Congestion of an output port in bytes: packets waiting for the port plus bytes held in the downstream input
   * buffers (credits not yet returned).
   *
   * @param port a network port of this router
   * @return bytes, ≥ 0
   */
  int congestion(int port);

  /**
   * The congestion of an output port squeezed to Aries' 4-bit load value (aries-facts §2, S6f): 0 (idle) to 15 (a
   * full VC buffer's worth or more).
   *
   * @param port a network port of this router
   * @return 0 to 15
   */
  default int congestionLevel(int port) {
    long c = (long) congestion(port) * 16 / Math.max(1, vcBufferBytes());
    return (int) Math.min(15, c);
  }

  /**
   * @param port a network port of this router
   * @param vc a virtual channel
   * @return free bytes in the downstream buffer of that VC, as this router's credits say
   */
  int credits(int port, int vc);

  /** @param port a network port of this router @return bytes queued for the port at this router */
  int queuedBytes(int port);

  /**
   * The intermediate the packet being routed is on its way to: set when a candidate added with {@link
   * Candidates#addNonMinimal} was chosen at an earlier hop, cleared by the fabric on the packet's arrival where
   * {@link DragonflyPaths#reached} holds.
   *
   * @return the intermediate router, or -1 (a minimal packet, or one past its intermediate)
   */
  int intermediate();

  /**
   * @return whether the packet being routed was committed to an intermediate at an earlier hop (it stays true once the
   *     intermediate is reached); the fabric counts such packets as delivered non-minimally
   */
  boolean nonMinimal();
}
