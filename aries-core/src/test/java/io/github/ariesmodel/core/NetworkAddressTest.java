package io.github.ariesmodel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NetworkAddressTest {

  private static final BigInteger TWO_TO_70 = BigInteger.ONE.shiftLeft(70);

  @Test
  void fieldWidthsAreTheBteDescriptorsAndSumToSeventy() {
    assertThat(NetworkAddress.NODE_ID_BITS).isEqualTo(18);
    assertThat(NetworkAddress.MDH_BITS).isEqualTo(12);
    assertThat(NetworkAddress.OFFSET_BITS).isEqualTo(40);
    assertThat(NetworkAddress.TOTAL_BITS).isEqualTo(70);
    assertThat(NetworkAddress.MAX_NODE_ID).isEqualTo(262_143);
    assertThat(NetworkAddress.MAX_MDH).isEqualTo(4_095);
    assertThat(NetworkAddress.MAX_OFFSET).isEqualTo(1_099_511_627_775L);
  }

  @Test
  void zeroAndMaximumAreAcceptedAndMapToTheIntegerEdges() {
    NetworkAddress zero = NetworkAddress.of(0, 0, 0);
    NetworkAddress max = NetworkAddress.of(
        NetworkAddress.MAX_NODE_ID, NetworkAddress.MAX_MDH, NetworkAddress.MAX_OFFSET);
    assertThat(zero.toBigInteger()).isZero();
    assertThat(max.toBigInteger()).isEqualTo(TWO_TO_70.subtract(BigInteger.ONE));
    assertThat(max.highBits()).isEqualTo(63);
    assertThat(max.lowBits()).isEqualTo(-1L);
    assertThat(max.toWire()).containsExactly(0x3f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
    assertThat(zero).isLessThan(max);
    assertThat(NetworkAddress.fromBigInteger(TWO_TO_70.subtract(BigInteger.ONE))).isEqualTo(max);
  }

  @Test
  void singleFieldValuesSitWhereTheLayoutTableSays() {
    assertThat(NetworkAddress.of(1, 0, 0).toBigInteger()).isEqualTo(BigInteger.ONE.shiftLeft(52));
    assertThat(NetworkAddress.of(0, 1, 0).toBigInteger()).isEqualTo(BigInteger.ONE.shiftLeft(40));
    assertThat(NetworkAddress.of(0, 0, 1).toBigInteger()).isEqualTo(BigInteger.ONE);
    assertThat(NetworkAddress.of(1 << 12, 0, 0).highBits()).isEqualTo(1);
    assertThat(NetworkAddress.of(1 << 12, 0, 0).lowBits()).isZero();
  }

  @Test
  void textFormIsDecimalNodeAndMdhAndHexOffset() {
    NetworkAddress a = NetworkAddress.of(12, 7, 0x1f40);
    assertThat(a).hasToString("12:7:0x1f40");
    assertThat(NetworkAddress.parse("12:7:8000")).isEqualTo(a);
    assertThat(NetworkAddress.parse("12:7:0X1F40")).isEqualTo(a);
  }

  @Test
  void maxPlusOneIsRejectedForEachField() {
    assertThatThrownBy(() -> NetworkAddress.of(262_144, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("nodeId must be in [0, 262143] (18 bits) but was 262144");
    assertThatThrownBy(() -> NetworkAddress.of(0, 4_096, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mdh must be in [0, 4095] (12 bits) but was 4096");
    assertThatThrownBy(() -> NetworkAddress.of(0, 0, 1L << 40))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("offset must be in [0, 1099511627775] (40 bits) but was 1099511627776");
    assertThatThrownBy(() -> NetworkAddress.of(-1, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("nodeId must be in [0, 262143] (18 bits) but was -1");
  }

  @Test
  void integersOutsideSeventyBitsAreRejected() {
    assertThatThrownBy(() -> NetworkAddress.fromBigInteger(TWO_TO_70))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[0, 2^70 - 1]")
        .hasMessageContaining(TWO_TO_70.toString());
    assertThatThrownBy(() -> NetworkAddress.fromBigInteger(BigInteger.ONE.negate()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but was -1");
  }

  @Test
  void wireFormOfWrongLengthOrWithBitsAboveSixtyNineIsRejected() {
    assertThatThrownBy(() -> NetworkAddress.fromWire(new byte[8]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("9 bytes")
        .hasMessageContaining("but was 8");
    byte[] wire = new byte[9];
    wire[0] = 0x40;
    assertThatThrownBy(() -> NetworkAddress.fromWire(wire))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("wire[0]")
        .hasMessageContaining("0x40");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", "1", "1:2", "1:2:3:4", "a:b:c", "1:2:0x", "1:2:0xzz", " 1:2:3", "1:2:3 ", "1::3", "1:2:-5",
      "1:2:0x-1", "1:2:0xffffffffffffffff", "1:2:0x10000000000", "262144:0:0", "0:4096:0", "1:2:18446744073709551616"
  })
  void malformedOrOutOfRangeTextIsRejectedQuotingIt(String text) {
    assertThatThrownBy(() -> NetworkAddress.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"" + text + "\"");
  }

  @Test
  void outOfRangeTextAlsoNamesTheField() {
    assertThatThrownBy(() -> NetworkAddress.parse("262144:0:0"))
        .hasMessageContaining("nodeId must be in [0, 262143]");
    assertThatThrownBy(() -> NetworkAddress.parse("1:2:0x10000000000"))
        .hasMessageContaining("offset must be in [0, 1099511627775]");
    assertThatThrownBy(() -> NetworkAddress.parse("1:2:0xffffffffffffffff"))
        .hasMessageContaining("offset must be in [0, 1099511627775] but was 18446744073709551615");
  }

  @ParameterizedTest
  @ValueSource(strings = {"+1:2:3", "-0:0:0", "1:2:0x+5", "1:2:-5", "١:2:3", "1:٢:3", "1:2:0x１", "1:+2:3"})
  void signsAndNonAsciiDigitsAreMalformed(String text) {
    assertThatThrownBy(() -> NetworkAddress.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must look like node:mdh:offset")
        .hasMessageContaining("\"" + text + "\"");
  }

  @Test
  void longTextIsEchoedAbbreviated() {
    String text = "1:2:" + "9".repeat(5_000);
    assertThatThrownBy(() -> NetworkAddress.parse(text))
        .hasMessageContaining("5004 characters")
        .satisfies(e -> org.assertj.core.api.Assertions.assertThat(e.getMessage()).hasSizeLessThan(200));
  }

  @Test
  void nullTextIsRejected() {
    assertThatThrownBy(() -> NetworkAddress.parse(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("text");
  }
}
