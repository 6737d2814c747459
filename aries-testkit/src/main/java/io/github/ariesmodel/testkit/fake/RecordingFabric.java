package io.github.ariesmodel.testkit.fake;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.FabricEndpoints;
import io.github.ariesmodel.core.spi.Fabric;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import io.github.ariesmodel.core.spi.Scheduler;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A {@link Fabric} that delivers nothing by itself: it records every injected packet and lets the test deliver
 * them, in any order and at any time, or refuse injections to exercise a NIC's back-pressure path. Deliveries use
 * the clock's current time.
 *
 * <pre>{@code
 * ManualScheduler clock = new ManualScheduler();
 * RecordingFabric fabric = new RecordingFabric(2, clock);
 * nic.post(...);                               // the NIC injects its request
 * Packet req = fabric.pending().get(0);
 * assertThat(req.kind()).isEqualTo(PacketKind.PUT_REQUEST);
 * fabric.deliver(req);                         // hand it to node req.destinationNode()
 * }</pre>
 */
public final class RecordingFabric implements Fabric {

  private final Scheduler clock;
  private final FabricEndpoints endpoints;
  private final List<Packet> injected = new ArrayList<>();
  private final List<Packet> pending = new ArrayList<>();
  private int refusals;

  /**
   * A fabric of {@code nodeCount} nodes.
   *
   * @param nodeCount 1 to 2^18
   * @param clock gives the time of injections and deliveries
   */
  public RecordingFabric(int nodeCount, Scheduler clock) {
    if (nodeCount < 1 || nodeCount > (1 << 18)) {
      throw new IllegalArgumentException("nodeCount must be in [1, 262144] but was " + nodeCount);
    }
    if (clock == null) {
      throw new IllegalArgumentException("clock must not be null");
    }
    this.clock = clock;
    this.endpoints = new FabricEndpoints(nodeCount);
  }

  @Override
  public int nodeCount() {
    return endpoints.nodeCount();
  }

  @Override
  public void attach(int nodeId, FabricEndpoint endpoint) {
    endpoints.attach(nodeId, endpoint);
  }

  /**
   * Records the packet (or refuses it while refusals are set).
   *
   * @param packet the packet
   * @return false while {@link #refuseNext} refusals remain, else true
   */
  @Override
  public boolean inject(Packet packet) {
    endpoints.checkPacket(packet);
    if (refusals > 0) {
      refusals--;
      return false;
    }
    packet.injectedAtPs(clock.now());
    injected.add(packet);
    pending.add(packet);
    return true;
  }

  /**
   * Makes the next {@code count} injections return false, as a full injection port does.
   *
   * @param count refusals, ≥ 0
   */
  public void refuseNext(int count) {
    if (count < 0) {
      throw new IllegalArgumentException("count must be >= 0 but was " + count);
    }
    refusals = count;
  }

  /**
   * Tells a node's endpoint that injection is possible again.
   *
   * @param nodeId an attached node
   */
  public void signalInjectionReady(int nodeId) {
    endpoints.endpoint(nodeId).injectionReady(clock.now());
  }

  /** @return every packet accepted so far, in injection order (read-only view) */
  public List<Packet> injected() {
    return Collections.unmodifiableList(injected);
  }

  /** @return accepted packets not yet delivered, in injection order (read-only view) */
  public List<Packet> pending() {
    return Collections.unmodifiableList(pending);
  }

  /**
   * Delivers one pending packet to its destination's endpoint now.
   *
   * @param packet a pending packet
   * @throws IllegalArgumentException when the packet is null or not pending
   * @throws IllegalStateException when its destination has no endpoint (the packet stays pending)
   */
  public void deliver(Packet packet) {
    if (packet == null) {
      throw new IllegalArgumentException("packet must not be null");
    }
    int i = indexOf(packet);
    if (i < 0) {
      throw new IllegalArgumentException("packet is not pending in this fabric: " + packet);
    }
    // the endpoint first: a destination without one is refused with the packet still pending (it was lost)
    FabricEndpoint to = endpoints.endpoint(packet.destinationNode());
    pending.remove(i);
    to.deliver(clock.now(), packet);
  }

  /**
   * Delivers the oldest pending packet.
   *
   * @return the packet delivered
   * @throws IllegalStateException when nothing is pending
   */
  public Packet deliverNext() {
    if (pending.isEmpty()) {
      throw new IllegalStateException("no packet is pending");
    }
    Packet p = pending.get(0);
    deliver(p);
    return p;
  }

  /**
   * Delivers pending packets, oldest first, until none is left (including packets injected by the endpoints while
   * this runs, such as responses).
   *
   * @return packets delivered
   */
  public int deliverAll() {
    int n = 0;
    while (!pending.isEmpty()) {
      deliverNext();
      n++;
    }
    return n;
  }

  private int indexOf(Packet packet) {
    for (int i = 0; i < pending.size(); i++) {
      if (pending.get(i) == packet) {
        return i;
      }
    }
    return -1;
  }


}
