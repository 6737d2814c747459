package io.github.ariesmodel.testkit.gen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.PageTableEntry;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.packet.PacketKind;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class CoreRandomTest {

  private static <T> List<T> draw(long seed, int n, Function<RandomGenerator, T> f) {
    RandomGenerator r = new SplittableRandom(seed);
    List<T> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(f.apply(r));
    }
    return out;
  }

  @Test
  void theSameSeedGivesTheSameValues() {
    assertThat(draw(7, 1_000, CoreRandom::networkAddress)).isEqualTo(draw(7, 1_000, CoreRandom::networkAddress));
    assertThat(draw(7, 1_000, CoreRandom::networkAddress)).isNotEqualTo(draw(8, 1_000, CoreRandom::networkAddress));
    assertThat(draw(7, 200, r -> CoreRandom.packet(r, 16).toString()))
        .isEqualTo(draw(7, 200, r -> CoreRandom.packet(r, 16).toString()));
  }

  @Test
  void fieldsReachEveryEdgeAndStayInRange() {
    List<NetworkAddress> as = draw(1, 10_000, CoreRandom::networkAddress);
    Set<Integer> nodes = new HashSet<>();
    Set<Long> offsets = new HashSet<>();
    as.forEach(a -> {
      nodes.add(a.nodeId());
      offsets.add(a.offset());
    });
    assertThat(nodes).contains(0, 1, NetworkAddress.MAX_NODE_ID, 1 << 17, (1 << 17) - 1);
    assertThat(offsets).contains(0L, 1L, NetworkAddress.MAX_OFFSET, 1L << 39, (1L << 39) - 1);
    assertThat(draw(2, 10_000, r -> CoreRandom.field(r, 5))).allMatch(v -> v >= 0 && v < 32)
        .contains(0L, 1L, 15L, 16L, 31L);
  }

  @Test
  void everyKindOfValueIsProducedAndValid() {
    assertThat(new HashSet<>(draw(3, 2_000, CoreRandom::pageSize))).containsExactlyInAnyOrder(PageSize.values());
    assertThat(EnumSet.copyOf(CoreRandomTest.<PacketKind>draw(4, 2_000, r -> CoreRandom.packet(r, 4).kind())))
        .isEqualTo(EnumSet.allOf(PacketKind.class));
    assertThat(new HashSet<>(draw(5, 5_000, CoreRandom::amoOperation))).hasSize(50);
    assertThat(draw(6, 5_000, CoreRandom::pageTableEntry)).allMatch(e -> PageTableEntry.unpack(e.pack()).equals(e));
    assertThat(draw(9, 5_000, CoreRandom::memoryDomainDescriptor)).extracting(MemoryDomainDescriptor::valid)
        .contains(true, false);
    assertThat(draw(10, 5_000, r -> CoreRandom.request(r, 3)))
        .allMatch(Packet::isRequest)
        .allMatch(p -> p.sourceNode() < 3 && p.destinationNode() < 3);
    assertThat(draw(11, 5_000, CoreRandom::virtualAddress)).anyMatch(v -> v.value() < 0).anyMatch(v -> v.value() > 0);
  }

  @Test
  void badArgumentsAreRejected() {
    RandomGenerator r = new SplittableRandom(0);
    assertThatThrownBy(() -> CoreRandom.field(r, 64))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("width must be in [1, 63] but was 64");
    assertThatThrownBy(() -> CoreRandom.nodeId(r, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodeCount must be in [1, 262144] but was 0");
    assertThat(CoreRandom.nodeId(r, 1)).isZero();
  }
}
