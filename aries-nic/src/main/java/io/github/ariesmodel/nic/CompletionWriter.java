package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The NIC's completion queue block with the remote-event side of the RMT (aries-facts §3.4): it owns the CQs
 * ({@code GNI_CqCreate} and {@code GNI_CqDestroy} [S5], 11-bit handles [S6e], the lowest free taken first) and
 * writes every completion event into host memory as one 8-byte posted write over the {@link HostLink} (uGNI's 64-bit
 * CQ entry [S5]). Each CQ is a ring registered in host memory when it is created; an event bound for a CQ takes its
 * slot when its host write is booked (a full CQ drops it and is flagged overrun [S6e]), is translated as a {@link
 * TranslationClient#COMPLETION_WRITE} (a PTE-cache hit or miss like any access), written to the translated address
 * through the NIC's {@link HostMemory} (so through the host cache when the system has one), and reaches its CQ and the
 * listener when that translated write is done: the host write's time plus the translation's. An event for no CQ (a
 * post with {@code NO_CQ}) reaches the listener at the host write's time. A REMOTE event is written only when the
 * request asked for one and the target registration names a CQ [S5].
 *
 * <p>Each queue counts what may still write into it (posts naming it that have not completed, events booked for it
 * not yet in its ring), so that a queue in use is never destroyed (see {@link Nic#destroyCompletionQueue}).
 */
final class CompletionWriter {
  private static final int MAX_CQ_ENTRIES = 1 << 24;

  private final int nodeId;
  private final Scheduler scheduler;
  private final HostLink host;
  private final HostMemory memory;
  private final AddressTranslation translation;
  private final NicConfig config;
  private final NicStatistics stats;
  private final EventHandler eventVisible = new EventVisible();
  private final EventHandler deferredRemoteEvent = new DeferredRemoteEvent();
  /** Where a deferred REMOTE event's arg holds the source node and the CQ, above the 12-bit request tag. */
  private static final int DEFERRED_NODE_SHIFT = Integer.bitCount(RequestTag.TAG_MASK);
  private static final int DEFERRED_CQ_SHIFT = DEFERRED_NODE_SHIFT + NetworkAddress.NODE_ID_BITS;
  private final TranslationListener entryTranslated = new EntryTranslated();
  private CompletionListener listener;
  /** Observers that see every event after the listener ({@link Nic#addCompletionProbe}). */
  private CompletionListener[] probes = new CompletionListener[0];
  private final HostWriteProbes writes;
  /** The queues by handle; null where one was destroyed (never at the end: the list is cut back). */
  private List<CompletionQueue> queues;
  /** Queues that exist. */
  private int live;
  /** No handle below this is free. */
  private int firstFree;

  CompletionWriter(int nodeId, Scheduler scheduler, HostLink host, HostMemory memory, AddressTranslation translation,
      NicConfig config, NicStatistics stats, HostWriteProbes writes) {
    this.nodeId = nodeId;
    this.writes = writes;
    this.scheduler = scheduler;
    this.host = host;
    this.memory = memory;
    this.translation = translation;
    this.config = config;
    this.stats = stats;
  }

  CompletionQueue create(int entries) {
    return create(entries, PageSize.SIZE_4K);
  }

  /**
   * A CQ whose ring of {@code entries} × 8 bytes is registered in host memory with pages of the given size. It takes
   * the lowest free handle: the next one after the last while none was destroyed, so a NIC that never destroys a
   * queue hands out 0, 1, 2, ... as before.
   */
  CompletionQueue create(int entries, PageSize pageSize) {
    com.google.common.base.Preconditions.checkArgument(pageSize != null, "pageSize must not be null");
    com.google.common.base.Preconditions.checkArgument(entries >= 1 && entries <= MAX_CQ_ENTRIES,
        "entries must be in [1, %s] but was %s", MAX_CQ_ENTRIES, entries);
    if (queues == null) {
      queues = new ArrayList<>(2);
    }
    if (live > MemoryDomainDescriptor.MAX_CQ) {
      throw new IllegalStateException("node " + nodeId + " already has 2048 completion queues (11-bit handle)");
    }
    long page = pageSize.bytes();
    long length = ((long) entries * CompletionQueue.ENTRY_BYTES + page - 1) / page * page;
    MemoryDomainDescriptor ring = translation.register(
        MemoryRegistration.of(0, length, config.protectionTag(), config.protectionKey()).withPageSize(pageSize));
    while (firstFree < queues.size() && queues.get(firstFree) != null) {
      firstFree++;
    }
    CompletionQueue q = new CompletionQueue(firstFree, entries, ring);
    if (firstFree == queues.size()) {
      queues.add(q);
    } else {
      queues.set(firstFree, q);
    }
    firstFree++;
    live++;
    return q;
  }

  /**
   * Destroys a CQ (see {@link Nic#destroyCompletionQueue}): refused, changing nothing, while anything may still
   * write into it; otherwise its handle becomes free and its ring is deregistered.
   */
  void destroy(int handle) {
    CompletionQueue q = queue(handle);
    if (q == null) {
      throw new IllegalArgumentException("handle must name a completion queue of node " + nodeId + " ("
          + describeHandles() + ") but was " + handle);
    }
    String users = users(q);
    if (users != null) {
      throw new IllegalStateException("completion queue " + handle + " of node " + nodeId + " cannot be destroyed:"
          + " " + users + " (uGNI's GNI_CqDestroy refuses a CQ still in use with GNI_RC_ERROR_RESOURCE)");
    }
    // Only the registration the queue made: a caller may have deregistered it, and another may hold its MDH now.
    Optional<MemoryDomainDescriptor> d = translation.descriptor(q.ring().mdh());
    if (d.isPresent() && d.get().equals(q.ring())) {
      translation.deregisterAndFree(q.ring().mdh(), memory); // uGNI allocated the ring: its memory goes too
    }
    queues.set(handle, null);
    live--;
    firstFree = Math.min(firstFree, handle);
    int last = queues.size() - 1;
    while (last >= 0 && queues.get(last) == null) {
      queues.remove(last--);
    }
  }

  /**
   * @param mdh an MDH of this node
   * @return the handle of the live queue whose ring it is, or -1
   */
  int queueWithRing(int mdh) {
    if (queues != null) {
      for (CompletionQueue q : queues) {
        // (its own registration still: one deregistered through the translation port may have handed the MDH on)
        if (q != null && q.ring().mdh() == mdh && translation.descriptor(mdh).filter(q.ring()::equals).isPresent()) {
          return q.handle();
        }
      }
    }
    return -1;
  }

  /** @return what may still write into a queue, for a refusal, or null when nothing may */
  private String users(CompletionQueue q) {
    List<String> found = new ArrayList<>(3);
    List<Integer> mdhs = new ArrayList<>();
    for (int mdh = 0; mdh <= NetworkAddress.MAX_MDH; mdh++) {
      Optional<MemoryDomainDescriptor> d = translation.descriptor(mdh);
      if (d.isPresent() && d.get().valid() && d.get().completionQueue() == q.handle()) {
        mdhs.add(mdh);
      }
    }
    if (!mdhs.isEmpty()) {
      found.add((mdhs.size() == 1 ? "the memory registration with mdh " + mdhs.get(0) + " names it"
          : mdhs.size() + " memory registrations name it (mdhs " + abbreviated(mdhs) + ")")
          + " for remote events (deregister " + (mdhs.size() == 1 ? "it" : "them") + " first)");
    }
    if (q.unfinishedPosts > 0) {
      found.add(q.unfinishedPosts + (q.unfinishedPosts == 1 ? " post that names it has" : " posts that name it have")
          + " not completed");
    }
    if (q.writesInFlight > 0) {
      found.add(q.writesInFlight + (q.writesInFlight == 1 ? " event is" : " events are")
          + " still being written into it");
    }
    return found.isEmpty() ? null : String.join("; ", found);
  }

  /** @return the first few of a list, and how many more */
  private static String abbreviated(List<Integer> xs) {
    int shown = Math.min(xs.size(), 8);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < shown; i++) {
      b.append(i == 0 ? "" : ", ").append(xs.get(i));
    }
    return xs.size() > shown ? b.append(" and ").append(xs.size() - shown).append(" more").toString() : b.toString();
  }

  CompletionQueue queue(int handle) {
    return queues == null || handle < 0 || handle >= queues.size() ? null : queues.get(handle);
  }

  /** @return the queues that exist now */
  int count() {
    return live;
  }

  /**
   * The CQ handles the NIC has, for a refusal's message: "it has none", "handles 0..N exist", or, when some below the
   * highest were destroyed, "handles 0..N exist except 2, 5 (destroyed)".
   *
   * @return the description
   */
  String describeHandles() {
    if (live == 0) {
      return "it has none";
    }
    int last = queues.size() - 1;
    if (live == queues.size()) {
      return "handles 0.." + last + " exist";
    }
    List<Integer> free = new ArrayList<>();
    for (int h = 0; h < last; h++) {
      if (queues.get(h) == null) {
        free.add(h);
      }
    }
    return "handles 0.." + last + " exist except " + abbreviated(free) + " (destroyed)";
  }

  /**
   * Refuses a post (or collective post) whose source CQ a memory registration has named for remote events: a CQ
   * takes local or remote events, "but not both" ({@code GNI_CqCreate} [S5]).
   *
   * @param field the field named in the refusal
   * @param cq a live queue's handle
   */
  void checkSourceQueue(String field, int cq) {
    com.google.common.base.Preconditions.checkArgument(!queues.get(cq).takesRemoteEvents, "%s %s of node %s takes"
        + " remote events (a memory registration named it) and a CQ takes local or remote events, not both"
        + " (GNI_CqCreate [S5]): name another CQ for the post's events", field, cq, nodeId);
  }

  /**
   * Refuses a registration whose CQ a post has named for its events, and otherwise marks the queue as one for remote
   * events (see {@link #checkSourceQueue}); call it just before the registration is made.
   *
   * @param cq a live queue's handle
   */
  void checkRemoteQueue(int cq) {
    com.google.common.base.Preconditions.checkArgument(!queues.get(cq).takesLocalEvents, "registration.completionQueue"
        + " %s of node %s takes local events (a post named it) and a CQ takes local or remote events, not both"
        + " (GNI_CqCreate [S5]): name another CQ for remote events", cq, nodeId);
  }

  /**
   * The queue a peer's CQ write ({@code GNI_PostCqWrite}) names by its handle, if it may take the write: one that
   * takes local events (a post named it) does not, a CQ taking local or remote events "but not both" ({@code
   * GNI_CqCreate} [S5]). The writer cannot know the queue's use when it posts, so the write faults at the target, as
   * one naming no queue does: on uGNI it names a memory handle whose registration's CQ takes it, and no registration
   * may name a queue of local events ({@link #checkRemoteQueue}), so no such handle exists. Until stop 76 the write
   * landed in the queue among its own posts' events.
   *
   * @param handle the handle the write names
   * @return the queue, or null when the write must fault (no such queue, or one of local events)
   */
  CompletionQueue peerWriteQueue(int handle) {
    CompletionQueue q = queue(handle);
    return q == null || q.takesLocalEvents ? null : q;
  }

  /** A registration naming a live queue for remote events has been made. */
  void remoteQueueNamed(int cq) {
    queues.get(cq).takesRemoteEvents = true;
  }

  /** A post naming a CQ (or none, -1) has been accepted: until it completes it may write events there. */
  void postAccepted(int cq) {
    if (cq >= 0) {
      CompletionQueue q = queues.get(cq);
      q.unfinishedPosts++;
      q.takesLocalEvents = true;
    }
  }

  /** A post naming a CQ (or none, -1) has completed: its last event, if any, is booked. */
  void postFinished(int cq) {
    if (cq >= 0) {
      queues.get(cq).unfinishedPosts--;
    }
  }

  void listener(CompletionListener l) {
    this.listener = l;
  }

  void probes(CompletionListener[] p) {
    this.probes = p;
  }

  /**
   * Writes an event: books its 8-byte host write now, and it becomes visible when the write is.
   *
   * @param cq the CQ handle, or -1 for none (the listener still sees it)
   */
  void write(long now, CompletionType type, Status s, long postId, int peer, long userData, int cq) {
    writeAt(host.write(now, 8), type, s, postId, peer, userData, cq);
  }

  /** Writes an event whose host write is already timed: it becomes visible at {@code at}. */
  void writeAt(long at, CompletionType type, Status s, long postId, int peer, long userData, int cq) {
    CompletionEvent e = new CompletionEvent(type, s, postId, nodeId, peer, userData, at);
    if (cq >= 0) {
      queues.get(cq).writesInFlight++;
    }
    scheduler.scheduleAt(at, eventVisible, e, cq);
  }

  /**
   * The REMOTE event a served request may ask for, written with its own 8-byte host write. Nothing is booked on the
   * host link when the request did not ask for an event, or its registration names no CQ.
   *
   * @param now when the request has been processed
   * @param request the request served
   */
  void remoteEvent(long now, Packet request) {
    int cq = remoteEventQueue(request);
    if (cq != MemoryDomainDescriptor.NO_CQ) {
      write(now, CompletionType.REMOTE, Status.OK, RequestTag.tag(request.tag()), request.sourceNode(), 0, cq);
    }
  }

  /**
   * The REMOTE event a served request may ask for, visible with the data the request wrote.
   *
   * @param visible when the request's data write is visible in host memory
   * @param request the request served
   */
  void remoteEventAt(long visible, Packet request) {
    int cq = remoteEventQueue(request);
    if (cq != MemoryDomainDescriptor.NO_CQ) {
      writeAt(visible, CompletionType.REMOTE, Status.OK, RequestTag.tag(request.tag()), request.sourceNode(), 0, cq);
    }
  }

  /**
   * The REMOTE event of a request whose data reaches host memory only at {@code at}, after now: a cached AMO's
   * value, written back as its AMO-cache entry goes idle. The event's own 8-byte host write is booked then, so it is
   * never visible before the value (a poller it wakes reads the new value).
   *
   * @param at when the request's data is in host memory
   * @param request the request served
   */
  void remoteEventAfter(long at, Packet request) {
    long held = holdRemoteEvent(request);
    if (held >= 0) {
      remoteEventHeld(at, held);
    }
  }

  /**
   * The REMOTE event a served request asks for, held to be booked later ({@link #remoteEventHeld}), its queue counting
   * it in flight meanwhile: the request is recycled before then, so its tag (12 bits), source node (18) and CQ (11)
   * travel in the number returned.
   *
   * @param request the request served
   * @return the held event, or -1 when no event is written
   */
  long holdRemoteEvent(Packet request) {
    int cq = remoteEventQueue(request);
    if (cq == MemoryDomainDescriptor.NO_CQ) {
      return -1;
    }
    queues.get(cq).writesInFlight++;
    return RequestTag.tag(request.tag()) | (long) request.sourceNode() << DEFERRED_NODE_SHIFT
        | (long) cq << DEFERRED_CQ_SHIFT;
  }

  /** @param at when a held REMOTE event's host write is booked, ≥ now @param held from {@link #holdRemoteEvent} */
  void remoteEventHeld(long at, long held) {
    scheduler.scheduleAt(at, deferredRemoteEvent, null, held);
  }

  /** @return the CQ a REMOTE event for this request goes to, or NO_CQ when none is written */
  private int remoteEventQueue(Packet p) {
    if (!RequestTag.remoteEvent(p.tag())) {
      return MemoryDomainDescriptor.NO_CQ;
    }
    Optional<MemoryDomainDescriptor> d = translation.descriptor(p.mdh());
    int cq = d.isPresent() ? d.get().completionQueue() : MemoryDomainDescriptor.NO_CQ;
    if (cq == MemoryDomainDescriptor.NO_CQ) {
      return cq;
    }
    // A registration deregistered while its request was in service (a translation that still answered OK) names a
    // queue that may since have been destroyed and its handle given to a new one: the event is dropped, not written
    // into a queue that never asked for it (stop 64's fault hunt).
    CompletionQueue q = queue(cq);
    if (!d.get().valid() || q == null) {
      stats.remoteEventsDropped++;
      return MemoryDomainDescriptor.NO_CQ;
    }
    // A registration made through the translation port directly (Node.translation(), Node.iommu()) passes neither
    // checkRemoteQueue nor remoteQueueNamed: the queue's use is settled here, by its first use. One that takes local
    // events (a post named it) drops the event, as a queue that was destroyed does; otherwise it takes remote events
    // from now on, so a later post naming it is refused (checkSourceQueue). Until stop 77 the event landed among the
    // queue's own posts' events, and a post could name a queue that had taken remote events.
    if (q.takesLocalEvents) {
      stats.remoteEventsDropped++;
      return MemoryDomainDescriptor.NO_CQ;
    }
    q.takesRemoteEvents = true;
    return cq;
  }

  private void deliver(CompletionEvent e) {
    stats.eventsWritten++;
    if (listener != null) {
      listener.onCompletion(e);
    }
    for (CompletionListener p : probes) {
      p.onCompletion(e);
    }
  }

  /**
   * An event's host write is due (ref: the event, arg: CQ handle or -1): one for no CQ is delivered; one for a CQ takes
   * a slot (or is dropped, overrun) and its entry's address is translated.
   */
  private final class EventVisible implements EventHandler {
    @Override
    public void onEvent(long now, Object ref, long cq) {
      CompletionEvent e = (CompletionEvent) ref;
      if (cq < 0) {
        deliver(e);
        return;
      }
      CompletionQueue q = queues.get((int) cq);
      int slot = q.reserve();
      if (slot < 0) {
        q.writesInFlight--;
        deliver(e);
        return;
      }
      translation.translate(TranslationClient.COMPLETION_WRITE, q.ring().mdh(), (long) slot * CompletionQueue.ENTRY_BYTES,
          CompletionQueue.ENTRY_BYTES, AccessKind.WRITE, config.protectionTag(), config.protectionKey(),
          entryTranslated, e, cq << 32 | slot);
    }
  }

  /**
   * A CQ entry's address is translated (ref: the event, arg: CQ handle in the high 32 bits, slot in the low): the entry
   * is written, the event is visible now.
   */
  private final class EntryTranslated implements TranslationListener {
    @Override
    public void onTranslated(long now, Status status, long physicalAddress, int contiguousBytes, Object ref,
        long arg) {
      int handle = (int) (arg >>> 32);
      int slot = (int) arg;
      CompletionQueue q = handle >= 0 && queues != null && handle < queues.size() ? queues.get(handle) : null;
      if (q == null || !(ref instanceof CompletionEvent) || !q.awaitsWrite(slot)) {
        throw new IllegalStateException("translation " + translation.getClass().getName() + " on node " + nodeId
            + " completed a completion-queue entry's translation the NIC is not waiting for (queue " + handle
            + ", slot " + slot + (q == null ? ", no such queue" : "") + "): a translation must complete once, with"
            + " the ref and arg it was given");
      }
      if (status == Status.OK && (physicalAddress < 0 || physicalAddress > memory.capacity() - Long.BYTES
          || contiguousBytes < Long.BYTES)) {
        throw new IllegalStateException("translation " + translation.getClass().getName() + " on node " + nodeId
            + " translated completion queue " + handle + "'s slot " + slot + " to physical address 0x"
            + Long.toHexString(physicalAddress) + " with " + contiguousBytes + " contiguous bytes: an 8-byte entry"
            + " must lie in the node's memory [0, 0x" + Long.toHexString(memory.capacity()) + ")");
      }
      q.writesInFlight--;
      CompletionEvent e = (CompletionEvent) ref;
      if (e.timePs() != now) {
        e = new CompletionEvent(e.type(), e.status(), e.postId(), e.node(), e.peerNode(), e.userData(), now);
      }
      if (status != Status.OK) {
        // the entry is lost to the queue (counted as lost, not as an overrun); the listener and probes still see the
        // event, as they see every event (a failed transaction's GLOBAL error used to vanish with its entry)
        q.abandon(slot);
        deliver(e);
        return;
      }
      memory.writeLong(physicalAddress, CompletionQueue.encode(e));
      writes.wrote(now, physicalAddress, Long.BYTES);
      q.commit(slot, e);
      deliver(e);
    }
  }

  /**
   * A REMOTE event whose data is now in host memory (arg: the request's tag, its source node and the CQ, as {@link
   * #remoteEventAfter} packs them): its host write is booked now.
   */
  private final class DeferredRemoteEvent implements EventHandler {
    @Override
    public void onEvent(long now, Object ref, long arg) {
      int cq = (int) (arg >>> DEFERRED_CQ_SHIFT);
      write(now, CompletionType.REMOTE, Status.OK, arg & RequestTag.TAG_MASK,
          (int) (arg >>> DEFERRED_NODE_SHIFT) & NetworkAddress.MAX_NODE_ID, 0, cq);
      queues.get(cq).writesInFlight--; // the write just booked holds the queue now
    }
  }
}
