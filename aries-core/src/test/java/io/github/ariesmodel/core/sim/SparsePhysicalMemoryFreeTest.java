package io.github.ariesmodel.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Giving memory back ({@link SparsePhysicalMemory#free}): first fit, merging, the skipped bytes, refusals. */
class SparsePhysicalMemoryFreeTest {

  private static final long P = SparsePhysicalMemory.PAGE_BYTES;
  private static final long FIRST = SparsePhysicalMemory.FIRST_ALLOCATABLE;

  @Test
  void whileNothingIsGivenBackAllocationsFollowOneAnother() {
    SparsePhysicalMemory m = new SparsePhysicalMemory(64 << 20);
    assertThat(m.allocate(100, 1)).isEqualTo(FIRST);
    assertThat(m.allocate(10, 4096)).isEqualTo(2 * P);
    assertThat(m.allocate(3, 8)).isEqualTo(2 * P + 16);
    assertThat(m.nextUnreserved()).isEqualTo(2 * P + 19);
    assertThat(m.allocatedBytes()).as("the skipped bytes count as reserved").isEqualTo(2 * P + 19 - FIRST);
    assertThat(m.freedBytes()).isZero();
  }

  @Test
  void aRangeGivenBackIsHandedOutAgainLowestFirstAndAligned() {
    SparsePhysicalMemory m = new SparsePhysicalMemory(64 << 20);
    long a = m.allocate(4 * P, P);
    long b = m.allocate(8 * P, P);
    long c = m.allocate(P, P);
    assertThat(m.free(b, 8 * P)).isTrue();
    assertThat(m.freedBytes()).isEqualTo(8 * P);
    assertThat(m.allocatedBytes()).isEqualTo(5 * P);
    assertThat(m.allocate(100, 1)).as("a small allocation takes the hole's first byte").isEqualTo(b);
    assertThat(m.allocate(2 * P, 4 * P)).as("aligned inside the hole").isEqualTo(b + 3 * P);
    assertThat(m.allocate(4 * P, P)).as("larger than what is left of the hole: above").isEqualTo(c + P);
    assertThat(m.allocate(P, P)).as("the lowest place in the hole for an aligned page").isEqualTo(b + P);
    assertThat(m.allocate(100, 1)).as("what the alignments left at the hole's start").isEqualTo(b + 100);
    assertThat(m.allocate(3 * P, P)).as("the hole's tail, above the aligned allocation").isEqualTo(b + 5 * P);
    assertThat(a).isEqualTo(FIRST);
  }

  @Test
  void neighboursMergeAndTheTopGoesBackToTheUnreservedMemory() {
    SparsePhysicalMemory m = new SparsePhysicalMemory(64 << 20);
    long a = m.allocate(P, P);
    long b = m.allocate(P, P);
    long c = m.allocate(P, P);
    long d = m.allocate(P, P);
    m.free(a, P);
    m.free(c, P);
    m.free(b, P);
    assertThat(m.freedBytes()).isEqualTo(3 * P);
    assertThat(m.allocate(3 * P, 1)).as("three neighbours given back hold one allocation of all three").isEqualTo(a);
    m.free(a, 3 * P);
    m.free(d, P);
    assertThat(m.nextUnreserved()).as("everything given back").isEqualTo(FIRST);
    assertThat(m.freedBytes()).isZero();
    assertThat(m.allocatedBytes()).isZero();
  }

  @Test
  void theBytesAnAlignmentSkippedGoWithTheAllocationBesideThem() {
    SparsePhysicalMemory m = new SparsePhysicalMemory(64 << 20);
    long small = m.allocate(100, 1);
    long huge = m.allocate(P, 1 << 21); // skips from FIRST + 100 to 2 MiB
    assertThat(huge).isEqualTo(1 << 21);
    m.free(huge, P);
    assertThat(m.nextUnreserved()).as("the huge allocation and the bytes skipped below it").isEqualTo(small + 100);
    m.free(small, 100);
    assertThat(m.nextUnreserved()).isEqualTo(FIRST);
    assertThat(m.allocatedBytes()).isZero();

    long x = m.allocate(100, 1);
    long y = m.allocate(P, 1 << 21);
    m.allocate(P, P); // keeps the top reserved
    m.free(x, 100);
    assertThat(m.freedBytes()).as("x and the bytes skipped above it").isEqualTo((1 << 21) - FIRST);
    m.free(y, P);
    assertThat(m.freedBytes()).as("y, the bytes skipped below it and x, one range").isEqualTo((1 << 21) + P - FIRST);
    assertThat(m.allocate((1 << 21) + P - FIRST, 1)).isEqualTo(FIRST);
  }

  @Test
  void aRangeSpanningSkippedBytesTakesThemAndLeavesNoneBehind() {
    SparsePhysicalMemory m = new SparsePhysicalMemory(64 << 20);
    long a = m.allocate(100, 1);
    long b = m.allocate(P, P); // skips [a + 100, 2P)
    m.allocate(P, P); // keeps the top reserved
    assertThat(m.free(a, b + P - a)).isTrue(); // a, the skipped bytes and b in one range
    assertThat(m.freedBytes()).isEqualTo(2 * P);
    long x = m.allocate(100, 1);
    long y = m.allocate(200, 1);
    m.writeLong(y, 7);
    m.free(x, 100);
    assertThat(m.readLong(y)).as("y, after x beside it was given back").isEqualTo(7);
    assertThat(m.allocatedBytes()).as("y and the page above").isEqualTo(200 + P);
    assertThat(m.allocate(200, 1)).as("not over y").isNotEqualTo(y).isEqualTo(y + 200);

    SparsePhysicalMemory n = new SparsePhysicalMemory(64 << 20);
    long c = n.allocate(100, 1);
    n.allocate(P, P); // skips [c + 100, 2P)
    n.free(c + 900, 100); // skipped bytes only: nobody's
    n.free(c, 100);
    assertThat(n.freedBytes()).as("c and all the skipped bytes, once each").isEqualTo(P);
    assertThat(n.allocate(P, 1)).isEqualTo(c);
    assertThat(n.freedBytes()).as("the hole, taken whole").isZero();
    assertThat(n.allocate(1, 1)).as("above the page that kept the top").isEqualTo(3 * P);
  }

  @Test
  void manyFreesBesideAMemoryOfManyWrittenPagesKeepEveryOtherPage() {
    SparsePhysicalMemory m = new SparsePhysicalMemory(1L << 30);
    long big = m.allocate(4096 * P, P);
    for (long p = 0; p < 4096; p++) {
      m.writeLong(big + p * P, p + 1);
    }
    List<Long> small = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      long at = m.allocate(2 * P, P);
      m.writeLong(at, -1);
      m.writeLong(at + P, -2);
      small.add(at);
    }
    for (int i = 0; i < 64; i += 2) {
      m.free(small.get(i), 2 * P);
    }
    assertThat(m.materializedPages()).isEqualTo(4096 + 64);
    for (long p = 0; p < 4096; p++) {
      assertThat(m.readLong(big + p * P)).as("page %s of the big allocation", p).isEqualTo(p + 1);
    }
    for (int i = 1; i < 64; i += 2) {
      assertThat(m.readLong(small.get(i))).isEqualTo(-1);
      assertThat(m.readLong(small.get(i) + P)).isEqualTo(-2);
    }
  }

  @Test
  void writtenPagesInsideTheRangeAreDroppedAndItsEdgesZeroed() {
    SparsePhysicalMemory m = new SparsePhysicalMemory(64 << 20);
    long a = m.allocate(3 * P, P);
    long b = m.allocate(4 * P + 100, 1);
    long c = m.allocate(P, 1);
    for (long x = a; x < c + P; x += 8) {
      m.writeLong(x, 0x0101010101010101L);
    }
    int pages = m.materializedPages();
    m.free(b, 4 * P + 100);
    assertThat(m.materializedPages()).as("the four whole pages of b dropped").isEqualTo(pages - 4);
    for (long x = a; x < c + P; x++) {
      byte[] one = new byte[1];
      m.read(x, one, 0, 1);
      assertThat(one[0]).as("byte at 0x%s", Long.toHexString(x)).isEqualTo((byte) (x >= b && x < b + 4 * P + 100 ? 0 : 1));
    }
  }

  @Test
  void aRangeNotWhollyReservedIsRefusedAndChangesNothing() {
    SparsePhysicalMemory m = new SparsePhysicalMemory(64 << 20);
    long a = m.allocate(2 * P, P);
    long b = m.allocate(2 * P, P);
    m.allocate(P, P);
    m.free(a, P);
    m.writeLong(b, 7);
    long reserved = m.allocatedBytes();
    long next = m.nextUnreserved();
    assertThatThrownBy(() -> m.free(a, P)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the range to free [0x1000, +4096) must be reserved but overlaps [0x1000, 0x2000), given back"
            + " already");
    assertThatThrownBy(() -> m.free(a + P - 8, 16)).as("straddling the range given back")
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("given back already");
    assertThatThrownBy(() -> m.free(0, P)).as("below the first allocatable byte")
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the range to free [0x0, +4096) must lie within the reserved memory [0x1000, 0x6000)");
    assertThatThrownBy(() -> m.free(next - 8, 16)).as("past the highest reservation")
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must lie within the reserved memory");
    assertThatThrownBy(() -> m.free(b, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bytes must be > 0 but was 0");
    assertThatThrownBy(() -> m.free(Long.MAX_VALUE, Long.MAX_VALUE)).isInstanceOf(IllegalArgumentException.class);
    assertThat(m.allocatedBytes()).isEqualTo(reserved);
    assertThat(m.nextUnreserved()).isEqualTo(next);
    assertThat(m.freedBytes()).isEqualTo(P);
    assertThat(m.readLong(b)).isEqualTo(7);
  }

  @Test
  void exhaustionAfterFreesNamesWhatIsFreeWhere() {
    SparsePhysicalMemory m = new SparsePhysicalMemory(16 * P);
    long a = m.allocate(4 * P, P);
    m.allocate(10 * P, P);
    m.free(a, 4 * P);
    assertThatThrownBy(() -> m.allocate(5 * P, P)).isInstanceOf(IllegalStateException.class)
        .hasMessage("physical memory exhausted: cannot allocate 20480 bytes aligned to 4096 (capacity 65536 bytes,"
            + " 40960 reserved, 16384 given back and free in 1 ranges, 4096 free above the highest reservation)");
  }

  /**
   * Random allocations and frees against a list of the live ranges: live ranges never overlap, each reads as zero
   * when handed out and keeps its own bytes, and the counters agree with the ranges.
   */
  @Test
  void randomAllocationsAndFreesKeepRangesDisjointAndContentsTheirOwn() {
    qt().withExamples(60).forAll(lists().of(integers().between(0, 1_000_000)).ofSizeBetween(1, 120))
        .checkAssert(ops -> {
          SparsePhysicalMemory m = new SparsePhysicalMemory(1 << 26);
          List<long[]> live = new ArrayList<>();
          int tag = 1;
          long top = FIRST;
          for (int op : ops) {
            if (op % 3 == 0 && !live.isEmpty()) {
              long[] r = live.remove((op / 3) % live.size());
              assertThat(m.free(r[0], r[1])).isTrue();
              continue;
            }
            long bytes = 1 + (op % 9000);
            long alignment = 1L << ((op / 9000) % 14);
            long at = m.allocate(bytes, alignment);
            top = Math.max(top, at + bytes);
            assertThat(at % alignment).isZero();
            for (long[] o : live) {
              assertThat(at + bytes <= o[0] || o[0] + o[1] <= at).as("overlap with a live range").isTrue();
            }
            byte[] got = new byte[(int) bytes];
            m.read(at, got, 0, got.length);
            assertThat(got).as("a new allocation reads as zero").containsOnly((byte) 0);
            byte[] mine = new byte[(int) bytes];
            java.util.Arrays.fill(mine, (byte) tag);
            m.write(at, mine, 0, mine.length);
            live.add(new long[] {at, bytes, tag});
            tag = tag % 250 + 1;
          }
          long liveBytes = 0;
          for (long[] r : live) {
            byte[] got = new byte[(int) r[1]];
            m.read(r[0], got, 0, got.length);
            assertThat(got).as("a live range keeps its bytes").containsOnly((byte) r[2]);
            liveBytes += r[1];
          }
          assertThat(m.allocatedBytes()).as("reserved: live bytes and the bytes skipped beside them")
              .isGreaterThanOrEqualTo(liveBytes)
              .isEqualTo(m.nextUnreserved() - FIRST - m.freedBytes());
          for (long[] r : live) {
            m.free(r[0], r[1]);
          }
          assertThat(m.nextUnreserved()).as("everything given back").isEqualTo(FIRST);
          assertThat(m.allocatedBytes()).isZero();
          // (a page only partly reserved when given back, at the top then, stays materialized, zeroed: the bytes above
          // the top are memory too, which a caller may write without reserving them)
          byte[] all = new byte[(int) (top - FIRST)];
          m.read(FIRST, all, 0, all.length);
          assertThat(all).as("every byte given back").containsOnly((byte) 0);
        });
  }
}
