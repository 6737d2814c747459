package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationListener;
import java.util.Optional;

/**
 * A test translator over a flat one that answers page by page (contiguousBytes ends at each 4 KB boundary, as an
 * IOMMU does) and, on the timed path only, reports TRANSLATION_FAULT for a translation starting in one chosen page
 * (offset / 4096) of every registration; the untimed host view is unaffected.
 */
final class PageFaultingTranslation implements AddressTranslation {

  static final long NONE = -1;
  private final AddressTranslation flat;
  private final Scheduler scheduler;
  private long faultPage = NONE;
  long translations;

  PageFaultingTranslation(AddressTranslation flat, Scheduler scheduler) {
    this.flat = flat;
    this.scheduler = scheduler;
  }

  void faultPage(long page) {
    this.faultPage = page;
  }

  @Override
  public MemoryDomainDescriptor register(MemoryRegistration registration) {
    return flat.register(registration);
  }

  @Override
  public void deregister(int mdh) {
    flat.deregister(mdh);
  }

  @Override
  public Optional<MemoryDomainDescriptor> descriptor(int mdh) {
    return flat.descriptor(mdh);
  }

  @Override
  public void translate(TranslationClient client, int mdh, long offset, int length, AccessKind access, int ptag,
      int pkey, TranslationListener listener, Object ref, long arg) {
    translations++;
    TranslationResult r = translateNow(mdh, offset, length, access, ptag, pkey);
    if (r.ok() && faultPage != NONE && (offset >>> 12) == faultPage) {
      r = TranslationResult.fault(Status.TRANSLATION_FAULT);
    }
    TranslationResult result = r;
    scheduler.scheduleAfter(1000, (now, x, y) -> listener.onTranslated(now, result.status(),
        result.physicalAddress(), result.contiguousBytes(), ref, arg), null, 0);
  }

  @Override
  public TranslationResult translateNow(int mdh, long offset, int length, AccessKind access, int ptag, int pkey) {
    TranslationResult r = flat.translateNow(mdh, offset, length, access, ptag, pkey);
    if (!r.ok()) {
      return r;
    }
    int toPageEnd = (int) Math.min(length, 4096 - (offset & 4095));
    return new TranslationResult(Status.OK, r.physicalAddress(), toPageEnd);
  }
}
