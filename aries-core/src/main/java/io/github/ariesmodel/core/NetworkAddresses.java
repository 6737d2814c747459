package io.github.ariesmodel.core;

import static io.github.ariesmodel.core.NetworkAddress.MAX_MDH;
import static io.github.ariesmodel.core.NetworkAddress.MAX_NODE_ID;
import static io.github.ariesmodel.core.NetworkAddress.MAX_OFFSET;
import static io.github.ariesmodel.core.NetworkAddress.MDH_BITS;
import static io.github.ariesmodel.core.NetworkAddress.OFFSET_BITS;

/**
 * Allocation-free helpers on the primitive forms of a {@link NetworkAddress}, for hot paths.
 *
 * <p>An <em>endpoint</em> is the 30-bit int {@code nodeId << 12 | mdh}: the part of a network address that selects a
 * memory domain on a node. Together with the {@code long} offset it carries the whole 70-bit address without an
 * object. The 70-bit integer is also available as a pair of longs ({@link #high}, {@link #low}).
 *
 * <p>The {@code check*} methods throw {@link IllegalArgumentException} naming the field, its range and the value; the
 * {@code compose}/{@code extract} methods assume already-valid input and never allocate.
 */
public final class NetworkAddresses {

  /** Width of an endpoint ({@code nodeId << 12 | mdh}). */
  public static final int ENDPOINT_BITS = NetworkAddress.NODE_ID_BITS + MDH_BITS;

  private NetworkAddresses() {}

  /**
   * Composes the 30-bit endpoint.
   *
   * @param nodeId a valid node id
   * @param mdh a valid MDH
   * @return {@code nodeId << 12 | mdh}
   */
  public static int endpoint(int nodeId, int mdh) {
    return (nodeId << MDH_BITS) | mdh;
  }

  /** The node id of an endpoint. @param endpoint a 30-bit endpoint @return bits 29..12 */
  public static int nodeId(int endpoint) {
    return endpoint >>> MDH_BITS;
  }

  /** The MDH of an endpoint. @param endpoint a 30-bit endpoint @return bits 11..0 */
  public static int mdh(int endpoint) {
    return endpoint & MAX_MDH;
  }

  /** Bits 69..64 of the 70-bit address, which depend only on the node id. @param nodeId a valid node id @return 0..63 */
  public static long high(int nodeId) {
    return (nodeId >>> 12) & 0x3F;
  }

  /**
   * Bits 63..0 of the 70-bit address.
   *
   * @param nodeId a valid node id
   * @param mdh a valid MDH
   * @param offset a valid offset
   * @return the low 64 bits
   */
  public static long low(int nodeId, int mdh, long offset) {
    return ((long) (nodeId & 0xFFF) << 52) | ((long) mdh << OFFSET_BITS) | offset;
  }

  /** The node id from the two-long form. @param high bits 69..64 @param low bits 63..0 @return the node id */
  public static int nodeId(long high, long low) {
    return (int) ((high << 12) | (low >>> 52));
  }

  /** The MDH from the low 64 bits. @param low bits 63..0 @return the MDH */
  public static int mdh(long low) {
    return (int) ((low >>> OFFSET_BITS) & MAX_MDH);
  }

  /** The offset from the low 64 bits. @param low bits 63..0 @return the offset */
  public static long offset(long low) {
    return low & MAX_OFFSET;
  }

  /** Whether a node id is in range. @param nodeId the value @return true when 0 ≤ nodeId ≤ {@value NetworkAddress#MAX_NODE_ID} */
  public static boolean isValidNodeId(int nodeId) {
    return nodeId >= 0 && nodeId <= MAX_NODE_ID;
  }

  /** Whether an MDH is in range. @param mdh the value @return true when 0 ≤ mdh ≤ {@value NetworkAddress#MAX_MDH} */
  public static boolean isValidMdh(int mdh) {
    return mdh >= 0 && mdh <= MAX_MDH;
  }

  /** Whether an offset is in range. @param offset the value @return true when 0 ≤ offset ≤ 2^40 - 1 */
  public static boolean isValidOffset(long offset) {
    return offset >= 0 && offset <= MAX_OFFSET;
  }

  /**
   * Checks a node id.
   *
   * @param nodeId the value
   * @return the value
   * @throws IllegalArgumentException naming {@code nodeId}, its range and the value
   */
  public static int checkNodeId(int nodeId) {
    if (!isValidNodeId(nodeId)) {
      throw new IllegalArgumentException(
          "nodeId must be in [0, " + MAX_NODE_ID + "] (18 bits) but was " + nodeId);
    }
    return nodeId;
  }

  /**
   * Checks an MDH.
   *
   * @param mdh the value
   * @return the value
   * @throws IllegalArgumentException naming {@code mdh}, its range and the value
   */
  public static int checkMdh(int mdh) {
    if (!isValidMdh(mdh)) {
      throw new IllegalArgumentException("mdh must be in [0, " + MAX_MDH + "] (12 bits) but was " + mdh);
    }
    return mdh;
  }

  /**
   * Checks an offset.
   *
   * @param offset the value
   * @return the value
   * @throws IllegalArgumentException naming {@code offset}, its range and the value
   */
  public static long checkOffset(long offset) {
    if (!isValidOffset(offset)) {
      throw new IllegalArgumentException(
          "offset must be in [0, " + MAX_OFFSET + "] (40 bits) but was " + offset);
    }
    return offset;
  }
}
