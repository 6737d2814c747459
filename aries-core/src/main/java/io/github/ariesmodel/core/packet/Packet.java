package io.github.ariesmodel.core.packet;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.NetworkAddresses;
import io.github.ariesmodel.core.Status;

/**
 * One network packet: a request (PUT with ≤ 64 bytes, GET for ≤ 64 bytes, AMO) or a response (ACK, data, AMO
 * result, error), with what the routers and the NICs need.
 *
 * <p>The protocol fields (kind, endpoints, address, tag, delivery mode, data, AMO operands, status) are fixed at
 * construction. Three more fields are a <em>transit record</em> that the fabric carrying the packet writes and
 * anyone may read: the router-to-router hops it took ({@link #hops()}, final once it is delivered), when it entered
 * the fabric ({@link #injectedAtPs()}) and whether it is in a fabric now ({@link #inFabric()}), which the library's
 * fabrics use to refuse a packet injected a second time before its delivery. They are the same for every kind of
 * fabric, so a NIC, a trace or a traffic generator can report them. A maker that measures from before the fabric (a traffic generator whose packets wait in a
 * source queue) may record the creation time ({@link #createdAtPs()}); fabrics ignore it. How a fabric routes a
 * packet (virtual channels, waypoints of a non-minimal route) is the fabric's own state and is not kept here: the
 * router fabric keeps it in its per-packet records.
 *
 * <p>A packet made by a {@link PacketPool} may be given back to its pool by the one component that owns it last (a
 * NIC, once it has served a request or landed a response) and then reused for another packet: whoever else wants a
 * delivered packet's fields after delivery copies them (see {@code FabricEndpoint}). Packets from the static
 * factories here are never reused.
 *
 * <p>Size on the wire follows {@link WireFormat}. The {@code data} array, when present, is owned by the packet and
 * never copied; synthetic traffic may leave it {@code null} and give only {@link #dataLength()}.
 */
public final class Packet {

  private PacketKind kind;
  private int sourceNode;
  private int destinationNode;
  private int mdh;
  private long offset;
  private int tag;
  private DeliveryMode deliveryMode;
  private int dataLength;
  private byte[] data;
  private AmoOperation amo;
  private long operand1;
  private long operand2;
  private Status status;
  private int protectionTag;
  private int protectionKey;
  private int wireBytes;

  // Transit record: written by the fabric carrying the packet (see the class comment).
  private int hops;
  private long injectedAtPs;
  private long createdAtPs;
  private boolean inFabric;
  /** Set while the packet waits in a {@link PacketPool} for reuse. */
  boolean released;

  /** Operand bytes a collective-engine packet carries: two 64-bit operands [S5]. */
  public static final int COLLECTIVE_OPERAND_BYTES = 2 * Long.BYTES;
  /** Largest reduction id a collective-engine packet carries: it travels in the 40-bit offset field. */
  public static final long MAX_REDUCTION_ID = NetworkAddress.MAX_OFFSET;

  /** A blank packet for a {@link PacketPool} to fill with {@link #init}. */
  Packet() {}

  private Packet(
      PacketKind kind, int sourceNode, int destinationNode, int mdh, long offset, int tag, DeliveryMode deliveryMode,
      int dataLength, byte[] data, AmoOperation amo, long operand1, long operand2, Status status, int protectionTag,
      int protectionKey) {
    init(kind, sourceNode, destinationNode, mdh, offset, tag, deliveryMode, dataLength, data, amo, operand1, operand2,
        status, protectionTag, protectionKey);
  }

