package io.github.ariesmodel.core.spi;

/**
 * A node's physical memory as the NIC and IOMMU see it over the host interface (a driven port). Addresses are
 * physical; multi-byte words are little-endian, as on x86-64 hosts. Reading memory never written returns zeros.
 *
 * <p>The built-in implementation, {@link io.github.ariesmodel.core.sim.SparsePhysicalMemory}, materializes only the
 * pages that are written, so a system of 92,544 nodes does not allocate its nodes' memories up front.
 *
 * <p>Out-of-range addresses are caller mistakes ({@link IllegalArgumentException} whose message names the address;
 * a refused write changes nothing): a correct NIC and IOMMU only touch addresses that translation produced.
 *
 * <p>The port has no atomic operations: the NIC's AMO unit reads, computes and writes through it, and a simulation
 * is single-threaded. {@code io.github.ariesmodel.testkit.core.HostMemoryContract} (aries-testkit) checks an
 * implementation against this contract.
 */
public interface HostMemory {

  /** @return bytes of physical memory, addresses 0 to capacity - 1 */
  long capacity();

  /**
   * The physical memory this memory is, or is a view of: a view (a cache's, the NIC's) answers what the memory below
   * it answers. A translator that gives frames back through a memory it is handed ({@code
   * AddressTranslation#deregisterAndFree}) compares it with its own, so that frames are never given back to another
   * node's memory, whose capacity is the same.
   *
   * @return the physical memory below, or null when this memory does not say (the default: a translator then takes
   *     it on trust)
   */
  default HostMemory physicalMemory() {
    return null;
  }

  /**
   * Copies bytes out of memory.
   *
   * @param address first physical address
   * @param dst destination array
   * @param dstOffset first index written in dst
   * @param length bytes to copy
   * @throws IllegalArgumentException when the range lies outside the memory, or dst is null or too short
   */
  void read(long address, byte[] dst, int dstOffset, int length);

  /**
   * Copies bytes into memory.
   *
   * @param address first physical address
   * @param src source array
   * @param srcOffset first index read in src
   * @param length bytes to copy
   * @throws IllegalArgumentException when the range lies outside the memory (nothing is written), or src is null or
   *     too short
   */
  void write(long address, byte[] src, int srcOffset, int length);

  /** @param address physical address @return the little-endian 64-bit word there */
  long readLong(long address);

  /** @param address physical address @param value the 64-bit word to store, little-endian */
  void writeLong(long address, long value);

  /** @param address physical address @return the little-endian 32-bit word there */
  int readInt(long address);

  /** @param address physical address @param value the 32-bit word to store, little-endian */
  void writeInt(long address, int value);

  /**
   * Reserves physical memory (frames for registered pages, page tables, completion queues). Never returns the same
   * bytes twice; the reserved bytes read as zero until written.
   *
   * @param bytes bytes to reserve, > 0
   * @param alignment power of two, ≥ 1
   * @return the physical address of the first reserved byte
   * @throws IllegalArgumentException when {@code bytes} is not positive or {@code alignment} not a power of two
   * @throws IllegalStateException when the memory is exhausted (a configuration mistake: the node is too small for
   *     what was registered)
   */
  long allocate(long bytes, long alignment);

  /**
   * @return bytes reserved now: what {@link #allocate} reserved (with the bytes alignment skipped) less what
   *     {@link #free} gave back
   */
  long allocatedBytes();

  /**
   * Gives back bytes that {@link #allocate} reserved and nothing uses any more, as the operating system takes a
   * process's memory back when the process exits: their contents are dropped (they read as zero, also when handed
   * out again) and a later {@link #allocate} may hand them out again. A memory that never reuses what it reserved
   * keeps them reserved, changes nothing and answers false: that is the default, a bump allocator's answer.
   *
   * <p>A view with copies of memory in front of it (a {@link HostCache}'s, the NIC's writes on their way) drops its
   * copies of the bytes before it gives them back, without writing them to memory, and answers false, changing
   * nothing, when it cannot (a write into the bytes still on its way).
   *
   * @param address first byte, inside memory {@link #allocate} reserved and not given back since
   * @param bytes bytes to give back, > 0, all reserved
   * @return true when the bytes were given back, false when this memory keeps them reserved
   * @throws IllegalArgumentException when {@code bytes} is not positive, or (where the memory can tell) some of the
   *     bytes are not reserved: never allocated, or given back already; nothing is given back then
   */
  default boolean free(long address, long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("bytes must be > 0 but was " + bytes);
    }
    return false;
  }
}
