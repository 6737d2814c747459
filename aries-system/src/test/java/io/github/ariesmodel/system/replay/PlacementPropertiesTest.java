package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.network.spi.Topology;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Linear, random and round-robin-groups placements on random dragonflies (one group or several) beside random sets of
 * nodes other jobs hold: every rank on a node of the system that no other job holds, at most {@code ranksPerNode} a
 * node, the fewest nodes that hold the ranks, the taken set left as it was, and the same nodes for the same seed.
 */
class PlacementPropertiesTest {

  @Test
  void everyRankGoesOnAFreeNodeOfTheSystemAtMostRanksPerNodeAndTheSameForTheSameSeed() {
    qt().withExamples(400).forAll(longs().all()).checkAssert(seed -> {
      SplittableRandom rnd = new SplittableRandom(seed);
      int p = 1 + rnd.nextInt(4);
      int a = 1 + rnd.nextInt(4);
      int h = rnd.nextInt(3);
      int g = h == 0 ? 1 : 1 + rnd.nextInt(a * h + 1);
      Topology t = Topologies.parseTopology("canonical:p=" + p + ",a=" + a + ",h=" + h + ",g=" + g);
      int n = t.nodeCount();
      BitSet taken = new BitSet();
      int takenCount = rnd.nextInt(n);
      for (int i = 0; i < takenCount; i++) {
        taken.set(rnd.nextInt(n));
      }
      int free = n - taken.cardinality();
      if (free == 0) {
        return;
      }
      int rpn = 1 + rnd.nextInt(3);
      int ranks = 1 + rnd.nextInt(free * rpn);
      for (Placement pl : new Placement[] {Placement.LINEAR, Placement.RANDOM, Placement.ROUND_ROBIN_GROUPS}) {
        BitSet before = (BitSet) taken.clone();
        int[] nodes = pl.nodes(t, ranks, rpn, seed, taken);
        assertThat(taken).isEqualTo(before);
        assertThat(nodes).hasSize(ranks);
        Map<Integer, Integer> per = new HashMap<>();
        for (int r = 0; r < ranks; r++) {
          assertThat(nodes[r]).as("%s %s", pl, t.describe()).isBetween(0, n - 1);
          assertThat(taken.get(nodes[r])).as("%s rank %s on a taken node", pl, r).isFalse();
          per.merge(nodes[r], 1, Integer::sum);
        }
        assertThat(per.values()).allMatch(c -> c <= rpn);
        assertThat(per.size()).isEqualTo((ranks + rpn - 1) / rpn);
        assertThat(pl.nodes(t, ranks, rpn, seed, taken)).isEqualTo(nodes);
      }
    });
  }
}
