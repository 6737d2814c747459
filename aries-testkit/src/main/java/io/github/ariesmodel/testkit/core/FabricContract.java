package io.github.ariesmodel.testkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.packet.WireFormat;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.core.spi.Scheduler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The contract of core's {@link Fabric} port (with {@link FabricEndpoint}), as an abstract JUnit 5 test: extend it,
 * build your fabric over the given scheduler in {@link #create}, and the inherited tests drive it as NICs would (each
 * node injects through a queue, holds what the fabric refuses and retries when told {@code injectionReady}, and
 * answers some requests from inside {@code deliver}) and check what the port promises:
 *
 * <ul>
 *   <li>every packet the fabric accepted is delivered exactly once, to the endpoint of its destination node, as the
 *       same object, with every protocol field and its data bytes intact;
 *   <li>never before it was accepted (not while {@code inject} is still running, and at a time no earlier than the
 *       injection), with the delivery's time equal to the scheduler's {@code now()};
 *   <li>back-pressure: a refused packet stays with the node and is not delivered; the fabric later calls the node's
 *       {@code injectionReady}, and the retried packet then goes through (a node left holding packets is a failure);
 *   <li>attach rules: a node id outside {@code [0, nodeCount)} is refused with an {@link IllegalArgumentException}
 *       naming the id and the range, a second attach of a node with an {@link IllegalStateException} naming the
 *       node, and a packet whose source or destination is outside the fabric with an
 *       {@link IllegalArgumentException} naming the bad node;
 *   <li>order, only where the fabric promises it ({@link #keepsOrder});
 *   <li>determinism: the same seed and the same injections give the same deliveries at the same times.
 * </ul>
 *
 * <p>Traffic mixes PUTs (0 to 64 data bytes), GETs and AMOs of every delivery mode between random nodes (a node to
 * itself included), with ACK, data and AMO responses sent back from inside {@code deliver}, and a burst of
 * back-to-back injections from one node that fills any bounded injection port.
 *
 * <pre>{@code
 * class MyFabricContractTest extends FabricContract<MyFabric> {
 *   protected MyFabric create(Scheduler scheduler, long seed) { return new MyFabric(scheduler, 16, seed); }
 *   protected boolean refusesWhenFull() { return true; }   // if its injection port is bounded
 * }
 * }</pre>
 *
 * @param <F> the fabric under test
 */
public abstract class FabricContract<F extends Fabric> {

  /** For subclasses. */
  protected FabricContract() {}

  /**
   * A fresh fabric with nothing attached.
   *
   * @param scheduler the clock it must use (the contract runs it)
   * @param seed seed for any random choice the fabric makes
   * @return the fabric, of at least 2 nodes
   */
  protected abstract F create(Scheduler scheduler, long seed);

  /**
   * Runs the simulation until nothing is left to do. The default runs the event loop; a fabric driven by hand (such
   * as testkit's {@code RecordingFabric}) overrides this to deliver what it holds and to signal readiness.
   *
   * @param fabric the fabric
   * @param loop the event loop it was created with
   */
  protected void drive(F fabric, DeterministicEventLoop loop) {
    loop.run();
  }

  /**
   * Whether the fabric promises that {@code later}, accepted after {@code earlier} from the same source node, is
   * delivered after it. The port itself promises no order, so the default is false; a fabric that documents an
   * order (per source, or per source/destination pair for {@link DeliveryMode#IN_ORDER}) says so here and is held
   * to it.
   *
   * @param earlier the packet accepted first
   * @param later the packet accepted after it, same source
   * @return true when the fabric promises to deliver them in that order
   */
  protected boolean keepsOrder(Packet earlier, Packet later) {
    return false;
  }

  /**
   * Whether the fabric's injection port is bounded, so that a burst of back-to-back injections from one node must
   * meet a refusal. When true the contract insists the back-pressure path was exercised.
   *
   * @return false by default
   */
  protected boolean refusesWhenFull() {
    return false;
  }

  /** @return packets of the random traffic (default 800) */
  protected int trafficPackets() {
    return 800;
  }

  // ------------------------------------------------------------------------------------------------------ tests

  @Test
  void randomTrafficIsDeliveredExactlyOnceIntactAndNeverEarly() {
    for (long seed : new long[] {1, 2}) {
      Run run = new Run(seed);
      run.randomTraffic(trafficPackets(), 2_000_000);
      run.finish();
      run.assertContractKept("random traffic, seed " + seed);
    }
  }

  @Test
  void refusedInjectionsAreRetriedWhenTheFabricSaysReady() {
    Run run = new Run(11);
    run.burst(0, 400);
    run.finish();
    run.assertContractKept("a burst of 400 back-to-back packets from node 0");
    if (refusesWhenFull()) {
      assertThat(run.refusals).as("refused injections in a burst of 400 packets (the fabric says its port is"
          + " bounded)").isPositive();
      assertThat(run.readyCalls).as("injectionReady calls after refusals").isPositive();
    }
  }

  @Test
  void sameSeedAndInjectionsGiveTheSameDeliveries() {
    Run a = new Run(5);
    a.randomTraffic(trafficPackets() / 2, 1_000_000);
    a.burst(1, 100);
    a.finish();
    Run b = new Run(5);
    b.randomTraffic(trafficPackets() / 2, 1_000_000);
    b.burst(1, 100);
    b.finish();
    assertThat(b.deliveryLog).as("deliveries (time, node, packet number) of a second identical run")
        .isEqualTo(a.deliveryLog);
    assertThat(b.refusals).as("refusals of a second identical run").isEqualTo(a.refusals);
  }

  @Test
  void attachRefusesBadAndDuplicateNodes() {
    F fabric = create(new DeterministicEventLoop(), 1);
    int n = fabric.nodeCount();
    assertThat(n).as("nodeCount (the contract needs >= 2)").isGreaterThanOrEqualTo(2);
    for (int bad : new int[] {-1, n, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
      Throwable t = catchThrowable(() -> fabric.attach(bad, new Node(null, bad)));
      assertThat(t).as("attach(%s) on a fabric of %s nodes", bad, n).isInstanceOf(IllegalArgumentException.class);
      assertThat(t.getMessage()).as("message of attach(%s)", bad).contains(Integer.toString(bad))
          .contains(Integer.toString(n - 1));
    }
    fabric.attach(0, new Node(null, 0));
    Throwable twice = catchThrowable(() -> fabric.attach(0, new Node(null, 0)));
    assertThat(twice).as("attaching node 0 twice").isInstanceOf(IllegalStateException.class);
    assertThat(twice.getMessage()).as("message of the second attach").contains("0");
    fabric.attach(n - 1, new Node(null, n - 1));
  }

  @Test
  void packetsFromOrToNodesOutsideTheFabricAreRefused() {
    Run run = new Run(3);
    int n = run.fabric.nodeCount();
    if (n > NetworkAddress.MAX_NODE_ID) {
      return;
    }
    Throwable toOutside = catchThrowable(() -> run.fabric.inject(Packet.synthetic(0, n, 1, DeliveryMode.ADAPTIVE_0,
        8)));
    assertThat(toOutside).as("a packet to node %s of %s", n, n).isInstanceOf(IllegalArgumentException.class);
    assertThat(toOutside.getMessage()).contains(Integer.toString(n));
    Throwable fromOutside = catchThrowable(() -> run.fabric.inject(Packet.synthetic(n, 0, 2, DeliveryMode.ADAPTIVE_0,
        8)));
    assertThat(fromOutside).as("a packet from node %s of %s", n, n).isInstanceOf(IllegalArgumentException.class);
    assertThat(fromOutside.getMessage()).contains(Integer.toString(n));
    run.randomTraffic(50, 100_000);
    run.finish();
    run.assertContractKept("traffic after refused packets");
  }

  // -------------------------------------------------------------------------------------------------- machinery

  /** What a packet looked like when it was offered: every protocol field, data bytes copied. */
  private record Snapshot(String fields, String data) {
    static Snapshot of(Packet p) {
      String fields = p.kind() + " " + p.sourceNode() + "->" + p.destinationNode() + " mdh=" + p.mdh() + " off="
          + p.offset() + " tag=" + p.tag() + " mode=" + p.deliveryMode() + " len=" + p.dataLength() + " amo="
          + p.amo() + " op1=" + p.operand1() + " op2=" + p.operand2() + " status=" + p.status() + " ptag="
          + p.protectionTag() + " pkey=" + p.protectionKey() + " wire=" + p.wireBytes();
      return new Snapshot(fields, p.data() == null ? "none" : Arrays.toString(p.data()));
    }
  }

  /** Everything known about one packet. */
  private static final class Tracked {
    final int number;
    final Snapshot snapshot;
    long acceptedAt = -1;
    int acceptedSeq = -1;
    int deliveries;
    long deliveredAt = -1;
    int deliveredSeq = -1;

    Tracked(int number, Snapshot snapshot) {
      this.number = number;
      this.snapshot = snapshot;
    }
  }

  /** One simulation: a fabric, its loop, a node per fabric node, and the record of what happened. */
  private final class Run {
    final DeterministicEventLoop loop = new DeterministicEventLoop();
    final F fabric;
    final List<Node> nodes = new ArrayList<>();
    final SplittableRandom random;
    final Map<Packet, Tracked> tracked = new IdentityHashMap<>();
    final List<String> violations = new ArrayList<>();
    final List<String> deliveryLog = new ArrayList<>();
    final List<List<Packet>> acceptedBySource = new ArrayList<>();
    int refusals;
    int readyCalls;
    int acceptedCount;
    int deliveredCount;
    boolean injecting;
    final EventHandler offerHandler = (now, ref, arg) -> nodes.get((int) arg).offer((Packet) ref);

    Run(long seed) {
      this.fabric = create(loop, seed);
      this.random = new SplittableRandom(seed * 31 + 7);
      int n = fabric.nodeCount();
      assertThat(n).as("nodeCount (the contract needs >= 2)").isGreaterThanOrEqualTo(2);
      for (int i = 0; i < n; i++) {
        nodes.add(new Node(this, i));
        fabric.attach(i, nodes.get(i));
        acceptedBySource.add(new ArrayList<>());
      }
    }

    Packet track(Packet p) {
      tracked.put(p, new Tracked(tracked.size(), Snapshot.of(p)));
      return p;
    }

    /** Random requests between random nodes at random times in [0, spanPs). */
    void randomTraffic(int packets, long spanPs) {
      int n = nodes.size();
      DeliveryMode[] modes = DeliveryMode.values();
      AmoOperation[] ops = AmoOperation.all();
      for (int i = 0; i < packets; i++) {
        int src = random.nextInt(n);
        int dst = random.nextInt(8) == 0 ? src : random.nextInt(n);
        NetworkAddress target = NetworkAddress.of(dst, random.nextInt(4096), random.nextLong(1L << 40) & -8);
        DeliveryMode mode = modes[random.nextInt(modes.length)];
        int tag = random.nextInt(1 << 16);
        int ptag = random.nextInt(256);
        int pkey = random.nextInt(1 << 16);
        Packet p = switch (random.nextInt(3)) {
          case 0 -> {
            byte[] data = new byte[random.nextInt(WireFormat.MAX_PAYLOAD + 1)];
            random.nextBytes(data);
            yield Packet.put(src, target, tag, mode, data, ptag, pkey);
          }
          case 1 -> Packet.get(src, target, tag, mode, 1 + random.nextInt(WireFormat.MAX_PAYLOAD), ptag, pkey);
          default -> Packet.amo(src, target, tag, mode, ops[random.nextInt(ops.length)], random.nextLong(),
              random.nextLong(), ptag, pkey);
        };
        loop.scheduleAt(random.nextLong(spanPs), offerHandler, track(p), src);
      }
    }

    /** Back-to-back full PUTs from one node to every other node in turn, all offered at time 0. */
    void burst(int src, int packets) {
      for (int i = 0; i < packets; i++) {
        int dst = (src + 1 + i % (nodes.size() - 1)) % nodes.size();
        byte[] data = new byte[WireFormat.MAX_PAYLOAD];
        random.nextBytes(data);
        Packet p = Packet.put(src, NetworkAddress.of(dst, 1, (long) i * 64), 0x8000 + i, DeliveryMode.IN_ORDER,
            data, 1, 2);
        loop.scheduleAt(0, offerHandler, track(p), src);
      }
    }

    void finish() {
      drive(fabric, loop);
    }

    void violation(String what) {
      if (violations.size() < 20) {
        violations.add(what);
      }
    }

    void assertContractKept(String what) {
      assertThat(violations).as("violations of the fabric contract, " + what).isEmpty();
      for (Node node : nodes) {
        assertThat(node.held.size()).as("packets node %s still holds after the run (%s), first %s: the fabric"
            + " refused an injection and never called injectionReady, or refused every retry", node.id, what,
            node.held.peek()).isZero();
      }
      for (Map.Entry<Packet, Tracked> e : tracked.entrySet()) {
        Tracked t = e.getValue();
        assertThat(t.deliveries).as("deliveries of %s (%s)", e.getKey(), what).isEqualTo(1);
      }
      assertThat(deliveredCount).as("deliveries, " + what).isEqualTo(acceptedCount).isEqualTo(tracked.size());
      checkOrder(what);
    }

    private void checkOrder(String what) {
      List<String> outOfOrder = new ArrayList<>();
      for (List<Packet> fromOne : acceptedBySource) {
        for (int i = 0; i < fromOne.size(); i++) {
          Packet earlier = fromOne.get(i);
          int earlierSeq = tracked.get(earlier).deliveredSeq;
          for (int j = i + 1; j < fromOne.size(); j++) {
            Packet later = fromOne.get(j);
            if (tracked.get(later).deliveredSeq < earlierSeq && keepsOrder(earlier, later)
                && outOfOrder.size() < 10) {
              outOfOrder.add(later + " arrived before " + earlier);
            }
          }
        }
      }
      assertThat(outOfOrder).as("packets the fabric promises to keep in order but delivered out of order, " + what)
          .isEmpty();
    }

    void delivered(Node at, long nowPs, Packet p) {
      Tracked t = tracked.get(p);
      if (t == null) {
        violation("node " + at.id + " was delivered a packet nobody injected (or a copy of one): " + p);
        return;
      }
      t.deliveries++;
      if (t.deliveries > 1) {
        violation("delivered twice: " + p);
        return;
      }
      if (injecting) {
        violation("delivered while inject() was still running: " + p);
      }
      if (t.acceptedAt < 0) {
        violation("delivered although inject() never accepted it: " + p);
      } else if (nowPs < t.acceptedAt) {
        violation("delivered at " + nowPs + " ps, before it was injected at " + t.acceptedAt + " ps: " + p);
      }
      if (nowPs != loop.now()) {
        violation("delivery time " + nowPs + " ps differs from the scheduler's now() " + loop.now() + " ps: " + p);
      }
      if (at.id != p.destinationNode()) {
        violation("delivered to node " + at.id + " instead of " + p.destinationNode() + ": " + p);
      }
      Snapshot now = Snapshot.of(p);
      if (!now.equals(t.snapshot)) {
        violation("changed in flight: offered as " + t.snapshot + " but delivered as " + now);
      }
      t.deliveredAt = nowPs;
      t.deliveredSeq = deliveredCount++;
      deliveryLog.add(nowPs + " " + at.id + " #" + t.number);
      answer(at, p);
    }

    /** Answers some requests from inside deliver, as a NIC does. */
    private void answer(Node at, Packet request) {
      if (!request.isRequest() || (request.tag() & 3) == 3) {
        return;
      }
      Packet response = switch (request.kind()) {
        case GET_REQUEST -> {
          byte[] data = new byte[request.dataLength()];
          Arrays.fill(data, (byte) request.tag());
          yield Packet.data(request, data);
        }
        case AMO_REQUEST -> Packet.amoResult(request, request.operand1() ^ request.tag());
        default -> Packet.ack(request);
      };
      at.offer(track(response));
    }
  }

  /** A node: a NIC's injection queue and delivery side. */
  private final class Node implements FabricEndpoint {
    final Run run;
    final int id;
    final ArrayDeque<Packet> held = new ArrayDeque<>();
    boolean blocked;

    Node(Run run, int id) {
      this.run = run;
      this.id = id;
    }

    void offer(Packet p) {
      held.add(p);
      if (!blocked) {
        pump();
      }
    }

    private void pump() {
      while (!held.isEmpty()) {
        Packet p = held.peek();
        run.injecting = true;
        boolean accepted;
        try {
          accepted = run.fabric.inject(p);
        } finally {
          run.injecting = false;
        }
        if (!accepted) {
          blocked = true;
          run.refusals++;
          return;
        }
        held.poll();
        Tracked t = run.tracked.get(p);
        if (t.acceptedAt >= 0) {
          run.violation("accepted twice: " + p);
        }
        t.acceptedAt = run.loop.now();
        t.acceptedSeq = run.acceptedCount++;
        run.acceptedBySource.get(id).add(p);
      }
    }

    @Override
    public void deliver(long nowPs, Packet packet) {
      if (run != null) {
        run.delivered(this, nowPs, packet);
      }
    }

    @Override
    public void injectionReady(long nowPs) {
      if (run == null) {
        return;
      }
      run.readyCalls++;
      if (nowPs != run.loop.now()) {
        run.violation("injectionReady at " + nowPs + " ps but the scheduler's now() is " + run.loop.now() + " ps");
      }
      blocked = false;
      pump();
    }
  }
}
