package io.github.ariesmodel.core.packet;

/**
 * What a packet is: one of the three requests, one of the responses that answer them, or one of the two packets of
 * the NIC's collective engine (CE), which travel between CE channels of a reduction tree and are neither.
 */
public enum PacketKind {
  /** Carries up to 64 bytes to write at the target. */
  PUT_REQUEST(true),
  /** Asks the target for up to 64 bytes. */
  GET_REQUEST(true),
  /** Asks the target's AMO unit to perform one atomic operation. */
  AMO_REQUEST(true),
  /** Acknowledges a PUT (or a non-fetching AMO): no data. */
  ACK_RESPONSE(false),
  /** Carries the bytes a GET asked for. */
  DATA_RESPONSE(false),
  /** Carries a fetching AMO's old value. */
  AMO_RESPONSE(false),
  /** Reports a fault at the target; nothing was written there. */
  ERROR_RESPONSE(false),
  /**
   * A collective-engine contribution going up a reduction tree, from a child channel to its parent channel (the
   * Aries NIC's CE [S5]); answered by nothing.
   */
  CE_CONTRIBUTION(false, true),
  /** A collective-engine result going down a reduction tree, from a parent channel to a child channel [S5]. */
  CE_RESULT(false, true);

  private final boolean request;
  private final boolean collective;

  PacketKind(boolean request) {
    this(request, false);
  }

  PacketKind(boolean request, boolean collective) {
    this.request = request;
    this.collective = collective;
  }

  /** Whether this is a request (travels initiator → target). @return true for the three requests */
  public boolean isRequest() {
    return request;
  }

  /**
   * Whether this is a collective-engine packet (a contribution or a result): neither a request nor a response, and
   * carrying a CE channel, a reduction id and two operands instead of an address and data.
   *
   * @return true for {@link #CE_CONTRIBUTION} and {@link #CE_RESULT}
   */
  public boolean isCollective() {
    return collective;
  }
}
