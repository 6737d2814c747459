package io.github.ariesmodel.core.packet;

/**
 * Sizes of packets on Aries links, in phits.
 *
 * <p>Published (aries-facts §3, S2 quoting the Aries whitepaper): a 64-byte PUT is 14 request phits and 1 response
 * phit; a 64-byte GET is 3 request phits and 12 response phits. The Aries phit size is not published. A 6-byte phit
 * with a 3-phit request header and a 1-phit response header reproduces all four counts exactly
 * (3 + ⌈64/6⌉ = 14, 1, 3, 1 + ⌈64/6⌉ = 12), so the model uses it (our derivation, marked as such). A packet's size on
 * the wire is therefore {@code 6 × (header phits + ⌈data bytes / 6⌉)} bytes.
 */
public final class WireFormat {

  /** Bytes per phit (derived, see the class javadoc). */
  public static final int PHIT_BYTES = 6;
  /** Header phits of a request (carries the 70-bit address, command, tags). */
  public static final int REQUEST_HEADER_PHITS = 3;
  /** Header phits of a response. */
  public static final int RESPONSE_HEADER_PHITS = 1;
  /** Largest data payload of one packet, in bytes. */
  public static final int MAX_PAYLOAD = 64;

  private WireFormat() {}

  /**
   * Phits of a packet.
   *
   * @param request whether it is a request
   * @param dataBytes bytes of data (payload or AMO operands) it carries
   * @return header phits plus ⌈dataBytes / 6⌉
   */
  public static int phits(boolean request, int dataBytes) {
    return (request ? REQUEST_HEADER_PHITS : RESPONSE_HEADER_PHITS) + (dataBytes + PHIT_BYTES - 1) / PHIT_BYTES;
  }

  /**
   * Bytes of a packet on the wire.
   *
   * @param request whether it is a request
   * @param dataBytes bytes of data it carries
   * @return phits × 6
   */
  public static int wireBytes(boolean request, int dataBytes) {
    return phits(request, dataBytes) * PHIT_BYTES;
  }
}
