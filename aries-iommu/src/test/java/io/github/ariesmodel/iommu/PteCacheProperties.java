package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.iommu.internal.SetAssociativePteCache;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The PTE cache with the LRU policy agrees with a per-set LRU-list reference model on random traces. */
class PteCacheProperties {

  /** {ways, sets, ptesPerLine}: the Aries default and other geometries. */
  private static final int[][] GEOMETRIES = {{4, 32, 8}, {1, 8, 8}, {2, 4, 4}, {8, 16, 8}, {16, 1, 2}, {3, 8, 16}};

  /** A per-set list, most recently used first; the last element is the victim. */
  private static final class ReferenceLru {
    final int ways;
    final int sets;
    final int lineShift;
    final List<LinkedList<Long>> lists = new ArrayList<>();

    ReferenceLru(int ways, int sets, int ptesPerLine) {
      this.ways = ways;
      this.sets = sets;
      this.lineShift = Integer.numberOfTrailingZeros(ptesPerLine * 8);
      for (int i = 0; i < sets; i++) {
        lists.add(new LinkedList<>());
      }
    }

    /** @return -2 on a hit, -1 on a miss without eviction, else the evicted line address */
    long access(long line) {
      LinkedList<Long> l = lists.get((int) ((line >>> lineShift) % sets));
      if (l.remove((Long) line)) {
        l.addFirst(line);
        return -2;
      }
      l.addFirst(line);
      return l.size() > ways ? l.removeLast() : -1;
    }
  }

  @Test
  void lruCacheAgreesWithPerSetLruLists() {
    qt().withExamples(60)
        .forAll(integers().between(0, GEOMETRIES.length - 1), longs().all(), integers().between(2, 6))
        .checkAssert((g, seed, spread) -> {
          int ways = GEOMETRIES[g][0];
          int sets = GEOMETRIES[g][1];
          int ptes = GEOMETRIES[g][2];
          SetAssociativePteCache cache =
              new SetAssociativePteCache(ways, sets, ptes, BuiltInPolicy.LRU.create(sets, ways, 0));
          ReferenceLru ref = new ReferenceLru(ways, sets, ptes);
          SplittableRandom rnd = new SplittableRandom(seed);
          int lineBytes = ptes * 8;
          // A working set a few times the cache, so that hits and evictions both happen.
          int distinct = ways * sets * spread;
          long[] fill = new long[ptes];
          for (int step = 0; step < 2000; step++) {
            long line = 0x10000L + (long) rnd.nextInt(distinct) * lineBytes;
            long expected = ref.access(line);
            int l = cache.find(line);
            if (l >= 0) {
              assertThat(expected).as("step %d line %x: model hit", step, line).isEqualTo(-2);
              assertThat(cache.isValid(l)).isTrue();
              cache.touch(l);
            } else {
              assertThat(expected).as("step %d line %x: model miss", step, line).isNotEqualTo(-2);
              fill[0] = line;
              int a = cache.allocate(line, 0);
              assertThat(a).isNotNegative();
              if (expected == -1) {
                assertThat(cache.lastAllocationEvicted()).isFalse();
              } else {
                assertThat(cache.lastAllocationEvicted()).isTrue();
                assertThat(cache.lastEvictedTag()).as("victim at step %d", step).isEqualTo(expected);
              }
              cache.fill(a, fill);
              assertThat(cache.pte(a, 0)).isEqualTo(line);
            }
          }
        });
  }

