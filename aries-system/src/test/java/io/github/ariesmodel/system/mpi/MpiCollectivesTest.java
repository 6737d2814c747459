package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every collective on real data against a plain-Java reference, for odd and even rank counts, under three
 * configurations that force each of MPICH's algorithms in turn.
 */
class MpiCollectivesTest {

  /** The algorithm family a configuration forces. */
  enum Family {
    /**
     * Binomial bcast and reduce, recursive doubling allreduce and allgather, Bruck alltoall, recursive halving
     * reduce_scatter.
     */
    SHORT,
    /** Scatter + recursive-doubling bcast (powers of two), Bruck allgather, the isend/irecv alltoall. */
    MEDIUM,
    /** Scatter+ring bcast, Rabenseifner reduce and allreduce, ring allgather, pairwise alltoall and reduce_scatter. */
    LONG
  }

  static MpiConfig config(Family f) {
    int max = Integer.MAX_VALUE;
    MpiConfig.Builder b = MpiConfig.builder();
    return switch (f) {
      case SHORT -> b.reduceShortBytes(max).allreduceShortBytes(max).bcastShortBytes(max).allgatherLongBytes(max)
          .allgatherShortBytes(max).alltoallShortBytes(max).alltoallMinProcs(1).reduceScatterLongBytes(max).build();
      case MEDIUM -> b.bcastShortBytes(0).bcastMinProcs(1).bcastLongBytes(max).allgatherLongBytes(0)
          .allgatherShortBytes(max).alltoallShortBytes(0)
          .alltoallMediumBytes(max).alltoallThrottle(3).build(); // alltoall(v) in batches of 3 isends and irecvs
      case LONG -> b.reduceShortBytes(0).allreduceShortBytes(0).bcastShortBytes(0).bcastMinProcs(1)
          .allgatherLongBytes(0).allgatherShortBytes(0).alltoallShortBytes(0).alltoallMediumBytes(0)
          .reduceScatterLongBytes(0).bcastLongBytes(0).alltoallThrottle(2) // alltoallv in batches of 2
          .allgathervPipelineBytes(16).build(); // the ring allgatherv's blocks in pieces of 16 bytes
    };
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (Family f : Family.values()) {
      for (int n : new int[] {1, 2, 3, 5, 7, 8}) {
        out.add(Arguments.of(f, n));
      }
    }
    return out.stream();
  }

  private static long value(int rank, int i) {
    return (rank + 1) * 1_000L + i * 7L - 3;
  }

  @ParameterizedTest(name = "{0} algorithms, {1} ranks")
  @MethodSource("cases")
  void everyCollectiveGivesTheReferenceResult(Family family, int n) {
    everyCollectiveGivesTheReferenceResult(MpiTesting.job(MpiTesting.smallSystem(11), n, config(family)), n);
  }

  static Stream<Arguments> placements() {
    List<Arguments> out = new ArrayList<>();
    int[][] placements = {
        {0, 0, 0}, // one node: the roots' communicator has one member
        {5, 2, 5, 2, 9}, // nodes interleaved: node order is not rank order, and one rank is alone
        {1, 1, 2, 3, 3, 3, 4}, // the root (rank 3) is its node's second member
        {4, 4, 4, 6, 6, 8, 4, 6}, // a power of two over three nodes of 4, 3 and 1 ranks
        {7, 3, 3, 3, 3, 7} // the root (rank 3) is its node's third member; rank 0 shares a node with rank 5 only
    };
    for (Family f : Family.values()) {
      for (int[] p : placements) {
        out.add(Arguments.of(f, Arrays.toString(p), p));
      }
    }
    return out.stream();
  }

  /**
   * The same reference as above on communicators with several ranks on some nodes, in irregular placements: barrier,
   * bcast, reduce and allreduce take MPICH's SMP-aware algorithms (every placement here is node-aware), the rest stay
   * flat.
   */
  @ParameterizedTest(name = "{0} algorithms, placement {1}")
  @MethodSource("placements")
  void smpAwareCollectivesGiveTheReferenceResult(Family family, String name, int[] placement) {
    MpiJob job = MpiJob.builder(MpiTesting.smallSystem(11)).placement(placement).config(config(family)).build();
    everyCollectiveGivesTheReferenceResult(job, placement.length);
  }

