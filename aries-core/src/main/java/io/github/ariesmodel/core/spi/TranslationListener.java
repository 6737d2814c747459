package io.github.ariesmodel.core.spi;

import io.github.ariesmodel.core.Status;

/**
 * Receives the outcome of a timed translation. The {@code ref} and {@code arg} given with the request come back
 * unchanged, so a caller needs no closure per translation.
 */
@FunctionalInterface
public interface TranslationListener {

  /**
   * Called once per translation, at the simulated time it completes.
   *
   * @param nowPs completion time, picoseconds
   * @param status OK or the modelled fault (then {@code physicalAddress} is meaningless and nothing may be touched)
   * @param physicalAddress physical address of the first byte
   * @param contiguousBytes bytes from {@code physicalAddress} that are physically contiguous: at least to the end of
   *     the registration's page or of the request, whichever is first, and at most to the end of the request (a
   *     translator whose frames run on past a page, such as the flat one, may report the whole request); the caller
   *     translates the rest separately
   * @param ref the object given with the request
   * @param arg the long given with the request
   */
  void onTranslated(long nowPs, Status status, long physicalAddress, int contiguousBytes, Object ref, long arg);
}
