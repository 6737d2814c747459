package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.packet.Packet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Events are 8-byte host writes; REMOTE events are written only when asked for and their CQ exists. */
class CompletionWriterTest {

  private final StageRig rig = new StageRig(NicConfig.defaults());
  private final List<CompletionEvent> events = new ArrayList<>();

  {
    rig.completions.listener(events::add);
  }

  private Packet get(int mdh, int tagField) {
    return Packet.get(2, NetworkAddress.of(0, mdh, 0), tagField, DeliveryMode.ADAPTIVE_0, 8, 1, 1);
  }

  @Test
  void eventsQueueBehindEachOtherOnTheHostLink() {
    CompletionQueue cq = rig.completions.create(4);
    for (int i = 0; i < 3; i++) {
      rig.completions.write(0, CompletionType.GLOBAL, Status.OK, i, 1, 0, cq.handle());
    }
    rig.loop.run();
    long eight = rig.host.toNode().serializationPs(8 + rig.config.timing().hostOverheadBytes());
    long latency = rig.config.timing().hostLatencyPs();
    assertThat(events).extracting(CompletionEvent::timePs)
        .containsExactly(eight + latency, 2 * eight + latency, 3 * eight + latency);
    assertThat(cq.size()).isEqualTo(3);
    assertThat(rig.stats.eventsWritten()).isEqualTo(3);
    assertThat(rig.stats.hostBytesToNode()).isEqualTo(24);
  }

  @Test
  void aRemoteEventIsWrittenOnlyWhenAskedForAndItsQueueExists() {
    CompletionQueue cq = rig.completions.create(4);
    MemoryDomainDescriptor withCq = rig.register(4096, cq.handle());
    MemoryDomainDescriptor withoutCq = rig.register(4096, -1);
    rig.completions.remoteEvent(0, get(withCq.mdh(), 1));
    rig.completions.remoteEvent(0, get(withoutCq.mdh(), 2 | RequestTag.REMOTE_EVENT));
    rig.loop.run();
    assertThat(events).isEmpty();
    assertThat(rig.host.toNode().freeAtPs()).isZero();
    rig.completions.remoteEvent(0, get(withCq.mdh(), 3 | RequestTag.REMOTE_EVENT));
    rig.loop.run();
    assertThat(events).singleElement().satisfies(e -> {
      assertThat(e.type()).isEqualTo(CompletionType.REMOTE);
      assertThat(e.postId()).isEqualTo(3);
      assertThat(e.peerNode()).isEqualTo(2);
    });
    assertThat(rig.stats.hostBytesToNode()).isEqualTo(8);
  }

  @Test
  void aRemoteEventForAQueueThisNicLacksIsDroppedAndCounted() {
    // The registration names CQ 3 but this NIC has none: the translation port does not know about CQs.
    MemoryDomainDescriptor dangling = rig.register(4096, 3);
    rig.completions.remoteEvent(0, get(dangling.mdh(), 1 | RequestTag.REMOTE_EVENT));
    rig.loop.run();
    assertThat(events).isEmpty();
    assertThat(rig.stats.remoteEventsDropped()).isEqualTo(1);
    assertThat(rig.host.toNode().freeAtPs()).isZero();
  }
}
