package io.github.ariesmodel.nic;

import static com.google.common.base.Preconditions.checkArgument;

import io.github.ariesmodel.core.SimTime;

/**
 * Timing of one Aries NIC and its host interface. Every figure is either published (source key from
 * aries-facts.md), derived from published figures, or assumed by this model; each component says which.
 *
 * <table>
 *   <caption>Defaults</caption>
 *   <tr><th>component</th><th>default</th><th>source</th></tr>
 *   <tr><td>{@code clockHz}</td><td>800 MHz</td><td>[S2 via S1]</td></tr>
 *   <tr><td>{@code packetCycles}</td><td>5 cycles per 64-byte request (10.24 GB/s peak)</td><td>[S2 via S1]</td></tr>
 *   <tr><td>{@code hostBytesPerSecond}</td><td>16 GB/s per direction (PCIe Gen3 x16)</td><td>[S3 via S1]</td></tr>
 *   <tr><td>{@code hostLatencyPs}</td><td>250 ns one way (a posted write host → NIC or NIC → host)</td>
 *       <td>assumed</td></tr>
 *   <tr><td>{@code hostReadLatencyPs}</td><td>500 ns (a read round trip over PCIe)</td>
 *       <td>derived: 2 × hostLatencyPs</td></tr>
 *   <tr><td>{@code txPipelineCycles}</td><td>40 cycles (50 ns) from issue to injection</td><td>assumed</td></tr>
 *   <tr><td>{@code rxPipelineCycles}</td><td>40 cycles (50 ns) from ejection to the memory access</td>
 *       <td>assumed</td></tr>
 *   <tr><td>{@code amoUnitCycles}</td><td>8 cycles (10 ns) in the AMO unit, on top of the host read</td>
 *       <td>assumed</td></tr>
 * </table>
 *
 * <p>The assumed latencies are calibrated, not measured: over a zero-latency ideal fabric the NIC pair takes about
 * 0.6 µs for an 8-byte put (post → data visible at the target), which leaves about 0.2 µs of the published 0.8 µs
 * end-to-end put [S3 via S1] to two router hops of about 100 ns each [S3 via S1]. See docs/nic.md for the measured
 * figure.
 *
 * @param clockHz NIC core clock, hertz
 * @param packetCycles cycles each pipeline (request issue, request receive, response receive) spends per packet
 * @param hostBytesPerSecond host interface bandwidth per direction
 * @param hostLatencyPs one-way host interface latency (doorbell and data writes, event writes, DMA writes)
 * @param hostReadLatencyPs round-trip latency of a NIC read of host memory (BTE source data, GET data, AMO operand)
 * @param txPipelineCycles cycles from issuing a request to offering it to the fabric
 * @param rxPipelineCycles cycles from a packet's ejection to its translation and memory access
 * @param amoUnitCycles cycles the AMO unit adds to the host read-modify-write of an AMO
 */
public record NicTiming(
    double clockHz,
    int packetCycles,
    double hostBytesPerSecond,
    long hostLatencyPs,
    long hostReadLatencyPs,
    int txPipelineCycles,
    int rxPipelineCycles,
    int amoUnitCycles) {

  /** Validates the fields: rates and the clock positive, cycle counts and latencies non-negative. */
  public NicTiming {
    checkArgument(clockHz > 0 && Double.isFinite(clockHz), "clockHz must be > 0 and finite but was %s", clockHz);
    checkArgument(packetCycles >= 1, "packetCycles must be >= 1 but was %s", packetCycles);
    checkArgument(hostBytesPerSecond > 0, "hostBytesPerSecond must be > 0 but was %s", hostBytesPerSecond);
    checkArgument(hostLatencyPs >= 0, "hostLatencyPs must be >= 0 but was %s", hostLatencyPs);
    checkArgument(hostReadLatencyPs >= 0, "hostReadLatencyPs must be >= 0 but was %s", hostReadLatencyPs);
    checkArgument(txPipelineCycles >= 0, "txPipelineCycles must be >= 0 but was %s", txPipelineCycles);
    checkArgument(rxPipelineCycles >= 0, "rxPipelineCycles must be >= 0 but was %s", rxPipelineCycles);
    checkArgument(amoUnitCycles >= 0, "amoUnitCycles must be >= 0 but was %s", amoUnitCycles);
  }

  /**
   * The documented defaults (see the class javadoc for their sources).
   *
   * @return the default timing
   */
  public static NicTiming defaults() {
    return new NicTiming(800e6, 5, 16e9, SimTime.ns(250), SimTime.ns(500), 40, 40, 8);
  }

  /**
   * A timing in which everything takes no time: for functional tests that want to ignore time.
   *
   * @return zero latencies, one cycle per packet at an 800 MHz clock, infinite host bandwidth
   */
  public static NicTiming untimed() {
    return new NicTiming(800e6, 1, Double.POSITIVE_INFINITY, 0, 0, 0, 0, 0);
  }

  /** @return one NIC clock cycle, picoseconds (1,250 at 800 MHz) */
  public long cyclePs() {
    return SimTime.cyclePs(clockHz);
  }

  /** @return the peak request rate's payload bandwidth: 64 bytes per {@code packetCycles}, bytes per second */
  public double peakBytesPerSecond() {
    return 64.0 * clockHz / packetCycles;
  }

  /** @param ps one-way host latency @return a copy with it */
  public NicTiming withHostLatencyPs(long ps) {
    return new NicTiming(clockHz, packetCycles, hostBytesPerSecond, ps, hostReadLatencyPs, txPipelineCycles,
        rxPipelineCycles, amoUnitCycles);
  }

  /** @param ps host read round-trip latency @return a copy with it */
  public NicTiming withHostReadLatencyPs(long ps) {
    return new NicTiming(clockHz, packetCycles, hostBytesPerSecond, hostLatencyPs, ps, txPipelineCycles,
        rxPipelineCycles, amoUnitCycles);
  }

  /** @param tx transmit pipeline cycles @param rx receive pipeline cycles @return a copy with them */
  public NicTiming withPipelineCycles(int tx, int rx) {
    return new NicTiming(clockHz, packetCycles, hostBytesPerSecond, hostLatencyPs, hostReadLatencyPs, tx, rx,
        amoUnitCycles);
  }
}
