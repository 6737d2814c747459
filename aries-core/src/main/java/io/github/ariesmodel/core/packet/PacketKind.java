package io.github.ariesmodel.core.packet;

/** What a packet is: one of the three requests, or one of the responses that answer them. */
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
  ERROR_RESPONSE(false);

  private final boolean request;

  PacketKind(boolean request) {
    this.request = request;
  }

  /** Whether this is a request (travels initiator → target). @return true for the three requests */
  public boolean isRequest() {
    return request;
  }
}
