package io.github.ariesmodel.core;

/** What an access does to memory, which decides the permission it needs. */
public enum AccessKind {
  /** Reads memory (GET at the target, a NIC-generated local read of PUT source data). */
  READ,
  /** Writes memory (PUT at the target, GET data arriving at the initiator, a completion-event write). */
  WRITE,
  /** Reads and writes atomically (AMO); needs a writable domain. */
  ATOMIC;

  /** Whether the access needs a writable memory domain. @return true for WRITE and ATOMIC */
  public boolean needsWritable() {
    return this != READ;
  }
}