  @Test
  void everyBuiltInPolicyKeepsTheCacheConsistent() {
    qt().withExamples(30)
        .forAll(integers().between(0, BuiltInPolicy.values().length - 1), longs().all())
        .checkAssert((p, seed) -> {
          int ways = 4;
          int sets = 8;
          SetAssociativePteCache cache =
              new SetAssociativePteCache(ways, sets, 8, BuiltInPolicy.values()[p].create(sets, ways, seed));
          SplittableRandom rnd = new SplittableRandom(seed);
          long[] fill = new long[8];
          // what the cache must hold: every line missed, less every line an allocation reports it evicted
          Set<Long> held = new HashSet<>();
          for (int step = 0; step < 1000; step++) {
            long line = (long) rnd.nextInt(ways * sets * 3) * 64;
            int l = cache.find(line);
            if (l < 0) {
              assertThat(held).as("step %d: a held line %x was not found", step, line).doesNotContain(line);
              int a = cache.allocate(line, 0);
              assertThat(cache.setOf(line)).isEqualTo(a / ways);
              if (cache.lastAllocationEvicted()) {
                assertThat(held.remove(cache.lastEvictedTag()))
                    .as("step %d: evicted %x, which was not held", step, cache.lastEvictedTag()).isTrue();
              }
              held.add(line);
              cache.fill(a, fill);
              assertHolds(cache, ways, held, step);
              assertThat(cache.find(line)).isEqualTo(a);
            } else {
              cache.touch(l);
            }
          }
        });
  }

  /**
   * Scans every way of every set: no line is held twice, each valid line sits in its own set and is found where it
   * is, and the valid lines are exactly {@code held}.
   */
  private static void assertHolds(SetAssociativePteCache cache, int ways, Set<Long> held, int step) {
    Set<Long> seen = new HashSet<>();
    for (int set = 0; set < cache.sets(); set++) {
      for (int w = 0; w < ways; w++) {
        int l = set * ways + w;
        assertThat(cache.isPending(l)).as("step %d: line %d is pending after its fill", step, l).isFalse();
        if (!cache.isValid(l)) {
          continue;
        }
        long tag = cache.tag(l);
        assertThat(seen.add(tag)).as("step %d: line %x is held twice (set %d, way %d)", step, tag, set, w).isTrue();
        assertThat(cache.setOf(tag)).as("step %d: line %x held in set %d", step, tag, set).isEqualTo(set);
        assertThat(cache.find(tag)).as("step %d: line %x held in set %d, way %d", step, tag, set, w).isEqualTo(l);
      }
    }
    assertThat(seen).as("step %d: the lines held", step).isEqualTo(held);
  }

  @Test
  void findGivesTheWayAScanOfTheSetGives() {
    // find has a written-out path for 4 ways and a loop for the rest: both must give the lowest way that holds the
    // line, pending or valid, and never a way whose line was invalidated (its tag stays behind).
    qt().withExamples(40)
        .forAll(integers().between(0, GEOMETRIES.length - 1), longs().all())
        .checkAssert((g, seed) -> {
          int ways = GEOMETRIES[g][0];
          int sets = GEOMETRIES[g][1];
          int ptes = GEOMETRIES[g][2];
          SetAssociativePteCache cache =
              new SetAssociativePteCache(ways, sets, ptes, BuiltInPolicy.LRU.create(sets, ways, 0));
          SplittableRandom rnd = new SplittableRandom(seed);
          int lineBytes = ptes * 8;
          int distinct = ways * sets * 3;
          long[] fill = new long[ptes];
          for (int step = 0; step < 600; step++) {
            long line = 0x10000L + (long) rnd.nextInt(distinct) * lineBytes;
            int op = rnd.nextInt(4);
            if (op < 2 && cache.find(line) < 0) {
              int a = cache.allocate(line, rnd.nextInt(3));
              if (a >= 0 && op == 0) {
                cache.fill(a, fill); // else it stays pending
              }
            } else if (op == 2) {
              cache.invalidateLine(line);
            } else {
              cache.invalidateOwner(rnd.nextInt(3));
            }
            for (int k = 0; k < 4; k++) {
              long probe = 0x10000L + (long) rnd.nextInt(distinct) * lineBytes;
              int base = cache.setOf(probe) * ways;
              int expected = -1;
              for (int w = 0; w < ways && expected < 0; w++) {
                int l = base + w;
                if (cache.tag(l) == probe && (cache.isValid(l) || cache.isPending(l))) {
                  expected = l;
                }
              }
              assertThat(cache.find(probe)).as("step %d, line %x", step, probe).isEqualTo(expected);
            }
          }
        });
  }
}