  private static void everyCollectiveGivesTheReferenceResult(MpiJob job, int n) {
    int count = 1100; // 8,800 bytes: whole vectors go by rendezvous, halves and quarters eagerly or short
    int blk = 300;
    int bcastBytes = 20_000;
    ConcurrentHashMap<String, Object> failures = new ConcurrentHashMap<>();
    job.run(mpi -> {
      var w = mpi.world();
      int r = mpi.rank();
      long[] mine = new long[count];
      double[] mineD = new double[count];
      for (int i = 0; i < count; i++) {
        mine[i] = value(r, i);
        mineD[i] = value(r, i);
      }
      long[] sum = new long[count];
      long[] max = new long[count];
      long[] xor = new long[count];
      for (int q = 0; q < n; q++) {
        for (int i = 0; i < count; i++) {
          sum[i] += value(q, i);
          max[i] = q == 0 ? value(q, i) : Math.max(max[i], value(q, i));
          xor[i] = q == 0 ? value(q, i) : xor[i] ^ value(q, i);
        }
      }
      // allreduce
      long[] got = new long[count];
      mpi.allreduce(mine, got, ReduceOp.SUM, w);
      check(failures, "allreduce sum at " + r, Arrays.equals(got, sum));
      mpi.allreduce(mine, got, ReduceOp.BXOR, w);
      check(failures, "allreduce bxor at " + r, Arrays.equals(got, xor));
      double[] gotD = new double[count];
      mpi.allreduce(mineD, gotD, ReduceOp.MAX, w);
      check(failures, "allreduce max double at " + r, Arrays.equals(gotD, Arrays.stream(max).asDoubleStream()
          .toArray()));
      long[] small = {r + 1L, -r};
      long[] smallGot = new long[2];
      mpi.allreduce(small, smallGot, ReduceOp.PROD, w);
      long fact = 1;
      for (int q = 1; q <= n; q++) {
        fact *= q;
      }
      check(failures, "allreduce prod at " + r, smallGot[0] == fact);
      // reduce, to a root in the middle
      int root = n / 2;
      long[] red = r == root ? new long[count] : null;
      mpi.reduce(mine, red, ReduceOp.MAX, root, w);
      if (r == root) {
        check(failures, "reduce max", Arrays.equals(red, max));
      }
      double[] redD = r == 0 ? new double[count] : null;
      mpi.reduce(mineD, redD, ReduceOp.SUM, 0, w);
      if (r == 0) {
        check(failures, "reduce sum double", Arrays.equals(redD, Arrays.stream(sum).asDoubleStream().toArray()));
      }
      // bcast
      byte[] bc = new byte[bcastBytes];
      if (r == root) {
        for (int i = 0; i < bc.length; i++) {
          bc[i] = (byte) (i * 31 + 5);
        }
      }
      mpi.bcast(bc, 0, bc.length, root, w);
      boolean bcOk = true;
      for (int i = 0; i < bc.length; i++) {
        bcOk &= bc[i] == (byte) (i * 31 + 5);
      }
      check(failures, "bcast at " + r, bcOk);
      // barrier
      mpi.barrier(w);
      // gather / scatter
      byte[] block = block(r, blk);
      byte[] all = r == root ? new byte[n * blk] : null;
      mpi.gather(block, all, root, w);
      if (r == root) {
        check(failures, "gather", Arrays.equals(all, allBlocks(n, blk)));
      }
      byte[] mineBack = new byte[blk];
      mpi.scatter(r == root ? allBlocks(n, blk) : null, mineBack, root, w);
      check(failures, "scatter at " + r, Arrays.equals(mineBack, block));
      // allgather
      byte[] ag = new byte[n * blk];
      mpi.allgather(block, ag, w);
      check(failures, "allgather at " + r, Arrays.equals(ag, allBlocks(n, blk)));
      // v-variants: rank q contributes q * 50 + 1 bytes
      int[] counts = new int[n];
      int[] displs = new int[n];
      int total = 0;
      for (int q = 0; q < n; q++) {
        counts[q] = q * 50 + 1;
        displs[q] = total;
        total += counts[q];
      }
      byte[] vAll = new byte[total];
      for (int q = 0; q < n; q++) {
        System.arraycopy(block(q, counts[q]), 0, vAll, displs[q], counts[q]);
      }
      byte[] gv = r == root ? new byte[total] : null;
      mpi.gatherv(block(r, counts[r]), gv, counts, displs, root, w);
      if (r == root) {
        check(failures, "gatherv", Arrays.equals(gv, vAll));
      }
      byte[] sv = new byte[counts[r]];
      mpi.scatterv(r == root ? vAll : null, counts, displs, sv, root, w);
      check(failures, "scatterv at " + r, Arrays.equals(sv, block(r, counts[r])));
      byte[] agv = new byte[total];
      mpi.allgatherv(block(r, counts[r]), agv, counts, displs, w);
      check(failures, "allgatherv at " + r, Arrays.equals(agv, vAll));
      // alltoall: block for destination d from source s is tagged by both
      byte[] a2a = new byte[n * blk];
      for (int d = 0; d < n; d++) {
        System.arraycopy(pairBlock(r, d, blk), 0, a2a, d * blk, blk);
      }
      byte[] a2aGot = new byte[n * blk];
      mpi.alltoall(a2a, a2aGot, w);
      boolean a2aOk = true;
      for (int s = 0; s < n; s++) {
        a2aOk &= Arrays.equals(Arrays.copyOfRange(a2aGot, s * blk, (s + 1) * blk), pairBlock(s, r, blk));
      }
      check(failures, "alltoall at " + r, a2aOk);
      // alltoallv: s sends (s + d) % 5 * 40 bytes to d
      int[] sc = new int[n];
      int[] sd = new int[n];
      int[] rc = new int[n];
      int[] rd = new int[n];
      int st = 0;
      int rt = 0;
      for (int q = 0; q < n; q++) {
        sc[q] = (r + q) % 5 * 40;
        sd[q] = st;
        st += sc[q];
        rc[q] = (q + r) % 5 * 40;
        rd[q] = rt;
        rt += rc[q];
      }
      byte[] vs = new byte[st];
      for (int q = 0; q < n; q++) {
        System.arraycopy(pairBlock(r, q, sc[q]), 0, vs, sd[q], sc[q]);
      }
      byte[] vr = new byte[rt];
      mpi.alltoallv(vs, sc, sd, vr, rc, rd, w);
      boolean vOk = true;
      for (int q = 0; q < n; q++) {
        vOk &= Arrays.equals(Arrays.copyOfRange(vr, rd[q], rd[q] + rc[q]), pairBlock(q, r, rc[q]));
      }
      check(failures, "alltoallv at " + r, vOk);
      // reduce_scatter: rank q gets counts2[q] elements
      int[] counts2 = new int[n];
      int tot2 = 0;
      for (int q = 0; q < n; q++) {
        counts2[q] = 20 + q * 3;
        tot2 += counts2[q];
      }
      long[] rsIn = new long[tot2];
      for (int i = 0; i < tot2; i++) {
        rsIn[i] = value(r, i);
      }
      long[] rsOut = new long[counts2[r]];
      mpi.reduceScatter(rsIn, rsOut, counts2, ReduceOp.SUM, w);
      int start = 0;
      for (int q = 0; q < r; q++) {
        start += counts2[q];
      }
      boolean rsOk = true;
      for (int i = 0; i < counts2[r]; i++) {
        long e = 0;
        for (int q = 0; q < n; q++) {
          e += value(q, start + i);
        }
        rsOk &= rsOut[i] == e;
      }
      check(failures, "reduce_scatter at " + r, rsOk);
      // scan
      long[] sc1 = {r + 1L, 2L * r};
      long[] scOut = new long[2];
      mpi.scan(sc1, scOut, ReduceOp.SUM, w);
      check(failures, "scan at " + r, scOut[0] == (long) (r + 1) * (r + 2) / 2 && scOut[1] == (long) r * (r + 1));
    });
    assertThat(failures).isEmpty();
    assertThat(job.messages()).as("point-to-point messages delivered").isGreaterThanOrEqualTo(n > 1 ? n : 0);
  }

