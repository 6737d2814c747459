package io.github.ariesmodel.system.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import java.util.Locale;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.SourceDSL;
import org.junit.jupiter.api.Test;

/**
 * The trace's microseconds are the text {@code String.format("%.6f", ps / 1e6)} wrote until stop 78, which the
 * writer now appends from the integer picoseconds below 10^15 (and still formats beyond, and below 0).
 */
class PacketTraceProperties {

  private static String micros(long ps) {
    StringBuilder b = new StringBuilder();
    PacketTrace.micros(b, ps);
    return b.toString();
  }

  private static String formatted(long ps) {
    return String.format(Locale.ROOT, "%.6f", ps / 1e6);
  }

  @Test
  void picosecondsAreTheFormattersMicrosecondsUpTo1000Seconds() {
    Gen<Long> anyWidth = SourceDSL.integers().between(0, 15)
        .flatMap(digits -> SourceDSL.longs().between(0, (long) Math.pow(10, digits) - 1));
    qt().withExamples(20_000).forAll(anyWidth).checkAssert(ps -> assertThat(micros(ps)).isEqualTo(formatted(ps)));
    // the highest values, whose doubles are the coarsest the integer path takes
    qt().withExamples(20_000).forAll(SourceDSL.longs().between(999_000_000_000_000L, 999_999_999_999_999L))
        .checkAssert(ps -> assertThat(micros(ps)).isEqualTo(formatted(ps)));
  }

  @Test
  void negativeAndLargerPicosecondsAreFormattedAsBefore() {
    qt().withExamples(2_000).forAll(SourceDSL.longs().all())
        .checkAssert(ps -> assertThat(micros(ps)).isEqualTo(formatted(ps)));
    for (long ps : new long[] {0, 1, 9, 10, 999_999, 1_000_000, 1_000_001, 999_999_999_999_999L,
        1_000_000_000_000_000L, -1, Long.MIN_VALUE, Long.MAX_VALUE}) {
      assertThat(micros(ps)).as("%s ps", ps).isEqualTo(formatted(ps));
    }
    assertThat(micros(1_234_567)).isEqualTo("1.234567");
    assertThat(micros(5)).isEqualTo("0.000005");
  }
}
