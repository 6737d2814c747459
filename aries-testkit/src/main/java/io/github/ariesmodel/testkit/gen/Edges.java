package io.github.ariesmodel.testkit.gen;

/** The edge values of an unsigned bit field, shared by {@link CoreGenerators} and {@link CoreRandom}. */
final class Edges {

  private Edges() {}

  /**
   * The edges of a {@code width}-bit field: 0, 1, the top bit alone, the value just below it, and the maximum.
   *
   * @param width 1 to 63
   * @return the distinct edges, smallest first
   */
  static long[] of(int width) {
    if (width < 1 || width > 63) {
      throw new IllegalArgumentException("width must be in [1, 63] but was " + width);
    }
    long max = (1L << width) - 1;
    long top = 1L << (width - 1);
    return java.util.stream.LongStream.of(0, 1, top - 1, top, max).distinct().sorted().toArray();
  }

  /** Percent of generated values drawn from the edges rather than uniformly. */
  static final int EDGE_PERCENT = 25;
}
