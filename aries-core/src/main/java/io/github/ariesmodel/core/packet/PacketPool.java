package io.github.ariesmodel.core.packet;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.Status;
import java.util.Arrays;

/**
 * Packets and their payload arrays for reuse, so that a component that makes and consumes packets at a steady rate (a
 * NIC) allocates nothing per packet once its pool has grown to the packets it has in flight.
 *
 * <p>The factories mirror {@link Packet}'s, with the same checks, but take the target address as its parts and give
 * a data-carrying packet a payload array of the asked length for the caller to fill ({@link Packet#data()}). {@link
 * #release} gives a packet, and its payload, back: the caller must be the packet's last holder, for the packet will
 * be changed into another. A released packet is not released again (that fails), and a packet of the static
 * factories is taken in as well (it then joins the pool). Release clears the packet's kind and overwrites its payload
 * with {@code 0xA5}, so that a holder who reads it afterwards fails or shows wrong bytes at once.
 *
 * <p>Not thread-safe: one pool belongs to one component on one event loop. Packets may move between pools (a request
 * made by one NIC is released into the pool of the NIC that served it). Between pools of different owners the flow
 * need not balance: a pool that only receives PUTs would keep every payload array. Such a pool is made with a limit
 * ({@link #PacketPool(int)}): beyond it, released packets and arrays are left to the garbage collector.
 */
public final class PacketPool {

  /** Unbounded: what one pool shared by every maker and consumer keeps (no more than it had in flight at once). */
  private static final int UNBOUNDED = Integer.MAX_VALUE;

  private final int limit;
  private int arraysKept;

  private Packet[] free = new Packet[16];
  private int freeCount;
  /** Per payload length (0 to 64 bytes), the free arrays of that length. */
  private final byte[][][] arrays = new byte[WireFormat.MAX_PAYLOAD + 1][][];
  private final int[] arrayCount = new int[WireFormat.MAX_PAYLOAD + 1];
  private long made;
  private long reused;
  private long arraysMade;

  /** A pool that keeps every packet and array given back (for one pool that all makers and consumers share). */
  public PacketPool() {
    this.limit = UNBOUNDED;
  }

  /**
   * A pool that keeps at most {@code limit} packets and {@code limit} payload arrays (of all lengths together).
   *
   * @param limit at least 1
   */
  public PacketPool(int limit) {
    checkArgument(limit >= 1, "limit must be at least 1 but was %s", limit);
    this.limit = limit;
  }

  /**
   * A PUT request with a payload of {@code length} bytes to fill.
   *
   * @param sourceNode initiating node
   * @param node target node
   * @param mdh target memory domain handle
   * @param offset target offset
   * @param tag the initiator's request tag
   * @param mode routing mode
   * @param length payload bytes, 0 to 64
   * @param protectionTag initiator's PTAG
   * @param protectionKey initiator's PKEY
   * @return the packet
   */
  public Packet put(int sourceNode, int node, int mdh, long offset, int tag, DeliveryMode mode, int length,
      int protectionTag, int protectionKey) {
    checkArgument(length >= 0 && length <= WireFormat.MAX_PAYLOAD, "length must be in [0, 64] but was %s", length);
    return request(PacketKind.PUT_REQUEST, sourceNode, node, mdh, offset, tag, mode, length, array(length), null, 0,
        0, protectionTag, protectionKey);
  }

  /**
   * A GET request (see {@link Packet#get}).
   *
   * @param sourceNode initiating node
   * @param node target node
   * @param mdh target memory domain handle
   * @param offset target offset
   * @param tag the initiator's request tag
   * @param mode routing mode
   * @param length bytes asked for, 1 to 64
   * @param protectionTag initiator's PTAG
   * @param protectionKey initiator's PKEY
   * @return the packet
   */
  public Packet get(int sourceNode, int node, int mdh, long offset, int tag, DeliveryMode mode, int length,
      int protectionTag, int protectionKey) {
    checkArgument(length >= 1 && length <= WireFormat.MAX_PAYLOAD, "GET length must be in [1, 64] but was %s", length);
    return request(PacketKind.GET_REQUEST, sourceNode, node, mdh, offset, tag, mode, length, null, null, 0, 0,
        protectionTag, protectionKey);
  }

  /**
   * An AMO request (see {@link Packet#amo}).
   *
   * @param sourceNode initiating node
   * @param node target node
   * @param mdh target memory domain handle
   * @param offset target offset
   * @param tag the initiator's request tag
   * @param mode routing mode
   * @param op the operation
   * @param operand1 first operand
   * @param operand2 second operand (compare-and-swap's new value, masked swap's mask)
   * @param protectionTag initiator's PTAG
   * @param protectionKey initiator's PKEY
   * @return the packet
   */
  public Packet amo(int sourceNode, int node, int mdh, long offset, int tag, DeliveryMode mode, AmoOperation op,
      long operand1, long operand2, int protectionTag, int protectionKey) {
    checkArgument(op != null, "op must not be null");
    return request(PacketKind.AMO_REQUEST, sourceNode, node, mdh, offset, tag, mode, op.operandBytes(), null, op,
        operand1, operand2, protectionTag, protectionKey);
  }

  /** @param request the request acknowledged @return its ACK */
  public Packet ack(Packet request) {
    return answer(request, PacketKind.ACK_RESPONSE, 0, null, 0, Status.OK);
  }

