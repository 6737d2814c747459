package io.github.ariesmodel.core.sim;

/**
 * How much Java heap the JVM has left, for checks that refuse what the heap cannot hold before any of it is made
 * (the IOMMU's page tables, a partitioned engine's groups).
 */
public final class JavaHeap {

  private JavaHeap() {}

  /**
   * The JVM's heap: {@code Runtime.maxMemory()} less the heap in use. Garbage counts as in use until it is collected,
   * and the JVM collects before it gives up with an {@link OutOfMemoryError}, so a shortfall is measured again after
   * asking for a collection ({@link System#gc()}): without that, a heap full of garbage would refuse what the JVM
   * could hold. Only a call about to report a shortfall pays for the collection. (With {@code
   * -XX:+DisableExplicitGC} the request does nothing, and garbage not yet collected counts as in use.)
   *
   * @param needed bytes the caller is about to take: the heap is measured more carefully when fewer are left
   * @return bytes of heap the JVM can still give
   */
  public static long bytesLeft(long needed) {
    long left = inUseLeft();
    if (left < needed) {
      System.gc();
      left = inUseLeft();
    }
    return left;
  }

  /** @return {@code Runtime.maxMemory()} less the heap in use now, garbage included */
  private static long inUseLeft() {
    Runtime rt = Runtime.getRuntime();
    return rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
  }
}
