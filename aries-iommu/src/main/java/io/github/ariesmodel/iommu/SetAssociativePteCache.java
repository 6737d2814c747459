package io.github.ariesmodel.iommu;

import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.iommu.spi.ReplacementPolicy;

/**
 * The PTE cache's tag and data RAMs: {@code sets × ways} lines of {@code ptesPerLine} 8-byte PTEs, indexed by the
 * physical address of the line (consecutive lines fall in consecutive sets), each line invalid, pending (allocated,
 * its fetch outstanding) or valid. A line remembers the MDH whose walk fetched it, for per-MDD invalidation.
 *
 * <p>Line index {@code l = set × ways + way}. Primitive arrays only; nothing here allocates after construction.
 */
final class SetAssociativePteCache {

  static final byte INVALID = 0;
  static final byte VALID = 1;
  static final byte PENDING = 2;

  final int ways;
  final int sets;
  final int ptesPerLine;
  final int lineShift;
  private final int setMask;
  private final long[] tags;
  private final byte[] state;
  private final int[] owner;
  private final long[] data;
  private final ReplacementPolicy policy;
  private boolean lastEvicted;
  private long lastEvictedTag = -1;
  private long evictions;

  SetAssociativePteCache(int ways, int sets, int ptesPerLine, ReplacementPolicy policy) {
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

  /** @return line address of the line holding a PTE address */
  long lineOf(long pteAddress) {
    return pteAddress & -(1L << lineShift);
  }

  int setOf(long lineAddress) {
    return (int) (lineAddress >>> lineShift) & setMask;
  }

  /** @return the line index holding {@code lineAddress} (valid or pending), or -1 */
  int find(long lineAddress) {
    int base = setOf(lineAddress) * ways;
    for (int l = base, end = base + ways; l < end; l++) {
      if (state[l] != INVALID && tags[l] == lineAddress) {
        return l;
      }
    }
    return -1;
  }

  boolean isPending(int line) {
    return state[line] == PENDING;
  }

  boolean isValid(int line) {
    return state[line] == VALID;
  }

  long tag(int line) {
    return tags[line];
  }

  int owner(int line) {
    return owner[line];
  }

  /** Records a hit on a valid line with the policy. */
  void touch(int line) {
    int set = line / ways;
    policy.onAccess(set, line - set * ways);
  }

  long pte(int line, int index) {
    return data[line * ptesPerLine + index];
  }

  /**
   * Allocates a way for a missing line and marks it pending: an invalid way if there is one (lowest first), else the
   * policy's victim among the valid ways.
   *
   * @return the line index, or -1 when every way of the set is pending
   */
  int allocate(long lineAddress, int ownerMdh) {
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
      int w = policy.victim(set, candidates);
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

  /** @return whether the last {@link #allocate} evicted a valid line */
  boolean lastAllocationEvicted() {
    return lastEvicted;
  }

  /** @return the line address the last evicting allocation dropped */
  long lastEvictedTag() {
    return lastEvictedTag;
  }

  long evictions() {
    return evictions;
  }

  /** Completes a fetch: copies the line's PTEs from host memory and makes it valid. */
  void fill(int line, HostMemory memory) {
    long address = tags[line];
    int d = line * ptesPerLine;
    for (int i = 0; i < ptesPerLine; i++) {
      data[d + i] = memory.readLong(address + 8L * i);
    }
    state[line] = VALID;
    int set = line / ways;
    policy.onFill(set, line - set * ways);
  }

  /** Installs data directly (tests' immediate fill). */
  void fill(int line, long[] ptes) {
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

  /** @return lines invalidated */
  int invalidateOwner(int mdh) {
    int n = 0;
    for (int l = 0; l < state.length; l++) {
      if (owner[l] == mdh && invalidate(l)) {
        n++;
      }
    }
    return n;
  }

  /** @return lines invalidated among those of an owner with tags in [lo, hi] */
  int invalidateOwnerRange(int mdh, long lo, long hi) {
    int n = 0;
    for (int l = 0; l < state.length; l++) {
      if (owner[l] == mdh && tags[l] >= lo && tags[l] <= hi && invalidate(l)) {
        n++;
      }
    }
    return n;
  }

  /** @return 1 when the line was cached and valid and is now invalid, else 0 */
  int invalidateLine(long lineAddress) {
    int l = find(lineAddress);
    return l >= 0 && invalidate(l) ? 1 : 0;
  }

  /** @return lines invalidated */
  int invalidateAll() {
    int n = 0;
    for (int l = 0; l < state.length; l++) {
      if (invalidate(l)) {
        n++;
      }
    }
    return n;
  }
}
