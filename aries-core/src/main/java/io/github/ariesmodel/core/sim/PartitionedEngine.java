package io.github.ariesmodel.core.sim;

import io.github.ariesmodel.core.spi.EventHandler;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Phaser;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * A deterministic parallel event engine: a model cut into <em>groups</em> (for the router fabric, dragonfly groups
 * with their nodes) runs its groups on threads, and gives bit-identical results for every thread count, one thread
 * included.
 *
 * <p><b>Model contract.</b> Each group's state is touched only by that group's handlers. Components of group {@code
 * g} schedule through {@link #group(int) group(g)}: {@link GroupScheduler#scheduleAt} for the group's own events,
 * {@link GroupScheduler#scheduleInto} for an event of another group, which must lie at least the lookahead in the
 * future (for the fabric: the smallest latency of a link between groups). Random draws come from streams owned by a
 * group (seeded from the run's seed and the group id), and statistics are kept per group and merged in group order.
 *
 * <p><b>Order.</b> Events run in (time, key) order, where the key is (the group whose handler scheduled the event,
 * that group's counter). A group's counter advances only by what the group's own handlers do, so the key of every
 * event, and with it the order each group sees its events in, is the same however groups are spread over threads.
 * The engine with one thread uses the same order: "sequential" is "one thread". (This differs from {@link
 * DeterministicEventLoop}'s single global sequence, which numbers schedulings across all groups.)
 *
 * <p><b>Windows.</b> Groups are dealt to {@code threads} partitions in contiguous blocks, each run by one thread; every
 * group has its own {@link DeterministicEventLoop}. Time advances in conservative synchronous windows: a window starts
 * at the earliest pending event of the whole model and is one lookahead long, so nothing a group does during a
 * window can reach another group before the window ends. A partition therefore runs its groups one after the other,
 * each through the whole window, which gives the same result as interleaving them and keeps one group's state in the
 * caches at a time. Events for another partition go to an outbox and are
 * handed over at the barrier that ends the window; their (time, key) fixes where they run, so the order of the hand-
 * over does not matter. Conditions of {@link #runWhile} are checked and {@link #stop()} takes effect only at window
 * boundaries, which are themselves the same for every thread count.
 *
 * <p><b>Warmers.</b> A component may {@link #addWarmer add} a {@link GroupWarmer}, which reads a group's state just
 * before the group runs a window, so that a large model's group finds its lines in the caches; it changes nothing.
 *
 * <p><b>Threads.</b> The thread that calls {@code run*} runs partition 0; partitions 1.. run on daemon threads made
 * at the first run and ended by {@link #close()}. Between runs every group's loop belongs to the thread that runs
 * the engine (set-up scheduling goes straight into the loops); during a run each loop belongs to its partition's
 * thread, and any other thread that schedules into it fails fast (the loop's owner check). A run call is checked
 * (not running, not closed, the caller the controller and the owner of every loop) before it changes anything, and
 * entered by one compare-and-set: a refused call leaves the engine as it was, and of two threads racing into it one
 * runs and the other is refused. Whatever a worker thread
 * throws, in a handler or outside one (an {@code OutOfMemoryError} at the barrier), is thrown by the {@code run*}
 * call on the caller's thread, and the JVM prints nothing of it.
 *
 * <p><b>Failures.</b> When handlers of several groups fail, the run reports the failure of the lowest-numbered group
 * that failed in the first window with a failure, the one a single thread meets (it runs a window's groups in group
 * order and stops at the first that fails), on every thread count; the others are added to it as suppressed.
 */
public final class PartitionedEngine implements AutoCloseable {

  private final int groupCount;
  private final long lookaheadPs;
  private final Partition[] partitions;
  private final GroupScheduler[] groups;

  /**
   * Whether a run is going on (written by the running thread before the first barrier, read after it). A run is
   * entered by a compare-and-set of it ({@link #RUNNING}), so that of two threads racing into the engine one runs and
   * the other is refused; it is read plainly (volatile) everywhere else.
   */
  volatile boolean running;

  private static final VarHandle RUNNING;

  static {
    try {
      RUNNING = MethodHandles.lookup().findVarHandle(PartitionedEngine.class, "running", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private Phaser phaser;
  private Thread[] workers;
  /** Makes the worker threads; null for the default (platform threads). */
  private ThreadFactory workerFactory;
  private Thread controller;
  /**
   * The first line of a handler's failure in an earlier run, or null: which events of the failing window had run
   * depends on how groups are spread over threads, so such an engine runs no more (its state would differ by thread
   * count).
   */
  private String failedBefore;
  private volatile boolean closing;
  /**
   * A failure outside any window (the planning step's, a worker thread's at the barrier), or null; a handler's failure
   * is kept by its partition ({@link Partition#failed}), and {@link #takeFailure} says which one the run reports.
   */
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  // the run in progress, written by the running thread or by the barrier's planning step
  private long limitPs;
  private BooleanSupplier condition;
  private boolean windowPlanned;
  /**
   * What the {@link #runWhile} condition threw, or null: it ends the run at a window boundary, like a false condition,
   * and is thrown by the run call, but is not a handler's failure (it leaves nothing half done, at a boundary that is
   * the same for every thread count), so the engine may run again. Written by the planning step, read after the run.
   */
  private Throwable conditionFailure;
  private long windowEnd;
  /** The parity of the window being run (which outbox set it fills); read by the groups' threads after the barrier. */
  int parity;
  private boolean stopRequested;
  private long now;
  private long windows;
  private GroupWarmer[] warmers = new GroupWarmer[0];

  private PartitionedEngine(int groupCount, long lookaheadPs, int threads) {
    this.groupCount = groupCount;
    this.lookaheadPs = lookaheadPs;
    this.partitions = new Partition[threads];
    for (int p = 0; p < threads; p++) {
      partitions[p] = new Partition(p, threads);
    }
    this.groups = new GroupScheduler[groupCount];
    for (int g = 0; g < groupCount; g++) {
      // contiguous blocks: partition p holds the groups g with floor(g * T / G) == p (none is empty when T <= G)
      int p = (int) ((long) g * threads / groupCount);
      groups[g] = new GroupScheduler(this, g, partitions[p]);
    }
    for (Partition part : partitions) {
      part.members = java.util.Arrays.stream(groups).filter(gs -> gs.partition == part)
          .toArray(GroupScheduler[]::new);
    }
    for (Partition part : partitions) {
      for (int set = 0; set < 2; set++) {
        part.sendTo[set] = new EventBuffer[groupCount];
        for (int g = 0; g < groupCount; g++) {
          Partition to = groups[g].partition;
          part.sendTo[set][g] = to == part ? part.local[set] : part.outboxes[set][to.index];
        }
      }
    }
  }

  /**
   * An engine for a model of {@code groups} groups whose cross-group events lie at least {@code lookaheadPs} ahead.
   *
   * @param groups number of groups, in [1, 2^23)
   * @param lookaheadPs the smallest delay of an event one group schedules into another, ≥ 1 ps
   * @param threads partitions (each run by one thread), in [1, groups]
   * @return the engine
   */
  public static PartitionedEngine of(int groups, long lookaheadPs, int threads) {
    if (groups < 1 || groups >= (1 << (63 - GroupScheduler.COUNTER_BITS))) {
      throw new IllegalArgumentException("groups must be in [1, " + ((1 << (63 - GroupScheduler.COUNTER_BITS)) - 1)
          + "] but was " + groups);
    }
    if (lookaheadPs < 1) {
      throw new IllegalArgumentException("lookaheadPs must be >= 1 but was " + lookaheadPs);
    }
    if (threads < 1 || threads > groups) {
      throw new IllegalArgumentException("threads must be in [1, " + groups + "] (one group at least per thread) but"
          + " was " + threads);
    }
    checkHeap(groups);
    return new PartitionedEngine(groups, lookaheadPs, threads);
  }

  /**
   * Java heap a group takes when the engine is made, its event loop's arrays above all: measured at 106,700-106,800
   * bytes a group (1,000 and 4,000 groups, Java 17, serial collector, heap in use after collections; stop 47), so
   * 100,000 is a lower bound.
   */
  static final long HEAP_BYTES_PER_GROUP = 100_000;

  /**
   * Refuses an engine whose groups the heap cannot hold, before any is made: 20,000 groups (inside the range) ran a
   * 1 GiB heap out.
   */
  private static void checkHeap(int groups) {
    long needed = groups * HEAP_BYTES_PER_GROUP;
    long left = JavaHeap.bytesLeft(needed);
    if (left < needed) {
      throw new IllegalStateException("an engine of " + groups + " groups needs at least " + needed + " bytes of Java"
          + " heap (" + HEAP_BYTES_PER_GROUP + " a group, for its event loop), but the JVM has " + left + " left;"
          + " give it more heap (-Xmx) or use fewer groups");
    }
  }

  /**
   * @param group a group, in [0, groups)
   * @return the scheduler of that group
   */
  public GroupScheduler group(int group) {
    return groupOrFail(group);
  }

  GroupScheduler groupOrFail(int group) {
    if (group < 0 || group >= groupCount) {
      throw new IllegalArgumentException("group must be in [0, " + (groupCount - 1) + "] but was " + group);
    }
    return groups[group];
  }

  /** @return the number of groups */
  public int groupCount() {
    return groupCount;
  }

  /** @return the number of partitions, each run by one thread */
  public int threads() {
    return partitions.length;
  }

  /** @return the partition (thread index) that runs {@code group} */
  public int partitionOf(int group) {
    return groupOrFail(group).partition.index;
  }

  /**
   * Adds a warmer, called before each group runs a window in which it has events (after the warmers added before
   * it). Components that keep per-group state in large arrays add one when they are built on the engine.
   *
   * @param warmer reads a group's state and changes nothing (see {@link GroupWarmer})
   * @throws IllegalStateException during a run
   */
  public void addWarmer(GroupWarmer warmer) {
    if (warmer == null) {
      throw new IllegalArgumentException("warmer must not be null");
    }
    if (running) {
      throw new IllegalStateException("a warmer cannot be added while the engine runs");
    }
    GroupWarmer[] w = java.util.Arrays.copyOf(warmers, warmers.length + 1);
    w[warmers.length] = warmer;
    warmers = w;
  }

  /** @return the lookahead, picoseconds: the length of a window */
  public long lookaheadPs() {
    return lookaheadPs;
  }

  /**
   * @return the time of the latest event run, or the limit of the last {@link #runUntil} when later (0 at first);
   *     between runs every group's clock reads this (after a run in which a handler failed, each group's clock stays
   *     where it stopped, and the engine runs no more)
   */
  public long now() {
    return now;
  }

  /**
   * @return events run so far, over all groups
   * @throws IllegalStateException while the engine runs (see {@link #nextEventTime()})
   */
  public long eventsExecuted() {
    checkBetweenRuns("eventsExecuted");
    return executedSum();
  }

  private long executedSum() {
    long n = 0;
    for (GroupScheduler g : groups) {
      n += g.loop.eventsExecuted();
    }
    return n;
  }

  /** @return windows run so far (barriers crossed) */
  public long windows() {
    return windows;
  }

  /**
   * @return events waiting
   * @throws IllegalStateException while the engine runs (see {@link #nextEventTime()})
   */
  public long pending() {
    checkBetweenRuns("pending");
    long n = 0;
    for (GroupScheduler g : groups) {
      n += g.loop.pending();
    }
    for (Partition p : partitions) {
      n += p.local[0].size() + p.local[1].size();
    }
    return n;
  }

  /** Whether any event waits: in a group's loop, a partition's log or an outbox (at a barrier, no handler running). */
  private boolean anyPending() {
    for (GroupScheduler g : groups) {
      if (g.loop.pending() > 0) {
        return true;
      }
    }
    for (Partition p : partitions) {
      for (int set = 0; set < 2; set++) {
        if (p.local[set].size() > 0) {
          return true;
        }
        for (EventBuffer b : p.outboxes[set]) {
          if (b != null && b.size() > 0) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * The time of the earliest pending event. This, {@link #pending()} and {@link #eventsExecuted()} are read between
   * runs: while the engine runs (a handler, a {@link #runWhile} condition) some events wait in the partitions'
   * outboxes and some groups have run the window while others have not, so they gave a partial window's values on
   * one thread and failed the loops' owner check on several (until stop 76). A group's own count is {@link
   * GroupScheduler#eventsExecuted()}.
   *
   * @return the time of the earliest pending event, or {@link Long#MAX_VALUE} when none
   * @throws IllegalStateException while the engine runs
   */
  public long nextEventTime() {
    checkBetweenRuns("nextEventTime");
    long t = Long.MAX_VALUE;
    for (GroupScheduler g : groups) {
      t = Math.min(t, g.nextEventTime());
    }
    return t;
  }

  /** Refuses a read of the whole engine's counts while it runs ({@code what}: the method, for the message). */
  private void checkBetweenRuns(String what) {
    if (running) {
      throw new IllegalStateException(what + " is read between runs of the engine, not while it runs");
    }
  }

  /** @return the thread that runs the engine ({@link #bindController}, or the last to run it), or null before */
  public Thread controller() {
    return controller;
  }

  /** @return whether a run call is in progress (windows are being run) */
  public boolean isRunning() {
    return running;
  }

  /**
   * Removes every pending event whose handler is {@code handler}, in every group ({@link
   * DeterministicEventLoop#remove}): between runs, when every pending event is in a group's loop. Every other event
   * keeps its time and key.
   *
   * @param handler the handler whose events to remove
   * @return how many events were removed
   * @throws IllegalArgumentException when {@code handler} is null
   * @throws IllegalStateException while the engine runs, or from a thread other than the one that runs it
   */
  public int remove(EventHandler handler) {
    if (handler == null) {
      throw new IllegalArgumentException("handler must not be null");
    }
    if (running) {
      throw new IllegalStateException("events can be removed only between runs of the engine");
    }
    int n = 0;
    for (GroupScheduler g : groups) {
      n += g.loop.remove(handler);
    }
    return n;
  }

  /** Makes the running {@code run*} call return at the end of the current window (call it from a handler). */
  public void stop() {
    stopRequested = true;
  }

  /**
   * Runs every event at or before {@code limitPs}, then sets the clock to {@code limitPs} (unless stopped or the
   * limit is {@link Long#MAX_VALUE}).
   *
   * @param limitPs last time to run, picoseconds
   * @return events run by this call
   */
  public long runUntil(long limitPs) {
    long n = run(limitPs, null);
    if (!stopRequested && limitPs != Long.MAX_VALUE && limitPs > now) {
      now = limitPs;
      for (GroupScheduler g : groups) {
        g.loop.advanceClock(limitPs); // nothing is left at or before the limit
      }
    }
    return n;
  }

  /**
   * Runs windows while events at or before {@code limitPs} remain and {@code condition} holds. The condition is
   * checked before the first window and between windows, when no handler runs, so it may read every group's
   * statistics (the model's; the engine's own {@link #pending()}, {@link #eventsExecuted()} and {@link
   * #nextEventTime()} are read between runs). An exception the condition throws ends the run at that boundary and
   * comes out of this call; unlike a handler's failure, it leaves the engine able to run again.
   *
   * @param limitPs last time to run, picoseconds
   * @param condition checked at window boundaries
   * @return events run by this call
   */
  public long runWhile(long limitPs, BooleanSupplier condition) {
    if (condition == null) {
      throw new IllegalArgumentException("condition must not be null");
    }
    return run(limitPs, condition);
  }

  /**
   * Chooses how the engine makes its worker threads (those of partitions 1 and up; partition 0 runs on the thread that
   * runs the engine), from the next run that starts them. Each is named {@code engine-partition-P} and made a daemon.
   * A caller whose groups hand control to threads of a kind of its own (virtual threads, for simulated processes)
   * gives the partitions the same kind, so that those hand-offs stay cheap. The results are the same for every kind.
   *
   * @param factory makes a worker thread for a runnable; null for the default (platform threads)
   * @throws IllegalStateException while a run is going on
   */
  public void workerThreads(ThreadFactory factory) {
    if (running) {
      throw new IllegalStateException("engine is running; choose its worker threads after its run returns");
    }
    workerFactory = factory;
  }

  /** @return what makes the worker threads ({@link #workerThreads}), or null for the default */
  public ThreadFactory workerThreadFactory() {
    return workerFactory;
  }

  /**
   * Hands the engine to another thread between runs: from now on that thread runs it (the engine is run by one
   * thread, the first to run it unless handed on), and every group's loop is bound to it, so that it may also schedule
   * into any group between runs. Call it where control passes from the current controller to {@code thread}, which
   * the caller synchronizes (a thread start, a join).
   *
   * @param thread the new controller
   * @throws IllegalStateException while a run is going on
   */
  public void bindController(Thread thread) {
    if (thread == null) {
      throw new IllegalArgumentException("thread must not be null");
    }
    if (running) {
      throw new IllegalStateException("engine is running; hand it to another thread after its run returns");
    }
    if (closing) {
      throw new IllegalStateException("engine is closed");
    }
    controller = thread;
    for (GroupScheduler g : groups) {
      g.loop.bindOwner(thread);
    }
  }

  /**
   * The checks of a run call, which change nothing: not running, not closed, no handler failed before, the caller is
   * the controller (or there is none yet) and owns every group's loop (or it has no owner yet).
   *
   * @param entered whether the caller has entered the run already (set {@link #running} itself)
   */
  private void checkEntry(Thread me, boolean entered) {
    if (!entered && running) {
      throw alreadyRunning(me);
    }
    if (closing) {
      throw new IllegalStateException("engine is closed");
    }
    if (failedBefore != null) {
      throw new IllegalStateException("a handler failed in an earlier run of this engine (" + failedBefore + "): which"
          + " events of that window ran depends on the thread count, so its state is undefined; build a new engine");
    }
    Thread c = controller;
    if (c != null && c != me) {
      throw new IllegalStateException("engine is run by thread \"" + c.getName() + "\" but thread \""
          + me.getName() + "\" called run; an engine is run by one thread");
    }
    for (GroupScheduler g : groups) {
      g.loop.checkCaller("run"); // (refuses another owner; with none yet it passes and claims nothing)
    }
  }

  private static IllegalStateException alreadyRunning(Thread me) {
    return new IllegalStateException("engine is already running (re-entrant or concurrent run from thread \""
        + me.getName() + "\")");
  }

  private long run(long limit, BooleanSupplier cond) {
    Thread me = Thread.currentThread();
    // Every check comes before any change, and the run is entered by one compare-and-set, so that a refused call
    // leaves the engine as it was: the checks came after controller, limit and condition were set, so a thread whose
    // run the loops refused stayed the controller and the real one was refused from then on (stop 77).
    checkEntry(me, false);
    if (!RUNNING.compareAndSet(this, false, true)) {
      throw alreadyRunning(me); // (another thread entered between the checks and here)
    }
    try {
      checkEntry(me, true); // again, now that no other run can start or end: one may have ended since the first checks
      for (GroupScheduler g : groups) {
        g.loop.checkOwner("run"); // (passes, as checked; takes a loop that has no owner yet)
      }
    } catch (RuntimeException | Error e) {
      running = false;
      throw e;
    }
    controller = me;
    long before = executedSum();
    this.limitPs = limit;
    this.condition = cond;
    this.conditionFailure = null;
    this.stopRequested = false;
    for (Partition p : partitions) {
      p.nextTime = p.earliest();
    }
    Throwable failed = null;
    try {
      if (partitions.length == 1) {
        while (plan()) {
          partitions[0].runWindowGuarded(); // (a failure ends the run as on several threads: plan sees it)
        }
      } else {
        startWorkers();
        for (int p = 1; p < partitions.length; p++) {
          for (GroupScheduler g : partitions[p].members) {
            g.loop.bindOwner(workers[p]);
          }
        }
        while (true) {
          if (phaser.arriveAndAwaitAdvance() < 0) {
            // a worker failed outside its window and ended the barrier: wait for the others to leave theirs
            joinWorkers();
            break;
          }
          if (!windowPlanned) {
            break;
          }
          partitions[0].runWindowGuarded();
        }
      }
    } finally {
      running = false;
      if (phaser != null && phaser.isTerminated() && !closing) {
        phaser = null; // its workers have ended: the next run starts new ones
        workers = null;
      }
      for (GroupScheduler g : groups) {
        g.loop.bindOwner(me);
        now = Math.max(now, g.loop.now());
      }
      // Hand over what the last window sent, so that between runs every pending event is in a loop: each is at or after
      // its group's own clock. After a handler failed, a group whose turn in the window never came has events before
      // the latest time another group reached; so the clocks move up to that time only after a run that did not fail
      // (after a failure the groups' clocks stay where each stopped), and a hand-over that fails all the same is added
      // to the handler's failure, which is the one reported (it used to be replaced by "timePs must be >= now").
      failed = takeFailure();
      if (failed != null) {
        String m = failed.getMessage();
        failedBefore = failed.getClass().getSimpleName() + (m == null ? "" : ": " + m.lines().findFirst().orElse(""));
      }
      try {
        for (Partition from : partitions) {
          for (EventBuffer b : from.local) {
            b.drainInto(groups);
          }
          for (EventBuffer[] set : from.outboxes) {
            for (EventBuffer b : set) {
              if (b != null) {
                b.drainInto(groups);
              }
            }
          }
        }
      } catch (RuntimeException | Error e) {
        if (failed == null) {
          throw e;
        }
        failed.addSuppressed(e);
      }
      if (failed == null) {
        for (GroupScheduler g : groups) {
          g.loop.advanceClock(now); // every loop at the time of the latest event run, whatever the partitioning
        }
      }
    }
    Throwable f = failed;
    if (f != null) {
      if (f instanceof RuntimeException r) {
        throw r;
      }
      if (f instanceof Error e) {
        throw e;
      }
      throw new IllegalStateException("event handler failed: " + f, f);
    }
    Throwable c = conditionFailure;
    if (c != null) {
      conditionFailure = null;
      if (c instanceof RuntimeException r) {
        throw r;
      }
      throw (Error) c;
    }
    return executedSum() - before;
  }

  /**
   * Decides whether another window runs and where it ends (at a barrier: no handler runs). Called by the last
   * thread to arrive, or by the only thread.
   */
  private boolean plan() {
    windowPlanned = false;
    try {
      if (anyFailed() || stopRequested) {
        return false;
      }
      long next = Long.MAX_VALUE;
      for (Partition p : partitions) {
        next = Math.min(next, Math.min(p.nextTime, p.outMin(parity)));
        now = Math.max(now, p.now);
      }
      // Long.MAX_VALUE is also "none pending": an event at that very time is told apart by looking for one (it used
      // never to run when it was the only one left)
      if (next > limitPs || (next == Long.MAX_VALUE && !anyPending())) {
        return false;
      }
      if (condition != null) {
        try {
          if (!condition.getAsBoolean()) {
            return false;
          }
        } catch (RuntimeException | Error e) {
          conditionFailure = e; // (not a handler's: see the field; it used to leave the engine refusing every run)
          return false;
        }
      }
      long end = next + lookaheadPs - 1;
      // (a window that would pass the clock's end ends there, but never past the run's limit: it did, and a
      // runUntil(Long.MAX_VALUE - 2) ran an event at Long.MAX_VALUE; found by stop 76's SchedulerContract)
      windowEnd = Math.min(end < next ? Long.MAX_VALUE : end, limitPs);
      parity ^= 1;
      windows++;
      windowPlanned = true;
      return true;
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
      return false;
    }
  }

  /** Whether a handler or anything else failed in this run (at a barrier, or on the only thread). */
  private boolean anyFailed() {
    if (failure.get() != null) {
      return true;
    }
    for (Partition p : partitions) {
      if (p.failed != null) {
        return true;
      }
    }
    return false;
  }

  /**
   * The failure the run reports, or null, and clears them all (after the run: every worker has arrived at the last
   * barrier or ended). It is the failure of the lowest-numbered group that failed, the one a single thread meets: one
   * thread runs a window's groups in group order and stops at the first that fails, and the groups' failures in a
   * window do not depend on one another (nothing one group does reaches another before the window ends), so each
   * partition stops at the lowest failing group of its block, and partitions hold contiguous blocks in group order,
   * so the first partition with a failure holds the lowest failing group of the whole window. All failures are of
   * the same window: no partition starts a window before every partition has ended the one before and the planning
   * step has seen no failure. The others (higher groups', which one thread never reaches, and one outside any window)
   * are added to it as suppressed. It used to be whichever failure was recorded first, which on several threads
   * depended on their timing (groups 1 and 3 failing in one window reported either on two or three threads, 1 on one).
   */
  private Throwable takeFailure() {
    Throwable first = null;
    for (Partition p : partitions) {
      first = withSuppressed(first, p.failed);
      p.failed = null;
    }
    return withSuppressed(first, failure.getAndSet(null));
  }

  private static Throwable withSuppressed(Throwable first, Throwable next) {
    if (first == null) {
      return next;
    }
    if (next != null && next != first) {
      first.addSuppressed(next);
    }
    return first;
  }

  private void startWorkers() {
    if (phaser != null) {
      return;
    }
    int n = partitions.length;
    phaser = new Phaser(n) {
      @Override
      protected boolean onAdvance(int phase, int registeredParties) {
        if (closing) {
          windowPlanned = false;
          return true;
        }
        plan();
        return false;
      }
    };
    workers = new Thread[n];
    for (int p = 1; p < n; p++) {
      Partition part = partitions[p];
      Phaser barrier = phaser;
      Runnable body = () -> {
        try {
          work(part, barrier);
        } catch (Throwable e) {
          workerFailed(e, barrier); // (a window's failures are caught in it: this is one at the barrier)
        }
      };
      Thread t = workerFactory == null ? new Thread(body) : workerFactory.newThread(body);
      t.setName("engine-partition-" + p);
      t.setDaemon(true);
      // whatever else ends the thread (a factory's own code) reaches the caller as well, and the JVM prints nothing
      t.setUncaughtExceptionHandler((thread, e) -> workerFailed(e, barrier));
      workers[p] = t;
      t.start();
    }
  }

  /**
   * A worker thread failed outside a window (an {@code OutOfMemoryError} while it waited at the barrier): the failure
   * is the run's, thrown on the caller's thread as a handler's is, and the barrier is ended, since the others would
   * wait for this thread at it for ever.
   */
  private void workerFailed(Throwable e, Phaser barrier) {
    failure.compareAndSet(null, e);
    barrier.forceTermination();
  }

  /** Waits for the worker threads to end (after the barrier was ended: each leaves at its next arrival). */
  private void joinWorkers() {
    boolean interrupted = false;
    for (Thread t : workers) {
      while (t != null && t.isAlive()) {
        try {
          t.join();
        } catch (InterruptedException e) {
          interrupted = true; // (the workers end by themselves: wait on, and keep the interrupt for the caller)
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void work(Partition part, Phaser barrier) {
    while (true) {
      if (barrier.arriveAndAwaitAdvance() < 0 || closing) {
        return; // terminated: closed, or threads released
      }
      if (windowPlanned) {
        part.runWindowGuarded();
      }
    }
  }

  /**
   * Ends the worker threads; the engine can no longer run. Scheduling into any of its groups from then on, reserving a
   * key, removing events, asking {@link #nextEventTime()} and handing it or a group to a thread are refused with an
   * {@link IllegalStateException} (scheduling was accepted until stop 77, and the event never ran); {@link #now()},
   * {@link #pending()} and {@link #eventsExecuted()} still read. Closing again does nothing.
   *
   * @throws IllegalStateException while a run is going on
   */
  @Override
  public void close() {
    if (closing) {
      return;
    }
    endWorkers("close it");
    for (GroupScheduler g : groups) {
      g.loop.closeAs("group " + g.group() + " of a closed PartitionedEngine");
    }
  }

  /**
   * Ends the worker threads but keeps the engine usable: the next run starts new ones. For owners that run an engine
   * to completion now and then (a job of simulated processes) and have no place to close it.
   */
  public void releaseThreads() {
    if (closing) {
      return;
    }
    endWorkers("release its threads");
    phaser = null;
    workers = null;
    closing = false;
  }

  /** Ends the worker threads, refusing while a run is going on ({@code what}: the caller's action, for the message). */
  private void endWorkers(String what) {
    if (running) {
      throw new IllegalStateException("engine is running; " + what + " after its run returns");
    }
    closing = true;
    if (phaser != null) {
      // (a worker may see closing right after the last barrier and leave without arriving again: no arrival count
      // can be relied on here, so terminate the phaser outright, which releases every waiting worker)
      phaser.forceTermination();
      for (Thread t : workers) {
        if (t != null) {
          try {
            t.join();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
        }
      }
    }
  }

  /**
   * One partition: a block of groups and its outboxes (two sets, by window parity). Each group has its own {@link
   * DeterministicEventLoop} ({@link GroupScheduler}), and a window runs the partition's groups one after the other,
   * each through the whole window. Nothing a group does in a window reaches another group before the window ends (the
   * lookahead), so this gives the same result as running the groups' events interleaved by (time, key), and each
   * group's state stays in the caches for all its events of the window (on the full system a group's routers and
   * queues are about a megabyte of a working set of hundreds).
   */
  final class Partition {
    final int index;
    /** Its groups, in group order (set once every group exists). */
    GroupScheduler[] members;
    /** The time of the latest event its groups have run. */
    long now;
    /** outboxes[parity][target partition]; a window of parity p fills set p, the next window empties it. */
    private final EventBuffer[][] outboxes;
    /**
     * local[parity]: the events its groups send to one another in a window of that parity, in the order sent,
     * handed to their targets' loops in the next window (each just before its target runs).
     */
    final EventBuffer[] local = {new EventBuffer(), new EventBuffer()};
    /**
     * sendTo[parity][group]: where an event its groups make for {@code group} goes while a window of that parity
     * runs: this partition's log when it runs the group, else the outbox for the group's partition.
     */
    final EventBuffer[][] sendTo = new EventBuffer[2][];
    /** The earliest pending event of its groups after its last window (or at the start of a run). */
    long nextTime = Long.MAX_VALUE;
    /**
     * What a group of this partition threw in the current run's window, or null; written by the partition's thread,
     * read at the barrier ({@link #anyFailed}) and after the run ({@link #takeFailure}).
     */
    Throwable failed;
    /** The group whose events it is running now, else null (read by its groups' schedulers, on its thread). */
    GroupScheduler running;

    Partition(int index, int count) {
      this.index = index;
      this.outboxes = new EventBuffer[2][count];
      for (int s = 0; s < 2; s++) {
        for (int q = 0; q < count; q++) {
          outboxes[s][q] = q == index ? null : new EventBuffer();
        }
      }
    }

    long outMin(int set) {
      long m = Long.MAX_VALUE;
      for (EventBuffer b : outboxes[set]) {
        if (b != null) {
          m = Math.min(m, b.minTime());
        }
      }
      return m;
    }

    void runWindowGuarded() {
      try {
        runWindow();
      } catch (Throwable t) {
        failed = t; // (the window stopped at the group that failed: no later group of this partition ran it)
      }
    }

    void runWindow() {
      int previous = parity ^ 1;
      for (Partition from : partitions) {
        if (from != this) {
          from.outboxes[previous][index].drainInto(groups);
        }
      }
      GroupWarmer[] w = warmers;
      EventBuffer sent = local[previous];
      boolean anySent = sent.size() != 0;
      if (anySent) {
        sent.sortByTarget(members[0].group(), members[members.length - 1].group());
      }
      for (GroupScheduler g : members) {
        if (anySent) {
          sent.drainTarget(g.group(), groups);
        }
        if (w.length != 0 && g.nextEventTime() <= windowEnd) {
          for (GroupWarmer warmer : w) {
            warmer.warm(g.group());
          }
        }
        running = g;
        try {
          g.loop.runThrough(windowEnd);
        } finally {
          running = null;
        }
        now = Math.max(now, g.loop.now());
      }
      if (anySent) {
        sent.clearSorted();
      }
      nextTime = earliest(); // only now: a group may have scheduled into one that ran before it
    }

    /** @return the time of the earliest pending event of its groups */
    long earliest() {
      long t = local[parity].minTime();
      for (GroupScheduler g : members) {
        t = Math.min(t, g.nextEventTime());
      }
      return t;
    }
  }
}
