package io.github.ariesmodel.system.replay;

import com.google.common.collect.ImmutableMap;
import com.google.common.primitives.ImmutableIntArray;
import com.google.common.primitives.ImmutableLongArray;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.TraceCoverage;

/**
 * What a trace replay measured.
 *
 * @param ranks the trace's ranks
 * @param nodes node of each rank
 * @param simulatedPs simulated time from the start until the last rank's last traced call returned, picoseconds
 * @param elapsedPs simulated time from the start until the run's last event, picoseconds: at least {@code
 *     simulatedPs}, as the NICs' acknowledgements and completion writes still in flight when the last rank returned
 *     run on; the span of {@code events} and of {@code linkUtilization}, and the system statistics' elapsed time
 * @param communicationPs per rank, simulated time inside MPI calls, picoseconds
 * @param computePs per rank, simulated time spent computing (per the compute mode: between calls, and a collective's
 *     reduction work), picoseconds, as long as it took: under OS noise with the detours inside it
 * @param messages point-to-point messages of the trace delivered (matched by a receive)
 * @param bytes payload bytes of those messages
 * @param mpiMessages every message the MPI layer delivered, collectives' internal ones included
 * @param mpiBytes payload bytes of the MPI layer's messages to other ranks, counted as they are sent (a rank's
 *     messages to itself, which {@code mpiMessages} counts, are copies that move no byte through the NIC; this said
 *     "of those" until stop 76, and a trace's self-sends made it smaller than {@code bytes})
 * @param latency send-to-receive-completion latency of the trace's point-to-point messages
 * @param linkBytes by link rank (class), bytes serialized on the links of that rank, packet headers included
 *     (derived: busy time times the links' rate) from the replay's start to its end (not an earlier run's on the same
 *     system: since stop 76): the packets of this trace's nodes where a {@link LinkTally} split the fabric's by source
 *     ({@link ConcurrentReplay.Builder#linkTally}), else every packet of the fabric (beside other jobs, theirs too)
 * @param linkUtilization by link rank, busy time (of the same packets as {@code linkBytes}) over (links × {@code
 *     elapsedPs})
 * @param calls every call replayed, by kind
 * @param collectives collectives replayed, by MPI name
 * @param coverage what the trace holds and leaves out
 * @param events simulation events executed
 * @param requestsNotStarted completions (and cancels and frees) naming requests no recorded call started (a trace
 *     that left calls out), skipped
 * @param requestsAlreadyCompleted completions (and cancels and frees) naming requests a test of the trace had
 *     already completed, skipped: a SimGrid trace keeps a request its test completed for a later wait on its key,
 *     which SMPI's replay passes over (counted as not started until stop 75)
 * @param unknownSizes calls whose byte count the trace could not give (replayed as 0 bytes sent, or a receive as
 *     large as the trace's largest message)
 * @param receivesUnmatched nonblocking receives still pending when their rank's trace ended
 * @param oneSidedFolded one-sided operations whose place lay beyond the replay's window (which holds at most the
 *     trace's largest one-sided operation, 1 MiB at least), replayed at that place modulo the window
 * @param compute the compute mode the replay ran with
 * @param wallClockGaps gaps between consecutive recorded calls of a rank replayed as compute from their wall-clock
 *     times (0 under {@link ComputeMode#SKIP})
 * @param cpuTimeGaps such gaps taken from CPU times, where the trace recorded no wall-clock times (DUMPI's {@code
 *     timestamps=cpu}): the process's CPU time between two calls stands in for its compute
 * @param flopsPerSecond the rate a rank's flops were replayed at (a time-independent trace's compute actions and
 *     reductions; {@link TraceReplay#DEFAULT_FLOPS_PER_SECOND} unless the builder set it)
 * @param flopActions compute actions and collectives' reduction work whose flops were replayed as time at that rate
 *     (0 under {@link ComputeMode#SKIP})
 */
public record ReplayResult(int ranks, ImmutableIntArray nodes, long simulatedPs, long elapsedPs,
    ImmutableLongArray communicationPs,
    ImmutableLongArray computePs, long messages, long bytes, long mpiMessages, long mpiBytes, Latency latency,
    ImmutableMap<String, Long> linkBytes, ImmutableMap<String, Double> linkUtilization,
    ImmutableMap<CallKind, Long> calls, ImmutableMap<String, Long> collectives, TraceCoverage coverage, long events,
    long requestsNotStarted, long requestsAlreadyCompleted, long unknownSizes, long receivesUnmatched,
    long oneSidedFolded, ComputeMode compute, long wallClockGaps, long cpuTimeGaps, double flopsPerSecond,
    long flopActions) {

  /**
   * Latency distribution of the trace's point-to-point messages: from the send call to the receive's completion
   * (data in the user buffer), nanoseconds. Percentiles are nearest-rank. A replay that delivered no point-to-point
   * message (a trace of collectives only) has no latency to report: {@link #NONE}, whose figures are NaN, not 0 ns
   * (they used to be 0, which read as messages that took no time).
   *
   * @param count messages measured
   * @param minNs smallest
   * @param p50Ns median
   * @param p90Ns 90th percentile
   * @param p99Ns 99th percentile
   * @param maxNs largest
   * @param meanNs mean
   */
  public record Latency(long count, double minNs, double p50Ns, double p90Ns, double p99Ns, double maxNs,
      double meanNs) {

    /** No message measured: count 0, every figure NaN. */
    public static final Latency NONE = new Latency(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
        Double.NaN);

    /**
     * Validates the distribution.
     *
     * @throws IllegalArgumentException when the count is negative, or the figures are NaN with messages measured or
     *     numbers without
     */
    public Latency {
      if (count < 0) {
        throw new IllegalArgumentException("count must be >= 0 but was " + count);
      }
      for (double v : new double[] {minNs, p50Ns, p90Ns, p99Ns, maxNs, meanNs}) {
        if (Double.isNaN(v) != (count == 0)) {
          throw new IllegalArgumentException("latency figures must be NaN exactly when no message was measured but"
              + " count was " + count + " and a figure " + v);
        }
      }
    }

    /** @return whether any message was measured (else every figure is NaN) */
    public boolean measured() {
      return count > 0;
    }
  }

  /** @return total calls replayed */
  public long callsReplayed() {
    long s = 0;
    for (long v : calls.values()) {
      s += v;
    }
    return s;
  }

  /**
   * Times of a call kind replayed.
   *
   * @param kind a kind
   * @return how many times it was replayed (0 if never)
   */
  public long calls(CallKind kind) {
    return calls.getOrDefault(kind, 0L);
  }
}
