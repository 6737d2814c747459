package io.github.ariesmodel.core;

import static io.github.ariesmodel.core.CoreTestGens.intsOutside;
import static io.github.ariesmodel.core.CoreTestGens.longsOutside;
import static io.github.ariesmodel.core.CoreTestGens.mdhs;
import static io.github.ariesmodel.core.CoreTestGens.networkAddresses;
import static io.github.ariesmodel.core.CoreTestGens.nodeIds;
import static io.github.ariesmodel.core.CoreTestGens.offsets;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** Properties of {@link NetworkAddress} and its primitive twin {@link NetworkAddresses}. */
class NetworkAddressProperties {

  private static final int N = 10_000;
  private static final BigInteger NODE_MASK = mask(69, 52);
  private static final BigInteger MDH_MASK = mask(51, 40);
  private static final BigInteger OFFSET_MASK = mask(39, 0);

  private static BigInteger mask(int hi, int lo) {
    return BigInteger.ONE.shiftLeft(hi - lo + 1).subtract(BigInteger.ONE).shiftLeft(lo);
  }

  /** The 70-bit integer computed independently of the class under test. */
  private static BigInteger reference(int nodeId, int mdh, long offset) {
    return BigInteger.valueOf(nodeId).shiftLeft(52)
        .or(BigInteger.valueOf(mdh).shiftLeft(40))
        .or(BigInteger.valueOf(offset));
  }

  @Test
  void textRoundTrips() {
    qt().withExamples(N).forAll(networkAddresses())
        .check(a -> NetworkAddress.parse(a.toString()).equals(a));
  }

  @Test
  void decimalOffsetTextParsesToTheSameAddress() {
    qt().withExamples(N).forAll(networkAddresses())
        .check(a -> NetworkAddress.parse(a.nodeId() + ":" + a.mdh() + ":" + a.offset()).equals(a));
  }

  @Test
  void twoLongFormRoundTrips() {
    qt().withExamples(N).forAll(networkAddresses())
        .check(a -> NetworkAddress.fromLongs(a.highBits(), a.lowBits()).equals(a));
  }

  @Test
  void everyTwoLongValueIsAnAddressAndRoundTrips() {
    qt().withExamples(N).forAll(longs().between(0, 63), longs().all())
        .checkAssert((high, low) -> {
          NetworkAddress a = NetworkAddress.fromLongs(high, low);
          assertThat(a.highBits()).isEqualTo(high);
          assertThat(a.lowBits()).isEqualTo(low);
        });
  }

  @Test
  void wireFormRoundTripsAndIsTheBigEndianInteger() {
    qt().withExamples(N).forAll(networkAddresses())
        .checkAssert(a -> {
          byte[] wire = a.toWire();
          assertThat(wire).hasSize(NetworkAddress.WIRE_BYTES);
          assertThat(NetworkAddress.fromWire(wire)).isEqualTo(a);
          assertThat(new BigInteger(1, wire)).isEqualTo(a.toBigInteger());
        });
  }

  @Test
  void bigIntegerFormIsTheDocumentedLayoutAndRoundTrips() {
    qt().withExamples(N).forAll(networkAddresses())
        .checkAssert(a -> {
          BigInteger v = a.toBigInteger();
          assertThat(v).isEqualTo(reference(a.nodeId(), a.mdh(), a.offset()));
          assertThat(v.bitLength()).isLessThanOrEqualTo(NetworkAddress.TOTAL_BITS);
          assertThat(NetworkAddress.fromBigInteger(v)).isEqualTo(a);
          assertThat(v.shiftRight(64).longValue()).isEqualTo(a.highBits());
          assertThat(v.longValue()).isEqualTo(a.lowBits());
        });
  }

  @Test
  void changingTheNodeIdChangesOnlyItsBits() {
    qt().withExamples(N).forAll(networkAddresses(), nodeIds())
        .check((a, n) -> onlyBitsIn(a, NetworkAddress.of(n, a.mdh(), a.offset()), NODE_MASK, n != a.nodeId()));
  }

  @Test
  void changingTheMdhChangesOnlyItsBits() {
    qt().withExamples(N).forAll(networkAddresses(), mdhs())
        .check((a, m) -> onlyBitsIn(a, NetworkAddress.of(a.nodeId(), m, a.offset()), MDH_MASK, m != a.mdh()));
  }

  @Test
  void changingTheOffsetChangesOnlyItsBits() {
    qt().withExamples(N).forAll(networkAddresses(), offsets())
        .check((a, o) -> onlyBitsIn(a, NetworkAddress.of(a.nodeId(), a.mdh(), o), OFFSET_MASK, o != a.offset()));
  }

  private static boolean onlyBitsIn(NetworkAddress a, NetworkAddress b, BigInteger fieldMask, boolean changed) {
    BigInteger diff = a.toBigInteger().xor(b.toBigInteger());
    boolean inField = diff.andNot(fieldMask).signum() == 0;
    return inField && (diff.signum() != 0) == changed;
  }

