package io.github.ariesmodel.system.replay;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.SerialChannel;
import io.github.ariesmodel.network.spi.HopListener;
import io.github.ariesmodel.network.spi.Topology;
import java.util.BitSet;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The router fabric's link busy time split by the node that sent each packet, so that each job of a {@link
 * ConcurrentReplay} reports its own link figures rather than the whole fabric's. The fabric counts a link class's busy
 * time for every packet together ({@code RouterFabric.busyPs(linkClass)}); this listener of its hops adds each hop's
 * serialization, computed as the fabric computes it (the packet's wire bytes at the link class's rate, rounded up to
 * a picosecond: {@link SerialChannel#serializationPs}), to the packet's source node. Jobs hold nodes of their own and
 * an MPI job's packets, responses and acknowledgements included, travel between its own nodes, so the busy time of a
 * job's nodes is the busy time its traffic caused; over every node it is the fabric's total.
 *
 * <p>It is a hop listener, so it is given to the system's router fabric when the system is built, then bound to the
 * system's topology by the concurrent replay ({@link ConcurrentReplay.Builder#linkTally}) before anything runs:
 *
 * <pre>{@code
 * LinkTally tally = new LinkTally();
 * AriesSystem sys = AriesSystem.builder().system("default").routerSettings(fb -> fb.addHopListener(tally)).build();
 * ConcurrentReplay.builder(sys).linkTally(tally).trace(...).trace(...).build().run();
 * }</pre>
 *
 * <p>On a partitioned engine the groups' threads add at once; the sums are of whole picoseconds, the same in any
 * order, so the figures are the same for every thread count.
 */
public final class LinkTally implements HopListener {

  private volatile Topology topology;
  private double[] psPerByte;
  private AtomicLongArray busy;

  /** An empty tally, to be bound to a system's topology before its fabric sends a packet. */
  public LinkTally() {}

  /**
   * Binds the tally to the topology of the system whose fabric calls it (once; binding it again to the same topology
   * does nothing).
   *
   * @param t the system's topology
   * @throws IllegalArgumentException when it is bound to another topology already
   */
  synchronized void bind(Topology t) {
    checkArgument(t != null, "topology must not be null");
    if (topology == t) {
      return;
    }
    checkArgument(topology == null, "the link tally is bound to another system's topology already");
    int classes = t.linkClassCount();
    double[] rate = new double[classes];
    for (int c = 0; c < classes; c++) {
      rate[c] = SerialChannel.psPerByte(t.linkBandwidth(c));
    }
    psPerByte = rate;
    busy = new AtomicLongArray(Math.multiplyExact(t.nodeCount(), classes));
    topology = t; // last: a hop reads it first (volatile), then the arrays
  }

  /** @return whether it has been bound to a topology */
  boolean bound() {
    return topology != null;
  }

  @Override
  public void hop(long nowPs, Packet packet, int router, int port, int vc, int hop) {
    Topology t = topology;
    checkState(t != null, "a link tally must be bound (ConcurrentReplay.Builder.linkTally) before its fabric runs");
    int c = t.linkClass(router, port);
    busy.addAndGet(packet.sourceNode() * psPerByte.length + c,
        SerialChannel.serializationPs(packet.wireBytes(), psPerByte[c]));
  }

  /**
   * @param nodes nodes (a job's; a node listed twice counts once)
   * @param linkClass a link class of the topology
   * @return picoseconds links of that class spent serializing packets these nodes sent, so far
   */
  long busyPs(int[] nodes, int linkClass) {
    Topology t = topology;
    checkState(t != null, "the link tally is not bound to a system");
    checkArgument(linkClass >= 0 && linkClass < psPerByte.length, "linkClass must be in [0, %s] but was %s",
        psPerByte.length - 1, linkClass);
    BitSet seen = new BitSet();
    long sum = 0;
    for (int n : nodes) {
      if (!seen.get(n)) {
        seen.set(n);
        sum += busy.get(n * psPerByte.length + linkClass);
      }
    }
    return sum;
  }
}
