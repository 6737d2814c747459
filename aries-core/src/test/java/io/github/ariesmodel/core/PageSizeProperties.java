package io.github.ariesmodel.core;

import static io.github.ariesmodel.core.CoreTestGens.addresses;
import static io.github.ariesmodel.core.CoreTestGens.pageSizes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Page arithmetic of every {@link PageSize}, checked against plain division. */
class PageSizeProperties {

  private static final int N = 10_000;

  @Test
  void alignDownIsTheStartOfThePageAndPageOffsetTheRemainder() {
    qt().withExamples(N).forAll(pageSizes(), addresses())
        .checkAssert((size, a) -> {
          long bytes = size.bytes();
          assertThat(size.pageNumber(a)).isEqualTo(a / bytes);
          assertThat(size.pageOffset(a)).isEqualTo(a % bytes);
          assertThat(size.alignDown(a)).isEqualTo(a / bytes * bytes);
          assertThat(size.alignDown(a) + size.pageOffset(a)).isEqualTo(a);
          assertThat(size.isAligned(a)).isEqualTo(a % bytes == 0);
          assertThat(size.bytesToPageEnd(a)).isEqualTo(bytes - a % bytes).isBetween(1L, bytes);
        });
  }

  @Test
  void alignUpIsTheFirstBoundaryAtOrAbove() {
    qt().withExamples(N).forAll(pageSizes(), addresses())
        .checkAssert((size, a) -> {
          long bytes = size.bytes();
          long up = size.alignUp(a);
          assertThat(up).isEqualTo((a + bytes - 1) / bytes * bytes);
          assertThat(up).isGreaterThanOrEqualTo(a);
          assertThat(up - a).isLessThan(bytes);
          assertThat(size.isAligned(up)).isTrue();
          assertThat(up == a).isEqualTo(size.isAligned(a));
        });
  }

  @Test
  void pagesSpannedCountsThePagesAWalkTouches() {
    qt().withExamples(N).forAll(pageSizes(), addresses(), longs().between(0, 40))
        .checkAssert((size, a, pagesWorth) -> {
          // Lengths around whole multiples of the page size, so walks end exactly on and just past boundaries.
          long length = Math.max(0, pagesWorth / 4 * size.bytes() + (pagesWorth % 4) - 1);
          long walked = 0;
          long at = a;
          long left = length;
          while (left > 0) {
            long n = Math.min(left, size.bytesToPageEnd(at));
            at += n;
            left -= n;
            walked++;
          }
          assertThat(size.pagesSpanned(a, length)).isEqualTo(walked);
        });
  }

  @Test
  void textAndCodeAndBytesRoundTrip() {
    qt().withExamples(100).forAll(pageSizes())
        .checkAssert(size -> {
          assertThat(PageSize.parse(size.toString())).isEqualTo(size);
          assertThat(PageSize.parse(size.toString().toLowerCase(Locale.ROOT) + "b")).isEqualTo(size);
          assertThat(PageSize.fromCode(size.code())).isEqualTo(size);
          assertThat(PageSize.ofBytes(size.bytes())).isEqualTo(size);
          assertThat(size.levels()).isEqualTo(size.isHuge() ? 1 : 2);
        });
  }
}
