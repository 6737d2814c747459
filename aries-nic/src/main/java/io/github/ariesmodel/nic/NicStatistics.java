package io.github.ariesmodel.nic;

/**
 * Counters of one NIC, live (read them at any time; they only grow). Counting allocates nothing.
 */
public final class NicStatistics {

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
  long injectionsRefused;
  long postsDelayedForTags;
  long eventsWritten;
  long remoteEventsDropped;
  int maxOutstanding;

  NicStatistics() {}

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

  /** @return REMOTE events dropped because the registration named a CQ this NIC does not have */
  public long remoteEventsDropped() {
    return remoteEventsDropped;
  }

  /** @return the largest number of transactions outstanding at once */
  public int maxOutstanding() {
    return maxOutstanding;
  }

  @Override
  public String toString() {
    return "NicStatistics{posts=" + posts + ", packetsSent=" + packetsSent + ", packetsReceived=" + packetsReceived
        + ", transactionsCompleted=" + transactionsCompleted + ", transactionsFailed=" + transactionsFailed
        + ", requestsServed=" + requestsServed + ", requestFaults=" + requestFaults + ", amosExecuted="
        + amosExecuted + "}";
  }
}
