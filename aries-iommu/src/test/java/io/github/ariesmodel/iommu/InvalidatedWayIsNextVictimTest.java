package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.iommu.spi.ReplacementPolicy;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * LRU and tree pseudo-LRU make a way freed by {@code onInvalidate} the next victim among any candidates that hold it
 * (TreePseudoLruPolicy points its tree's path at the way, LruPolicy forgets the way's last use), in its set only.
 *
 * <p>The PTE cache never shows this: it refills a freed way before asking for a victim in that set, and the fill's
 * use rewrites the same state (the ReplacementPolicy contract). So no cache-level test sees an {@code onInvalidate}
 * that does nothing; these tests drive the policies directly.
 */
class InvalidatedWayIsNextVictimTest {

  /** {sets, ways}: PLRU needs a power of two; 64 ways use every bit of a set's tree word. */
  private static final int[][] GEOMETRIES = {{1, 2}, {4, 4}, {2, 8}, {3, 16}, {2, 64}};

  private static void freedWayIsTheNextVictim(BuiltInPolicy kind) {
    for (int[] g : GEOMETRIES) {
      int sets = g[0];
      int ways = g[1];
      ReplacementPolicy p = kind.create(sets, ways, 0);
      long all = ways == 64 ? -1L : (1L << ways) - 1;
      SplittableRandom rnd = new SplittableRandom(ways * 31L + sets);
      for (int s = 0; s < sets; s++) {
        for (int w = 0; w < ways; w++) {
          p.onFill(s, w);
        }
        for (int i = 0; i < 3 * ways; i++) {
          p.onAccess(s, rnd.nextInt(ways));
        }
      }
      int set = sets - 1;
      int[] others = new int[sets];
      for (int s = 0; s < sets; s++) {
        others[s] = p.victim(s, all);
      }
      for (int w = 0; w < ways; w++) {
        p.onInvalidate(set, w);
        String what = kind + " sets " + sets + " ways " + ways + ": way " + w + " freed";
        assertThat(p.victim(set, all)).as(what).isEqualTo(w);
        // any candidate set that holds the freed way picks it
        long some = (rnd.nextLong() & all) | (1L << w);
        assertThat(p.victim(set, some)).as(what + ", candidates 0b%s", Long.toBinaryString(some)).isEqualTo(w);
        for (int s = 0; s < set; s++) {
          assertThat(p.victim(s, all)).as(what + ": set %d is untouched", s).isEqualTo(others[s]);
        }
        p.onFill(set, w); // the refill is a use: the way is no longer the victim
        assertThat(p.victim(set, all)).as(what + " and refilled").isNotEqualTo(w);
      }
    }
  }

  @Test
  void treePseudoLruMakesAFreedWayTheNextVictim() {
    freedWayIsTheNextVictim(BuiltInPolicy.PSEUDO_LRU);
  }

  @Test
  void lruMakesAFreedWayTheNextVictim() {
    freedWayIsTheNextVictim(BuiltInPolicy.LRU);
  }
}
