package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.ProcessRunner;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Programs whose ranks disagree on a collective (MPI calls them erroneous) are refused with a report naming the call,
 * the ranks and what each asked for, the same report for every thread count ({@link CollectiveLedger}); they used to
 * finish with wrong data in silence. Also the overlapping receive blocks of the v-collectives, and deadlock reports
 * that name the MPI call each rank is in.
 */
class MpiCollectiveAgreementTest {

  /** Four ranks on four nodes of the default system's first groups (the single loop), or of a 9-group engine. */
  private static MpiJob job(int threads) {
    if (threads == 0) {
      return MpiJob.builder(AriesSystem.builder().system("default").seed(3).build()).nodes(0, 5, 40, 97).build();
    }
    AriesSystem sys = AriesSystem.builder().system("canonical:p=2,a=4,h=2").seed(3).threads(threads).build();
    // one rank in each of four groups, so that the ranks run on different threads
    int[] nodes = new int[4];
    for (int n = 0, g = 0; n < sys.nodeCount() && g < 4; n++) {
      if (sys.groupOfNode(n) == 2 * g) {
        nodes[g++] = n;
      }
    }
    return MpiJob.builder(sys).placement(nodes).build();
  }

  private static String refusal(MpiJob job, MpiProgram program) {
    try {
      job.run(program);
    } catch (IllegalStateException | ProcessRunner.ProcessFailedException e) {
      return e.getMessage();
    }
    throw new AssertionError("the program was not refused");
  }

  @Test
  void aBcastWhoseRanksNameDifferentRootsIsRefusedNamingThem() {
    MpiProgram program = m -> {
      byte[] b = new byte[64];
      m.bcast(b, 0, 64, m.rank() == 3 ? 3 : 0, m.world());
    };
    String expected = "MPI ranks disagree on collective call 0 on the world communicator (MPI requires the same"
        + " collective calls in the same order, with the same root, op and type and matching lengths): rank 0 called"
        + " bcast(root 0, 64 bytes) but rank 3 called bcast(root 3, 64 bytes)";
    // the same report on the single loop and for every thread count, though the ranks reach the ledger in another
    // order on threads
    for (int threads : new int[] {0, 1, 2, 3}) {
      assertThat(refusal(job(threads), program)).as("threads %s", threads).isEqualTo(expected);
    }
  }

  @Test
  void theReportQuotesEachRanksCallSite() {
    assertThat(refusal(job(0), m -> {
      m.callSite(100 + m.rank());
      m.bcast(new byte[8], 0, 8, m.rank() == 3 ? 3 : 0, m.world());
    })).endsWith("rank 0 (its call 100) called bcast(root 0, 8 bytes) but rank 3 (its call 103) called bcast(root 3,"
        + " 8 bytes)");
    MpiJob job = job(0);
    assertThat(refusal(job, m -> {
      Communicator c = m.split(m.world(), m.rank() % 2, m.rank());
      m.callSite(7);
      m.reduce(new long[1], new long[1], m.rank() == 3 ? ReduceOp.MAX : ReduceOp.SUM, 0, c);
    })).endsWith("rank 0 (world rank 1, its call 7) called reduce(root 0, 1 long, SUM) but rank 1 (world rank 3, its"
        + " call 7) called reduce(root 0, 1 long, MAX)");
  }

  @Test
  void reductionsThatDisagreeOnOpTypeOrCountAreRefused() {
    assertThat(refusal(job(0), m -> m.allreduce(new long[] {m.rank()}, new long[1],
        m.rank() == 2 ? ReduceOp.MAX : ReduceOp.SUM, m.world())))
        .contains("rank 0 called allreduce(1 long, SUM) but rank 2 called allreduce(1 long, MAX)");
    assertThat(refusal(job(0), m -> {
      if (m.rank() == 1) {
        m.allreduce(new double[] {1}, new double[1], ReduceOp.SUM, m.world());
      } else {
        m.allreduce(new long[] {1}, new long[1], ReduceOp.SUM, m.world());
      }
    })).contains("rank 0 called allreduce(1 long, SUM) but rank 1 called allreduce(1 double, SUM)");
    assertThat(refusal(job(0), m -> {
      int n = m.rank() == 3 ? 3 : 2;
      m.reduce(new long[n], new long[n], ReduceOp.SUM, 0, m.world());
    })).contains("rank 0 called reduce(root 0, 2 longs, SUM) but rank 3 called reduce(root 0, 3 longs, SUM)");
  }

