package io.github.ariesmodel.nic;

import io.github.ariesmodel.core.sim.SerialChannel;

/**
 * The NIC's host interface: PCIe Gen3 x16, 16 GB/s per direction [S3 via S1], modelled as two
 * {@link SerialChannel}s, node to NIC and NIC to node, each carrying one transfer at a time at the link's rate. A
 * transfer arrives the one-way host latency after its tail left ({@link NicTiming#hostLatencyPs()}, assumed 250 ns).
 *
 * <p>Every transfer carries {@link NicTiming#hostOverheadBytes()} (24 [S1 p.21]) beyond its data for each 64 bytes
 * or part of them (the NIC reads and writes host memory 64 bytes at a time [S1 p.21]; the model's callers move at
 * most 64 bytes a call). A NIC read of host memory is two transfers: its request, of the overhead bytes alone, on the
 * NIC-to-node channel, and its data, with their overhead, on the node-to-NIC channel, booked when the NIC asks (as
 * before) and ending no sooner than the request's tail plus the data's own transfer; the data reach the NIC one read
 * round trip after that ({@link NicTiming#hostReadLatencyPs()}). So a NIC that both sends and receives
 * moves its reads' requests and its received data the same way, as S1 says of symmetric traffic. With an overhead of
 * 0 a read books no request, as before stop 65. Flow-control and alignment overheads, which S1 names too, are not
 * modelled (it gives no figure). {@link NicStatistics}'s byte counts are data bytes, without the overhead. Not every
 * host access crosses this link in the model: the FMA stores of a post's data after its first 64 bytes do not
 * (charged as the CPU's store time instead). The AMO unit's reads of host memory, its memory AMOs' result writes and
 * the AMO cache's fills and write-backs do since stop 68 (before, their latencies were charged, not their bytes).
 */
final class HostLink {
  private final SerialChannel toNic;
  private final SerialChannel toNode;
  private final long readLatencyPs;
  private final int overheadBytes;
  private final NicStatistics stats;

  HostLink(NicTiming timing, NicStatistics stats) {
    this.toNic = SerialChannel.of(timing.hostBytesPerSecond(), timing.hostLatencyPs());
    this.toNode = SerialChannel.of(timing.hostBytesPerSecond(), timing.hostLatencyPs());
    this.readLatencyPs = timing.hostReadLatencyPs();
    this.overheadBytes = timing.hostOverheadBytes();
    this.stats = stats;
  }

  /** @return the bytes a transfer of {@code bytes} of data holds its channel for: the data and an overhead a 64 */
  private long onWire(long bytes) {
    return bytes + overheadBytes * ((bytes + 63) >>> 6);
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
    return toNic.deliver(now, onWire(bytes));
  }

  /**
   * A NIC read of host memory: the request crosses the NIC-to-node channel, then the data the node-to-NIC one.
   *
   * @param now when the NIC asks
   * @param bytes bytes read
   * @return when the data is in the NIC
   */
  long read(long now, long bytes) {
    stats.hostBytesToNic += bytes;
    long wire = onWire(bytes);
    if (overheadBytes == 0 || bytes == 0) { // (a read of no bytes asks the host for nothing)
      return toNic.reserve(now, wire) + readLatencyPs;
    }
    // The request first (it may refuse a time past the clock's end, and then nothing is booked on the other channel).
    // The data's transfer is booked from now, as before stop 65 (booking it from the request's time would hold the
    // channel idle until then, in front of every later transfer); it cannot end before the request has left and the
    // data has crossed after it, so a NIC-to-node channel busy with writes delays the read, not the channel.
    long asked = toNode.reserve(now, overheadBytes);
    long data = toNic.reserve(now, wire);
    return Math.max(data, asked + toNic.serializationPs(wire)) + readLatencyPs;
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
    return toNode.deliver(now, onWire(bytes));
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
