package io.github.ariesmodel.iommu.internal;

import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.iommu.spi.ReplacementPolicy;

/**
 * The PTE cache's tag and data RAMs, as {@link io.github.ariesmodel.iommu.Iommu} uses them. Public only so that the
 * benchmarks and reference-model tests can drive it directly; not an API (it may change without notice).
 *
 * <p>The cache holds {@code sets × ways} lines of {@code ptesPerLine} 8-byte PTEs, indexed by the
 * physical address of the line (consecutive lines fall in consecutive sets), each line invalid, pending (allocated,
 * its fetch outstanding) or valid. A line remembers the MDH whose walk fetched it, for per-MDD invalidation.
 *
 * <p>Line index {@code l = set × ways + way}. Primitive arrays only; nothing here allocates after construction.
 */
public final class SetAssociativePteCache {

  private static final byte INVALID = 0;
  private static final byte VALID = 1;
  private static final byte PENDING = 2;

  private final int ways;
  private final int lineShift;
  private final int sets;
  private final int ptesPerLine;
  private final int setMask;
  private final long[] tags;
  private final byte[] state;
  private final int[] owner;
  private final long[] data;
  private final ReplacementPolicy policy;
  private boolean lastEvicted;
  private long lastEvictedTag = -1;
  private long evictions;

  /**
   * An empty cache.
   *
   * @param ways ways per set, 1..64
   * @param sets sets, a power of two
   * @param ptesPerLine PTEs per line, a power of two
   * @param policy the replacement policy
   */
  public SetAssociativePteCache(int ways, int sets, int ptesPerLine, ReplacementPolicy policy) {
    this.ways = ways;
    this.sets = sets;
    this.ptesPerLine = ptesPerLine;
    this.lineShift = Integer.numberOfTrailingZeros(ptesPerLine * 8);
    this.setMask = sets - 1;
    this.tags = new long[sets * ways];
    this.state = new byte[sets * ways];
    this.owner = new int[sets * ways];
    this.data = new long[sets * ways * ptesPerLine];
    this.policy = policy;
  }

  /** @param pteAddress a PTE's physical address @return the address of the line holding it */
  public long lineOf(long pteAddress) {
    return pteAddress & -(1L << lineShift);
  }

  /** @param lineAddress a line's physical address @return its set */
  public int setOf(long lineAddress) {
    return (int) (lineAddress >>> lineShift) & setMask;
  }

  /**
   * Looks a line up.
   *
   * @param lineAddress the line's physical address
   * @return the line index holding it (valid or pending), or -1
   */
  public int find(long lineAddress) {
    if (ways == 4) {
      // Aries' geometry, written out: C2 does not unroll the loop below over a trip count held in a field, and the
      // loop made every PTE-cache lookup about 2 ns and every fast hit about 10 ns dearer (docs/iommu.md, stop 25).
      // Same result as the loop: the lowest way that holds the line.
      int b = setOf(lineAddress) << 2;
      long[] t = tags;
      byte[] st = state;
      int f = t[b + 3] == lineAddress && st[b + 3] != INVALID ? b + 3 : -1;
      f = t[b + 2] == lineAddress && st[b + 2] != INVALID ? b + 2 : f;
      f = t[b + 1] == lineAddress && st[b + 1] != INVALID ? b + 1 : f;
      return t[b] == lineAddress && st[b] != INVALID ? b : f;
    }
    int base = setOf(lineAddress) * ways;
    int found = -1;
    // No early exit: which way hits is unpredictable, and a compare of every way lets the JIT use conditional moves
    // instead of a mispredicted branch (at most one way holds a line in a non-invalid state).
    for (int l = base + ways - 1; l >= base; l--) {
      found = tags[l] == lineAddress && state[l] != INVALID ? l : found;
    }
    return found;
  }

  /** @param line a line index @return whether its fetch is outstanding */
  public boolean isPending(int line) {
    return state[line] == PENDING;
  }

  /** @param line a line index @return whether it holds data */
  public boolean isValid(int line) {
    return state[line] == VALID;
  }

  /** @param line a line index @return the line address it holds */
  public long tag(int line) {
    return tags[line];
  }

  /** @param line a line index @return the MDH whose walk fetched it */
  public int owner(int line) {
    return owner[line];
  }

  /** Records a hit on a valid line with the policy. @param line the line index */
  public void touch(int line) {
    int set = line / ways;
    policy.onAccess(set, line - set * ways);
  }

  /**
   * Records a hit on a valid line whose address is known (no division on the hot path).
   *
   * @param line the line index
   * @param lineAddress the address it holds
   */
  public void touch(int line, long lineAddress) {
    int set = setOf(lineAddress);
    policy.onAccess(set, line - set * ways);
  }