  /**
   * A data response with a payload of {@code length} bytes to fill.
   *
   * @param request the GET answered
   * @param length payload bytes: exactly as many as the GET asked for ({@code request.dataLength()}, 1 to 64)
   * @return the response
   * @throws IllegalArgumentException when {@code request} is not a GET request, or {@code length} is not its length
   *     (as {@link Packet#data})
   */
  public Packet data(Packet request, int length) {
    Packet.checkDataAnswer(request, length, "length");
    return answer(request, PacketKind.DATA_RESPONSE, length, array(length), 0, Status.OK);
  }

  /**
   * The answer to an AMO request (see {@link Packet#amoResult}).
   *
   * @param request the AMO
   * @param oldValue the word's value before the operation
   * @return an AMO response for a fetching AMO, else an ACK
   */
  public Packet amoResult(Packet request, long oldValue) {
    Packet.checkAmoRequest(request);
    if (!request.amo().fetching()) {
      return ack(request);
    }
    return answer(request, PacketKind.AMO_RESPONSE, request.amo().operandBytes(), null, oldValue, Status.OK);
  }

  /**
   * An error response.
   *
   * @param request the request refused
   * @param status an error status
   * @return the response
   */
  public Packet error(Packet request, Status status) {
    checkArgument(status != null && status.isError(), "status must be an error but was %s", status);
    return answer(request, PacketKind.ERROR_RESPONSE, 0, null, 0, status);
  }

  /**
   * A synthetic packet of traffic studies, as {@link Packet#synthetic}: a PUT request without a payload array.
   *
   * @param sourceNode source
   * @param destinationNode destination
   * @param tag the source's tag
   * @param mode routing mode
   * @param dataLength payload bytes it stands for, 0 to 64 (its wire size counts them)
   * @return the packet
   */
  public Packet synthetic(int sourceNode, int destinationNode, int tag, DeliveryMode mode, int dataLength) {
    return request(PacketKind.PUT_REQUEST, sourceNode, destinationNode, 0, 0, tag, mode, dataLength, null, null, 0, 0,
        0, 0);
  }

  /**
   * Gives a packet and its payload back for reuse. The caller must hold the last reference to it.
   *
   * @param p a packet not released already and not in a fabric
   * @throws IllegalArgumentException for null, a packet already released, or a packet a fabric has not delivered yet
   */
  public void release(Packet p) {
    checkArgument(p != null, "packet must not be null");
    checkArgument(!p.released, "packet was released already");
    checkArgument(!p.inFabric(), "packet %s is still in the fabric (not yet delivered): it cannot be reused", p);
    byte[] d = p.data();
    p.poison();
    if (d != null) {
      keep(d);
    }
    keep(p);
  }

  private void keep(Packet p) {
    if (freeCount == limit) {
      return; // the collector takes it
    }
    if (freeCount == free.length) {
      free = Arrays.copyOf(free, freeCount * 2);
    }
    free[freeCount++] = p;
  }

  private void keep(byte[] d) {
    if (arraysKept == limit) {
      return;
    }
    arraysKept++;
    int n = d.length;
    byte[][] list = arrays[n];
    if (list == null) {
      list = arrays[n] = new byte[4][];
    } else if (arrayCount[n] == list.length) {
      list = arrays[n] = Arrays.copyOf(list, list.length * 2);
    }
    list[arrayCount[n]++] = d;
  }

  /** @return packets this pool has made (not reused) so far */
  public long made() {
    return made;
  }

  /** @return payload arrays this pool has made so far */
  public long arraysMade() {
    return arraysMade;
  }

  /** @return packets kept for reuse now */
  public int packetsKept() {
    return freeCount;
  }

  /** @return payload arrays kept for reuse now */
  public int arraysKept() {
    return arraysKept;
  }

  /** @return packets it has handed out again after a release */
  public long reused() {
    return reused;
  }

  private Packet request(PacketKind kind, int sourceNode, int node, int mdh, long offset, int tag, DeliveryMode mode,
      int length, byte[] payload, AmoOperation op, long operand1, long operand2, int protectionTag, int protectionKey) {
    Packet p = take();
    try {
      return p.init(kind, sourceNode, node, mdh, offset, tag, mode, length, payload, op, operand1, operand2, Status.OK,
          protectionTag, protectionKey);
    } catch (RuntimeException e) {
      giveBack(p, payload);
      throw e;
    }
  }

  private Packet answer(Packet request, PacketKind kind, int length, byte[] payload, long value, Status status) {
    Packet p = take();
    try {
      return p.answer(request, kind, length, payload, value, status);
    } catch (RuntimeException e) {
      giveBack(p, payload);
      throw e;
    }
  }

  /** Puts back what a refused factory call took, so that bad input leaves the pool as it was. */
  private void giveBack(Packet p, byte[] payload) {
    if (payload != null) {
      keep(payload);
    }
    if (p.released) {
      keep(p);
    }
  }

  private Packet take() {
    if (freeCount == 0) {
      made++;
      return new Packet();
    }
    reused++;
    Packet p = free[--freeCount];
    free[freeCount] = null;
    return p;
  }

  private byte[] array(int length) {
    int n = arrayCount[length];
    if (n == 0) {
      arraysMade++;
      return new byte[length];
    }
    byte[] a = arrays[length][--n];
    arrays[length][n] = null;
    arrayCount[length] = n;
    arraysKept--;
    return a;
  }
}
