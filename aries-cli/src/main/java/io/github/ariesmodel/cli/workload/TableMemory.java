package io.github.ariesmodel.cli.workload;

import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.system.AriesSystem;

/**
 * Whether a table registered on a node fits the node's memory, checked before anything runs so that a table too
 * large is refused naming the parameter, the largest table that fits and the value (instead of the simulation failing
 * with "physical memory exhausted"). A node's memory is a bump allocator in the model; a table takes:
 *
 * <ul>
 *   <li>room for the SHMEM runtime's own reservations, {@link #RUNTIME_RESERVE} (assumed; about 1 MiB measured),
 *       made before the table, after which the table's frames start at the next page boundary;
 *   <li>its frames, whole pages;
 *   <li>its page tables in 4 KB tables: a leaf PTE (8 bytes) per page and, for 4 KB pages, a directory entry per 512
 *       pages (aries-iommu's page-table builder).
 * </ul>
 */
final class TableMemory {

  /** Memory per node kept for the SHMEM runtime when checking a table's size (assumed; ~1 MiB used today). */
  static final long RUNTIME_RESERVE = 16L << 20;

  private static final long TABLE_BYTES = 4096;

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
    if (bytes < 1) {
      return true;
    }
    long before = ps.alignUp(RUNTIME_RESERVE);
    if (before > memory) {
      return false;
    }
    long frames = ps.alignUp(bytes);
    if (frames <= 0 || frames > memory - before) {
      return false; // beyond the memory, or so large that aligning it overflowed
    }
    long pages = frames / ps.bytes();
    long tables = tableBytes(pages * 8);
    if (!ps.isHuge()) {
      tables += tableBytes(((pages + 511) / 512) * 8);
    }
    return tables <= memory - before - frames;
  }

  /** The largest table that fits (0 when none does), by bisection: {@link #fits} is monotonic in the size. */
  static long largest(PageSize ps, long memory) {
    long lo = 0;
    long hi = memory;
    while (lo < hi) {
      long mid = lo + (hi - lo + 1) / 2;
      if (fits(mid, ps, memory)) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  private static long tableBytes(long bytes) {
    return (bytes + TABLE_BYTES - 1) & -TABLE_BYTES;
  }
}
