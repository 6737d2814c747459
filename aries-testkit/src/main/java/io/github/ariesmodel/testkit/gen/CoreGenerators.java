package io.github.ariesmodel.testkit.gen;

import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.AmoKind;
import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.NetworkAddresses;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.PageTableEntry;
import io.github.ariesmodel.core.PhysicalAddress;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.VirtualAddress;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.packet.PacketKind;
import io.github.ariesmodel.core.packet.WireFormat;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.quicktheories.core.Gen;

/**
 * QuickTheories generators for every aries-core value type. Values are always valid; bit fields are biased toward
 * their edges (0, 1, the maximum, the top bit alone and the value just below it, about a quarter of the time) and
 * otherwise uniform. Built from QuickTheories' own primitives, so failing examples shrink toward small values.
 *
 * <pre>{@code
 * qt().forAll(CoreGenerators.networkAddresses())
 *     .check(a -> NetworkAddress.parse(a.toString()).equals(a));
 * }</pre>
 *
 * <p>{@link CoreRandom} makes the same kinds of values from a {@link java.util.random.RandomGenerator}, for other
 * property-testing libraries. Generators of mutable {@link Packet}s create a new packet per example.
 */
public final class CoreGenerators {

  private CoreGenerators() {}

  /**
   * Unsigned values of a {@code width}-bit field, edge-biased.
   *
   * @param width 1 to 63
   * @return values in {@code [0, 2^width - 1]}
   */
  public static Gen<Long> fieldValues(int width) {
    long[] edges = Edges.of(width);
    Gen<Long> edge = arbitrary().pick(Arrays.stream(edges).boxed().toList());
    return longs().between(0, (1L << width) - 1).mix(edge, Edges.EDGE_PERCENT);
  }

  private static Gen<Integer> intField(int width) {
    return fieldValues(width).map(Long::intValue);
  }

  /** @return valid 18-bit node ids */
  public static Gen<Integer> nodeIds() {
    return intField(NetworkAddress.NODE_ID_BITS);
  }

  /**
   * Node ids of a system with {@code nodeCount} nodes, biased toward 0, 1 and the last node.
   *
   * @param nodeCount 1 to 2^18
   * @return node ids in {@code [0, nodeCount - 1]}
   */
  public static Gen<Integer> nodeIds(int nodeCount) {
    CoreRandom.checkNodeCount(nodeCount);
    return integers().between(0, nodeCount - 1)
        .mix(arbitrary().pick(List.of(0, Math.min(1, nodeCount - 1), nodeCount - 1)), Edges.EDGE_PERCENT);
  }

  /** @return valid 12-bit MDHs */
  public static Gen<Integer> mdhs() {
    return intField(NetworkAddress.MDH_BITS);
  }

  /** @return valid 40-bit offsets */
  public static Gen<Long> offsets() {
    return fieldValues(NetworkAddress.OFFSET_BITS);
  }

  /** @return valid 30-bit endpoints ({@code nodeId << 12 | mdh}) */
  public static Gen<Integer> endpoints() {
    return nodeIds().zip(mdhs(), NetworkAddresses::endpoint);
  }

  /** @return network addresses with each field edge-biased independently */
  public static Gen<NetworkAddress> networkAddresses() {
    return nodeIds().zip(mdhs(), offsets(), NetworkAddress::new);
  }

  /** @return the 17 page sizes, 4K and 2M favoured */
  public static Gen<PageSize> pageSizes() {
    return arbitrary().pick(Arrays.asList(PageSize.values()))
        .mix(arbitrary().pick(List.of(PageSize.SIZE_4K, PageSize.SIZE_2M)), 40);
  }

  /** @return canonical 48-bit virtual addresses, from both halves */
  public static Gen<VirtualAddress> virtualAddresses() {
    Gen<Long> low = fieldValues(VirtualAddress.BITS - 1);
    return low.zip(integers().between(0, 3),
        (v, half) -> VirtualAddress.of(half == 0 ? v | (-1L << (VirtualAddress.BITS - 1)) : v));
  }

  /** @return 52-bit physical addresses */
  public static Gen<PhysicalAddress> physicalAddresses() {
    return fieldValues(PhysicalAddress.BITS).map(PhysicalAddress::of);
  }

