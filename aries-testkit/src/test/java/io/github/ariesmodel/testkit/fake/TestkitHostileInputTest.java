package io.github.ariesmodel.testkit.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.testkit.gen.CoreRandom;
import io.github.ariesmodel.testkit.network.LinkLists;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Hostile input to the testkit's public helpers: one line naming the parameter, and a refused call changes nothing. */
class TestkitHostileInputTest {

  @Test
  void advancingPastTheClocksEndIsRefusedNamingTheDelayAndRunsNothing() {
    ManualScheduler clock = new ManualScheduler(10);
    int[] ran = {0};
    clock.scheduleAt(20, (now, ref, arg) -> ran[0]++, null, 0);
    assertThatThrownBy(() -> clock.advanceBy(Long.MAX_VALUE)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("delayPs must be in [0, " + (Long.MAX_VALUE - 10) + "] (to end within the clock from now, 10 ps)"
            + " but was " + Long.MAX_VALUE);
    assertThat(clock.now()).isEqualTo(10);
    assertThat(ran[0]).isZero();
    assertThat(clock.advanceBy(Long.MAX_VALUE - 10)).isEqualTo(1);
    assertThat(clock.now()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void aReorderingFabricsLatenciesAreBoundedSoNoArrivalWraps() {
    ManualScheduler clock = new ManualScheduler();
    assertThatThrownBy(() -> new ReorderingFabric(clock, 2, Long.MAX_VALUE, 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("latencyPs must be in [0, 1e9] ps (1 ms) but was " + Long.MAX_VALUE);
    assertThatThrownBy(() -> new ReorderingFabric(clock, 2, 0, Long.MAX_VALUE - 1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("jitterPs must be in [0, 1e9] ps (1 ms) but was " + (Long.MAX_VALUE - 1));
    ReorderingFabric slowest = new ReorderingFabric(clock, 2, 1_000_000_000L, 1_000_000_000L, 1);
    RecordingEndpoint node1 = new RecordingEndpoint();
    slowest.attach(0, new RecordingEndpoint());
    slowest.attach(1, node1);
    clock.advanceTo(5);
    slowest.inject(Packet.put(0, NetworkAddress.of(1, 2, 3), 7, DeliveryMode.IN_ORDER, new byte[8], 0, 0));
    clock.runAll(10);
    assertThat(node1.deliveries()).singleElement()
        .satisfies(d -> assertThat(d.timePs()).isBetween(1_000_000_005L, 2_000_000_005L));
  }

  @Test
  void aDeliveryToANodeWithoutAnEndpointLeavesThePacketPending() {
    ManualScheduler clock = new ManualScheduler();
    RecordingFabric fabric = new RecordingFabric(2, clock);
    fabric.attach(0, new RecordingEndpoint());
    Packet p = Packet.put(0, NetworkAddress.of(1, 2, 3), 7, DeliveryMode.IN_ORDER, new byte[8], 0, 0);
    fabric.inject(p);
    assertThatThrownBy(fabric::deliverNext).isInstanceOf(IllegalStateException.class)
        .hasMessage("node 1 has no endpoint attached");
    assertThat(fabric.pending()).containsExactly(p);
    RecordingEndpoint node1 = new RecordingEndpoint();
    fabric.attach(1, node1);
    assertThat(fabric.deliverAll()).isEqualTo(1);
    assertThat(node1.packets()).containsExactly(p);
    assertThatThrownBy(() -> fabric.deliver(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("packet must not be null");
  }

  @Test
  void aNullRandomSourceIsNamed() {
    assertThatThrownBy(() -> CoreRandom.nodeId(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("r must not be null");
    assertThatThrownBy(() -> CoreRandom.pageSize(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("r must not be null");
    assertThatThrownBy(() -> CoreRandom.request(null, 4)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("r must not be null");
    assertThat(CoreRandom.nodeId(new SplittableRandom(1), 4)).isBetween(0, 3);
  }

  @Test
  void linkListsNameAMissingNegativeOrRepeatedGroup() {
    assertThatThrownBy(() -> LinkLists.regular(null, 2, 2, 1, 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fileGroups must not be null");
    assertThatThrownBy(() -> LinkLists.regular(new int[] {3, -1}, 2, 2, 1, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("fileGroups[1] must be in [0, 255] but was -1");
    assertThatThrownBy(() -> LinkLists.regular(new int[] {0, 256}, 2, 2, 1, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("fileGroups[1] must be in [0, 255] but was 256");
    assertThatThrownBy(() -> LinkLists.regular(new int[] {4, 2, 4}, 2, 2, 1, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("fileGroups must be distinct but 4 appears twice");
    assertThat(LinkLists.regular(new int[] {4, 2}, 2, 2, 1, 1)).isNotEmpty();
  }
}
