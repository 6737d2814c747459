package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.system.process.ProcessRunner;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Point-to-point semantics against the MPI standard's rules, and the protocols' bookkeeping. */
class MpiPointToPointTest {

  private static byte[] pattern(int seed, int len) {
    byte[] b = new byte[len];
    for (int i = 0; i < len; i++) {
      b[i] = (byte) (seed * 29 + i * 11 + (i >> 8));
    }
    return b;
  }

  private static MpiJob twoRanks(long seed) {
    return MpiJob.builder(MpiTesting.smallSystem(seed)).nodes(2, 60).build();
  }

  /**
   * {@code MPI_Ssend} returns only once the receiver has matched the message: the receiver computes 50 µs before it
   * posts its receive, and the synchronous send of every length returns after it posted, between nodes and on one node,
   * where a standard send of a short message returns at once. The data arrive whole; {@code issend} completes the
   * same way.
   */
  @Test
  void aSynchronousSendReturnsOnlyOnceTheReceiverHasMatchedIt() {
    long late = 50_000_000; // 50 µs
    int[] sizes = {0, 8, 4000, 20_000};
    for (int[] placement : new int[][] {{2, 60}, {7, 7}}) {
      MpiJob job = MpiJob.builder(MpiTesting.smallSystem(2)).placement(placement).build();
      List<long[]> returned = new ArrayList<>();
      long[] posted = new long[sizes.length];
      List<byte[]> got = new ArrayList<>();
      job.run(mpi -> {
        for (int k = 0; k < sizes.length; k++) {
          mpi.barrier(mpi.world());
          if (mpi.rank() == 0) {
            if (k % 2 == 0) {
              mpi.ssend(pattern(k, sizes[k]), 0, sizes[k], 1, k, mpi.world());
            } else {
              mpi.wait(mpi.issend(pattern(k, sizes[k]), 0, sizes[k], 1, k, mpi.world()));
            }
            long t1 = mpi.now();
            mpi.send(pattern(k, 8), 0, 8, 1, 100 + k, mpi.world());
            returned.add(new long[] {t1, mpi.now() - t1});
          } else {
            mpi.compute(late);
            byte[] b = new byte[sizes[k]];
            posted[k] = mpi.now(); // (both ranks' clocks are the simulation's: the times compare)
            mpi.recv(b, 0, b.length, 0, k, mpi.world());
            got.add(b);
            mpi.compute(late);
            mpi.recv(new byte[8], 0, 8, 0, 100 + k, mpi.world());
          }
        }
      });
      for (int k = 0; k < sizes.length; k++) {
        assertThat(got.get(k)).isEqualTo(pattern(k, sizes[k]));
        assertThat(returned.get(k)[0]).as("ssend of %s bytes on %s", sizes[k], java.util.Arrays.toString(placement))
            .isGreaterThan(posted[k]);
        assertThat(returned.get(k)[1]).as("standard send of 8 bytes after it").isLessThan(late / 10);
      }
    }
  }

  /**
   * A synchronous send takes the protocol a standard send of its length takes (MPICH CH3's {@code MPID_Ssend}): a
   * buffered one (short, eager, on one node) is acknowledged by the receiver when it matches, a rendezvous or
   * single-copy one needs no acknowledgement.
   */
  @Test
  void aSynchronousSendTakesItsLengthsProtocolAndBufferedOnesAreAcknowledged() {
    record Case(int[] placement, int size, Protocol protocol, long acks) {}
    List<Case> cases = List.of(new Case(new int[] {2, 60}, 8, Protocol.SHORT, 1),
        new Case(new int[] {2, 60}, 4000, Protocol.EAGER, 1),
        new Case(new int[] {2, 60}, 20_000, Protocol.RENDEZVOUS, 0),
        new Case(new int[] {7, 7}, 4000, Protocol.SHARED_MEMORY, 1),
        new Case(new int[] {7, 7}, 20_000, Protocol.SINGLE_COPY, 0));
    for (Case c : cases) {
      MpiJob job = MpiJob.builder(MpiTesting.smallSystem(2)).placement(c.placement()).build();
      job.run(mpi -> {
        if (mpi.rank() == 0) {
          mpi.ssend(pattern(1, c.size()), 0, c.size(), 1, 3, mpi.world());
        } else {
          byte[] b = new byte[c.size()];
          mpi.recv(b, 0, b.length, 0, 3, mpi.world());
          assertThat(b).isEqualTo(pattern(1, c.size()));
        }
      });
      long before = job.messages(c.protocol());
      assertThat(before).as("%s", c).isPositive();
      assertThat(job.synchronousAcknowledgements()).as("%s", c).isEqualTo(c.acks());
    }
  }

