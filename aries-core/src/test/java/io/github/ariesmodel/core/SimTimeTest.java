package io.github.ariesmodel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link SimTime}'s conversions stay inside the clock or refuse, naming the parameter (stop 31's fuzz run). */
class SimTimeTest {

  @Test
  void conversionsInsideTheClockAreUnchanged() {
    assertThat(SimTime.ns(1.5)).isEqualTo(1_500);
    assertThat(SimTime.ns(-2)).isEqualTo(-2_000);
    assertThat(SimTime.us(0.25)).isEqualTo(250_000);
    assertThat(SimTime.ns(9.2e15)).isEqualTo(9_200_000_000_000_000_000L);
    assertThat(SimTime.serializationPs(64, 16e9)).isEqualTo(4_000);
    assertThat(SimTime.serializationPs(3, 7e9)).isEqualTo(429); // 428.57 rounded up
    assertThat(SimTime.cyclePs(800e6)).isEqualTo(1_250);
    assertThat(SimTime.cyclePs(2e12)).isEqualTo(1);
  }

  @Test
  void latencyAndRateBoundsNameTheParameterRangeAndValue() {
    SimTime.checkLatency("x", 0);
    SimTime.checkLatency("x", SimTime.MAX_LATENCY_PS);
    assertThatThrownBy(() -> SimTime.checkLatency("hostLatencyPs", SimTime.MAX_LATENCY_PS + 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("hostLatencyPs must be in [0, 1e9] ps (1 ms) but was 1000000001");
    assertThatThrownBy(() -> SimTime.checkLatency("x", -1)).hasMessageEndingWith("but was -1");
    SimTime.checkRate("r", SimTime.MIN_BYTES_PER_SECOND, false);
    SimTime.checkRate("r", SimTime.MAX_BYTES_PER_SECOND, false);
    SimTime.checkRate("r", Double.POSITIVE_INFINITY, true);
    assertThatThrownBy(() -> SimTime.checkRate("r", Double.POSITIVE_INFINITY, false))
        .hasMessage("r must be in [84000, 1e12] bytes/s but was Infinity");
    for (double bad : new double[] {Double.NaN, 0, -1, 83_999.9, 1.0000001e12, Double.NEGATIVE_INFINITY}) {
      assertThatThrownBy(() -> SimTime.checkRate("rate", bad, true)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("rate must be in [84000, 1e12] bytes/s or Infinity (no serialization time) but was " + bad);
    }
  }

  @ParameterizedTest
  @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e16, -1e16, 1e300})
  void nsRefusesWhatIsNoLongOfPicoseconds(double bad) {
    // Math.round saturated these to Long.MAX_VALUE / MIN_VALUE, or NaN to 0, without a word.
    assertThatThrownBy(() -> SimTime.ns(bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("ns must be a finite number in (-9.223372036854776E15, 9.223372036854776E15)")
        .hasMessageEndingWith("but was " + bad);
  }

  @ParameterizedTest
  @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e13, -1e13})
  void usRefusesWhatIsNoLongOfPicoseconds(double bad) {
    assertThatThrownBy(() -> SimTime.us(bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("us must be a finite number in (-9.223372036854775E12, 9.223372036854775E12)")
        .hasMessageEndingWith("but was " + bad);
  }

  @Test
  void serializationAtAnInfiniteRateTakesNoTimeAndAtATinyRateIsRefused() {
    assertThat(SimTime.serializationPs(1_000, Double.POSITIVE_INFINITY)).isZero();
    assertThat(SimTime.serializationPs(0, Double.MIN_VALUE)).isZero();
    // 8 bytes at 1e-6 B/s is 8e18 ps, inside the clock; 10 bytes is 1e19 ps, beyond it (it used to saturate).
    assertThat(SimTime.serializationPs(8, 1e-6)).isEqualTo(8_000_000_000_000_000_000L);
    for (double tiny : new double[] {1e-6, 1e-300, Double.MIN_VALUE}) {
      assertThatThrownBy(() -> SimTime.serializationPs(10, tiny))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("bytesPerSecond must be above 1.0842021724855044E-6 for 10 bytes")
          .hasMessageEndingWith("but was " + tiny);
    }
    for (double bad : new double[] {Double.NaN, 0, -1, Double.NEGATIVE_INFINITY}) {
      assertThatThrownBy(() -> SimTime.serializationPs(10, bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("bytesPerSecond must be > 0 (infinite for none) but was " + bad);
    }
  }

  @ParameterizedTest
  @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, 0, -1, 2.1e12, 1e-8, Double.MIN_VALUE})
  void cycleTimeRefusesFrequenciesWithoutACycleOfOneToMaxPicoseconds(double bad) {
    // An infinite or > 2 THz clock had a 0 ps cycle; a tiny one saturated to Long.MAX_VALUE.
    assertThatThrownBy(() -> SimTime.cyclePs(bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("hertz must be in (1.0842021724855044E-7, 2.0E12] (a cycle of 1 ps to Long.MAX_VALUE ps) but was "
            + bad);
  }
}
