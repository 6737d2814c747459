package io.github.ariesmodel.system.shmem;

import io.github.ariesmodel.core.packet.WireFormat;
import io.github.ariesmodel.nic.Post;

/**
 * How a SHMEM put or get longer than one NIC transaction is posted: as consecutive parts, each at most the BTE's
 * 32-bit {@code xfer_len} ({@link Post#MAX_LENGTH}, 2^32 - 1 bytes [S6a]).
 *
 * <p>DMAPP takes a 64-bit element count: {@code dmapp_put_nbi(..., uint64_t nelems, dmapp_type_t)}, the prototype
 * the TAU performance system's DMAPP wrapper declares (found with the search tool; aries-facts §6 lists the call).
 * One BTE descriptor moves at most 2^32 - 1 bytes, so DMAPP, and Cray SHMEM over it, must post a longer transfer as
 * several transactions. How it cuts one was not found in a public source (searched: "DMAPP maximum transfer size",
 * "dmapp_put nelems"); the cut here is <b>assumed</b>, chosen so that it changes no packet:
 *
 * <ul>
 *   <li>A transfer that fits in one transaction is one part, the whole transfer: its post is the one it always was.
 *   <li>Otherwise every cut falls on a 64-byte boundary of the remote address. The NIC cuts a transaction's packets
 *       at those boundaries (a request never crosses one, docs/nic.md "Source pipeline"), so the parts carry exactly
 *       the packets the whole transfer would, and a GET whose remote offset and length are multiples of 4 has parts
 *       that are too (the BTE's condition for a GET [S6a]).
 *   <li>The first part is the longest that ends on such a boundary; the middle ones are 2^32 - 64 bytes (the longest
 *       multiple of 64 that fits); the last takes the rest, at most 2^32 - 1 bytes.
 * </ul>
 *
 * <p>Pure arithmetic on longs, no allocation; a transfer within a 2^40-byte registration has at most 257 parts.
 */
final class TransferSplit {

  /**
   * The packet boundary of the remote address: a request packet carries at most 64 bytes and never crosses a 64-byte
   * line of the remote address (the NIC model's cache-line packets, an assumption: docs/nic.md, "Source pipeline").
   */
  static final long LINE_BYTES = WireFormat.MAX_PAYLOAD;

  /** Longest part, one transaction: the BTE's 32-bit {@code xfer_len} [S6a]. */
  static final long MAX_PART = Post.MAX_LENGTH;

  private TransferSplit() {}

  /**
   * The length of the part that starts {@code done} bytes into a transfer.
   *
   * @param remoteOffset the transfer's first remote byte, ≥ 0
   * @param done bytes of the transfer in earlier parts, 0 to length (a transfer of 0 bytes has one part of 0)
   * @param length the transfer's bytes, ≥ 0
   * @return bytes of that part: the rest when it fits in one transaction, else the longest that ends on a 64-byte
   *     boundary of the remote address
   */
  static long partLength(long remoteOffset, long done, long length) {
    long rest = length - done;
    if (rest <= MAX_PART) {
      return rest;
    }
    long start = remoteOffset + done;
    return ((start + MAX_PART) & -LINE_BYTES) - start;
  }

  /**
   * @param remoteOffset the transfer's first remote byte, ≥ 0
   * @param length the transfer's bytes, ≥ 0
   * @return how many parts, and so NIC transactions, it is posted as (1 when it fits in one, and for 0 bytes)
   */
  static long parts(long remoteOffset, long length) {
    long n = 0;
    long done = 0;
    do {
      done += partLength(remoteOffset, done, length);
      n++;
    } while (done < length);
    return n;
  }
}
