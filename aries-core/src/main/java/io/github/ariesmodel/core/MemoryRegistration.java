package io.github.ariesmodel.core;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * A request to register a process's virtual memory with its NIC, after uGNI's {@code GNI_MemRegister}
 * (aries-facts §5): the virtual range, how it is mapped and who may access it. Registration builds the page tables in
 * the node's memory and fills an MDD; see {@link io.github.ariesmodel.core.spi.AddressTranslation#register}.
 *
 * @param virtualBase first byte of the range, aligned to {@code pageSize}
 * @param length bytes, > 0 and at most 2^40
 * @param pageSize page size of the mapping
 * @param writable READWRITE (true) or READ_ONLY (false)
 * @param protectionTag 8-bit PTAG of the registering job
 * @param protectionKey 16-bit PKEY of the registering job
 * @param translationContext IOMMU translation context, 0..15
 * @param completionQueue CQ handle for remote events, or {@link MemoryDomainDescriptor#NO_CQ}
 * @param prefetch the {@code mmu_prefetch} hint
 */
public record MemoryRegistration(
    long virtualBase,
    long length,
    PageSize pageSize,
    boolean writable,
    int protectionTag,
    int protectionKey,
    int translationContext,
    int completionQueue,
    boolean prefetch) {

  /** Validates the fields (ranges as in {@link MemoryDomainDescriptor}). */
  public MemoryRegistration {
    checkArgument(pageSize != null, "pageSize must not be null");
    checkArgument(
        virtualBase >= 0 && pageSize.isAligned(virtualBase),
        "virtualBase must be non-negative and aligned to the %s page but was 0x%s",
        pageSize,
        Long.toHexString(virtualBase));
    // The remaining checks are the descriptor's; build one to reuse them.
    new MemoryDomainDescriptor(
        0, true, virtualBase, length, writable, protectionTag, protectionKey, translationContext, pageSize,
        completionQueue, prefetch);
  }

  /**
   * A writable registration with 4 KB pages, context 0, no CQ and no prefetch.
   *
   * @param virtualBase first byte, 4 KB aligned
   * @param length bytes
   * @param protectionTag PTAG
   * @param protectionKey PKEY
   * @return the registration
   */
  public static MemoryRegistration of(long virtualBase, long length, int protectionTag, int protectionKey) {
    return new MemoryRegistration(
        virtualBase, length, PageSize.SIZE_4K, true, protectionTag, protectionKey, 0, MemoryDomainDescriptor.NO_CQ,
        false);
  }

  /** The same registration with another page size. @param size page size @return the copy */
  public MemoryRegistration withPageSize(PageSize size) {
    return new MemoryRegistration(
        virtualBase, length, size, writable, protectionTag, protectionKey, translationContext, completionQueue,
        prefetch);
  }

  /** The same registration with another writability. @param w writable @return the copy */
  public MemoryRegistration withWritable(boolean w) {
    return new MemoryRegistration(
        virtualBase, length, pageSize, w, protectionTag, protectionKey, translationContext, completionQueue,
        prefetch);
  }

  /** The same registration with another CQ. @param cq CQ handle or NO_CQ @return the copy */
  public MemoryRegistration withCompletionQueue(int cq) {
    return new MemoryRegistration(
        virtualBase, length, pageSize, writable, protectionTag, protectionKey, translationContext, cq, prefetch);
  }

  /** The same registration with another prefetch hint. @param p prefetch @return the copy */
  public MemoryRegistration withPrefetch(boolean p) {
    return new MemoryRegistration(
        virtualBase, length, pageSize, writable, protectionTag, protectionKey, translationContext, completionQueue,
        p);
  }

  /** The same registration in another translation context. @param tc 0..15 @return the copy */
  public MemoryRegistration withTranslationContext(int tc) {
    return new MemoryRegistration(
        virtualBase, length, pageSize, writable, protectionTag, protectionKey, tc, completionQueue, prefetch);
  }
}
