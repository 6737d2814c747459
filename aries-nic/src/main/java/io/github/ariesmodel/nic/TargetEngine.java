package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.LittleEndian;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.HeldPlaces;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.core.spi.TranslationClient;
import java.util.ArrayDeque;

/**
 * The target side of the NIC (the NAT/RAT path, aries-facts §3 and §4): a request pipeline that takes one incoming
 * request per {@code packetCycles} and spends {@code rxPipelineCycles} (assumed 40) on it, then checks and
 * translates the request through the translation port ({@link TranslationClient#NETWORK_REQUEST}: MDH, bounds,
 * permission, protection tag and key) and serves it. A PUT writes its payload with a posted write over the
 * {@link HostLink} and is acknowledged at once; a GET reads its data over the host link (a read round trip, under an
 * NPT tag) and answers with it; an AMO goes to the {@link AmoUnit}; a CQ write appends a REMOTE event to the CQ it
 * names. A fault is answered with an error response and touches nothing; each request is checked on its own.
 *
 * <p>GET reads go through the non-posted table (NPT): each host read a GET needs holds one of its
 * {@link #NPT_TAGS} request tags from the moment it is issued to the host until its data is back in the NIC. A GET
 * that finds every tag taken waits, in arrival order, for the oldest read to return; PUTs (posted writes) and AMOs
 * pass it. Over a stream of 64-byte GETs this bounds what one target serves to {@code NPT_TAGS} × 64 B per read round
 * trip ({@link NicTiming#hostReadLatencyPs()}): 8.2 GB/s with the default 500 ns, below the 10.2 GB/s issue rate.
 */
final class TargetEngine {
  /**
   * Host reads the target keeps outstanding for GETs: the NPT's request tags. [S6e] {@code ar_npt_structs.h}: the
   * NPT's tag is 6 bits ({@code request_tag : 6}), its enable vector and its time-out vector have one bit per entry in
   * a 64-bit word, and its RAM address is 6 bits; the name "Non-Posted Table" is given in {@code ar_iommu_structs.h}
   * [S6c]. That the NPT holds the host reads of network GETs is read from its fields (host responses matched to an
   * entry by tag and turned into the expected network response command, sent through the Netlink response queue);
   * docs/aries-facts.md §3.4.
   */
  static final int NPT_TAGS = 64;

  private final Scheduler scheduler;
  private final int nodeId;
  private final HostMemory memory;
  private final HostLink host;
  private final AccessPool accesses;
  private final CompletionWriter completions;
  private final Injector injector;
  private final AmoUnit amoUnit;
  private final NicStatistics stats;
  private final HostWriteProbes writes;
  private final long slotPs;
  private final long rxLatencyPs;
  private final EventHandler received = new Received();
  private final PutWrite putWrite;
  private final GetRead getRead;
  private final AmoTranslated amoTranslated;
  private final EventHandler tagFreed = new TagFreed();
  /** The NPT tags in use, each until its read's data is in the NIC: reads return in issue order. */
  private final HeldPlaces tags = new HeldPlaces(NPT_TAGS);
  private int maxTagsInUse;
  private ArrayDeque<MemoryAccess> waitingForTag;
  private boolean wakeScheduled;
  private long freeAt;

  TargetEngine(int nodeId, Scheduler scheduler, HostMemory memory, AddressTranslation translation, NicTiming timing,
      HostLink host, AccessPool accesses, CompletionWriter completions, Injector injector, AmoUnit amoUnit,
      NicStatistics stats, int protectionTag, int protectionKey, HostWriteProbes writes) {
    this.writes = writes;
    this.protectionTag = protectionTag;
    this.protectionKey = protectionKey;
    this.scheduler = scheduler;
    this.nodeId = nodeId;
    this.memory = memory;
    this.host = host;
    this.accesses = accesses;
    this.completions = completions;
    this.injector = injector;
    this.amoUnit = amoUnit;
    this.stats = stats;
    this.slotPs = timing.cyclePs() * timing.packetCycles();
    this.rxLatencyPs = timing.cyclePs() * timing.rxPipelineCycles();
    this.putWrite = new PutWrite(translation);
    this.getRead = new GetRead(translation);
    this.amoTranslated = new AmoTranslated(translation);
  }

  /** PTAG of this NIC's protection domain, which its completion queues belong to. */
  private final int protectionTag;

  /** PKEY of this NIC's protection domain. */
  private final int protectionKey;

  /** A request has arrived from the fabric: it enters the request pipeline. */
  void receive(long now, Packet request) {
    long start = Math.max(now, freeAt);
    freeAt = start + slotPs;
    scheduler.scheduleAt(start + rxLatencyPs, received, request, 0);
  }

