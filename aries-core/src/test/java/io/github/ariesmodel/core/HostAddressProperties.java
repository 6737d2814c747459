package io.github.ariesmodel.core;

import static io.github.ariesmodel.core.CoreTestGens.bits;
import static io.github.ariesmodel.core.CoreTestGens.pageSizes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** {@link VirtualAddress} and {@link PhysicalAddress}: validation, text round trips, page arithmetic. */
class HostAddressProperties {

  private static final int N = 10_000;

  /** Canonical values: the lower half, and the upper half (bits 63..47 all set). */
  private static Gen<Long> canonical() {
    return bits(47).mix(bits(47).map(v -> v | (-1L << 47)), 40);
  }

  @Test
  void virtualAddressesAreCanonicalExactlyWhenBits63To47AreEqual() {
    qt().withExamples(N).forAll(longs().all().mix(canonical(), 50))
        .checkAssert(v -> {
          long top = v >> 47;
          boolean canonical = top == 0 || top == -1;
          assertThat(VirtualAddress.isCanonical(v)).isEqualTo(canonical);
          if (canonical) {
            VirtualAddress va = VirtualAddress.of(v);
            assertThat(VirtualAddress.parse(va.toString())).isEqualTo(va);
          } else {
            assertThatThrownBy(() -> VirtualAddress.of(v))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("canonical")
                .hasMessageContaining(Long.toHexString(v));
          }
        });
  }

  @Test
  void virtualPageNumberAndOffsetRebuildTheLow48Bits() {
    qt().withExamples(N).forAll(canonical(), pageSizes())
        .checkAssert((v, size) -> {
          VirtualAddress va = VirtualAddress.of(v);
          long low48 = v & ((1L << 48) - 1);
          assertThat((va.pageNumber(size) << size.shift()) | va.pageOffset(size)).isEqualTo(low48);
        });
  }

  @Test
  void physicalAddressesRoundTripAndRejectBeyond52Bits() {
    qt().withExamples(N).forAll(bits(52))
        .checkAssert(v -> {
          PhysicalAddress pa = PhysicalAddress.of(v);
          assertThat(PhysicalAddress.parse(pa.toString())).isEqualTo(pa);
          assertThat(pa.frameNumber()).isEqualTo(v / 4096);
          assertThat(pa.compareTo(PhysicalAddress.of(PhysicalAddress.MAX))).isLessThanOrEqualTo(0);
        });
    assertThatThrownBy(() -> PhysicalAddress.of(1L << 52))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[0, 2^52 - 1] but was 0x10000000000000");
    assertThatThrownBy(() -> PhysicalAddress.of(-1)).hasMessageContaining("0xffffffffffffffff");
  }

  @Test
  void malformedHexTextIsRejectedQuotingIt() {
    // "0x+1" was taken as 0x1, and fullwidth digits are no hex digits either
    for (String text : new String[] {"", "0x", "1000", "0xg", "0x-1", "0x12345678901234567", "0x+1", "0x\uff11"}) {
      assertThatThrownBy(() -> VirtualAddress.parse(text))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("\"" + text + "\"");
      assertThatThrownBy(() -> PhysicalAddress.parse(text))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("\"" + text + "\"");
    }
    String longText = "0x" + "z".repeat(500);
    assertThatThrownBy(() -> VirtualAddress.parse(longText)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but was \"0xzzz").satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(200));
  }
}
