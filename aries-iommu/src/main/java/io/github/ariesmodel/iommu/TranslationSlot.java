package io.github.ariesmodel.iommu;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationListener;

/**
 * One translation request, from the moment it is asked for until its completion event: the request as the NIC gave it,
 * the state of its page-table walk, and the outcome. Models a request-tracking entry of the IOMMU's miss pipeline
 * (aries-facts §4 [S6c]: up to 32 requests in flight). Slots are pooled by {@link MissPipeline} and reused, so the
 * steady state allocates nothing.
 *
 * <p>Plain mutable fields, package-private: this is the pipeline's working record, not an API.
 */
final class TranslationSlot {

  /** The level of the page table a walk is at. */
  enum Level {
    /** The directory of a two-level (4 KB pages) table. */
    DIRECTORY,
    /** A leaf table (the only level for huge pages). */
    LEAF
  }

  // The request.
  TranslationClient client;
  int mdh;
  long offset;
  int length;
  boolean write;
  /** {@link Status#OK}, or the fault the MDD checks found before the request entered the pipeline. */
  Status preCheck;
  /**
   * The registration the request named, as it was when the request entered the pipeline (null if none): a walk or a
   * completion after the MDH was deregistered (or handed to a newer registration) fails {@link
   * Status#INVALID_MDH} instead of reaching the memory that now sits at those IO-virtual addresses.
   */
  MemoryDomainDescriptor descriptor;
  TranslationListener listener;
  Object ref;
  long arg;
  long startPs;

  // The walk.
  Level level;
  boolean twoLevel;
  /** The page the walk translates, counted in the registration's tables: its first page plus the relative page. */
  long relativePage;
  long pageOffset;
  /** Physical address of the PTE line the walk needs next. */
  long line;
  /** Index of the needed PTE inside that line. */
  int pteIndex;
  /** Next request waiting on the same fetch buffer, or null. */
  TranslationSlot nextWaiter;

  // How it went, for the statistics.
  boolean walked;
  boolean fetched;
  boolean waited;
  /** Bit {@code 1 << StallCause.ordinal()} set for each cause already counted since it entered the pipeline. */
  int stallMask;

  // The outcome.
  Status status;
  long physical;
  int contiguous;

  /** Drops the references a finished or abandoned request holds, so a pooled slot keeps no caller object alive. */
  void release() {
    listener = null;
    descriptor = null;
    ref = null;
    nextWaiter = null;
  }
}
