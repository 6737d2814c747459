package io.github.ariesmodel.traces;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Wall-clock entry and exit times of a recorded call, in nanoseconds on the traced rank's clock.
 *
 * <p>The origin is the format's (DUMPI: the tracer's wall clock, seconds plus nanoseconds); only differences between
 * calls of one rank are meaningful, and clocks of different ranks are not synchronised.
 *
 * @param entryNanos time the call was entered
 * @param exitNanos time the call returned, {@code >= entryNanos}
 */
public record CallTiming(long entryNanos, long exitNanos) {
  /** No time recorded. */
  public static final CallTiming NONE = new CallTiming(Long.MIN_VALUE, Long.MIN_VALUE);

  /** Validates that the call does not end before it starts. */
  public CallTiming {
    checkArgument(exitNanos >= entryNanos, "exitNanos must be >= entryNanos (%s), was %s", entryNanos, exitNanos);
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
