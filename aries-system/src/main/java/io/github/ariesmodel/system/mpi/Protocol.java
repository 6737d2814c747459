package io.github.ariesmodel.system.mpi;

/**
 * How a point-to-point message travels, chosen by its length and by whether its two ranks share a node (see {@link
 * MpiConfig}).
 */
public enum Protocol {
  /** Data inside the SMSG mailbox message itself (one FMA PUT into the receiver's mailbox). */
  SHORT,
  /** Header in the mailbox; the receiver GETs the data at once from the sender's internal buffer. */
  EAGER,
  /** Request-to-send in the mailbox; the receiver GETs from the sender's buffer once matched, then FIN. */
  RENDEZVOUS,
  /** Sender and receiver are the same rank: a local copy; the send completes when a receive matches it. */
  SELF,
  /**
   * Two ranks of one node, shorter than {@link MpiConfig#singleCopyBytes()}: the sender copies the message into
   * shared memory and the receiver copies it out (Cray MPICH's buffered on-node path); no NIC traffic.
   */
  SHARED_MEMORY,
  /**
   * Two ranks of one node, at least {@link MpiConfig#singleCopyBytes()}: a request-to-send through shared memory,
   * then the receiver copies straight from the sender's buffer once matched (XPMEM) and tells the sender; no NIC
   * traffic.
   */
  SINGLE_COPY
}
