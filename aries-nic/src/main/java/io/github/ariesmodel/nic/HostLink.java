package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.sim.SerialChannel;

/**
 * The NIC's host interface: PCIe Gen3 x16, 16 GB/s per direction [S3 via S1], modelled as two
 * {@link SerialChannel}s, node to NIC and NIC to node, each carrying one transfer at a time at the link's rate. A
 * transfer arrives the one-way host latency after its tail left ({@link NicTiming#hostLatencyPs()}, assumed 250 ns);
 * a NIC read of host memory returns its data over the node-to-NIC channel one read round trip after the data's
 * transfer ({@link NicTiming#hostReadLatencyPs()}). Byte counts go to {@link NicStatistics}.
 */
final class HostLink {
  private final SerialChannel toNic;
  private final SerialChannel toNode;
  private final long readLatencyPs;
  private final NicStatistics stats;

  HostLink(NicTiming timing, NicStatistics stats) {
    this.toNic = SerialChannel.of(timing.hostBytesPerSecond(), timing.hostLatencyPs());
    this.toNode = SerialChannel.of(timing.hostBytesPerSecond(), timing.hostLatencyPs());
    this.readLatencyPs = timing.hostReadLatencyPs();
    this.stats = stats;
  }

  /**
   * A host write to the NIC (a post's descriptor or FMA data).
   *
   * @param now when the host writes
   * @param bytes bytes written
   * @return when the NIC has them
   */
  long hostWrite(long now, long bytes) {
    stats.hostBytesToNic += bytes;
    return toNic.deliver(now, bytes);
  }

  /**
   * A NIC read of host memory: the data crosses the node-to-NIC channel.
   *
   * @param now when the NIC asks
   * @param bytes bytes read
   * @return when the data is in the NIC
   */
  long read(long now, long bytes) {
    stats.hostBytesToNic += bytes;
    return toNic.reserve(now, bytes) + readLatencyPs;
  }

  /**
   * A NIC posted write into host memory (data or a completion event).
   *
   * @param now when the NIC writes
   * @param bytes bytes written
   * @return when the write is visible in host memory
   */
  long write(long now, long bytes) {
    stats.hostBytesToNode += bytes;
    return toNode.deliver(now, bytes);
  }

  /** @return the node-to-NIC channel */
  SerialChannel toNic() {
    return toNic;
  }

  /** @return the NIC-to-node channel */
  SerialChannel toNode() {
    return toNode;
  }
}