  @Test
  void vCollectivesWhoseCountsDisagreeAreRefusedNamingThePair() {
    assertThat(refusal(job(0), m -> {
      // the root expects 4 bytes from each rank; rank 2 sends 5
      byte[] send = new byte[m.rank() == 2 ? 5 : 4];
      int[] counts = {4, 4, 4, 4};
      int[] displs = {0, 4, 8, 12};
      m.gatherv(send, new byte[16], counts, displs, 0, m.world());
    })).contains("the root, rank 0, receives counts[2] = 4 bytes but rank 2 sends 5 in gatherv");
    assertThat(refusal(job(0), m -> {
      int[] send = {1, 1, 1, 1};
      int[] recv = {1, 1, 1, 1};
      if (m.rank() == 1) {
        send[3] = 2; // rank 3 expects 1 byte from rank 1
      }
      m.alltoallv(new byte[5], send, new int[] {0, 1, 2, 3}, new byte[4], recv, new int[] {0, 1, 2, 3},
          m.world());
    })).contains("rank 1 sends sendCounts[3] = 2 bytes to rank 3, which receives recvCounts[1] = 1 from it, in"
        + " alltoallv");
    assertThat(refusal(job(0), m -> {
      int[] counts = m.rank() == 0 ? new int[] {1, 1, 1, 1} : new int[] {1, 1, 2, 0};
      int[] displs = {0, 1, 2, 3};
      m.allgatherv(new byte[counts[m.rank()]], new byte[4], counts, displs, m.world());
    })).contains("rank 0 called allgatherv() with counts [1, 1, 1, 1] but rank 1 called allgatherv() with counts"
        + " [1, 1, 2, 0]");
  }

  @Test
  void aRankThatSkipsOrAddsACollectiveIsNamed() {
    // one extra barrier on rank 1: it met the others' finalize barrier, and the program finished in silence
    assertThat(refusal(job(0), m -> {
      m.barrier(m.world());
      if (m.rank() == 1) {
        m.barrier(m.world());
      }
    })).contains("collective call 1 on the world communicator (MPI requires the same collective calls in the same"
        + " order, with the same root, op and type and matching lengths): rank 0 called finalize but rank 1 called"
        + " barrier()");
    // a leaf of a bcast on a communicator of its own that never calls it: the root's eager send completed, and the
    // program finished with rank 3's buffer never written
    assertThat(refusal(job(0), m -> {
      Communicator c = m.split(m.world(), m.rank() < 2 ? 0 : 1, m.rank());
      if (m.rank() != 3) {
        m.bcast(new byte[8], 0, 8, 0, c);
      }
    })).contains("collective call 0 on the communicator of world ranks [2, 3]")
        .endsWith("rank 0 (world rank 2) called bcast(root 0, 8 bytes) and rank 1 (world rank 3) never did (each"
            + " rank's program returned)");
  }

  @Test
  void theDisagreementIsReportedBeforeTheFailureItCaused() {
    // rank 1's receive buffer is shorter than the root's message: the disagreement, not only the truncation, is named
    String m = refusal(job(0), mpi -> {
      int len = mpi.rank() == 1 ? 16 : 5000;
      mpi.bcast(new byte[len], 0, len, 0, mpi.world());
    });
    assertThat(m).startsWith("MPI ranks disagree on collective call 0 on the world communicator")
        .contains("rank 0 called bcast(root 0, 5000 bytes) but rank 1 called bcast(root 0, 16 bytes); then a rank"
            + " failed: MPI_ERR_TRUNCATE at rank 1");
  }

  /** Four ranks in four groups of one canonical system: on the single loop (0) or on the engine's threads. */
  private static MpiJob spread(int threads) {
    AriesSystem.Builder b = AriesSystem.builder().system("canonical:p=2,a=4,h=2").seed(3);
    if (threads > 0) {
      b.threads(threads);
    }
    AriesSystem sys = b.build();
    int[] nodes = new int[4];
    for (int n = 0, g = 0; n < sys.nodeCount() && g < 4; n++) {
      if (sys.groupOfNode(n) == 2 * g) {
        nodes[g++] = n;
      }
    }
    return MpiJob.builder(sys).placement(nodes).build();
  }

  @Test
  void aDisagreementAfterARankFailedDoesNotDecideTheReport() {
    // rank 0 fails at 1 us; ranks 2 and 3 disagree on a bcast's root at 1 us + d. The engine runs the other groups on
    // to the window's end after the failure, the single loop stops at once: only calls before the failure count, so
    // every engine reports the failure alone when d >= 0 (found by a probe: the engine named the later bcast), and
    // the disagreement first when it came before
    for (long d : new long[] {0, 1, 1_000, 10_000, -50_000}) {
      MpiProgram program = mpi -> {
        int r = mpi.rank();
        if (r == 0) {
          mpi.compute(1_000_000);
          throw new IllegalStateException("boom");
        }
        if (r >= 2) {
          mpi.compute(1_000_000 + d);
          mpi.bcast(new byte[8], 0, 8, r - 2, mpi.world());
        }
        mpi.compute(50_000_000);
      };
      String expected = d >= 0 ? "simulated process rank0 failed at 1000000 ps: boom"
          : "MPI ranks disagree on collective call 0 on the world communicator (MPI requires the same collective"
              + " calls in the same order, with the same root, op and type and matching lengths): rank 2 called"
              + " bcast(root 0, 8 bytes) but rank 3 called bcast(root 1, 8 bytes); then a rank failed: boom";
      for (int threads : new int[] {0, 1, 2, 3}) {
        assertThat(refusal(spread(threads), program)).as("d %s ps, threads %s", d, threads).isEqualTo(expected);
      }
    }
  }

