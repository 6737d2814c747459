package io.github.ariesmodel.iommu;

import io.github.ariesmodel.core.sim.JavaHeap;

/**
 * How much Java heap the JVM has left, for {@link Iommu}'s check that a registration's page tables fit the heap
 * before it builds them. An interface so that tests can stand in for the JVM; {@link #RUNTIME} is the JVM's.
 */
@FunctionalInterface
interface HeapGauge {

  /**
   * The JVM's heap, measured again after a collection when short ({@link JavaHeap#bytesLeft}): a registration that
   * large would have made the JVM collect anyway.
   */
  HeapGauge RUNTIME = JavaHeap::bytesLeft;

  /**
   * Bytes of heap left.
   *
   * @param needed bytes the caller is about to take: a gauge may measure more carefully when fewer are left
   * @return bytes of heap the JVM can still give
   */
  long bytesLeft(long needed);
}
