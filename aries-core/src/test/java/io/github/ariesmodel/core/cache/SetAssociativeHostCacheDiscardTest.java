package io.github.ariesmodel.core.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.HostCacheStatistic;
import io.github.ariesmodel.core.spi.NicWritePolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@link SetAssociativeHostCache#discard} leaves behind: a set it empties is dropped (a closed job's sets stayed
 * materialized, a few hundred KB a node), the sets it does not empty keep their lines, and a cache emptied so behaves
 * as a new one.
 */
class SetAssociativeHostCacheDiscardTest {

  private static final int LINE = 64;

  /** Lines 0..n-1 of set 0 of an xc40 cache, then line 0 of each of the next sets: every way and set path used. */
  private static SetAssociativeHostCache filled(int sets) {
    SetAssociativeHostCache c = new SetAssociativeHostCache(new SparsePhysicalMemory(1L << 36), HostCacheConfig.xc40());
    byte[] b = {1};
    for (int i = 0; i < sets; i++) {
      c.cpuStore((long) i * LINE, b, 0, 1);
    }
    return c;
  }

  @Test
  void aWholeRangeGivenBackLeavesNoSetBehindByEitherPath() {
    // the scan of the materialized sets (the range has more lines than the cache holds)
    SetAssociativeHostCache scanned = filled(1_000);
    assertThat(scanned.materializedSets()).isEqualTo(1_000);
    scanned.discard(0, 1L << 30);
    assertThat(scanned.residentLines()).isZero();
    assertThat(scanned.materializedSets()).as("sets left after the scan").isZero();
    assertThat(scanned.allocatedWays()).isZero();

    // line by line (fewer lines in the range than held): the first 300 sets emptied, the other 700 kept
    SetAssociativeHostCache byLine = filled(1_000);
    byLine.discard(0, 300L * LINE);
    assertThat(byLine.residentLines()).isEqualTo(700);
    assertThat(byLine.materializedSets()).as("sets left after the line-by-line path").isEqualTo(700);
    for (int i = 0; i < 1_000; i++) {
      assertThat(byLine.holds((long) i * LINE)).as("line %d", i).isEqualTo(i >= 300);
      assertThat(byLine.holdsDirty((long) i * LINE)).as("line %d dirty", i).isEqualTo(i >= 300);
    }
  }

  @Test
  void aSetStillHoldingALineStays() {
    SetAssociativeHostCache c = filled(4);
    long setStride = (long) c.config().sets() * LINE;
    c.cpuStore(setStride, new byte[] {2}, 0, 1); // a second line in set 0
    c.discard(0, LINE); // set 0 keeps the line at setStride; set 0's first line goes
    assertThat(c.materializedSets()).isEqualTo(4);
    assertThat(c.holds(setStride)).isTrue();
    assertThat(c.holds(0)).isFalse();
  }

  /**
   * A cache whose lines were all given back answers every later access with the latency and counts a new cache over
   * the same memory gives, and ends with the same sets: an emptied set that is dropped behaves as one that stayed.
   */
  @Test
  void aCacheEmptiedByDiscardBehavesAsANewOne() {
    HostCacheConfig small = HostCacheConfig.xc40().withGeometry(8L * 4 * LINE, LINE, 4).withLatencies(10, 100);
    int range = 4096;
    qt().withExamples(200)
        .forAll(lists().of(integers().between(0, 4 * range - 1)).ofSizeBetween(1, 60),
            lists().of(integers().between(0, 4 * range - 1)).ofSizeBetween(1, 60))
        .checkAssert((before, after) -> {
          for (NicWritePolicy policy : NicWritePolicy.values()) {
            SparsePhysicalMemory usedMemory = new SparsePhysicalMemory(2L * range);
            SetAssociativeHostCache used = new SetAssociativeHostCache(usedMemory, small.withNicWritePolicy(policy));
            apply(used, before, range);
            used.discard(0, range);
            assertThat(used.materializedSets()).isZero();
            SparsePhysicalMemory freshMemory = new SparsePhysicalMemory(2L * range);
            byte[] all = new byte[range];
            usedMemory.read(0, all, 0, range);
            freshMemory.write(0, all, 0, range);
            SetAssociativeHostCache fresh = new SetAssociativeHostCache(freshMemory, small.withNicWritePolicy(policy));
            long[] countsBefore = counts(used);
            List<Long> a = apply(used, after, range);
            List<Long> b = apply(fresh, after, range);
            assertThat(a).as("latencies under %s", policy).isEqualTo(b);
            long[] usedCounts = counts(used);
            long[] freshCounts = counts(fresh);
            for (int k = 0; k < usedCounts.length; k++) {
              assertThat(usedCounts[k] - countsBefore[k]).as("%s under %s", HostCacheStatistic.values()[k], policy)
                  .isEqualTo(freshCounts[k]);
            }
            assertThat(used.materializedSets()).isEqualTo(fresh.materializedSets());
            assertThat(used.residentLines()).isEqualTo(fresh.residentLines());
            byte[] x = new byte[range];
            byte[] y = new byte[range];
            used.nicView().read(0, x, 0, range);
            fresh.nicView().read(0, y, 0, range);
            assertThat(x).isEqualTo(y);
          }
        });
  }

  private static long[] counts(SetAssociativeHostCache c) {
    HostCacheStatistic[] all = HostCacheStatistic.values();
    long[] n = new long[all.length];
    for (int k = 0; k < all.length; k++) {
      n[k] = c.count(all[k]);
    }
    return n;
  }

  /** Each number: an 8-byte access at (n / 4) rounded to 8 within the range, of kind n % 4; returns the latencies. */
  private static List<Long> apply(SetAssociativeHostCache c, List<Integer> ops, int range) {
    List<Long> latencies = new java.util.ArrayList<>();
    byte[] word = new byte[8];
    for (int n : ops) {
      long address = (long) (n / 4) % range & ~7L;
      word[0] = (byte) n;
      latencies.add(switch (n % 4) {
        case 0 -> c.cpuLoad(address, word, 0, 8);
        case 1 -> c.cpuStore(address, word, 0, 8);
        case 2 -> c.nicWrite(address, word, 0, 8);
        default -> c.nicRead(address, word, 0, 8);
      });
    }
    return latencies;
  }
}
