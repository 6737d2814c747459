package io.github.ariesmodel.core.spi;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.Status;
import java.util.Optional;

/**
 * A NIC's address translation (a driven port): the registration side (the driver filling MDDs and page tables) and
 * the translation side (MDH + offset + access → physical address, or a modelled fault).
 *
 * <p>Implementations: the Aries IOMMU in {@code aries-iommu} (timed, with a PTE cache and miss pipeline) and the
 * flat, fixed-latency {@link io.github.ariesmodel.core.sim.FlatTranslation} for tests of other modules.
 *
 * <p>Contract. Checks come first and in this order: MDD valid ({@link Status#INVALID_MDH}), offset + length inside
 * the registration ({@link Status#OUT_OF_BOUNDS}), write permission for writes and AMOs ({@link Status#NOT_WRITABLE}),
 * protection tag and key ({@link Status#PROTECTION_VIOLATION}); then the page table ({@link
 * Status#TRANSLATION_FAULT}). A fault is a result, never an exception, and a faulting request writes no memory. Bad
 * arguments (an MDH outside 12 bits, a negative length) are caller mistakes and throw {@link
 * IllegalArgumentException}. A registration's pages never share a physical frame with another page or with page
 * tables. {@code io.github.ariesmodel.testkit.core.AddressTranslationContract} (aries-testkit) checks an
 * implementation against this contract.
 */
public interface AddressTranslation {

  /**
   * Registers memory: picks a free MDH, backs the range with physical frames, builds its page tables in host memory
   * and fills the MDD.
   *
   * <p>A refused registration changes nothing: the built-in translators check first and reserve memory and take the
   * MDH only when the registration can be completed, so the next registration gets what it would have got without
   * the refused call.
   *
   * @param registration what to register
   * @return the filled descriptor, whose {@code mdh()} names it from now on
   * @throws IllegalArgumentException for a null registration (the IOMMU: also one whose frames and page tables
   *     exceed the memory's whole capacity)
   * @throws IllegalStateException when all 4,096 MDDs are in use or host memory is exhausted (or, for the IOMMU, the
   *     page tables need more Java heap than the JVM has left)
   */
  MemoryDomainDescriptor register(MemoryRegistration registration);

  /**
   * Deregisters memory: invalidates the MDD (later requests naming it fault with {@link Status#INVALID_MDH}) and any
   * cached translations of it.
   *
   * @param mdh a currently valid MDH
   * @throws IllegalArgumentException when the MDH is not currently registered
   */
  void deregister(int mdh);

  /**
   * Deregisters memory ({@link #deregister}) and gives what the registration took of host memory back through
   * {@code memory}, as the operating system takes a process's memory back when the process exits: its frames, and
   * page tables that are its alone. {@code memory} is the memory this translation was built on, or a view of it whose
   * copies must go too (the NIC's, a host cache's); it may keep the bytes reserved ({@link HostMemory#free}). A
   * plain {@link #deregister} gives nothing back: the memory is still its process's, registered or not.
   *
   * <p>The default deregisters and gives nothing back (false), for translators whose frames are not their own.
   *
   * @param mdh a currently valid MDH
   * @param memory the memory to give the bytes back through, whose capacity is the translation's memory's
   * @return true when the bytes were given back; false when they were not, now (the registration is deregistered
   *     all the same): the translator's frames are not its own (the default), or a translation of it may still be on
   *     its way, or the memory keeps them for now (a NIC write into them on its way). The built-in translators then
   *     give them back at their next registration or {@code deregisterAndFree} at which nothing is on its way
   * @throws IllegalArgumentException when the MDH is not currently registered, or {@code memory} is null or of
   *     another capacity; nothing is deregistered then
   */
  default boolean deregisterAndFree(int mdh, HostMemory memory) {
    if (memory == null) {
      throw new IllegalArgumentException("memory must not be null");
    }
    deregister(mdh);
    return false;
  }

  /**
   * The descriptor an MDH selects now.
   *
   * @param mdh 0..4095
   * @return the descriptor, or empty when the MDH was never registered (a deregistered one is present and invalid)
   */
  Optional<MemoryDomainDescriptor> descriptor(int mdh);