  /** @return 40-bit frame numbers */
  public static Gen<Long> frameNumbers() {
    return fieldValues(PageTableEntry.FRAME_BITS);
  }

  /** @return page-table entries: any flags and size; a leaf's frame aligned to its page size */
  public static Gen<PageTableEntry> pageTableEntries() {
    Gen<Boolean> flag = booleans().all();
    return flag.zip(flag, flag, pageSizes(), frameNumbers(), (present, writable, leaf, size, frame) ->
        new PageTableEntry(present, writable, leaf, size,
            leaf ? frame & -(size.bytes() >>> PageSize.SMALL_SHIFT) : frame));
  }

  /** @return packed page-table entries (reserved bits clear) */
  public static Gen<Long> packedPageTableEntries() {
    return pageTableEntries().map(PageTableEntry::pack);
  }

  /** @return 8-bit protection tags */
  public static Gen<Integer> protectionTags() {
    return intField(8);
  }

  /** @return 16-bit protection keys */
  public static Gen<Integer> protectionKeys() {
    return intField(16);
  }

  /** @return translation contexts 0..15 */
  public static Gen<Integer> translationContexts() {
    return intField(4);
  }

  /** @return CQ handles 0..2047, or {@link MemoryDomainDescriptor#NO_CQ} */
  public static Gen<Integer> completionQueues() {
    return intField(11).mix(arbitrary().constant(MemoryDomainDescriptor.NO_CQ), 12);
  }

  /**
   * Registrations: base aligned to the page size, length from 1 byte to a few pages (1, one page and one page ± 1
   * favoured), any flags. Drawn through {@link CoreRandom} from a generated seed; shrinking is by seed only.
   *
   * @return registrations
   */
  public static Gen<MemoryRegistration> memoryRegistrations() {
    return seeded().map(r -> CoreRandom.memoryRegistration(r));
  }

  /** @return descriptors shaped like {@link #memoryRegistrations()}, valid three times in four */
  public static Gen<MemoryDomainDescriptor> memoryDomainDescriptors() {
    return seeded().map(r -> CoreRandom.memoryDomainDescriptor(r));
  }

  /** @return the 50 AMO operations */
  public static Gen<AmoOperation> amoOperations() {
    return arbitrary().pick(Arrays.asList(AmoOperation.all()));
  }

  /** @return AMO kinds */
  public static Gen<AmoKind> amoKinds() {
    return arbitrary().enumValues(AmoKind.class);
  }

  /** @return delivery modes */
  public static Gen<DeliveryMode> deliveryModes() {
    return arbitrary().enumValues(DeliveryMode.class);
  }

  /** @return access kinds */
  public static Gen<AccessKind> accessKinds() {
    return arbitrary().enumValues(AccessKind.class);
  }

  /** @return statuses, OK included */
  public static Gen<Status> statuses() {
    return arbitrary().enumValues(Status.class);
  }

  /** @return packet kinds */
  public static Gen<PacketKind> packetKinds() {
    return arbitrary().enumValues(PacketKind.class);
  }

  /** @return payload lengths 0..64, favouring 0, 1, 8 and 64 */
  public static Gen<Integer> payloadLengths() {
    return integers().between(0, WireFormat.MAX_PAYLOAD)
        .mix(arbitrary().pick(List.of(0, 1, 8, WireFormat.MAX_PAYLOAD)), Edges.EDGE_PERCENT);
  }

  /**
   * Requests (PUT, GET, AMO) between nodes of a system. Drawn through {@link CoreRandom} from a generated seed.
   *
   * @param nodeCount nodes in the system, 1 to 2^18
   * @return new request packets
   */
  public static Gen<Packet> requests(int nodeCount) {
    CoreRandom.checkNodeCount(nodeCount);
    return seeded().map(r -> CoreRandom.request(r, nodeCount));
  }

  /**
   * Packets of every kind (requests, the responses that answer them, collective-engine packets) between nodes of a
   * system.
   *
   * @param nodeCount nodes in the system, 1 to 2^18
   * @return new packets
   */
  public static Gen<Packet> packets(int nodeCount) {
    CoreRandom.checkNodeCount(nodeCount);
    return seeded().map(r -> CoreRandom.packet(r, nodeCount));
  }

  private static Gen<SplittableRandom> seeded() {
    return longs().all().map(SplittableRandom::new);
  }
}
