package io.github.ariesmodel.testkit.gen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.PageTableEntry;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.packet.PacketKind;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** The generators produce valid values and reach every field's edges. Seeds are fixed so counts are stable. */
class CoreGeneratorsProperties {

  private static final long SEED = 20_261_129L;

  /** Collects {@code key(value)} over 10,000 examples of {@code gen}. */
  private static <T, K> Set<K> sample(Gen<T> gen, Function<T, K> key) {
    Set<K> seen = new HashSet<>();
    qt().withFixedSeed(SEED).withExamples(10_000).forAll(gen).check(v -> seen.add(key.apply(v)) || true);
    return seen;
  }

  @Test
  void networkAddressFieldsReachEveryEdge() {
    Set<Integer> nodes = sample(CoreGenerators.networkAddresses(), NetworkAddress::nodeId);
    Set<Integer> mdhs = sample(CoreGenerators.networkAddresses(), NetworkAddress::mdh);
    Set<Long> offsets = sample(CoreGenerators.networkAddresses(), NetworkAddress::offset);
    assertThat(nodes).contains(0, 1, NetworkAddress.MAX_NODE_ID, 1 << 17, (1 << 17) - 1);
    assertThat(mdhs).contains(0, 1, NetworkAddress.MAX_MDH, 1 << 11, (1 << 11) - 1);
    assertThat(offsets).contains(0L, 1L, NetworkAddress.MAX_OFFSET, 1L << 39, (1L << 39) - 1);
    // and plenty of non-edge values
    assertThat(nodes).hasSizeGreaterThan(1_000);
  }

  @Test
  void everyPageSizePacketKindAndAmoOperationIsGenerated() {
    assertThat(sample(CoreGenerators.pageSizes(), p -> p)).containsExactlyInAnyOrder(PageSize.values());
    assertThat(sample(CoreGenerators.packets(64), Packet::kind)).isEqualTo(EnumSet.allOf(PacketKind.class));
    assertThat(sample(CoreGenerators.amoOperations(), op -> op)).hasSize(50);
  }

  @Test
  void pageTableEntriesRoundTripAndCoverFlagsAndEdges() {
    qt().withExamples(10_000).forAll(CoreGenerators.pageTableEntries())
        .check(e -> PageTableEntry.unpack(e.pack()).equals(e));
    Set<Long> frames = sample(CoreGenerators.pageTableEntries(), e -> e.leaf() ? -1L : e.frameNumber());
    assertThat(frames).contains(0L, PageTableEntry.MAX_FRAME, 1L << 39);
  }

  @Test
  void nodeIdsOfASystemStayInsideIt() {
    qt().withExamples(10_000).forAll(CoreGenerators.nodeIds(7)).check(n -> n >= 0 && n < 7);
    assertThat(sample(CoreGenerators.nodeIds(7), n -> n)).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6);
    qt().withExamples(1_000).forAll(CoreGenerators.packets(3))
        .check(p -> p.sourceNode() < 3 && p.destinationNode() < 3);
  }

  @Test
  void descriptorsAndRegistrationsAreValidAndVaried() {
    // Construction validates; a generator that produced an invalid value would throw here.
    Set<Boolean> valid = sample(CoreGenerators.memoryDomainDescriptors(), MemoryDomainDescriptor::valid);
    assertThat(valid).containsExactlyInAnyOrder(true, false);
    Set<Long> lengths = sample(CoreGenerators.memoryRegistrations(), r -> r.length() - r.pageSize().bytes());
    assertThat(lengths).as("one page, one page + 1 and one page - 1 all occur").contains(0L, 1L, -1L);
    qt().withExamples(1_000).forAll(CoreGenerators.memoryRegistrations())
        .check(r -> r.pageSize().isAligned(r.virtualBase()));
  }

  @Test
  void hostAddressesAreCanonicalAndCoverBothHalves() {
    Set<Boolean> upper = sample(CoreGenerators.virtualAddresses(), v -> v.value() < 0);
    assertThat(upper).containsExactlyInAnyOrder(true, false);
    assertThat(sample(CoreGenerators.physicalAddresses(), p -> p.value())).contains(0L, (1L << 52) - 1);
  }
}
