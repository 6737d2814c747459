package io.github.ariesmodel.core;

import static com.google.common.base.Preconditions.checkArgument;

import java.math.BigInteger;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A 70-bit Aries network address: the node (NIC endpoint) that owns the memory, the memory domain handle that selects
 * a registered segment there, and the byte offset into that segment. Remote references are never cached at the
 * initiator; this value is what a request packet carries to the target NIC.
 *
 * <p>Bit layout of the 70-bit integer (most significant first), from the Aries BTE descriptor field widths
 * ({@code dest_endpoint} 18 b, {@code rem_mdh} 12 b, {@code rem_mem_offset} 40 b; aries-facts §4, S6a, S7):
 *
 * <pre>
 * | bits   | width | field   | range                 |
 * |--------|-------|---------|-----------------------|
 * | 69..52 | 18    | nodeId  | 0 .. 262,143          |
 * | 51..40 | 12    | mdh     | 0 .. 4,095            |
 * | 39..0  | 40    | offset  | 0 .. 1,099,511,627,775|
 * </pre>
 *
 * <p>Text form: {@code node:mdh:offset} with the node and MDH in decimal and the offset in {@code 0x} hex, e.g.
 * {@code 12:7:0x1f40}; {@link #parse} also accepts a decimal offset. {@link #toString()} round-trips through
 * {@link #parse}. The natural order is the order of the 70-bit integer. Hot paths use the primitive twins in
 * {@link NetworkAddresses}, which allocate nothing.
 *
 * @param nodeId the destination endpoint (18 bits)
 * @param mdh the memory domain handle (12 bits)
 * @param offset the byte offset into the registered segment (40 bits)
 */
public record NetworkAddress(int nodeId, int mdh, long offset) implements Comparable<NetworkAddress> {

  /** Width of the node id field. */
  public static final int NODE_ID_BITS = 18;
  /** Width of the memory domain handle field. */
  public static final int MDH_BITS = 12;
  /** Width of the offset field. */
  public static final int OFFSET_BITS = 40;
  /** Width of the whole address. */
  public static final int TOTAL_BITS = NODE_ID_BITS + MDH_BITS + OFFSET_BITS;
  /** Bytes in the big-endian wire form ({@code ceil(70 / 8)}). */
  public static final int WIRE_BYTES = 9;
  /** Largest node id, {@code 2^18 - 1}. */
  public static final int MAX_NODE_ID = (1 << NODE_ID_BITS) - 1;
  /** Largest MDH, {@code 2^12 - 1}. */
  public static final int MAX_MDH = (1 << MDH_BITS) - 1;
  /** Largest offset, {@code 2^40 - 1}. */
  public static final long MAX_OFFSET = (1L << OFFSET_BITS) - 1;

  private static final BigInteger MAX_VALUE = BigInteger.ONE.shiftLeft(TOTAL_BITS).subtract(BigInteger.ONE);

  /** Validates every field; see the class javadoc for the ranges. */
  public NetworkAddress {
    NetworkAddresses.checkNodeId(nodeId);
    NetworkAddresses.checkMdh(mdh);
    NetworkAddresses.checkOffset(offset);
  }

  /**
   * Returns the address with the given fields.
   *
   * @param nodeId node id, 0 to {@value #MAX_NODE_ID}
   * @param mdh memory domain handle, 0 to {@value #MAX_MDH}
   * @param offset byte offset, 0 to {@value #MAX_OFFSET}
   * @return the address
   * @throws IllegalArgumentException naming the field, its range and the value when one is out of range
   */
  public static NetworkAddress of(int nodeId, int mdh, long offset) {
    return new NetworkAddress(nodeId, mdh, offset);
  }

  /**
   * Rebuilds an address from its 70-bit integer split into two longs.
   *
   * @param high the top 6 bits (bits 69..64), 0 to 63
   * @param low the low 64 bits (bits 63..0)
   * @return the address
   * @throws IllegalArgumentException when {@code high} is outside 0..63
   */
  public static NetworkAddress fromLongs(long high, long low) {
    checkArgument(high >= 0 && high < 64, "high must be in [0, 63] (the top 6 of 70 bits) but was %s", high);
    int nodeId = (int) ((high << 12) | (low >>> 52));
    int mdh = (int) ((low >>> OFFSET_BITS) & MAX_MDH);
    long offset = low & MAX_OFFSET;
    return new NetworkAddress(nodeId, mdh, offset);
  }

  /**
   * Rebuilds an address from the 70-bit integer.
   *
   * @param value a non-negative integer below {@code 2^70}
   * @return the address
   * @throws IllegalArgumentException when the value is null, negative or needs more than 70 bits
   */
  public static NetworkAddress fromBigInteger(BigInteger value) {
    checkArgument(value != null, "value must not be null");
    checkArgument(
        value.signum() >= 0 && value.compareTo(MAX_VALUE) <= 0,
        "value must be in [0, 2^70 - 1] but was %s",
        value);
    return fromLongs(value.shiftRight(64).longValue(), value.longValue());
  }

  /**
   * Rebuilds an address from its 9-byte big-endian wire form.
   *
   * @param wire exactly {@value #WIRE_BYTES} bytes; the top 2 bits of the first byte must be zero
   * @return the address
   * @throws IllegalArgumentException when the array is null, its length is wrong or a bit above bit 69 is set
   */
  public static NetworkAddress fromWire(byte[] wire) {
    checkArgument(wire != null, "wire must not be null");
    checkArgument(
        wire.length == WIRE_BYTES, "wire must be %s bytes long but was %s bytes", WIRE_BYTES, wire.length);
    checkArgument(
        (wire[0] & 0xC0) == 0,
        "wire[0] must be in [0x00, 0x3f] (bits above 69 clear) but was 0x%s",
        Integer.toHexString(wire[0] & 0xFF));
    long low = 0;
    for (int i = 1; i < WIRE_BYTES; i++) {
      low = (low << 8) | (wire[i] & 0xFF);
    }
    return fromLongs(wire[0] & 0x3F, low);
  }

  /**
   * Parses the text form {@code node:mdh:offset} produced by {@link #toString()}. Node and MDH are decimal; the offset
   * is {@code 0x}-prefixed hex or decimal. Only ASCII digits are accepted: no signs, spaces or other scripts' digits.
   *
   * @param text the text to parse
   * @return the address
   * @throws IllegalArgumentException quoting the text (at most 80 characters) when it is malformed or a field is out
   *     of range
   */
  public static NetworkAddress parse(String text) {
    checkArgument(text != null, "text must not be null");
    String shown = Texts.abbreviate(text);
    String[] parts = text.split(":", -1);
    if (parts.length != 3
        || !DECIMAL.matcher(parts[0]).matches()
        || !DECIMAL.matcher(parts[1]).matches()
        || !(DECIMAL.matcher(parts[2]).matches() || HEX.matcher(parts[2]).matches())) {
      throw new IllegalArgumentException(
          "network address must look like node:mdh:offset (e.g. 12:7:0x1f40) but was \"" + shown + "\"");
    }
    long node = parseField("nodeId", parts[0], 10, MAX_NODE_ID, shown);
    long mdh = parseField("mdh", parts[1], 10, MAX_MDH, shown);
    boolean hex = parts[2].length() > 2 && (parts[2].charAt(1) == 'x' || parts[2].charAt(1) == 'X');
    long offset = parseField("offset", hex ? parts[2].substring(2) : parts[2], hex ? 16 : 10, MAX_OFFSET, shown);
    return new NetworkAddress((int) node, (int) mdh, offset);
  }

  private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,40}");
  private static final Pattern HEX = Pattern.compile("0[xX][0-9a-fA-F]{1,40}");

  private static long parseField(String name, String digits, int radix, long max, String shown) {
    BigInteger v = new BigInteger(digits, radix);
    if (v.compareTo(BigInteger.valueOf(max)) > 0) {
      throw new IllegalArgumentException(
          name + " must be in [0, " + max + "] but was " + v + " in \"" + shown + "\"");
    }
    return v.longValueExact();
  }

  /** The top 6 bits (69..64) of the 70-bit integer. @return bits 69..64 as a long in 0..63 */
  public long highBits() {
    return NetworkAddresses.high(nodeId);
  }

  /** The low 64 bits (63..0) of the 70-bit integer. @return bits 63..0 */
  public long lowBits() {
    return NetworkAddresses.low(nodeId, mdh, offset);
  }

  /** The 70-bit integer. @return a non-negative BigInteger below 2^70 */
  public BigInteger toBigInteger() {
    return BigInteger.valueOf(highBits()).shiftLeft(64).or(new BigInteger(Long.toUnsignedString(lowBits())));
  }

  /** The 9-byte big-endian wire form. @return a new 9-byte array */
  public byte[] toWire() {
    byte[] wire = new byte[WIRE_BYTES];
    wire[0] = (byte) highBits();
    long low = lowBits();
    for (int i = WIRE_BYTES - 1; i >= 1; i--) {
      wire[i] = (byte) low;
      low >>>= 8;
    }
    return wire;
  }

  /** The 30-bit endpoint ({@code nodeId << 12 | mdh}); see {@link NetworkAddresses#endpoint}. @return the endpoint */
  public int endpoint() {
    return NetworkAddresses.endpoint(nodeId, mdh);
  }

  /**
   * Returns this address moved by {@code delta} bytes.
   *
   * @param delta bytes to add (may be negative)
   * @return the moved address
   * @throws IllegalArgumentException when the result leaves the 40-bit offset range
   */
  public NetworkAddress plus(long delta) {
    return new NetworkAddress(nodeId, mdh, offset + delta);
  }

  @Override
  public int compareTo(NetworkAddress other) {
    int c = Integer.compare(nodeId, other.nodeId);
    if (c != 0) {
      return c;
    }
    c = Integer.compare(mdh, other.mdh);
    return c != 0 ? c : Long.compare(offset, other.offset);
  }

  /** The text form {@code node:mdh:0xoffset}, accepted by {@link #parse}. */
  @Override
  public String toString() {
    return nodeId + ":" + mdh + ":0x" + Long.toHexString(offset).toLowerCase(Locale.ROOT);
  }
}
