package io.github.ariesmodel.testkit.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.iommu.spi.ReplacementPolicy;
import io.github.ariesmodel.iommu.spi.ReplacementPolicyFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The contract every PTE-cache {@link ReplacementPolicy} must keep, as an abstract JUnit 5 test: extend it, return
 * your factory from {@link #factory()}, and run it. The built-in policies of aries-iommu pass it.
 *
 * <pre>{@code
 * class MyPolicyContractTest extends ReplacementPolicyContract {
 *   protected ReplacementPolicyFactory factory() { return (sets, ways, seed) -> new MyPolicy(sets, ways, seed); }
 * }
 * }</pre>
 *
 * <p>Checked, on random call sequences (property tests; a failure prints the QuickTheories seed) for each geometry of
 * {@link #geometries()}: the victim is always one of the candidates; a single candidate is chosen; same seed and
 * calls give the same victims; two policies in use at once do not change each other's victims (no static state);
 * repeatedly filling the victim uses every way (no way starves). Policies that claim
 * more through {@link #neverEvictsMostRecentlyUsed()} or {@link #evictsLeastRecentlyUsed()} are checked for that too.
 */
public abstract class ReplacementPolicyContract {

  /** @return the factory of the policy under test */
  protected abstract ReplacementPolicyFactory factory();

  /**
   * Geometries to test, as {ways, sets}. The default covers 1 to 64 ways (all powers of two, so tree policies fit).
   *
   * @return the geometries
   */
  protected int[][] geometries() {
    return new int[][] {{1, 1}, {2, 8}, {4, 32}, {8, 4}, {16, 2}, {64, 1}};
  }

  /** @return true when the policy never picks the way used last while another candidate exists (LRU, tree PLRU) */
  protected boolean neverEvictsMostRecentlyUsed() {
    return false;
  }

  /** @return true when the policy is exact LRU among the candidates */
  protected boolean evictsLeastRecentlyUsed() {
    return false;
  }

  private static long allWays(int ways) {
    return ways == 64 ? -1L : (1L << ways) - 1;
  }

  /** Drives a policy with a random mix of calls and records every victim. */
  private List<Integer> drive(ReplacementPolicy p, int ways, int sets, long seed, int steps) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Integer> victims = new ArrayList<>();
    for (int i = 0; i < steps; i++) {
      step(p, rnd, ways, sets, victims);
    }
    return victims;
  }

  /** One random call on a policy (a victim is recorded and filled). */
  private static void step(ReplacementPolicy p, SplittableRandom rnd, int ways, int sets, List<Integer> victims) {
    int set = rnd.nextInt(sets);
    int way = rnd.nextInt(ways);
    switch (rnd.nextInt(4)) {
      case 0:
        p.onAccess(set, way);
        break;
      case 1:
        p.onFill(set, way);
        break;
      case 2:
        p.onInvalidate(set, way);
        break;
      default:
        long candidates = rnd.nextLong() & allWays(ways);
        if (candidates == 0) {
          candidates = 1L << way;
        }
        int v = p.victim(set, candidates);
        assertThat(v).as("victim of set %d among candidates 0b%s", set, Long.toBinaryString(candidates))
            .isBetween(0, ways - 1);
        assertThat(candidates & (1L << v)).as("victim %d must be a candidate (0b%s)", v,
            Long.toBinaryString(candidates)).isNotZero();
        victims.add(v);
        p.onFill(set, v);
    }
  }

  /** The victim is always one of the candidates, whatever came before. */
  @Test
  public void victimIsAlwaysACandidate() {
    for (int[] g : geometries()) {
      qt().withExamples(30).forAll(longs().all()).checkAssert(seed ->
          drive(factory().create(g[1], g[0], seed), g[0], g[1], seed, 400));
    }
  }

  /** With one candidate, that candidate is the victim. */
  @Test
  public void singleCandidateIsChosen() {
    for (int[] g : geometries()) {
      int ways = g[0];
      qt().withExamples(30).forAll(longs().all(), integers().between(0, ways - 1)).checkAssert((seed, w) -> {
        ReplacementPolicy p = factory().create(g[1], ways, seed);
        drive(p, ways, g[1], seed, 50);
        assertThat(p.victim(g[1] - 1, 1L << w)).isEqualTo(w);
      });
    }
  }

  /** Same factory, geometry, seed and calls: same victims. */
  @Test
  public void sameSeedAndCallsGiveSameVictims() {
    for (int[] g : geometries()) {
      qt().withExamples(20).forAll(longs().all()).checkAssert(seed -> {
        List<Integer> a = drive(factory().create(g[1], g[0], seed), g[0], g[1], seed, 300);
        List<Integer> b = drive(factory().create(g[1], g[0], seed), g[0], g[1], seed, 300);
        assertThat(a).isEqualTo(b);
      });
    }
  }

  /**
   * Two policies in use at once (two nodes' IOMMUs) keep to themselves: one driven with calls of its own between
   * every call to the other picks the victims it picks alone. Fails for a policy with static mutable state, which the
   * SPI forbids (two nodes would change each other's choices, and on the threaded engine race).
   */
  @Test
  public void twoPoliciesInUseAtOnceShareNoState() {
    for (int[] g : geometries()) {
      qt().withExamples(20).forAll(longs().all(), longs().all()).checkAssert((seed, other) -> {
        List<Integer> alone = drive(factory().create(g[1], g[0], seed), g[0], g[1], seed, 300);
        ReplacementPolicy a = factory().create(g[1], g[0], seed);
        ReplacementPolicy b = factory().create(g[1], g[0], other);
        SplittableRandom ra = new SplittableRandom(seed);
        SplittableRandom rb = new SplittableRandom(other ^ 0x5DEECE66DL);
        List<Integer> together = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
          step(a, ra, g[0], g[1], together);
          step(b, rb, g[0], g[1], new ArrayList<>());
        }
        assertThat(together).as("victims of one policy while another was in use").isEqualTo(alone);
      });
    }
  }

  /** Filling the victim over and over (a streaming miss pattern) uses every way of the set. */
  @Test
  public void noWayStarves() {
    for (int[] g : geometries()) {
      int ways = g[0];
      qt().withExamples(10).forAll(longs().all()).checkAssert(seed -> {
        ReplacementPolicy p = factory().create(g[1], ways, seed);
        int set = (int) Math.floorMod(seed, (long) g[1]);
        for (int w = 0; w < ways; w++) {
          p.onFill(set, w);
        }
        long used = 0;
        for (int i = 0; i < 64 * ways; i++) {
          int v = p.victim(set, allWays(ways));
          used |= 1L << v;
          p.onFill(set, v);
        }
        assertThat(used).as("ways used in set %d", set).isEqualTo(allWays(ways));
      });
    }
  }

  /** For policies that claim it: the way used last is not the victim while another candidate exists. */
  @Test
  public void mostRecentlyUsedWayIsNotEvicted() {
    if (!neverEvictsMostRecentlyUsed()) {
      return;
    }
    for (int[] g : geometries()) {
      int ways = g[0];
      if (ways == 1) {
        continue;
      }
      qt().withExamples(30).forAll(longs().all(), integers().between(0, ways - 1)).checkAssert((seed, w) -> {
        ReplacementPolicy p = factory().create(g[1], ways, seed);
        drive(p, ways, g[1], seed, 100);
        p.onAccess(0, w);
        assertThat(p.victim(0, allWays(ways))).isNotEqualTo(w);
      });
    }
  }

  /** For policies that claim it: after touching every way in some order, the first touched is the victim. */
  @Test
  public void leastRecentlyUsedWayIsEvicted() {
    if (!evictsLeastRecentlyUsed()) {
      return;
    }
    for (int[] g : geometries()) {
      int ways = g[0];
      qt().withExamples(30).forAll(longs().all()).checkAssert(seed -> {
        ReplacementPolicy p = factory().create(g[1], ways, seed);
        drive(p, ways, g[1], seed, 100);
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] order = rnd.ints(0, ways).distinct().limit(ways).toArray();
        for (int w : order) {
          p.onAccess(0, w);
        }
        assertThat(p.victim(0, allWays(ways))).isEqualTo(order[0]);
      });
    }
  }
}
