package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A program that polls ({@code do MPI_Test(...) while (!flag)}, the same with {@code MPI_Iprobe} or {@code
 * MPI_Win_test}) lets simulated time pass: each check that finds nothing and took no time costs one empty poll,
 * {@code pollIntervalPs}. Before, such a check took no time, the sender never ran and the loop spun for ever; the
 * loops here stop after {@link #GIVE_UP} checks, which the old code reached at simulated time 0.
 */
class MpiPollingTest {

  private static final long GIVE_UP = 1_000_000;
  private static final long SENDER_COMPUTES_PS = 10_000_000; // 10 µs

  private static final int[][] PLACEMENTS = {{2, 60}, {7, 7}}; // two nodes (the NIC), one node (shared memory)

  @Test
  void aTestLoopEndsOnceTheMessageArrivesAndEachEmptyCheckCostsOnePoll() {
    for (int[] placement : PLACEMENTS) {
      MpiJob job = MpiJob.builder(MpiTesting.smallSystem(3)).placement(placement).build();
      long poll = MpiConfig.defaults().pollIntervalPs();
      long[] checks = new long[1];
      long[] endedAt = new long[1];
      byte[] got = new byte[8];
      job.run(mpi -> {
        if (mpi.rank() == 0) {
          mpi.compute(SENDER_COMPUTES_PS);
          mpi.send(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, 0, 8, 1, 1, mpi.world());
        } else {
          Request r = mpi.irecv(got, 0, 8, 0, 1, mpi.world());
          while (!mpi.test(r) && ++checks[0] < GIVE_UP) {
            // poll
          }
          endedAt[0] = mpi.now();
        }
      });
      assertThat(checks[0]).as("checks on %s", Arrays.toString(placement)).isLessThan(GIVE_UP);
      assertThat(got).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
      assertThat(endedAt[0]).isGreaterThan(SENDER_COMPUTES_PS);
      // every empty check took at least one poll, so there were at most as many as fit in the time waited
      assertThat(checks[0]).isPositive().isLessThanOrEqualTo(endedAt[0] / poll);
    }
  }

  @Test
  void anIprobeLoopEndsOnceTheMessageArrives() {
    for (int[] placement : PLACEMENTS) {
      MpiJob job = MpiJob.builder(MpiTesting.smallSystem(3)).placement(placement).build();
      long[] checks = new long[1];
      MpiStatus[] seen = new MpiStatus[1];
      job.run(mpi -> {
        if (mpi.rank() == 0) {
          mpi.compute(SENDER_COMPUTES_PS);
          mpi.send(new byte[40], 0, 40, 1, 9, mpi.world());
        } else {
          while ((seen[0] = mpi.iprobe(0, 9, mpi.world())) == null && ++checks[0] < GIVE_UP) {
            // poll
          }
          if (seen[0] != null) {
            mpi.recv(new byte[40], 0, 40, 0, 9, mpi.world());
          }
        }
      });
      assertThat(checks[0]).as("checks on %s", Arrays.toString(placement)).isPositive().isLessThan(GIVE_UP);
      assertThat(seen[0]).isNotNull();
      assertThat(seen[0].count()).isEqualTo(40);
    }
  }

  @Test
  void aWinTestLoopEndsOnceTheOriginCompletesItsEpoch() {
    for (int[] placement : PLACEMENTS) {
      MpiJob job = MpiJob.builder(MpiTesting.smallSystem(3)).placement(placement).build();
      long[] checks = new long[1];
      byte[] window = new byte[16];
      job.run(mpi -> {
        Window w = mpi.winCreate(mpi.rank() == 0 ? window : new byte[16], 1, mpi.world());
        if (mpi.rank() == 0) {
          mpi.winPost(new int[] {1}, 0, w);
          while (!mpi.winTest(w) && ++checks[0] < GIVE_UP) {
            // poll
          }
          if (checks[0] >= GIVE_UP) {
            mpi.winWait(w);
          }
        } else {
          mpi.compute(SENDER_COMPUTES_PS);
          mpi.winStart(new int[] {0}, 0, w);
          mpi.put(new byte[] {9, 9, 9, 9}, 0, 4, 0, 4, w);
          mpi.winComplete(w);
        }
        mpi.winFree(w);
      });
      assertThat(checks[0]).as("checks on %s", Arrays.toString(placement)).isPositive().isLessThan(GIVE_UP);
      assertThat(Arrays.copyOfRange(window, 4, 8)).containsExactly(9, 9, 9, 9);
    }
  }
  /**
   * {@code testall}, {@code testany} and {@code testsome} make one progress pass for the whole array and cost one
   * empty poll when they find nothing: loops on each end once the two messages (sent 10 and 20 µs in) arrive, with
   * MPI's results (all or nothing; the lowest completed index, its entry cleared; every completed index).
   */
  @Test
  void theArrayTestsMakeOnePassAndLoopsOnThemEnd() {
    for (int[] placement : PLACEMENTS) {
      MpiJob job = MpiJob.builder(MpiTesting.smallSystem(3)).placement(placement).build();
      long[] checks = new long[3];
      int[][] order = new int[2][];
      boolean[] early = new boolean[2];
      job.run(mpi -> {
        for (int round = 0; round < 3; round++) {
          if (mpi.rank() == 0) {
            mpi.compute(SENDER_COMPUTES_PS);
            mpi.send(new byte[8], 0, 8, 1, 2 * round, mpi.world());
            mpi.compute(SENDER_COMPUTES_PS);
            mpi.send(new byte[8], 0, 8, 1, 2 * round + 1, mpi.world());
            continue;
          }
          Request[] rs = {mpi.irecv(new byte[8], 0, 8, 0, 2 * round + 1, mpi.world()), null,
              mpi.irecv(new byte[8], 0, 8, 0, 2 * round, mpi.world())};
          if (round == 0) {
            while (!mpi.testall(rs) && ++checks[0] < GIVE_UP) {
              early[0] |= rs[2].isComplete(); // the first arrived before the second: testall said false then
            }
          } else if (round == 1) {
            int first = Mpi.UNDEFINED;
            while ((first = mpi.testany(rs).index()) == Mpi.UNDEFINED && ++checks[1] < GIVE_UP) {
              // poll
            }
            int second = Mpi.UNDEFINED;
            while ((second = mpi.testany(rs).index()) == Mpi.UNDEFINED && ++checks[1] < GIVE_UP) {
              // poll
            }
            order[0] = new int[] {first, second};
            early[1] = rs[0] == null && rs[2] == null;
          } else {
            int[] got = {};
            java.util.List<Integer> seen = new java.util.ArrayList<>();
            while (seen.size() < 2 && ++checks[2] < GIVE_UP) {
              got = mpi.testsome(rs);
              for (int k : got) {
                seen.add(k);
              }
            }
            order[1] = seen.stream().mapToInt(Integer::intValue).toArray();
          }
        }
      });
      String on = Arrays.toString(placement);
      for (long n : checks) {
        assertThat(n).as("checks on %s", on).isPositive().isLessThan(GIVE_UP);
      }
      assertThat(early[0]).as("testall said false while one was complete, on %s", on).isTrue();
      assertThat(order[0]).as("testany's indices on %s", on).containsExactly(2, 0);
      assertThat(early[1]).as("testany cleared both entries on %s", on).isTrue();
      assertThat(order[1]).as("testsome's indices on %s", on).containsExactly(2, 0);
    }
  }

  /**
   * MPI_Testany's flag and index (MPI 3.1 §3.7.5): a request completed gives flag true and its index; none yet, flag
   * false and UNDEFINED, after one empty poll; no active request (every entry null), flag true and UNDEFINED at once,
   * with no progress pass and no time, as MPICH's {@code MPIR_Testany} returns before its progress call, even with a
   * message waiting for the progress engine. The index was UNDEFINED in both of the last two cases, after a progress
   * pass: a loop on testany until it said done never ended once the array was empty (until stop 70).
   */
  @Test
  void testanyOfNoActiveRequestIsDoneAtOnceAndTellsItFromNoneCompletedYet() {
    for (int[] placement : PLACEMENTS) {
      MpiJob job = MpiJob.builder(MpiTesting.smallSystem(3)).placement(placement).build();
      long poll = MpiConfig.defaults().pollIntervalPs();
      TestanyResult[] seen = new TestanyResult[4];
      long[] took = new long[2];
      long[] loops = new long[1];
      job.run(mpi -> {
        if (mpi.rank() == 0) {
          mpi.send(new byte[8], 0, 8, 1, 1, mpi.world()); // unexpected at rank 1 until it receives
          mpi.compute(SENDER_COMPUTES_PS);
          mpi.send(new byte[8], 0, 8, 1, 2, mpi.world());
          return;
        }
        mpi.compute(SENDER_COMPUTES_PS / 2); // the first message has arrived, its progress not made
        Request[] none = {null, null};
        long t0 = mpi.now();
        seen[0] = mpi.testany(none);
        took[0] = mpi.now() - t0;
        Request[] rs = {null, mpi.irecv(new byte[8], 0, 8, 0, 2, mpi.world())};
        t0 = mpi.now();
        seen[1] = mpi.testany(rs); // the second message is 5 µs away
        took[1] = mpi.now() - t0;
        TestanyResult r;
        while (!(r = mpi.testany(rs)).flag() && ++loops[0] < GIVE_UP) {
          // poll
        }
        seen[2] = r;
        seen[3] = mpi.testany(rs); // its entry was cleared: no active request, done
        mpi.recv(new byte[8], 0, 8, 0, 1, mpi.world());
      });
      String on = Arrays.toString(placement);
      assertThat(seen[0]).as(on).isEqualTo(TestanyResult.NO_ACTIVE_REQUEST)
          .isEqualTo(new TestanyResult(true, Mpi.UNDEFINED));
      assertThat(took[0]).as("no progress pass, no poll, on %s", on).isZero();
      assertThat(seen[1]).as(on).isEqualTo(TestanyResult.NONE_COMPLETED)
          .isEqualTo(new TestanyResult(false, Mpi.UNDEFINED));
      assertThat(took[1]).as(on).isGreaterThanOrEqualTo(poll);
      assertThat(loops[0]).as(on).isLessThan(GIVE_UP);
      assertThat(seen[2]).as(on).isEqualTo(TestanyResult.completed(1));
      assertThat(seen[3]).as(on).isEqualTo(TestanyResult.NO_ACTIVE_REQUEST);
    }
  }

  /**
   * MPI_Testsome's outcount (MPI 3.1 §3.7.5): the completed indices; none yet, an empty array after one empty poll; no
   * active request (every entry null, or no entry), {@code MPI_UNDEFINED}, here null, at once with no progress pass and
   * no time, as testany and MPICH's {@code MPIR_Testsome}, even with a message waiting for the progress engine. It gave
   * an empty array after a progress pass, the answer for none completed yet (until stop 71).
   */
  @Test
  void testsomeOfNoActiveRequestIsUndefinedAtOnceAndTellsItFromNoneCompletedYet() {
    for (int[] placement : PLACEMENTS) {
      MpiJob job = MpiJob.builder(MpiTesting.smallSystem(3)).placement(placement).build();
      long poll = MpiConfig.defaults().pollIntervalPs();
      int[][] seen = new int[5][];
      long[] took = new long[3];
      long[] loops = new long[1];
      job.run(mpi -> {
        if (mpi.rank() == 0) {
          mpi.send(new byte[8], 0, 8, 1, 1, mpi.world()); // unexpected at rank 1 until it receives
          mpi.compute(SENDER_COMPUTES_PS);
          mpi.send(new byte[8], 0, 8, 1, 2, mpi.world());
          return;
        }
        mpi.compute(SENDER_COMPUTES_PS / 2); // the first message has arrived, its progress not made
        long t0 = mpi.now();
        seen[0] = mpi.testsome(null, null);
        took[0] = mpi.now() - t0;
        t0 = mpi.now();
        seen[1] = mpi.testsome();
        took[1] = mpi.now() - t0;
        Request[] rs = {null, mpi.irecv(new byte[8], 0, 8, 0, 2, mpi.world())};
        t0 = mpi.now();
        seen[2] = mpi.testsome(rs); // the second message is 5 µs away
        took[2] = mpi.now() - t0;
        int[] got;
        while ((got = mpi.testsome(rs)) != null && got.length == 0 && ++loops[0] < GIVE_UP) {
          // poll
        }
        seen[3] = got;
        seen[4] = mpi.testsome(rs); // its entry was cleared: no active request
        mpi.recv(new byte[8], 0, 8, 0, 1, mpi.world());
      });
      String on = Arrays.toString(placement);
      assertThat(seen[0]).as("every entry null, on %s", on).isNull();
      assertThat(seen[1]).as("no entry, on %s", on).isNull();
      assertThat(took[0]).as("no progress pass, no poll, on %s", on).isZero();
      assertThat(took[1]).as("no progress pass, no poll, on %s", on).isZero();
      assertThat(seen[2]).as("none completed yet, on %s", on).isNotNull().isEmpty();
      assertThat(took[2]).as(on).isGreaterThanOrEqualTo(poll);
      assertThat(loops[0]).as(on).isLessThan(GIVE_UP);
      assertThat(seen[3]).as(on).containsExactly(1);
      assertThat(seen[4]).as(on).isNull();
    }
  }
}
