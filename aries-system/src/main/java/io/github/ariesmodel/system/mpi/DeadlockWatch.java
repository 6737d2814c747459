package io.github.ariesmodel.system.mpi;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.math.LongMath;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.system.AriesSystem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Finds a deadlock of some jobs while other jobs keep the event loop busy: a run's foreground jobs beside a background
 * without end ({@link MpiJob#together()}), whose loop never runs dry, so that the usual sign of a deadlock (no event
 * left while ranks wait) never comes. Once the watched jobs are deadlocked the watch stops the run, and the run reports
 * their waiting ranks as it reports any deadlock. {@link MpiJob.Together#run} starts one over its foreground jobs when
 * the set has a background job and no {@link MpiJob.Together#foregroundLimitPs}.
 *
 * <p><b>What it looks for.</b> Every {@link #INTERVAL_PS} of simulated time (longer on an engine of long lookahead:
 * {@link #intervalPs}) it looks at the watched jobs: each of
 * their ranks that has not finalized waits with nothing to do (suspended until its NIC or an on-node peer wakes it,
 * and not woken), no NIC of theirs has a post unfinished (so no request or response of theirs is in the network), and
 * no rank waits for a collective-engine reduction that every rank of its job has posted (whose packets may be in the
 * network). Such a state still has events of theirs to come only on the nodes themselves: completion events and data
 * being written to host memory for work already done, each a matter of the host link, the IOMMU and the host's
 * memory, nanoseconds to microseconds (every latency of the model is at most 1 ms, {@code SimTime.MAX_LATENCY_PS}).
 * If the next look finds the same state and no rank resumed in between, those have come and woken nobody: no rank can
 * ever move again, a deadlock. <em>Assumed</em>: that a completion or write to host memory, once its post has
 * finished, lands within {@value #INTERVAL_PS} ps; a system whose host latencies come near that could have a slow wake
 * taken for a deadlock.
 *
 * <p><b>Determinism.</b> Each dragonfly group that holds watched ranks looks at its own ranks and nodes in an event of
 * its own, at the same times ({@code start + k × interval}); one event, {@code lag} later (the engine's lookahead,
 * so after every group has run through the look's window; 1 ps on the single loop), adds the looks up and decides. The
 * decision and the time the run stops (at the end of that engine window) are therefore the same for every thread
 * count. The watch adds two events a group each interval and nothing else: it changes no figure of the run it watches.
 * Its next look's events are taken out of the queue when that run ends ({@link #stop}), so that a later run on the
 * same system neither runs them nor ends at their time (they used to move its clock on by up to one interval).
 * Near the clock's end it stops looking rather than schedule a look past it.
 */
final class DeadlockWatch {

  /** Simulated time between two looks: 100 µs (assumed: far beyond a host-side completion's latency). */
  static final long INTERVAL_PS = 100_000_000L;

  private final AriesSystem system;
  private final Look[] looks;
  private final Decide decide;
  private final long lagPs;
  private final long intervalPs;
  private final int jobCount;
  private boolean active;
  private boolean fired;
  /** The last decision's state: all waiting idle, and the ranks' resumptions then. */
  private boolean lastIdle;
  private long lastResumes = -1;

  private DeadlockWatch(AriesSystem system, List<MpiJob> jobs) {
    this.system = system;
    this.jobCount = jobs.size();
    Map<Integer, List<Rank>> byGroup = new TreeMap<>();
    Map<Rank, Integer> jobOf = new LinkedHashMap<>();
    for (int j = 0; j < jobs.size(); j++) {
      for (Rank r : jobs.get(j).ranks()) {
        byGroup.computeIfAbsent(system.groupOfNode(r.node.id()), g -> new ArrayList<>()).add(r);
        jobOf.put(r, j);
      }
    }
    this.looks = new Look[byGroup.size()];
    int i = 0;
    for (List<Rank> ranks : byGroup.values()) {
      int[] job = new int[ranks.size()];
      long[] ended = new long[ranks.size()];
      for (int k = 0; k < ranks.size(); k++) {
        job[k] = jobOf.get(ranks.get(k));
        ended[k] = ranks.get(k).finalizedRuns;
      }
      looks[i++] = new Look(system.scheduler(ranks.get(0).node.id()), ranks.toArray(new Rank[0]), job, ended,
          jobs.size());
    }
    this.decide = new Decide(looks[0].clock);
    this.lagPs = system.engine().isPresent() ? system.engine().get().lookaheadPs() : 1;
    this.intervalPs = intervalPs(lagPs);
  }

  /**
   * The time between two looks for a lag: {@link #INTERVAL_PS}, or four lags when the lag is half of it or more (an
   * engine whose lookahead, the least latency of a link between groups, is 50 µs or more). The decision reads a look's
   * results one lag after it while a later look writes the other set: the looks must be more than two lags apart, or
   * the decision and the look that next writes the same set could run in one engine window (on different threads).
   * Such a lookahead used to refuse the run; a longer interval only finds the deadlock later.
   *
   * @param lagPs the engine's lookahead, or 1 on the single loop
   * @return the interval, picoseconds
   */
  static long intervalPs(long lagPs) {
    return lagPs < INTERVAL_PS / 2 ? INTERVAL_PS : LongMath.saturatedMultiply(lagPs, 4);
  }

  /**
   * The one handler of every event of the watch (a look or a decision, its ref), so that {@link #stop} removes them
   * all in one pass over the queue.
   */
  private final EventHandler events = (timePs, ref, arg) -> {
    if (ref instanceof Look l) {
      l.look(timePs);
    } else {
      ((Decide) ref).decide(timePs);
    }
  };

  /** Schedules {@code what} (a look or the decision) {@code delayPs} after {@code fromPs}, unless past the end. */
  private void scheduleAfter(Scheduler clock, long fromPs, long delayPs, Object what) {
    if (fromPs <= Long.MAX_VALUE - delayPs) {
      clock.scheduleAt(fromPs + delayPs, events, what, 0);
    }
  }

  /**
   * A watch over jobs of one system, not yet started.
   *
   * @param jobs the jobs whose deadlock is to be found (a run's foreground jobs), at least one
   * @return the watch
   */
  static DeadlockWatch over(List<MpiJob> jobs) {
    checkArgument(jobs != null && !jobs.isEmpty(), "jobs must name at least one job");
    AriesSystem system = jobs.get(0).system();
    for (MpiJob j : jobs) {
      checkArgument(j != null && j.system() == system, "every job must run on one system");
    }
    return new DeadlockWatch(system, jobs);
  }

  /**
   * Starts looking, from the system's current time (call it between runs, before the run of the watched jobs).
   *
   * @return this watch
   */
  DeadlockWatch start() {
    checkArgument(!active, "the watch is started already");
    active = true;
    long now = system.now();
    for (Look l : looks) {
      scheduleAfter(l.clock, now, intervalPs, l);
    }
    scheduleAfter(decide.clock, now, LongMath.saturatedAdd(intervalPs, lagPs), decide);
    return this;
  }

  /**
   * Stops looking, after the run: the events of its next look and decision are taken out of the queue, so that a later
   * run on the system neither runs them nor has its clock moved on to their time.
   */
  void stop() {
    active = false;
    MpiJob.removeOwnEvents(system, events);
  }

  /** @return whether the watch found the jobs deadlocked and stopped the run */
  boolean fired() {
    return fired;
  }

  /**
   * A group's look at its watched ranks and their nodes, written into one of two result sets by the look's parity (the
   * decision reads a look's set while the next look may be writing the other).
   */
  private final class Look {
    final Scheduler clock;
    final Rank[] ranks;
    final int[] job;
    final long[] endedBefore;
    final boolean[] idle = new boolean[2];
    final long[] resumes = new long[2];
    /** By parity and job: the fewest reductions a rank posted, the earliest a rank waits for (-1: none). */
    final long[][] fewestPosts;
    final long[][] earliestAwaited;
    int parity;

    Look(Scheduler clock, Rank[] ranks, int[] job, long[] endedBefore, int jobs) {
      this.clock = clock;
      this.ranks = ranks;
      this.job = job;
      this.endedBefore = endedBefore;
      this.fewestPosts = new long[2][jobs];
      this.earliestAwaited = new long[2][jobs];
    }

    void look(long timePs) {
      if (!active) {
        return;
      }
      int p = parity;
      parity ^= 1;
      boolean allIdle = true;
      long sum = 0;
      java.util.Arrays.fill(fewestPosts[p], Long.MAX_VALUE);
      java.util.Arrays.fill(earliestAwaited[p], -1);
      for (int k = 0; k < ranks.length; k++) {
        Rank r = ranks[k];
        sum += r.resumes;
        int j = job[k];
        fewestPosts[p][j] = Math.min(fewestPosts[p][j], r.cePosts);
        if (r.ceAwaited >= 0 && (earliestAwaited[p][j] < 0 || r.ceAwaited < earliestAwaited[p][j])) {
          earliestAwaited[p][j] = r.ceAwaited;
        }
        boolean ended = r.finalizedRuns > endedBefore[k];
        allIdle &= ended || r.waitsIdle() && r.node.nic().unfinishedPosts() == 0;
      }
      idle[p] = allIdle;
      resumes[p] = sum;
      scheduleAfter(clock, timePs, intervalPs, this);
    }
  }

  /** Adds up the groups' looks of one time and decides, {@code lag} after them. */
  private final class Decide {
    final Scheduler clock;
    int parity;

    Decide(Scheduler clock) {
      this.clock = clock;
    }

    void decide(long timePs) {
      if (!active) {
        return;
      }
      int p = parity;
      parity ^= 1;
      boolean allIdle = true;
      long sum = 0;
      for (Look l : looks) {
        allIdle &= l.idle[p];
        sum += l.resumes[p];
      }
      for (int j = 0; j < jobCount && allIdle; j++) {
        long fewest = Long.MAX_VALUE;
        long earliest = -1;
        for (Look l : looks) {
          fewest = Math.min(fewest, l.fewestPosts[p][j]);
          long a = l.earliestAwaited[p][j];
          earliest = a >= 0 && (earliest < 0 || a < earliest) ? a : earliest;
        }
        // a reduction every rank has posted completes (its packets may be in the network): not stuck yet
        allIdle = earliest < 0 || fewest <= earliest;
      }
      boolean deadlocked = allIdle && lastIdle && sum == lastResumes;
      lastIdle = allIdle;
      lastResumes = sum;
      if (deadlocked) {
        fired = true;
        active = false;
        if (system.engine().isPresent()) {
          system.engine().get().stop(); // at the end of this window, the same for every thread count
        } else {
          system.loop().stop();
        }
        return;
      }
      scheduleAfter(clock, timePs, intervalPs, this);
    }
  }
}
