package io.github.ariesmodel.iommu;

import io.github.ariesmodel.iommu.spi.ReplacementPolicy;

/**
 * True least-recently-used replacement: each line carries the value of a counter at its last use; the victim is the
 * candidate with the smallest. Exact LRU, which is what the reference model in the tests keeps as per-set lists.
 */
final class LruPolicy implements ReplacementPolicy {

  private final int ways;
  private final long[] lastUse;
  private long clock;

  LruPolicy(int sets, int ways) {
    this.ways = ways;
    this.lastUse = new long[sets * ways];
  }

  @Override
  public void onAccess(int set, int way) {
    lastUse[set * ways + way] = ++clock;
  }

  @Override
  public void onFill(int set, int way) {
    lastUse[set * ways + way] = ++clock;
  }

  @Override
  public void onInvalidate(int set, int way) {
    lastUse[set * ways + way] = 0;
  }

  @Override
  public int victim(int set, long candidates) {
    int base = set * ways;
    int best = -1;
    long bestUse = Long.MAX_VALUE;
    for (long c = candidates; c != 0; c &= c - 1) {
      int w = Long.numberOfTrailingZeros(c);
      long u = lastUse[base + w];
      if (u < bestUse) {
        bestUse = u;
        best = w;
      }
    }
    return best;
  }
}
