package io.github.ariesmodel.core;

import static io.github.ariesmodel.core.CoreTestGens.bits;
import static io.github.ariesmodel.core.CoreTestGens.pageSizes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;

import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** Pack/unpack of {@link PageTableEntry} and agreement of {@link PageTableEntries} with it. */
class PageTableEntryProperties {

  private static final int N = 10_000;

  /** The reserved bit positions of the documented layout: 63..52 and 11..8. */
  private static final Gen<Integer> RESERVED_BITS =
      integers().between(52, 63).mix(integers().between(8, 11), 30);

  static Gen<PageTableEntry> entries() {
    Gen<Boolean> flags = booleans().all();
    return flags.zip(flags, flags, pageSizes(), bits(PageTableEntry.FRAME_BITS),
        (present, writable, leaf, size, frame) -> {
          long framesPerPage = size.bytes() >>> PageSize.SMALL_SHIFT;
          long aligned = leaf ? frame & -framesPerPage : frame;
          return new PageTableEntry(present, writable, leaf, size, aligned);
        });
  }

  @Test
  void packThenUnpackIsIdentity() {
    qt().withExamples(N).forAll(entries())
        .check(e -> PageTableEntry.unpack(e.pack()).equals(e));
  }

  @Test
  void packedEntriesLeaveReservedBitsClearAndHelpersAgreeWithTheRecord() {
    qt().withExamples(N).forAll(entries())
        .checkAssert(e -> {
          long p = e.pack();
          assertThat(p & PageTableEntries.RESERVED_MASK).isZero();
          assertThat(PageTableEntries.present(p)).isEqualTo(e.present());
          assertThat(PageTableEntries.writable(p)).isEqualTo(e.writable());
          assertThat(PageTableEntries.leaf(p)).isEqualTo(e.leaf());
          assertThat(PageTableEntries.pageSizeCode(p)).isEqualTo(e.pageSize().code());
          assertThat(PageTableEntries.pageBytes(p)).isEqualTo(e.pageSize().bytes());
          assertThat(PageTableEntries.frameNumber(p)).isEqualTo(e.frameNumber());
          assertThat(PageTableEntries.physicalBase(p)).isEqualTo(e.physicalBase());
          assertThat(PageTableEntries.pack(e.present(), e.writable(), e.leaf(), e.pageSize().code(), e.frameNumber()))
              .isEqualTo(p);
          // The documented layout, computed independently.
          long expected = (e.present() ? 1 : 0) | (e.writable() ? 2 : 0) | (e.leaf() ? 4 : 0)
              | ((long) e.pageSize().code() << 3) | (e.frameNumber() << 12);
          assertThat(p).isEqualTo(expected);
        });
  }

  @Test
  void anyReservedBitIsRejected() {
    qt().withExamples(N).forAll(entries(), RESERVED_BITS)
        .checkAssert((e, bit) -> {
          long bad = e.pack() | (1L << bit);
          assertThatThrownBy(() -> PageTableEntry.unpack(bad))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("reserved bits (63..52, 11..8)")
              .hasMessageContaining(Long.toHexString(bad));
        });
  }

  @Test
  void sizeCodesAboveSixteenAreRejected() {
    qt().withExamples(1_000).forAll(entries(), integers().between(17, 31))
        .checkAssert((e, code) -> {
          long bad = (e.pack() & ~(0x1FL << 3)) | ((long) code << 3);
          assertThatThrownBy(() -> PageTableEntry.unpack(bad))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("but was " + code);
        });
  }

  @Test
  void leafFramesMisalignedToTheirPageAreRejected() {
    Gen<PageSize> huge = arbitrary().pick(PageSize.values()).assuming(PageSize::isHuge);
    qt().withExamples(1_000).forAll(huge, bits(PageTableEntry.FRAME_BITS))
        .checkAssert((size, frame) -> {
          long framesPerPage = size.bytes() >>> PageSize.SMALL_SHIFT;
          long misaligned = (frame & -framesPerPage) | 1;
          assertThatThrownBy(() -> new PageTableEntry(true, true, true, size, misaligned))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("frameNumber must be aligned to the " + size)
              .hasMessageContaining("but was " + misaligned);
        });
  }

  @Test
  void factoriesBuildPresentEntries() {
    PageTableEntry page = PageTableEntry.page(0x4000_0000L, PageSize.SIZE_1G, false);
    assertThat(page.present()).isTrue();
    assertThat(page.leaf()).isTrue();
    assertThat(page.writable()).isFalse();
    assertThat(page.physicalBase()).isEqualTo(0x4000_0000L);
    PageTableEntry table = PageTableEntry.table(0x5000);
    assertThat(table.leaf()).isFalse();
    assertThat(table.frameNumber()).isEqualTo(5);
    assertThatThrownBy(() -> PageTableEntry.page(0x1000, PageSize.SIZE_2M, true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0x1000");
    assertThatThrownBy(() -> PageTableEntry.table(0x1001)).hasMessageContaining("0x1001");
    assertThat(PageTableEntry.unpack(PageTableEntry.NOT_PRESENT).present()).isFalse();
  }
}
