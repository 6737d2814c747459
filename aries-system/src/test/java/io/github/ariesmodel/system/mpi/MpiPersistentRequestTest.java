package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Persistent requests ({@code MPI_Send_init}, {@code MPI_Ssend_init}, {@code MPI_Recv_init}, {@code MPI_Start},
 * {@code MPI_Startall}): each start is the nonblocking call of the request's arguments, as MPICH's
 * {@code MPID_Startall} makes it, so a program of persistent requests runs exactly as the same program of isends and
 * irecvs; a start reads the send buffer as it is then; an active request cannot start again.
 */
class MpiPersistentRequestTest {

  private static final int[] SIZES = {0, 8, 4000, 20_000, 300_001};
  private static final int ROUNDS = 3;

  private static void fill(byte[] b, int size, int round) {
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (size * 7 + round * 31 + i * 13 + (i >> 9));
    }
  }

  /**
   * Rank 0 sends every size to rank 1 and rank 1 sends it back, three rounds, rank 1 computing 3 µs a round before it
   * answers; with persistent requests each side creates its requests once and starts them every round, otherwise it
   * makes the isends and irecvs. Returns each rank's time after each round's waitall, then the run's end.
   */
  private static long[] exchange(int[] placement, boolean persistent, List<byte[]> got) {
    MpiJob job = MpiJob.builder(MpiTesting.smallSystem(5)).placement(placement).build();
    List<Long> times = new ArrayList<>();
    job.run(mpi -> {
      int me = mpi.rank();
      int other = 1 - me;
      byte[][] out = new byte[SIZES.length][];
      byte[][] in = new byte[SIZES.length][];
      PersistentRequest[] reqs = new PersistentRequest[2 * SIZES.length];
      for (int k = 0; k < SIZES.length; k++) {
        out[k] = new byte[SIZES[k]];
        in[k] = new byte[SIZES[k]];
        if (persistent) {
          reqs[2 * k] = mpi.recvInit(in[k], 0, SIZES[k], other, k, mpi.world());
          reqs[2 * k + 1] = mpi.sendInit(out[k], 0, SIZES[k], other, k, mpi.world());
        }
      }
      for (int round = 0; round < ROUNDS; round++) {
        if (me == 1) {
          mpi.compute(3_000_000);
        }
        for (int k = 0; k < SIZES.length; k++) {
          fill(out[k], SIZES[k], round + 10 * me); // changed in place: a start reads it as it is now
        }
        Request[] started;
        if (persistent) {
          started = mpi.startall(reqs);
        } else {
          started = new Request[reqs.length];
          for (int k = 0; k < SIZES.length; k++) {
            started[2 * k] = mpi.irecv(in[k], 0, SIZES[k], other, k, mpi.world());
            started[2 * k + 1] = mpi.isend(out[k], 0, SIZES[k], other, k, mpi.world());
          }
        }
        mpi.waitall(started);
        if (me == 1) {
          synchronized (got) {
            for (byte[] b : in) {
              got.add(b.clone());
            }
          }
        }
        synchronized (times) {
          times.add(mpi.now() * 2 + me);
        }
      }
    });
    long[] t = new long[times.size() + 1];
    List<Long> sorted = new ArrayList<>(times);
    sorted.sort(null);
    for (int i = 0; i < sorted.size(); i++) {
      t[i] = sorted.get(i);
    }
    t[times.size()] = job.lastRunPs();
    return t;
  }

  @Test
  void startingPersistentRequestsIsMakingTheNonblockingCalls() {
    for (int[] placement : new int[][] {{2, 60}, {7, 7}}) {
      List<byte[]> gotPersistent = new ArrayList<>();
      List<byte[]> gotNonblocking = new ArrayList<>();
      long[] persistent = exchange(placement, true, gotPersistent);
      long[] nonblocking = exchange(placement, false, gotNonblocking);
      assertThat(persistent).as("times on %s", Arrays.toString(placement)).isEqualTo(nonblocking);
      assertThat(persistent[persistent.length - 1]).isPositive();
      // every round's data is that round's: the sender's buffer was read at each start
      assertThat(gotPersistent).hasSize(ROUNDS * SIZES.length);
      for (int round = 0; round < ROUNDS; round++) {
        for (int k = 0; k < SIZES.length; k++) {
          byte[] want = new byte[SIZES[k]];
          fill(want, SIZES[k], round);
          assertThat(gotPersistent.get(round * SIZES.length + k)).as("round %s, %s bytes", round, SIZES[k])
              .isEqualTo(want);
        }
      }
    }
  }

  /** Every start of a persistent synchronous send completes only once the receiver, 50 µs late, has matched it. */
  @Test
  void eachStartOfASynchronousSendWaitsForTheMatch() {
    long late = 50_000_000;
    MpiJob job = MpiJob.builder(MpiTesting.smallSystem(3)).nodes(2, 60).build();
    List<Long> took = new ArrayList<>();
    job.run(mpi -> {
      byte[] b = new byte[8];
      if (mpi.rank() == 0) {
        PersistentRequest s = mpi.ssendInit(b, 0, 8, 1, 4, mpi.world());
        PersistentRequest plain = mpi.sendInit(b, 0, 8, 1, 5, mpi.world());
        assertThat(s.mode()).isEqualTo(PersistentRequest.Mode.SYNCHRONOUS_SEND);
        for (int i = 0; i < 2; i++) {
          long t0 = mpi.now();
          mpi.wait(mpi.start(s));
          long t1 = mpi.now();
          mpi.wait(mpi.start(plain));
          took.add(t1 - t0);
          took.add(mpi.now() - t1);
        }
        assertThat(s.starts()).isEqualTo(2);
      } else {
        PersistentRequest r = mpi.recvInit(b, 0, 8, 0, 4, mpi.world());
        for (int i = 0; i < 2; i++) {
          mpi.compute(late);
          mpi.wait(mpi.start(r));
          mpi.compute(late);
          mpi.recv(new byte[8], 0, 8, 0, 5, mpi.world());
        }
      }
    });
    assertThat(took).hasSize(4);
    assertThat(took.get(0)).isGreaterThan(late);
    assertThat(took.get(2)).isGreaterThan(late);
    assertThat(took.get(1)).as("a standard 8-byte send returns at once").isLessThan(late / 10);
    assertThat(took.get(3)).isLessThan(late / 10);
  }

  /** Each start of a persistent buffered send is complete at once, the receiver 50 µs late notwithstanding. */
  @Test
  void eachStartOfABufferedSendCompletesAtOnce() {
    long late = 50_000_000;
    MpiJob job = MpiJob.builder(MpiTesting.smallSystem(3)).nodes(2, 60).build();
    List<Boolean> completeAtStart = new ArrayList<>();
    job.run(mpi -> {
      byte[] b = new byte[20_000];
      if (mpi.rank() == 0) {
        mpi.bufferAttach(2 * (b.length + Mpi.BSEND_OVERHEAD));
        PersistentRequest s = mpi.bsendInit(b, 0, b.length, 1, 4, mpi.world());
        assertThat(s.mode()).isEqualTo(PersistentRequest.Mode.BUFFERED_SEND);
        for (int i = 0; i < 2; i++) {
          Request r = mpi.start(s);
          completeAtStart.add(r.isComplete());
          mpi.wait(r);
        }
        mpi.bufferDetach();
      } else {
        mpi.compute(late);
        mpi.recv(b, 0, b.length, 0, 4, mpi.world());
        mpi.recv(b, 0, b.length, 0, 4, mpi.world());
      }
    });
    assertThat(completeAtStart).containsExactly(true, true);
  }

  /**
   * A request is active from its start until a wait or a test returns it complete: started again before that, even
   * complete, it is refused (MPICH's {@code **requestpersistactive}); a test that returns true ends the activation.
   */
  @Test
  void anActiveRequestCannotStartAgain() {
    MpiJob job = MpiJob.builder(MpiTesting.smallSystem(4)).nodes(2, 60).build();
    List<String> refused = new ArrayList<>();
    job.run(mpi -> {
      byte[] b = new byte[16];
      if (mpi.rank() == 0) {
        PersistentRequest s = mpi.sendInit(b, 0, 16, 1, 1, mpi.world());
        assertThat(s.isActive()).isFalse();
        assertThat(s.lastStart()).isNull();
        Request first = mpi.start(s);
        assertThat(s.isActive()).isTrue();
        assertThat(s.lastStart()).isSameAs(first);
        // a 16-byte send is complete at once (inline), yet active until waited for
        assertThat(first.isComplete()).isTrue();
        try {
          mpi.start(s);
        } catch (IllegalArgumentException e) {
          refused.add(e.getMessage());
        }
        try {
          mpi.startall(mpi.sendInit(b, 0, 16, 1, 2, mpi.world()), s);
        } catch (IllegalArgumentException e) {
          refused.add(e.getMessage());
        }
        assertThat(mpi.test(first)).isTrue();
        assertThat(s.isActive()).isFalse();
        mpi.wait(mpi.start(s));
        PersistentRequest twice = mpi.sendInit(b, 0, 16, 1, 1, mpi.world());
        try {
          mpi.startall(twice, twice);
        } catch (IllegalArgumentException e) {
          refused.add(e.getMessage());
        }
        assertThat(twice.starts()).as("nothing of a refused startall starts").isZero();
      } else {
        mpi.recv(b, 0, 16, 0, 1, mpi.world());
        mpi.recv(b, 0, 16, 0, 1, mpi.world());
      }
    });
    assertThat(refused).containsExactly(
        "request must be inactive (its last start returned complete by a wait or a test) but was active: a send to"
            + " world rank 1 (tag 1), complete but not yet waited for",
        "requests[1] must be inactive (its last start returned complete by a wait or a test) but was active: a send"
            + " to world rank 1 (tag 1), complete but not yet waited for",
        "requests[1] must not be requests[0] again (a request starts once a call)");
  }

  @Test
  void badArgumentsAreNamedWhenTheRequestIsCreated() {
    assertThatThrownBy(() -> MpiJob.builder(MpiTesting.smallSystem(6)).nodes(2, 60).build()
        .run(mpi -> mpi.sendInit(new byte[4], 0, 4, 2, 0, mpi.world())))
        .hasStackTraceContaining("dest must be in [0, 1] but was 2");
    assertThatThrownBy(() -> MpiJob.builder(MpiTesting.smallSystem(6)).nodes(2, 60).build()
        .run(mpi -> mpi.recvInit(new byte[4], 0, 4, Mpi.ANY_SOURCE, -5, mpi.world())))
        .hasStackTraceContaining("tag must be in [0, 268435455] or ANY_TAG (-1) but was -5");
    assertThatThrownBy(() -> MpiJob.builder(MpiTesting.smallSystem(6)).nodes(2, 60).build()
        .run(mpi -> mpi.ssendInit(new byte[4], 2, 4, 1, 0, mpi.world())))
        .hasStackTraceContaining("buf: offset and length must lie within the array's 4 bytes but were 2 and 4");
    // a receive names its length as the API does, capacity (stop 64's user walk: it said length)
    assertThatThrownBy(() -> MpiJob.builder(MpiTesting.smallSystem(6)).nodes(2, 60).build()
        .run(mpi -> mpi.recvInit(new byte[4], 0, 8, Mpi.ANY_SOURCE, 0, mpi.world())))
        .hasStackTraceContaining("buf: offset and capacity must lie within the array's 4 bytes but were 0 and 8");
    PersistentRequest[] mine = new PersistentRequest[1];
    assertThatThrownBy(() -> MpiJob.builder(MpiTesting.smallSystem(6)).nodes(2, 60).build().run(mpi -> {
      if (mpi.rank() == 0) {
        mine[0] = mpi.recvInit(new byte[4], 0, 4, 1, 0, mpi.world());
      }
      mpi.barrier(mpi.world());
      if (mpi.rank() == 1) {
        mpi.start(mine[0]);
      }
    })).hasStackTraceContaining("request must be one this rank made but was rank 0's");
  }
}
