package io.github.ariesmodel.system.replay;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Locale;

/**
 * How a replay spends the time a traced rank spent outside MPI calls.
 *
 * <ul>
 *   <li>{@code skip}: none; ranks call MPI back to back (what the network alone allows).
 *   <li>{@code as-traced}: the wall-clock gap between one recorded call's exit and the next one's entry (DUMPI
 *       records both; the gap includes any calls the trace left out; a DUMPI trace recorded with CPU times only
 *       gives the process's CPU time between the two, which stands in for its compute), and the work a
 *       time-independent trace states
 *       ({@code compute} flops at {@link TraceReplay.Builder#flopsPerSecond}, {@code sleep} durations).
 *   <li>{@code scale:F}: as traced, times F (F &gt; 0; 0.5 models a core twice as fast), a {@code sleep} excepted: idle
 *       time lasts as long on any core (until stop 75 it was scaled too).
 * </ul>
 *
 * @param kind the mode
 * @param factor the multiplier of as-traced times: 0 for skip, 1 for as-traced
 */
public record ComputeMode(Kind kind, double factor) {

  /** The modes. */
  public enum Kind {
    /** No compute time. */
    SKIP,
    /** Compute time as the trace records it. */
    AS_TRACED,
    /** Compute time as the trace records it, scaled. */
    SCALE
  }

  /** No compute time. */
  public static final ComputeMode SKIP = new ComputeMode(Kind.SKIP, 0);
  /** Compute time as traced. */
  public static final ComputeMode AS_TRACED = new ComputeMode(Kind.AS_TRACED, 1);

  /** Validates the factor against the kind. */
  public ComputeMode {
    checkArgument(kind != null, "kind must not be null");
    switch (kind) {
      case SKIP -> checkArgument(factor == 0, "factor of skip must be 0 but was %s", factor);
      case AS_TRACED -> checkArgument(factor == 1, "factor of as-traced must be 1 but was %s", factor);
      case SCALE -> checkArgument(factor > 0 && factor <= 1e6 && !Double.isNaN(factor),
          "scale factor must be in (0, 1e6] but was %s", factor);
    }
  }

  /**
   * As-traced times scaled.
   *
   * @param factor in (0, 1e6]
   * @return the mode
   */
  public static ComputeMode scale(double factor) {
    return new ComputeMode(Kind.SCALE, factor);
  }

  /**
   * Parses {@code skip}, {@code as-traced} or {@code scale:F}.
   *
   * @param text the text
   * @return the mode
   * @throws IllegalArgumentException naming the accepted forms and the text
   */
  public static ComputeMode parse(String text) {
    checkArgument(text != null, "compute mode must not be null");
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.equals("skip")) {
      return SKIP;
    }
    if (t.equals("as-traced")) {
      return AS_TRACED;
    }
    if (t.startsWith("scale:")) {
      double factor;
      try {
        factor = Double.parseDouble(t.substring("scale:".length()));
      } catch (NumberFormatException e) {
        factor = Double.NaN; // reported below with the accepted forms
      }
      if (!Double.isNaN(factor)) {
        try {
          return scale(factor);
        } catch (IllegalArgumentException e) {
          // named as the setting that gave it (it began "scale factor", and the command line could not tell which of
          // its options that was: "(arguments)", until stop 75)
          throw new IllegalArgumentException("compute " + e.getMessage(), e);
        }
      }
    }
    throw new IllegalArgumentException("compute must be skip, as-traced or scale:F (F > 0) but was \""
        + io.github.ariesmodel.core.Texts.abbreviate(text) + "\"");
  }

  @Override
  public String toString() {
    return switch (kind) {
      case SKIP -> "skip";
      case AS_TRACED -> "as-traced";
      case SCALE -> "scale:" + factor;
    };
  }
}
