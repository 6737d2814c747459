package io.github.ariesmodel.cli.sweep;

/**
 * One of {@code count} disjoint parts of a sweep, for a batch scheduler's job array: shard {@code i/N} runs the points
 * whose index is {@code i} modulo {@code N}. Interleaving (rather than contiguous blocks) spreads cheap and expensive
 * points (low and high loads) evenly over the shards.
 *
 * @param index this shard, {@code 0 <= index < count}
 * @param count number of shards, {@code >= 1}
 */
public record Shard(int index, int count) {

  /** The whole sweep as one shard. */
  public static final Shard ALL = new Shard(0, 1);

  /**
   * Validates the shard.
   *
   * @throws IllegalArgumentException when {@code count < 1} or {@code index} is outside {@code [0, count)}
   */
  public Shard {
    if (count < 1) {
      throw new IllegalArgumentException("shard count must be >= 1 but was " + count);
    }
    if (index < 0 || index >= count) {
      throw new IllegalArgumentException(
          "shard index must be in [0, " + (count - 1) + "] for " + count + " shards but was " + index);
    }
  }

  /**
   * Parses {@code i/N}, as in {@code --shard $SLURM_ARRAY_TASK_ID/8}.
   *
   * @param text e.g. {@code 3/8}
   * @return the shard
   * @throws IllegalArgumentException when the text is not {@code i/N} with {@code 0 <= i < N}
   */
  public static Shard parse(String text) {
    String t = text == null ? "" : text.trim();
    int slash = t.indexOf('/');
    try {
      if (slash > 0) {
        return new Shard(Integer.parseInt(t.substring(0, slash).trim()),
            Integer.parseInt(t.substring(slash + 1).trim()));
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("shard must be i/N with 0 <= i < N (e.g. 3/8) but was \"" + text + "\"");
  }

  /**
   * @param pointIndex a point's index, {@code >= 0}
   * @return whether this shard runs that point
   */
  public boolean contains(int pointIndex) {
    return pointIndex % count == index;
  }

  /** @return {@code index/count}, which {@link #parse(String)} accepts */
  @Override
  public String toString() {
    return index + "/" + count;
  }
}
