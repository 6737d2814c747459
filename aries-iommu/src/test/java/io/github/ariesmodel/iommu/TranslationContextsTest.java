package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.PageSize;
import org.junit.jupiter.api.Test;

/** The driver's placement in one context's space alone: first fit, merging of freed ranges, the top coming down. */
class TranslationContextsTest {

  private static TranslationContexts.Context context(long pages) {
    return new TranslationContexts.Context(PageSize.SIZE_4K, pages << 12);
  }

  private static long place(TranslationContexts.Context c, long pages) {
    long first = c.find(pages);
    if (first >= 0) {
      c.take(first, pages);
    }
    return first;
  }

  @Test
  void placesFirstFitAndMergesFreedNeighbours() {
    TranslationContexts.Context c = context(100);
    assertThat(place(c, 10)).isZero();
    assertThat(place(c, 10)).isEqualTo(10);
    assertThat(place(c, 10)).isEqualTo(20);
    assertThat(place(c, 10)).isEqualTo(30);
    c.free(10, 10);
    assertThat(place(c, 11)).as("the hole at 10 is too short").isEqualTo(40);
    assertThat(place(c, 4)).as("the lowest hole that fits").isEqualTo(10);
    c.free(20, 10);
    assertThat(place(c, 16)).as("14..19 merged with 20..29").isEqualTo(14);
    assertThat(c.pagesInUse()).isEqualTo(10 + 4 + 16 + 10 + 11);
    assertThat(place(c, 50)).as("only 49 pages above 51").isEqualTo(-1);
    assertThat(place(c, 49)).isEqualTo(51);
    assertThat(place(c, 1)).isEqualTo(-1);
  }

  @Test
  void freeingTheHighestRangeLowersTheTopThroughMergedHoles() {
    TranslationContexts.Context c = context(30);
    place(c, 10);
    place(c, 10);
    place(c, 10);
    c.free(10, 10);
    c.free(20, 10);
    assertThat(c.pagesInUse()).isEqualTo(10);
    assertThat(place(c, 20)).as("one free run from 10 to the end").isEqualTo(10);
    c.free(10, 20);
    c.free(0, 10);
    assertThat(c.pagesInUse()).isZero();
    assertThat(place(c, 30)).isZero();
  }

  @Test
  void theRootTableHasAnEntryForEachPageOrEachTwoMegabytesOfTheSpace() {
    assertThat(new TranslationContexts.Context(PageSize.SIZE_4K, 1L << 34).rootBytes)
        .as("16 GB of 4 KB pages: 8,192 leaf tables").isEqualTo(8192 * 8);
    assertThat(new TranslationContexts.Context(PageSize.SIZE_2M, 1L << 34).rootBytes).isEqualTo(8192 * 8);
    assertThat(new TranslationContexts.Context(PageSize.SIZE_1G, 1L << 34).rootBytes).as("16 entries, one table")
        .isEqualTo(4096);
  }
}
