package io.github.ariesmodel.core.sim;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.SimTime;

/**
 * A link that moves one transfer at a time at a fixed rate: a transfer starts when the link is free, holds it
 * for its serialization time, and arrives a fixed latency after its tail has left. The one model of a serial
 * channel in the project: the NIC's host links (node to NIC and NIC to node over PCIe), the router links and
 * the ideal fabric's injection all time transfers this way.
 *
 * <p>Serialization time is {@code ceil(bytes × psPerByte)} picoseconds with {@code psPerByte = 1e12 / rate};
 * an infinite rate serializes in no time. Components that keep many channels in arrays (the router fabric)
 * use the static {@link #serializationPs(long, double)} on their own busy-until arrays.
 *
 * <p>Not thread-safe; owned by the component whose events drive it.
 */
public final class SerialChannel {
  private final double psPerByte;
  private final long latencyPs;
  private long freeAtPs;

  private SerialChannel(double psPerByte, long latencyPs) {
    this.psPerByte = psPerByte;
    this.latencyPs = latencyPs;
  }

  /**
   * A channel of a given rate and latency.
   *
   * @param bytesPerSecond rate, in [{@link SimTime#MIN_BYTES_PER_SECOND}, {@link SimTime#MAX_BYTES_PER_SECOND}];
   *     {@code Double.POSITIVE_INFINITY} for a channel with no serialization time
   * @param latencyPs time from a transfer's tail leaving to its arrival, in [0, {@link SimTime#MAX_LATENCY_PS}]
   * @return an idle channel
   * @throws IllegalArgumentException for a rate or latency outside those ranges, naming it
   */
  public static SerialChannel of(double bytesPerSecond, long latencyPs) {
    SimTime.checkRate("bytesPerSecond", bytesPerSecond, true);
    SimTime.checkLatency("latencyPs", latencyPs);
    return new SerialChannel(psPerByte(bytesPerSecond), latencyPs);
  }

  /**
   * Picoseconds per byte at a rate.
   *
   * @param bytesPerSecond rate, > 0, may be infinite
   * @return {@code 1e12 / bytesPerSecond}, or 0 for an infinite rate
   */
  public static double psPerByte(double bytesPerSecond) {
    checkArgument(bytesPerSecond > 0, "bytesPerSecond must be > 0 but was %s", bytesPerSecond);
    return Double.isInfinite(bytesPerSecond) ? 0 : 1e12 / bytesPerSecond;
  }

  /**
   * Serialization time of a transfer.
   *
   * @param bytes bytes moved, ≥ 0
   * @param psPerByte picoseconds per byte, ≥ 0 (see {@link #psPerByte(double)})
   * @return {@code ceil(bytes × psPerByte)}
   * @throws IllegalArgumentException for negative bytes
   */
  public static long serializationPs(long bytes, double psPerByte) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must be >= 0 but was " + bytes);
    }
    return (long) Math.ceil(bytes * psPerByte);
  }

  /**
   * Serialization time of a transfer on this channel.
   *
   * @param bytes bytes moved, ≥ 0
   * @return picoseconds the transfer holds the channel
   */
  public long serializationPs(long bytes) {
    return serializationPs(bytes, psPerByte);
  }

  /**
   * Books a transfer: it starts at {@code max(now, free)} and holds the channel for its serialization time.
   *
   * @param nowPs the time the transfer is ready
   * @param bytes bytes moved, ≥ 0
   * @return when its tail has left (the channel is free again then)
   * @throws IllegalArgumentException for negative bytes, or a transfer whose arrival would pass the clock's end
   *     ({@code Long.MAX_VALUE} ps); the channel is unchanged
   */
  public long reserve(long nowPs, long bytes) {
    long start = Math.max(nowPs, freeAtPs);
    long end = start + serializationPs(bytes, psPerByte);
    if (end < start || end > Long.MAX_VALUE - latencyPs) {
      throw new IllegalArgumentException("bytes must be few enough to arrive within the clock (Long.MAX_VALUE ps)"
          + " but " + bytes + " bytes at " + psPerByte + " ps a byte, from " + start + " ps, with " + latencyPs
          + " ps of latency after, would not");
    }
    freeAtPs = end;
    return end;
  }

  /**
   * Books a transfer and returns its arrival: {@link #reserve} plus the channel's latency.
   *
   * @param nowPs the time the transfer is ready
   * @param bytes bytes moved, ≥ 0
   * @return when the transfer has arrived at the far end
   */
  public long deliver(long nowPs, long bytes) {
    return reserve(nowPs, bytes) + latencyPs;
  }

  /** @return when the channel is next free */
  public long freeAtPs() {
    return freeAtPs;
  }

  /** @return the latency after serialization, ps */
  public long latencyPs() {
    return latencyPs;
  }

  /** @return picoseconds per byte (0 for an infinite rate) */
  public double psPerByte() {
    return psPerByte;
  }

  @Override
  public String toString() {
    return "SerialChannel{psPerByte=" + psPerByte + ", latencyPs=" + latencyPs + ", freeAtPs=" + freeAtPs + "}";
  }
}