  private void serve(long now, Packet p) {
    stats.requestsServed++;
    if (RequestTag.cqWrite(p.tag())) {
      CompletionQueue q = completions.peerWriteQueue(p.mdh()); // (none, or one of local events: it faults)
      if (q == null || p.dataLength() != 8) {
        respondError(now, p, Status.INVALID_MDH);
        return;
      }
      // A CQ belongs to its NIC's protection domain: a CQ write is checked like a PUT against a registration,
      // after the handle (same order as MemoryDomainDescriptor.check), so another job cannot forge events.
      if (p.protectionTag() != protectionTag || p.protectionKey() != protectionKey) {
        respondError(now, p, Status.PROTECTION_VIOLATION);
        return;
      }
      long value = LittleEndian.getLong(p.data()) & Post.MAX_CQ_WRITE_VALUE;
      completions.write(now, CompletionType.REMOTE, Status.OK, RequestTag.tag(p.tag()), p.sourceNode(), value,
          q.handle());
      injector.injectAt(now, accesses.packets.ack(p));
      accesses.done(p);
      return;
    }
    switch (p.kind()) {
      case PUT_REQUEST -> putWrite.start(accesses.take(TranslationClient.NETWORK_REQUEST, p.mdh(), p.offset(),
          p.dataLength(), AccessKind.WRITE, p.protectionTag(), p.protectionKey()).with(p));
      case GET_REQUEST -> getRead.start(accesses.take(TranslationClient.NETWORK_REQUEST, p.mdh(), p.offset(),
          p.dataLength(), AccessKind.READ, p.protectionTag(), p.protectionKey()).with(p));
      case AMO_REQUEST -> {
        int w = p.amo().operandBytes();
        if (p.offset() % w != 0) {
          respondError(now, p, Status.MISALIGNED);
          return;
        }
        amoTranslated.start(accesses.take(TranslationClient.NETWORK_REQUEST, p.mdh(), p.offset(), w,
            AccessKind.ATOMIC, p.protectionTag(), p.protectionKey()).with(p));
      }
      default -> throw new AssertionError(p.kind());
    }
  }

  /** @return NPT tags in use at {@code now} (GET host reads issued whose data is not back) */
  int nptTagsInUse(long now) {
    return tags.held(now);
  }

  /** @return the most NPT tags in use at once so far */
  int maxNptTagsInUse() {
    return maxTagsInUse;
  }

  /** @return translated GETs waiting for an NPT tag */
  int waitingForTag() {
    return waitingForTag == null ? 0 : waitingForTag.size();
  }

  /**
   * @return whether a translated GET waiting for a tag will read a byte of {@code [address, end)}: the memory must
   *     not be given back under it ({@link PostedWrites#free})
   */
  boolean waitsToRead(long address, long end) {
    if (waitingForTag != null) {
      for (MemoryAccess a : waitingForTag) {
        if (a.overlaps(address, end)) {
          return true;
        }
      }
    }
    return false;
  }

  /** A translated GET: its host read starts now if a tag is free and no GET waits before it, else it waits. */
  private void getTranslated(long now, MemoryAccess a) {
    if (tags.held(now) < NPT_TAGS && waitingForTag() == 0) {
      startRead(now, a);
      return;
    }
    if (waitingForTag == null) {
      waitingForTag = new ArrayDeque<>();
    }
    waitingForTag.add(a);
    wakeAtOldestTag();
  }

  private void startRead(long now, MemoryAccess a) {
    Packet p = a.packet;
    Packet response = accesses.packets.data(p, a.length);
    a.read(memory, response.data());
    long ready = host.read(now, a.length);
    tags.take(ready);
    maxTagsInUse = Math.max(maxTagsInUse, tags.held(now));
    completions.remoteEvent(now, p);
    injector.injectAt(ready, response);
    accesses.recycle(a);
    accesses.done(p);
  }

  private void wakeAtOldestTag() {
    if (!wakeScheduled) {
      wakeScheduled = true;
      scheduler.scheduleAt(tags.nextFree(), tagFreed, null, 0);
    }
  }

  private void respondError(long now, Packet request, Status s) {
    stats.requestFaults++;
    injector.injectAt(now, accesses.packets.error(request, s));
    accesses.done(request);
  }

  /** A request has left the request pipeline (ref: the packet). */
  private final class Received implements EventHandler {
    @Override
    public void onEvent(long now, Object ref, long arg) {
      serve(now, (Packet) ref);
    }
  }

  /** A PUT's target range translated: write the payload, acknowledge; a REMOTE event is visible with the data. */
  private final class PutWrite extends AccessPurpose {
    PutWrite(AddressTranslation translation) {
      super(translation, nodeId, memory);
    }

    @Override
    void translated(long now, MemoryAccess a, Status s) {
      Packet p = a.packet;
      if (s.isError()) {
        respondError(now, p, s);
      } else {
        a.write(memory, p.data());
        long visible = host.write(now, a.length);
        writes.wrote(visible, a);
        completions.remoteEventAt(visible, p);
        injector.injectAt(now, accesses.packets.ack(p));
        accesses.done(p);
      }
      accesses.recycle(a);
    }
  }

  /** A GET's target range translated: read the data over the host link and answer with it. */
  private final class GetRead extends AccessPurpose {
    GetRead(AddressTranslation translation) {
      super(translation, nodeId, memory);
    }

    @Override
    void translated(long now, MemoryAccess a, Status s) {
      Packet p = a.packet;
      if (s.isError()) {
        respondError(now, p, s);
        accesses.recycle(a);
      } else {
        getTranslated(now, a);
      }
    }
  }

  /** The oldest NPT tag's read has returned (no ref, no arg): waiting GETs take the free tags in arrival order. */
  private final class TagFreed implements EventHandler {
    @Override
    public void onEvent(long now, Object ref, long arg) {
      wakeScheduled = false;
      while (tags.held(now) < NPT_TAGS && waitingForTag() > 0) {
        startRead(now, waitingForTag.poll());
      }
      if (waitingForTag() > 0) {
        wakeAtOldestTag();
      }
    }
  }

  /** An AMO's target word translated: on to the AMO unit. */
  private final class AmoTranslated extends AccessPurpose {
    AmoTranslated(AddressTranslation translation) {
      // The AMO unit works on its cache entries in order with their answer events: no early completion.
      super(translation, false, nodeId, memory);
    }

    @Override
    void translated(long now, MemoryAccess a, Status s) {
      if (s.isError()) {
        respondError(now, a.packet, s);
        accesses.recycle(a);
      } else {
        amoUnit.accept(now, a);
      }
    }
  }
}
