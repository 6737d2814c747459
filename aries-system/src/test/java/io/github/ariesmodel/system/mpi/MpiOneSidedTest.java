package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.system.process.ProcessRunner;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * MPI one-sided communication over MPICH CH3's software protocol: the data of puts, gets and accumulates ends where MPI
 * says after each kind of synchronization (fence, lock/unlock, flush, post/start/complete/wait), over the NIC and on one
 * node, at every protocol's length; an exclusive lock serializes; a target serves operations only in its own MPI calls;
 * misuse is one line.
 */
class MpiOneSidedTest {

  /** One length per protocol: short, eager, rendezvous (between nodes), buffered and single-copy (on one node). */
  private static final int[] SIZES = {8, 4000, 20_000, 300_001};
  private static final int SLOT = 310_000;

  private static byte[] pattern(int who, int size) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) (who * 29 + size * 7 + i * 13 + (i >> 9));
    }
    return b;
  }

  private static MpiJob job(int n) {
    return MpiTesting.job(MpiTesting.smallSystem(3), n, MpiConfig.defaults());
  }

  @Test
  void aFenceEpochsPutsGetsAndAccumulatesEndWhereMpiSays() {
    int n = 4; // two ranks a node: one neighbour on the node, the others over the NIC
    byte[][] windows = new byte[n][];
    byte[][][] got = new byte[n][SIZES.length][];
    job(n).run(mpi -> {
      int me = mpi.rank();
      byte[] mem = new byte[SIZES.length * SLOT + 64];
      Arrays.fill(mem, (byte) -1);
      windows[me] = mem;
      Window w = mpi.winCreate(mem, 1, mpi.world());
      mpi.winFence(0, w);
      int putTo = (me + 1) % n;
      int getFrom = (me + 3) % n;
      for (int k = 0; k < SIZES.length; k++) {
        mpi.put(pattern(me, SIZES[k]), 0, SIZES[k], putTo, (long) k * SLOT, w);
      }
      mpi.winFence(0, w); // the puts are in place everywhere, and reads of them may start
      for (int k = 0; k < SIZES.length; k++) {
        got[me][k] = new byte[SIZES[k]];
        mpi.get(got[me][k], 0, SIZES[k], getFrom, (long) k * SLOT, w);
      }
      // every rank adds its rank + 1 to the 8 longs at the end of every window but its own
      for (int t = 0; t < n; t++) {
        if (t != me) {
          long[] add = new long[8];
          Arrays.fill(add, me + 1);
          mpi.accumulate(add, t, SIZES.length * SLOT, ReduceOp.SUM, w);
        }
      }
      mpi.winFence(Mpi.MODE_NOSUCCEED, w);
      mpi.winFree(w);
    });
    for (int me = 0; me < n; me++) {
      int from = (me + n - 1) % n;
      for (int k = 0; k < SIZES.length; k++) {
        assertThat(Arrays.copyOfRange(windows[me], k * SLOT, k * SLOT + SIZES[k])).as("rank %s, %s bytes", me,
            SIZES[k]).isEqualTo(pattern(from, SIZES[k]));
        assertThat(windows[me][k * SLOT + SIZES[k]]).as("the byte after it").isEqualTo((byte) -1);
        // rank me got from me+3, whose window holds what me+2 put
        assertThat(got[me][k]).isEqualTo(pattern((me + 2) % n, SIZES[k]));
      }
      long[] sums = new long[8];
      ElementType.unpack(Arrays.copyOfRange(windows[me], SIZES.length * SLOT, SIZES.length * SLOT + 64), sums);
      long expected = -1 + (long) n * (n + 1) / 2 - (me + 1); // -1: the bytes' fill
      assertThat(sums).as("rank %s", me).containsOnly(expected);
    }
  }

  @Test
  void exclusiveLocksSerializeAccumulatesAndSharedLocksReadTheResult() {
    int n = 6;
    int rounds = 5;
    long[][] seen = new long[n][1];
    long[] window = new long[1];
    job(n).run(mpi -> {
      byte[] mem = new byte[8];
      Window w = mpi.winCreate(mem, 8, mpi.world());
      for (int r = 0; r < rounds; r++) {
        // a get, a compute and a put under one exclusive lock: an increment no other can interleave with
        byte[] cell = new byte[8];
        mpi.winLock(true, 0, 0, w);
        mpi.get(cell, 0, 8, 0, 0, w);
        mpi.winFlush(0, w);
        long[] v = new long[1];
        ElementType.unpack(cell, v);
        mpi.compute(1_000_000);
        v[0]++;
        mpi.put(ElementType.pack(v), 0, 8, 0, 0, w);
        mpi.winUnlock(0, w);
      }
      mpi.barrier(mpi.world());
      byte[] cell = new byte[8];
      mpi.winLock(false, 0, 0, w);
      mpi.get(cell, 0, 8, 0, 0, w);
      mpi.winUnlock(0, w);
      ElementType.unpack(cell, seen[mpi.rank()]);
      mpi.barrier(mpi.world());
      if (mpi.rank() == 0) {
        ElementType.unpack(mem, window);
      }
      mpi.winFree(w);
    });
    assertThat(window[0]).isEqualTo((long) n * rounds);
    for (long[] s : seen) {
      assertThat(s[0]).isEqualTo((long) n * rounds);
    }
  }

  /**
   * An unlock (and a flush) returns only once every operation of the epoch is done at the target: a rendezvous put's
   * data, fetched by the target after the short put that carries the unlock has landed, is in the window when the
   * origin's unlock returns. So is every put aimed at a rank when its own fence returns.
   */
  @Test
  void unlockFlushAndFenceReturnOnlyOnceTheDataIsInTheTargetsWindow() {
    for (int scalable : new int[] {1024, 1}) { // MPICH's basic fence, then its scalable one (flushes and a barrier)
      dataIsInPlaceOnReturn(MpiTesting.job(MpiTesting.smallSystem(3), 3,
          MpiConfig.builder().rmaScalableFenceRanks(scalable).build()));
    }
  }

  private static void dataIsInPlaceOnReturn(MpiJob job) {
    byte[][] windows = new byte[3][];
    List<String> bad = new ArrayList<>();
    job.run(mpi -> {
      int me = mpi.rank();
      windows[me] = new byte[2 * SLOT];
      Window w = mpi.winCreate(windows[me], 1, mpi.world());
      mpi.barrier(mpi.world());
      if (me > 0) {
        for (int round = 0; round < 2; round++) {
          mpi.winLock(true, 0, 0, w);
          mpi.put(pattern(me + round, 300_001), 0, 300_001, 0, 0, w);
          mpi.put(pattern(me + round, 8), 0, 8, 0, SLOT, w);
          if (round == 0) {
            mpi.winFlush(0, w);
          }
          byte[] seen = Arrays.copyOfRange(windows[0], 0, 300_001);
          if (round == 1) {
            mpi.winUnlock(0, w);
            seen = Arrays.copyOfRange(windows[0], 0, 300_001);
          }
          if (!Arrays.equals(seen, pattern(me + round, 300_001))) {
            bad.add("rank " + me + " round " + round);
          }
          if (round == 0) {
            mpi.winUnlock(0, w);
          }
        }
      }
      mpi.winFence(0, w);
      mpi.put(pattern(me, 20_000), 0, 20_000, (me + 1) % 3, SLOT, w);
      mpi.put(pattern(me, 8), 0, 8, (me + 1) % 3, SLOT + 20_000, w);
      mpi.winFence(0, w);
      if (!Arrays.equals(Arrays.copyOfRange(windows[me], SLOT, SLOT + 20_000), pattern((me + 2) % 3, 20_000))) {
        bad.add("fence at rank " + me);
      }
      mpi.winFree(w);
    });
    assertThat(bad).isEmpty();
  }

  @Test
  void aTargetThatComputesServesNoOneUntilItCallsMpi() {
    long computePs = 200_000_000; // 200 µs
    long[] unlockedAt = new long[1];
    long[] targetBackAt = new long[1];
    job(2).run(mpi -> {
      Window w = mpi.winCreate(new byte[64], 1, mpi.world());
      mpi.barrier(mpi.world());
      if (mpi.rank() == 1) {
        mpi.winLock(true, 0, 0, w);
        mpi.put(new byte[] {1, 2, 3}, 0, 3, 0, 0, w);
        mpi.winUnlock(0, w);
        unlockedAt[0] = mpi.now();
      } else {
        mpi.compute(computePs);
        targetBackAt[0] = mpi.now();
      }
      mpi.barrier(mpi.world());
      mpi.winFree(w);
    });
    assertThat(unlockedAt[0]).isGreaterThan(targetBackAt[0]);
  }

  @Test
  void postStartCompleteWaitMovesDataAndTestSaysWhenTheEpochIsOver() {
    int n = 3;
    byte[][] windows = new byte[n][];
    boolean[] testedEarly = new boolean[1];
    job(n).run(mpi -> {
      int me = mpi.rank();
      windows[me] = new byte[2 * 4000];
      Window w = mpi.winCreate(windows[me], 1, mpi.world());
      if (me == 0) {
        mpi.winPost(new int[] {1, 2}, 0, w);
        testedEarly[0] = mpi.winTest(w); // the origins compute 50 µs first
        mpi.winWait(w);
      } else {
        mpi.compute(50_000_000);
        mpi.winStart(new int[] {0}, 0, w);
        mpi.put(pattern(me, 4000), 0, 4000, 0, (me - 1) * 4000L, w);
        mpi.winComplete(w);
      }
      mpi.winFree(w);
    });
    assertThat(testedEarly[0]).isFalse();
    assertThat(Arrays.copyOfRange(windows[0], 0, 4000)).isEqualTo(pattern(1, 4000));
    assertThat(Arrays.copyOfRange(windows[0], 4000, 8000)).isEqualTo(pattern(2, 4000));
  }

  @Test
  void anOriginWithNothingToSendStillCompletesItsTargetsEpoch() {
    AtomicLong waitedUntil = new AtomicLong();
    job(2).run(mpi -> {
      Window w = mpi.winCreate(new byte[8], 1, mpi.world());
      if (mpi.rank() == 0) {
        mpi.winPost(new int[] {1}, 0, w);
        mpi.winWait(w);
        waitedUntil.set(mpi.now());
      } else {
        mpi.winStart(new int[] {0}, 0, w);
        mpi.winComplete(w); // no operation: a decrement packet alone
      }
      mpi.winFree(w);
    });
    assertThat(waitedUntil.get()).isPositive();
  }

  @Test
  void theFencesOperationsGoAsMessagesAndTheirCountsAreKept() {
    long[] packets = new long[2];
    long[] ops = new long[2];
    long[] answers = new long[2];
    fenceCounts(job(2), packets, ops, answers);
    assertThat(ops).containsOnly(4L);
    assertThat(packets).containsOnly(3L);
    assertThat(answers).as("the basic fence counts origins: no target answers").containsOnly(0L);
    // MPICH's scalable fence: the last put to each target carries a flush, which the target answers
    fenceCounts(MpiTesting.job(MpiTesting.smallSystem(3), 2, MpiConfig.builder().rmaScalableFenceRanks(2).build()),
        packets, ops, answers);
    assertThat(packets).containsOnly(3L);
    assertThat(answers).containsOnly(1L);
  }

  private static void fenceCounts(MpiJob job, long[] packets, long[] ops, long[] answers) {
    job.run(mpi -> {
      Window w = mpi.winCreate(new byte[64], 1, mpi.world());
      mpi.winFence(0, w);
      for (int i = 0; i < 3; i++) {
        mpi.put(new byte[8], 0, 8, 1 - mpi.rank(), 8L * i, w);
      }
      mpi.put(new byte[8], 0, 8, mpi.rank(), 40, w); // its own window: a copy, no packet
      mpi.winFence(0, w);
      ops[mpi.rank()] = ((Rank) mpi).oneSided.operations();
      packets[mpi.rank()] = ((Rank) mpi).oneSided.packets();
      answers[mpi.rank()] = ((Rank) mpi).oneSided.answers();
      mpi.winFree(w);
    });
  }

  @Test
  void misuseIsOneLineNamingWhatWasWrong() {
    String[] refused = {
        "MPI_ERR_RMA_SYNC at rank 0: put on window #0 to rank 1 outside an access epoch to it (call winFence,"
            + " winLock or winStart first)",
        "MPI_ERR_RMA_RANGE at rank 0: a put of 16 bytes at displacement 7 (unit 8) lies outside rank 1's window of"
            + " 64 bytes",
        "MPI_ERR_RMA_SYNC at rank 0: winUnlock on window #0 of rank 1, which this rank has not locked",
        "assertion must be an OR of Mpi.MODE_* bits (31744) but was 3",
        "target must be in [0, 1] but was 2",
        "MPI_ERR_RMA_SYNC at rank 0: winLock on window #0 of rank 1, which this rank has locked already",
        "displacementUnit must be >= 1 but was 0",
        "MPI_ERR_RMA_SYNC at rank 0: winLock on window #0 inside a lock-all epoch (winUnlockAll ends it)",
        "MPI_ERR_RMA_SYNC at rank 0: winUnlockAll on window #0 without a lock-all epoch (winLockAll)",
        "MPI_ERR_RMA_SYNC at rank 0: winFence on window #0 inside a lock or start/post epoch",
        "MPI_ERR_RMA_SYNC at rank 0: winFree on window #0 with operations to rank 1 no synchronization has completed"
            + " (a fence ends them)"};
    for (int k = 0; k < refused.length; k++) {
      int which = k;
      assertThatThrownBy(() -> job(2).run(mpi -> {
        Window w = mpi.winCreate(new byte[64], 8, mpi.world());
        if (which == 10) {
          mpi.winFence(0, w); // (collective: both ranks)
        }
        if (mpi.rank() == 0) {
          switch (which) {
            case 0 -> mpi.put(new byte[8], 0, 8, 1, 0, w);
            case 1 -> {
              mpi.winLock(false, 1, 0, w);
              mpi.put(new byte[16], 0, 16, 1, 7, w);
            }
            case 2 -> mpi.winUnlock(1, w);
            case 3 -> mpi.winFence(3, w);
            case 4 -> mpi.winLock(true, 2, 0, w);
            case 5 -> {
              mpi.winLock(false, 1, 0, w);
              mpi.winLock(false, 1, 0, w);
            }
            case 6 -> mpi.winCreate(new byte[8], 0, mpi.world());
            case 7 -> {
              mpi.winLockAll(0, w);
              mpi.winLock(true, 1, 0, w);
            }
            case 8 -> mpi.winUnlockAll(w);
            case 9 -> {
              mpi.winLockAll(Mpi.MODE_NOCHECK, w);
              mpi.winFence(0, w);
            }
            default -> {
              mpi.put(new byte[8], 0, 8, 1, 0, w);
              mpi.winFree(w);
            }
          }
        }
      })).as(refused[k]).isInstanceOf(ProcessRunner.ProcessFailedException.class).hasRootCauseMessage(refused[k]);
    }
  }

  /**
   * On the partitioned engine, ranks of different groups run at once on different threads: a program of fences, locks
   * and post/start/complete/wait over five groups ends every rank at the same picosecond, with the same windows, on 1,
   * 2 and 3 threads; on the single loop (whose fabric releases buffers otherwise, as MpiThreadsTest says) with the
   * same windows.
   */
  @Test
  void aProgramEndsAlikeOnTheSingleLoopAndOnEveryThreadCount() {
    List<String> first = null;
    List<String> loop = null;
    for (int threads : new int[] {1, 2, 3, 0}) {
      io.github.ariesmodel.system.AriesSystem.Builder b = io.github.ariesmodel.system.AriesSystem.builder()
          .system("canonical:p=2,a=4,h=2").seed(17);
      if (threads > 0) {
        b.threads(threads);
      }
      io.github.ariesmodel.system.AriesSystem sys = b.build();
      int n = 5;
      int[] placement = new int[n];
      for (int r = 0; r < n; r++) {
        placement[r] = r * 2 * sys.nodeCount() / 9; // groups 0, 2, 4, 6, 8 (ranks of different groups)
      }
      long[] end = new long[n];
      byte[][] windows = new byte[n][];
      MpiJob.builder(sys).placement(placement).build().run(mpi -> {
        int me = mpi.rank();
        windows[me] = new byte[4 * SLOT];
        Window w = mpi.winCreate(windows[me], 1, mpi.world());
        mpi.winFence(0, w);
        mpi.put(pattern(me, 20_000), 0, 20_000, (me + 1) % n, 0, w);
        mpi.accumulate(new long[] {me + 1}, 0, 3L * SLOT, ReduceOp.SUM, w);
        mpi.winFence(0, w);
        mpi.winLock(true, (me + 2) % n, 0, w);
        mpi.put(pattern(me, 4000), 0, 4000, (me + 2) % n, SLOT, w);
        mpi.winUnlock((me + 2) % n, w);
        int[] g = {(me + 1) % n, (me + n - 1) % n};
        mpi.winPost(g, 0, w);
        mpi.winStart(g, 0, w);
        mpi.put(pattern(me, 300_001), 0, 300_001, (me + 1) % n, 2L * SLOT - 300_001, w);
        mpi.winComplete(w);
        mpi.winWait(w);
        mpi.winFree(w);
        end[me] = mpi.now();
      });
      List<String> seen = new ArrayList<>();
      for (int r = 0; r < n; r++) {
        seen.add(end[r] + ":" + Arrays.hashCode(windows[r]));
      }
      if (threads == 0) {
        loop = seen;
      } else if (first == null) {
        first = seen;
      } else {
        assertThat(seen).as("%s threads", threads).isEqualTo(first);
      }
    }
    assertThat(loop).extracting(x -> x.split(":")[1]).isEqualTo(
        first.stream().map(x -> x.split(":")[1]).toList());
  }

  /** The example of docs/mpi.md's "One-sided communication", as written there: rank 0's long counts the ranks. */
  @Test
  void theDocsExampleDoesWhatItsCommentsSay() {
    long[] got = new long[8];
    byte[][] right = new byte[8][];
    job(8).run(mpi -> {
      byte[] mine = new byte[1 << 20];
      mine[0] = 1;
      right[mpi.rank()] = mine;
      Window w = mpi.winCreate(mine, 8, mpi.world());
      int next = (mpi.rank() + 1) % mpi.size();
      mpi.winFence(Mpi.MODE_NOPRECEDE, w);
      mpi.put(new byte[4000], 0, 4000, next, 0, w);
      mpi.accumulate(new long[] {1}, 0, 1000, ReduceOp.SUM, w);
      mpi.winFence(Mpi.MODE_NOSUCCEED, w);
      mpi.winLock(true, 0, 0, w);
      byte[] cell = new byte[8];
      mpi.get(cell, 0, 8, 0, 1000, w);
      mpi.winUnlock(0, w);
      long[] v = new long[1];
      ElementType.unpack(cell, v);
      got[mpi.rank()] = v[0];
      mpi.winFree(w);
    });
    assertThat(got).containsOnly(8L);
    for (byte[] m : right) {
      assertThat(m[0]).as("the put's zeros landed at byte 0").isZero();
    }
  }

  /**
   * More operations to one target than a pair's mailbox has slots: their sends wait for credits, making progress, and
   * the GET requests that reach the rank meanwhile (which it answers outside its own sends) are still answered;
   * every byte arrives.
   */
  @Test
  void getsThatArriveWhileARankWaitsForCreditsAreAnswered() {
    int n = 3;
    int puts = 60;
    byte[][] windows = new byte[n][];
    byte[][] got = new byte[n][];
    MpiJob j = MpiTesting.job(MpiTesting.smallSystem(5), n, MpiConfig.defaults());
    j.run(mpi -> {
      int me = mpi.rank();
      windows[me] = new byte[puts * 8 + 4096];
      Arrays.fill(windows[me], (byte) (me + 1));
      Window w = mpi.winCreate(windows[me], 1, mpi.world());
      mpi.winFence(0, w);
      if (me == 0) {
        for (int k = 0; k < puts; k++) {
          mpi.put(pattern(k, 8), 0, 8, 1, 8L * k, w);
        }
      } else {
        got[me] = new byte[4096];
        for (int k = 0; k < 4; k++) {
          mpi.get(got[me], 1024 * k, 1024, 0, puts * 8L + 1024 * k, w);
        }
      }
      mpi.winFence(0, w);
      mpi.winFree(w);
    });
    for (int k = 0; k < puts; k++) {
      assertThat(Arrays.copyOfRange(windows[1], 8 * k, 8 * k + 8)).isEqualTo(pattern(k, 8));
    }
    byte[] ones = new byte[4096];
    Arrays.fill(ones, (byte) 1);
    assertThat(got[1]).isEqualTo(ones);
    assertThat(got[2]).isEqualTo(ones);
  }
}