  private static void check(ConcurrentHashMap<String, Object> failures, String what, boolean ok) {
    if (!ok) {
      failures.put(what, Boolean.FALSE);
    }
  }

  private static byte[] block(int rank, int len) {
    byte[] b = new byte[len];
    for (int i = 0; i < len; i++) {
      b[i] = (byte) (rank * 13 + i * 3 + 1);
    }
    return b;
  }

  private static byte[] pairBlock(int from, int to, int len) {
    byte[] b = new byte[len];
    for (int i = 0; i < len; i++) {
      b[i] = (byte) (from * 17 + to * 5 + i);
    }
    return b;
  }

  private static byte[] allBlocks(int n, int blk) {
    byte[] out = new byte[n * blk];
    for (int q = 0; q < n; q++) {
      System.arraycopy(block(q, blk), 0, out, q * blk, blk);
    }
    return out;
  }

  /**
   * A poll passes over the peer nodes whose mailbox events and messages taken do not yet match: after an alltoall
   * (every rank heard from every other node) there are none, so the pass does not grow with the nodes ever heard from.
   */
  /**
   * reduce_scatter with empty blocks, on sizes that fold (5, 6, 7) and one that does not (4), by recursive halving
   * (MPICH's choice below REDSCAT_COMMUTATIVE_LONG_MSG_SIZE, which skips empty halves) and pairwise: every rank gets
   * its block's sums.
   */
  @ParameterizedTest(name = "{0} ranks, long {1}")
  @org.junit.jupiter.params.provider.CsvSource({"4,false", "5,false", "6,false", "7,false", "5,true", "6,true"})
  void reduceScatterWithEmptyBlocksGivesEachRankItsSums(int n, boolean pairwise) {
    MpiConfig cfg = pairwise ? MpiConfig.builder().reduceScatterLongBytes(0).build() : MpiConfig.defaults();
    MpiJob job = MpiTesting.job(MpiTesting.smallSystem(13), n, cfg);
    int[] counts = new int[n];
    for (int q = 0; q < n; q++) {
      counts[q] = q % 3 == 1 ? 0 : 5 + q; // ranks 1, 4 get nothing
    }
    int total = Arrays.stream(counts).sum();
    ConcurrentHashMap<String, Object> failures = new ConcurrentHashMap<>();
    job.run(mpi -> {
      int r = mpi.rank();
      long[] in = new long[total];
      for (int i = 0; i < total; i++) {
        in[i] = value(r, i);
      }
      long[] out = new long[counts[r]];
      mpi.reduceScatter(in, out, counts, ReduceOp.SUM, mpi.world());
      int start = 0;
      for (int q = 0; q < r; q++) {
        start += counts[q];
      }
      for (int i = 0; i < counts[r]; i++) {
        long e = 0;
        for (int q = 0; q < n; q++) {
          e += value(q, start + i);
        }
        check(failures, "reduce_scatter at " + r + " element " + i, out[i] == e);
      }
    });
    assertThat(failures).isEmpty();
  }