  @Test
  void orderIsTheOrderOfTheSeventyBitInteger() {
    // b shares a prefix of a's fields half of the time, so ties on node id and MDH are exercised.
    qt().withExamples(N).forAll(networkAddresses(), networkAddresses(), integers().between(0, 3))
        .checkAssert((a, other, shared) -> {
          NetworkAddress b = NetworkAddress.of(
              shared >= 1 ? a.nodeId() : other.nodeId(),
              shared >= 2 ? a.mdh() : other.mdh(),
              shared >= 3 ? a.offset() : other.offset());
          int expected = Integer.signum(a.toBigInteger().compareTo(b.toBigInteger()));
          assertThat(Integer.signum(a.compareTo(b))).isEqualTo(expected);
          assertThat(Integer.signum(b.compareTo(a))).isEqualTo(-expected);
          assertThat(a.compareTo(b) == 0).isEqualTo(a.equals(b));
        });
  }

  @Test
  void primitiveTwinsAgreeWithTheRecord() {
    qt().withExamples(N).forAll(networkAddresses())
        .checkAssert(a -> {
          int endpoint = NetworkAddresses.endpoint(a.nodeId(), a.mdh());
          assertThat(endpoint).isEqualTo(a.endpoint());
          assertThat(endpoint).isBetween(0, (1 << NetworkAddresses.ENDPOINT_BITS) - 1);
          assertThat(NetworkAddresses.nodeId(endpoint)).isEqualTo(a.nodeId());
          assertThat(NetworkAddresses.mdh(endpoint)).isEqualTo(a.mdh());
          long high = NetworkAddresses.high(a.nodeId());
          long low = NetworkAddresses.low(a.nodeId(), a.mdh(), a.offset());
          assertThat(high).isEqualTo(a.highBits());
          assertThat(low).isEqualTo(a.lowBits());
          assertThat(NetworkAddresses.nodeId(high, low)).isEqualTo(a.nodeId());
          assertThat(NetworkAddresses.mdh(low)).isEqualTo(a.mdh());
          assertThat(NetworkAddresses.offset(low)).isEqualTo(a.offset());
          // The endpoint is the top 30 bits of the 70-bit integer.
          assertThat(BigInteger.valueOf(endpoint)).isEqualTo(a.toBigInteger().shiftRight(40));
        });
  }

  @Test
  void outOfRangeNodeIdIsRejectedNamingFieldRangeAndValue() {
    qt().withExamples(N).forAll(intsOutside(NetworkAddress.MAX_NODE_ID))
        .checkAssert(n -> {
          assertThat(NetworkAddresses.isValidNodeId(n)).isFalse();
          assertThatThrownBy(() -> NetworkAddress.of(n, 0, 0))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("nodeId")
              .hasMessageContaining("[0, 262143]")
              .hasMessageContaining("but was " + n);
        });
  }

  @Test
  void outOfRangeMdhIsRejectedNamingFieldRangeAndValue() {
    qt().withExamples(N).forAll(intsOutside(NetworkAddress.MAX_MDH))
        .checkAssert(m -> {
          assertThat(NetworkAddresses.isValidMdh(m)).isFalse();
          assertThatThrownBy(() -> NetworkAddress.of(0, m, 0))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("mdh")
              .hasMessageContaining("[0, 4095]")
              .hasMessageContaining("but was " + m);
        });
  }

  @Test
  void outOfRangeOffsetIsRejectedNamingFieldRangeAndValue() {
    qt().withExamples(N).forAll(longsOutside(NetworkAddress.MAX_OFFSET))
        .checkAssert(o -> {
          assertThat(NetworkAddresses.isValidOffset(o)).isFalse();
          assertThatThrownBy(() -> NetworkAddress.of(0, 0, o))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("offset")
              .hasMessageContaining("[0, 1099511627775]")
              .hasMessageContaining("but was " + o);
        });
  }

  @Test
  void highPartOutsideSixBitsIsRejected() {
    qt().withExamples(N).forAll(longsOutside(63), longs().all())
        .checkAssert((high, low) -> assertThatThrownBy(() -> NetworkAddress.fromLongs(high, low))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("high")
            .hasMessageContaining("[0, 63]")
            .hasMessageContaining("but was " + high));
  }

  @Test
  void arbitraryTextIsParsedOrRejectedQuotingIt() {
    qt().withExamples(N).forAll(strings().ascii().ofLengthBetween(0, 30))
        .checkAssert(text -> {
          NetworkAddress a;
          try {
            a = NetworkAddress.parse(text);
          } catch (IllegalArgumentException e) {
            // quoted as every message quotes user text: control characters escaped, a long escaped text cut
            assertThat(e).hasMessageContaining("\"" + Texts.abbreviate(text) + "\"");
            return;
          }
          assertThat(NetworkAddress.parse(a.toString())).isEqualTo(a);
        });
  }

  @Test
  void plusMovesTheOffsetOnlyAndRejectsLeavingTheField() {
    qt().withExamples(N).forAll(networkAddresses(), longs().between(-(1L << 41), 1L << 41))
        .checkAssert((a, delta) -> {
          long target = a.offset() + delta;
          if (NetworkAddresses.isValidOffset(target)) {
            assertThat(a.plus(delta)).isEqualTo(NetworkAddress.of(a.nodeId(), a.mdh(), target));
          } else {
            assertThatThrownBy(() -> a.plus(delta)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("offset");
          }
        });
  }
}