  /** Sets every field, with the checks of the factories; the transit record starts empty. @return this */
  Packet init(
      PacketKind kind, int sourceNode, int destinationNode, int mdh, long offset, int tag, DeliveryMode deliveryMode,
      int dataLength, byte[] data, AmoOperation amo, long operand1, long operand2, Status status, int protectionTag,
      int protectionKey) {
    NetworkAddresses.checkNodeId(sourceNode);
    NetworkAddresses.checkNodeId(destinationNode);
    NetworkAddresses.checkMdh(mdh);
    NetworkAddresses.checkOffset(offset);
    checkArgument(deliveryMode != null, "deliveryMode must not be null");
    checkArgument(
        dataLength >= 0 && dataLength <= WireFormat.MAX_PAYLOAD,
        "dataLength must be in [0, 64] bytes but was %s",
        dataLength);
    checkArgument(data == null || data.length == dataLength,
        "data must hold exactly dataLength (%s) bytes but held %s", dataLength, data == null ? 0 : data.length);
    this.kind = kind;
    this.sourceNode = sourceNode;
    this.destinationNode = destinationNode;
    this.mdh = mdh;
    this.offset = offset;
    this.tag = tag;
    this.deliveryMode = deliveryMode;
    this.dataLength = dataLength;
    this.data = data;
    this.amo = amo;
    this.operand1 = operand1;
    this.operand2 = operand2;
    this.status = status;
    this.protectionTag = protectionTag;
    this.protectionKey = protectionKey;
    int carried =
        switch (kind) {
          case PUT_REQUEST, DATA_RESPONSE -> dataLength;
          case AMO_REQUEST -> amo.requestOperandBytes();
          case AMO_RESPONSE -> amo.responseBytes();
          case GET_REQUEST, ACK_RESPONSE, ERROR_RESPONSE -> 0;
          case CE_CONTRIBUTION, CE_RESULT -> COLLECTIVE_OPERAND_BYTES;
        };
    // a CE packet's header names a node and a channel and carries the command, as a request's does
    this.wireBytes = WireFormat.wireBytes(kind.isRequest() || kind.isCollective(), carried);
    this.hops = 0;
    this.injectedAtPs = 0;
    this.createdAtPs = 0;
    this.released = false;
    return this;
  }

  /**
   * A PUT request.
   *
   * @param sourceNode initiating node
   * @param target where the data goes
   * @param tag the initiator's request tag, echoed in the response
   * @param mode routing mode
   * @param data 0 to 64 bytes (owned by the packet from now on)
   * @param protectionTag initiator's PTAG
   * @param protectionKey initiator's PKEY
   * @return the packet
   */
  public static Packet put(
      int sourceNode, NetworkAddress target, int tag, DeliveryMode mode, byte[] data, int protectionTag,
      int protectionKey) {
    checkArgument(target != null, "target must not be null");
    checkArgument(data != null, "data must not be null");
    return new Packet(PacketKind.PUT_REQUEST, sourceNode, target.nodeId(), target.mdh(), target.offset(), tag, mode,
        data.length, data, null, 0, 0, Status.OK, protectionTag, protectionKey);
  }

  /**
   * A payload-less request of a given data length, for synthetic network traffic (no memory is touched).
   *
   * @param sourceNode source node
   * @param destinationNode destination node
   * @param tag any tag the traffic source wants back
   * @param mode routing mode
   * @param dataLength 0 to 64 bytes counted on the wire
   * @return a PUT request without data bytes
   */
  public static Packet synthetic(int sourceNode, int destinationNode, int tag, DeliveryMode mode, int dataLength) {
    return new Packet(PacketKind.PUT_REQUEST, sourceNode, destinationNode, 0, 0, tag, mode, dataLength, null, null, 0,
        0, Status.OK, 0, 0);
  }

  /**
   * A GET request.
   *
   * @param sourceNode initiating node
   * @param target where the data is read
   * @param tag the initiator's request tag
   * @param mode routing mode
   * @param length 1 to 64 bytes asked for
   * @param protectionTag initiator's PTAG
   * @param protectionKey initiator's PKEY
   * @return the packet
   */
  public static Packet get(
      int sourceNode, NetworkAddress target, int tag, DeliveryMode mode, int length, int protectionTag,
      int protectionKey) {
    checkArgument(target != null, "target must not be null");
    checkArgument(length >= 1 && length <= WireFormat.MAX_PAYLOAD, "GET length must be in [1, 64] but was %s", length);
    return new Packet(PacketKind.GET_REQUEST, sourceNode, target.nodeId(), target.mdh(), target.offset(), tag, mode,
        length, null, null, 0, 0, Status.OK, protectionTag, protectionKey);
  }

