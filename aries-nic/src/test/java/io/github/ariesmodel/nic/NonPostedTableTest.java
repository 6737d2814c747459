package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.LittleEndian;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.packet.PacketKind;
import org.junit.jupiter.api.Test;

/**
 * The target's non-posted table: a GET's host read holds one of its 64 tags until the data is back in the NIC, GETs
 * beyond the tags wait in arrival order, and posted writes pass them.
 */
class NonPostedTableTest {

  private final StageRig rig = new StageRig(NicConfig.defaults());
  private final MemoryDomainDescriptor d = rig.register(1 << 20, -1);

  private Packet get(int line) {
    return Packet.get(1, NetworkAddress.of(0, d.mdh(), 64L * line), line, DeliveryMode.ADAPTIVE_0, 64, 1, 1);
  }

  private long pa(long offset) {
    return rig.translation.translateNow(d.mdh(), offset, 8, AccessKind.READ, 1, 1).physicalAddress();
  }

  @Test
  void getsBeyondTheTagsWaitForTheOldestReadAndEveryOneIsAnsweredWithItsData() {
    int n = 3 * TargetEngine.NPT_TAGS + 5;
    for (int i = 0; i < n; i++) {
      rig.memory.writeLong(pa(64L * i), 1000 + i);
      rig.target.receive(0, get(i));
    }
    rig.loop.run();

    assertThat(rig.target.maxNptTagsInUse()).isEqualTo(TargetEngine.NPT_TAGS);
    assertThat(rig.target.waitingForTag()).isZero();
    assertThat(rig.target.nptTagsInUse(rig.loop.now())).isZero();
    assertThat(rig.fabric.packets).hasSize(n);
    for (int i = 0; i < n; i++) {
      Packet p = rig.fabric.packets.get(i);
      assertThat(p.kind()).isEqualTo(PacketKind.DATA_RESPONSE);
      assertThat(LittleEndian.getLong(p.data())).as("line %d", i).isEqualTo(1000 + (p.offset() / 64));
    }
    // The 65th GET arrived while all 64 reads were out (64 slots < one read round trip): its read starts when the
    // first one's data is back, so its response leaves one read after the first's, not 64 pipeline slots after it.
    long read = rig.config.timing().hostReadLatencyPs();
    int overhead = rig.config.timing().hostOverheadBytes();
    long serial = rig.host.toNode().serializationPs(overhead) + rig.host.toNic().serializationPs(64 + overhead);
    long first = rig.fabric.times.get(0);
    assertThat(TargetEngine.NPT_TAGS * rig.slotPs()).isLessThan(read);
    assertThat(rig.fabric.times.get(TargetEngine.NPT_TAGS)).isEqualTo(first + serial + read);
    // Over the whole stream: one batch of 64 lines per read round trip at most.
    long span = rig.fabric.times.get(n - 1) - first;
    assertThat(span).isGreaterThanOrEqualTo((long) (n / TargetEngine.NPT_TAGS - 1) * read);
  }

  @Test
  void asManyGetsAsTagsNeverWait() {
    for (int i = 0; i < TargetEngine.NPT_TAGS; i++) {
      rig.target.receive(0, get(i));
    }
    rig.loop.run();
    int overhead = rig.config.timing().hostOverheadBytes();
    // a read's request, then its data, each with the host link's overhead
    long serial = rig.host.toNode().serializationPs(overhead) + rig.host.toNic().serializationPs(64 + overhead);
    long read = rig.config.timing().hostReadLatencyPs();
    assertThat(rig.fabric.times).hasSize(TargetEngine.NPT_TAGS);
    for (int i = 0; i < TargetEngine.NPT_TAGS; i++) {
      // each read starts when its request leaves the pipeline (the host link is faster than the pipeline)
      assertThat(rig.fabric.times.get(i)).isEqualTo(rig.rxPs() + i * rig.slotPs() + serial + read);
    }
  }

  @Test
  void aPutIsNotHeldBehindGetsWaitingForATag() {
    for (int i = 0; i < 2 * TargetEngine.NPT_TAGS; i++) {
      rig.target.receive(0, get(i));
    }
    long putArrives = 2 * TargetEngine.NPT_TAGS * rig.slotPs();
    rig.target.receive(putArrives, Packet.put(1, NetworkAddress.of(0, d.mdh(), 1 << 19), 999,
        DeliveryMode.ADAPTIVE_0, new byte[] {1, 2, 3}, 1, 1));
    rig.loop.run();
    int ack = -1;
    for (int i = 0; i < rig.fabric.packets.size(); i++) {
      if (rig.fabric.packets.get(i).kind() == PacketKind.ACK_RESPONSE) {
        ack = i;
      }
    }
    assertThat(ack).isNotNegative();
    assertThat(rig.fabric.times.get(ack)).isEqualTo(putArrives + rig.rxPs());
    assertThat(rig.fabric.times.get(rig.fabric.times.size() - 1)).isGreaterThan(putArrives + rig.rxPs());
  }
}
