package io.github.ariesmodel.nic;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;

/**
 * One transaction a host posts to its NIC, after uGNI's {@code gni_post_descriptor_t} (aries-facts §5, S5): what to
 * do, the local buffer (local MDH + offset in this node's registered memory), the remote address, the length, the
 * routing mode, which completion events to produce and on which completion queue, and a fence.
 *
 * <p>Build one with a factory ({@link #put}, {@link #get}, {@link #amo}, {@link #cqWrite}) and refine it with the
 * {@code with*} methods. Field checks that need no NIC state are made here; the NIC checks the rest when it is
 * posted ({@link Nic#post}).
 *
 * @param type what the transaction does
 * @param engine which NIC engine runs it (AUTO: by the NIC's FMA→BTE threshold)
 * @param postId the host's id, echoed in the completion events
 * @param localMdh local memory handle: PUT source, GET destination, fetched AMO result; {@link #NO_LOCAL} for none
 *     (a PUT without one carries its data in {@code operand1}: {@link #putValue})
 * @param localOffset byte offset into the local registration
 * @param remote the remote address (for a CQ write: node, CQ handle as MDH, offset 0)
 * @param length bytes moved, 0 to 2^32 - 1 (the BTE's 32-bit {@code xfer_len} [S6a])
 * @param amo the AMO operation, or null for other types
 * @param operand1 first AMO operand (compare value of CSWAP, AND mask of AX); the value of a CQ write; the data of
 *     a {@link #putValue} PUT
 * @param operand2 second AMO operand (swap value of CSWAP, XOR mask of AX)
 * @param deliveryMode routing mode of the requests
 * @param completionQueue source-side CQ handle of this NIC for LOCAL/GLOBAL events, or {@link #NO_CQ}
 * @param completionModes OR of {@link #LOCAL_EVENT}, {@link #GLOBAL_EVENT}, {@link #REMOTE_EVENT} (uGNI's
 *     {@code GNI_CQMODE_*} values); 0 is SILENT
 * @param fence whether later posts of this NIC wait until this and all earlier posts have completed
 *     ({@code GNI_RDMAMODE_FENCE} [S5])
 */
