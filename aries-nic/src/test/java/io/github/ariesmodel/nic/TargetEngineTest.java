package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.packet.PacketKind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The target side alone: request pipeline timing, PUT writes, GET reads, CQ writes, AMO unit, errors. */
class TargetEngineTest {

  private final StageRig rig = new StageRig(NicConfig.defaults());
  private final CompletionQueue cq = rig.completions.create(16);
  private final MemoryDomainDescriptor d = rig.register(1 << 16, cq.handle());
  private final List<CompletionEvent> events = new ArrayList<>();

  {
    rig.completions.listener(events::add);
  }

  private Packet put(long offset, int tagField, byte... data) {
    return Packet.put(1, NetworkAddress.of(0, d.mdh(), offset), tagField, DeliveryMode.ADAPTIVE_0, data, 1, 1);
  }

  @Test
  void requestsArrivingTogetherAreServedOnePacketSlotApart() {
    for (int i = 0; i < 3; i++) {
      rig.target.receive(0, put(64L * i, i, (byte) i));
    }
    rig.loop.run();
    assertThat(rig.fabric.packets).extracting(Packet::kind).containsOnly(PacketKind.ACK_RESPONSE);
    long rx = rig.rxPs();
    assertThat(rig.fabric.times).containsExactly(rx, rx + rig.slotPs(), rx + 2 * rig.slotPs());
    assertThat(rig.stats.requestsServed()).isEqualTo(3);
  }

  @Test
  void aPutWritesItsPayloadAndItsRemoteEventIsVisibleWithTheData() {
    rig.target.receive(0, put(100, 7 | RequestTag.REMOTE_EVENT, (byte) 1, (byte) 2, (byte) 3));
    rig.loop.run();
    byte[] b = new byte[3];
    rig.memory.read(rig.translation.translateNow(d.mdh(), 100, 3, io.github.ariesmodel.core.AccessKind.READ, 1, 1)
        .physicalAddress(), b, 0, 3);
    assertThat(b).containsExactly(1, 2, 3);
    long visible = rig.rxPs() + rig.host.toNode().serializationPs(3 + rig.config.timing().hostOverheadBytes())
        + rig.config.timing().hostLatencyPs();
    assertThat(events).singleElement().satisfies(e -> {
      assertThat(e.timePs()).isEqualTo(visible);
      assertThat(e.postId()).isEqualTo(7);
      assertThat(e.peerNode()).isEqualTo(1);
    });
    assertThat(cq.size()).isEqualTo(1);
  }

  @Test
  void aGetAnswersWithItsDataAfterTheHostReadRoundTrip() {
    long pa = rig.translation.translateNow(d.mdh(), 64, 8, io.github.ariesmodel.core.AccessKind.READ, 1, 1)
        .physicalAddress();
    rig.memory.writeLong(pa, 0x1122_3344_5566_7788L);
    rig.target.receive(0,
        Packet.get(1, NetworkAddress.of(0, d.mdh(), 64), 3, DeliveryMode.ADAPTIVE_0, 8, 1, 1));
    rig.loop.run();
    assertThat(rig.fabric.packets).singleElement().satisfies(p -> {
      assertThat(p.kind()).isEqualTo(PacketKind.DATA_RESPONSE);
      assertThat(io.github.ariesmodel.core.LittleEndian.getLong(p.data())).isEqualTo(0x1122_3344_5566_7788L);
    });
    // The read's request (overhead bytes alone) goes to the host first, then the data and their overhead come back.
    int overhead = rig.config.timing().hostOverheadBytes();
    assertThat(rig.fabric.times).containsExactly(rig.rxPs() + rig.host.toNode().serializationPs(overhead)
        + rig.host.toNic().serializationPs(8 + overhead) + rig.config.timing().hostReadLatencyPs());
    assertThat(events).isEmpty();
    assertThat(rig.host.toNode().freeAtPs()).as("only the read request, no host write without a remote event")
        .isEqualTo(rig.rxPs() + rig.host.toNode().serializationPs(overhead));
  }

