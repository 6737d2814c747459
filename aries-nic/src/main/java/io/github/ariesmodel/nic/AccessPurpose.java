package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.AddressTranslation;
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

  AccessPurpose(AddressTranslation translation) {
    this.translation = translation;
  }

  /** Starts translating an access for this purpose. */
  final void start(MemoryAccess a) {
    translation.translate(a.client, a.mdh, a.offset + a.done, a.length - a.done, a.kind, a.ptag, a.pkey, this, a, 0);
  }

  @Override
  public final void onTranslated(long now, Status status, long pa, int contiguous, Object ref, long arg) {
    MemoryAccess a = (MemoryAccess) ref;
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
    a.addPart(pa, n);
    a.done += n;
    if (a.done < a.length) {
      start(a);
    } else {
      translated(now, a, Status.OK);
    }
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
