package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.iommu.Iommu;
import io.github.ariesmodel.system.AriesSystem;

/**
 * Whether a table registered on a node fits the node's memory, checked before anything runs so that a table too
 * large is refused naming the parameter, the largest table that fits and the value (instead of the simulation failing
 * with "physical memory exhausted"). A workload's job is built on a fresh system, whose nodes' memories hand out
 * allocations one after another (nothing was given back there); a table takes:
 *
 * <ul>
 *   <li>room for the SHMEM runtime's own reservations, {@link #RUNTIME_RESERVE} (assumed; about 1 MiB measured),
 *       made before the table, after which the table's frames start at the next page boundary;
 *   <li>its frames, whole pages;
 *   <li>its page tables in 4 KB tables: a leaf PTE (8 bytes) per page and, for 4 KB pages, a directory entry per 512
 *       pages, as aries-iommu lays them out ({@link Iommu#largestLength} is asked, not repeated here).
 * </ul>
 */
final class TableMemory {

  /**
   * Memory per node kept for the SHMEM runtime when checking a table's size (assumed; ~1 MiB used today). It also
   * covers what a table registered in its translation context's tables needs beyond {@link Iommu#largestLength}: one
   * leaf table, and the root tables of the runtime's context and of the table's page size, at most 4 MiB each (a
   * context's space is at most 2^40 bytes).
   */
  static final long RUNTIME_RESERVE = 16L << 20;

  private TableMemory() {}

  /**
   * Checks that a table fits a node's memory with pages of one size.
   *
   * @param system the system (its node memory)
   * @param parameter the parameter that sets the table's size, for the message
   * @param tableBytes the table's size
   * @param pageSize the page size it is registered with
   * @throws IllegalArgumentException naming the parameter, the largest table that fits and the value
   */
  static void check(AriesSystem system, String parameter, long tableBytes, PageSize pageSize) {
    long memory = system.nodeMemoryBytes();
    if (fits(tableBytes, pageSize, memory)) {
      return;
    }
    long max = largest(pageSize, memory);
    throw new IllegalArgumentException(parameter + " must fit a node's memory: at most " + max + " bytes with "
        + pageSize + " pages (node memory " + memory + " less " + RUNTIME_RESERVE + " for the SHMEM runtime, page"
        + " alignment and page tables) but was " + tableBytes);
  }

  /** Whether a table of {@code bytes} fits in {@code memory} with pages of {@code ps}. */
  static boolean fits(long bytes, PageSize ps, long memory) {
    return bytes < 1 || bytes <= largest(ps, memory);
  }

  /**
   * The largest table that fits (0 when none does): what the IOMMU can register in the memory left after the
   * runtime's reserve, aligned up to the page size ({@link Iommu#largestLength}, the IOMMU's own layout).
   */
  static long largest(PageSize ps, long memory) {
    long before = ps.alignUp(RUNTIME_RESERVE);
    return before > memory ? 0 : Iommu.largestLength(ps, memory - before);
  }
}
