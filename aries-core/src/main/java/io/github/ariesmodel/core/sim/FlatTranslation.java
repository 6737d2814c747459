package io.github.ariesmodel.core.sim;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.NetworkAddresses;
import io.github.ariesmodel.core.Status;
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
 * A flat, fixed-latency translator: each registration is backed by one physically contiguous block, so a
 * translation is {@code block + offset} after the {@link MemoryDomainDescriptor#check} checks. No page tables and no
 * cache; every translation takes the same configured latency (0 for "untimed"). It exists so that the NIC and the
 * simulator can be tested without the IOMMU, and as the reference the IOMMU's results must agree with.
 *
 * <p>MDHs are handed out lowest-free-first; a deregistered MDH stays invalid (stale) until every other MDH has been
 * used, so a stale handle is not silently reused at once.
 */
public final class FlatTranslation implements AddressTranslation {

  private final HostMemory memory;
  private final Scheduler scheduler;
  private final long latencyPs;
  /** Timed translations asked and not yet completed. */
  private int pending;
  private final MemoryDomainDescriptor[] mdds = new MemoryDomainDescriptor[NetworkAddress.MAX_MDH + 1];
  private final long[] physicalBase = new long[NetworkAddress.MAX_MDH + 1];
  private final EventHandler completion = this::complete;
  private int nextMdh;

  /**
   * A translator over a node's memory.
   *
   * @param memory the node's physical memory (registrations are allocated in it)
   * @param scheduler the clock that times completions
   * @param latencyPs latency of every translation, in [0, {@link io.github.ariesmodel.core.SimTime#MAX_LATENCY_PS}]
   */
  public FlatTranslation(HostMemory memory, Scheduler scheduler, long latencyPs) {
    if (memory == null || scheduler == null) {
      throw new IllegalArgumentException("memory and scheduler must not be null");
    }
    io.github.ariesmodel.core.SimTime.checkLatency("latencyPs", latencyPs);
    this.memory = memory;
    this.scheduler = scheduler;
    this.latencyPs = latencyPs;
  }

  /**
   * {@inheritDoc}
   *
   * <p>A refused registration (null, no free MDH, memory exhausted) changes nothing: the MDH search moves on only
   * once the memory is allocated.
   *
   * @throws IllegalArgumentException when {@code r} is null
   */
  @Override
  public MemoryDomainDescriptor register(MemoryRegistration r) {
    if (r == null) {
      throw new IllegalArgumentException("registration must not be null");
    }
    giveBackDeferred();
    int mdh = freeMdh();
    long base = memory.allocate(r.length(), Math.min(r.pageSize().bytes(), 1L << 21));
    MemoryDomainDescriptor d = new MemoryDomainDescriptor(mdh, true, r.virtualBase(), r.length(), r.writable(),
        r.protectionTag(), r.protectionKey(), r.translationContext(), r.pageSize(), r.completionQueue(),
        r.prefetch());
    mdds[mdh] = d;
    physicalBase[mdh] = base;
    nextMdh = (mdh + 1) & NetworkAddress.MAX_MDH;
    return d;
  }

  /** The first MDH not holding a valid descriptor from {@link #nextMdh} on, round robin; moves nothing. */
  private int freeMdh() {
    for (int n = 0; n <= NetworkAddress.MAX_MDH; n++) {
      int mdh = (nextMdh + n) & NetworkAddress.MAX_MDH;
      if (mdds[mdh] == null || !mdds[mdh].valid()) {
        return mdh;
      }
    }
    throw new IllegalStateException("no free MDH: all 4096 memory domain descriptors are registered");
  }

  @Override
  public void deregister(int mdh) {
    NetworkAddresses.checkMdh(mdh);
    MemoryDomainDescriptor d = mdds[mdh];
    if (d == null || !d.valid()) {
      throw new IllegalArgumentException("mdh " + mdh + " is not registered");
    }
    mdds[mdh] = d.invalidated();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Gives back the frames {@link #register} reserved (the flat translator keeps no page tables). Given back later
   * (false now) while a timed translation is on its way (its address was worked out when it was asked and would reach
   * memory a later registration may hold by then) or {@code memory} keeps them: at the next {@link #register} or
   * {@code deregisterAndFree} with none on its way.
   *
   * <p>A {@code memory} that is a view of another memory ({@link HostMemory#physicalMemory}: another node's, of the
   * same capacity) is refused before anything changes. One that refuses the range now (it says the bytes are not
   * reserved there) changes nothing: the registration stays. One that refuses it later, as it is given back at a
   * {@code register} or {@code deregisterAndFree}, makes that call throw once; the range leaves the list (it stays
   * reserved), so the calls after it do not meet the same refusal.
   */
  @Override
  public boolean deregisterAndFree(int mdh, HostMemory memory) {
    NetworkAddresses.checkMdh(mdh);
    if (memory == null || memory.capacity() != this.memory.capacity()) {
      throw new IllegalArgumentException("memory must be this translator's memory or a view of it (capacity "
          + this.memory.capacity() + ") but was " + (memory == null ? "null" : "of capacity " + memory.capacity()));
    }
    HostMemory below = memory.physicalMemory();
    HostMemory mine = this.memory.physicalMemory();
    if (below != null && mine != null && below != mine) {
      // every node's memory has the same capacity: frames given back there would free another node's registration
      throw new IllegalArgumentException("memory must be this translator's memory or a view of it but is a view of"
          + " another memory (another node's?); mdh " + mdh + " stays registered");
    }
    MemoryDomainDescriptor registered = mdds[mdh];
    deregister(mdh);
    long[] frames = {physicalBase[mdh], mdds[mdh].length()};
    if (pending > 0) {
      deferred.add(frames);
      deferredThrough.add(memory);
      return false;
    }
    boolean freed;
    try {
      freed = memory.free(frames[0], frames[1]);
    } catch (RuntimeException e) {
      // the memory refuses the range (not reserved there: not this translator's after all): nothing changes
      mdds[mdh] = registered;
      throw e;
    }
    if (!freed) {
      deferred.add(frames);
      deferredThrough.add(memory);
    }
    giveBackDeferred(); // the ranges listed before (none of this one's, which is given back or listed)
    return freed;
  }

  /** Frames {@link #deregisterAndFree} could not give back yet ({first byte, bytes}), and the memory to give them to. */
  private final List<long[]> deferred = new ArrayList<>();
  private final List<HostMemory> deferredThrough = new ArrayList<>();

  /**
   * Gives back what {@link #deregisterAndFree} could not, once no timed translation is on its way. A range its memory
   * refuses (throws) leaves the list and the refusal is thrown, once, after the other ranges are tried.
   */
  private void giveBackDeferred() {
    if (pending > 0) {
      return;
    }
    RuntimeException refused = null;
    for (int i = deferred.size() - 1; i >= 0; i--) {
      long[] x = deferred.get(i);
      boolean done;
      try {
        done = deferredThrough.get(i).free(x[0], x[1]);
      } catch (RuntimeException e) {
        done = true; // dropped: it stays reserved, and no later call meets the same refusal
        if (refused == null) {
          refused = e;
        }
      }
      if (done) {
        deferred.remove(i);
        deferredThrough.remove(i);
      }
    }
    if (refused != null) {
      throw refused;
    }
  }

  @Override
  public Optional<MemoryDomainDescriptor> descriptor(int mdh) {
    NetworkAddresses.checkMdh(mdh);
    return Optional.ofNullable(mdds[mdh]);
  }

  @Override
  public void translate(
      TranslationClient client, int mdh, long offset, int length, AccessKind access, int protectionTag,
      int protectionKey, TranslationListener listener, Object ref, long arg) {
    TranslationResult r = translateNow(mdh, offset, length, access, protectionTag, protectionKey);
    scheduler.scheduleAfter(latencyPs, completion, new Pending(r, listener, ref), arg);
    pending++; // (after scheduling: a refused schedule leaves nothing pending)
  }

  private void complete(long now, Object ref, long arg) {
    pending--;
    Pending p = (Pending) ref;
    p.listener.onTranslated(now, p.result.status(), p.result.physicalAddress(), p.result.contiguousBytes(), p.ref, arg);
  }

  private record Pending(TranslationResult result, TranslationListener listener, Object ref) {}

  @Override
  public TranslationResult translateNow(
      int mdh, long offset, int length, AccessKind access, int protectionTag, int protectionKey) {
    NetworkAddresses.checkMdh(mdh);
    if (length < 0) {
      throw new IllegalArgumentException("length must be >= 0 but was " + length);
    }
    MemoryDomainDescriptor d = mdds[mdh];
    if (d == null) {
      return TranslationResult.fault(Status.INVALID_MDH);
    }
    Status s = d.check(offset, length, access, protectionTag, protectionKey);
    if (s != Status.OK) {
      return TranslationResult.fault(s);
    }
    return new TranslationResult(Status.OK, physicalBase[mdh] + offset, length);
  }
}
