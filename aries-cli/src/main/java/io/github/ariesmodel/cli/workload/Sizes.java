package io.github.ariesmodel.cli.workload;

/**
 * Where the smallest and largest of a workload's message sizes are: the sizes are measured in the order the user gave
 * them, and the metrics named for the smallest or largest size must take that size's row, not the first or last.
 */
final class Sizes {
  private Sizes() {}

  /**
   * @param sizes a non-empty list of sizes
   * @return the index of the smallest (the first of equals)
   */
  static int indexOfMin(long[] sizes) {
    int best = 0;
    for (int i = 1; i < sizes.length; i++) {
      if (sizes[i] < sizes[best]) {
        best = i;
      }
    }
    return best;
  }

  /**
   * @param sizes a non-empty list of sizes
   * @return the index of the largest (the first of equals)
   */
  static int indexOfMax(long[] sizes) {
    int best = 0;
    for (int i = 1; i < sizes.length; i++) {
      if (sizes[i] > sizes[best]) {
        best = i;
      }
    }
    return best;
  }
}
