package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * MPICH's variable-size and long-vector algorithms on random communicator sizes (folded and not), random block sizes
 * with empty ones, random roots and random cut-overs (so every form runs): allgatherv, reduce_scatter and a long
 * reduce and allreduce deliver the values computed here.
 */
class MpiCollectivesProperties {

  private static long value(int rank, int i) {
    return (rank + 1L) * 1_000_033L + i * 17L;
  }

  @Test
  void variableAndLongCollectivesDeliverTheReference() {
    qt().withExamples(12).forAll(integers().between(2, 13), longs().all()).checkAssert((n, seed) -> {
      SplittableRandom rnd = new SplittableRandom(seed);
      int[] counts = new int[n];
      for (int q = 0; q < n; q++) {
        counts[q] = rnd.nextInt(4) == 0 ? 0 : 1 + rnd.nextInt(rnd.nextBoolean() ? 40 : 3000);
      }
      int total = Arrays.stream(counts).sum();
      int[] displs = new int[n];
      for (int q = 1; q < n; q++) {
        displs[q] = displs[q - 1] + counts[q - 1];
      }
      int root = rnd.nextInt(n);
      int cut = rnd.nextInt(3);
      MpiConfig cfg = MpiConfig.builder()
          .allgatherLongBytes(cut == 0 ? Integer.MAX_VALUE : 0).allgatherShortBytes(cut == 1 ? Integer.MAX_VALUE : 0)
          .allgathervPipelineBytes(rnd.nextInt(2) == 0 ? 32_768 : 1 + rnd.nextInt(200))
          .reduceScatterLongBytes(rnd.nextBoolean() ? Integer.MAX_VALUE : 0)
          .smpCollectives(rnd.nextBoolean()).build();
      int[] placement = new int[n];
      for (int q = 0; q < n; q++) {
        placement[q] = 2 + 7 * rnd.nextInt(Math.max(1, n / 2));
      }
      MpiJob job = MpiJob.builder(MpiTesting.smallSystem(9)).placement(placement).config(cfg).build();
      ConcurrentHashMap<String, Boolean> failures = new ConcurrentHashMap<>();
      job.run(mpi -> {
        int r = mpi.rank();
        // allgatherv of bytes
        byte[] mine = new byte[counts[r]];
        for (int i = 0; i < mine.length; i++) {
          mine[i] = (byte) (r * 7 + i);
        }
        byte[] all = new byte[total];
        mpi.allgatherv(mine, all, counts, displs, mpi.world());
        for (int q = 0; q < n; q++) {
          for (int i = 0; i < counts[q]; i++) {
            if (all[displs[q] + i] != (byte) (q * 7 + i)) {
              failures.put("allgatherv at " + r + " block " + q, false);
              break;
            }
          }
        }
        // reduce_scatter of longs: rank q gets counts[q] sums
        long[] in = new long[total];
        for (int i = 0; i < total; i++) {
          in[i] = value(r, i);
        }
        long[] out = new long[counts[r]];
        mpi.reduceScatter(in, out, counts, ReduceOp.SUM, mpi.world());
        for (int i = 0; i < counts[r]; i++) {
          long e = 0;
          for (int q = 0; q < n; q++) {
            e += value(q, displs[r] + i);
          }
          if (out[i] != e) {
            failures.put("reduce_scatter at " + r, false);
            break;
          }
        }
        // a long reduce and allreduce (Rabenseifner when count >= pof2 and 8 x count > 2,048 bytes)
        int count = 300 + (int) (total % 700);
        long[] v = new long[count];
        for (int i = 0; i < count; i++) {
          v[i] = value(r, i);
        }
        long[] sum = new long[count];
        mpi.allreduce(v, sum, ReduceOp.SUM, mpi.world());
        long[] red = r == root ? new long[count] : null;
        mpi.reduce(v, red, ReduceOp.SUM, root, mpi.world());
        for (int i = 0; i < count; i++) {
          long e = 0;
          for (int q = 0; q < n; q++) {
            e += value(q, i);
          }
          if (sum[i] != e || red != null && red[i] != e) {
            failures.put("long allreduce or reduce at " + r, false);
            break;
          }
        }
      });
      assertThat(failures).as("n %s, counts %s, root %s, placement %s", n, Arrays.toString(counts), root,
          Arrays.toString(placement)).isEmpty();
    });
  }
}
