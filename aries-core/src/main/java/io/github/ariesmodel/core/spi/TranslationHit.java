package io.github.ariesmodel.core.spi;

/**
 * Where {@link AddressTranslation#translateHit} puts a translation that completed at once as a cache hit: the
 * physical address of the first byte and the simulated time the translation completes. The request's whole range is
 * physically contiguous from there (a fast hit never covers only part of a request).
 *
 * <p>A caller keeps one instance and hands it to every call, so the fast path allocates nothing; its values are
 * meaningful only after a call that returned true, until the next call.
 */
public final class TranslationHit {
  private long physicalAddress;
  private long completesAtPs;

  /** An empty holder. */
  public TranslationHit() {}

  /**
   * Records a hit (called by the translator).
   *
   * @param physicalAddress physical address of the first byte
   * @param completesAtPs when the translation completes, picoseconds, ≥ the time it was asked for
   */
  public void set(long physicalAddress, long completesAtPs) {
    this.physicalAddress = physicalAddress;
    this.completesAtPs = completesAtPs;
  }

  /** @return physical address of the first byte of the request */
  public long physicalAddress() {
    return physicalAddress;
  }

  /** @return when the translation completes, picoseconds */
  public long completesAtPs() {
    return completesAtPs;
  }

  @Override
  public String toString() {
    return "TranslationHit[physicalAddress=0x" + Long.toHexString(physicalAddress) + ", completesAtPs="
        + completesAtPs + "]";
  }
}
