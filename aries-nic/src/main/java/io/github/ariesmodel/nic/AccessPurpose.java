package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.TranslationHit;
import io.github.ariesmodel.core.spi.TranslationListener;

/**
 * Why the NIC touches memory, as the listener of the translations it asks for: each purpose (reading a PUT's source
 * data, landing a response, serving a PUT, GET or AMO) is one instance, created once per NIC, and the translation
 * port calls it back. A range the port translates in parts ({@code contiguousBytes} shorter than the rest) is
 * translated part by part here; {@link #translated} runs once, when every part is translated or the first part
 * faulted, so memory is touched only after the whole range translated.
 */
abstract class AccessPurpose implements TranslationListener {
  private final AddressTranslation translation;
  private final TranslationHit hit = new TranslationHit();
  private final boolean fastHits;
  /** The node whose NIC asks, and its memory's size: a physical range a translation gives must lie within it. */
  private final int nodeId;
  private final long capacity;
  /** Numbers the translations this purpose asks for on the listener path, from 1. */
  private long asked;

  /**
   * A purpose whose translations may complete through the hit fast path.
   *
   * @param translation the translator
   * @param nodeId the node whose NIC this purpose serves
   * @param memory that node's memory, which every translated range must lie in
   */
  AccessPurpose(AddressTranslation translation, int nodeId, HostMemory memory) {
    this(translation, true, nodeId, memory);
  }

  /**
   * @param translation the translator
   * @param fastHits whether a hit may complete at once ({@link AddressTranslation#translateHit}); false for a purpose
   *     whose work must be ordered among the events up to the translation's completion time (the AMO unit, whose
   *     cache entries go idle in their own answer events)
   * @param nodeId the node whose NIC this purpose serves
   * @param memory that node's memory, which every translated range must lie in
   */
  AccessPurpose(AddressTranslation translation, boolean fastHits, int nodeId, HostMemory memory) {
    this.translation = translation;
    this.fastHits = fastHits;
    this.nodeId = nodeId;
    this.capacity = memory.capacity();
  }

  /**
   * Starts translating an access for this purpose. A whole access that the translator completes at once as a hit
   * ({@link AddressTranslation#translateHit}) goes on to {@link #translated} here, with the translation's completion
   * time as {@code now}: what it does is timed from then, though it runs in the caller's event (an event saved per
   * hit). Anything else takes the listener path.
   */
  final void start(MemoryAccess a) {
    if (fastHits && a.done == 0
        && translation.translateHit(a.client, a.mdh, a.offset, a.length, a.kind, a.ptag, a.pkey, hit)) {
      if (a.length > 0) {
        addPart(a, hit.physicalAddress(), a.length);
        a.done = a.length;
      }
      translated(hit.completesAtPs(), a, Status.OK);
      return;
    }
    a.awaiting = ++asked;
    translation.translate(a.client, a.mdh, a.offset + a.done, a.length - a.done, a.kind, a.ptag, a.pkey, this, a,
        a.awaiting);
  }

  @Override
  public final void onTranslated(long now, Status status, long pa, int contiguous, Object ref, long arg) {
    MemoryAccess a = ref instanceof MemoryAccess m ? m : null;
    if (a == null || a.awaiting != arg || arg == 0) {
      // (the access may have been completed and pooled, or be waiting for another translation now)
      throw new IllegalStateException("translation " + translation.getClass().getName() + " completed a translation"
          + " the NIC is not waiting for (" + (a == null ? "ref " + ref + ", not one the NIC gave"
          : "number " + arg + " where it waits for " + (a.awaiting == 0 ? "none" : "number " + a.awaiting))
          + "): a translation must complete once, with the ref and arg it was given");
    }
    a.awaiting = 0;
    if (status != Status.OK) {
      translated(now, a, status);
      return;
    }
    int remaining = a.length - a.done;
    if (remaining == 0) {
      translated(now, a, Status.OK);
      return;
    }
    if (contiguous <= 0) {
      translated(now, a, Status.TRANSLATION_FAULT);
      return;
    }
    int n = Math.min(contiguous, remaining);
    addPart(a, pa, n);
    a.done += n;
    if (a.done < a.length) {
      start(a);
    } else {
      translated(now, a, Status.OK);
    }
  }

  /**
   * Adds a translated part, refusing one outside the node's memory: a translation (a user's, say) that gives such an
   * address would otherwise fail later, inside a memory read, in a message naming neither the translation nor the
   * node. Nothing has been touched yet.
   */
  private void addPart(MemoryAccess a, long pa, int n) {
    if (pa < 0 || pa > capacity - n) {
      throw new IllegalStateException("translation " + translation.getClass().getName() + " on node " + nodeId
          + " translated " + n + " bytes at MDH " + a.mdh + " offset 0x" + Long.toHexString(a.offset + a.done)
          + " to physical range [0x" + Long.toHexString(pa) + ", +" + n + "), outside the node's memory [0, 0x"
          + Long.toHexString(capacity) + "): a translation must give addresses in the node's memory");
    }
    a.addPart(pa, n);
  }

  /**
   * The whole access translated, or faulted.
   *
   * @param now simulated time
   * @param a the access; its parts are valid when {@code status} is OK
   * @param status OK or the fault
   */
  abstract void translated(long now, MemoryAccess a, Status status);
}
