package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.network.Dragonfly;
import io.github.ariesmodel.system.FabricKind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Several jobs of one system at once ({@link MpiJob#together()}): jobs that share nothing take the time each takes
 * alone, a job sharing links with a loaded background job takes longer, a background job stops where the foreground
 * ends, the results are the same for every engine thread count, and misuse is refused in one line.
 */
class MpiJobsTogetherTest {

  private static final String TOPOLOGY = "canonical:p=2,a=4,h=2"; // 9 groups of 4 routers, 72 nodes

  /** A program with every protocol and a collective: a ring of short, eager and rendezvous messages, then allreduce. */
  private static final MpiProgram WORK = mpi -> {
    int r = mpi.rank();
    int n = mpi.size();
    for (int size : new int[] {8, 3000, 40_000, 200_000}) {
      for (int i = 0; i < 3; i++) {
        byte[] in = new byte[size];
        Request rr = mpi.irecv(in, 0, size, (r + n - 1) % n, i, mpi.world());
        mpi.send(new byte[size], 0, size, (r + 1) % n, i, mpi.world());
        mpi.wait(rr);
      }
    }
    long[] sum = new long[16];
    mpi.allreduce(new long[16], sum, ReduceOp.SUM, mpi.world());
  };

  /**
   * Runs the system's clock on to {@code atPs} with an event that does nothing: a program's own compute may not end
   * there (it ends at most {@code AriesSystem.PROGRAM_CLOCK_END_PS}, 10^15 ps before the clock's end, since stop 72).
   */
  private static void runClockTo(AriesSystem sys, long atPs) {
    sys.loop().scheduleAt(atPs, (nowPs, ref, arg) -> { }, null, 0);
    sys.loop().run();
  }

  private static AriesSystem system(FabricKind fabric, int threads) {
    return system(fabric, threads, AriesSystem.Builder.BY_DELIVERY_MODE);
  }

  private static AriesSystem system(FabricKind fabric, int threads, String routing) {
    AriesSystem.Builder b = AriesSystem.builder().system(TOPOLOGY).fabric(fabric).seed(5);
    if (fabric == FabricKind.ROUTERS) {
      b.routing(routing);
    }
    if (threads > 0) {
      b.threads(threads);
    }
    return b.build();
  }

  /**
   * A background of 5,000 uniform steps 1 us apart: at least 5 ms of simulated time, five times the 1 ms within which
   * the deadlock watch must stop a run beside it (a new program for each run: it keeps the cycles of its steps).
   */
  private static SyntheticTraffic outlasting() {
    return SyntheticTraffic.uniform(4096, 1_000_000, 5_000, 1);
  }

  private static int[] range(int from, int count) {
    int[] n = new int[count];
    for (int i = 0; i < count; i++) {
      n[i] = from + i;
    }
    return n;
  }

  /**
   * Nodes spread over the 9 groups in turn (nodes are group-major, 8 a group), from the given node of each group.
   *
   * @param count how many
   * @param first the first node of each group to take (then the ones after it)
   */
  private static int[] acrossGroups(int count, int first) {
    int[] n = new int[count];
    for (int i = 0; i < count; i++) {
      n[i] = (i % 9) * 8 + first + i / 9;
    }
    return n;
  }

  private static long alone(FabricKind fabric, int[] nodes, MpiProgram program) {
    AriesSystem sys = system(fabric, 0);
    MpiJob job = MpiJob.builder(sys).nodes(nodes).build();
    job.run(program);
    return job.lastRunPs();
  }

  private static long bytesAlone(int[] nodes) {
    MpiJob job = MpiJob.builder(system(FabricKind.IDEAL, 0)).nodes(nodes).build();
    job.run(WORK);
    return job.bytesSent();
  }

  @Test
  void jobsThatShareNothingTakeTheTimeEachTakesAlone() {
    // an ideal network has no links to share: two jobs on their own nodes cannot disturb each other
    int[] a = range(0, 8);
    int[] b = range(20, 6);
    AriesSystem sys = system(FabricKind.IDEAL, 0);
    MpiJob ja = MpiJob.builder(sys).nodes(a).build();
    MpiJob jb = MpiJob.builder(sys).nodes(b).build();
    MpiJob.together().job(ja, WORK).job(jb, WORK).run();
    assertThat(ja.lastRunPs()).isEqualTo(alone(FabricKind.IDEAL, a, WORK)).isPositive();
    assertThat(jb.lastRunPs()).isEqualTo(alone(FabricKind.IDEAL, b, WORK));
    long aBytes = ja.bytesSent();
    long bBytes = jb.bytesSent();
    assertThat(aBytes).isEqualTo(bytesAlone(a));
    assertThat(bBytes).isEqualTo(bytesAlone(b));
  }

  @Test
  void aJobSharingLinksWithALoadedBackgroundTakesLongerAndTheBackgroundStopsWhereItEnds() {
    // the foreground spreads over groups 0-3 (nodes are group-major, 8 a group), the background over groups 0-8
    int[] fg = {0, 8, 16, 24, 1, 9, 17, 25};
    int[] bg = acrossGroups(40, 2);
    // minimal routing: no random choice for the background to change, so a foreground can only lose by sharing
    AriesSystem quiet = system(FabricKind.ROUTERS, 0, "minimal");
    MpiJob single = MpiJob.builder(quiet).nodes(fg).build();
    single.run(WORK);
    long aloneTime = single.lastRunPs();
    AriesSystem sys = system(FabricKind.ROUTERS, 0, "minimal");
    MpiJob job = MpiJob.builder(sys).nodes(fg).build();
    MpiJob noise = MpiJob.builder(sys).nodes(bg).build();
    long start = sys.now();
    MpiJob.together().job(job, WORK).background(noise, SyntheticTraffic.uniform(65536, 0, 0, 3)).run();
    assertThat(job.lastRunPs()).isGreaterThan(aloneTime);
    // it ran all along, and was stopped right where the foreground finished
    assertThat(noise.bytesSent()).isGreaterThan(40L * 65536);
    assertThat(noise.lastRunPs()).isEqualTo(sys.now() - start);
    assertThat(noise.lastRunStopped()).isTrue();
    assertThat(job.lastRunStopped()).isFalse();
    assertThat(sys.now() - start).isGreaterThanOrEqualTo(job.lastRunPs());
    assertThatThrownBy(() -> noise.run(WORK)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("ran in the background and was stopped");
    // the foreground job itself can run again
    job.run(WORK);
    assertThat(job.lastRunPs()).isPositive();
  }

  @Test
  void aBackgroundThatEndsByItselfFinalizesAsAForegroundJob() {
    AriesSystem sys = system(FabricKind.ROUTERS, 0);
    MpiJob job = MpiJob.builder(sys).nodes(range(0, 4)).build();
    MpiJob noise = MpiJob.builder(sys).nodes(range(30, 4)).build();
    // the foreground is long; the background makes three steps of four messages and ends
    MpiJob.together().job(job, mpi -> {
      WORK.run(mpi);
      WORK.run(mpi);
    }).background(noise, SyntheticTraffic.uniform(1000, 0, 3, 9)).run();
    assertThat(noise.bytesSent()).isEqualTo(3L * 4 * 1000);
    assertThat(noise.lastRunPs()).isPositive().isLessThan(job.lastRunPs());
    assertThat(noise.lastRunStopped()).isFalse();
    noise.run(SyntheticTraffic.alltoall(100, 0, 2)); // it finished: it can run again
    assertThat(noise.bytesSent()).isEqualTo(3L * 4 * 1000 + 2L * 4 * 3 * 100);
  }

  @Test
  void aJobThatArrivesLaterStartsThenAndTakesItsTimeAlone() {
    int[] a = range(0, 8);
    int[] b = range(20, 6);
    AriesSystem sys = system(FabricKind.IDEAL, 0);
    MpiJob ja = MpiJob.builder(sys).nodes(a).build();
    MpiJob jb = MpiJob.builder(sys).nodes(b).build();
    long[] firstSeen = new long[6];
    long start = sys.now();
    MpiJob.together().job(ja, WORK).job(jb, mpi -> {
      firstSeen[mpi.rank()] = mpi.now();
      WORK.run(mpi);
    }, 3_000_000).run();
    assertThat(firstSeen).containsOnly(start + 3_000_000);
    assertThat(ja.lastRunPs()).isEqualTo(alone(FabricKind.IDEAL, a, WORK));
    assertThat(jb.lastRunPs()).isEqualTo(alone(FabricKind.IDEAL, b, WORK));
    assertThat(sys.now() - start).isGreaterThanOrEqualTo(3_000_000 + jb.lastRunPs());
  }

  @Test
  void aBackgroundStartedFirstHasLoadedTheNetworkWhenTheForegroundArrives() {
    int[] fg = {0, 8, 16, 24, 1, 9, 17, 25};
    int[] bg = acrossGroups(40, 2);
    AriesSystem quiet = system(FabricKind.ROUTERS, 0, "minimal");
    MpiJob single = MpiJob.builder(quiet).nodes(fg).build();
    single.run(WORK);
    AriesSystem sys = system(FabricKind.ROUTERS, 0, "minimal");
    MpiJob job = MpiJob.builder(sys).nodes(fg).build();
    MpiJob noise = MpiJob.builder(sys).nodes(bg).build();
    long start = sys.now();
    MpiJob.together().job(job, WORK, 20_000_000).background(noise, SyntheticTraffic.uniform(65536, 0, 0, 3)).run();
    assertThat(job.lastRunPs()).isGreaterThan(single.lastRunPs());
    // the background ran from the set's start until the run stopped, the foreground from its own start
    assertThat(noise.lastRunPs()).isEqualTo(sys.now() - start);
    assertThat(sys.now() - start).isGreaterThanOrEqualTo(20_000_000 + job.lastRunPs());
    assertThat(noise.bytesSent()).isGreaterThan(40L * 65536);
  }

  @Test
  void aBackgroundDueAfterTheForegroundEndedNeverRuns() {
    AriesSystem sys = system(FabricKind.ROUTERS, 0);
    MpiJob job = MpiJob.builder(sys).nodes(range(0, 4)).build();
    MpiJob noise = MpiJob.builder(sys).nodes(range(30, 4)).build();
    MpiJob.together().job(job, WORK).background(noise, SyntheticTraffic.uniform(1000, 0, 0, 9), 1_000_000_000L)
        .run();
    assertThat(job.lastRunPs()).isPositive().isLessThan(1_000_000_000L);
    assertThat(noise.lastRunPs()).isZero();
    assertThat(noise.bytesSent()).isZero();
    assertThat(noise.messages()).isZero();
  }

  private record Seen(long fg, long bg, long bgBytes, long now) {}

  private static Seen together(int threads) {
    return together(threads, 0);
  }

  private static Seen together(int threads, long foregroundStartPs) {
    AriesSystem sys = system(FabricKind.ROUTERS, threads);
    int[] fg = {0, 8, 16, 24, 33, 41, 49, 57};
    int[] bg = acrossGroups(30, 3);
    MpiJob job = MpiJob.builder(sys).nodes(fg).build();
    MpiJob noise = MpiJob.builder(sys).nodes(bg).build();
    MpiJob.together().job(job, WORK, foregroundStartPs)
        .background(noise, SyntheticTraffic.uniform(20_000, 1_000_000, 0, 4)).run();
    return new Seen(job.lastRunPs(), noise.lastRunPs(), noise.bytesSent(), sys.now());
  }

  @Test
  void theSameOnEveryEngineThreadCount() {
    List<Seen> seen = new ArrayList<>();
    for (int t = 1; t <= 3; t++) {
      seen.add(together(t, 2_500_000)); // the foreground arrives 2.5 us after the background
    }
    assertThat(seen.get(0).bgBytes()).isPositive();
    assertThat(seen.get(1)).isEqualTo(seen.get(0));
    assertThat(seen.get(2)).isEqualTo(seen.get(0));
  }

  @Test
  void aForegroundThatDeadlocksBesideAnEndlessBackgroundIsGivenUpAtTheLimit() {
    AriesSystem sys = system(FabricKind.ROUTERS, 0);
    MpiJob job = MpiJob.builder(sys).nodes(0, 1).build();
    MpiJob noise = MpiJob.builder(sys).nodes(range(10, 6)).build();
    MpiProgram stuck = mpi -> mpi.recv(new byte[8], 1 - mpi.rank(), 0);
    long start = sys.now();
    assertThatThrownBy(() -> MpiJob.together().job(job, stuck).background(noise,
        SyntheticTraffic.uniform(4096, 0, 0, 1)).foregroundLimitPs(50_000_000).run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("jobs still running 50000000 ps after the start (the set's foregroundLimitPs) while background"
            + " jobs ran: job 0 (2 of its 2 ranks); a deadlocked foreground job, or one slowed that much");
    assertThat(sys.now() - start).isGreaterThanOrEqualTo(50_000_000);
  }

  /**
   * Without a limit a foreground deadlocked beside a background that never ends used to run for ever (the background
   * kept the loop from running dry, which is how a deadlock is found otherwise): the set now finds it and reports it
   * as any deadlock, the same on the single loop and on the engine. The background ends only after {@link #outlasting}
   * of simulated time, far past where the watch must stop the run: endless as far as the watch can tell, and an end in
   * simulated time should the watch not find the deadlock (the loop then runs dry after the background, and the
   * check of when it was found fails instead of the build hanging).
   */
  @Test
  void aForegroundThatDeadlocksBesideAnEndlessBackgroundWithoutALimitIsReportedAsADeadlock() {
    List<String> reports = new ArrayList<>();
    List<Long> found = new ArrayList<>();
    for (int threads : new int[] {0, 2}) {
      AriesSystem sys = system(FabricKind.ROUTERS, threads);
      MpiJob job = MpiJob.builder(sys).nodes(0, 9).build(); // (two groups: on the engine, two partitions)
      MpiJob noise = MpiJob.builder(sys).nodes(acrossGroups(12, 2)).build();
      MpiProgram stuck = mpi -> {
        mpi.recv(new byte[8], 1 - mpi.rank(), 0);
        mpi.send(new byte[8], 1 - mpi.rank(), 0);
      };
      long start = sys.now();
      assertThatThrownBy(() -> MpiJob.together().job(job, stuck).background(noise, outlasting()).run())
          .isInstanceOfSatisfying(MpiJob.JobFailedException.class, e -> {
            assertThat(e.job()).isSameAs(job);
            reports.add(e.getMessage());
          })
          .hasMessageStartingWith("MPI program deadlocked: 2 ranks still waiting:")
          .hasMessageContaining("\n  rank 0 in ").hasMessageContaining("\n  rank 1 in ");
      found.add(sys.now() - start);
      assertThat(noise.bytesSent()).as("the background ran on").isPositive();
    }
    assertThat(reports.get(1)).as("the same report on the engine").isEqualTo(reports.get(0));
    // two looks 100 us apart once the ranks wait (simulated time: the background runs on meanwhile)
    assertThat(found).allMatch(ps -> ps > DeadlockWatch.INTERVAL_PS && ps < 1_000_000_000L, "found within 1 ms");
  }

  /**
   * Links between groups of 60 us make an engine lookahead of 60 us, above half the watch's 100 us: the watch then
   * looks every four lookaheads (its decision reads a look's results one lookahead after it, while a later look writes
   * the other set), rather than refuse the run, and finds the deadlock all the same (within a few looks: the
   * background, {@link #outlasting}, ends long after, so a watch that never found it fails the check of when).
   */
  @Test
  void onAnEngineOfLongLookaheadTheDeadlockIsFoundAllTheSame() {
    AriesSystem sys = AriesSystem.builder()
        .topology(Dragonfly.canonicalBuilder(2, 4, 2).latencyPs(10_000, 10_000, 60_000_000).build(), "slow-global")
        .fabric(FabricKind.ROUTERS).seed(5).threads(2).build();
    assertThat(sys.engine().orElseThrow().lookaheadPs()).isEqualTo(60_000_000);
    assertThat(DeadlockWatch.intervalPs(60_000_000)).isEqualTo(240_000_000);
    MpiJob job = MpiJob.builder(sys).nodes(0, 9).build();
    MpiJob noise = MpiJob.builder(sys).nodes(acrossGroups(12, 2)).build();
    long start = sys.now();
    assertThatThrownBy(() -> MpiJob.together().job(job, mpi -> mpi.recv(new byte[8], 1 - mpi.rank(), 0))
        .background(noise, outlasting()).run())
        .isInstanceOfSatisfying(MpiJob.JobFailedException.class, e -> assertThat(e.job()).isSameAs(job))
        .hasMessageStartingWith("MPI program deadlocked: 2 ranks still waiting:");
    assertThat(sys.now() - start).isGreaterThan(2 * 240_000_000L).isLessThan(1_000_000_000L);
  }

  /**
   * The watch of a run with a background and no limit schedules its looks from the run's start: near the clock's end
   * it leaves out a look that would pass it (its time wrapped and the run failed) rather than refuse a run that fits.
   */
  @Test
  void aRunWithABackgroundNearTheClocksEndRuns() {
    AriesSystem sys = system(FabricKind.ROUTERS, 0);
    MpiJob a = MpiJob.builder(sys).nodes(0, 1).build();
    MpiJob b = b2(sys);
    runClockTo(sys, Long.MAX_VALUE - 60_000_000); // the clock has 60 us left
    long left = Long.MAX_VALUE - sys.now();
    assertThat(left).isLessThan(DeadlockWatch.INTERVAL_PS);
    MpiProgram exchange = mpi -> {
      Request r = mpi.irecv(new byte[8], 0, 8, 1 - mpi.rank(), 0, mpi.world());
      mpi.send(new byte[8], 0, 8, 1 - mpi.rank(), 0, mpi.world());
      mpi.wait(r);
    };
    MpiJob.together().job(a, exchange).background(b, SyntheticTraffic.uniform(64, 0, 0, 1)).run();
    assertThat(a.lastRunPs()).isPositive().isLessThan(left);
    assertThat(b.lastRunStopped()).isTrue();
  }

  /**
   * A set's own events (the deadlock watch's next look of a set without a limit, the limit's event of one with) are
   * taken out of the queue when the set ends: a later run on the system ends at its own time. They used to stay, and
   * the later run ran them: its clock ended up to 100 us further on after a watched set, at the set's start plus its
   * limit after a limited one. With them gone, both sets leave the system in the same state.
   */
  @Test
  void aSetLeavesNoEventOfItsOwnForALaterRun() {
    for (int threads : new int[] {0, 2}) {
      List<Long> later = new ArrayList<>();
      for (long limit : new long[] {Long.MAX_VALUE, 1_000_000_000_000L}) { // none (watched), 1 s
        AriesSystem sys = system(FabricKind.ROUTERS, threads);
        MpiJob job = MpiJob.builder(sys).nodes(0, 9).build();
        MpiJob noise = MpiJob.builder(sys).nodes(acrossGroups(12, 2)).build();
        MpiJob.together().job(job, WORK).background(noise, SyntheticTraffic.uniform(4096, 0, 0, 1))
            .foregroundLimitPs(limit).run();
        long setEnd = sys.now();
        MpiJob next = MpiJob.builder(sys).nodes(0, 9).build();
        next.run(mpi -> mpi.barrier(mpi.world()));
        assertThat(next.lastRunPs()).isPositive();
        later.add(sys.now() - setEnd);
      }
      assertThat(later.get(1)).as("threads %s: after a limited set as after a watched one", threads)
          .isEqualTo(later.get(0));
      // the barrier, and the stopped background's last packets draining (the watch looks every 100 us)
      assertThat(later.get(0)).as("threads %s", threads).isLessThan(DeadlockWatch.INTERVAL_PS / 10);
    }
  }

  /**
   * A background stopped in the middle of a 10-ms compute leaves that compute's end queued: the set's runner takes it
   * out as it closes, so a later job on the system takes only its own time (a later run used to end 10 ms on).
   */
  @Test
  void aStoppedBackgroundsPendingComputeDoesNotMoveALaterRunsClock() {
    for (int threads : new int[] {0, 2}) {
      AriesSystem sys = system(FabricKind.ROUTERS, threads);
      MpiJob job = MpiJob.builder(sys).nodes(0, 9).build();
      MpiJob noise = MpiJob.builder(sys).nodes(20, 30).build();
      MpiProgram barrier = mpi -> mpi.barrier(mpi.world());
      MpiJob.together().job(job, barrier).background(noise, mpi -> {
        while (true) {
          mpi.compute(10_000_000_000L);
        }
      }).run();
      assertThat(noise.lastRunStopped()).isTrue();
      long setEnd = sys.now();
      job.run(barrier);
      // the barrier alone takes a few microseconds (the compute's end was 10 ms on)
      assertThat(sys.now() - setEnd).as("threads %s", threads).isPositive().isLessThan(job.lastRunPs() + 10_000_000);
    }
  }

  @Test
  void aForegroundThatEndsInTheLimitsOwnEngineWindowIsNotGivenUp() {
    // on the engine the run stops at the end of the window in which the limit's event ran: a foreground that ended in
    // that window (its ranks' finalize included), before or after the limit, has finished, and the run is not given
    // up; the limit here is just before the end of the window in which the free run's foreground ended
    Seen free = together(1);
    AriesSystem sys = system(FabricKind.ROUTERS, 1);
    int[] fg = {0, 8, 16, 24, 33, 41, 49, 57};
    int[] bg = acrossGroups(30, 3);
    MpiJob job = MpiJob.builder(sys).nodes(fg).build();
    MpiJob noise = MpiJob.builder(sys).nodes(bg).build();
    MpiJob.together().job(job, WORK).background(noise, SyntheticTraffic.uniform(20_000, 1_000_000, 0, 4))
        .foregroundLimitPs(free.now() - 1).run(); // (the free run started at 0 and stopped at its window's end)
    assertThat(job.lastRunPs()).isEqualTo(free.fg());
  }

  @Test
  void aDeadlockIsTheJobsOwnFailure() {
    AriesSystem sys = system(FabricKind.ROUTERS, 0);
    MpiJob ok = MpiJob.builder(sys).nodes(range(0, 4)).build();
    MpiJob bad = MpiJob.builder(sys).nodes(range(10, 2)).build();
    assertThatThrownBy(() -> MpiJob.together().job(ok, WORK)
        .job(bad, mpi -> mpi.recv(new byte[8], 1 - mpi.rank(), 0)).run())
        .isInstanceOfSatisfying(MpiJob.JobFailedException.class, e -> assertThat(e.job()).isSameAs(bad))
        .hasMessageStartingWith("MPI program deadlocked: 2 ranks still waiting:");
  }

  private static MpiJob b2(AriesSystem sys) {
    return MpiJob.builder(sys).nodes(10, 11).build();
  }

  @Test
  void misuseIsOneLine() {
    AriesSystem sys = system(FabricKind.ROUTERS, 0);
    MpiJob a = MpiJob.builder(sys).nodes(0, 1, 2).build();
    MpiJob b = MpiJob.builder(sys).nodes(2, 3).build();
    assertThatThrownBy(() -> MpiJob.together().job(a, WORK).job(b, WORK))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("jobs 0 and 1 both use node 2: each job of a set needs nodes of its own (a NIC serves one job's"
            + " completions; batch systems give a job whole nodes)");
    assertThatThrownBy(() -> MpiJob.together().job(a, WORK).job(a, WORK))
        .hasMessage("job 0 is in this set already (a job runs one program at a time)");
    MpiJob other = MpiJob.builder(system(FabricKind.ROUTERS, 0)).nodes(5, 6).build();
    assertThatThrownBy(() -> MpiJob.together().job(a, WORK).job(other, WORK))
        .hasMessage("every job of a set must run on one system, but job 1's system is another AriesSystem object"
            + " than job 0's (both named " + sys.name() + ")"); // (it said "job 1's system is X and job 0's is X")
    assertThatThrownBy(() -> MpiJob.together().background(a, WORK).run())
        .hasMessage("a set of jobs needs a foreground job (job(...)): background jobs alone would run for ever");
    assertThatThrownBy(() -> MpiJob.together().job(a, WORK, -1))
        .hasMessage("startPs must be in [0, " + MpiJob.MAX_START_PS + "] (picoseconds after the set's start) but was"
            + " -1");
    // The clock nears its end: the latest start from now would pass it.
    runClockTo(sys, Long.MAX_VALUE - MpiJob.MAX_START_PS / 2);
    long now = sys.now();
    assertThat(now).isGreaterThan(Long.MAX_VALUE - MpiJob.MAX_START_PS);
    assertThatThrownBy(() -> MpiJob.together().job(a, WORK).background(b2(sys), WORK, MpiJob.MAX_START_PS).run())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("job 1's startPs must be at most " + (Long.MAX_VALUE - now) + " (the clock's end from now, "
            + now + " ps) but was " + MpiJob.MAX_START_PS);
    assertThat(sys.now()).isEqualTo(now); // refused before anything ran
    assertThatThrownBy(() -> MpiJob.together().foregroundLimitPs(0))
        .hasMessage("foregroundLimitPs must be at least 1 but was 0");
    assertThatThrownBy(() -> SyntheticTraffic.uniform(0, 0, 0, 1)).hasMessage("bytes must be in [1, 67108864] but"
        + " was 0");
    assertThatThrownBy(() -> SyntheticTraffic.alltoall(8, -1, 0))
        .hasMessage("gapPs must be in [0, 1000000000000000] (1,000 s) but was -1");
    // a longer pause was taken here and refused only inside a rank's run, naming ps (until stop 72)
    assertThatThrownBy(() -> SyntheticTraffic.uniform(8, Long.MAX_VALUE, 0, 1))
        .hasMessage("gapPs must be in [0, 1000000000000000] (1,000 s) but was 9223372036854775807");
    assertThat(SyntheticTraffic.uniform(8, SyntheticTraffic.MAX_GAP_PS, 0, 1).gapPs())
        .isEqualTo(SyntheticTraffic.MAX_GAP_PS);
  }

  @Test
  void aStartOrLimitNearTheClocksEndIsRefusedBeforeTheRunAndTheJobsStayUsable() {
    AriesSystem sys = system(FabricKind.ROUTERS, 0);
    MpiJob a = MpiJob.builder(sys).nodes(0, 1).build();
    MpiJob b = b2(sys);
    // A start that left the clock no room passed the run's check and failed mid-run ("ps must be in [0, 0] ..."),
    // leaving both jobs unable to run again.
    long late = Long.MAX_VALUE - 1_000;
    assertThatThrownBy(() -> MpiJob.together().job(a, WORK).job(b, WORK, late))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("startPs must be in [0, " + MpiJob.MAX_START_PS + "] (picoseconds after the set's start) but was "
            + late);
    assertThatThrownBy(() -> MpiJob.together().job(a, WORK).background(b, WORK, MpiJob.MAX_START_PS + 1))
        .hasMessage("startPs must be in [0, " + MpiJob.MAX_START_PS + "] (picoseconds after the set's start) but was "
            + (MpiJob.MAX_START_PS + 1));
    a.run(WORK); // the clock has moved
    long now = sys.now();
    // A limit that passed the clock's end from the set's start wrapped to a time before now when it was scheduled.
    assertThatThrownBy(() -> MpiJob.together().job(a, WORK).background(b, WORK).foregroundLimitPs(Long.MAX_VALUE - 1)
        .run())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("foregroundLimitPs must be at most " + (Long.MAX_VALUE - now) + " (the clock's end from now, " + now
            + " ps) or Long.MAX_VALUE (no limit) but was " + (Long.MAX_VALUE - 1));
    assertThat(sys.now()).isEqualTo(now); // refused before anything ran
    // Both jobs still run, the latest start included.
    MpiJob.together().job(a, WORK).job(b, WORK, MpiJob.MAX_START_PS).run();
    assertThat(b.lastRunPs()).isEqualTo(alone(FabricKind.ROUTERS, new int[] {10, 11}, WORK));
  }

  /**
   * A job that starts later starts at its time when no detour covers it: a detour at the set's start puts off only the
   * ranks' first turn, not the job's start (until stop 67 the delay was counted from that turn: a job of 30 us began
   * at 55 us under aligned 25-us detours).
   */
  @Test
  void aLaterJobStartsAtItsTimeThoughADetourCoversTheSetsStart() {
    AriesSystem sys = AriesSystem.builder().system(TOPOLOGY).fabric(FabricKind.IDEAL).seed(5)
        .osNoise(io.github.ariesmodel.system.process.OsNoise.parse("period=1ms,detour=25us,phase=aligned")).build();
    MpiJob ja = MpiJob.builder(sys).nodes(range(0, 2)).build();
    MpiJob jb = MpiJob.builder(sys).nodes(range(2, 2)).build();
    long[] firstCall = new long[1];
    MpiJob.together().job(ja, WORK).job(jb, mpi -> {
      if (mpi.rank() == 0) {
        firstCall[0] = mpi.now();
      }
    }, 30_000_000).run();
    assertThat(firstCall[0]).isEqualTo(30_000_000);
  }
}
