package io.github.ariesmodel.iommu;

import io.github.ariesmodel.iommu.spi.ReplacementPolicy;

/**
 * Tree pseudo-LRU, as set-associative hardware caches commonly implement it: ways − 1 bits per set form a binary
 * tree; a use points every node on the way's path away from it; the victim follows the pointers. When the subtree a
 * pointer names holds no candidate (its ways are pending), the walk takes the other side. Needs a power-of-two number
 * of ways.
 */
final class TreePseudoLruPolicy implements ReplacementPolicy {

  private final int ways;
  private final int levels;
  private final long[] bits;

  TreePseudoLruPolicy(int sets, int ways) {
    if (Integer.bitCount(ways) != 1) {
      throw new IllegalArgumentException(
          "ways must be a power of two in [1, 64] for pseudo-LRU but was " + ways);
    }
    this.ways = ways;
    this.levels = Integer.numberOfTrailingZeros(ways);
    this.bits = new long[sets];
  }

  @Override
  public void onAccess(int set, int way) {
    touch(set, way);
  }

  @Override
  public void onFill(int set, int way) {
    touch(set, way);
  }

  @Override
  public void onInvalidate(int set, int way) {
    // Point the path at the freed way so that it is the next victim if it ever becomes a candidate unused.
    long b = bits[set];
    int node = 1;
    for (int level = levels - 1; level >= 0; level--) {
      int right = (way >>> level) & 1;
      b = right == 1 ? b | (1L << node) : b & ~(1L << node);
      node = 2 * node + right;
    }
    bits[set] = b;
  }

  private void touch(int set, int way) {
    long b = bits[set];
    int node = 1;
    for (int level = levels - 1; level >= 0; level--) {
      int right = (way >>> level) & 1;
      // bit = 1 means "the victim is on the right"; point away from the used way.
      b = right == 1 ? b & ~(1L << node) : b | (1L << node);
      node = 2 * node + right;
    }
    bits[set] = b;
  }

  @Override
  public int victim(int set, long candidates) {
    long b = bits[set];
    int node = 1;
    int lo = 0;
    int span = ways;
    for (int level = levels - 1; level >= 0; level--) {
      span >>>= 1;
      boolean right = (b & (1L << node)) != 0;
      long rightMask = mask(lo + span, span);
      long leftMask = mask(lo, span);
      if (right ? (candidates & rightMask) == 0 : (candidates & leftMask) == 0) {
        right = !right;
      }
      if (right) {
        lo += span;
      }
      node = 2 * node + (right ? 1 : 0);
    }
    return lo;
  }

  private static long mask(int from, int count) {
    long m = count == 64 ? -1L : (1L << count) - 1;
    return m << from;
  }
}
