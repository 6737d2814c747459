package io.github.ariesmodel.nic;

/**
 * Layout of the tag field the NIC puts into its request packets (core's {@code Packet} has a 32-bit tag and no
 * command field, so the model carries two request flags there as well):
 *
 * <table>
 *   <caption>Tag field</caption>
 *   <tr><th>bits</th><th>meaning</th></tr>
 *   <tr><td>0-11</td><td>the transaction's request tag (at most {@link NicConfig#MAX_REQUEST_TAGS})</td></tr>
 *   <tr><td>12</td><td>the target writes a REMOTE event when it has processed this request</td></tr>
 *   <tr><td>13</td><td>this 8-byte PUT is a CQ write whose MDH field names the target's CQ</td></tr>
 * </table>
 *
 * <p>Responses echo the request's tag field, so the initiator finds its transaction from bits 0-11. Static helpers on
 * primitives; nothing allocates.
 */
final class RequestTag {

  /** Bits of a packet's tag field that carry the request tag. */
  static final int TAG_MASK = 0xFFF;
  /** Tag-field bit: the target writes a REMOTE event when it has processed this request. */
  static final int REMOTE_EVENT = 1 << 12;
  /** Tag-field bit: this 8-byte PUT is a CQ write whose MDH field names the target CQ. */
  static final int CQ_WRITE = 1 << 13;

  private RequestTag() {}

  /** @param tagField a packet's tag field @return the request tag in it */
  static int tag(int tagField) {
    return tagField & TAG_MASK;
  }

  /** @param tagField a request's tag field @return whether its sender asked for a REMOTE event */
  static boolean remoteEvent(int tagField) {
    return (tagField & REMOTE_EVENT) != 0;
  }

  /** @param tagField a request's tag field @return whether the request is a CQ write */
  static boolean cqWrite(int tagField) {
    return (tagField & CQ_WRITE) != 0;
  }
}
