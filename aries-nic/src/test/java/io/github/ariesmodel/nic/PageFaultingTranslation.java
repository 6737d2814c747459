package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationListener;

/**
 * A test translator over a flat one that answers page by page (contiguousBytes ends at each 4 KB boundary, as an
 * IOMMU does; a smaller chunk can be set to force packets into several parts) and, on the timed path only, reports TRANSLATION_FAULT for a translation starting in one chosen page
 * (offset / 4096) of every registration; the untimed host view is unaffected.
 */
final class PageFaultingTranslation extends DelegatingTranslation {

  private final Scheduler scheduler;
  private long faultFrom = -1;
  private long faultTo = -1;
  private int chunk = 4096;
  long translations;

  PageFaultingTranslation(AddressTranslation flat, Scheduler scheduler) {
    super(flat);
    this.scheduler = scheduler;
  }

  /** Timed translations starting in this 4 KB page fault. */
  void faultPage(long page) {
    faultRange(page * 4096, (page + 1) * 4096);
  }

  /** Timed translations starting at an offset in [from, to) fault. */
  void faultRange(long from, long to) {
    this.faultFrom = from;
    this.faultTo = to;
  }

  /** Contiguity granularity: translations end at multiples of this many bytes (4096 by default). */
  void chunk(int bytes) {
    this.chunk = bytes;
  }

  @Override
  public void translate(TranslationClient client, int mdh, long offset, int length, AccessKind access, int ptag,
      int pkey, TranslationListener listener, Object ref, long arg) {
    translations++;
    TranslationResult r = translateNow(mdh, offset, length, access, ptag, pkey);
    if (r.ok() && offset >= faultFrom && offset < faultTo) {
      r = TranslationResult.fault(Status.TRANSLATION_FAULT);
    }
    TranslationResult result = r;
    scheduler.scheduleAfter(1000, (now, x, y) -> listener.onTranslated(now, result.status(),
        result.physicalAddress(), result.contiguousBytes(), ref, arg), null, 0);
  }

  @Override
  public TranslationResult translateNow(int mdh, long offset, int length, AccessKind access, int ptag, int pkey) {
    TranslationResult r = inner.translateNow(mdh, offset, length, access, ptag, pkey);
    if (!r.ok()) {
      return r;
    }
    int toPageEnd = (int) Math.min(length, chunk - (offset % chunk));
    return new TranslationResult(Status.OK, r.physicalAddress(), toPageEnd);
  }
}
