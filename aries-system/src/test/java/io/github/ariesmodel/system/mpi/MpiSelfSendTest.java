package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.ProcessRunner;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A rank's sends to itself, as MPICH CH3 makes them ({@code MPIDI_Isend_self} in
 * {@code src/mpid/ch3/src/mpidi_isend_self.c}): complete at once when a matching receive is posted, else incomplete
 * until one is; a blocking send that finds no receive posted is {@code **dev|selfsenddeadlock} ({@code MPID_Send},
 * {@code MPID_Ssend}); a buffered send returns at once but holds its attached space until the match
 * ({@code MPIR_Bsend_isend}).
 */
class MpiSelfSendTest {

  /** Lengths of every protocol a message between nodes would take: empty, short, eager, rendezvous. */
  private static final int[] LENGTHS = {0, 100, 5_000, 100_000};

  private static byte[] pattern(int seed, int len) {
    byte[] b = new byte[len];
    for (int i = 0; i < len; i++) {
      b[i] = (byte) (seed * 31 + i * 7 + (i >> 9));
    }
    return b;
  }

  private static MpiJob oneRank(AriesSystem system) {
    return MpiJob.builder(system).nodes(2).build();
  }

  private static MpiJob twoRanks(AriesSystem system) {
    return MpiJob.builder(system).nodes(2, 60).build();
  }

  /**
   * An isend to itself is not complete when it returns (no receive was posted); the irecv posted after it takes the
   * data, and both complete with it, the send no earlier than the receive was posted.
   */
  @Test
  void anIsendToItselfCompletesWithItsReceive() {
    for (int length : LENGTHS) {
      List<Object> seen = new ArrayList<>();
      MpiJob job = oneRank(MpiTesting.smallSystem(1));
      job.run(mpi -> {
        byte[] got = new byte[length];
        Request s = mpi.isend(pattern(mpi.rank(), length), 0, length, mpi.rank(), 4, mpi.world());
        seen.add(s.isComplete());
        mpi.compute(1_000_000);
        long posted = mpi.now();
        Request r = mpi.irecv(got, 0, length, mpi.rank(), 4, mpi.world());
        mpi.waitall(s, r);
        seen.add(s.completedAtPs() >= posted);
        seen.add(r.status().source() == mpi.rank() && r.status().tag() == 4 && r.status().count() == length);
        seen.add(Arrays.equals(got, pattern(mpi.rank(), length)));
      });
      assertThat(seen).as("%s bytes", length).containsExactly(false, true, true, true);
      assertThat(job.messages(Protocol.SELF)).isEqualTo(1);
    }
  }

  /**
   * {@code test} of an isend to itself, or of a started persistent send to itself ({@code MPID_Startall} makes an
   * {@code MPID_Isend}), says false however long the rank waits without a receive, and true once one is posted; a
   * wait on it with no receive posted is a deadlock, reported naming the send.
   */
  @Test
  void aSendToItselfTestsFalseUntilAReceiveIsPosted() {
    List<Boolean> seen = new ArrayList<>();
    oneRank(MpiTesting.smallSystem(2)).run(mpi -> {
      PersistentRequest p = mpi.sendInit(pattern(2, 64), 0, 64, mpi.rank(), 6, mpi.world());
      for (int k = 0; k < 2; k++) {
        Request s = k == 0 ? mpi.isend(pattern(1, 64), 0, 64, mpi.rank(), 5, mpi.world()) : mpi.start(p);
        int tag = 5 + k;
        seen.add(mpi.test(s));
        mpi.compute(5_000_000);
        seen.add(mpi.test(s));
        byte[] got = new byte[64];
        Request r = mpi.irecv(got, 0, 64, Mpi.ANY_SOURCE, tag, mpi.world());
        seen.add(mpi.test(s));
        mpi.wait(r);
        seen.add(Arrays.equals(got, pattern(1 + k, 64)));
      }
    });
    assertThat(seen).containsExactly(false, false, true, true, false, false, true, true);
    assertThatThrownBy(() -> twoRanks(MpiTesting.smallSystem(3)).run(mpi -> {
      if (mpi.rank() == 0) {
        mpi.wait(mpi.isend(new byte[8], 0, 8, 0, 3, mpi.world()));
      }
    })).isInstanceOf(MpiJob.JobFailedException.class)
        .hasMessageContaining("deadlocked")
        .hasMessageContaining("rank 0 in its program waits for a send to world rank 0 (tag 3)");
  }

