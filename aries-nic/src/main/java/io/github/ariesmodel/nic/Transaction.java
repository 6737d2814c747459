package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.Status;

/**
 * One outstanding transaction: the state behind one request tag, reused for every transaction that takes the tag
 * (the model's stand-in for a source sync id tracking an FMA sequence or a BTE descriptor [S7], see
 * {@link TransactionTable}). It counts its requests through three points: issued (left the issue pipeline), injected
 * (accepted by the fabric, or ended at the source by a local fault) and processed (its response handled).
 */
final class Transaction {
  final int tag;
  boolean active;
  Post post;
  Post.PostType type;
  DeliveryMode mode;
  /** BTE channel running it, or -1 for FMA. */
  int channel;
  int packets;
  int issued;
  int injected;
  int processed;
  Status error;
  /** The first fault at the source (reading the data to send), which the LOCAL event reports; null when none. */
  Status localError;
  long fetched;
  boolean localSent;
  int remoteNode;
  int remoteMdh;
  long remoteOffset;
  long length;
  int localMdh;
  long localOffset;
  int modes;
  int cq;
  /**
   * FMA PUT and GET: when request 0 may issue; request i may issue {@code i × pacePs} later (the CPU stores the
   * requests through the FMA window one after another). 0 for the BTE and single-packet posts.
   */
  long paceBasePs;
  /** FMA: CPU time between two requests' stores, picoseconds; 0 when not paced. */
  long pacePs;

  Transaction(int tag) {
    this.tag = tag;
  }

  void begin(Post p, int ch) {
    active = true;
    post = p;
    type = p.type();
    mode = p.deliveryMode();
    channel = ch;
    remoteNode = p.remote().nodeId();
    remoteMdh = p.remote().mdh();
    remoteOffset = p.remote().offset();
    length = p.length();
    localMdh = p.localMdh();
    localOffset = p.localOffset();
    modes = p.completionModes();
    cq = p.completionQueue();
    packets = type == Post.PostType.PUT || type == Post.PostType.GET ? packetCount(remoteOffset, length) : 1;
    issued = 0;
    injected = 0;
    processed = 0;
    error = null;
    localError = null;
    fetched = 0;
    localSent = false;
    paceBasePs = 0;
    pacePs = 0;
  }

  /** @return the earliest time the next request may issue (its stores are done), picoseconds */
  long nextReadyPs() {
    return paceBasePs + pacePs * issued;
  }

  /** Keeps the first fault: it is the one the completion event reports. */
  void fail(Status s) {
    if (error == null) {
      error = s;
    }
  }

  /** @return OK, or the first fault */
  Status status() {
    return error == null ? Status.OK : error;
  }

  /** A fault at the source: the transaction's, and the LOCAL event's. */
  void failLocal(Status s) {
    fail(s);
    if (localError == null) {
      localError = s;
    }
  }

  /**
   * @return OK, or the first fault at the source: what the LOCAL event (the data has left) reports. A target's error
   *     response is the GLOBAL event's; it reached the LOCAL event too when it came back before the last request
   *     left, so the LOCAL status depended on timing (stop 64's fault hunt)
   */
  Status localStatus() {
    return localError == null ? Status.OK : localError;
  }

  void end() {
    active = false;
    post = null;
  }

  /** @param i packet index @return remote offset of packet i's first byte */
  long packetStart(int i) {
    return i == 0 ? remoteOffset : (remoteOffset & ~63L) + 64L * i;
  }

  /** @param i packet index @param start {@link #packetStart(int)} @return bytes in packet i */
  int packetLength(int i, long start) {
    long end = Math.min(remoteOffset + length, (remoteOffset & ~63L) + 64L * (i + 1));
    return (int) (end - start);
  }

  /**
   * Packets of a transfer that never crosses a 64-byte boundary of the remote address (cache-line packets, the
   * model's assumption): the 64-byte lines touched, and one packet for a zero-length transfer.
   *
   * @param offset remote offset
   * @param length bytes
   * @return packets
   */
  static int packetCount(long offset, long length) {
    return length == 0 ? 1 : (int) (((offset + length - 1) >>> 6) - (offset >>> 6) + 1);
  }
}
