package io.github.ariesmodel.testkit.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FabricFakesTest {

  private static Packet packet(int src, int dst, int tag) {
    return Packet.synthetic(src, dst, tag, DeliveryMode.ADAPTIVE_0, 64);
  }

  @Test
  void recordingFabricHoldsPacketsUntilTheTestDeliversThem() {
    ManualScheduler clock = new ManualScheduler(500);
    RecordingFabric fabric = new RecordingFabric(3, clock);
    RecordingEndpoint n1 = new RecordingEndpoint();
    RecordingEndpoint n2 = new RecordingEndpoint();
    fabric.attach(1, n1);
    fabric.attach(2, n2);
    Packet a = packet(0, 1, 1);
    Packet b = packet(0, 2, 2);
    Packet c = packet(0, 1, 3);
    assertThat(fabric.inject(a)).isTrue();
    assertThat(fabric.inject(b)).isTrue();
    assertThat(fabric.inject(c)).isTrue();
    assertThat(a.injectedAtPs()).isEqualTo(500);
    assertThat(n1.deliveries()).isEmpty();
    clock.advanceBy(100);
    fabric.deliver(c);
    assertThat(fabric.deliverNext()).isSameAs(a);
    assertThat(n1.deliveries()).containsExactly(
        new RecordingEndpoint.Delivery(600, c), new RecordingEndpoint.Delivery(600, a));
    assertThat(fabric.pending()).containsExactly(b);
    assertThat(fabric.deliverAll()).isEqualTo(1);
    assertThat(n2.packets()).containsExactly(b);
    assertThat(fabric.injected()).containsExactly(a, b, c);
    assertThatThrownBy(() -> fabric.deliver(a))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not pending");
    assertThatThrownBy(fabric::deliverNext).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void recordingFabricCanRefuseInjectionsAndSignalReadiness() {
    ManualScheduler clock = new ManualScheduler();
    RecordingFabric fabric = new RecordingFabric(2, clock);
    RecordingEndpoint n0 = new RecordingEndpoint();
    fabric.attach(0, n0);
    fabric.refuseNext(2);
    assertThat(fabric.inject(packet(0, 1, 1))).isFalse();
    assertThat(fabric.inject(packet(0, 1, 2))).isFalse();
    assertThat(fabric.inject(packet(0, 1, 3))).isTrue();
    assertThat(fabric.injected()).extracting(Packet::tag).containsExactly(3);
    clock.advanceTo(42);
    fabric.signalInjectionReady(0);
    assertThat(n0.injectionReadyTimes()).containsExactly(42L);
    assertThatThrownBy(fabric::deliverNext)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("node 1 has no endpoint attached");
    assertThatThrownBy(() -> fabric.inject(packet(0, 2, 4)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("packet.destinationNode must be in [0, 1] but was 2");
    assertThatThrownBy(() -> fabric.attach(0, new RecordingEndpoint())).isInstanceOf(IllegalStateException.class);
  }

  private static List<Integer> arrivalOrder(long seed, long jitter) {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    ReorderingFabric fabric = new ReorderingFabric(loop, 2, 1_000, jitter, seed);
    RecordingEndpoint n1 = new RecordingEndpoint();
    fabric.attach(0, new RecordingEndpoint());
    fabric.attach(1, n1);
    for (int i = 0; i < 50; i++) {
      fabric.inject(packet(0, 1, i));
    }
    loop.run();
    assertThat(fabric.delivered()).isEqualTo(50);
    assertThat(n1.deliveries()).allMatch(d -> d.timePs() >= 1_000 && d.timePs() <= 1_000 + jitter);
    return n1.packets().stream().map(Packet::tag).toList();
  }

  @Test
  void reorderingFabricDeliversEverythingInASeededShuffledOrder() {
    List<Integer> inOrder = IntStream.range(0, 50).boxed().toList();
    List<Integer> shuffled = arrivalOrder(42, 100_000);
    assertThat(shuffled).containsExactlyInAnyOrderElementsOf(inOrder).isNotEqualTo(inOrder);
    assertThat(arrivalOrder(42, 100_000)).isEqualTo(shuffled);
    assertThat(arrivalOrder(43, 100_000)).isNotEqualTo(shuffled);
    assertThat(arrivalOrder(42, 0)).isEqualTo(inOrder);
  }

  @Test
  void reorderingFabricWorksWithAHandDrivenClock() {
    ManualScheduler clock = new ManualScheduler();
    ReorderingFabric fabric = new ReorderingFabric(clock, 2, 1_000, 0, 1L);
    RecordingEndpoint node1 = new RecordingEndpoint();
    fabric.attach(0, new RecordingEndpoint());
    fabric.attach(1, node1);
    fabric.inject(Packet.put(0, NetworkAddress.of(1, 2, 3), 7, DeliveryMode.IN_ORDER, new byte[8], 0, 0));
    clock.advanceBy(999);
    assertThat(node1.deliveries()).isEmpty();
    clock.advanceBy(1);
    assertThat(node1.packets()).extracting(Packet::tag).containsExactly(7);
    assertThatThrownBy(() -> new ReorderingFabric(clock, 2, 0, -1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("jitterPs must be in [0, 1e9] ps (1 ms) but was -1");
  }

  @Test
  void recordingTranslationListenerKeepsEveryCompletion() {
    RecordingTranslationListener l = new RecordingTranslationListener();
    assertThatThrownBy(l::only).hasMessageContaining("but there were 0");
    List<Object> refs = new ArrayList<>();
    l.onTranslated(5, io.github.ariesmodel.core.Status.OK, 0x1000, 64, refs, 9);
    assertThat(l.only()).isEqualTo(new RecordingTranslationListener.Completion(
        5, io.github.ariesmodel.core.Status.OK, 0x1000, 64, refs, 9));
    l.onTranslated(6, io.github.ariesmodel.core.Status.TRANSLATION_FAULT, 0, 0, null, 1);
    assertThat(l.count()).isEqualTo(2);
    l.clear();
    assertThat(l.completions()).isEmpty();
  }
}
