package io.github.ariesmodel.iommu;

/**
 * Where an {@link Iommu} writes the page tables of a registration, and so which PTE-cache lines its translations use.
 *
 * <p>The hardware roots page tables per translation context: each of the NIC's 16 translation context registers has
 * a {@code pt_root_ptr}, a {@code pg_mode} (one or two levels) and a {@code pg_size}, and an MDD names its context
 * ({@code mmu_tc}) and a base ({@code mem_base}) inside it (aries-facts §4 [S6b][S6c]). Registrations of one context
 * therefore share its tables: small ones that lie side by side share PTE lines, and where a registration's PTEs fall
 * in the cache's sets depends on where it lies in the context's address space. The job's IOMMU address space is
 * limited per PTAG ({@code iommu_limit}, [S5]), so the driver places registrations in that space.
 */
public enum PageTables {

  /**
   * Every registration gets tables of its own, rooted at its MDD, each starting on a 4 KB boundary (this model's
   * first form and its default until stop 51, kept for comparison and to reproduce earlier results). Every registration's first PTE line then falls
   * in set 0 of a PTE cache with 64-byte lines and 32 sets, so a few small registrations used at once evict one
   * another.
   */
  PER_REGISTRATION,

  /**
   * One table for each translation context and page size, as the hardware's translation context registers root them
   * (the default).
   * The driver gives each registration a range of the context's IO virtual address space, the lowest free range that
   * fits (first fit, in pages), freed again on deregistration; the MDD's base is that range's start. A context's
   * space is twice the node's memory (rounded up to a power of two, at most the 2^40 bytes a registration can span),
   * its root table is made on the context's first registration, and for 4 KB pages a leaf table is made for each
   * 2 MB of the space when a registration first needs it. Assumed: the driver's placement and the space's size are
   * not published (aries-facts §4); the page-size split stands for the driver configuring a context per page size.
   */
  PER_CONTEXT;

  /** @return the name used in configuration files and on the command line: {@code per-registration}, {@code per-context} */
  public String configName() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }

  /**
   * @param text {@code per-registration} or {@code per-context}
   * @return the choice
   * @throws IllegalArgumentException naming the valid values
   */
  public static PageTables parse(String text) {
    for (PageTables p : values()) {
      if (p.configName().equals(text)) {
        return p;
      }
    }
    throw new IllegalArgumentException("page tables must be per-registration or per-context but was " + text);
  }
}