  /**
   * A synchronous send to the rank itself completes when a receive matches it (MPICH's self-send of type SSEND): an
   * issend completes once the irecv is posted, and a blocking ssend with no receive fails the rank (MpiSelfSendTest).
   */
  @Test
  void aSynchronousSendToItselfCompletesOnlyWhenMatched() {
    MpiJob job = twoRanks(4);
    job.run(mpi -> {
      Request s = mpi.issend(pattern(2, 100), 0, 100, mpi.rank(), 8, mpi.world());
      mpi.compute(1_000_000);
      assertThat(mpi.test(s)).isFalse();
      byte[] b = new byte[100];
      mpi.recv(b, 0, 100, mpi.rank(), 8, mpi.world());
      assertThat(b).isEqualTo(pattern(2, 100));
      assertThat(mpi.test(s)).isTrue();
    });
    assertThat(job.synchronousAcknowledgements()).isEqualTo(2);
    assertThatThrownBy(() -> twoRanks(5).run(mpi -> mpi.ssend(new byte[4], 0, 4, mpi.rank(), 1, mpi.world())))
        .isInstanceOf(ProcessRunner.ProcessFailedException.class)
        .hasMessageContaining("DEADLOCK: MPI_Ssend to itself (tag 1 on the world communicator)");
  }

  /**
   * {@code MPI_Cancel}: a receive no message has matched is taken back (it completes as cancelled, with no status,
   * and no longer matches anything: the message it would have taken goes to the next receive); a matched receive and
   * a send complete normally; another rank's request is refused in one line.
   */
  @Test
  void cancellingAnUnmatchedReceiveTakesItBack() {
    MpiJob job = twoRanks(6);
    List<Object> seen = new ArrayList<>();
    job.run(mpi -> {
      if (mpi.rank() == 1) {
        Request wild = mpi.irecv(new byte[64], 0, 64, Mpi.ANY_SOURCE, 5, mpi.world());
        mpi.cancel(wild);
        assertThat(wild.isComplete()).isTrue();
        assertThat(mpi.wait(wild)).isNull();
        seen.add(wild.isCancelled());
        mpi.barrier(mpi.world());
        byte[] b = new byte[64];
        MpiStatus st = mpi.recv(b, 0, 64, 0, 5, mpi.world());
        seen.add(st.count());
        seen.add(b[3]);
        Request matched = mpi.irecv(new byte[8], 0, 8, 0, 6, mpi.world());
        while (!mpi.test(matched)) {
          mpi.compute(100_000);
        }
        mpi.cancel(matched); // too late: it completed with its message
        seen.add(matched.isCancelled());
        seen.add(matched.status().count());
      } else {
        mpi.barrier(mpi.world());
        mpi.send(pattern(4, 64), 0, 64, 1, 5, mpi.world());
        Request s = mpi.isend(pattern(5, 8), 0, 8, 1, 6, mpi.world());
        mpi.cancel(s); // a short send is complete as it is sent: nothing to take back
        mpi.wait(s);
        seen.add(s.isCancelled());
      }
    });
    assertThat(seen).containsExactlyInAnyOrder(true, 64, pattern(4, 64)[3], false, 8, false);
    Request[] other = new Request[1];
    assertThatThrownBy(() -> twoRanks(7).run(mpi -> {
      if (mpi.rank() == 0) {
        other[0] = mpi.irecv(new byte[4], 0, 4, 1, 1, mpi.world());
      }
      mpi.barrier(mpi.world());
      if (mpi.rank() == 1) {
        mpi.cancel(other[0]);
      }
    })).hasStackTraceContaining("request must be one this rank made but was rank 0's");
  }