  @Test
  void aCqWriteAppendsItsValueOrIsRefusedForAnUnknownQueue() {
    byte[] value = io.github.ariesmodel.core.LittleEndian.ofLong(0xFFFF_0000_1234_5678L);
    rig.target.receive(0, Packet.put(2, NetworkAddress.of(0, cq.handle(), 0), 4 | RequestTag.CQ_WRITE,
        DeliveryMode.ADAPTIVE_0, value, 1, 1));
    rig.target.receive(0, Packet.put(2, NetworkAddress.of(0, 9, 0), 5 | RequestTag.CQ_WRITE,
        DeliveryMode.ADAPTIVE_0, value, 1, 1));
    rig.loop.run();
    assertThat(cq.getEvent().userData()).isEqualTo(0xFFFF_0000_1234_5678L & Post.MAX_CQ_WRITE_VALUE);
    assertThat(rig.fabric.packets).extracting(Packet::kind)
        .containsExactly(PacketKind.ACK_RESPONSE, PacketKind.ERROR_RESPONSE);
    assertThat(rig.fabric.packets.get(1).status()).isEqualTo(Status.INVALID_MDH);
    assertThat(rig.stats.requestFaults()).isEqualTo(1);
  }

  @Test
  void aFaultingRequestIsAnsweredWithAnErrorAndWritesNothing() {
    rig.target.receive(0, put((1 << 16) - 2, 1, (byte) 9, (byte) 9, (byte) 9, (byte) 9));
    rig.loop.run();
    assertThat(rig.fabric.packets).singleElement().matches(p -> p.status() == Status.OUT_OF_BOUNDS);
    assertThat(rig.host.toNode().freeAtPs()).isZero();
  }

  @Test
  void theAmoUnitHoldsAtMostItsRequestListAndAnswersAfterItsLatency() {
    StageRig one = new StageRig(new NicConfig(NicTiming.defaults(), 64, 1, 4, 4096, 8, 1, 1));
    MemoryDomainDescriptor m = one.register(4096, -1);
    AmoOperation fadd = AmoOperation.parse("FADD");
    for (int i = 0; i < 3; i++) {
      one.target.receive(0, Packet.amo(1, NetworkAddress.of(0, m.mdh(), 8), i, DeliveryMode.ADAPTIVE_0, fadd, 5, 0,
          1, 1));
    }
    one.loop.runUntil(one.rxPs() + 2 * one.slotPs());
    assertThat(one.amoUnit.inFlight()).isEqualTo(1);
    assertThat(one.amoUnit.waiting()).isEqualTo(2);
    one.loop.run();
    NicTiming t = NicTiming.defaults();
    long latency = t.hostReadLatencyPs() + t.cyclePs() * t.amoUnitCycles();
    // Since stop 68 the unit's host accesses cross the host link: the read's request (the overhead bytes alone), then
    // its data (8 bytes and the overhead) back; each answer first writes its result (8 + overhead) on the NIC-to-node
    // channel, in front of the next AMO's read request.
    long request = wirePs(t, t.hostOverheadBytes());
    long word = wirePs(t, 8 + t.hostOverheadBytes());
    long first = one.rxPs() + request + word + latency;
    long next = word + request + word + latency;
    assertThat(one.fabric.packets).extracting(Packet::operand1).containsExactly(0L, 5L, 10L);
    assertThat(one.fabric.times).containsExactly(first, first + next, first + 2 * next);
    assertThat(one.stats.amosExecuted()).isEqualTo(3);
  }

  /** @return picoseconds {@code bytes} take on a host-link channel at the timing's rate */
  private static long wirePs(NicTiming t, long bytes) {
    return Math.round(bytes * 1e12 / t.hostBytesPerSecond());
  }
}
