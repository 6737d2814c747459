package io.github.ariesmodel.testkit.fake;

import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.spi.FabricEndpoint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A {@link FabricEndpoint} that records what a fabric delivers to it, in order, with the arrival times, and the
 * times it was told the injection port is ready again. Stands in for a NIC when testing a fabric.
 */
public final class RecordingEndpoint implements FabricEndpoint {

  /**
   * One delivery.
   *
   * @param timePs arrival time, picoseconds
   * @param packet the packet
   */
  public record Delivery(long timePs, Packet packet) {}

  private final List<Delivery> deliveries = new ArrayList<>();
  private final List<Long> injectionReady = new ArrayList<>();

  /** An endpoint that has received nothing. */
  public RecordingEndpoint() {}

  @Override
  public void deliver(long nowPs, Packet packet) {
    deliveries.add(new Delivery(nowPs, packet));
  }

  @Override
  public void injectionReady(long nowPs) {
    injectionReady.add(nowPs);
  }

  /** @return the deliveries so far, oldest first (read-only view) */
  public List<Delivery> deliveries() {
    return Collections.unmodifiableList(deliveries);
  }

  /** @return the delivered packets, oldest first */
  public List<Packet> packets() {
    return deliveries.stream().map(Delivery::packet).toList();
  }

  /** @return the times {@link #injectionReady} was called */
  public List<Long> injectionReadyTimes() {
    return Collections.unmodifiableList(injectionReady);
  }

  /** Forgets everything recorded. */
  public void clear() {
    deliveries.clear();
    injectionReady.clear();
  }
}
