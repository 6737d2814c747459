package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.sim.IdealFabric;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Random reduction trees (random parents, one to three processes a node, random children order) give every process
 * the reduction of all contributions, the same as a plain fold, and the same events at the same times when run
 * again.
 */
class CollectiveEngineProperties {

  private static final CeOperation[] OPS = {CeOperation.AND, CeOperation.OR, CeOperation.XOR, CeOperation.IADD,
      CeOperation.IMIN_LIDX, CeOperation.IMAX_GIDX, CeOperation.FPADD};

  /** What one run gave: each process's result and event time, in node and process order. */
  private record Outcome(List<CeResult> results, List<Long> times) {}

  private static Outcome run(int nodes, long seed, CeOperation op, long[][] values) {
    SplittableRandom rnd = new SplittableRandom(seed);
    Cluster c = new Cluster(nodes, NicConfig.defaults(),
        loop -> new IdealFabric(loop, nodes, 100_000 + rnd.nextInt(400_000), Double.POSITIVE_INFINITY),
        (m, l) -> new FlatTranslation(m, l, 0));
    int[] parent = new int[nodes];
    List<List<CeChild>> kids = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      parent[i] = i == 0 ? -1 : rnd.nextInt(i);
      List<CeChild> k = new ArrayList<>();
      for (int p = 0; p < values[i].length; p++) {
        k.add(CeChild.pe());
      }
      kids.add(k);
    }
    int[] indexAtParent = new int[nodes];
    for (int i = 1; i < nodes; i++) {
      List<CeChild> k = kids.get(parent[i]);
      int at = rnd.nextInt(k.size() + 1);
      k.add(at, CeChild.channel(i, 0));
    }
    for (int i = 1; i < nodes; i++) {
      indexAtParent[i] = kids.get(parent[i]).indexOf(CeChild.channel(i, 0));
    }
    MemoryDomainDescriptor[] buf = new MemoryDomainDescriptor[nodes];
    for (int i = 0; i < nodes; i++) {
      c.nics[i].createCollectiveChannel();
      c.nics[i].configureCollectiveChannel(0,
          CeChannelConfig.of(kids.get(i), i == 0 ? null : new CeParent(parent[i], 0, indexAtParent[i])));
      buf[i] = c.register(i, 4096);
    }
    for (int i = 0; i < nodes; i++) {
      List<CeChild> k = kids.get(i);
      int pe = 0;
      for (int child = 0; child < k.size(); child++) {
        if (k.get(child).kind() == CeChild.Kind.PE) {
          long v = values[i][pe];
          CePost p = CePost.of(i * 10L + pe, 0, child, op, op == CeOperation.FPADD ? Double.doubleToLongBits(v) : v,
              5, buf[i].mdh(), 32L * pe, Post.NO_CQ);
          c.nics[i].postCollective(op.indexed() ? p.withSecondOperand(i * 10L + pe) : p);
          pe++;
        }
      }
    }
    c.run();
    List<CeResult> results = new ArrayList<>();
    List<Long> times = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      List<CompletionEvent> ev = c.events(i);
      assertThat(ev).hasSize(values[i].length);
      for (int pe = 0; pe < values[i].length; pe++) {
        results.add(c.nics[i].collectiveResult(buf[i].mdh(), 32L * pe));
        times.add(ev.get(pe).timePs());
      }
    }
    return new Outcome(results, times);
  }

  /** The plain fold of every contribution, with the index of a min or max. */
  private static CeResult expected(CeOperation op, long[][] values) {
    long r = 0;
    long index = 0;
    double sum = 0;
    boolean first = true;
    for (int i = 0; i < values.length; i++) {
      for (int pe = 0; pe < values[i].length; pe++) {
        long v = values[i][pe];
        long idx = i * 10L + pe;
        if (first) {
          r = v;
          index = idx;
          sum = v;
          first = false;
          continue;
        }
        switch (op) {
          case AND -> r &= v;
          case OR -> r |= v;
          case XOR -> r ^= v;
          case IADD -> r += v;
          case FPADD -> sum += v;
          case IMIN_LIDX -> {
            if (v < r || v == r && idx < index) {
              r = v;
              index = idx;
            }
          }
          case IMAX_GIDX -> {
            if (v > r || v == r && idx > index) {
              r = v;
              index = idx;
            }
          }
          default -> throw new AssertionError(op);
        }
      }
    }
    if (op == CeOperation.FPADD) {
      return new CeResult(Status.OK, 0, 5, Double.doubleToLongBits(sum), 0);
    }
    return new CeResult(Status.OK, 0, 5, r, op.indexed() ? index : 0);
  }

  @Test
  void everyProcessGetsTheFoldOfAllContributionsAndARunRepeatsExactly() {
    qt().withExamples(60).forAll(integers().between(1, 24), longs().all(), integers().between(0, OPS.length - 1))
        .checkAssert((nodes, seed, opIndex) -> {
          CeOperation op = OPS[opIndex];
          SplittableRandom rnd = new SplittableRandom(seed ^ 0x5DEECE66DL);
          long[][] values = new long[nodes][];
          for (int i = 0; i < nodes; i++) {
            values[i] = new long[1 + rnd.nextInt(3)];
            for (int pe = 0; pe < values[i].length; pe++) {
              // small values make ties for min and max; integers make exact double sums
              values[i][pe] = op == CeOperation.FPADD || op.indexed() ? rnd.nextInt(-4, 5) : rnd.nextLong();
            }
          }
          Outcome a = run(nodes, seed, op, values);
          CeResult want = expected(op, values);
          assertThat(a.results()).allSatisfy(r -> assertThat(r).isEqualTo(want));
          assertThat(run(nodes, seed, op, values)).isEqualTo(a);
        });
  }
}
