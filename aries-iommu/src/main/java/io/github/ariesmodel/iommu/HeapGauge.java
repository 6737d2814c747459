package io.github.ariesmodel.iommu;

/**
 * How much Java heap the JVM has left, for {@link Iommu}'s check that a registration's page tables fit the heap
 * before it builds them. An interface so that tests can stand in for the JVM; {@link #RUNTIME} is the JVM's.
 */
@FunctionalInterface
interface HeapGauge {

  /**
   * The JVM's heap: {@code Runtime.maxMemory()} less the heap in use. Garbage counts as in use until it is
   * collected, and the JVM collects before it gives up with an {@link OutOfMemoryError}, so a shortfall is measured
   * again after asking for a collection ({@link System#gc()}): without that, a heap full of garbage would refuse a
   * registration the JVM could hold. Only a call about to report a shortfall pays for the collection, and a
   * registration that large would have made the JVM collect anyway. (With {@code -XX:+DisableExplicitGC} the request
   * does nothing, and garbage not yet collected counts as in use.)
   */
  HeapGauge RUNTIME = needed -> {
    long left = runtimeBytesLeft();
    if (left < needed) {
      System.gc();
      left = runtimeBytesLeft();
    }
    return left;
  };

  /**
   * Bytes of heap left.
   *
   * @param needed bytes the caller is about to take: a gauge may measure more carefully when fewer are left
   * @return bytes of heap the JVM can still give
   */
  long bytesLeft(long needed);

  /** @return {@code Runtime.maxMemory()} less the heap in use now, garbage included */
  static long runtimeBytesLeft() {
    Runtime rt = Runtime.getRuntime();
    return rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
  }
}
