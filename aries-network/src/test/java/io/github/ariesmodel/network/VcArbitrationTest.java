package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/**
 * Which VC an output port serves next, against a reference arbiter: two routers joined by one link, four nodes on
 * the first sending to four on the second, each packet put by a test routing on VC 0 (half of them), 2 or 5 (by its tag), so the
 * port's queue holds several VCs with gaps between them. The routing's calls (a packet joins a VC's queue) and the
 * hop listener's (a packet leaves) are logged in the order they happen; the reference replays that log with per-VC
 * queues of its own and must pick, at each departure, the packet the fabric sent.
 */
class VcArbitrationTest {

  private static final int[] VC_OF_TAG = {0, 0, 2, 5};
  private static final int VCS = 6;
  private static final int PACKETS_PER_NODE = 12;

  /** One entry of the log: a packet joined VC {@code vc}'s queue (join) or left the port on it. */
  private record Step(boolean join, Packet packet, int vc) {}

  @Test
  void roundRobinServesTheNextOccupiedVcAfterTheLastServedWrappingAround() {
    int[] next = {0};
    int wraps = 0;
    int skips = 0;
    List<Integer> served = replay(run(Arbitration.ROUND_ROBIN), queues -> {
      for (int k = 0; k < VCS; k++) {
        int vc = (next[0] + k) % VCS;
        if (!queues.get(vc).isEmpty()) {
          next[0] = (vc + 1) % VCS; // (the arbiter is asked once a departure)
          return vc;
        }
      }
      return -1;
    });
    int after = 0;
    for (int chosen : served) {
      wraps += chosen < after ? 1 : 0;
      skips += chosen > after ? 1 : 0;
      after = (chosen + 1) % VCS;
    }
    assertThat(served).hasSize(4 * PACKETS_PER_NODE);
    // the replay went through the cases a broken scan would get wrong: past empty VCs, and around from VC 5 to 0
    assertThat(wraps).isPositive();
    assertThat(skips).isPositive();
  }

  @Test
  void ageServesTheOldestHeadLowestVcOnTies() {
    int[] notFromLowestVc = {0};
    List<Integer> served = replay(run(Arbitration.AGE), queues -> {
      int chosen = -1;
      int lowest = -1;
      for (int vc = 0; vc < VCS; vc++) {
        Packet head = queues.get(vc).peekFirst();
        if (head == null) {
          continue;
        }
        lowest = lowest < 0 ? vc : lowest;
        if (chosen < 0 || head.injectedAtPs() < queues.get(chosen).peekFirst().injectedAtPs()) {
          chosen = vc;
        }
      }
      notFromLowestVc[0] += chosen != lowest ? 1 : 0;
      return chosen;
    });
    assertThat(served).hasSize(4 * PACKETS_PER_NODE);
    assertThat(notFromLowestVc[0]).as("age, not VC order, decided some departures").isPositive();
  }

  /**
   * Replays the log with per-VC queues of its own: at each departure the reference arbiter picks a VC from those
   * queues, and the fabric must have sent that VC's head.
   *
   * @return the VCs served, in order
   */
  private static List<Integer> replay(List<Step> log, ToIntFunction<List<ArrayDeque<Packet>>> arbiter) {
    List<ArrayDeque<Packet>> queues = new ArrayList<>();
    for (int vc = 0; vc < VCS; vc++) {
      queues.add(new ArrayDeque<>());
    }
    List<Integer> served = new ArrayList<>();
    for (Step s : log) {
      if (s.join()) {
        queues.get(s.vc()).addLast(s.packet());
        continue;
      }
      int chosen = arbiter.applyAsInt(queues);
      assertThat(s.vc()).as("departure %d", served.size()).isEqualTo(chosen);
      assertThat(s.packet()).as("departure %d", served.size()).isSameAs(queues.get(chosen).pollFirst());
      served.add(chosen);
    }
    return served;
  }

  /** Runs the two-router system to the end. @return the log of joins and departures, in the order they happened */
  private static List<Step> run(Arbitration arbitration) {
    Dragonfly t = Dragonfly.canonical(4, 2, 0); // one group: routers 0 and 1, four nodes each, one link between
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<Step> log = new ArrayList<>();
    int[] ports = new int[Math.max(t.maxMinimalPorts(), t.portCount())];
    RouterFabric f = RouterFabric.builder(t, loop).vcs(VCS).arbitration(arbitration)
        .routing((p, view, c) -> {
          int dest = t.routerOfNode(p.destinationNode());
          t.minimalPorts(view.router(), dest, 0, ports);
          int vc = VC_OF_TAG[p.tag() % VC_OF_TAG.length];
          log.add(new Step(true, p, vc));
          c.add(ports[0], vc);
        })
        .hopListener((now, p, router, port, vc, hop) -> log.add(new Step(false, p, vc)))
        .build();
    for (int n = 0; n < t.nodeCount(); n++) {
      f.attach(n, new FabricEndpoint() {
        @Override
        public void deliver(long nowPs, Packet packet) {}

        @Override
        public void injectionReady(long nowPs) {}
      });
    }
    // node n sends tags n × 12 .. n × 12 + 11, staggered by a few ps so the nodes' packets differ in age
    for (int k = 0; k < PACKETS_PER_NODE; k++) {
      for (int n = 0; n < 4; n++) {
        int tag = n * PACKETS_PER_NODE + k;
        loop.runUntil(loop.now() + 7 * n + 1);
        assertThat(f.inject(Packet.synthetic(n, 4 + n, tag, DeliveryMode.ADAPTIVE_0, 64))).isTrue();
      }
    }
    loop.run();
    assertThat(f.quiescent()).isTrue();
    return log;
  }
}