  /** The messages a program sends on five ranks beyond those of a job that does nothing (finalize's barrier). */
  private static long messagesOf(MpiProgram program) {
    long[] messages = new long[2];
    for (int k = 0; k < 2; k++) {
      MpiJob job = MpiTesting.job(MpiTesting.smallSystem(5), 5, MpiConfig.defaults());
      job.run(k == 1 ? program : mpi -> { });
      messages[k] = job.messages();
    }
    return messages[1] - messages[0];
  }

  /** MPICH's alltoallv sends no message for an empty block: one rank sending to its neighbour sends one message. */
  @Test
  void alltoallvSendsNothingForAnEmptyBlock() {
    assertThat(messagesOf(mpi -> {
      int n = mpi.size();
      int r = mpi.rank();
      int[] sc = new int[n];
      int[] rc = new int[n];
      sc[(r + 1) % n] = 10;
      rc[(r + n - 1) % n] = 10;
      mpi.alltoallv(new byte[10], sc, new int[n], new byte[10], rc, new int[n], mpi.world());
    })).isEqualTo(5);
  }

  /**
   * MPICH's gatherv and scatterv send nothing for an empty block: with only rank 3's block non-empty, each sends one
   * message (rank 3's, to or from the root), and the data arrives.
   */
  @Test
  void gathervAndScattervSendNothingForAnEmptyBlock() {
    assertThat(messagesOf(mpi -> {
      int n = mpi.size();
      int r = mpi.rank();
      int[] counts = new int[n];
      counts[3] = 7;
      int[] displs = new int[n];
      byte[] mine = r == 3 ? block(3, 7) : new byte[0];
      byte[] all = r == 0 ? new byte[7] : null;
      mpi.gatherv(mine, all, counts, displs, 0, mpi.world());
      if (r == 0) {
        assertThat(all).isEqualTo(block(3, 7));
      }
      byte[] back = new byte[counts[r]];
      mpi.scatterv(r == 0 ? block(3, 7) : null, counts, displs, back, 0, mpi.world());
      assertThat(back).isEqualTo(r == 3 ? block(3, 7) : new byte[0]);
    })).isEqualTo(2);
  }


