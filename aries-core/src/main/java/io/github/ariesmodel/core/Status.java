package io.github.ariesmodel.core;

/**
 * Outcome of a modelled hardware operation: a translation, a request at the target NIC, a whole transaction. Every
 * value but {@link #OK} is a fault the hardware reports in a response or completion event; none is an exception, and
 * a faulting operation touches no memory. The names follow the checks the Aries NAT and IOMMU make (aries-facts §4)
 * and uGNI's error classes (§5).
 */
public enum Status {
  /** Completed normally. */
  OK,
  /** The MDH selects no valid memory domain (never registered, or deregistered: stale). */
  INVALID_MDH,
  /** Offset + length runs past the registered range. */
  OUT_OF_BOUNDS,
  /** A write or AMO to a domain registered read-only. */
  NOT_WRITABLE,
  /** The request's protection tag/key does not match the domain's. */
  PROTECTION_VIOLATION,
  /** The page table has no present entry for the address. */
  TRANSLATION_FAULT,
  /** The address is not aligned as the operation requires (AMO natural alignment). */
  MISALIGNED,
  /** The length is not one the operation accepts. */
  BAD_LENGTH,
  /** The operation code is not one the unit executes. */
  ILLEGAL_OPERATION;

  /** Whether this is a fault. @return true for every value but OK */
  public boolean isError() {
    return this != OK;
  }
}
