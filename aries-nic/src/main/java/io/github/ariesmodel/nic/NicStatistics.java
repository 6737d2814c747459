package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.packet.Packet;

/**
 * Counters of one NIC, live (read them at any time; they only grow). Counting allocates nothing.
 */
public final class NicStatistics implements Cloneable {

  long posts;
  long packetsSent;
  long packetsReceived;
  long requestsSent;
  long responsesSent;
  long payloadBytesSent;
  long payloadBytesReceived;
  long wireBytesSent;
  long wireBytesReceived;
  long transactionsCompleted;
  long transactionsFailed;
  long requestsServed;
  long requestFaults;
  long amosExecuted;
  long amoCacheHits;
  long amoCacheMisses;
  long amoCacheWriteBacks;
  long amoCacheEvictions;
  long injectionsRefused;
  long postsDelayedForTags;
  long eventsWritten;
  long remoteEventsDropped;
  long hostBytesToNic;
  long collectivePosts;
  long collectivePacketsSent;
  long collectiveReductions;
  long collectiveFaults;
  long collectivePacketsDropped;
  long hostBytesToNode;
  int maxOutstanding;

  NicStatistics() {}

  /**
   * A copy of the counters as they are now, which later work does not change ({@link Nic#statistics()} gives the
   * live ones): take one before and one after a phase to measure the phase.
   *
   * @return the copy
   */
  public NicStatistics snapshot() {
    try {
      return (NicStatistics) super.clone(); // every field is a number
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
  }

  /** Counts a packet the fabric accepted from this NIC, by the sizes read before it was offered. */
  void sent(int wireBytes, int payloadBytes) {
    packetsSent++;
    wireBytesSent += wireBytes;
    payloadBytesSent += payloadBytes;
  }

  /** Counts a packet the fabric delivered to this NIC. */
  void received(Packet p) {
    packetsReceived++;
    wireBytesReceived += p.wireBytes();
    payloadBytesReceived += carried(p);
  }

  /** @return the payload bytes a packet carries (data, or an AMO's operands or result) */
  static int carried(Packet p) {
    return switch (p.kind()) {
      case PUT_REQUEST, DATA_RESPONSE -> p.dataLength();
      case AMO_REQUEST -> p.amo().requestOperandBytes();
      case AMO_RESPONSE -> p.amo().responseBytes();
      case CE_CONTRIBUTION, CE_RESULT -> Packet.COLLECTIVE_OPERAND_BYTES;
      default -> 0;
    };
  }

  /** @return contributions accepted by {@link Nic#postCollective} */
  public long collectivePosts() {
    return collectivePosts;
  }

  /** @return collective-engine packets (contributions up, results down) this NIC sent */
  public long collectivePacketsSent() {
    return collectivePacketsSent;
  }

  /** @return reductions completed at a root channel of this NIC */
  public long collectiveReductions() {
    return collectiveReductions;
  }

  /** @return collective results or events written with a fault (disagreeing contributions, a duplicate post, a
   *     result buffer that failed translation) */
  public long collectiveFaults() {
    return collectiveFaults;
  }

  /**
   * @return collective-engine packets dropped: for a channel that is not configured, from a node that is not the
   *     child or parent it names, or a child's second contribution to one reduction
   */
  public long collectivePacketsDropped() {
    return collectivePacketsDropped;
  }

  /** @return posts accepted by {@link Nic#post} */
  public long posts() {
    return posts;
  }

  /** @return packets (requests and responses) accepted by the fabric */
  public long packetsSent() {
    return packetsSent;
  }

  /** @return packets (requests and responses) delivered to this NIC */
  public long packetsReceived() {
    return packetsReceived;
  }

  /** @return request packets sent */
  public long requestsSent() {
    return requestsSent;
  }

  /** @return response packets sent */
  public long responsesSent() {
    return responsesSent;
  }

  /** @return data bytes carried by sent packets (PUT payloads, GET data, AMO operands and results) */
  public long payloadBytesSent() {
    return payloadBytesSent;
  }

  /** @return data bytes carried by received packets */
  public long payloadBytesReceived() {
    return payloadBytesReceived;
  }

  /** @return bytes on the wire of sent packets (headers included, see core WireFormat) */
  public long wireBytesSent() {
    return wireBytesSent;
  }

  /** @return bytes on the wire of received packets */
  public long wireBytesReceived() {
    return wireBytesReceived;
  }

  /** @return transactions this NIC initiated that completed (successfully or not) */
  public long transactionsCompleted() {
    return transactionsCompleted;
  }

  /** @return transactions this NIC initiated that completed with an error */
  public long transactionsFailed() {
    return transactionsFailed;
  }

  /** @return requests from other nodes served by this NIC (answered OK or with an error) */
  public long requestsServed() {
    return requestsServed;
  }

  /** @return served requests answered with an error response */
  public long requestFaults() {
    return requestFaults;
  }

  /** @return AMOs executed by this NIC's AMO unit */
  public long amosExecuted() {
    return amosExecuted;
  }

  /**
   * Cached AMO commands ({@code _C}, {@code _SC}) that found their word in the AMO cache. Every cached command the
   * unit executes with a cache is a hit or a miss: {@code amoCacheHits + amoCacheMisses} is the number of cached
   * commands executed (0 when the NIC has no AMO cache: its cached commands run as memory AMOs).
   *
   * @return hits
   */
  public long amoCacheHits() {
    return amoCacheHits;
  }

  /**
   * Cached AMO commands that did not find their word in the AMO cache: they filled an entry from host memory, or ran
   * as a memory AMO when every entry had AMOs in flight.
   *
   * @return misses
   */
  public long amoCacheMisses() {
    return amoCacheMisses;
  }

  /**
   * Dirty AMO-cache entries written back to host memory: when they went idle (the default write-back), were evicted,
   * were snooped by another access of this NIC to their word, or were invalidated.
   *
   * @return write-backs
   */
  public long amoCacheWriteBacks() {
    return amoCacheWriteBacks;
  }

  /**
   * AMO-cache entries replaced to make room for another word (each written back first when dirty).
   *
   * @return evictions
   */
  public long amoCacheEvictions() {
    return amoCacheEvictions;
  }

  /** @return injections the fabric refused (each retried later) */
  public long injectionsRefused() {
    return injectionsRefused;
  }

  /** @return times a post had to wait because every request tag was in use */
  public long postsDelayedForTags() {
    return postsDelayedForTags;
  }

  /** @return completion events produced (LOCAL, GLOBAL, REMOTE), whether or not a CQ held them */
  public long eventsWritten() {
    return eventsWritten;
  }

  /**
   * @return REMOTE events dropped because the registration named a CQ this NIC does not have, or was deregistered
   *     while its request was in service
   */
  public long remoteEventsDropped() {
    return remoteEventsDropped;
  }

  /**
   * Bytes the host sent to this NIC over the host link: posts (descriptors, FMA data) and the data of the NIC's
   * reads of host memory (BTE source data, GET and AMO data served).
   *
   * @return bytes, node to NIC
   */
  public long hostBytesToNic() {
    return hostBytesToNic;
  }

  /**
   * Bytes this NIC wrote into host memory over the host link: data landed (PUTs served, GET and fetched AMO results),
   * memory AMOs' results and AMO-cache write-backs (since stop 68), collective results, and 8 bytes per completion
   * event.
   *
   * @return bytes, NIC to node
   */
  public long hostBytesToNode() {
    return hostBytesToNode;
  }

  /** @return the largest number of transactions outstanding at once */
  public int maxOutstanding() {
    return maxOutstanding;
  }

  /**
   * A compact one-line summary: posts and transactions, packets and payload/wire bytes each way, requests served,
   * faults, AMOs (and AMO-cache hits, misses, write-backs), refused injections and host-link bytes.
   */
  @Override
  public String toString() {
    return "NicStatistics{posts=" + posts + ", tx=" + transactionsCompleted + "/" + transactionsFailed + " failed"
        + ", sent=" + packetsSent + " pkts " + payloadBytesSent + "/" + wireBytesSent + " B"
        + ", received=" + packetsReceived + " pkts " + payloadBytesReceived + "/" + wireBytesReceived + " B"
        + ", served=" + requestsServed + " (" + requestFaults + " faults)" + ", amos=" + amosExecuted
        + " (cache " + amoCacheHits + "/" + amoCacheMisses + " hit/miss, " + amoCacheWriteBacks + " wb)"
        + ", refused=" + injectionsRefused + ", host=" + hostBytesToNic + "/" + hostBytesToNode + " B"
        + ", maxOutstanding=" + maxOutstanding
        + (collectivePosts + collectivePacketsSent + collectivePacketsDropped == 0 ? "" : ", ce=" + collectivePosts
            + " posts " + collectivePacketsSent + " pkts " + collectiveReductions + " roots " + collectiveFaults
            + " faults " + collectivePacketsDropped + " dropped")
        + "}";
  }
}