  /**
   * From 32 ranks on, MPICH's gatherv sends its blocks synchronously (MPIC_Ssend): each of the 31 non-root ranks'
   * 100-byte blocks goes as a short message marked synchronous, whose match the root acknowledges (MPICH's
   * eager-sync), and the data arrive; below the threshold no match is acknowledged.
   */
  @Test
  void gathervFrom32RanksSendsSynchronously() {
    for (boolean ssend : new boolean[] {true, false}) {
      MpiConfig cfg = ssend ? MpiConfig.defaults()
          : MpiConfig.builder().gathervSsendMinProcs(Integer.MAX_VALUE).build();
      int[] nodes = new int[32];
      for (int i = 0; i < 32; i++) {
        nodes[i] = i * 3;
      }
      MpiJob job = MpiJob.builder(MpiTesting.smallSystem(8)).nodes(nodes).config(cfg).build();
      byte[][] got = new byte[1][];
      job.run(mpi -> {
        int n = mpi.size();
        int[] counts = new int[n];
        int[] displs = new int[n];
        for (int q = 0; q < n; q++) {
          counts[q] = 100;
          displs[q] = q * 100;
        }
        byte[] all = mpi.rank() == 5 ? new byte[n * 100] : null;
        mpi.gatherv(block(mpi.rank(), 100), all, counts, displs, 5, mpi.world());
        if (all != null) {
          got[0] = all;
        }
      });
      assertThat(got[0]).isEqualTo(allBlocks(32, 100));
      assertThat(job.synchronousAcknowledgements()).as("synchronous: %s", ssend).isEqualTo(ssend ? 31 : 0);
      assertThat(job.messages(Protocol.RENDEZVOUS)).isZero();
    }
  }

  /**
   * MPI never touches a v-collective's block of count 0: its displacement may lie anywhere, and a buffer whose counts
   * are all 0 may be null. Both were refused.
   */
  @Test
  void zeroCountBlocksMayLieAnywhereAndAllZeroBuffersMayBeNull() {
    MpiJob job = MpiJob.builder(MpiTesting.smallSystem(21)).nodes(2, 60, 70).build();
    byte[][] got = new byte[3][];
    job.run(mpi -> {
      int n = mpi.size();
      int r = mpi.rank();
      int[] counts = new int[n];
      int[] displs = new int[n];
      for (int i = 0; i < n; i++) {
        // each rank sends 3 bytes to the next rank only; every other block is empty, its displacement past the end
        counts[i] = i == (r + 1) % n ? 3 : 0;
        displs[i] = counts[i] == 0 ? 100 : 0;
      }
      int[] rCounts = new int[n];
      int[] rDispls = new int[n];
      for (int i = 0; i < n; i++) {
        rCounts[i] = i == (r - 1 + n) % n ? 3 : 0;
        rDispls[i] = rCounts[i] == 0 ? 1_000 : 1;
      }
      byte[] send = {(byte) r, (byte) (r + 10), (byte) (r + 20)};
      byte[] recv = new byte[4];
      mpi.alltoallv(send, counts, displs, recv, rCounts, rDispls, mpi.world());
      got[r] = recv;
      mpi.allgatherv(new byte[0], null, new int[n], new int[n], mpi.world());
    });
    for (int r = 0; r < 3; r++) {
      int from = (r + 2) % 3;
      assertThat(got[r]).containsExactly(0, from, from + 10, from + 20);
    }
  }

  @Test
  void afterAnAlltoallNoRankKeepsPeersToPoll() {
    int n = 9; // one rank a node: every peer is reached through the NIC
    MpiJob job = MpiTesting.job(MpiTesting.smallSystem(5), n, config(Family.MEDIUM)); // isend/irecv to every rank
    int[] seen = new int[n];
    job.run(mpi -> {
      byte[] send = new byte[8 * n];
      byte[] recv = new byte[8 * n];
      mpi.alltoall(send, recv, mpi.world());
      mpi.alltoall(send, recv, mpi.world());
    });
    for (int r = 0; r < n; r++) {
      seen[r] = job.rank(r).peersWithUnreadEvents();
    }
    assertThat(job.messages()).as("messages of two alltoalls").isGreaterThanOrEqualTo(2L * n * (n - 1));
    assertThat(seen).containsOnly(0);
  }
}