  /**
   * MPICH CH3's send cancellation: a rendezvous (or, on one node, single-copy) send that no receive has matched is
   * taken back by the receiver, once it makes progress (here a probe's pass), and completes as cancelled; the next message of the same tag
   * goes to the receive that would have taken it, and nothing else arrives. One already matched completes normally
   * with its data; so does a short send (complete as it is sent). A synchronous send to the rank itself is taken back
   * at once.
   */
  @Test
  void cancellingARendezvousSendNoReceiveMatchedTakesItBack() {
    for (int[] placement : new int[][] {{2, 60}, {2, 2}}) { // between nodes (rendezvous), on one node (single copy)
      List<Object> seen = new ArrayList<>();
      MpiJob job = MpiJob.builder(MpiTesting.smallSystem(8)).placement(placement).build();
      job.run(mpi -> {
        if (mpi.rank() == 0) {
          Request big = mpi.isend(pattern(1, 100_000), 0, 100_000, 1, 7, mpi.world());
          mpi.cancel(big);
          mpi.wait(big); // until the receiver, computing 30 us, has answered
          seen.add(big.isCancelled());
          seen.add(mpi.now() > 30_000_000);
          mpi.send(pattern(2, 40), 0, 40, 1, 7, mpi.world());
          mpi.barrier(mpi.world());
          Request late = mpi.isend(pattern(3, 100_000), 0, 100_000, 1, 8, mpi.world());
          mpi.barrier(mpi.world()); // the receiver has posted its receive: the cancel comes too late
          mpi.cancel(late);
          mpi.wait(late);
          seen.add(late.isCancelled());
          Request self = mpi.issend(pattern(4, 16), 0, 16, 0, 9, mpi.world());
          mpi.cancel(self);
          mpi.wait(self);
          seen.add(self.isCancelled());
          seen.add(mpi.iprobe(0, 9, mpi.world()) == null);
        } else {
          mpi.compute(30_000_000);
          // a progress pass takes the request-to-send and the cancellation behind it (a receive posted first would
          // have matched the message before the cancellation was read, and MPICH's would too)
          seen.add(mpi.iprobe(0, 99, mpi.world()) == null);
          byte[] b = new byte[100_000];
          MpiStatus st = mpi.recv(b, 0, b.length, 0, 7, mpi.world());
          seen.add(st.count());
          seen.add(Arrays.equals(Arrays.copyOf(b, 40), pattern(2, 40)));
          Request r = mpi.irecv(b, 0, b.length, 0, 8, mpi.world());
          mpi.barrier(mpi.world());
          mpi.barrier(mpi.world());
          mpi.wait(r);
          seen.add(Arrays.equals(b, pattern(3, 100_000)));
          seen.add(mpi.iprobe(0, Mpi.ANY_TAG, mpi.world()) == null);
        }
      });
      assertThat(seen).as("placement %s", Arrays.toString(placement))
          .containsExactlyInAnyOrder(true, true, true, 40, true, false, true, true, true, true);
    }
  }

  /**
   * A synchronous send of a buffered protocol (short, or eager with its data fetched into the receiver's buffer) that
   * the receiver holds unmatched is taken back too, and the receiver gives its buffer back; the cancellation of one
   * whose data is still on its way fails, as its message stays.
   */
  @Test
  void cancellingAnUnmatchedSynchronousBufferedSendTakesItBack() {
    List<Object> seen = new ArrayList<>();
    MpiJob job = twoRanks(9);
    job.run(mpi -> {
      if (mpi.rank() == 0) {
        Request eager = mpi.issend(pattern(1, 4000), 0, 4000, 1, 11, mpi.world());
        Request small = mpi.issend(pattern(2, 16), 0, 16, 1, 10, mpi.world());
        mpi.compute(20_000_000); // the receiver has taken both in, and fetched the eager data, by now
        mpi.cancel(eager);
        mpi.cancel(small);
        mpi.waitall(eager, small);
        seen.add(eager.isCancelled());
        seen.add(small.isCancelled());
      } else {
        mpi.compute(10_000_000);
        seen.add(mpi.iprobe(0, 99, mpi.world()) == null); // takes both messages in, unmatched
        mpi.compute(20_000_000);
        seen.add(mpi.iprobe(0, 99, mpi.world()) == null); // the cancellations: both taken back
        seen.add(mpi.iprobe(0, Mpi.ANY_TAG, mpi.world()) == null);
      }
    });
    assertThat(seen).containsExactlyInAnyOrder(true, true, true, true, true);
    assertThat(job.synchronousAcknowledgements()).isZero();
  }

