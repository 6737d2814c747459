package io.github.ariesmodel.system.mpi;

/** How a point-to-point message travels, chosen by its length (see {@link MpiConfig}). */
public enum Protocol {
  /** Data inside the SMSG mailbox message itself (one FMA PUT into the receiver's mailbox). */
  SHORT,
  /** Header in the mailbox; the receiver GETs the data at once from the sender's internal buffer. */
  EAGER,
  /** Request-to-send in the mailbox; the receiver GETs from the sender's buffer once matched, then FIN. */
  RENDEZVOUS,
  /** Sender and receiver are the same rank: a local copy. */
  SELF
}