  /**
   * A blocking send to itself completes when a matching receive was posted before it (of its tag or any, from itself
   * or any source, as {@code sendrecv} posts its own); with none, or only a receive of another tag, it fails the rank
   * at once, in one line naming the rank, the tag and the communicator, and not as a deadlock found later: the other
   * rank is still computing.
   */
  @Test
  void aBlockingSendToItselfNeedsAReceivePostedBeforeIt() {
    List<Boolean> seen = new ArrayList<>();
    oneRank(MpiTesting.smallSystem(4)).run(mpi -> {
      int me = mpi.rank();
      for (int length : LENGTHS) {
        byte[] got = new byte[length];
        Request r = length == 100 ? mpi.irecv(got, 0, length, Mpi.ANY_SOURCE, Mpi.ANY_TAG, mpi.world())
            : mpi.irecv(got, 0, length, me, 9, mpi.world());
        mpi.send(pattern(length, length), 0, length, me, 9, mpi.world());
        seen.add(r.isComplete() && Arrays.equals(got, pattern(length, length)));
      }
      byte[] got = new byte[16];
      mpi.sendrecv(pattern(7, 16), 0, 16, me, 2, got, 0, 16, me, 2, mpi.world());
      seen.add(Arrays.equals(got, pattern(7, 16)));
    });
    assertThat(seen).hasSize(5).containsOnly(true);

    for (boolean otherTagPosted : new boolean[] {false, true}) {
      assertThatThrownBy(() -> twoRanks(MpiTesting.smallSystem(5)).run(mpi -> {
        if (mpi.rank() == 0) {
          mpi.compute(1_000_000_000); // 1 ms: rank 1 fails long before this rank could wait for anything
          return;
        }
        if (otherTagPosted) {
          mpi.irecv(new byte[4], 0, 4, 1, 13, mpi.world());
        }
        mpi.send(new byte[4], 0, 4, 1, 12, mpi.world());
      })).isInstanceOfSatisfying(ProcessRunner.ProcessFailedException.class, e -> {
        assertThat(e.processName()).isEqualTo("rank1");
        assertThat(e.timePs()).isLessThan(1_000_000_000);
        assertThat(e.getMessage()).doesNotContain("\n").contains("MPI_ERR_OTHER at rank 1: DEADLOCK: MPI_Send to"
            + " itself (tag 12 on the world communicator) with no matching receive posted before it (MPICH's"
            + " **dev|selfsenddeadlock");
      });
    }
  }

  /**
   * A blocking synchronous send to itself is the same: with a matching receive posted before it, it completes with
   * its data (and its match is counted as an acknowledgement); with none, it fails the rank at once, naming
   * {@code MPI_Ssend} ({@code MPID_Ssend} makes {@code MPID_Send}'s check), not as a deadlock found once the other
   * rank is done computing.
   */
  @Test
  void aBlockingSynchronousSendToItselfNeedsAReceivePostedBeforeIt() {
    List<Boolean> seen = new ArrayList<>();
    MpiJob job = oneRank(MpiTesting.smallSystem(10));
    job.run(mpi -> {
      for (int length : LENGTHS) {
        byte[] got = new byte[length];
        Request r = mpi.irecv(got, 0, length, 0, 1, mpi.world());
        mpi.ssend(pattern(length, length), 0, length, 0, 1, mpi.world());
        seen.add(r.isComplete() && Arrays.equals(got, pattern(length, length)));
      }
    });
    assertThat(seen).containsExactly(true, true, true, true);
    assertThat(job.synchronousAcknowledgements()).isEqualTo(LENGTHS.length);
    assertThatThrownBy(() -> twoRanks(MpiTesting.smallSystem(11)).run(mpi -> {
      if (mpi.rank() == 0) {
        mpi.compute(1_000_000_000);
        return;
      }
      mpi.ssend(new byte[4], 0, 4, 1, 14, mpi.world());
    })).isInstanceOfSatisfying(ProcessRunner.ProcessFailedException.class, e -> {
      assertThat(e.timePs()).isLessThan(1_000_000_000);
      assertThat(e.getMessage()).doesNotContain("\n").contains("MPI_ERR_OTHER at rank 1: DEADLOCK: MPI_Ssend to itself"
          + " (tag 14 on the world communicator) with no matching receive posted before it");
    });
  }