public record Post(
    PostType type,
    Engine engine,
    long postId,
    int localMdh,
    long localOffset,
    NetworkAddress remote,
    long length,
    AmoOperation amo,
    long operand1,
    long operand2,
    DeliveryMode deliveryMode,
    int completionQueue,
    int completionModes,
    boolean fence) {

  /** No local buffer. */
  public static final int NO_LOCAL = -1;
  /** No source completion queue (events go to the NIC's listener only). */
  public static final int NO_CQ = MemoryDomainDescriptor.NO_CQ;
  /** {@code GNI_CQMODE_LOCAL_EVENT}: an event when the request data has left this NIC. */
  public static final int LOCAL_EVENT = 1;
  /** {@code GNI_CQMODE_GLOBAL_EVENT}: an event when every response has arrived. */
  public static final int GLOBAL_EVENT = 2;
  /** {@code GNI_CQMODE_REMOTE_EVENT}: an event at the target, on the CQ its registration names. */
  public static final int REMOTE_EVENT = 4;
  /** Largest transfer length, the BTE's 32-bit {@code xfer_len} [S6a]. */
  public static final long MAX_LENGTH = 0xFFFF_FFFFL;
  /** Largest value a CQ write carries: 6 bytes [S5]. */
  public static final long MAX_CQ_WRITE_VALUE = (1L << 48) - 1;

  /** What a post does. */
  public enum PostType {
    /** Writes local data to remote memory. */
    PUT,
    /** Reads remote memory into a local buffer. */
    GET,
    /** One atomic memory operation on a remote word. */
    AMO,
    /** Writes an event with a 6-byte value into a remote completion queue ({@code GNI_PostCqWrite}). */
    CQ_WRITE
  }

  /** Which NIC engine runs a post. */
  public enum Engine {
    /** FMA when the length is at most the NIC's FMA→BTE threshold (and always for AMO and CQ write), else BTE. */
    AUTO,
    /** Fast memory access: small transfers, AMOs, CQ writes. */
    FMA,
    /** Block transfer engine: PUT and GET of any length, on one of its channels. */
    BTE
  }

  /** Validates what can be checked without a NIC. */
  public Post {
    checkArgument(type != null, "type must not be null");
    checkArgument(engine != null, "engine must not be null");
    checkArgument(remote != null, "remote must not be null");
    checkArgument(deliveryMode != null, "deliveryMode must not be null");
    checkArgument(localMdh == NO_LOCAL || (localMdh >= 0 && localMdh <= NetworkAddress.MAX_MDH),
        "localMdh must be -1 (none) or in [0, 4095] but was %s", localMdh);
    checkArgument(localOffset >= 0 && localOffset <= NetworkAddress.MAX_OFFSET,
        "localOffset must be in [0, 2^40 - 1] but was %s", localOffset);
    checkArgument(length >= 0 && length <= MAX_LENGTH, "length must be in [0, 4294967295] but was %s", length);
    checkArgument(completionQueue == NO_CQ || (completionQueue >= 0 && completionQueue <= MemoryDomainDescriptor.MAX_CQ),
        "completionQueue must be -1 (none) or in [0, 2047] but was %s", completionQueue);
    checkArgument((completionModes & ~(LOCAL_EVENT | GLOBAL_EVENT | REMOTE_EVENT)) == 0,
        "completionModes must be an OR of LOCAL_EVENT (1), GLOBAL_EVENT (2), REMOTE_EVENT (4) but was %s",
        completionModes);
    checkArgument((type == PostType.AMO) == (amo != null), "amo must be given exactly for AMO posts but was %s for %s",
        amo, type);
    if (type == PostType.AMO || type == PostType.CQ_WRITE) {
      checkArgument(engine != Engine.BTE, "engine must be FMA or AUTO for %s (the BTE does PUT and GET only)", type);
    }
    if (type == PostType.CQ_WRITE) {
      checkArgument(operand1 >= 0 && operand1 <= MAX_CQ_WRITE_VALUE,
          "CQ write value must be in [0, 2^48 - 1] but was %s", operand1);
    }
  }

  /**
   * A PUT of {@code length} bytes from local memory to a remote address: GLOBAL event, no CQ, AUTO engine, adaptive
   * routing.
   *
   * @param postId echoed in events
   * @param localMdh local source registration
   * @param localOffset offset of the first source byte
   * @param remote where the first byte goes
   * @param length bytes, 0 (allowed for FMA [S5]) to 2^32 - 1
   * @return the post
   */
  public static Post put(long postId, int localMdh, long localOffset, NetworkAddress remote, long length) {
    checkArgument(localMdh != NO_LOCAL, "localMdh must name the PUT's source registration but was -1 (a PUT of 4 or 8"
        + " bytes without a source buffer is Post.putValue)");
    return new Post(PostType.PUT, Engine.AUTO, postId, localMdh, localOffset, remote, length, null, 0, 0,
        DeliveryMode.ADAPTIVE_0, NO_CQ, GLOBAL_EVENT, false);
  }

  /**
   * A PUT whose data is in the post itself: the low {@code bytes} bytes of {@code value}, little-endian, with no local
   * buffer. The FMA_LAUNCH doorbell, one 16-byte write, can itself produce an 8-byte or 4-byte put [S7], so such a put
   * needs no registered source and no store of data beyond the doorbell: this is Cray SHMEM's {@code shmem_long_p}.
   * The NIC reads and translates no local memory for it, and the CPU pays the post's time alone
   * ({@code NicTiming.fmaPostPs}, as a non-fetching AMO, the doorbell's other single-store form), not an FMA PUT's
   * store of a data line. Always FMA (the BTE reads its data from memory); defaults otherwise as {@link #put}. The
   * NIC refuses it unless {@code remote.offset} is a multiple of {@code bytes} (the model's rule, assumed: the value
   * is one naturally aligned word, one packet).
   *
   * @param postId echoed in events
   * @param remote where the first byte goes, a multiple of {@code bytes}
   * @param value the data (only its low {@code bytes} bytes are sent)
   * @param bytes 4 or 8, the doorbell's put sizes [S7]
   * @return the post
   */
  public static Post putValue(long postId, NetworkAddress remote, long value, int bytes) {
    checkArgument(bytes == 4 || bytes == 8, "bytes must be 4 or 8 (the FMA_LAUNCH doorbell's put sizes) but was %s",
        bytes);
    return new Post(PostType.PUT, Engine.FMA, postId, NO_LOCAL, 0, remote, bytes, null, value, 0,
        DeliveryMode.ADAPTIVE_0, NO_CQ, GLOBAL_EVENT, false);
  }

  /** @return whether this is a PUT whose data is in the post ({@link #putValue}) */
  public boolean carriesValue() {
    return type == PostType.PUT && localMdh == NO_LOCAL;
  }

  /**
   * A GET of {@code length} bytes from a remote address into local memory (defaults as {@link #put}).
   *
   * @param postId echoed in events
   * @param localMdh local destination registration
   * @param localOffset offset of the first destination byte
   * @param remote where the first byte is read
   * @param length bytes, 1 to 2^32 - 1 (zero-length GETs are refused when posted [S5])
   * @return the post
   */
  public static Post get(long postId, int localMdh, long localOffset, NetworkAddress remote, long length) {
    return new Post(PostType.GET, Engine.AUTO, postId, localMdh, localOffset, remote, length, null, 0, 0,
        DeliveryMode.ADAPTIVE_0, NO_CQ, GLOBAL_EVENT, false);
  }

  /**
   * An AMO on the remote word (defaults as {@link #put}); a fetched old value comes back in the GLOBAL event's
   * {@code userData}, and also lands in a local buffer when one is given with {@link #withResultBuffer}. For a
   * 32-bit ({@code _S}, {@code _SC}) operation {@code userData} holds the old 32-bit word zero-extended: an old -1
   * reads {@code 0xffffffffL} (cast to {@code int} to sign-extend), and the result buffer gets those 4 bytes only. A
   * non-fetching AMO's {@code userData} is 0.
   *
   * @param postId echoed in events
   * @param op the operation
   * @param remote the word, naturally aligned (8 bytes, 4 for 32-bit operations)
   * @param operand1 first operand (CSWAP: compare value; AX: AND mask)
   * @param operand2 second operand (CSWAP: swap value; AX: XOR mask), else ignored
   * @return the post
   */
  public static Post amo(long postId, AmoOperation op, NetworkAddress remote, long operand1, long operand2) {
    checkArgument(op != null, "op must not be null");
    return new Post(PostType.AMO, Engine.FMA, postId, NO_LOCAL, 0, remote, op.operandBytes(), op, operand1, operand2,
        DeliveryMode.ADAPTIVE_0, NO_CQ, GLOBAL_EVENT, false);
  }

  /**
   * A CQ write: an event with a 6-byte value in a remote node's completion queue ({@code GNI_PostCqWrite} [S5]).
   *
   * @param postId echoed in the source events
   * @param remoteNode the node whose CQ receives the event
   * @param remoteCq the CQ handle at that node, 0..2047
   * @param value 0..2^48 - 1, delivered as the event's {@code userData}
   * @return the post
   */
  public static Post cqWrite(long postId, int remoteNode, int remoteCq, long value) {
    checkArgument(remoteCq >= 0 && remoteCq <= MemoryDomainDescriptor.MAX_CQ,
        "remoteCq must be in [0, 2047] but was %s", remoteCq);
    return new Post(PostType.CQ_WRITE, Engine.FMA, postId, NO_LOCAL, 0, NetworkAddress.of(remoteNode, remoteCq, 0),
        8, null, value, 0, DeliveryMode.ADAPTIVE_0, NO_CQ, GLOBAL_EVENT, false);
  }

  /** @param e the engine @return a copy run by it */
  public Post withEngine(Engine e) {
    return new Post(type, e, postId, localMdh, localOffset, remote, length, amo, operand1, operand2, deliveryMode,
        completionQueue, completionModes, fence);
  }

  /** @param mode the routing mode @return a copy routed so */
  public Post withDeliveryMode(DeliveryMode mode) {
    return new Post(type, engine, postId, localMdh, localOffset, remote, length, amo, operand1, operand2, mode,
        completionQueue, completionModes, fence);
  }

  /**
   * Which events to produce and where.
   *
   * @param cq this NIC's CQ handle for LOCAL/GLOBAL events, or {@link #NO_CQ} (the NIC's listener still sees them)
   * @param modes OR of {@link #LOCAL_EVENT}, {@link #GLOBAL_EVENT}, {@link #REMOTE_EVENT}; 0 for SILENT
   * @return the copy
   */
  public Post withCompletion(int cq, int modes) {
    return new Post(type, engine, postId, localMdh, localOffset, remote, length, amo, operand1, operand2,
        deliveryMode, cq, modes, fence);
  }

  /** @param f whether later posts wait for this and earlier ones @return the copy */
  public Post withFence(boolean f) {
    return new Post(type, engine, postId, localMdh, localOffset, remote, length, amo, operand1, operand2,
        deliveryMode, completionQueue, completionModes, f);
  }

  /**
   * Where a fetched AMO result lands locally.
   *
   * @param mdh local registration
   * @param offset naturally aligned offset
   * @return the copy
   */
  public Post withResultBuffer(int mdh, long offset) {
    checkArgument(type == PostType.AMO, "a result buffer is only for AMO posts but this is a %s", type);
    return new Post(type, engine, postId, mdh, offset, remote, length, amo, operand1, operand2, deliveryMode,
        completionQueue, completionModes, fence);
  }
}
