package io.github.ariesmodel.core;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * One completion-queue event: which transaction, what kind of completion, its outcome and when. Errors come back
 * the same way as successes, with the fault in {@link #status()}.
 *
 * @param type LOCAL, GLOBAL or REMOTE
 * @param status OK, or the fault that ended the transaction
 * @param postId the id the host gave the post (echoed as uGNI echoes {@code post_id}); for REMOTE, the request tag
 * @param node the node whose CQ receives the event
 * @param peerNode the other side of the transaction
 * @param userData data the post asked to deliver (e.g. a CQ write's 6 bytes, or a fetched AMO value: the old 64-bit
 *     word, or a 32-bit AMO's old 32-bit word zero-extended, so an old -1 is {@code 0xffffffffL})
 * @param timePs when the event was written, picoseconds
 */
public record CompletionEvent(
    CompletionType type, Status status, long postId, int node, int peerNode, long userData, long timePs) {

  /** Validates the fields. */
  public CompletionEvent {
    checkArgument(type != null, "type must not be null");
    checkArgument(status != null, "status must not be null");
    NetworkAddresses.checkNodeId(node);
    NetworkAddresses.checkNodeId(peerNode);
    checkArgument(timePs >= 0, "timePs must be >= 0 but was %s", timePs);
  }

  /** @return whether the transaction faulted */
  public boolean isError() {
    return status.isError();
  }
}