  /**
   * A buffered send ({@code MPI_Bsend}) returns once its data is in the attached buffer, whatever the receiver does:
   * two ranks that each bsend a rendezvous-sized message before receiving do not deadlock (with standard sends they
   * would), the bsend returns long before the receiver, 50 µs late, posts, and detaching the buffer waits for the
   * sends to go.
   */
  @Test
  void aBufferedSendReturnsAtOnceAndDetachWaitsForItToGo() {
    long late = 50_000_000;
    int n = 20_000;
    MpiJob job = twoRanks(8);
    long[][] t = new long[2][3];
    job.run(mpi -> {
      int other = 1 - mpi.rank();
      mpi.bufferAttach(n + Mpi.BSEND_OVERHEAD);
      long t0 = mpi.now();
      mpi.bsend(pattern(mpi.rank(), n), 0, n, other, 1, mpi.world());
      t[mpi.rank()][0] = mpi.now() - t0;
      if (mpi.rank() == 1) {
        mpi.compute(late);
      }
      byte[] b = new byte[n];
      t[mpi.rank()][1] = mpi.now();
      mpi.recv(b, 0, n, other, 1, mpi.world());
      assertThat(b).isEqualTo(pattern(other, n));
      assertThat(mpi.bufferDetach()).isEqualTo(n + Mpi.BSEND_OVERHEAD);
      t[mpi.rank()][2] = mpi.now();
    });
    assertThat(t[0][0]).as("rank 0's bsend").isLessThan(late / 10);
    assertThat(t[1][0]).as("rank 1's bsend").isLessThan(late / 10);
    assertThat(t[0][2]).as("rank 0's detach, after rank 1 posted its receive").isGreaterThan(t[1][1]);
  }

  /**
   * MPI_ERR_BUFFER, in one line each: a buffered send the attached buffer has no room for (its length plus
   * MPI_BSEND_OVERHEAD; the space of completed sends comes back first), none attached, two attaches, a detach of
   * nothing.
   */
  @Test
  void bufferedSendsWithoutRoomAreRefusedAndSpaceComesBack() {
    MpiJob job = twoRanks(9);
    List<String> refused = new ArrayList<>();
    job.run(mpi -> {
      if (mpi.rank() == 0) {
        mpi.bufferAttach(2 * (100 + Mpi.BSEND_OVERHEAD));
        for (int i = 0; i < 5; i++) {
          mpi.bsend(new byte[100], 0, 100, 1, 2, mpi.world()); // short: each is gone at once, its space back
        }
        mpi.bufferDetach();
        mpi.bufferAttach(2 * (20_000 + Mpi.BSEND_OVERHEAD));
        mpi.bsend(new byte[20_000], 0, 20_000, 1, 3, mpi.world());
        mpi.bsend(new byte[20_000], 0, 20_000, 1, 3, mpi.world());
        for (Runnable r : new Runnable[] {
            () -> mpi.bsend(new byte[20_000], 0, 20_000, 1, 3, mpi.world()),
            () -> mpi.bufferAttach(10)}) {
          try {
            r.run();
          } catch (IllegalStateException e) {
            refused.add(e.getMessage());
          }
        }
        mpi.bufferDetach();
        for (Runnable r : new Runnable[] {
            () -> mpi.bsend(new byte[8], 0, 8, 1, 4, mpi.world()),
            () -> mpi.bufferDetach()}) {
          try {
            r.run();
          } catch (IllegalStateException e) {
            refused.add(e.getMessage());
          }
        }
      } else {
        for (int i = 0; i < 5; i++) {
          mpi.recv(new byte[100], 0, 100, 0, 2, mpi.world());
        }
        mpi.compute(10_000_000);
        mpi.recv(new byte[20_000], 0, 20_000, 0, 3, mpi.world());
        mpi.recv(new byte[20_000], 0, 20_000, 0, 3, mpi.world());
      }
    });
    assertThat(refused).containsExactly(
        "MPI_ERR_BUFFER at rank 0: a buffered send of 20000 bytes needs 20096 bytes of attached buffer (its length plus"
            + " MPI_BSEND_OVERHEAD, 96) but only 0 of the 40192 attached are free",
        "MPI_ERR_BUFFER at rank 0: a buffer of 40192 bytes is already attached (detach it first)",
        "MPI_ERR_BUFFER at rank 0: a buffered send of 8 bytes needs 104 bytes of attached buffer (its length plus"
            + " MPI_BSEND_OVERHEAD, 96) but no buffer is attached",
        "MPI_ERR_BUFFER at rank 0: no buffer is attached to detach");
  }