  /**
   * On a communicator other than the world the report names it; the failure leaves the system usable: a job built
   * beside the failed one before it failed runs, and so does a new one, their data whole; the failed job refuses to
   * run again, saying why.
   */
  @Test
  void aFailedSelfSendOnASubCommunicatorLeavesOtherJobsUsable() {
    AriesSystem system = MpiTesting.smallSystem(6);
    MpiJob failing = MpiJob.builder(system).nodes(2, 60, 31, 33).build();
    MpiJob beside = MpiJob.builder(system).nodes(5, 70).build();
    assertThatThrownBy(() -> failing.run(mpi -> {
      Communicator pair = mpi.split(mpi.world(), mpi.rank() / 2, mpi.rank());
      if (mpi.rank() == 3) {
        mpi.send(new byte[8], 0, 8, pair.rank(), 21, pair);
      }
      mpi.barrier(mpi.world());
    })).isInstanceOf(ProcessRunner.ProcessFailedException.class)
        .hasMessageContaining("MPI_ERR_OTHER at rank 3: DEADLOCK: MPI_Send to itself (tag 21 on a communicator of 2"
            + " ranks)");
    assertThatThrownBy(() -> failing.run(mpi -> mpi.barrier(mpi.world())))
        .hasMessageStartingWith("this job cannot run again: a run of it failed (simulated process rank3 failed");
    for (MpiJob job : List.of(beside, MpiJob.builder(system).nodes(8, 90).build())) {
      List<byte[]> got = new ArrayList<>();
      job.run(mpi -> {
        byte[] b = new byte[20_000];
        if (mpi.rank() == 0) {
          mpi.send(pattern(3, b.length), 0, b.length, 1, 1, mpi.world());
          Request self = mpi.irecv(b, 0, 8, 0, 2, mpi.world());
          mpi.send(pattern(4, 8), 0, 8, 0, 2, mpi.world());
          mpi.wait(self);
          got.add(Arrays.copyOf(b, 8));
        } else {
          mpi.recv(b, 0, b.length, 0, 1, mpi.world());
          got.add(b);
        }
      });
      assertThat(got).hasSize(2).anySatisfy(b -> assertThat(b).isEqualTo(pattern(3, 20_000)))
          .anySatisfy(b -> assertThat(b).isEqualTo(pattern(4, 8)));
    }
  }

  /**
   * A buffered send to itself returns at once (MPICH's {@code MPIR_Bsend_isend} sends from the attached buffer with
   * {@code MPID_Isend}), but its space stays taken until a receive matches the message: a second buffered send that
   * needs it meanwhile is {@code MPI_ERR_BUFFER}; after the match the space comes back.
   */
  @Test
  void aBufferedSendToItselfHoldsItsSpaceUntilMatched() {
    int space = 100 + Mpi.BSEND_OVERHEAD;
    List<Boolean> seen = new ArrayList<>();
    oneRank(MpiTesting.smallSystem(7)).run(mpi -> {
      int me = mpi.rank();
      mpi.bufferAttach(space);
      for (int k = 0; k < 2; k++) {
        Request b = mpi.ibsend(pattern(k, 100), 0, 100, me, k, mpi.world());
        seen.add(b.isComplete());
        byte[] got = new byte[100];
        mpi.recv(got, 0, 100, me, k, mpi.world());
        seen.add(Arrays.equals(got, pattern(k, 100)));
      }
      mpi.bufferDetach();
    });
    assertThat(seen).containsExactly(true, true, true, true);
    assertThatThrownBy(() -> twoRanks(MpiTesting.smallSystem(8)).run(mpi -> {
      if (mpi.rank() == 0) {
        mpi.bufferAttach(space);
        mpi.bsend(new byte[100], 0, 100, 0, 1, mpi.world());
        mpi.bsend(new byte[1], 0, 1, 1, 2, mpi.world());
      }
    })).isInstanceOf(ProcessRunner.ProcessFailedException.class)
        .hasMessageContaining("MPI_ERR_BUFFER at rank 0: a buffered send of 1 bytes needs 97 bytes")
        .hasMessageContaining("only 0 of the 196 attached are free");
  }

  /**
   * {@code MPI_Cancel} of an isend to itself no receive has matched takes it back, as CH3's {@code MPID_Cancel_send}
   * does for a message to itself: the request completes as cancelled and a later receive of its tag does not see it.
   */
  @Test
  void cancellingAnUnmatchedIsendToItselfTakesItBack() {
    List<Object> seen = new ArrayList<>();
    oneRank(MpiTesting.smallSystem(9)).run(mpi -> {
      Request s = mpi.isend(pattern(1, 32), 0, 32, mpi.rank(), 3, mpi.world());
      mpi.cancel(s);
      mpi.wait(s);
      seen.add(s.isCancelled());
      seen.add(mpi.iprobe(mpi.rank(), 3, mpi.world()) == null);
    });
    assertThat(seen).containsExactly(true, true);
  }
}
