package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.CompletionEvent;

/**
 * A bounded completion queue of a NIC, after uGNI's CQ ({@code GNI_CqCreate}, {@code GNI_CqGetEvent} [S5]) and the
 * Aries CQ block [S6e]: events are appended at their simulated time and polled by the host; when the queue is full
 * the event is dropped and the queue is flagged as overrun, as the hardware does [S6e].
 *
 * <p>Fidelity: the entries are kept here rather than written into host memory through translation; the time of the
 * host write is modelled by the NIC (one host-interface write after the completion).
 */
public final class CompletionQueue {

  private final int handle;
  private final CompletionEvent[] ring;
  private int head;
  private int size;
  private boolean overrun;
  private long dropped;
  private long written;

  CompletionQueue(int handle, int entries) {
    this.handle = handle;
    this.ring = new CompletionEvent[entries];
  }

  /** @return the CQ handle (0..2047) that posts and registrations name */
  public int handle() {
    return handle;
  }

  /** @return how many events the queue holds at most */
  public int capacity() {
    return ring.length;
  }

  /** @return events waiting to be polled */
  public int size() {
    return size;
  }

  /**
   * Takes the oldest event, like {@code GNI_CqGetEvent}.
   *
   * @return the event, or null when none is waiting ({@code GNI_RC_NOT_DONE})
   */
  public CompletionEvent getEvent() {
    if (size == 0) {
      return null;
    }
    CompletionEvent e = ring[head];
    ring[head] = null;
    head = (head + 1) % ring.length;
    size--;
    return e;
  }

  /** @return whether an event was ever dropped because the queue was full */
  public boolean overrun() {
    return overrun;
  }

  /** @return events dropped because the queue was full */
  public long droppedEvents() {
    return dropped;
  }

  /** @return events appended so far */
  public long writtenEvents() {
    return written;
  }

  /** Clears the overrun flag (the host has recovered); the dropped count stays. */
  public void clearOverrun() {
    overrun = false;
  }

  boolean offer(CompletionEvent e) {
    if (size == ring.length) {
      overrun = true;
      dropped++;
      return false;
    }
    ring[(head + size) % ring.length] = e;
    size++;
    written++;
    return true;
  }

  @Override
  public String toString() {
    return "CompletionQueue{handle=" + handle + ", size=" + size + "/" + ring.length
        + (overrun ? ", overrun" : "") + "}";
  }
}