  @Test
  void messagesOfEveryProtocolArriveByteExactly() {
    MpiJob job = twoRanks(1);
    int[] sizes = {0, 1, 8, 1000, 1024, 1025, 4000, 8192, 8193, 65_536, 300_001};
    List<byte[]> got = new ArrayList<>();
    job.run(mpi -> {
      for (int k = 0; k < sizes.length; k++) {
        if (mpi.rank() == 0) {
          mpi.send(pattern(k, sizes[k]), 1, k);
        } else {
          byte[] b = new byte[sizes[k]];
          MpiStatus s = mpi.recv(b, 0, k);
          assertThat(s).isEqualTo(new MpiStatus(0, k, sizes[k]));
          got.add(b);
        }
      }
    });
    for (int k = 0; k < sizes.length; k++) {
      assertThat(got.get(k)).as("message of %s bytes", sizes[k]).isEqualTo(pattern(k, sizes[k]));
    }
    // five short ones, plus one zero-byte message each way in the finalize barrier
    assertThat(job.messages(Protocol.SHORT)).isEqualTo(5 + 2);
    assertThat(job.messages(Protocol.EAGER)).isEqualTo(3);
    assertThat(job.messages(Protocol.RENDEZVOUS)).isEqualTo(3);
    assertThat(job.bytesSent()).isEqualTo(Arrays.stream(sizes).asLongStream().sum());
  }

  @Test
  void messagesFromOneSenderMatchInSendOrderWhateverTheirProtocol() {
    // Non-overtaking: a rendezvous message sent first is matched first even though the short ones behind it
    // are complete long before its data moves.
    MpiJob job = twoRanks(2);
    int[] sizes = {50_000, 16, 3000, 20_000, 8, 8, 9000, 100};
    int[] tagsSeen = new int[sizes.length];
    int[] lengths = new int[sizes.length];
    job.run(mpi -> {
      if (mpi.rank() == 0) {
        List<Request> rs = new ArrayList<>();
        for (int k = 0; k < sizes.length; k++) {
          rs.add(mpi.isend(pattern(k, sizes[k]), 0, sizes[k], 1, 100 + k, mpi.world()));
        }
        mpi.waitall(rs.toArray(new Request[0]));
      } else {
        mpi.compute(30_000_000); // let everything arrive first: all of it is unexpected
        for (int k = 0; k < sizes.length; k++) {
          byte[] b = new byte[60_000];
          MpiStatus s = mpi.recv(b, 0, b.length, 0, Mpi.ANY_TAG, mpi.world());
          tagsSeen[k] = s.tag();
          lengths[k] = s.count();
          assertThat(Arrays.copyOf(b, s.count())).isEqualTo(pattern(k, sizes[k]));
        }
      }
    });
    assertThat(tagsSeen).containsExactly(100, 101, 102, 103, 104, 105, 106, 107);
    assertThat(lengths).containsExactly(sizes);
    // The first receive is posted before the progress engine has read the mailbox, so it is expected; the seven
    // others (and possibly finalize's barrier message) are unexpected.
    assertThat(job.unexpectedMessages()).isBetween((long) sizes.length - 1, (long) sizes.length + 1);
  }

  @Test
  void aReceiveTakesTheEarliestMessageItAcceptsAndSkipsOthers() {
    MpiJob job = twoRanks(3);
    int[] order = new int[3];
    job.run(mpi -> {
      if (mpi.rank() == 0) {
        mpi.send(new byte[] {1}, 1, 7);
        mpi.send(new byte[] {2}, 1, 8);
        mpi.send(new byte[] {3}, 1, 7);
      } else {
        mpi.compute(10_000_000);
        byte[] b = new byte[1];
        mpi.recv(b, 0, 8);
        order[0] = b[0];
        mpi.recv(b, 0, 7);
        order[1] = b[0];
        mpi.recv(b, Mpi.ANY_SOURCE, Mpi.ANY_TAG);
        order[2] = b[0];
      }
    });
    assertThat(order).containsExactly(2, 1, 3);
  }

