package io.github.ariesmodel.traces;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Entry and exit times of a recorded call, in nanoseconds on the traced rank's clock: its wall clock, or, in a trace
 * that recorded no wall-clock times, its CPU time ({@link Clock#CPU}).
 *
 * <p>The origin is the format's (DUMPI: the tracer's clock, seconds plus nanoseconds); only differences between calls
 * of one rank on one clock are meaningful, and clocks of different ranks are not synchronised.
 *
 * @param entryNanos time the call was entered
 * @param exitNanos time the call returned, {@code >= entryNanos}
 * @param clock the clock the times are on
 */
public record CallTiming(long entryNanos, long exitNanos, Clock clock) {
  /** No time recorded. */
  public static final CallTiming NONE = new CallTiming(Long.MIN_VALUE, Long.MIN_VALUE);

  /** The clock a call's times are on. */
  public enum Clock {
    /** Wall-clock (elapsed) time. */
    WALL,
    /**
     * The process's CPU time (libdumpi's {@code cpu} timestamps: {@code clock_gettime(CLOCK_PROCESS_CPUTIME_ID)}
     * where POSIX timers exist, else {@code getrusage}'s user plus system time; sst-dumpi's
     * {@code dumpi/common/gettime.c}): it advances only while the process runs.
     */
    CPU
  }

  /** Validates that the call does not end before it starts. */
  public CallTiming {
    checkArgument(exitNanos >= entryNanos, "exitNanos must be >= entryNanos (%s), was %s", entryNanos, exitNanos);
    checkArgument(clock != null, "clock must not be null");
  }

  /**
   * Wall-clock times.
   *
   * @param entryNanos time the call was entered
   * @param exitNanos time the call returned, {@code >= entryNanos}
   */
  public CallTiming(long entryNanos, long exitNanos) {
    this(entryNanos, exitNanos, Clock.WALL);
  }

  /**
   * CPU times, for a trace that recorded no wall-clock times.
   *
   * @param entryNanos CPU time when the call was entered
   * @param exitNanos CPU time when it returned, {@code >= entryNanos}
   * @return the timing
   */
  public static CallTiming cpu(long entryNanos, long exitNanos) {
    return new CallTiming(entryNanos, exitNanos, Clock.CPU);
  }

  /** Whether times were recorded. */
  public boolean isRecorded() {
    return entryNanos != Long.MIN_VALUE;
  }

  /** Time spent inside the call, 0 when not recorded. */
  public long durationNanos() {
    return isRecorded() ? exitNanos - entryNanos : 0;
  }
}
