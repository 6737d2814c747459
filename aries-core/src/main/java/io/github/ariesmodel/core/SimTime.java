package io.github.ariesmodel.core;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Simulated time is a {@code long} of picoseconds everywhere in the model (a 14 Gb/s lane moves a bit in about
 * 71 ps; 2^63 ps is about 106 days). These helpers convert units and compute serialization delays.
 */
public final class SimTime {

  /** Picoseconds per nanosecond. */
  public static final long PS_PER_NS = 1_000L;
  /** Picoseconds per microsecond. */
  public static final long PS_PER_US = 1_000_000L;
  /** Picoseconds per millisecond. */
  public static final long PS_PER_MS = 1_000_000_000L;
  /** Picoseconds per second. */
  public static final long PS_PER_S = 1_000_000_000_000L;

  private SimTime() {}

  /** @param ns nanoseconds @return picoseconds, rounded to the nearest */
  public static long ns(double ns) {
    return Math.round(ns * PS_PER_NS);
  }

  /** @param us microseconds @return picoseconds, rounded to the nearest */
  public static long us(double us) {
    return Math.round(us * PS_PER_US);
  }

  /** @param ps picoseconds @return nanoseconds */
  public static double toNs(long ps) {
    return ps / (double) PS_PER_NS;
  }

  /** @param ps picoseconds @return microseconds */
  public static double toUs(long ps) {
    return ps / (double) PS_PER_US;
  }

  /** @param ps picoseconds @return seconds */
  public static double toSeconds(long ps) {
    return ps / (double) PS_PER_S;
  }

  /**
   * Picoseconds to move {@code bytes} at {@code bytesPerSecond}, rounded up so that back-to-back transfers never
   * exceed the rate.
   *
   * @param bytes bytes, ≥ 0
   * @param bytesPerSecond rate, > 0
   * @return the serialization delay
   */
  public static long serializationPs(long bytes, double bytesPerSecond) {
    checkArgument(bytes >= 0, "bytes must be >= 0 but was %s", bytes);
    checkArgument(bytesPerSecond > 0, "bytesPerSecond must be > 0 but was %s", bytesPerSecond);
    return (long) Math.ceil(bytes * (PS_PER_S / bytesPerSecond));
  }

  /**
   * Picoseconds per clock cycle at a frequency.
   *
   * @param hertz clock frequency, > 0
   * @return cycle time in picoseconds (1250 at 800 MHz)
   */
  public static long cyclePs(double hertz) {
    checkArgument(hertz > 0, "hertz must be > 0 but was %s", hertz);
    return Math.round(PS_PER_S / hertz);
  }
}
