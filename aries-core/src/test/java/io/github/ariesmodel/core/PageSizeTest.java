package io.github.ariesmodel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PageSizeTest {

  @Test
  void thereAreSeventeenSizesFrom4KThrough2MTo64G() {
    PageSize[] all = PageSize.values();
    assertThat(Arrays.stream(all).map(PageSize::toString)).containsExactly(
        "4K", "2M", "4M", "8M", "16M", "32M", "64M", "128M", "256M", "512M",
        "1G", "2G", "4G", "8G", "16G", "32G", "64G");
    assertThat(all).isSorted();
    assertThat(Arrays.stream(all).mapToInt(PageSize::code)).containsExactly(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
    assertThat(all[0]).isEqualTo(PageSize.SIZE_4K);
    assertThat(all[1]).isEqualTo(PageSize.SIZE_2M);
    assertThat(all[10]).isEqualTo(PageSize.SIZE_1G);
    assertThat(all[16]).isEqualTo(PageSize.SIZE_64G);
    assertThat(PageSize.SIZE_64G.bytes()).isEqualTo(64L << 30);
  }

  @Test
  void only4KIsTwoLevel() {
    assertThat(PageSize.SIZE_4K.isHuge()).isFalse();
    assertThat(PageSize.SIZE_4K.levels()).isEqualTo(2);
    assertThat(Arrays.stream(PageSize.values()).skip(1)).allMatch(p -> p.isHuge() && p.levels() == 1);
  }

  @Test
  void arithmeticExamples() {
    PageSize p = PageSize.SIZE_2M;
    assertThat(p.alignDown(0x3F_FFFF)).isEqualTo(0x20_0000);
    assertThat(p.alignUp(0x20_0001)).isEqualTo(0x40_0000);
    assertThat(p.pagesSpanned(0x1F_FFFF, 2)).isEqualTo(2);
    assertThat(p.pagesSpanned(0x20_0000, 0)).isZero();
    assertThatThrownBy(() -> p.pagesSpanned(0, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("length must be in [0, ").hasMessageEndingWith("but was -1");
  }

  @Test
  void arithmeticThatWouldWrapIsRefusedNamingTheValue() {
    PageSize p = PageSize.SIZE_4K;
    long last = Long.MAX_VALUE - 4095;
    assertThat(p.alignUp(last)).isEqualTo(last).isPositive();
    assertThatThrownBy(() -> p.alignUp(last + 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("address must be in [0, " + last + "] to round up to a 4K page boundary but was " + (last + 1));
    assertThatThrownBy(() -> p.alignUp(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith("but was -1");
    assertThatThrownBy(() -> p.pagesSpanned(-1, 2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("address must be >= 0 but was -1");
    assertThat(p.pagesSpanned(0, Long.MAX_VALUE)).isEqualTo(1L << 51);
    assertThat(p.pagesSpanned(Long.MAX_VALUE, 1)).isEqualTo(1);
    assertThatThrownBy(() -> p.pagesSpanned(Long.MAX_VALUE, 2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("length must be in [0, 1] (to end within the address range from address " + Long.MAX_VALUE
            + ") but was 2");
  }

  @Test
  void aNegativeLengthFromAddressZeroIsRefusedNamingTheLongestLengthALongHolds() {
    // from address 0 the range's end is 2^63 bytes away, one more than a long holds: the bound was computed as
    // Long.MAX_VALUE - 0 + 1, which wrapped, and the message read "length must be in [0, -9223372036854775808]"
    assertThatThrownBy(() -> PageSize.SIZE_4K.pagesSpanned(0, -1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("length must be in [0, " + Long.MAX_VALUE + "] (to end within the address range from address 0)"
            + " but was -1");
    assertThatThrownBy(() -> PageSize.SIZE_4K.pagesSpanned(1, -1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("length must be in [0, " + Long.MAX_VALUE + "] (to end within the address range from address 1)"
            + " but was -1");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "K", "4", "3K", "8K", "1M", "128G", "0K", "-4K", "xM", "4KK", "2 M", "99999999999999999999G"})
  void invalidTextIsRejectedQuotingIt(String text) {
    assertThatThrownBy(() -> PageSize.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"" + text + "\"");
  }

  @Test
  void invalidShiftsBytesAndCodesAreRejectedWithTheValue() {
    assertThatThrownBy(() -> new PageSize(13))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but was 13");
    assertThatThrownBy(() -> new PageSize(37)).hasMessageContaining("[21, 36]");
    assertThatThrownBy(() -> PageSize.ofBytes(8192))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("8192");
    assertThatThrownBy(() -> PageSize.ofBytes(3 << 20)).hasMessageContaining(String.valueOf(3 << 20));
    assertThatThrownBy(() -> PageSize.fromCode(17))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[0, 16] but was 17");
    assertThatThrownBy(() -> PageSize.fromCode(-1)).hasMessageContaining("but was -1");
  }
}