  /** @param line a valid line @param index 0..ptesPerLine-1 @return that cached PTE */
  public long pte(int line, int index) {
    return data[line * ptesPerLine + index];
  }

  /**
   * Allocates a way for a missing line and marks it pending: an invalid way if there is one (lowest first), else the
   * policy's victim among the valid ways.
   *
   * @param lineAddress the missing line
   * @param ownerMdh the MDH whose walk needs it
   * @return the line index, or -1 when every way of the set is pending
   */
  public int allocate(long lineAddress, int ownerMdh) {
    int set = setOf(lineAddress);
    int base = set * ways;
    int chosen = -1;
    long candidates = 0;
    for (int w = 0; w < ways; w++) {
      byte s = state[base + w];
      if (s == INVALID) {
        chosen = base + w;
        break;
      }
      if (s == VALID) {
        candidates |= 1L << w;
      }
    }
    lastEvicted = false;
    if (chosen < 0) {
      if (candidates == 0) {
        return -1;
      }
      int w;
      try {
        w = policy.victim(set, candidates);
      } catch (RuntimeException e) {
        // a user's policy that throws is named with what it was asked (it escaped bare, far from the policy)
        throw new IllegalStateException("replacement policy " + policy.getClass().getName() + " threw choosing a"
            + " victim in set " + set + " among the candidates 0b" + Long.toBinaryString(candidates) + ": " + e, e);
      }
      if (w < 0 || w >= ways || (candidates & (1L << w)) == 0) {
        throw new IllegalStateException("replacement policy " + policy.getClass().getName()
            + " returned way " + w + ", which is not among the candidates 0b" + Long.toBinaryString(candidates));
      }
      chosen = base + w;
      lastEvicted = true;
      lastEvictedTag = tags[chosen];
      evictions++;
    }
    tags[chosen] = lineAddress;
    state[chosen] = PENDING;
    owner[chosen] = ownerMdh;
    return chosen;
  }

  /** @return the number of sets */
  public int sets() {
    return sets;
  }

  /** @return whether the last {@link #allocate} evicted a valid line */
  public boolean lastAllocationEvicted() {
    return lastEvicted;
  }

  /** @return the line address the last evicting allocation dropped */
  public long lastEvictedTag() {
    return lastEvictedTag;
  }

  /** @return valid lines evicted so far */
  public long evictions() {
    return evictions;
  }

  /**
   * Completes a fetch: copies the line's PTEs from host memory and makes it valid.
   *
   * @param line a pending line
   * @param memory where the page tables are
   */
  public void fill(int line, HostMemory memory) {
    long address = tags[line];
    int d = line * ptesPerLine;
    for (int i = 0; i < ptesPerLine; i++) {
      data[d + i] = memory.readLong(address + 8L * i);
    }
    state[line] = VALID;
    int set = line / ways;
    policy.onFill(set, line - set * ways);
  }

  /**
   * Installs data directly (an immediate fill, for tests and benchmarks).
   *
   * @param line a pending line
   * @param ptes at least ptesPerLine PTEs
   */
  public void fill(int line, long[] ptes) {
    System.arraycopy(ptes, 0, data, line * ptesPerLine, ptesPerLine);
    state[line] = VALID;
    int set = line / ways;
    policy.onFill(set, line - set * ways);
  }

  private boolean invalidate(int line) {
    if (state[line] != VALID) {
      // Pending lines are left alone: their fetch reads the page table as it is when the read completes.
      return false;
    }
    state[line] = INVALID;
    int set = line / ways;
    policy.onInvalidate(set, line - set * ways);
    return true;
  }

  /** @param mdh an MDH @return lines invalidated */
  public int invalidateOwner(int mdh) {
    int n = 0;
    for (int l = 0; l < state.length; l++) {
      if (owner[l] == mdh && invalidate(l)) {
        n++;
      }
    }
    return n;
  }

  /**
   * Invalidates every valid line in an address range, whoever fetched it.
   *
   * @param lo lowest line address
   * @param hi highest line address
   * @return lines invalidated
   */
  public int invalidateRange(long lo, long hi) {
    int n = 0;
    for (int l = 0; l < state.length; l++) {
      if (tags[l] >= lo && tags[l] <= hi && invalidate(l)) {
        n++;
      }
    }
    return n;
  }

  /** @param lineAddress a line address @return 1 when the line was cached and valid and is now invalid, else 0 */
  public int invalidateLine(long lineAddress) {
    int l = find(lineAddress);
    return l >= 0 && invalidate(l) ? 1 : 0;
  }

  /** @return lines invalidated */
  public int invalidateAll() {
    int n = 0;
    for (int l = 0; l < state.length; l++) {
      if (invalidate(l)) {
        n++;
      }
    }
    return n;
  }
}
