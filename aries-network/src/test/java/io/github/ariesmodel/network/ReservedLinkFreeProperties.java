package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.core.spi.Scheduler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * On core's event loop the fabric reserves a link-free event's place in the loop's order when the link starts sending
 * and schedules it only when a packet can go as the link frees; on any other scheduler it schedules one at every
 * send. The two must agree on everything simulated: every delivery (time, packet, hops, route kind) in the same
 * order, and the same link busy times and VC occupancy. (Until stop 31 this also checked lazy buffer releases, which
 * were taken out; the two regression cases below were found by it then and still exercise credit-starved ports.)
 */
class ReservedLinkFreeProperties {

  /** A scheduler that hides core's loop from the fabric, so the fabric schedules an event at every send. */
  private static final class Opaque implements Scheduler {
    final DeterministicEventLoop loop = new DeterministicEventLoop();

    @Override
    public long now() {
      return loop.now();
    }

    @Override
    public void scheduleAt(long timePs, EventHandler handler, Object ref, long arg) {
      loop.scheduleAt(timePs, handler, ref, arg);
    }
  }

  private static final String[] ROUTINGS = {"minimal", "ugal", "valiant", "adaptive0", "in-order"};

  /** Runs Bernoulli traffic (uniform or all to one hotspot) and returns everything observable, one line per fact. */
  private static List<String> run(boolean reserved, String routing, double load, int vcBuffer, long seed, boolean hot) {
    Dragonfly topo = Topologies.canonicalSmall();
    Opaque opaque = new Opaque();
    DeterministicEventLoop loop = reserved ? new DeterministicEventLoop() : opaque.loop;
    Scheduler scheduler = reserved ? loop : opaque;
    RouterFabric f = RouterFabric.builder(topo, scheduler).routing(routing).seed(seed).vcBufferBytes(vcBuffer).build();
    List<String> out = new ArrayList<>();
    int nodes = f.nodeCount();
    SplittableRandom rnd = new SplittableRandom(seed);
    @SuppressWarnings("unchecked")
    ArrayDeque<Packet>[] queues = new ArrayDeque[nodes];
    long slot = 16_000;
    long endPs = 2_000_000;
    int[] tag = {0};
    for (int n = 0; n < nodes; n++) {
      int node = n;
      queues[n] = new ArrayDeque<>();
      Runnable pump = () -> {
        while (!queues[node].isEmpty() && f.inject(queues[node].peekFirst())) {
          queues[node].pollFirst();
        }
      };
      f.attach(n, new FabricEndpoint() {
        @Override
        public void deliver(long nowPs, Packet p) {
          out.add(nowPs + " " + p.tag() + " " + p.hops());
        }

        @Override
        public void injectionReady(long nowPs) {
          pump.run();
        }
      });
      EventHandler gen = new EventHandler() {
        @Override
        public void onEvent(long now, Object ref, long arg) {
          if (now >= endPs) {
            return;
          }
          int dst = hot && node != 0 ? 0 : (node + 1 + rnd.nextInt(nodes - 1)) % nodes;
          queues[node].addLast(Packet.synthetic(node, dst, tag[0]++, DeliveryMode.ADAPTIVE_0, rnd.nextInt(65)));
          pump.run();
          long gap = 1;
          while (rnd.nextDouble() >= load) {
            gap++;
          }
          loop.scheduleAt(now + gap * slot, this, null, 0);
        }
      };
      loop.scheduleAt(rnd.nextInt(4) * slot, gen, null, 0);
    }
    loop.run();
    long last = loop.now();
    out.add("end " + last + " delivered " + f.delivered() + " hops " + f.packetHops()
        + " nonMinimal " + f.nonMinimalDelivered() + " quiescent " + f.quiescent());
    for (int c = 0; c < f.linkClassCount(); c++) {
      out.add("busy " + c + " " + f.busyPs(c));
    }
    for (int vc = 0; vc < f.vcCount(); vc++) {
      out.add("vc " + vc + " " + f.vcOccupancyIntegral(vc, last));
    }
    out.add("events " + loop.eventsExecuted());
    return out;
  }

  /** Everything simulated (all but the last line, the event count) agrees, and the reserved run needs fewer events. */
  private static boolean agree(List<String> reserved, List<String> everySend) {
    int n = everySend.size();
    return n > 10 && reserved.size() == n && reserved.subList(0, n - 1).equals(everySend.subList(0, n - 1))
        && events(reserved) < events(everySend);
  }

  private static long events(List<String> run) {
    return Long.parseLong(run.get(run.size() - 1).substring("events ".length()));
  }

  @Test
  void reservedLinkFreeEventsChangeNothingSimulated() {
    // 12 random cases a build; -Dlinkfree.examples=N for a deeper search
    qt().withExamples(Integer.getInteger("linkfree.examples", 12))
        .forAll(integers().between(0, ROUTINGS.length - 1), doubles().between(0.1, 1.0),
            integers().between(0, 2), integers().between(0, 1_000_000))
        .check((r, load, buffer, seed) -> {
          int vcBuffer = new int[] {128, 512, 2048}[buffer];
          boolean hot = seed % 4 == 0;
          return agree(run(true, ROUTINGS[r], load, vcBuffer, seed, hot),
              run(false, ROUTINGS[r], load, vcBuffer, seed, hot));
        });
  }

  @Test
  void aSaturatedRunAgrees() {
    assertThat(agree(run(true, "ugal", 1.0, 128, 7, false), run(false, "ugal", 1.0, 128, 7, false))).isTrue();
  }

  /**
   * A case the property found when buffer releases were lazy (a port whose head lacked credits stalled 308 ns): with
   * 128-byte buffers, heads wait for credits that come back one by one, so link frees and credit returns meet.
   */
  @Test
  void aCreditStarvedValiantRunAgrees() {
    double load = 0.11736553723366722;
    List<String> reserved = run(true, "valiant", load, 128, 123, false);
    assertThat(agree(reserved, run(false, "valiant", load, 128, 123, false))).isTrue();
    assertThat(reserved).hasSizeGreaterThan(1_000);
  }
}