  /**
   * An AMO request.
   *
   * @param sourceNode initiating node
   * @param target the word operated on
   * @param tag the initiator's request tag
   * @param mode routing mode
   * @param op the operation
   * @param operand1 first operand (the compare value for CSWAP, the AND mask for AX)
   * @param operand2 second operand (the swap value for CSWAP, the XOR mask for AX), else ignored
   * @param protectionTag initiator's PTAG
   * @param protectionKey initiator's PKEY
   * @return the packet
   */
  public static Packet amo(
      int sourceNode, NetworkAddress target, int tag, DeliveryMode mode, AmoOperation op, long operand1,
      long operand2, int protectionTag, int protectionKey) {
    checkArgument(target != null, "target must not be null");
    checkArgument(op != null, "op must not be null");
    return new Packet(PacketKind.AMO_REQUEST, sourceNode, target.nodeId(), target.mdh(), target.offset(), tag, mode,
        op.operandBytes(), null, op, operand1, operand2, Status.OK, protectionTag, protectionKey);
  }

  /**
   * A collective-engine packet (the Aries NIC's CE [S5]): a contribution going up a reduction tree or a result going
   * down it. Its fields are read as: {@link #mdh()} the CE channel it is for at the destination node, {@link
   * #offset()} the reduction id, {@link #tag()} the header the NIC's collective engine defines (child index, command,
   * floating-point flags), {@link #operand1()} and {@link #operand2()} the operands, {@link #status()} OK or the fault
   * the reduction ended with. It carries {@link #COLLECTIVE_OPERAND_BYTES} bytes after a request-sized header. CE
   * packets are rare (a few per collective operation) and are never made by a {@link PacketPool}.
   *
   * @param kind {@link PacketKind#CE_CONTRIBUTION} or {@link PacketKind#CE_RESULT}
   * @param sourceNode the sending node
   * @param destinationNode the receiving node
   * @param channel the CE channel at the receiving node, 0 to {@link NetworkAddress#MAX_MDH}
   * @param reductionId the reduction id, 0 to {@link #MAX_REDUCTION_ID}
   * @param header the collective engine's header word
   * @param mode routing mode
   * @param operand1 first operand
   * @param operand2 second operand
   * @param status OK, or the fault the reduction ended with
   * @return the packet
   */
  public static Packet collective(PacketKind kind, int sourceNode, int destinationNode, int channel, long reductionId,
      int header, DeliveryMode mode, long operand1, long operand2, Status status) {
    checkArgument(kind != null && kind.isCollective(), "kind must be CE_CONTRIBUTION or CE_RESULT but was %s", kind);
    checkArgument(status != null, "status must not be null");
    checkArgument(reductionId >= 0 && reductionId <= MAX_REDUCTION_ID, "reductionId must be in [0, %s] but was %s",
        MAX_REDUCTION_ID, reductionId);
    return new Packet(kind, sourceNode, destinationNode, channel, reductionId, header, mode, 0, null, null, operand1,
        operand2, status, 0, 0);
  }

  /**
   * The ACK answering a PUT or non-fetching AMO request.
   *
   * @param request the request answered
   * @return the response, travelling back to the request's source
   */
  public static Packet ack(Packet request) {
    return response(request, PacketKind.ACK_RESPONSE, 0, null, 0, Status.OK);
  }

  /**
   * The data response answering a GET request.
   *
   * @param request the GET answered
   * @param data the bytes read: exactly as many as the GET asked for ({@code request.dataLength()})
   * @return the response
   * @throws IllegalArgumentException when {@code request} is not a GET request, or {@code data} holds another number
   *     of bytes than it asked for
   */
  public static Packet data(Packet request, byte[] data) {
    checkArgument(data != null, "data must not be null");
    checkDataAnswer(request, data.length, "data's length");
    return response(request, PacketKind.DATA_RESPONSE, data.length, data, 0, Status.OK);
  }

