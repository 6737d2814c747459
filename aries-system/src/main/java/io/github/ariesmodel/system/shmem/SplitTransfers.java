package io.github.ariesmodel.system.shmem;

import java.util.ArrayList;
import java.util.List;

/**
 * One PE's transfers posted as several NIC transactions ({@link TransferSplit}) that still have parts outstanding:
 * the ledger that lets such a transfer complete, and fault, as one operation. Its parts take consecutive post ids.
 * Most PEs never open one, so the completion path pays one {@link #isEmpty()} test.
 */
final class SplitTransfers {

  private final List<Transfer> open = new ArrayList<>(0);

  /**
   * Opens a transfer before its first part is posted.
   *
   * @param firstId the post id of its first part
   * @param parts its parts, at least 2
   * @return the transfer
   */
  Transfer open(long firstId, int parts) {
    if (firstId < 0 || parts < 2) {
      throw new IllegalArgumentException("firstId must be >= 0 and parts >= 2 but were " + firstId + " and " + parts);
    }
    Transfer t = new Transfer(firstId, parts);
    open.add(t);
    return t;
  }

  /** @return whether no transfer has parts outstanding */
  boolean isEmpty() {
    return open.isEmpty();
  }

  /** @param postId a post's id @return the open transfer it is a part of, or null */
  Transfer of(long postId) {
    for (Transfer t : open) {
      if (postId >= t.firstId && postId - t.firstId < t.parts) {
        return t;
      }
    }
    return null;
  }

  /**
   * A part's GLOBAL event (its completion, with or without a fault); the transfer closes with its last part's.
   *
   * @param t an open transfer
   */
  void partCompleted(Transfer t) {
    if (--t.outstanding == 0) {
      open.remove(t);
    }
  }

  /** One transfer: its parts' post ids, the parts still outstanding, and whether one has faulted. */
  static final class Transfer {
    final long firstId;
    final int parts;
    private int outstanding;
    private boolean faulted;

    private Transfer(long firstId, int parts) {
      this.firstId = firstId;
      this.parts = parts;
      this.outstanding = parts;
    }

    /**
     * A part's fault: only the first one of a transfer counts it as a faulted operation, as a single post's fault is
     * counted once.
     *
     * @return whether this is the transfer's first fault
     */
    boolean faulted() {
      boolean first = !faulted;
      faulted = true;
      return first;
    }

    /** @return parts still outstanding */
    int outstanding() {
      return outstanding;
    }
  }
}
