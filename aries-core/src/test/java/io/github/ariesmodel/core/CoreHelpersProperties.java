package io.github.ariesmodel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.sim.SerialChannel;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** Properties of the small shared helpers: {@link LittleEndian}, {@link ByteCount}, {@link SerialChannel}. */
class CoreHelpersProperties {

  @Test
  void littleEndianAgreesWithByteBuffer() {
    qt().forAll(longs().all(), integers().between(1, 8)).check((v, width) -> {
      byte[] b = new byte[12];
      LittleEndian.put(b, 2, width, v);
      long expectedLow = width == 8 ? v : v & ((1L << (8 * width)) - 1);
      ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
      boolean sameAsJdk = width != 8 || bb.getLong(2) == v;
      return LittleEndian.get(b, 2, width) == expectedLow && sameAsJdk && b[0] == 0 && b[1] == 0
          && (2 + width >= 12 || b[2 + width] == 0);
    });
  }

  @Test
  void littleEndianRefusesBadWidthAndRange() {
    assertThatThrownBy(() -> LittleEndian.get(new byte[8], 0, 9)).hasMessageContaining("width");
    assertThatThrownBy(() -> LittleEndian.put(new byte[8], 4, 8, 1L)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("offset must be in [0, 0] for 8 bytes of a 8-byte array but was 4");
  }

  @Test
  void byteCountFormatRoundTrips() {
    qt().forAll(longs().between(0, Long.MAX_VALUE)).check(v -> ByteCount.parse("x", ByteCount.format(v)) == v);
  }

  @Test
  void byteCountSuffixes() {
    assertThat(ByteCount.parse("size", "4096")).isEqualTo(4096);
    assertThat(ByteCount.parse("size", "64k")).isEqualTo(64 << 10);
    assertThat(ByteCount.parse("size", "2MB")).isEqualTo(2 << 20);
    assertThat(ByteCount.parse("size", " 1G ")).isEqualTo(1L << 30);
    assertThat(ByteCount.parse("size", "3T")).isEqualTo(3L << 40);
    assertThat(ByteCount.format(1536)).isEqualTo("1536");
    assertThat(ByteCount.format(3L << 30)).isEqualTo("3G");
  }

  @Test
  void byteCountRefusesSignsNonAsciiAndOverflow() {
    for (String bad : new String[] {"-1", "+1", "1.5K", "", "K", "١٢", "1 K", "9999999999999999999", "8388608T"}) {
      assertThatThrownBy(() -> ByteCount.parse("--region", bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("--region");
    }
  }

  @Test
  void aCountReadsLikeASizeButIsNotCalledOne() {
    assertThat(ByteCount.parseCount("iterations", "64K")).isEqualTo(64 << 10);
    assertThatThrownBy(() -> ByteCount.parseCount("iterations", "")).hasMessageStartingWith(
        "iterations must be a whole number like 100, 64K or 2M").hasMessageNotContaining("byte");
    assertThatThrownBy(() -> ByteCount.parseCount("iterations", "8388608T"))
        .hasMessageContaining("iterations must be at most").hasMessageNotContaining("byte");
    assertThatThrownBy(() -> ByteCount.parse("--region", "8388608T")).hasMessageContaining("bytes but was");
  }

  @Test
  void byteCountEchoesAtMostEightyCharacters() {
    String huge = "x".repeat(10_000);
    assertThatThrownBy(() -> ByteCount.parse("size", huge))
        .hasMessageContaining("10000 characters")
        .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(200));
  }

  @Test
  void serialChannelQueuesTransfersBackToBack() {
    SerialChannel c = SerialChannel.of(1e9, 100); // 1000 ps per byte
    assertThat(c.deliver(0, 10)).isEqualTo(10_000 + 100);
    assertThat(c.reserve(5_000, 10)).isEqualTo(20_000); // waits for the first tail
    assertThat(c.reserve(50_000, 1)).isEqualTo(51_000); // idle link starts at once
    assertThat(SerialChannel.of(Double.POSITIVE_INFINITY, 0).reserve(7, 1_000_000)).isEqualTo(7);
  }

  @Test
  void serialChannelMatchesSimTime() {
    qt().forAll(longs().between(0, 1 << 20), integers().between(1, 100_000)).check((bytes, mbps) -> {
      double rate = mbps * 1e6;
      return SerialChannel.of(rate, 0).serializationPs(bytes) == SimTime.serializationPs(bytes, rate);
    });
  }
}
