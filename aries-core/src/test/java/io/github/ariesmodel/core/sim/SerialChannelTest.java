package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link SerialChannel}: its timing, and the input that would take time backwards or past the clock. */
class SerialChannelTest {

  @Test
  void transfersQueueBehindEachOtherAndArriveALatencyAfterTheirTail() {
    SerialChannel c = SerialChannel.of(16e9, 250_000);
    assertThat(c.reserve(0, 64)).isEqualTo(4_000);
    assertThat(c.deliver(1_000, 64)).as("waits for the first, then 4 ns, then the latency").isEqualTo(258_000);
    assertThat(c.freeAtPs()).isEqualTo(8_000);
    assertThat(SerialChannel.of(Double.POSITIVE_INFINITY, 0).reserve(5, 1 << 20)).isEqualTo(5);
  }

  @Test
  void ratesAndLatenciesOutsideTheModelsBoundsAreRefusedNamingThem() {
    assertThatThrownBy(() -> SerialChannel.of(Double.MIN_VALUE, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bytesPerSecond must be in [84000, 1e12] bytes/s or Infinity (no serialization time) but was "
            + Double.MIN_VALUE);
    assertThatThrownBy(() -> SerialChannel.of(1e9, Long.MAX_VALUE)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("latencyPs must be in [0, 1e9] ps (1 ms) but was " + Long.MAX_VALUE);
  }

  @Test
  void negativeBytesAndTransfersPastTheClocksEndAreRefusedAndChangeNothing() {
    SerialChannel c = SerialChannel.of(1e9, 1_000);
    c.reserve(100, 10);
    long free = c.freeAtPs();
    assertThatThrownBy(() -> c.reserve(0, -1_000_000)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bytes must be >= 0 but was -1000000");
    assertThatThrownBy(() -> SerialChannel.serializationPs(-5, 1_000)).hasMessage("bytes must be >= 0 but was -5");
    assertThatThrownBy(() -> c.deliver(Long.MAX_VALUE - 500, 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("bytes must be few enough to arrive within the clock (Long.MAX_VALUE ps) but 1 bytes");
    assertThatThrownBy(() -> c.reserve(0, Long.MAX_VALUE)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("would not");
    assertThat(c.freeAtPs()).as("a refused transfer books nothing").isEqualTo(free);
  }
}
