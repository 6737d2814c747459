package org.example.policy;

import io.github.ariesmodel.iommu.spi.ReplacementPolicy;

/**
 * First-in, first-out replacement for the IOMMU's PTE cache: the victim is the candidate filled longest ago, whatever
 * its use since. A user's policy: a class, a provider ({@link FifoProvider}) and a services file.
 */
public final class FifoPolicy implements ReplacementPolicy {

  private final int ways;
  /** When each way was filled, by a counter per policy; 0 for never. Indexed set × ways + way. */
  private final long[] filledAt;
  private long fills;

  /**
   * @param sets sets, ≥ 1
   * @param ways ways per set, 1 to 64
   */
  public FifoPolicy(int sets, int ways) {
    if (sets < 1 || ways < 1 || ways > 64) {
      throw new IllegalArgumentException("sets must be >= 1 and ways in [1, 64] but were " + sets + " and " + ways);
    }
    this.ways = ways;
    this.filledAt = new long[sets * ways];
  }

  @Override
  public void onAccess(int set, int way) {
    // FIFO ignores use.
  }

  @Override
  public void onFill(int set, int way) {
    filledAt[set * ways + way] = ++fills;
  }

  @Override
  public void onInvalidate(int set, int way) {
    filledAt[set * ways + way] = 0;
  }

  @Override
  public int victim(int set, long candidates) {
    int best = -1;
    long oldest = Long.MAX_VALUE;
    for (long c = candidates; c != 0; c &= c - 1) {
      int way = Long.numberOfTrailingZeros(c);
      long t = filledAt[set * ways + way];
      if (t < oldest) {
        oldest = t;
        best = way;
      }
    }
    return best;
  }
}
