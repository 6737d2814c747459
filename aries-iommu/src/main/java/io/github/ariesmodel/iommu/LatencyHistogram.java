package io.github.ariesmodel.iommu;

import org.HdrHistogram.Histogram;

/**
 * A snapshot of translation latencies, picoseconds, kept to three significant digits: what {@link
 * TranslationStatistics#latencyPs()} gives. Immutable. It keeps its values in an HdrHistogram of its own, which is not
 * part of the API (until stop 74 the statistics handed out the mutable {@code org.HdrHistogram.Histogram} itself, so
 * a user's code depended on that library's types and could change a snapshot).
 */
public final class LatencyHistogram {

  /** Significant digits kept (HdrHistogram's precision: a value is recorded within 0.1 % of itself). */
  static final int DIGITS = 3;

  private final Histogram values;

  /**
   * Takes {@code h} as it is, not a copy: its callers ({@link #of}, the IOMMU's snapshot) make it for this snapshot
   * alone and never touch it again.
   */
  LatencyHistogram(Histogram h) {
    this.values = h;
  }

  /**
   * A histogram of the latencies given, for example to build {@link TranslationStatistics} in a test.
   *
   * @param latenciesPs each latency, picoseconds, at least 0
   * @return the histogram
   * @throws IllegalArgumentException when the array is null or a latency is negative
   */
  public static LatencyHistogram of(long... latenciesPs) {
    if (latenciesPs == null) {
      throw new IllegalArgumentException("latenciesPs must not be null");
    }
    Histogram h = new Histogram(DIGITS);
    for (int i = 0; i < latenciesPs.length; i++) {
      if (latenciesPs[i] < 0) {
        throw new IllegalArgumentException("latenciesPs[" + i + "] must be >= 0 but was " + latenciesPs[i]);
      }
      h.recordValue(latenciesPs[i]);
    }
    return new LatencyHistogram(h);
  }

  /** @return latencies recorded */
  public long count() {
    return values.getTotalCount();
  }

  /**
   * @param percentile 0..100 (NaN is refused)
   * @return the latency at that percentile, picoseconds (within 0.1 %), or 0 when nothing was recorded
   */
  public long percentilePs(double percentile) {
    if (!(percentile >= 0 && percentile <= 100)) { // NaN too
      throw new IllegalArgumentException("percentile must be in [0, 100] but was " + percentile);
    }
    return count() == 0 ? 0 : values.getValueAtPercentile(percentile);
  }

  /** @return the largest latency, picoseconds (within 0.1 %), or 0 when nothing was recorded */
  public long maxPs() {
    return count() == 0 ? 0 : values.getMaxValue();
  }

  /** @return the smallest latency, picoseconds (within 0.1 %), or 0 when nothing was recorded */
  public long minPs() {
    return count() == 0 ? 0 : values.getMinValue();
  }

  /** @return the mean of the recorded values as kept (within 0.1 % of the true mean), or 0 when none */
  public double meanPs() {
    return count() == 0 ? 0 : values.getMean();
  }

  /** Equal when both hold the same counts at the same values. */
  @Override
  public boolean equals(Object o) {
    return o instanceof LatencyHistogram other && values.equals(other.values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  /** @return for example {@code count=2 p50=10000 p99=200000 max=200000 (ps)} */
  @Override
  public String toString() {
    return "count=" + count() + " p50=" + percentilePs(50) + " p99=" + percentilePs(99) + " max=" + maxPs() + " (ps)";
  }
}
