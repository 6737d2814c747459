package io.github.ariesmodel.iommu.spi;

/**
 * Chooses which way of a PTE-cache set to evict (a driven port a user may implement). The cache owns tags, data and
 * pending state; the policy only keeps its own recency (or other) state and names a victim.
 *
 * <p>The cache calls the policy as follows, always from one thread:
 *
 * <ul>
 *   <li>{@link #onAccess} when a lookup hits a valid line;
 *   <li>{@link #onFill} when a fetched line becomes valid (a fill is also a use);
 *   <li>{@link #onInvalidate} when a line is dropped by an invalidation command;
 *   <li>{@link #victim} when a miss finds no invalid way: the policy must return one of the {@code candidates}
 *       (valid ways that are not pending a fetch). Invalid ways are always used first, lowest index first, without
 *       asking the policy.
 * </ul>
 *
 * <p>Contract (proved for every built-in policy by {@code ReplacementPolicyContract} in aries-testkit, which a user
 * extends to prove their own): {@code victim} returns a way whose bit is set in {@code candidates}; with one candidate
 * it returns that way; two policies made by the same factory with the same sets, ways and seed, called the same way,
 * return the same victims; and repeatedly filling the victim eventually uses every way. Implementations must not
 * allocate in these methods (they run on the PTE-cache hot path) and must keep no static mutable state.
 */
public interface ReplacementPolicy {

  /**
   * A lookup hit a valid line.
   *
   * @param set the set, 0..sets-1
   * @param way the way, 0..ways-1
   */
  void onAccess(int set, int way);

  /**
   * A fetched line was installed and is now valid.
   *
   * @param set the set
   * @param way the way
   */
  void onFill(int set, int way);

  /**
   * A line was invalidated (it is now free and will be filled before it is a candidate again).
   *
   * @param set the set
   * @param way the way
   */
  void onInvalidate(int set, int way);

  /**
   * Picks the way to evict.
   *
   * @param set the set
   * @param candidates bit {@code w} set when way {@code w} may be evicted; never zero
   * @return a way whose bit is set in {@code candidates}
   */
  int victim(int set, long candidates);
}
