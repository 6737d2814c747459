package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * MPICH's SMP-aware collectives deliver what the flat ones do: random placements (any number of ranks a node, nodes
 * in any order), random roots, sizes and operations, and a split communicator, run once with
 * {@link MpiConfig#smpCollectives()} and once without; every rank's every result must be the same, and equal to the
 * value computed here.
 */
class MpiSmpCollectivesProperties {

  private static final ReduceOp[] OPS = {ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.BXOR, ReduceOp.BOR};

  @Test
  void smpAwareAndFlatCollectivesGiveTheSameResults() {
    qt().withExamples(15).forAll(integers().between(2, 11), longs().all()).checkAssert((n, seed) -> {
      SplittableRandom rnd = new SplittableRandom(seed);
      int nodes = 1 + rnd.nextInt(n);
      int[] placement = new int[n];
      for (int r = 0; r < n; r++) {
        placement[r] = 3 + 5 * rnd.nextInt(nodes); // nodes 3, 8, 13, ... in random order by rank
      }
      int count = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(2000) : 1 + rnd.nextInt(8);
      int bytes = 1 + rnd.nextInt(rnd.nextBoolean() ? 100 : 40_000);
      int root = rnd.nextInt(n);
      ReduceOp op = OPS[rnd.nextInt(OPS.length)];
      int colors = 1 + rnd.nextInt(3);
      List<List<Long>> smp = run(placement, true, count, bytes, root, op, colors);
      List<List<Long>> flat = run(placement, false, count, bytes, root, op, colors);
      assertThat(smp).as("placement %s, count %s, bytes %s, root %s, %s", Arrays.toString(placement), count, bytes,
          root, op).isEqualTo(flat);
      // and the values are right: rank 0's allreduce against a fold here
      long expected = 0;
      for (int q = 0; q < n; q++) {
        expected = q == 0 ? value(q, 0) : fold(op, expected, value(q, 0));
      }
      assertThat(smp.get(0).get(0)).isEqualTo(expected);
    });
  }

  private static long value(int rank, int i) {
    return (rank + 3L) * 1_000_003L ^ (i * 7919L) + rank;
  }

  private static long fold(ReduceOp op, long a, long b) {
    return switch (op) {
      case SUM -> a + b;
      case MAX -> Math.max(a, b);
      case MIN -> Math.min(a, b);
      case BXOR -> a ^ b;
      case BOR -> a | b;
      default -> throw new IllegalArgumentException(op.toString());
    };
  }

  /** Every rank's results in order: allreduce, reduce (at the root), bcast's hash, then the same on a split. */
  private static List<List<Long>> run(int[] placement, boolean smp, int count, int bytes, int root, ReduceOp op,
      int colors) {
    MpiJob job = MpiJob.builder(MpiTesting.smallSystem(7)).placement(placement)
        .config(MpiConfig.builder().smpCollectives(smp).build()).build();
    int n = placement.length;
    List<List<Long>> out = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      out.add(new ArrayList<>());
    }
    job.run(mpi -> {
      List<Long> mine = out.get(mpi.rank());
      collectives(mpi, mpi.world(), mine, count, bytes, root, op);
      Communicator part = mpi.split(mpi.world(), mpi.rank() % colors, n - mpi.rank());
      collectives(mpi, part, mine, count, bytes, root % part.size(), op);
    });
    return out;
  }

  private static void collectives(Mpi mpi, Communicator c, List<Long> mine, int count, int bytes, int root,
      ReduceOp op) {
    int r = c.rank();
    int w = mpi.rank();
    long[] in = new long[count];
    for (int i = 0; i < count; i++) {
      in[i] = value(w, i);
    }
    long[] all = new long[count];
    mpi.allreduce(in, all, op, c);
    mine.add(all[0]);
    mine.add((long) Arrays.hashCode(all));
    long[] red = r == root ? new long[count] : null;
    mpi.reduce(in, red, op, root, c);
    if (red != null) {
      mine.add((long) Arrays.hashCode(red));
      assertThat(red).isEqualTo(all);
    }
    byte[] b = new byte[bytes];
    if (r == root) {
      for (int i = 0; i < bytes; i++) {
        b[i] = (byte) (i * 13 + root);
      }
    }
    mpi.bcast(b, 0, bytes, root, c);
    mine.add((long) Arrays.hashCode(b));
    mpi.barrier(c);
  }
}
