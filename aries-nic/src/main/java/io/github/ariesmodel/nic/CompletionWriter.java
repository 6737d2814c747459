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
 * ({@code GNI_CqCreate}, 11-bit handles [S6e]) and writes every completion event into host memory as one 8-byte
 * posted write over the {@link HostLink} (uGNI's 64-bit CQ entry [S5]). Each CQ is a ring registered in host memory
 * when it is created; an event bound for a CQ takes its slot when its host write is booked (a full CQ drops it and is
 * flagged overrun [S6e]), is translated as a {@link TranslationClient#COMPLETION_WRITE} (a PTE-cache hit or miss like
 * any access), written to the translated address through the NIC's {@link HostMemory} (so through the host cache
 * when the system has one), and reaches its CQ and the listener when that translated write is done: the host write's
 * time plus the translation's. An event for no CQ (a post with {@code NO_CQ}) reaches the listener at the host
 * write's time. A REMOTE event is written only when the request asked for one and the target registration names a CQ
 * [S5].
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
  private List<CompletionQueue> queues;

  CompletionWriter(int nodeId, Scheduler scheduler, HostLink host, HostMemory memory, AddressTranslation translation,
      NicConfig config, NicStatistics stats) {
    this.nodeId = nodeId;
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

  /** A CQ whose ring of {@code entries} × 8 bytes is registered in host memory with pages of the given size. */
  CompletionQueue create(int entries, PageSize pageSize) {
    com.google.common.base.Preconditions.checkArgument(pageSize != null, "pageSize must not be null");
    com.google.common.base.Preconditions.checkArgument(entries >= 1 && entries <= MAX_CQ_ENTRIES,
        "entries must be in [1, %s] but was %s", MAX_CQ_ENTRIES, entries);
    if (queues == null) {
      queues = new ArrayList<>(2);
    }
    if (queues.size() > MemoryDomainDescriptor.MAX_CQ) {
      throw new IllegalStateException("node " + nodeId + " already has 2048 completion queues (11-bit handle)");
    }
    long page = pageSize.bytes();
    long length = ((long) entries * CompletionQueue.ENTRY_BYTES + page - 1) / page * page;
    MemoryDomainDescriptor ring = translation.register(
        MemoryRegistration.of(0, length, config.protectionTag(), config.protectionKey()).withPageSize(pageSize));
    CompletionQueue q = new CompletionQueue(queues.size(), entries, ring);
    queues.add(q);
    return q;
  }

  CompletionQueue queue(int handle) {
    return queues == null || handle < 0 || handle >= queues.size() ? null : queues.get(handle);
  }

  /** @return the CQ handles a NIC has, for a refusal's message: "it has none" or "handles 0..N exist" */
  static String describeHandles(int lastHandle) {
    return lastHandle < 0 ? "it has none" : "handles 0.." + lastHandle + " exist";
  }

  /** @return handles exist from 0 to this, -1 when none */
  int lastHandle() {
    return queues == null ? -1 : queues.size() - 1;
  }

  void listener(CompletionListener l) {
    this.listener = l;
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
    int cq = remoteEventQueue(request);
    if (cq != MemoryDomainDescriptor.NO_CQ) {
      // the request is recycled meanwhile: its tag (12 bits), source node (18) and the CQ (11) travel in the arg
      scheduler.scheduleAt(at, deferredRemoteEvent, null, RequestTag.tag(request.tag())
          | (long) request.sourceNode() << DEFERRED_NODE_SHIFT | (long) cq << DEFERRED_CQ_SHIFT);
    }
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
    if (queue(cq) == null) {
      stats.remoteEventsDropped++;
      return MemoryDomainDescriptor.NO_CQ;
    }
    return cq;
  }

  private void deliver(CompletionEvent e) {
    stats.eventsWritten++;
    if (listener != null) {
      listener.onCompletion(e);
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
      CompletionQueue q = queues.get((int) (arg >>> 32));
      int slot = (int) arg;
      if (status != Status.OK) {
        q.abandon(slot);
        return;
      }
      CompletionEvent e = (CompletionEvent) ref;
      if (e.timePs() != now) {
        e = new CompletionEvent(e.type(), e.status(), e.postId(), e.node(), e.peerNode(), e.userData(), now);
      }
      memory.writeLong(physicalAddress, CompletionQueue.encode(e));
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
      write(now, CompletionType.REMOTE, Status.OK, arg & RequestTag.TAG_MASK,
          (int) (arg >>> DEFERRED_NODE_SHIFT) & NetworkAddress.MAX_NODE_ID, 0, (int) (arg >>> DEFERRED_CQ_SHIFT));
    }
  }
}