  /**
   * Refuses a data response that does not answer its request: one to a request that is not a GET (a PUT or an AMO
   * asks for no data), or with another number of bytes than the GET asked for. The initiator's NIC lands as many
   * bytes as the response holds, at the packet's place in the GET's local buffer, and counts responses, not bytes: a
   * longer one wrote past its share of the buffer (into the next packet's, or whatever followed the buffer in the
   * registration), a shorter one left the rest of its share as it was, and either way the GET was reported complete
   * (before stop 69 both were accepted). The library's NIC always answers with the
   * GET's own length; this guards the public factories (a fabric test's endpoint, a NIC of the user's own).
   *
   * @param request the request answered
   * @param length the response's payload bytes
   * @param what how the message names the length
   */
  static void checkDataAnswer(Packet request, int length, String what) {
    checkArgument(request != null, "request must not be null");
    checkArgument(request.kind != null, "request was released to its pool already");
    checkArgument(request.kind == PacketKind.GET_REQUEST, "request must be a GET request but was a %s", request.kind);
    checkArgument(length == request.dataLength, "%s must be the GET's length, in [%s, %s] bytes, but was %s", what,
        request.dataLength, request.dataLength, length);
  }

  /**
   * The response answering an AMO request.
   *
   * @param request the AMO answered
   * @param oldValue the value before the operation (returned when fetching)
   * @return an AMO response for a fetching operation, an ACK otherwise
   */
  public static Packet amoResult(Packet request, long oldValue) {
    checkAmoRequest(request);
    if (!request.amo.fetching()) {
      return ack(request);
    }
    return response(request, PacketKind.AMO_RESPONSE, request.amo.operandBytes(), null, oldValue, Status.OK);
  }

  /**
   * The error response for a request that faulted at the target.
   *
   * @param request the request answered
   * @param status the fault (not OK)
   * @return the response
   */
  public static Packet error(Packet request, Status status) {
    checkArgument(status != null && status.isError(), "status must be an error but was %s", status);
    return response(request, PacketKind.ERROR_RESPONSE, 0, null, 0, status);
  }

  /** Refuses a null request, or one that is not an AMO request (it has no operation to answer for). */
  static void checkAmoRequest(Packet request) {
    checkArgument(request != null, "request must not be null");
    checkArgument(request.kind == PacketKind.AMO_REQUEST, "request must be an AMO request but was a %s", request.kind);
  }

  private static Packet response(Packet req, PacketKind kind, int len, byte[] data, long value, Status status) {
    return new Packet().answer(req, kind, len, data, value, status);
  }

  /**
   * Marks a packet given back to its pool: its kind is cleared, so that a holder who reads it after the release fails
   * at once instead of reading another packet's fields later, and its payload is overwritten with {@code 0xA5}.
   */
  void poison() {
    released = true;
    kind = null;
    if (data != null) {
      java.util.Arrays.fill(data, (byte) 0xA5);
    }
  }

  /** Makes this packet the response of kind {@code kind} to {@code req}. @return this */
  Packet answer(Packet req, PacketKind kind, int len, byte[] data, long value, Status status) {
    checkArgument(req != null, "request must not be null");
    checkArgument(req.kind != null, "request was released to its pool already");
    checkArgument(req.kind.isRequest(), "only a request can be answered but the packet was a %s", req.kind);
    return init(kind, req.destinationNode, req.sourceNode, req.mdh, req.offset, req.tag, req.deliveryMode, len,
        data, req.amo, value, 0, status, req.protectionTag, req.protectionKey);
  }

  /** @return what the packet is */
  public PacketKind kind() {
    return kind;
  }

  /** @return whether it is a request */
  public boolean isRequest() {
    return kind.isRequest();
  }

  /** @return the node that sent the packet */
  public int sourceNode() {
    return sourceNode;
  }

  /** @return the node the packet goes to */
  public int destinationNode() {
    return destinationNode;
  }

  /** @return the MDH of the target memory (a response echoes its request's) */
  public int mdh() {
    return mdh;
  }

  /** @return the offset into the target memory (a response echoes its request's) */
  public long offset() {
    return offset;
  }

  /** @return the target address of a request (a response echoes its request's, at the request's node) */
  public NetworkAddress targetAddress() {
    return new NetworkAddress(kind.isRequest() ? destinationNode : sourceNode, mdh, offset);
  }