  /**
   * Translates an access, timed: the listener is called once, through the scheduler, when the translation completes
   * (at once, later, or after a PTE fetch, as the implementation models), never from inside this call, with the
   * outcome {@link #translateNow} gives for the same request. Allocation-free in steady state for the IOMMU.
   *
   * @param client who asks (statistics are kept per client)
   * @param mdh the memory domain handle, 0..4095
   * @param offset byte offset into the domain, ≥ 0
   * @param length bytes accessed, ≥ 0
   * @param access what the access does
   * @param protectionTag the requester's PTAG
   * @param protectionKey the requester's PKEY
   * @param listener called once with the outcome
   * @param ref passed back to the listener
   * @param arg passed back to the listener
   */
  void translate(
      TranslationClient client, int mdh, long offset, int length, AccessKind access, int protectionTag,
      int protectionKey, TranslationListener listener, Object ref, long arg);

  /**
   * The hit fast path of {@link #translate}: when the request can complete now as a hit (its checks pass, every line
   * its walk needs is cached, the whole range lies in one page, and nothing queued or in flight must go first), the
   * translation is done as {@link #translate} would have done it (cache, counters, pipeline occupancy), its outcome
   * goes into {@code hit} and the call returns true; the caller continues with it itself, no event and no listener.
   * Otherwise nothing changes and the call returns false: the caller then uses {@link #translate}.
   *
   * <p>What the caller gives up: {@link #translate} calls its listener from an event at the completion time, so
   * whatever the listener does is ordered at that time; a caller of this method acts before other events in between
   * run. A caller that needs that order exactly uses {@link #translate} only. The default (for translators without
   * a hit path, such as the flat one) always returns false.
   *
   * @param client who asks (statistics are kept per client)
   * @param mdh the memory domain handle, 0..4095
   * @param offset byte offset into the domain, ≥ 0
   * @param length bytes accessed, ≥ 0
   * @param access what the access does
   * @param protectionTag the requester's PTAG
   * @param protectionKey the requester's PKEY
   * @param hit where the outcome goes when this returns true
   * @return whether the request completed as a hit (then {@code hit} holds it); false leaves every state unchanged
   */
  default boolean translateHit(
      TranslationClient client, int mdh, long offset, int length, AccessKind access, int protectionTag,
      int protectionKey, TranslationHit hit) {
    return false;
  }

  /**
   * Translates an access at once, with the same checks, without timing or cache side effects: the host CPU's view of
   * its own registered memory, and a reference for tests.
   *
   * @param mdh the memory domain handle
   * @param offset byte offset into the domain
   * @param length bytes accessed
   * @param access what the access does
   * @param protectionTag the requester's PTAG
   * @param protectionKey the requester's PKEY
   * @return the outcome
   */
  TranslationResult translateNow(
      int mdh, long offset, int length, AccessKind access, int protectionTag, int protectionKey);

  /**
   * An untimed translation's outcome.
   *
   * @param status OK or the modelled fault
   * @param physicalAddress physical address of the first byte (0 on a fault)
   * @param contiguousBytes bytes physically contiguous from there (0 on a fault)
   */
  record TranslationResult(Status status, long physicalAddress, int contiguousBytes) {

    /** @param status the fault @return a failed result */
    public static TranslationResult fault(Status status) {
      return new TranslationResult(status, 0, 0);
    }

    /** @return whether the translation succeeded */
    public boolean ok() {
      return status == Status.OK;
    }

    /**
     * The contiguous bytes of a successful result, checked for a caller that walks a range piece by piece: a
     * translation that answers OK with none would leave such a walk where it is for ever.
     *
     * @param by the translation that answered, named in the refusal
     * @param mdh the handle it was asked about
     * @param offset the offset it was asked about
     * @return {@link #contiguousBytes()}, at least 1
     * @throws IllegalStateException naming the translation, the handle and the offset when an OK result has fewer
     *     than 1 contiguous byte
     */
    public int contiguousBytesFrom(AddressTranslation by, int mdh, long offset) {
      if (contiguousBytes < 1) {
        throw new IllegalStateException("translation " + (by == null ? "null" : by.getClass().getName())
            + " answered " + status + " with " + contiguousBytes + " contiguous bytes for mdh " + mdh + " at offset "
            + offset + ": a translation that succeeds must give at least 1");
      }
      return contiguousBytes;
    }
  }
}
