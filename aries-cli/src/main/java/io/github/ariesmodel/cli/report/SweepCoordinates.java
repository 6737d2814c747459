package io.github.ariesmodel.cli.report;

/**
 * Where a run sits in a sweep: enough for a merge to find duplicate and missing points.
 *
 * @param index the point's index, {@code 0 <= index < points}
 * @param points number of points in the sweep
 * @param spec the sweep's specification in its canonical text form (all points of one sweep share it)
 */
public record SweepCoordinates(int index, int points, String spec) {

  /**
   * Validates the coordinates.
   *
   * @throws IllegalArgumentException when the index is out of range or the spec is empty
   */
  public SweepCoordinates {
    if (points < 1) {
      throw new IllegalArgumentException("points must be >= 1 but was " + points);
    }
    if (index < 0 || index >= points) {
      throw new IllegalArgumentException("index must be in [0, " + (points - 1) + "] but was " + index);
    }
    Names.checkText("sweep spec", spec);
  }
}
