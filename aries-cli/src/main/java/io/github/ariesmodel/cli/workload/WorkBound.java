package io.github.ariesmodel.cli.workload;

import java.util.List;
import java.util.Locale;

/**
 * The bound on a point-to-point workload's work, as replay has one ({@link ReplayWorkload#MAX_PACKETS}, docs/replay.md,
 * "The work's estimate"): {@code run pingpong -p sizes=1G -p iterations=2} ran for about two hours without a word
 * (stop 75's hunt). The estimate counts the packets the workload's messages take, 64 payload bytes a packet (a message
 * at least one); {@code allowLong=on} runs beyond the bound.
 */
final class WorkBound {

  private WorkBound() {}

  /** The parameter that lets work beyond the bound run. */
  static final String ALLOW_LONG = "allowLong";

  /** Its help line, for the workloads' parameter lists. */
  static final String HELP = "off: on or off: run even when the estimated work (the packets its messages take) exceeds "
      + ReplayWorkload.MAX_PACKETS + " (docs/errors-and-guarantees.md)";

  /** Payload bytes of one packet ({@code WireFormat.MAX_PAYLOAD}). */
  private static final long PACKET_BYTES = io.github.ariesmodel.core.packet.WireFormat.MAX_PAYLOAD;

  /** @return the packets one message of {@code bytes} takes, at least one */
  static long packets(long bytes) {
    return Math.max(1, (bytes + PACKET_BYTES - 1) / PACKET_BYTES);
  }

  /** @return {@code a * b}, saturated at {@link Long#MAX_VALUE} (both non-negative) */
  static long times(long a, long b) {
    return b != 0 && a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
  }

  /** @return {@code a + b}, saturated at {@link Long#MAX_VALUE} (both non-negative) */
  static long plus(long a, long b) {
    long r = a + b;
    return r < 0 ? Long.MAX_VALUE : r;
  }

  /**
   * Refuses work beyond the bound unless {@code allowLong=on}, in replay's words (its message starts with
   * {@link ReplayWorkload#ESTIMATED_WORK}, by which {@code run} names its {@code -p}).
   *
   * @param params the parameters (their {@code allowLong} is read)
   * @param packets the estimated packets
   * @param remedy what to give less of, for the message ("smaller sizes or fewer iterations")
   */
  static void check(Params params, long packets, String remedy) {
    boolean allowLong = params.choice(ALLOW_LONG, "off", List.of("on", "off")).equals("on");
    if (!allowLong && packets > ReplayWorkload.MAX_PACKETS) {
      throw new IllegalArgumentException(String.format(Locale.ROOT, "%s %,d packets (the messages' bytes in %d-byte"
          + " packets, a message at least one; at some %,d packets/s about %.1f min) exceeds the bound of %,d; give %s,"
          + " or allowLong=on", ReplayWorkload.ESTIMATED_WORK, packets, PACKET_BYTES,
          ReplayWorkload.PACKETS_PER_SECOND, packets / (double) ReplayWorkload.PACKETS_PER_SECOND / 60,
          ReplayWorkload.MAX_PACKETS, remedy));
    }
  }
}