  @Test
  void postedReceivesMatchInPostOrderAndWildcardsAcceptAnySender() {
    MpiJob job = MpiJob.builder(MpiTesting.smallSystem(4)).nodes(1, 30, 70).build();
    MpiStatus[] st = new MpiStatus[3];
    byte[][] data = new byte[3][4];
    job.run(mpi -> {
      var w = mpi.world();
      if (mpi.rank() == 0) {
        Request a = mpi.irecv(data[0], 0, 4, Mpi.ANY_SOURCE, 5, w);
        Request b = mpi.irecv(data[1], 0, 4, Mpi.ANY_SOURCE, Mpi.ANY_TAG, w);
        Request c = mpi.irecv(data[2], 0, 4, 2, Mpi.ANY_TAG, w);
        mpi.waitall(a, b, c);
        st[0] = a.status();
        st[1] = b.status();
        st[2] = c.status();
      } else if (mpi.rank() == 1) {
        mpi.send(new byte[] {11}, 0, 5);
        mpi.compute(5_000_000); // rank 1's message reaches rank 0 long before rank 2's
        mpi.send(new byte[0], 2, 0);
      } else {
        mpi.recv(new byte[0], 1, 0);
        mpi.send(new byte[] {21, 22}, 0, 9);
        mpi.send(new byte[] {23, 24, 25}, 0, 5);
      }
    });
    // rank 1's message (tag 5) goes to the first receive; rank 2's tag 9 to the second (ANY_TAG), its tag 5 to the
    // third (source 2): the first receive is already taken.
    assertThat(st[0]).isEqualTo(new MpiStatus(1, 5, 1));
    assertThat(st[1]).isEqualTo(new MpiStatus(2, 9, 2));
    assertThat(st[2]).isEqualTo(new MpiStatus(2, 5, 3));
    assertThat(data[2][2]).isEqualTo((byte) 25);
  }

  @Test
  void probeReportsTheMessageTheNextReceiveGets() {
    MpiJob job = twoRanks(5);
    MpiStatus[] seen = new MpiStatus[4];
    job.run(mpi -> {
      var w = mpi.world();
      if (mpi.rank() == 0) {
        mpi.send(pattern(1, 5000), 1, 42);
        mpi.send(pattern(2, 12), 1, 43);
      } else {
        seen[0] = mpi.iprobe(0, 43, w); // nothing has arrived at time 0
        seen[1] = mpi.probe(Mpi.ANY_SOURCE, Mpi.ANY_TAG, w);
        byte[] b = new byte[seen[1].count()];
        seen[2] = mpi.recv(b, 0, b.length, seen[1].source(), seen[1].tag(), w);
        assertThat(b).isEqualTo(pattern(1, 5000));
        seen[3] = mpi.probe(0, 43, w);
        mpi.recv(new byte[12], 0, 43);
      }
    });
    assertThat(seen[0]).isNull();
    assertThat(seen[1]).isEqualTo(new MpiStatus(0, 42, 5000));
    assertThat(seen[2]).isEqualTo(seen[1]);
    assertThat(seen[3]).isEqualTo(new MpiStatus(0, 43, 12));
  }

  /**
   * A null request is MPI_REQUEST_NULL, and waitany deactivates the request it returns (sets it to null in the
   * array), so MPI's idiom of calling it once per request handles each request once. Before, a null was refused and
   * a loop of waitany returned the first completed request every time.
   */
  @Test
  void waitanyDeactivatesWhatItReturnsAndNullsAreRequestNull() {
    MpiJob job = twoRanks(12);
    List<Integer> order = new ArrayList<>();
    int[] afterAll = {0};
    job.run(mpi -> {
      var w = mpi.world();
      if (mpi.rank() == 0) {
        for (int tag : new int[] {2, 0, 1}) {
          mpi.compute(20_000_000); // 20 us apart: each arrives alone
          mpi.send(new byte[8], 1, tag);
        }
        mpi.waitall(null, mpi.isend(new byte[4], 0, 4, 1, 7, w), null);
      } else {
        Request[] rs = new Request[3];
        for (int tag = 0; tag < 3; tag++) {
          rs[tag] = mpi.irecv(new byte[8], 0, 8, 0, tag, w);
        }
        for (int i = 0; i < 3; i++) {
          order.add(mpi.waitany(rs));
        }
        assertThat(rs).containsOnlyNulls();
        afterAll[0] = mpi.waitany(rs);
        mpi.waitall(rs); // every entry MPI_REQUEST_NULL: returns at once
        mpi.recv(new byte[4], 0, 7);
      }
    });
    assertThat(order).containsExactly(2, 0, 1);
    assertThat(afterAll[0]).isEqualTo(Mpi.UNDEFINED);
  }

  /** A receive's status is null until the receive completes, as its javadoc says, not from the match on. */
  @Test
  void aReceivesStatusIsNullUntilItCompletes() {
    MpiJob job = twoRanks(13);
    int size = 100_000; // rendezvous: matched at once, the data still to be fetched
    Object[] seen = new Object[3];
    job.run(mpi -> {
      if (mpi.rank() == 0) {
        mpi.send(new byte[size], 1, 3);
      } else {
        mpi.compute(20_000_000); // the request-to-send is here by now, unexpected
        Request r = mpi.irecv(new byte[size], 0, size, 0, 3, mpi.world());
        seen[0] = r.isComplete();
        seen[1] = r.status();
        mpi.wait(r);
        seen[2] = r.status();
      }
    });
    assertThat(seen[0]).isEqualTo(false);
    assertThat(seen[1]).isNull();
    assertThat(seen[2]).isEqualTo(new MpiStatus(0, 3, size));
  }

