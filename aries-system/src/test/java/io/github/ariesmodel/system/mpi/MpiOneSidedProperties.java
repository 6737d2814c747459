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
 * Random one-sided programs on random placements under each kind of synchronization (fence, by MPICH's basic and its
 * scalable algorithm; a lock per target, shared or exclusive; post/start/complete/wait; a lock-all epoch with
 * flushes): every window must end as a plain sequential reference says (puts of every
 * protocol's length into disjoint places, accumulates of sums into a shared place), and every get must read what the
 * target held.
 */
class MpiOneSidedProperties {

  private static final int[] SIZES = {1, 8, 100, 1000, 4000, 8192, 12_000};
  private static final int SLOT = 12_000;
  private static final int READ_ONLY = 16_384;
  private static final int SUMS = 8;

  /** One rank's operations of one epoch: a put size per target (0 for none), an accumulate count, a get. */
  private record Epoch(int[] putSize, long[][] add, int getFrom, int getOffset, int getSize) {}

  private static byte[] pattern(int who, int epoch, int size) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) (who * 31 + epoch * 7 + size + i * 11);
    }
    return b;
  }

  private static int windowBytes(int n, int epochs) {
    return READ_ONLY + epochs * n * SLOT + SUMS * 8;
  }

  private static int slot(int n, int epoch, int origin) {
    return READ_ONLY + (epoch * n + origin) * SLOT;
  }

  @Test
  void windowsEndAsASequentialReferenceSaysUnderEverySynchronization() {
    qt().withExamples(18).forAll(integers().between(2, 4), integers().between(0, 5), longs().all())
        .checkAssert((n, mode, seed) -> {
          SplittableRandom rnd = new SplittableRandom(seed);
          int epochs = 1 + rnd.nextInt(3);
          Epoch[][] plan = new Epoch[epochs][n];
          for (int e = 0; e < epochs; e++) {
            for (int o = 0; o < n; o++) {
              int[] put = new int[n];
              long[][] add = new long[n][];
              for (int t = 0; t < n; t++) {
                put[t] = rnd.nextInt(3) == 0 ? 0 : SIZES[rnd.nextInt(SIZES.length)];
                if (rnd.nextBoolean()) {
                  add[t] = new long[1 + rnd.nextInt(SUMS)];
                  for (int i = 0; i < add[t].length; i++) {
                    add[t][i] = rnd.nextInt(1000) - 500;
                  }
                }
              }
              int size = SIZES[rnd.nextInt(SIZES.length)];
              plan[e][o] = new Epoch(put, add, rnd.nextInt(n), rnd.nextInt(READ_ONLY - size + 1), size);
            }
          }
          int[] placement = new int[n];
          for (int r = 0; r < n; r++) {
            placement[r] = rnd.nextInt(3) * 20; // nodes 0, 20, 40: some ranks share a node
          }
          boolean exclusive = rnd.nextBoolean();
          byte[][] windows = new byte[n][];
          byte[][][] got = new byte[epochs][n][];
          // mode 4: the fences of mode 3 by MPICH's scalable algorithm (flush every target, then a barrier)
          MpiConfig config = mode == 4 ? MpiConfig.builder().rmaScalableFenceRanks(1).build() : MpiConfig.defaults();
          MpiJob job = MpiJob.builder(MpiTesting.smallSystem(seed)).placement(placement).config(config).build();
          job.run(mpi -> {
            int me = mpi.rank();
            byte[] mem = new byte[windowBytes(n, epochs)];
            System.arraycopy(pattern(me, 99, READ_ONLY), 0, mem, 0, READ_ONLY);
            windows[me] = mem;
            Window w = mpi.winCreate(mem, 1, mpi.world());
            int[] everyone = new int[n];
            Arrays.setAll(everyone, i -> i);
            if (mode == 0 || mode == 3 || mode == 4) {
              mpi.winFence(mode == 0 ? Mpi.MODE_NOPRECEDE : 0, w); // modes 3 and 4: the first fence a full one
            }
            for (int e = 0; e < epochs; e++) {
              Epoch p = plan[e][me];
              if (mode == 2) {
                mpi.winPost(everyone, 0, w);
                mpi.winStart(everyone, 0, w);
              } else if (mode == 5) {
                mpi.winLockAll(0, w);
              }
              got[e][me] = new byte[p.getSize()];
              for (int t = 0; t < n; t++) {
                if (mode == 1) {
                  mpi.winLock(exclusive, t, 0, w);
                }
                if (p.putSize()[t] > 0) {
                  mpi.put(pattern(me, e, p.putSize()[t]), 0, p.putSize()[t], t, slot(n, e, me), w);
                }
                if (p.add()[t] != null) {
                  mpi.accumulate(p.add()[t], t, READ_ONLY + (long) epochs * n * SLOT, ReduceOp.SUM, w);
                }
                if (t == p.getFrom()) {
                  mpi.get(got[e][me], 0, p.getSize(), t, p.getOffset(), w);
                }
                if (mode == 1) {
                  mpi.winUnlock(t, w);
                } else if (mode == 5 && t == n / 2) {
                  if (e % 2 == 0) {
                    mpi.winFlushAll(w);
                  } else {
                    mpi.winFlushLocalAll(w);
                  }
                }
              }
              if (mode == 0 || mode == 3 || mode == 4) {
                mpi.winFence(e == epochs - 1 ? Mpi.MODE_NOSUCCEED : 0, w);
              } else if (mode == 2) {
                mpi.winComplete(w);
                mpi.winWait(w);
              } else if (mode == 5) {
                mpi.winUnlockAll(w);
                mpi.barrier(mpi.world());
              } else {
                mpi.barrier(mpi.world());
              }
            }
            mpi.winFree(w);
          });
          for (int t = 0; t < n; t++) {
            byte[] expect = new byte[windowBytes(n, epochs)];
            System.arraycopy(pattern(t, 99, READ_ONLY), 0, expect, 0, READ_ONLY);
            long[] sums = new long[SUMS];
            for (int e = 0; e < epochs; e++) {
              for (int o = 0; o < n; o++) {
                Epoch p = plan[e][o];
                int size = p.putSize()[t];
                System.arraycopy(pattern(o, e, size), 0, expect, slot(n, e, o), size);
                if (p.add()[t] != null) {
                  for (int i = 0; i < p.add()[t].length; i++) {
                    sums[i] += p.add()[t][i];
                  }
                }
              }
            }
            System.arraycopy(ElementType.pack(sums), 0, expect, expect.length - SUMS * 8, SUMS * 8);
            assertThat(windows[t]).as("window of rank %s, mode %s", t, mode).isEqualTo(expect);
          }
          for (int e = 0; e < epochs; e++) {
            for (int o = 0; o < n; o++) {
              Epoch p = plan[e][o];
              assertThat(got[e][o]).isEqualTo(Arrays.copyOfRange(pattern(p.getFrom(), 99, READ_ONLY),
                  p.getOffset(), p.getOffset() + p.getSize()));
            }
          }
        });
  }

  /** The same program and seed give the same simulated times, for the determinism every result rests on. */
  @Test
  void aProgramRunTwiceTakesTheSameTimes() {
    qt().withExamples(4).forAll(integers().between(2, 5), longs().all()).checkAssert((n, seed) -> {
      assertThat(times(n, seed)).isEqualTo(times(n, seed));
    });
  }

  private static List<Long> times(int n, long seed) {
    List<Long> out = new ArrayList<>();
    long[] at = new long[n];
    MpiJob job = MpiJob.builder(MpiTesting.smallSystem(seed)).placement(new int[n]).build();
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] sizes = new int[n];
    Arrays.setAll(sizes, i -> SIZES[rnd.nextInt(SIZES.length)]);
    job.run(mpi -> {
      Window w = mpi.winCreate(new byte[SLOT * n], 1, mpi.world());
      mpi.winLock(true, 0, 0, w);
      mpi.put(new byte[sizes[mpi.rank()]], 0, sizes[mpi.rank()], 0, (long) SLOT * mpi.rank(), w);
      mpi.winUnlock(0, w);
      mpi.winFence(0, w);
      mpi.get(new byte[sizes[mpi.rank()]], 0, sizes[mpi.rank()], (mpi.rank() + 1) % n, 0, w);
      mpi.winFence(0, w);
      at[mpi.rank()] = mpi.now();
      mpi.winFree(w);
    });
    for (long t : at) {
      out.add(t);
    }
    return out;
  }
}
