package io.github.ariesmodel.core;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * What a memory domain handle selects at the target NIC: a registered range of a process's virtual memory and how
 * it may be accessed. Models the 128-bit Aries MDD (aries-facts §4, S6b): {@code mem_base}/{@code mem_max} at 4 KB
 * granularity, valid, writable, {@code mmu_tc} (one of 16 translation contexts), {@code mmu_prefetch}, the completion
 * queue handle (11 bits) for remote events, and the protection tag (8 bits) and key (16 bits) a request must match.
 *
 * <p>{@link #check} makes the checks the NIC makes before translating, in the hardware's order, and returns the first
 * that fails as a {@link Status}; it never throws for modelled faults.
 *
 * @param mdh the handle that selects this descriptor, 0..4095
 * @param valid whether the descriptor is in use (false once deregistered)
 * @param base virtual address of the first registered byte, 4 KB aligned
 * @param length registered bytes, > 0
 * @param writable whether writes and AMOs are allowed
 * @param protectionTag 8-bit PTAG of the job that registered the memory
 * @param protectionKey 16-bit PKEY of that job
 * @param translationContext IOMMU translation context, 0..15
 * @param pageSize page size of the mapping
 * @param completionQueue CQ handle for remote events, 0..2047, or {@link #NO_CQ}
 * @param prefetch the {@code mmu_prefetch} hint: prefetch the next PTE line on a miss
 */
public record MemoryDomainDescriptor(
    int mdh,
    boolean valid,
    long base,
    long length,
    boolean writable,
    int protectionTag,
    int protectionKey,
    int translationContext,
    PageSize pageSize,
    int completionQueue,
    boolean prefetch) {

  /** Number of translation contexts in the IOMMU. */
  public static final int TRANSLATION_CONTEXTS = 16;
  /** Largest protection tag (8 bits). */
  public static final int MAX_PROTECTION_TAG = 0xFF;
  /** Largest protection key (16 bits). */
  public static final int MAX_PROTECTION_KEY = 0xFFFF;
  /** Largest completion queue handle (11 bits). */
  public static final int MAX_CQ = (1 << 11) - 1;
  /** The completion queue value meaning "no remote events". */
  public static final int NO_CQ = -1;

  /** Validates every field. */
  public MemoryDomainDescriptor {
    NetworkAddresses.checkMdh(mdh);
    checkArgument(pageSize != null, "pageSize must not be null");
    checkArgument(
        base >= 0 && base <= VirtualAddress.MAX_LOWER_HALF && PageSize.SIZE_4K.isAligned(base),
        "base must be a 4K-aligned address in [0, 2^47 - 1] but was 0x%s",
        Long.toHexString(base));
    checkArgument(
        length > 0 && length - 1 <= NetworkAddress.MAX_OFFSET,
        "length must be in [1, 2^40] bytes but was %s",
        length);
    checkArgument(
        base + length - 1 <= VirtualAddress.MAX_LOWER_HALF,
        "base + length must stay below 2^47 but base was 0x%s and length %s",
        Long.toHexString(base),
        length);
    checkArgument(
        protectionTag >= 0 && protectionTag <= MAX_PROTECTION_TAG,
        "protectionTag must be in [0, 255] but was %s",
        protectionTag);
    checkArgument(
        protectionKey >= 0 && protectionKey <= MAX_PROTECTION_KEY,
        "protectionKey must be in [0, 65535] but was %s",
        protectionKey);
    checkArgument(
        translationContext >= 0 && translationContext < TRANSLATION_CONTEXTS,
        "translationContext must be in [0, 15] but was %s",
        translationContext);
    checkArgument(
        completionQueue == NO_CQ || (completionQueue >= 0 && completionQueue <= MAX_CQ),
        "completionQueue must be -1 (none) or in [0, 2047] but was %s",
        completionQueue);
  }

  /**
   * Checks an access against this descriptor, as the NIC does before translating: valid, then bounds, then
   * permission, then protection.
   *
   * @param offset byte offset into the domain
   * @param length bytes accessed, ≥ 0
   * @param access what the access does
   * @param tag the requester's protection tag
   * @param key the requester's protection key
   * @return {@link Status#OK} or the first failing check
   * @throws IllegalArgumentException when {@code access} is null
   */
  public Status check(long offset, long length, AccessKind access, int tag, int key) {
    if (access == null) {
      throw new IllegalArgumentException("access must not be null");
    }
    if (!valid) {
      return Status.INVALID_MDH;
    }
    if (offset < 0 || length < 0 || offset > this.length || length > this.length - offset) {
      return Status.OUT_OF_BOUNDS;
    }
    if (access.needsWritable() && !writable) {
      return Status.NOT_WRITABLE;
    }
    if (tag != protectionTag || key != protectionKey) {
      return Status.PROTECTION_VIOLATION;
    }
    return Status.OK;
  }

  /** The virtual address of an offset. @param offset byte offset @return base + offset */
  public long virtualAddress(long offset) {
    return base + offset;
  }

  /** A copy marked invalid, as deregistration leaves it. @return the invalidated descriptor */
  public MemoryDomainDescriptor invalidated() {
    return new MemoryDomainDescriptor(
        mdh, false, base, length, writable, protectionTag, protectionKey, translationContext, pageSize,
        completionQueue, prefetch);
  }
}