  @Test
  void waitanyReturnsTheFirstCompletedAndTestMakesProgress() {
    MpiJob job = twoRanks(6);
    int[] which = {-1};
    boolean[] testedEarly = {true};
    int[] polls = {0};
    job.run(mpi -> {
      var w = mpi.world();
      if (mpi.rank() == 0) {
        mpi.compute(5_000_000);
        mpi.send(new byte[8], 1, 2);
      } else {
        Request a = mpi.irecv(new byte[8], 0, 8, 0, 1, w);
        Request b = mpi.irecv(new byte[8], 0, 8, 0, 2, w);
        testedEarly[0] = mpi.test(b);
        which[0] = mpi.waitany(a, b);
        Request c = mpi.irecv(new byte[8], 0, 8, 0, 3, w);
        while (!mpi.test(c)) {
          polls[0]++;
          mpi.compute(100_000);
        }
        assertThat(a.isComplete()).isFalse();
        mpi.send(new byte[0], 0, 9);
        mpi.wait(a);
      }
      if (mpi.rank() == 0) {
        mpi.compute(5_000_000); // rank 1 polls with test meanwhile: only test's progress lets it see tag 3
        mpi.send(new byte[8], 1, 3);
        mpi.recv(new byte[0], 1, 9);
        mpi.send(new byte[8], 1, 1);
      }
    });
    assertThat(testedEarly[0]).isFalse();
    assertThat(which[0]).isEqualTo(1);
    assertThat(polls[0]).isPositive();
  }

  @Test
  void sendrecvRingDoesNotDeadlockWithRendezvousMessages() {
    int n = 5;
    MpiJob job = MpiTesting.job(MpiTesting.smallSystem(7), n, MpiConfig.defaults());
    byte[][] got = new byte[n][];
    job.run(mpi -> {
      var w = mpi.world();
      int r = mpi.rank();
      byte[] in = new byte[40_000];
      mpi.sendrecv(pattern(r, 40_000), 0, 40_000, (r + 1) % n, 0, in, 0, in.length, (r - 1 + n) % n, 0, w);
      got[r] = in;
    });
    for (int r = 0; r < n; r++) {
      assertThat(got[r]).isEqualTo(pattern((r - 1 + n) % n, 40_000));
    }
  }

  @Test
  void splitAndDupMakeSeparateMessageSpaces() {
    int n = 7;
    MpiJob job = MpiTesting.job(MpiTesting.smallSystem(8), n, MpiConfig.defaults());
    int[][] info = new int[n][];
    job.run(mpi -> {
      var w = mpi.world();
      int r = mpi.rank();
      Communicator half = mpi.split(w, r % 2, -r); // reversed order inside each color
      Communicator none = mpi.split(w, r == 3 ? Mpi.UNDEFINED : 0, 0);
      Communicator copy = mpi.dup(half);
      long[] sum = new long[1];
      mpi.allreduce(new long[] {r}, sum, ReduceOp.SUM, half);
      // A message on the copy is not received on the original even with wildcards.
      if (half.rank() == 0) {
        mpi.send(new byte[] {9}, 0, 1, half.size() - 1, 4, copy);
        mpi.send(new byte[] {8}, 0, 1, half.size() - 1, 4, half);
      } else if (half.rank() == half.size() - 1) {
        byte[] b = new byte[1];
        mpi.recv(b, 0, 1, Mpi.ANY_SOURCE, Mpi.ANY_TAG, half);
        assertThat(b[0]).isEqualTo((byte) 8);
        mpi.recv(b, 0, 1, 0, 4, copy);
        assertThat(b[0]).isEqualTo((byte) 9);
      }
      info[r] = new int[] {half.rank(), half.size(), (int) sum[0], none == null ? -1 : none.size(),
          copy.rank(), half.worldRank(0)};
    });
    // evens 0,2,4,6 ordered by key -r: 6,4,2,0; odds 5,3,1
    assertThat(info[0]).containsExactly(3, 4, 12, 6, 3, 6);
    assertThat(info[6]).containsExactly(0, 4, 12, 6, 0, 6);
    assertThat(info[1]).containsExactly(2, 3, 9, 6, 2, 5);
    assertThat(info[3]).containsExactly(1, 3, 9, -1, 1, 5);
  }

