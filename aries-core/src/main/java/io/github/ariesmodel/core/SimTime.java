package io.github.ariesmodel.core;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Simulated time is a {@code long} of picoseconds everywhere in the model (a 14 Gb/s lane moves a bit in about
 * 71 ps; 2^63 ps is about 106 days). These helpers convert units and compute serialization delays.
 *
 * <p>Every conversion to picoseconds either returns a value inside the clock or fails with an {@link
 * IllegalArgumentException} naming the parameter, its range and the value: NaN, an infinity or a result beyond
 * {@code Long.MAX_VALUE} ps is refused, never rounded or saturated silently.
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

  /**
   * The longest latency the model's builders accept, 1 ms (10^9 ps; assumed): beyond it a value is a unit mistake,
   * and sums of latencies along a run must stay inside the clock. The router fabric, the dragonfly topologies, the
   * IOMMU and the system builder share it.
   */
  public static final long MAX_LATENCY_PS = PS_PER_MS;

  /**
   * The slowest transfer rate the model's components accept, bytes per second: 84,000, at which the largest packet
   * (84 wire bytes, a 64-byte PUT request) takes exactly {@link #MAX_LATENCY_PS} (derived: 84 × 10^12 / 10^9). The
   * router fabric's links, the NIC's host interface and FMA window, and the ideal fabric share it.
   */
  public static final double MIN_BYTES_PER_SECOND = 84_000;

  /**
   * The fastest finite transfer rate accepted, bytes per second: 10^12, one byte a picosecond, the clock's unit
   * (derived; above it a packet's serialization rounds to whole picoseconds too coarsely, see the router fabric's
   * {@code MAX_BANDWIDTH}).
   */
  public static final double MAX_BYTES_PER_SECOND = 1e12;

  /**
   * Checks a latency a component is configured with.
   *
   * @param name the parameter, for the message
   * @param ps the latency
   * @throws IllegalArgumentException naming {@code name}, the range [0, {@link #MAX_LATENCY_PS}] and the value
   */
  public static void checkLatency(String name, long ps) {
    if (ps < 0 || ps > MAX_LATENCY_PS) {
      throw new IllegalArgumentException(name + " must be in [0, 1e9] ps (1 ms) but was " + ps);
    }
  }

  /**
   * Checks a transfer rate a component is configured with.
   *
   * @param name the parameter, for the message
   * @param bytesPerSecond the rate, in [{@link #MIN_BYTES_PER_SECOND}, {@link #MAX_BYTES_PER_SECOND}], or {@link
   *     Double#POSITIVE_INFINITY} when {@code infiniteAllowed} (no serialization time)
   * @param infiniteAllowed whether the component takes an infinite rate
   * @throws IllegalArgumentException naming {@code name}, the range and the value (NaN included)
   */
  public static void checkRate(String name, double bytesPerSecond, boolean infiniteAllowed) {
    boolean ok = (bytesPerSecond >= MIN_BYTES_PER_SECOND && bytesPerSecond <= MAX_BYTES_PER_SECOND)
        || (infiniteAllowed && bytesPerSecond == Double.POSITIVE_INFINITY);
    if (!ok) {
      throw new IllegalArgumentException(name + " must be in [84000, 1e12] bytes/s"
          + (infiniteAllowed ? " or Infinity (no serialization time)" : "") + " but was " + bytesPerSecond);
    }
  }

  /** 2^63: the first picosecond count a {@code long} cannot hold. */
  private static final double CLOCK_LIMIT = 0x1p63;
  /** The largest clock frequency whose cycle rounds to at least 1 ps: 2 THz. */
  private static final double MAX_HERTZ = 2e12;

  private SimTime() {}

  /**
   * Nanoseconds to picoseconds.
   *
   * @param ns nanoseconds, finite and of magnitude below 2^63 / 1000 (about 9.22e15, the picoseconds a {@code long}
   *     holds); negative durations are accepted
   * @return picoseconds, rounded to the nearest
   * @throws IllegalArgumentException for NaN, an infinity or a value whose picoseconds do not fit a {@code long}
   */
  public static long ns(double ns) {
    return toPs("ns", ns, PS_PER_NS);
  }

  /**
   * Microseconds to picoseconds.
   *
   * @param us microseconds, finite and of magnitude below 2^63 / 10^6 (about 9.22e12, the picoseconds a {@code long}
   *     holds); negative durations are accepted
   * @return picoseconds, rounded to the nearest
   * @throws IllegalArgumentException for NaN, an infinity or a value whose picoseconds do not fit a {@code long}
   */
  public static long us(double us) {
    return toPs("us", us, PS_PER_US);
  }

  /** {@code value × psPerUnit} rounded; refused when NaN or of magnitude 2^63 or more (Math.round saturates). */
  private static long toPs(String name, double value, long psPerUnit) {
    double ps = value * psPerUnit;
    if (!(Math.abs(ps) < CLOCK_LIMIT)) {
      double bound = CLOCK_LIMIT / psPerUnit;
      throw new IllegalArgumentException(name + " must be a finite number in (-" + bound + ", " + bound
          + ") (its picoseconds must fit a long) but was " + value);
    }
    return Math.round(ps);
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
   * exceed the rate. An infinite rate serializes in no time (as {@link
   * io.github.ariesmodel.core.sim.SerialChannel#psPerByte} has it); zero bytes take no time at any rate.
   *
   * @param bytes bytes, ≥ 0
   * @param bytesPerSecond rate, &gt; 0 ({@link Double#POSITIVE_INFINITY}: no serialization time)
   * @return the serialization delay, at most {@code Long.MAX_VALUE}
   * @throws IllegalArgumentException for negative bytes, a rate that is NaN or not positive, or a delay beyond
   *     {@code Long.MAX_VALUE} ps (a rate so small that the transfer outlasts the clock)
   */
  public static long serializationPs(long bytes, double bytesPerSecond) {
    checkArgument(bytes >= 0, "bytes must be >= 0 but was %s", bytes);
    checkArgument(bytesPerSecond > 0, "bytesPerSecond must be > 0 (infinite for none) but was %s", bytesPerSecond);
    if (bytes == 0 || bytesPerSecond == Double.POSITIVE_INFINITY) {
      return 0;
    }
    double ps = Math.ceil(bytes * (PS_PER_S / bytesPerSecond));
    if (!(ps < CLOCK_LIMIT)) {
      throw new IllegalArgumentException("bytesPerSecond must be above " + (bytes * (PS_PER_S / CLOCK_LIMIT))
          + " for " + bytes + " bytes (a delay that fits a long of picoseconds) but was " + bytesPerSecond);
    }
    return (long) ps;
  }

  /**
   * Picoseconds per clock cycle at a frequency.
   *
   * @param hertz clock frequency, finite, in ({@code 1e12 / 2^63} (about 1.08e-7), 2e12]: the cycle rounds to
   *     between 1 ps and {@code Long.MAX_VALUE} ps
   * @return cycle time in picoseconds (1250 at 800 MHz)
   * @throws IllegalArgumentException for NaN, an infinity or a frequency outside that range (a cycle that would
   *     round to 0 ps or not fit a {@code long})
   */
  public static long cyclePs(double hertz) {
    double ps = PS_PER_S / hertz;
    if (!(hertz > 0 && hertz <= MAX_HERTZ && ps < CLOCK_LIMIT)) {
      throw new IllegalArgumentException("hertz must be in (" + (PS_PER_S / CLOCK_LIMIT) + ", " + MAX_HERTZ
          + "] (a cycle of 1 ps to Long.MAX_VALUE ps) but was " + hertz);
    }
    return Math.round(ps);
  }
}
