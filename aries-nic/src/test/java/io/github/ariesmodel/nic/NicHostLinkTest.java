package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.sim.SerialChannel;
import org.junit.jupiter.api.Test;

/**
 * The target's NIC-to-host channel carries only writes that happen: served data and the completion events asked
 * for. A GET or AMO served without a REMOTE event writes nothing into the target's host memory over the link (the
 * AMO's read-modify-write is timed by the AMO unit's read round trip), so the channel stays free.
 */
class NicHostLinkTest {

  private final Cluster c = new Cluster(2, NicConfig.defaults());
  private final CompletionQueue targetCq = c.nics[1].createCompletionQueue(8);
  private final MemoryDomainDescriptor local = c.register(0, 1 << 16);
  private final MemoryDomainDescriptor remote = c.nics[1].register(
      MemoryRegistration.of(0x10_0000L, 1 << 16, Cluster.PTAG, Cluster.PKEY).withCompletionQueue(targetCq.handle()));

  private NetworkAddress at(long offset) {
    return NetworkAddress.of(1, remote.mdh(), offset);
  }

  @Test
  void getServedWithoutRemoteEventSendsOnlyItsReadRequestTowardTheHost() {
    c.nics[0].post(Post.get(1, local.mdh(), 0, at(0), 64));
    c.run();
    assertThat(c.events(0)).singleElement().matches(e -> !e.isError());
    // The read's request (24 bytes of PCIe overhead, no data [S1 p.21]) crosses NIC -> host; its data and their
    // overhead are booked node -> NIC from the same time, 24 bytes more than the data.
    SerialChannel toNode = c.nics[1].hostLink().toNode();
    SerialChannel toNic = c.nics[1].hostLink().toNic();
    assertThat(toNode.freeAtPs()).as("the read request booked NIC -> host").isPositive();
    assertThat(toNic.freeAtPs() - toNode.freeAtPs())
        .isEqualTo(toNic.serializationPs(64 + 24) - toNode.serializationPs(24));
    assertThat(c.nics[1].statistics().hostBytesToNode()).as("no data toward the host").isZero();
    assertThat(c.nics[1].statistics().hostBytesToNic()).as("the GET's data read from host memory").isEqualTo(64);
  }

  /**
   * A memory AMO crosses its target's host link with its read of the old value (request out, 8 bytes back) and its
   * result write (8 bytes out), and nothing else when no REMOTE event is asked (until stop 68 the unit's accesses
   * were not booked on the link, and the test said the channel stayed free).
   */
  @Test
  void amoServedWithoutRemoteEventCrossesTheTargetHostLinkWithItsReadAndResultOnly() {
    c.nics[0].post(Post.amo(1, AmoOperation.parse("FADD"), at(8), 3, 0));
    c.run();
    assertThat(c.nics[1].statistics().amosExecuted()).isEqualTo(1);
    assertThat(c.nics[1].statistics().hostBytesToNic()).as("the old value read").isEqualTo(8);
    assertThat(c.nics[1].statistics().hostBytesToNode()).as("the result written, no event").isEqualTo(8);
    SerialChannel toNode = c.nics[1].hostLink().toNode();
    SerialChannel toNic = c.nics[1].hostLink().toNic();
    // The read's request (24 B) and data (32 B) are booked together; the data is in the NIC when the request has left
    // and the data has crossed after it, plus the read round trip. The write, the last transfer on the NIC-to-node
    // channel, is booked when the unit answers, its cycles later.
    long cycles = NicTiming.defaults().cyclePs() * NicTiming.defaults().amoUnitCycles();
    long readStart = toNic.freeAtPs() - toNic.serializationPs(8 + 24);
    long dataIn = readStart + toNode.serializationPs(24) + toNic.serializationPs(8 + 24)
        + NicTiming.defaults().hostReadLatencyPs();
    assertThat(toNode.freeAtPs() - toNode.serializationPs(8 + 24)).isEqualTo(dataIn + cycles);
  }

  @Test
  void aRequestedRemoteEventIsOneEightByteHostWriteVisibleWhenTheEventIs() {
    c.nics[0].post(Post.get(1, local.mdh(), 0, at(0), 64).withCompletion(Post.NO_CQ, Post.REMOTE_EVENT));
    c.nics[0].post(Post.amo(2, AmoOperation.parse("FADD"), at(8), 3, 0)
        .withCompletion(Post.NO_CQ, Post.REMOTE_EVENT));
    c.run();
    assertThat(targetCq.size()).isEqualTo(2);
    // the two events' entries, and the AMO's result (booked on the link since stop 68)
    assertThat(c.nics[1].statistics().hostBytesToNode()).isEqualTo(8 + 8 + 8);
    CompletionEvent last = c.events(1).stream().filter(e -> e.type() == CompletionType.REMOTE)
        .reduce((a, b) -> b).orElseThrow();
    long hostLatency = NicTiming.defaults().hostLatencyPs();
    assertThat(last.timePs()).isEqualTo(c.nics[1].hostLink().toNode().freeAtPs() + hostLatency);
  }

  @Test
  void aPutServedIsOneHostWriteOfItsPayloadAndItsRemoteEventRidesOnIt() {
    c.nics[0].post(Post.put(1, local.mdh(), 0, at(0), 40).withCompletion(Post.NO_CQ, Post.REMOTE_EVENT));
    c.run();
    assertThat(c.nics[1].statistics().hostBytesToNode()).isEqualTo(40);
    CompletionEvent remote = c.events(1).get(0);
    assertThat(remote.type()).isEqualTo(CompletionType.REMOTE);
    assertThat(remote.timePs()).isEqualTo(
        c.nics[1].hostLink().toNode().freeAtPs() + NicTiming.defaults().hostLatencyPs());
  }
}