  @Test
  void sameSeedGivesIdenticalSimulatedTimes() {
    long[] a = timings(21);
    long[] b = timings(21);
    assertThat(a).isEqualTo(b);
    assertThat(a[0]).isPositive();
  }

  private static long[] timings(long seed) {
    MpiJob job = MpiTesting.job(MpiTesting.smallSystem(seed), 8, MpiConfig.defaults());
    long[] t = new long[9];
    job.run(mpi -> {
      long[] v = new long[600];
      Arrays.fill(v, mpi.rank());
      long[] out = new long[600];
      mpi.allreduce(v, out, ReduceOp.SUM, mpi.world());
      byte[] a2a = new byte[8 * 2000];
      mpi.alltoall(a2a, new byte[a2a.length], mpi.world());
      t[mpi.rank()] = mpi.now();
    });
    t[8] = job.lastRunPs();
    return t;
  }

  @Test
  void aTooSmallReceiveFailsWithTruncate() {
    MpiJob job = twoRanks(9);
    assertThatThrownBy(() -> job.run(mpi -> {
      if (mpi.rank() == 0) {
        mpi.send(new byte[100], 1, 0);
      } else {
        mpi.recv(new byte[10], 0, 0);
      }
    })).isInstanceOf(ProcessRunner.ProcessFailedException.class).hasStackTraceContaining("MPI_ERR_TRUNCATE");
  }

  /** A failed run leaves barriers and posted receives half done: the job refuses another run, saying why. */
  @Test
  void aJobWhoseRunFailedRefusesToRunAgain() {
    MpiJob job = twoRanks(11);
    assertThatThrownBy(() -> job.run(mpi -> mpi.recv(new byte[4], 1 - mpi.rank(), 3)))
        .hasMessageContaining("deadlocked");
    assertThatThrownBy(() -> job.run(mpi -> mpi.barrier(mpi.world())))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("this job cannot run again: a run of it failed (MPI program deadlocked:")
        .hasMessageContaining("build a new MpiJob");
    MpiJob fresh = MpiJob.builder(job.system()).nodes(2, 60).build();
    fresh.run(mpi -> mpi.barrier(mpi.world()));
    assertThat(fresh.lastRunPs()).isPositive(); // the system itself is fine: a new job runs
  }

  @Test
  void aDeadlockedProgramIsReportedWithWhatEachRankWaitsFor() {
    MpiJob job = twoRanks(10);
    assertThatThrownBy(() -> job.run(mpi -> mpi.recv(new byte[4], 1 - mpi.rank(), 3)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("deadlocked")
        .hasMessageContaining("rank 0 in its program waits for a receive from world rank 1 (tag 3)");
  }

  @Test
  void anUnreceivedMessageIsReportedAtFinalize() {
    MpiJob job = twoRanks(13);
    assertThatThrownBy(() -> job.run(mpi -> {
      if (mpi.rank() == 0) {
        mpi.send(new byte[50_000], 1, 0); // rendezvous: never matched
      }
    })).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("rank 0 in its program waits for a send to world rank 1 (tag 0)")
        // the receiver has returned: the report says it is in finalize, not in internal traffic
        .hasMessageContaining("rank 1 in finalize on the world communicator (its collective call 0) waits for")
        .hasMessageContaining("1 unexpected messages");
  }

  @Test
  void callerMistakesNameTheParameterAndRange() {
    MpiJob job = twoRanks(11);
    assertThatThrownBy(() -> job.run(mpi -> mpi.send(new byte[4], 5, 0)))
        .hasStackTraceContaining("dest must be in [0, 1] but was 5");
    MpiJob job2 = twoRanks(12);
    assertThatThrownBy(() -> job2.run(mpi -> mpi.send(new byte[4], 1 - mpi.rank(), -2)))
        .hasStackTraceContaining("tag must be in [0, 268435455] but was -2");
    assertThatThrownBy(() -> MpiJob.builder(MpiTesting.smallSystem(1)).ranksPerNode(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ranksPerNode must be in [1, 272]");
    assertThatThrownBy(() -> MpiConfig.builder().shortMaxBytes(9000).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("eagerMaxBytes (8192) can not be below shortMaxBytes (9000)");
  }
}