  /** @return the initiator's request tag, echoed by the response */
  public int tag() {
    return tag;
  }

  /** @return the routing mode */
  public DeliveryMode deliveryMode() {
    return deliveryMode;
  }

  /** @return bytes of data carried (PUT, data response) or asked for (GET); operand bytes for AMOs */
  public int dataLength() {
    return dataLength;
  }

  /** @return the data bytes, or null when the packet carries none (GET, ACK, synthetic traffic) */
  public byte[] data() {
    return data;
  }

  /** @return the AMO operation of an AMO request or response, else null */
  public AmoOperation amo() {
    return amo;
  }

  /** @return the first AMO operand (request), or the fetched old value (AMO response) */
  public long operand1() {
    return operand1;
  }

  /** @return the second AMO operand */
  public long operand2() {
    return operand2;
  }

  /** @return OK, or the fault an error response reports */
  public Status status() {
    return status;
  }

  /** @return the initiator's protection tag */
  public int protectionTag() {
    return protectionTag;
  }

  /** @return the initiator's protection key */
  public int protectionKey() {
    return protectionKey;
  }

  /** @return bytes on the wire (see {@link WireFormat}) */
  public int wireBytes() {
    return wireBytes;
  }

  /** @return transit record: router-to-router hops taken so far (final once the packet is delivered) */
  public int hops() {
    return hops;
  }

  /**
   * Sets the hop count; only the fabric carrying the packet calls this.
   *
   * @param hops transit record: hops taken, ≥ 0
   */
  public void hops(int hops) {
    this.hops = hops;
  }

  /** @return transit record: when the packet entered the fabric, picoseconds */
  public long injectedAtPs() {
    return injectedAtPs;
  }

  /**
   * Sets the injection time; only the fabric carrying the packet calls this.
   *
   * @param ps transit record: injection time, picoseconds
   */
  public void injectedAtPs(long ps) {
    this.injectedAtPs = ps;
  }

  /**
   * @return transit record: whether a fabric has accepted the packet and not yet delivered it (the library's fabrics
   *     refuse to inject such a packet again: it would travel, and be delivered, twice)
   */
  public boolean inFabric() {
    return inFabric;
  }

  /**
   * Marks the packet as accepted by a fabric; only the fabric carrying the packet calls this, when it accepts it.
   *
   * @throws IllegalArgumentException when the packet is in a fabric already (injected at {@link #injectedAtPs()}
   *     and not yet delivered)
   */
  public void enterFabric() {
    checkNotInFabric();
    inFabric = true;
  }

  /**
   * Checks that the packet may be injected: a fabric calls this before it changes anything for the packet.
   *
   * @throws IllegalArgumentException when the packet is in a fabric already, naming it and its injection time
   */
  public void checkNotInFabric() {
    if (inFabric) {
      throw new IllegalArgumentException("packet " + this + " is in the fabric already (injected at " + injectedAtPs
          + " ps, not yet delivered): a packet may be injected again only after its delivery");
    }
  }

  /** Marks the packet as out of the fabric; only the fabric carrying it calls this, just before it delivers it. */
  public void leaveFabric() {
    inFabric = false;
  }

  /** @return when its maker made it, before any wait at the source, picoseconds (0 unless the maker set it) */
  public long createdAtPs() {
    return createdAtPs;
  }

  /**
   * Records when the packet was made, for a maker that measures from then (a traffic generator, whose packets may
   * wait in a source queue before they enter the fabric); fabrics neither read nor write it.
   *
   * @param ps creation time, picoseconds
   */
  public void createdAtPs(long ps) {
    this.createdAtPs = ps;
  }

  @Override
  public String toString() {
    return kind + "{" + sourceNode + "->" + destinationNode + ", mdh=" + mdh + ", offset=0x"
        + Long.toHexString(offset) + ", tag=" + tag + ", len=" + dataLength
        + (amo != null ? ", amo=" + amo : "") + (status.isError() ? ", status=" + status : "")
        + ", wire=" + wireBytes + "B}";
  }
}
