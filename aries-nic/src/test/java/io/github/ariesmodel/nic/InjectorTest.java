package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.packet.Packet;
import org.junit.jupiter.api.Test;

/** Refused packets are held in order, retried on injectionReady, and pause the issue pipeline at the hold limit. */
class InjectorTest {

  /** The CPU's FMA stores are free here, so requests issue one per slot (the FMA front end has its own tests). */
  private final StageRig rig = new StageRig(NicConfig.defaults().withTiming(
      NicTiming.defaults().withFma(0, Double.POSITIVE_INFINITY, 0)));

  private static Packet request(int i) {
    return Packet.get(0, NetworkAddress.of(1, 5, 64L * i), 0, DeliveryMode.ADAPTIVE_0, 8, 1, 1);
  }

  @Test
  void aRefusedPacketAndEveryLaterOneWaitInOrderUntilTheFabricIsReady() {
    // Responses only (no transaction behind them): the injector's order alone is under test.
    Packet[] responses = new Packet[4];
    for (int i = 0; i < 4; i++) {
      responses[i] = Packet.ack(request(i));
    }
    rig.fabric.refuseNext = 1;
    for (int i = 0; i < 4; i++) {
      rig.injector.injectAt(1000L * i, responses[i]);
    }
    rig.loop.run();
    assertThat(rig.fabric.packets).isEmpty();
    assertThat(rig.injector.held()).isEqualTo(4);
    assertThat(rig.stats.injectionsRefused()).isEqualTo(1);
    rig.fabric.refuseNext = 2;
    rig.injector.ready(rig.loop.now());
    assertThat(rig.fabric.packets).isEmpty();
    assertThat(rig.stats.injectionsRefused()).isEqualTo(2);
    rig.fabric.refuseNext = 0;
    rig.injector.ready(rig.loop.now());
    assertThat(rig.fabric.packets).containsExactly(responses);
    assertThat(rig.injector.held()).isZero();
    assertThat(rig.stats.responsesSent()).isEqualTo(4);
    assertThat(rig.stats.packetsSent()).isEqualTo(4);
  }

  @Test
  void issuePausesWhileTheHoldLimitIsReachedAndResumesWhenDrained() {
    MemoryDomainDescriptor local = rig.register(1 << 20, -1);
    rig.fabric.refuseNext = 1;
    // One GET of 100 lines: its requests pile up behind the refused first one.
    rig.table.accept(Post.get(1, local.mdh(), 0, NetworkAddress.of(1, 5, 0), 6400));
    rig.loop.run();
    int limit = rig.config.injectHoldLimit();
    // Request k is issued at k slots and reaches the injector 50 ns (8 slots) later, so the slot of request k finds
    // k - 7 held: the slot that would issue request 15 finds 8 and pauses. Requests 0..14 all end up held.
    long inPipeline = rig.txPs() / rig.slotPs();
    assertThat(rig.issue.paused()).isTrue();
    Transaction t = rig.table.find(0);
    assertThat(rig.injector.held()).isEqualTo(t.issued).isEqualTo(limit + inPipeline - 1);
    rig.injector.ready(rig.loop.now());
    assertThat(rig.issue.paused()).isFalse();
    rig.loop.run();
    assertThat(rig.fabric.packets).hasSize(100);
    assertThat(t.injected).isEqualTo(100);
    assertThat(rig.stats.requestsSent()).isEqualTo(100);
  }
}
