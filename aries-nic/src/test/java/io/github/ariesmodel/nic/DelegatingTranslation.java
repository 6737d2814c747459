package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationListener;
import java.util.Optional;

/**
 * A test translation that hands every call to another (registrations, the untimed and the timed path; no hit fast
 * path, the port's default): the tests' translations that misbehave or count extend it and override the one call
 * they change.
 */
abstract class DelegatingTranslation implements AddressTranslation {

  /** The translation every call goes to unless overridden. */
  final AddressTranslation inner;

  DelegatingTranslation(AddressTranslation inner) {
    this.inner = inner;
  }

  @Override
  public MemoryDomainDescriptor register(MemoryRegistration registration) {
    return inner.register(registration);
  }

  @Override
  public void deregister(int mdh) {
    inner.deregister(mdh);
  }

  @Override
  public Optional<MemoryDomainDescriptor> descriptor(int mdh) {
    return inner.descriptor(mdh);
  }

  @Override
  public TranslationResult translateNow(int mdh, long offset, int length, AccessKind access, int ptag, int pkey) {
    return inner.translateNow(mdh, offset, length, access, ptag, pkey);
  }

  @Override
  public void translate(TranslationClient client, int mdh, long offset, int length, AccessKind access, int ptag,
      int pkey, TranslationListener listener, Object ref, long arg) {
    inner.translate(client, mdh, offset, length, access, ptag, pkey, listener, ref, arg);
  }
}
