package io.github.ariesmodel.core;

/**
 * Which completion event a transaction produces, after uGNI's CQ modes (aries-facts §3.4, §5): LOCAL when the source
 * data has left (source side), GLOBAL when the remote side has completed (source side), REMOTE at the target's CQ.
 */
public enum CompletionType {
  /** Source side: the data left the initiator (its local buffer may be reused). */
  LOCAL,
  /** Source side: every response arrived; the operation is globally visible. */
  GLOBAL,
  /** Target side: written to the CQ named by the target memory's registration. */
  REMOTE
}
