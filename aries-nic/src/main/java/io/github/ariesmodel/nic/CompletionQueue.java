package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.MemoryDomainDescriptor;

/**
 * A bounded completion queue of a NIC, after uGNI's CQ ({@code GNI_CqCreate}, {@code GNI_CqGetEvent} [S5]) and the
 * Aries CQ block [S6e]: a ring of 8-byte entries (uGNI's 64-bit {@code gni_cq_entry_t} [S5]) in registered host
 * memory, which the NIC writes through its address translation as {@code COMPLETION_WRITE} accesses [S6e: the CQ may
 * live in host memory reached through an MDD/IOMMU]. When the queue is full the event is dropped and the queue is
 * flagged as overrun, as the hardware does [S6e].
 *
 * <p>An event takes its slot when the NIC starts writing it (then overrun is decided), and is visible, to {@link
 * #getEvent()} and in memory, once the translated write is done; {@code getEvent} hands out events in slot order, so
 * an entry whose write is still in translation holds back later ones, as a host polling the ring would see.
 *
 * <p>Entry layout in memory ({@link #encode}), the model's own (uGNI's exact bit positions were not found):
 * <table>
 *   <caption>CQ entry bits</caption>
 *   <tr><th>bits</th><th>field</th></tr>
 *   <tr><td>63</td><td>valid (1)</td></tr>
 *   <tr><td>62..61</td><td>type: 1 LOCAL, 2 GLOBAL, 3 REMOTE</td></tr>
 *   <tr><td>60..57</td><td>status: 0 OK, 1 INVALID_MDH, 2 OUT_OF_BOUNDS, 3 NOT_WRITABLE, 4 PROTECTION_VIOLATION,
 *       5 TRANSLATION_FAULT, 6 MISALIGNED, 7 BAD_LENGTH, 8 ILLEGAL_OPERATION</td></tr>
 *   <tr><td>56..39</td><td>peer node (18 bits)</td></tr>
 *   <tr><td>31..0</td><td>post id, low 32 bits (uGNI's 32-bit instance/message id)</td></tr>
 * </table>
 * The full event (user data, time) is kept beside the ring and returned by {@link #getEvent()}.
 */
public final class CompletionQueue {

  /** Bytes of one entry in host memory. */
  public static final int ENTRY_BYTES = 8;

  /** Marks a slot whose write failed. */
  private static final CompletionEvent LOST =
      new CompletionEvent(io.github.ariesmodel.core.CompletionType.LOCAL, io.github.ariesmodel.core.Status.OK, 0, 0,
          0, 0, 0);

  private final int handle;
  private final MemoryDomainDescriptor ring;
  private final CompletionEvent[] events;
  private int head;
  private int reserved;
  private int size;
  private boolean overrun;
  private long dropped;
  private long written;

  CompletionQueue(int handle, int entries, MemoryDomainDescriptor ring) {
    this.handle = handle;
    this.ring = ring;
    this.events = new CompletionEvent[entries];
  }

  /** @return the CQ handle (0..2047) that posts and registrations name */
  public int handle() {
    return handle;
  }

  /** @return the registration of the ring in host memory: its MDH, page size and length */
  public MemoryDomainDescriptor ring() {
    return ring;
  }

  /** @return how many events the queue holds at most */
  public int capacity() {
    return events.length;
  }

  /** @return events written and waiting to be polled */
  public int size() {
    return size;
  }

  /**
   * The byte offset, in the ring's registration, of the slot the n-th event written goes to.
   *
   * @param n events written before it (0 for the first)
   * @return the offset
   */
  public long entryOffset(long n) {
    return (n % events.length) * ENTRY_BYTES;
  }

  /**
   * The 8-byte entry the NIC writes for an event (layout in the class comment).
   *
   * @param e the event
   * @return the entry
   */
  public static long encode(CompletionEvent e) {
    long type = switch (e.type()) {
      case LOCAL -> 1;
      case GLOBAL -> 2;
      case REMOTE -> 3;
    };
    long status = switch (e.status()) {
      case OK -> 0;
      case INVALID_MDH -> 1;
      case OUT_OF_BOUNDS -> 2;
      case NOT_WRITABLE -> 3;
      case PROTECTION_VIOLATION -> 4;
      case TRANSLATION_FAULT -> 5;
      case MISALIGNED -> 6;
      case BAD_LENGTH -> 7;
      case ILLEGAL_OPERATION -> 8;
    };
    return 1L << 63 | type << 61 | (status & 0xF) << 57 | ((long) e.peerNode() & 0x3FFFF) << 39
        | (e.postId() & 0xFFFF_FFFFL);
  }

  /**
   * Takes the oldest event, like {@code GNI_CqGetEvent}.
   *
   * @return the event, or null when none is waiting ({@code GNI_RC_NOT_DONE})
   */
  public CompletionEvent getEvent() {
    while (reserved > 0 && events[head] == LOST) {
      events[head] = null;
      head = (head + 1) % events.length;
      reserved--;
    }
    CompletionEvent e = events[head];
    if (reserved == 0 || e == null) {
      return null;
    }
    events[head] = null;
    head = (head + 1) % events.length;
    reserved--;
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

  /** @return events written so far */
  public long writtenEvents() {
    return written;
  }

  /** Clears the overrun flag (the host has recovered); the dropped count stays. */
  public void clearOverrun() {
    overrun = false;
  }

  /** @return the slot index of the next event, or -1 (dropped, overrun) when the ring is full */
  int reserve() {
    if (reserved == events.length) {
      overrun = true;
      dropped++;
      return -1;
    }
    int slot = (head + reserved) % events.length;
    reserved++;
    return slot;
  }

  /** The event of a reserved slot is written. */
  void commit(int slot, CompletionEvent e) {
    events[slot] = e;
    size++;
    written++;
  }

  /** A reserved slot's write failed (a fault translating the ring): the event is lost and the slot skipped. */
  void abandon(int slot) {
    events[slot] = LOST;
    dropped++;
  }

  @Override
  public String toString() {
    return "CompletionQueue{handle=" + handle + ", size=" + size + "/" + events.length
        + (overrun ? ", overrun" : "") + "}";
  }
}