  @Test
  void aProgramThatDisagreesMoreOftenThanTheLedgerKeepsStillNamesItsFirst() {
    // every bcast disagrees (ranks 0-2 name root 0, rank 3 itself): however far the program gets, the report names
    // the first, since the ledger keeps the earliest MAX_KEPT of them whatever order threads complete them in
    int calls = CollectiveLedger.MAX_KEPT + 100;
    MpiProgram program = m -> {
      for (int i = 0; i < calls; i++) {
        m.bcast(new byte[8], 0, 8, m.rank() == 3 ? 3 : 0, m.world());
      }
    };
    for (int threads : new int[] {0, 2}) {
      assertThat(refusal(spread(threads), program)).as("threads %s", threads)
          .startsWith("MPI ranks disagree on collective call 0 on the world communicator")
          .contains("rank 0 called bcast(root 0, 8 bytes) but rank 3 called bcast(root 3, 8 bytes)");
    }
  }

  @Test
  void aDeadlockNamesTheCallEachRankIsIn() {
    assertThatThrownBy(() -> job(0).run(m -> {
      if (m.rank() == 0) {
        m.recv(new byte[4], 1, 9);
      }
      m.barrier(m.world());
    })).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("rank 0 in its program waits for a receive from world rank 1 (tag 9)")
        .hasMessageContaining("rank 1 in barrier() on the world communicator (its collective call 0) waits for");
  }

  @Test
  void communicationLeftUnfinishedAtFinalizeIsRefusedWhateverTheMessagesSize() {
    // a short message no receive took: the sender's send completes at once, and the program used to finish in
    // silence; a rendezvous isend never received was reported as a deadlock in finalize: now one report for both
    for (int size : new int[] {8, 3000, 50_000}) {
      assertThat(refusal(job(0), m -> {
        if (m.rank() == 0) {
          m.isend(new byte[size], 0, size, 1, 4, m.world());
        }
      })).as("%s bytes", size).isEqualTo(MpiJob.UNFINISHED + "rank 1 holds 1 message no receive took, e.g. from"
          + " world rank 0 (tag 4, " + size + " bytes)");
    }
    // a receive posted and never matched (never waited for)
    assertThat(refusal(job(0), m -> {
      if (m.rank() == 2) {
        m.irecv(new byte[8], 0, 8, 3, 6, m.world());
      }
    })).isEqualTo(MpiJob.UNFINISHED + "rank 2 has 1 receive no message matched, e.g. from world rank 3 (tag 6)");
  }

  @Test
  void overlappingReceiveBlocksAreRefusedAndOverlappingSendBlocksAreNot() {
    assertThat(refusal(job(0), m -> m.gatherv(new byte[4], new byte[16], new int[] {4, 4, 4, 4},
        new int[] {0, 4, 6, 12}, 0, m.world())))
        .contains("recv: blocks 1 and 2 (displacements 4 and 6, counts 4 and 4) overlap; a receive buffer's blocks"
            + " must not share a byte");
    // every rank's receive blocks disjoint, each send block read for two ranks: legal
    List<byte[]> got = new ArrayList<>();
    for (int r = 0; r < 4; r++) {
      got.add(new byte[4]);
    }
    job(0).run(m -> {
      byte[] send = {7, 8};
      m.alltoallv(send, new int[] {1, 1, 1, 1}, new int[] {0, 0, 1, 1}, got.get(m.rank()),
          new int[] {1, 1, 1, 1}, new int[] {0, 1, 2, 3}, m.world());
    });
    // ranks 0 and 1 get byte 0 of every rank's buffer, ranks 2 and 3 byte 1, read twice from each sender
    for (int r = 0; r < 4; r++) {
      byte v = (byte) (r < 2 ? 7 : 8);
      assertThat(got.get(r)).containsExactly(v, v, v, v);
    }
  }

  @Test
  void agreeingProgramsAreUnchanged() {
    // every collective with a root other than 0 and counts that vary by rank, consistently: runs, right data
    long[] sums = new long[4];
    job(2).run(m -> {
      int r = m.rank();
      int[] counts = {1, 2, 3, 4};
      int[] displs = {0, 1, 3, 6};
      byte[] all = new byte[10];
      m.gatherv(new byte[r + 1], all, counts, displs, 2, m.world());
      m.allgatherv(new byte[r + 1], all, counts, displs, m.world());
      long[] out = new long[1];
      m.allreduce(new long[] {r + 1}, out, ReduceOp.SUM, m.world());
      sums[r] = out[0];
      Communicator c = m.dup(m.world());
      m.bcast(new byte[3], 0, 3, 1, c);
      m.barrier(c);
    });
    assertThat(sums).containsOnly(10);
  }
}
