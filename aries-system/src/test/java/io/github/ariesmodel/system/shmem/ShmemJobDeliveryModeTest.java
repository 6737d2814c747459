package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.packet.PacketKind;
import io.github.ariesmodel.core.sim.IdealFabric;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.DelegatingFabric;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The SHMEM job routes as DMAPP defaults it [S8]: PUTs and AMOs deterministic (MIN_HASH), GETs adaptive. */
class ShmemJobDeliveryModeTest {

  /** Records the delivery mode of every request packet by kind. */
  private static final class ModeRecorder extends DelegatingFabric {
    final Map<PacketKind, Set<DeliveryMode>> modes = new EnumMap<>(PacketKind.class);

    ModeRecorder(Fabric inner) {
      super(inner);
    }

    @Override
    public boolean inject(Packet packet) {
      if (packet.isRequest()) {
        modes.computeIfAbsent(packet.kind(), k -> EnumSet.noneOf(DeliveryMode.class)).add(packet.deliveryMode());
      }
      return inner.inject(packet);
    }
  }


  private static ModeRecorder run(boolean explicitAdaptive) {
    ModeRecorder[] holder = new ModeRecorder[1];
    AriesSystem sys = AriesSystem.builder().system("default")
        .fabric((topology, clock) -> {
          holder[0] = new ModeRecorder(new IdealFabric(clock, topology.nodeCount(), 1_000, 10e9));
          return holder[0];
        })
        .build();
    ShmemJob.Builder b = ShmemJob.builder(sys).nodes(0, 4);
    ShmemJob job = (explicitAdaptive ? b.deliveryMode(DeliveryMode.ADAPTIVE_2) : b).build();
    Symmetric buf = job.allocate(4096);
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.putmem(buf, 0, buf, 0, 4096, 1);
        pe.getmem(buf, 0, buf, 0, 4096, 1);
        pe.atomicFetchAdd(buf, 0, 1, 1);
        pe.quiet();
      }
    });
    return holder[0];
  }

  @Test
  void putsAndAmosAreDeterministicAndGetsAdaptiveByDefault() {
    Map<PacketKind, Set<DeliveryMode>> modes = run(false).modes;
    assertThat(modes).isNotEmpty();
    modes.forEach((kind, set) -> {
      DeliveryMode expected = kind.name().contains("GET") ? DeliveryMode.ADAPTIVE_0 : DeliveryMode.MIN_HASH;
      assertThat(set).as("%s", kind).containsExactly(expected);
    });
    assertThat(modes.keySet().stream().anyMatch(k -> k.name().contains("GET"))).isTrue();
    assertThat(modes.keySet().stream().anyMatch(k -> k.name().contains("AMO"))).isTrue();
  }

  @Test
  void aModeSetOnTheBuilderAppliesToEveryPost() {
    Map<PacketKind, Set<DeliveryMode>> modes = run(true).modes;
    assertThat(modes).isNotEmpty();
    modes.values().forEach(set -> assertThat(set).containsExactly(DeliveryMode.ADAPTIVE_2));
  }
}
