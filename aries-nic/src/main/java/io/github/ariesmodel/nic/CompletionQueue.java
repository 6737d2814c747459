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

  /**
   * Slots the queue keeps room for at first. The array grows by doubling, up to the capacity, when more events are
   * outstanding at once: a rank's 16,384-entry queue rarely holds more than a few, and 4,096 ranks' full arrays were
   * 268 MB of the heap (docs/performance.md, stop 30).
   */
  private static final int MIN_HELD = 16;

  /** Marks a slot whose write failed. */
  private static final CompletionEvent LOST =
      new CompletionEvent(io.github.ariesmodel.core.CompletionType.LOCAL, io.github.ariesmodel.core.Status.OK, 0, 0,
          0, 0, 0);

  private final int handle;
  private final MemoryDomainDescriptor ring;
  /** Events of the ring's slots: slot s lives at index s % events.length (see {@link #reserve()}). */
  private CompletionEvent[] events;
  private final int capacity;
  /** The logical slot (0 to capacity - 1) of the oldest reserved event. */
  private int head;
  private int reserved;
  private int size;
  private boolean overrun;
  private long dropped;
  private long lost;
  private long written;
  /**
   * Posts of this NIC that name the queue and have not completed (kept by the {@link CompletionWriter}): each may
   * still write an event here, so the queue cannot be destroyed while any is left.
   */
  int unfinishedPosts;
  /** Events booked for the queue whose entry is not yet written, abandoned or dropped. */
  int writesInFlight;
  /**
   * Whether a post has named the queue for its events (its source CQ): from then on it takes local events only, and
   * a registration naming it is refused ({@code GNI_CqCreate}: a CQ takes local or remote events, "but not both"
   * [S5]).
   */
  boolean takesLocalEvents;
  /** Whether a registration has named the queue for remote events: from then on a post naming it is refused. */
  boolean takesRemoteEvents;

  CompletionQueue(int handle, int entries, MemoryDomainDescriptor ring) {
    this.handle = handle;
    this.ring = ring;
    this.capacity = entries;
    int held = entries;
    while (held % 2 == 0 && held / 2 >= MIN_HELD) {
      held /= 2;
    }
    this.events = new CompletionEvent[held];
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
    return capacity;
  }

  /**
   * Whether the NIC may still write into this queue: a post that names it has not completed, or an event booked for
   * it is not yet in the ring. {@link Nic#destroyCompletionQueue} refuses the queue while so (and also while a valid
   * registration names it for remote events, which this does not look at).
   *
   * @return true while such a write is pending
   */
  public boolean writesPending() {
    return unfinishedPosts > 0 || writesInFlight > 0;
  }

  /** @return events written and waiting to be polled */
  public int size() {
    return size;
  }

  /**
   * The byte offset, in the ring's registration, of the slot the n-th event written goes to.
   *
   * @param n events written before it (0 for the first), ≥ 0
   * @return the offset
   * @throws IllegalArgumentException for a negative count (it gave a negative offset)
   */
  public long entryOffset(long n) {
    if (n < 0) {
      throw new IllegalArgumentException("n must be >= 0 but was " + n);
    }
    return (n % capacity) * ENTRY_BYTES;
  }

  /**
   * The 8-byte entry the NIC writes for an event (layout in the class comment).
   *
   * @param e the event
   * @return the entry
   */
  public static long encode(CompletionEvent e) {
    if (e == null) {
      throw new IllegalArgumentException("event must not be null");
    }
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
   * Takes the oldest event, like {@code GNI_CqGetEvent}, but for an overrun: where uGNI answers
   * {@code GNI_RC_ERROR_RESOURCE} once the queue has overrun (events may have been lost [S5]), this goes on returning
   * the events the queue holds and says nothing of the ones dropped. A poller must check {@link #overrun()} (the
   * counterpart of that answer) before trusting that it has seen every event: once set, events are missing
   * ({@link #droppedEvents()}), and the flag stays until {@link #clearOverrun()}.
   *
   * @return the event, or null when none is waiting ({@code GNI_RC_NOT_DONE}), whether or not the queue has overrun
   */
  public CompletionEvent getEvent() {
    while (reserved > 0 && events[head % events.length] == LOST) {
      events[head % events.length] = null;
      head = (head + 1) % capacity;
      reserved--;
    }
    CompletionEvent e = events[head % events.length];
    if (reserved == 0 || e == null) {
      return null;
    }
    events[head % events.length] = null;
    head = (head + 1) % capacity;
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

  /**
   * Events whose ring entry could not be written because translating the ring faulted (its memory was deregistered,
   * say): the NIC's listener and probes still see them, the queue does not. Not counted in {@link #droppedEvents()},
   * which counts overruns only.
   *
   * @return events lost to a faulted ring write
   */
  public long lostEvents() {
    return lost;
  }

  /** @return events written so far */
  public long writtenEvents() {
    return written;
  }

  /** Clears the overrun flag (the host has recovered); the dropped count stays. */
  public void clearOverrun() {
    overrun = false;
  }

  /**
   * @return the slot index (0 to capacity - 1) of the next event, or -1 (dropped, overrun) when the ring is full
   */
  int reserve() {
    if (reserved == capacity) {
      overrun = true;
      dropped++;
      return -1;
    }
    if (reserved == events.length) {
      grow();
    }
    int slot = (head + reserved) % capacity;
    reserved++;
    return slot;
  }

  /**
   * Whether a slot is reserved and neither written nor abandoned yet: the only slots a ring translation may complete
   * (a translation completed twice would otherwise write and count one event twice).
   */
  boolean awaitsWrite(int slot) {
    if (slot < 0 || slot >= capacity) {
      return false;
    }
    int age = Math.floorMod(slot - head, capacity);
    return age < reserved && events[slot % events.length] == null;
  }

  /** The event of a reserved slot is written. */
  void commit(int slot, CompletionEvent e) {
    events[slot % events.length] = e;
    size++;
    written++;
  }

  /** A reserved slot's write failed (a fault translating the ring): the event is lost and the slot skipped. */
  void abandon(int slot) {
    events[slot % events.length] = LOST;
    lost++;
  }

  /**
   * Doubles the array. The reserved slots are consecutive (mod capacity) and at most the array's length, and the
   * length divides the capacity, so each slot's index mod the length is its own before and after.
   */
  private void grow() {
    CompletionEvent[] bigger = new CompletionEvent[events.length * 2];
    for (int i = 0; i < reserved; i++) {
      int slot = (head + i) % capacity;
      bigger[slot % bigger.length] = events[slot % events.length];
    }
    events = bigger;
  }

  /** @return slots the queue's array holds now (grows to {@link #capacity()} as more events are outstanding) */
  int heldSlots() {
    return events.length;
  }

  @Override
  public String toString() {
    return "CompletionQueue{handle=" + handle + ", size=" + size + "/" + capacity
        + (overrun ? ", overrun" : "") + "}";
  }
}
