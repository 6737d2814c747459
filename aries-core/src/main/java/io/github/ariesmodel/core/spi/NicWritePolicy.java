package io.github.ariesmodel.core.spi;

/**
 * What a node's {@link HostCache} does when the NIC writes a line that the host's cache holds. Every policy keeps the
 * host coherent (a later CPU read returns the NIC's data); they differ in where the data lands and what the CPU's
 * next read costs.
 */
public enum NicWritePolicy {
  /**
   * The cached line is updated in place and stays cached, so the CPU's next read hits; a line that is not cached is
   * written to memory (no allocation). This is the rule the Aries system description states ("if the target line is
   * in the cache, the system updates the cache directly") and the default.
   */
  UPDATE,
  /**
   * The cached line is dropped (its dirty bytes merged into memory first) and the NIC's data goes to memory, so the
   * CPU's next read misses.
   */
  INVALIDATE,
  /**
   * The NIC's accesses never use the cache's arrays: writes go to memory and a cached copy is back-invalidated by the
   * coherence fabric (a dirty copy written back first); reads come from memory after a dirty copy is written back. The
   * CPU's next read of a NIC-written line misses, as with {@link #INVALIDATE}; unlike it, a NIC read of a line the CPU
   * dirtied costs a write-back and a memory access instead of a cache hit.
   */
  BYPASS,
  /**
   * As {@link #UPDATE} for a cached line; a line that is not cached is allocated in the cache, in one of at most two
   * ways of its set (the least recently used line of those ways is evicted), so that the CPU's next read hits: the
   * write-allocate of Intel's Data Direct I/O on the Xeons of the XC generation (Xeon E5 and later: an inbound PCIe
   * write goes to the L3 of the socket that holds the link), which the seed's rule does not say. Not the default;
   * docs/memory-hierarchy.md has the sources and what is assumed.
   */
  ALLOCATE;

  /**
   * The policy a lower-case name selects.
   *
   * @param name {@code update}, {@code invalidate}, {@code bypass} or {@code allocate} (case-insensitive)
   * @return the policy
   * @throws IllegalArgumentException naming the valid names when there is no such policy
   */
  public static NicWritePolicy parse(String name) {
    for (NicWritePolicy p : values()) {
      if (p.name().equalsIgnoreCase(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException("nicWritePolicy must be one of update, invalidate, bypass, allocate but was '"
        + io.github.ariesmodel.core.Texts.abbreviate(String.valueOf(name)) + "'");
  }

  /** @return the lower-case name {@link #parse} accepts */
  @Override
  public String toString() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
