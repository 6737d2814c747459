package io.github.ariesmodel.cli.report;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * When a run started and finished, in wall-clock time: the only nondeterministic part of {@link Results}. Writers
 * can leave it out so that equal runs give byte-identical files.
 *
 * @param startedAt when the run started
 * @param finishedAt when it finished, not before {@code startedAt}
 */
public record WallClock(Instant startedAt, Instant finishedAt) {

  /**
   * Validates the interval.
   *
   * @throws IllegalArgumentException when it finishes before it starts
   */
  public WallClock {
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(finishedAt, "finishedAt");
    if (finishedAt.isBefore(startedAt)) {
      throw new IllegalArgumentException(
          "finishedAt must not be before startedAt (" + startedAt + ") but was " + finishedAt);
    }
  }

  /** @return seconds between start and finish */
  public double wallSeconds() {
    return Duration.between(startedAt, finishedAt).toNanos() / 1e9;
  }
}
