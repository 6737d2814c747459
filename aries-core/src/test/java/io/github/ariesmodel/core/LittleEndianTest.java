package io.github.ariesmodel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link LittleEndian}: byte order, and the spans it refuses naming the parameter. */
class LittleEndianTest {

  @Test
  void packsLeastSignificantByteFirstAndZeroExtends() {
    byte[] b = new byte[10];
    LittleEndian.put(b, 2, 3, 0x0102_03L);
    assertThat(b[2]).isEqualTo((byte) 3);
    assertThat(b[4]).isEqualTo((byte) 1);
    assertThat(LittleEndian.get(b, 2, 3)).isEqualTo(0x0102_03L);
    assertThat(LittleEndian.get(LittleEndian.ofInt(-1), 0, 4)).isEqualTo(0xFFFF_FFFFL);
    assertThat(LittleEndian.getLong(LittleEndian.ofLong(Long.MIN_VALUE))).isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void spansOutsideTheArrayAreRefusedAndChangeNothing() {
    byte[] b = new byte[8];
    assertThatThrownBy(() -> LittleEndian.get(b, -1, 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("offset must be in [0, 7] for 1 bytes of a 8-byte array but was -1");
    // offset + width overflows an int here; it used to pass as a negative end
    assertThatThrownBy(() -> LittleEndian.put(b, Integer.MAX_VALUE, 8, -1L))
        .isInstanceOf(IllegalArgumentException.class).hasMessageEndingWith("but was " + Integer.MAX_VALUE);
    assertThat(b).containsOnly(0);
    assertThatThrownBy(() -> LittleEndian.getLong(new byte[4])).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bytes must hold at least 8 bytes but held 4");
    assertThatThrownBy(() -> LittleEndian.get(null, 0, 8)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bytes must not be null");
    assertThatThrownBy(() -> LittleEndian.get(b, 0, 9)).hasMessage("width must be in [1, 8] but was 9");
  }
}
