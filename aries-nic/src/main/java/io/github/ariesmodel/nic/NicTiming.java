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
 *   <tr><td>{@code hostOverheadBytes}</td><td>24 bytes more on the host link for every PCIe transfer of up to 64
 *       bytes (a NIC read's request is a transfer of these bytes alone, on the NIC-to-host direction)</td><td>[S1
 *       p.21]: "PCI-Express overheads are 24 bytes on every transfer"; a transfer of at most 64 bytes because the NIC
 *       reads and writes host memory 64 bytes at a time [S1 p.21]; a read request of no data is derived (S1's
 *       overhead on a transfer that carries none)</td></tr>
 *   <tr><td>{@code hostLatencyPs}</td><td>250 ns one way (a posted write host → NIC or NIC → host)</td>
 *       <td>assumed</td></tr>
 *   <tr><td>{@code hostReadLatencyPs}</td><td>500 ns (a read round trip over PCIe)</td>
 *       <td>derived: 2 × hostLatencyPs (a separate setting: {@link #withHostLatencyPs} leaves it, so a study
 *       that changes the one-way latency sets this too; the IOMMU's PTE fetch, {@code IommuConfig}'s 500 ns, is the
 *       same round trip and is set apart as well)</td></tr>
 *   <tr><td>{@code txPipelineCycles}</td><td>40 cycles (50 ns) from issue to injection</td><td>assumed</td></tr>
 *   <tr><td>{@code rxPipelineCycles}</td><td>40 cycles (50 ns) from ejection to the memory access</td>
 *       <td>assumed</td></tr>
 *   <tr><td>{@code amoUnitCycles}</td><td>8 cycles (10 ns) in the AMO unit, on top of the host read</td>
 *       <td>assumed</td></tr>
 *   <tr><td>{@code fmaPostPs}</td><td>133.334 ns of CPU time per post (descriptor stores and the doorbell into
 *       the FMA window), one post at a time per FMA descriptor (a process's: {@code Nic.post(Post, int)}; one per NIC
 *       until stop 70)</td><td>derived from S1 p.23: "rates of up to 7.5 million requests per second per core have
 *       been measured", so one core's post takes at least 1 s / 7.5 M = 133.333 ns (rounded up to the picosecond).
 *       Until stop 70 an assumed 40 ns, which let one core post 22.7 M puts/s, three times any rate measured
 *       (docs/validation.md, "The CPU's cost of a post"). S1 Fig 11's 8-byte put latency (0.85 us) is the
 *       independent check (docs/calibration-sources.md row 18)</td></tr>
 *   <tr><td>{@code fmaStoreBytesPerSecond}</td><td>3.7 GB/s of PUT data stored by the CPU through the FMA
 *       window, charged per packet as a whole 64-byte line (17.3 ns), whatever its length</td><td>derived from
 *       Chapel's FMA-only PUT plateau, 3.7 GB/s (chapel #9678; calibration-sources row 3); the per-line charge is
 *       assumed (the CPU writes the FMA window a cache line at a time), so a short PUT pays a whole line</td></tr>
 *   <tr><td>{@code fmaGetRequestPs}</td><td>23.7 ns of CPU stores per 64-byte FMA GET request</td>
 *       <td>derived from Chapel's FMA-only GET plateau, 2.7 GB/s = 64 B / 23.7 ns (row 3)</td></tr>
 *   <tr><td>{@code bteReadsInFlight}</td><td>128 host reads (64 B each) in flight per BTE channel</td>
 *       <td>assumed (no published figure, row 17); at least 90 are needed to cover the 500 ns read round trip at
 *       10.2 GB/s, and one per channel gives the ~3 GB/s of Open MPI's serialized BTE (row 8)</td></tr>
 * </table>
 *
 * <p>The assumed latencies are calibrated, not measured: with the 40-ns post assumed until stop 70, the NIC pair over
 * a zero-latency ideal fabric took about 0.66 µs for an 8-byte put (post → data visible at the target), which left
 * about 0.14 µs of the published 0.8 µs end-to-end put [S3 via S1] to the router fabric. That put is therefore a
 * calibration target, not an independent check: `validate`'s {@code put8-nearest-latency} row reproduces it by
 * construction (docs/validation.md, "Calibration rows"). With the post derived from S1 p.23 (133.334 ns) and the
 * latencies not refitted, the NIC pair takes 755.1 ns (docs/nic.md) and the nearest put 0.867 µs: 1.02 of S1 Fig 11's
 * 0.85 µs, which the post's derivation did not use.
 *
 * @param clockHz NIC core clock, hertz
 * @param packetCycles cycles each pipeline (request issue, request receive, response receive) spends per packet
 * @param hostBytesPerSecond host interface bandwidth per direction
 * @param hostLatencyPs one-way host interface latency (doorbell and data writes, event writes, DMA writes)
 * @param hostReadLatencyPs round-trip latency of a NIC read of host memory (BTE source data, GET data, AMO operand)
 * @param txPipelineCycles cycles from issuing a request to offering it to the fabric
 * @param rxPipelineCycles cycles from a packet's ejection to its translation and memory access
 * @param amoUnitCycles cycles the AMO unit adds to the host read-modify-write of an AMO
 * @param fmaPostPs CPU time of one post (descriptor and doorbell stores); posts of one FMA descriptor (one process)
 *     take it one after another
 * @param fmaStoreBytesPerSecond rate at which the CPU stores FMA PUT data through the FMA window
 * @param fmaGetRequestPs CPU time per 64-byte FMA GET request
 * @param bteReadsInFlight host reads each BTE channel keeps in flight (a read's buffer frees when its packet is
 *     injected)
 * @param hostOverheadBytes bytes the host link carries beyond the data for each transfer of up to 64 bytes, and for
 *     each read request (0 gives a host link that carries data only, as before stop 65)
 */
public record NicTiming(
    double clockHz,
    int packetCycles,
    double hostBytesPerSecond,
    long hostLatencyPs,
    long hostReadLatencyPs,
    int txPipelineCycles,
    int rxPipelineCycles,
    int amoUnitCycles,
    long fmaPostPs,
    double fmaStoreBytesPerSecond,
    long fmaGetRequestPs,
    int bteReadsInFlight,
    int hostOverheadBytes) {

  /** Default CPU time per post, picoseconds (derived from S1 p.23's 7.5 M requests/s a core: class javadoc). */
  public static final long DEFAULT_FMA_POST_PS = 133_334;
  /** Default FMA store rate, bytes per second (derived: see the class javadoc). */
  public static final double DEFAULT_FMA_STORE_BYTES_PER_SECOND = 3.7e9;
  /** Default CPU time per FMA GET request, picoseconds (derived: 64 B / 2.7 GB/s). */
  public static final long DEFAULT_FMA_GET_REQUEST_PS = 23_700;
  /** Default host reads in flight per BTE channel (assumed: see the class javadoc). */
  public static final int DEFAULT_BTE_READS_IN_FLIGHT = 128;
  /** Default host link overhead per transfer, bytes ([S1 p.21]: see the class javadoc). */
  public static final int DEFAULT_HOST_OVERHEAD_BYTES = 24;
  /** Most host link overhead per transfer accepted, bytes (assumed bound: more is a unit mistake). */
  public static final int MAX_HOST_OVERHEAD_BYTES = 4_096;

  /**
   * A timing with the default host link overhead per transfer (the twelve components before stop 65).
   *
   * @param clockHz NIC core clock, hertz
   * @param packetCycles cycles per packet
   * @param hostBytesPerSecond host interface bandwidth per direction
   * @param hostLatencyPs one-way host interface latency
   * @param hostReadLatencyPs round-trip latency of a NIC read of host memory
   * @param txPipelineCycles cycles from issue to the fabric
   * @param rxPipelineCycles cycles from ejection to the memory access
   * @param amoUnitCycles AMO unit cycles
   * @param fmaPostPs CPU time of one post
   * @param fmaStoreBytesPerSecond rate at which the CPU stores FMA PUT data
   * @param fmaGetRequestPs CPU time per 64-byte FMA GET request
   * @param bteReadsInFlight host reads each BTE channel keeps in flight
   */
  public NicTiming(double clockHz, int packetCycles, double hostBytesPerSecond, long hostLatencyPs,
      long hostReadLatencyPs, int txPipelineCycles, int rxPipelineCycles, int amoUnitCycles, long fmaPostPs,
      double fmaStoreBytesPerSecond, long fmaGetRequestPs, int bteReadsInFlight) {
    this(clockHz, packetCycles, hostBytesPerSecond, hostLatencyPs, hostReadLatencyPs, txPipelineCycles,
        rxPipelineCycles, amoUnitCycles, fmaPostPs, fmaStoreBytesPerSecond, fmaGetRequestPs, bteReadsInFlight,
        DEFAULT_HOST_OVERHEAD_BYTES);
  }

  /**
   * A timing with the default FMA front end, BTE read window and host link overhead (the eight original
   * components).
   *
   * @param clockHz NIC core clock, hertz
   * @param packetCycles cycles per packet
   * @param hostBytesPerSecond host interface bandwidth per direction
   * @param hostLatencyPs one-way host interface latency
   * @param hostReadLatencyPs round-trip latency of a NIC read of host memory
   * @param txPipelineCycles cycles from issue to the fabric
   * @param rxPipelineCycles cycles from ejection to the memory access
   * @param amoUnitCycles AMO unit cycles
   */
  public NicTiming(double clockHz, int packetCycles, double hostBytesPerSecond, long hostLatencyPs,
      long hostReadLatencyPs, int txPipelineCycles, int rxPipelineCycles, int amoUnitCycles) {
    this(clockHz, packetCycles, hostBytesPerSecond, hostLatencyPs, hostReadLatencyPs, txPipelineCycles,
        rxPipelineCycles, amoUnitCycles, DEFAULT_FMA_POST_PS, DEFAULT_FMA_STORE_BYTES_PER_SECOND,
        DEFAULT_FMA_GET_REQUEST_PS, DEFAULT_BTE_READS_IN_FLIGHT, DEFAULT_HOST_OVERHEAD_BYTES);
  }

  /** Lowest NIC clock accepted, hertz: a cycle of 1 µs (assumed bound). */
  public static final double MIN_CLOCK_HZ = 1e6;
  /** Highest NIC clock accepted, hertz: a cycle of 1 ps, the clock's unit. */
  public static final double MAX_CLOCK_HZ = 1e12;

  /**
   * Validates the fields: the clock in [{@link #MIN_CLOCK_HZ}, {@link #MAX_CLOCK_HZ}], rates positive, cycle counts
   * and latencies non-negative.
   */
  public NicTiming {
    // Assumed bounds (Aries runs at 800 MHz [S2 via S1]): a cycle of 1 ps to 1 us; outside them a unit mistake. The
    // lower end keeps a packet's slot (cycle x packetCycles) inside the clock; the upper one is the clock's unit.
    if (!(clockHz >= MIN_CLOCK_HZ && clockHz <= MAX_CLOCK_HZ)) {
      throw new IllegalArgumentException(
          "clockHz must be in [" + MIN_CLOCK_HZ + ", " + MAX_CLOCK_HZ + "] but was " + clockHz);
    }
    // Latencies, rates and cycle counts within the bounds every component shares (SimTime: at most 1 ms, rates in
    // [84,000, 10^12] bytes/s or infinite): beyond them a value is a unit mistake, and the sums along a post left the
    // clock (a host latency of Long.MAX_VALUE used to fail at the first PUT with a negative time).
    long cycle = SimTime.cyclePs(clockHz);
    checkCycles("packetCycles", packetCycles, 1, cycle);
    SimTime.checkRate("hostBytesPerSecond", hostBytesPerSecond, true);
    SimTime.checkLatency("hostLatencyPs", hostLatencyPs);
    SimTime.checkLatency("hostReadLatencyPs", hostReadLatencyPs);
    checkCycles("txPipelineCycles", txPipelineCycles, 0, cycle);
    checkCycles("rxPipelineCycles", rxPipelineCycles, 0, cycle);
    checkCycles("amoUnitCycles", amoUnitCycles, 0, cycle);
    SimTime.checkLatency("fmaPostPs", fmaPostPs);
    SimTime.checkRate("fmaStoreBytesPerSecond", fmaStoreBytesPerSecond, true);
    SimTime.checkLatency("fmaGetRequestPs", fmaGetRequestPs);
    checkArgument(bteReadsInFlight >= 1, "bteReadsInFlight must be >= 1 but was %s", bteReadsInFlight);
    checkArgument(hostOverheadBytes >= 0 && hostOverheadBytes <= MAX_HOST_OVERHEAD_BYTES,
        "hostOverheadBytes must be in [0, %s] but was %s", MAX_HOST_OVERHEAD_BYTES, hostOverheadBytes);
  }

  /** Refuses a cycle count below {@code min} or longer, at the clock's cycle, than {@link SimTime#MAX_LATENCY_PS}. */
  private static void checkCycles(String name, int cycles, int min, long cyclePs) {
    long max = SimTime.MAX_LATENCY_PS / cyclePs;
    if (cycles < min || cycles > max) {
      throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "] (at most 1 ms at a cycle of "
          + cyclePs + " ps) but was " + cycles);
    }
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
   * @return zero latencies, one cycle per packet at an 800 MHz clock, infinite host bandwidth, a free FMA front end
   *     and an unbounded BTE read window
   */
  public static NicTiming untimed() {
    return new NicTiming(800e6, 1, Double.POSITIVE_INFINITY, 0, 0, 0, 0, 0, 0, Double.POSITIVE_INFINITY, 0,
        1 << 20, 0);
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
        rxPipelineCycles, amoUnitCycles, fmaPostPs, fmaStoreBytesPerSecond, fmaGetRequestPs, bteReadsInFlight,
        hostOverheadBytes);
  }

  /** @param ps host read round-trip latency @return a copy with it */
  public NicTiming withHostReadLatencyPs(long ps) {
    return new NicTiming(clockHz, packetCycles, hostBytesPerSecond, hostLatencyPs, ps, txPipelineCycles,
        rxPipelineCycles, amoUnitCycles, fmaPostPs, fmaStoreBytesPerSecond, fmaGetRequestPs, bteReadsInFlight,
        hostOverheadBytes);
  }

  /** @param tx transmit pipeline cycles @param rx receive pipeline cycles @return a copy with them */
  public NicTiming withPipelineCycles(int tx, int rx) {
    return new NicTiming(clockHz, packetCycles, hostBytesPerSecond, hostLatencyPs, hostReadLatencyPs, tx, rx,
        amoUnitCycles, fmaPostPs, fmaStoreBytesPerSecond, fmaGetRequestPs, bteReadsInFlight,
        hostOverheadBytes);
  }

  /**
   * @param postPs CPU time per post, ≥ 0
   * @param storeBytesPerSecond FMA PUT store rate, &gt; 0
   * @param getRequestPs CPU time per FMA GET request, ≥ 0
   * @return a copy with this FMA front end
   */
  public NicTiming withFma(long postPs, double storeBytesPerSecond, long getRequestPs) {
    return new NicTiming(clockHz, packetCycles, hostBytesPerSecond, hostLatencyPs, hostReadLatencyPs,
        txPipelineCycles, rxPipelineCycles, amoUnitCycles, postPs, storeBytesPerSecond, getRequestPs,
        bteReadsInFlight, hostOverheadBytes);
  }

  /** @param reads host reads in flight per BTE channel, ≥ 1 @return a copy with them */
  public NicTiming withBteReadsInFlight(int reads) {
    return new NicTiming(clockHz, packetCycles, hostBytesPerSecond, hostLatencyPs, hostReadLatencyPs,
        txPipelineCycles, rxPipelineCycles, amoUnitCycles, fmaPostPs, fmaStoreBytesPerSecond, fmaGetRequestPs,
        reads, hostOverheadBytes);
  }

  /**
   * @param bytes host link bytes beyond the data per transfer of up to 64 bytes and per read request, in [0,
   *     {@link #MAX_HOST_OVERHEAD_BYTES}]
   * @return a copy with them
   */
  public NicTiming withHostOverheadBytes(int bytes) {
    return new NicTiming(clockHz, packetCycles, hostBytesPerSecond, hostLatencyPs, hostReadLatencyPs,
        txPipelineCycles, rxPipelineCycles, amoUnitCycles, fmaPostPs, fmaStoreBytesPerSecond, fmaGetRequestPs,
        bteReadsInFlight, bytes);
  }

  /** @return CPU time to store one 64-byte FMA PUT request's data, picoseconds */
  long fmaStorePsPer64() {
    return Double.isInfinite(fmaStoreBytesPerSecond) ? 0 : Math.round(64e12 / fmaStoreBytesPerSecond);
  }
}
