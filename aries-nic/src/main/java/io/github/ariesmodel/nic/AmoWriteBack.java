package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.Texts;
import java.util.Locale;

/**
 * When a dirty entry of the NIC's AMO cache is written back to host memory (docs/memory-hierarchy.md, "AMO cache").
 * A write-back is a posted 8-byte write of the entry's word; the host sees the cached AMOs' results only once it has
 * happened.
 */
public enum AmoWriteBack {
  /**
   * When the entry goes idle: the last cached AMO in flight on it has answered and no other waits for it (the default).
   * Derived from [S6d]: the AMO block has a write-back request queue, an {@code ordered_wait} option under which an
   * ordered request "waits until the cache is clean" (so the cache cleans itself without evictions) and LFSR-paced
   * "intra-chain memory updates (write backs)" (so a chain of AMOs on one word ends with its value in memory). The
   * entry stays valid (clean), so a later cached AMO on the word hits.
   */
  IDLE,
  /**
   * Only when the entry is evicted, snooped by another NIC access to its word, or invalidated: a what-if of a lazy
   * write-back cache. Until then host loads of the word see the value it had before the cached AMOs, and a cached
   * AMO's REMOTE event is not held for the value: it is booked at the AMO's answer, so it is visible while host memory
   * still holds the old word (a process woken by it reads the old value; {@code AmoSemanticsTest}). Under
   * {@link #IDLE} the event waits for the write-back.
   */
  EVICTION;

  /** @return the lower-case name used in settings ({@code idle}, {@code eviction}) */
  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Reads a name as {@link #toString()} writes it.
   *
   * @param text {@code idle} or {@code eviction} (case-insensitive)
   * @return the policy
   * @throws IllegalArgumentException naming the valid values and the text
   */
  public static AmoWriteBack parse(String text) {
    if (text != null) {
      for (AmoWriteBack w : values()) {
        if (w.toString().equals(text.trim().toLowerCase(Locale.ROOT))) {
          return w;
        }
      }
    }
    throw new IllegalArgumentException("amoCache.writeBack must be one of idle, eviction but was "
        + Texts.abbreviate(text));
  }
}
