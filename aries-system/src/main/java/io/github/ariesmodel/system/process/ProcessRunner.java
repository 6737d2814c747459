package io.github.ariesmodel.system.process;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.GroupScheduler;
import io.github.ariesmodel.core.sim.PartitionedEngine;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Scheduler;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Runs simulated processes whose code is ordinary blocking Java, inside a discrete-event simulation.
 *
 * <p>Each process runs on its own thread, but never concurrently with anything else: control passes by strict
 * hand-off among the threads, exactly one of which runs at a time (a coroutine built from park and unpark). A
 * process runs until it waits ({@link SimProcess#sleep}, {@link SimProcess#waitUntil}) or ends; then the event loop
 * continues. Because the order of hand-offs is decided by the event loop alone, a run is exactly as deterministic as
 * the loop: same configuration and seed, same result.
 *
 * <p>The run is <em>carried</em> from thread to thread: a process that waits runs the loop's next events on its own
 * thread until one of them resumes a process, then passes control straight to it, or goes on at once if that process
 * is itself; the thread that drives the loop ({@link #run()}'s caller, a caller's {@code runUntil}, an engine's
 * partition in its window) gets control back when its call has nothing more to run. A suspension then costs one
 * thread switch, or none, instead of the two of a hand-off to the loop's thread and back. The events are the same,
 * in the same order; only the thread that runs them differs.
 *
 * <p>Cost: one thread per live process and a thread switch per suspension. On platform threads (stack {@value
 * #STACK_BYTES} bytes; the only kind before Java 21, and the default before Java 24) a switch is the kernel's: about
 * 11-16 µs on the 2-core development VM, and dearer with thousands of threads (docs/performance.md, "Stop 29", "Stop
 * 30"). On virtual threads ({@link ThreadKind#VIRTUAL}; the default from Java 24 on, {@link #defaultThreadKind()}) the
 * process unmounts from its carrier thread and the next one mounts, without the kernel: 0.29 µs with one carrier
 * (docs/performance.md, "Stop 45"; {@code ProcessRunnerBenchmark}). The kind changes the cost only: hand-offs, events
 * and results are the same. Larger studies without processes use the synthetic traffic generator of {@code
 * aries-network}.
 *
 * <p>When the event loop runs dry while processes still wait, the run is deadlocked ({@link #unfinished()} tells
 * which); {@link #close()} ends their threads.
 *
 * <p>The event loop accepts calls from one owner thread only ({@link DeterministicEventLoop#bindOwner}): the runner
 * hands the loop to each thread it passes control to, so a process's code may schedule (post to its NIC, sleep), and
 * a carrying thread run events, while the loop stays closed to any thread that does not hold control.
 *
 * <p><b>On a partitioned engine</b> ({@link #ProcessRunner(PartitionedEngine)}) each scheduling group has its own
 * lane: its own hand-off, its own list of processes and its own first failure. A process belongs to one group
 * ({@link #spawn(String, int, ProcessBody)}), and only that group's partition thread passes control to it, so
 * processes of groups on different threads run at the same time, each with its group's loop. Their code must then
 * touch only its own group's state (its node, its NIC); anything for another group goes through the fabric. When
 * processes of several groups fail in one run, {@link #run()} reports the failure of the lowest group, so the report
 * is the same for every thread count.
 */
public final class ProcessRunner implements AutoCloseable {

  /** Stack size requested for process threads. */
  public static final long STACK_BYTES = 512 * 1024;

  /**
   * The system property that chooses the kind of thread processes run on when a runner is made without one: {@code
   * auto} (the default), {@code platform} or {@code virtual} ({@link #defaultThreadKind()}).
   */
  public static final String THREADS_PROPERTY = "aries.process-threads";

  /**
   * The kind of thread a process's code runs on. Results are the same with either: control passes by the same
   * hand-offs, one thread at a time, in the order the event loop decides.
   */
  public enum ThreadKind {
    /** One platform (kernel) thread per live process: a suspension is a thread switch in the kernel. */
    PLATFORM,
    /**
     * One virtual thread per live process (Java 21 or later): a suspension unmounts the process from its carrier
     * thread and mounts the next, without the kernel (docs/performance.md, "Stop 45").
     */
    VIRTUAL
  }

  /** {@code Thread.ofVirtual()}, or null on a JVM without virtual threads (before Java 21). */
  private static final MethodHandle OF_VIRTUAL;
  /** {@code Thread.Builder.name(String)}. */
  private static final MethodHandle BUILDER_NAME;
  /** {@code Thread.Builder.unstarted(Runnable)}. */
  private static final MethodHandle BUILDER_UNSTARTED;
  /** {@code Thread.isVirtual()}. */
  private static final MethodHandle IS_VIRTUAL;

  static {
    MethodHandle ofVirtual = null;
    MethodHandle name = null;
    MethodHandle unstarted = null;
    MethodHandle isVirtual = null;
    try {
      // looked up by name: the project compiles for Java 17, where Thread.Builder does not exist
      Class<?> builder = Class.forName("java.lang.Thread$Builder");
      Class<?> ofVirtualType = Class.forName("java.lang.Thread$Builder$OfVirtual");
      MethodHandles.Lookup lookup = MethodHandles.publicLookup();
      ofVirtual = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtualType));
      name = lookup.findVirtual(builder, "name", MethodType.methodType(builder, String.class));
      unstarted = lookup.findVirtual(builder, "unstarted", MethodType.methodType(Thread.class, Runnable.class));
      isVirtual = lookup.findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
    } catch (ReflectiveOperationException | LinkageError e) {
      ofVirtual = null; // (no virtual threads: none of the handles is used)
      name = null;
      unstarted = null;
      isVirtual = null;
    }
    OF_VIRTUAL = ofVirtual;
    BUILDER_NAME = name;
    BUILDER_UNSTARTED = unstarted;
    IS_VIRTUAL = isVirtual;
  }

  private final DeterministicEventLoop loop;
  private final PartitionedEngine engine;
  private final Lane[] lanes;
  private final ThreadKind threadKind;
  private final EventHandler resumeHandler = (now, ref, arg) -> {
    Proc p = (Proc) ref;
    p.lane.resume(p);
  };

  /**
   * A runner on an event loop.
   *
   * @param loop the simulation's event loop; the runner schedules process resumptions on it
   */
  public ProcessRunner(DeterministicEventLoop loop) {
    this(loop, defaultThreadKind());
  }

  /**
   * A runner on an event loop whose processes run on threads of a chosen kind.
   *
   * @param loop the simulation's event loop; the runner schedules process resumptions on it
   * @param threadKind the kind of thread processes run on ({@link ThreadKind#VIRTUAL} needs Java 21 or later)
   */
  public ProcessRunner(DeterministicEventLoop loop, ThreadKind threadKind) {
    if (loop == null) {
      throw new IllegalArgumentException("loop must not be null");
    }
    this.threadKind = checkKind(threadKind);
    this.loop = loop;
    this.engine = null;
    this.lanes = new Lane[] {new Lane(this, loop, loop::bindOwner, loop::stop, loop::continueRun)};
  }

  /**
   * A runner on a partitioned engine: one lane per scheduling group, each on that group's scheduler.
   *
   * @param engine the engine; the runner schedules each process's resumptions on its group
   */
  public ProcessRunner(PartitionedEngine engine) {
    this(engine, defaultThreadKind());
  }

  /**
   * A runner on a partitioned engine whose processes run on threads of a chosen kind.
   *
   * @param engine the engine; the runner schedules each process's resumptions on its group
   * @param threadKind the kind of thread processes run on ({@link ThreadKind#VIRTUAL} needs Java 21 or later)
   */
  public ProcessRunner(PartitionedEngine engine, ThreadKind threadKind) {
    if (engine == null) {
      throw new IllegalArgumentException("engine must not be null");
    }
    this.threadKind = checkKind(threadKind);
    this.loop = null;
    this.engine = engine;
    this.lanes = new Lane[engine.groupCount()];
    for (int g = 0; g < lanes.length; g++) {
      GroupScheduler s = engine.group(g);
      lanes[g] = new Lane(this, s, s::bindOwner, engine::stop, s::continueRun);
    }
  }

  /** @return whether this JVM has virtual threads (Java 21 or later) */
  public static boolean virtualThreadsAvailable() {
    return OF_VIRTUAL != null;
  }

  /**
   * The kind of thread a runner made without one uses, from the system property {@value #THREADS_PROPERTY}: {@code
   * platform}; {@code virtual} (fails on a JVM without virtual threads); or {@code auto}, the default, which is
   * virtual on Java 24 or later and platform before. Before Java 24 a virtual thread that suspends inside a {@code
   * synchronized} block pins its carrier thread (JEP 491 lifted that), and a process's code is the caller's, so only
   * a caller who knows its code may choose virtual threads there.
   *
   * @return the kind
   * @throws IllegalArgumentException when the property names no kind, or virtual threads this JVM lacks
   */
  public static ThreadKind defaultThreadKind() {
    String v = System.getProperty(THREADS_PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
    switch (v) {
      case "platform":
        return ThreadKind.PLATFORM;
      case "virtual":
        return checkKind(ThreadKind.VIRTUAL);
      case "auto":
        return virtualThreadsAvailable() && Runtime.version().feature() >= 24
            ? ThreadKind.VIRTUAL
            : ThreadKind.PLATFORM;
      default:
        throw new IllegalArgumentException("system property " + THREADS_PROPERTY
            + " must be auto, platform or virtual but was \"" + System.getProperty(THREADS_PROPERTY) + "\"");
    }
  }

  private static ThreadKind checkKind(ThreadKind kind) {
    if (kind == null) {
      throw new IllegalArgumentException("threadKind must not be null");
    }
    if (kind == ThreadKind.VIRTUAL && !virtualThreadsAvailable()) {
      throw new IllegalArgumentException("threadKind VIRTUAL needs Java 21 or later, but this JVM is Java "
          + Runtime.version().feature());
    }
    return kind;
  }

  /** @return the kind of thread this runner's processes run on */
  public ThreadKind threadKind() {
    return threadKind;
  }

  /** A new, unstarted thread of this runner's kind for a process's code. */
  private Thread newThread(Runnable code, String name) {
    if (threadKind == ThreadKind.PLATFORM) {
      Thread t = new Thread(null, code, name, STACK_BYTES);
      t.setDaemon(true);
      return t;
    }
    try {
      Object builder = OF_VIRTUAL.invoke();
      builder = BUILDER_NAME.invoke(builder, name);
      return (Thread) BUILDER_UNSTARTED.invoke(builder, code); // virtual threads are daemons
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("could not make a virtual thread", t);
    }
  }

  /**
   * Starts a process at the current simulated time (it first runs when the loop reaches its start event). On an
   * engine the process belongs to group 0.
   *
   * @param name a name for diagnostics and the thread
   * @param body the process's code
   * @return the process
   */
  public SimProcess spawn(String name, ProcessBody body) {
    return spawn(name, 0, body);
  }

  /**
   * Starts a process of a scheduling group at the group's current simulated time.
   *
   * @param name a name for diagnostics and the thread
   * @param group the group whose thread runs it, in [0, groups) on an engine; on an event loop any group ≥ 0 is the
   *     loop's (so code that spawns each node's process in its dragonfly group runs on either)
   * @param body the process's code
   * @return the process
   */
  public SimProcess spawn(String name, int group, ProcessBody body) {
    return spawn(name, group, null, body);
  }

  /**
   * Starts a process of a scheduling group whose node has operating-system noise: its {@link SimProcess#sleep work}
   * is stretched over the node's detours, and it runs again after a wait or an {@link SimProcess#idle idle} time only
   * outside them ({@link OsNoise}).
   *
   * @param name a name for diagnostics and the thread
   * @param group as {@link #spawn(String, int, ProcessBody)}
   * @param cpu the node's CPU time ({@link OsNoise#forNode}), or null for none
   * @param body the process's code
   * @return the process
   */
  public SimProcess spawn(String name, int group, OsNoise.CpuTime cpu, ProcessBody body) {
    if (body == null) {
      throw new IllegalArgumentException("body must not be null");
    }
    if (group < 0 || (engine != null && group >= lanes.length)) {
      throw new IllegalArgumentException("group must be in [0, " + (engine != null ? lanes.length - 1 : "any")
          + "] but was " + group);
    }
    Lane lane = lanes[engine == null ? 0 : group];
    Proc p = new Proc(lane, name, body, cpu);
    lane.processes.add(p);
    long now = lane.scheduler.now();
    // a node busy with a detour starts its process when the detour ends
    lane.scheduler.scheduleAt(cpu == null ? now : cpu.resume(now), resumeHandler, p, 0);
    return p;
  }

  /**
   * Wakes a waiting process so that it re-checks its condition at the current simulated time. Waking a process that
   * is not waiting, or is already due, does nothing. On an engine, call it from the process's own group.
   *
   * @param process a process of this runner
   */
  public void wake(SimProcess process) {
    Proc p = (Proc) process;
    if (p.state == State.WAITING && !p.wakeScheduled) {
      p.wakeScheduled = true;
      Scheduler s = p.lane.scheduler;
      s.scheduleAt(s.now(), resumeHandler, p, 0);
    }
  }

  /**
   * Runs the event loop (or the engine) until it is empty, then reports the first failure of any process. On an engine
   * its worker threads end with the run ({@link PartitionedEngine#releaseThreads()}).
   *
   * @throws ProcessFailedException when a process's code threw
   */
  public void run() {
    if (loop != null) {
      loop.run();
    } else {
      ThreadFactory workers = engine.workerThreadFactory();
      try {
        if (threadKind == ThreadKind.VIRTUAL) {
          // the partitions' threads hand control to processes in every window: of the processes' kind, those
          // hand-offs stay off the kernel
          engine.workerThreads(r -> newThread(r, "engine-partition"));
        }
        if (threadKind == ThreadKind.VIRTUAL && !isVirtual(Thread.currentThread())) {
          runEngineOnAVirtualThread(); // partition 0's driver too
        } else {
          engine.runUntil(Long.MAX_VALUE);
        }
      } finally {
        // a job runs the engine to completion: its worker threads would otherwise wait for a next run that may never
        // come (one set per system built); the next run starts new ones
        engine.releaseThreads();
        engine.workerThreads(workers);
      }
    }
    rethrow();
  }

  /**
   * Runs the engine on a virtual thread while the caller waits. On an engine the thread that runs a partition's
   * windows drives its groups' processes: it hands control to a process and gets it back in every window in which one
   * runs. From a platform thread both hand-offs go through the kernel; from a virtual thread they stay on the carrier,
   * as between processes. The engine and its loops go to that thread for the run and back to the caller after it.
   */
  private void runEngineOnAVirtualThread() {
    Thread caller = Thread.currentThread();
    Throwable[] thrown = new Throwable[1];
    Thread driver = newThread(() -> {
      try {
        engine.runUntil(Long.MAX_VALUE);
      } catch (Throwable t) {
        thrown[0] = t;
      }
    }, "engine-partition-0"); // (the name of the engine's own partition threads)
    engine.bindController(driver);
    driver.start();
    boolean interrupted = false;
    while (true) {
      try {
        driver.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    engine.bindController(caller);
    if (interrupted) {
      caller.interrupt();
    }
    Throwable t = thrown[0];
    if (t instanceof RuntimeException r) {
      throw r;
    }
    if (t instanceof Error e) {
      throw e;
    }
  }

  /** Whether {@code t} is a virtual thread ({@code Thread.isVirtual()}, which a Java 17 build cannot call). */
  static boolean isVirtual(Thread t) {
    if (IS_VIRTUAL == null) {
      return false;
    }
    try {
      return (boolean) IS_VIRTUAL.invoke(t);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("could not ask whether a thread is virtual", e);
    }
  }

  /** @return processes that have not finished (waiting for a condition that never came, after {@link #run()}) */
  public List<SimProcess> unfinished() {
    List<SimProcess> out = new ArrayList<>();
    for (Lane lane : lanes) {
      for (Proc p : lane.processes) {
        if (p.state != State.DONE) {
          out.add(p);
        }
      }
    }
    return out;
  }

  /** @return the process whose code is running now on the calling thread, or null on an event-loop thread */
  public SimProcess current() {
    Thread me = Thread.currentThread();
    for (Lane lane : lanes) {
      Proc c = lane.current;
      if (c != null && c.thread == me) {
        return c;
      }
    }
    return null;
  }

  /**
   * Ends the threads of unfinished processes, and takes their resumptions still pending out of the clock's queue (a
   * stopped process's compute or timer), so that a later run on the same loop or engine neither runs them nor has its
   * clock moved on to their time. Called during a run on an engine, or from a thread other than the one that runs the
   * loop or engine, it leaves them (they do nothing when they come, but move a later run's clock on).
   */
  @Override
  public void close() {
    boolean killed = false;
    for (Lane lane : lanes) {
      for (Proc p : lane.processes) {
        if (p.state != State.DONE) {
          // also one never started: its first resumption may still be pending in the loop, and a later run on the
          // same loop must not start it (resume skips killed processes)
          p.killed = true;
          killed = true;
          if (p.thread != null) {
            p.thread.interrupt();
          }
        }
      }
    }
    if (killed) {
      // only from the thread that runs the clock (another's call would be refused by its owner check): close() is
      // called in a finally, where a failure of its own would hide the run's
      if (engine != null) {
        if (!engine.isRunning() && engine.controller() == Thread.currentThread()) {
          engine.remove(resumeHandler);
        }
      } else if (loop.owner() == null || loop.owner() == Thread.currentThread()) {
        loop.remove(resumeHandler);
      }
    }
  }

  private void rethrow() {
    // the earliest failure in simulated time, the lowest lane on a tie: on an engine every group finishes its window
    // after a failure, so a later one in a lower group could be there too (stop 64's review; the single loop stops at
    // the first)
    Lane first = null;
    for (Lane lane : lanes) {
      if (lane.failure != null && (first == null || lane.failedAtPs < first.failedAtPs)) {
        first = lane;
      }
    }
    if (first != null) {
      Throwable f = first.failure;
      String name = first.failedName;
      long at = first.failedAtPs;
      for (Lane l : lanes) {
        l.failure = null;
      }
      throw new ProcessFailedException("simulated process " + name + " failed at " + at + " ps: " + what(f), f, name,
          at);
    }
  }

  /**
   * What a process's failure says in the runner's own message, on one line: the cause's message, which names what was
   * wrong, its line breaks (and the blanks around them) made one space, else its class's simple name, or its full
   * name for a class that has no simple name (an anonymous one). Not its {@code toString()}: that put a Java class name
   * ("java.lang.IllegalStateException: ") in front of every library user's message (until stop 70); the cause stays
   * attached for its type, its own message and its trace. Until stop 71 an anonymous class's cause without a message
   * left nothing after the colon, and a message with line breaks made the runner's message several lines.
   */
  private static String what(Throwable f) {
    String m = f.getMessage();
    if (m == null || m.isBlank()) {
      String simple = f.getClass().getSimpleName();
      return simple.isEmpty() ? f.getClass().getName() : simple;
    }
    return m.strip().replaceAll("\\s*\\R\\s*", " ");
  }

  /**
   * One scheduling group's processes and the hand-off of control among them and the thread that drives its loop.
   *
   * <p><b>Carrying the run.</b> The thread that runs the loop (the caller of {@code run()} or {@code runUntil} on a
   * single loop, the partition's thread in an engine's window) passes control to the first process an event resumes,
   * then waits. From then on the run is carried: a process that suspends runs the loop's next events itself ({@link
   * DeterministicEventLoop#continueRun}, {@link GroupScheduler#continueRun}) until one of them resumes a process, and
   * passes control straight to it (one thread switch), or goes on with its own code at once if the process resumed is
   * itself (none). A process that ends carries the run until it passes control on, then its thread ends. When the
   * driver's call has nothing more to run (its limit, a stop, the window's end, no event left), control goes back to
   * the driver, which returns from the event it was waiting in, and its call ends as it would have. Events run in the
   * same order, one thread at a time; only the thread that runs them changes. A driver that runs events one by one
   * ({@code step}, {@code runWhile}) has no run to carry: control comes back to it at each suspension (two switches).
   */
  private static final class Lane {
    final ProcessRunner runner;
    final Scheduler scheduler;
    final java.util.function.Consumer<Thread> bindOwner;
    final Runnable stop;
    final BooleanSupplier continueRun;
    final List<Proc> processes = new ArrayList<>();
    /** The thread waiting in {@link #driverBaton} for the carried run to come back to it. */
    Thread driver;
    final Baton driverBaton = new Baton();
    /** What an event's handler threw on a carrying thread, to be thrown on the driver's. */
    Throwable loopFailure;
    /** The thread running the loop's events inside {@link #carry}, and its (suspended) process or null (finished). */
    Thread carrierThread;
    Proc carrier;
    /** The thread that holds control (written by the thread that hands it over, read by one that has handed it on). */
    volatile Thread holder;
    Proc current;
    Throwable failure;
    /** The failed process's name and its simulated time then, for the report. */
    String failedName;
    long failedAtPs;

    Lane(ProcessRunner runner, Scheduler scheduler, java.util.function.Consumer<Thread> bindOwner, Runnable stop,
        BooleanSupplier continueRun) {
      this.runner = runner;
      this.scheduler = scheduler;
      this.bindOwner = bindOwner;
      this.stop = stop;
      this.continueRun = continueRun;
    }

    /**
     * Checks a waiting process's condition, here in an event. The condition is the process's own code (a PE's
     * predicate over its memory): if it throws, the process is resumed and throws it in its own code, so that it fails
     * the process, as it would have on the process's thread, and not the event, which would leave the event loop with
     * a handler failure and its system refusing every later run.
     */
    private static boolean conditionHolds(Proc p) {
      try {
        return p.condition.getAsBoolean();
      } catch (RuntimeException | Error t) {
        p.conditionFailure = t;
        return true;
      }
    }

    /** An event resumes {@code p}: on the thread that runs the loop now, the driver or a carrier. */
    void resume(Proc p) {
      p.wakeScheduled = false;
      if (p.state == State.DONE || failure != null || p.killed) {
        // (killed: its runner was closed, after a failed run, with this resumption still pending in the loop)
        return;
      }
      if (p.state == State.WAITING && p.condition != null && !conditionHolds(p)) {
        return; // woken, but what it waits for has not happened yet
      }
      current = p;
      p.state = State.RUNNING;
      p.resumed = true;
      Thread me = Thread.currentThread();
      if (p.thread == me) {
        return; // this thread carries the run for p itself: p goes on once this event returns
      }
      boolean carrying = me == carrierThread;
      Proc mine = carrying ? carrier : null;
      if (!carrying) {
        driver = me;
      }
      handTo(p);
      if (!carrying) {
        driverBaton.awaitUninterruptibly(); // until the carried run has nothing more to run
        current = null;
        Throwable f = loopFailure;
        if (f != null) {
          // as if the handler had thrown here, on the driver's thread, out of its run call
          loopFailure = null;
          if (f instanceof RuntimeException r) {
            throw r;
          }
          throw (Error) f;
        }
      } else if (mine != null) {
        mine.awaitResume(); // until some event resumes this thread's own process
      }
      // else a finished process's thread: carry sees it no longer holds control, and it ends
    }

    /** Passes control to {@code p}: its code runs next, on its thread (started on its first resumption). */
    private void handTo(Proc p) {
      boolean start = p.thread == null;
      if (start) {
        p.thread = runner.newThread(p::main, "sim-" + p.name);
      }
      holder = p.thread;
      bindOwner.accept(p.thread);
      if (start) {
        p.thread.start();
      } else {
        p.run.pass();
      }
    }

    /**
     * Carries the run on this thread, which holds control: runs the driver's call's next events until {@code self} is
     * resumed (then returns, holding control, for its code to go on), or, for a finished process's thread ({@code
     * self} null), until it has passed control on. When the call has nothing more to run, control goes back to the
     * driver, and {@code self} waits for a resumption by a later run.
     */
    void carry(Proc self) {
      Thread me = Thread.currentThread();
      holder = me;
      while (true) {
        if (self != null && self.resumed) {
          return;
        }
        if (holder != me) {
          return; // (self is null) control went to another process
        }
        carrierThread = me;
        carrier = self;
        boolean ran;
        try {
          ran = continueRun.getAsBoolean();
        } catch (Killed k) {
          throw k;
        } catch (Throwable t) {
          loopFailure = t;
          ran = false;
        }
        if (!ran) {
          carrierThread = null;
          carrier = null;
          current = null;
          holder = driver;
          bindOwner.accept(driver);
          driverBaton.pass();
          if (self != null) {
            self.awaitResume();
          }
          return;
        }
      }
    }
  }

  /**
   * A hand-off from one thread to another that waits for it: the waiter parks until it is passed. Passing sets a flag
   * and unparks the waiter if it may be parked. The flag and the waiting thread are volatile, and the waiter
   * publishes itself before it reads the flag while the passer sets the flag before it reads the waiter, so one of
   * them always sees the other (no lost wake-up). A permit left from an unpark that came too late only makes one
   * later park return early, and the flag is read again.
   */
  private static final class Baton {
    private volatile boolean passed;
    private volatile Thread waiter;

    void pass() {
      passed = true;
      Thread t = waiter;
      if (t != null) {
        LockSupport.unpark(t);
      }
    }

    void await() throws InterruptedException {
      waiter = Thread.currentThread();
      try {
        while (!passed) {
          LockSupport.park(this);
          if (Thread.interrupted()) {
            throw new InterruptedException();
          }
        }
      } finally {
        waiter = null;
      }
      passed = false;
    }

    void awaitUninterruptibly() {
      boolean interrupted = false;
      while (true) {
        try {
          await();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private enum State {
    NEW,
    RUNNING,
    WAITING,
    DONE
  }

  /**
   * Thrown from the runner when a simulated process's code failed: its message is {@code simulated process <name>
   * failed at <time> ps: <the cause's message>} (the cause's simple class name when it has no message), and the
   * exception the code threw is its cause.
   */
  public static final class ProcessFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String processName;
    private final long timePs;

    ProcessFailedException(String message, Throwable cause, String processName, long timePs) {
      super(message, cause);
      this.processName = processName;
      this.timePs = timePs;
    }

    /** @return the name of the process that failed ({@code pe3}, {@code rank12}: what its job named it) */
    public String processName() {
      return processName;
    }

    /** @return the process's simulated time when it failed, picoseconds */
    public long timePs() {
      return timePs;
    }
  }

  private static final class Killed extends Error {
    private static final long serialVersionUID = 1L;
  }

  private final class Proc implements SimProcess {
    final Lane lane;
    final String name;
    final ProcessBody body;
    final Baton run = new Baton();
    volatile State state = State.NEW;
    /** Set when it is resumed; cleared as its code goes on. */
    boolean resumed;
    Thread thread;
    BooleanSupplier condition;
    /** What {@link #condition} threw when an event checked it, for the process to throw in its own code. */
    Throwable conditionFailure;
    boolean wakeScheduled;
    volatile boolean killed;

    /** The node's CPU time under its OS noise, or null for none. */
    final OsNoise.CpuTime cpu;

    Proc(Lane lane, String name, ProcessBody body, OsNoise.CpuTime cpu) {
      this.lane = lane;
      this.name = name;
      this.body = body;
      this.cpu = cpu;
    }

    void main() {
      try {
        body.run(this);
      } catch (Killed k) {
        return;
      } catch (Throwable t) {
        if (killed) {
          return;
        }
        if (lane.failure == null) { // the lane's first (its events run in time order)
          lane.failure = t;
          lane.failedName = name;
          lane.failedAtPs = lane.scheduler.now();
        }
      }
      state = State.DONE;
      // this thread is free now: it carries the run until it passes control on, then ends
      lane.current = null;
      if (lane.failure != null) {
        lane.stop.run();
      }
      lane.carry(null);
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public long now() {
      return lane.scheduler.now();
    }

    @Override
    public void sleep(long ps) {
      long now = checkedNow(ps);
      suspendUntil(cpu == null ? now + ps : cpu.finish(now, ps));
    }

    @Override
    public void idle(long ps) {
      long now = checkedNow(ps);
      suspendUntil(cpu == null ? now + ps : cpu.resume(now + ps));
    }

    /** @return the time now, once a wait of {@code ps} from it is known to end within the clock */
    private long checkedNow(long ps) {
      checkOwnThread();
      long now = lane.scheduler.now();
      if (ps < 0 || ps > Long.MAX_VALUE - now) {
        // (the end would pass the clock's: it used to wrap and fail as "timePs must be >= now" naming no ps)
        throw new IllegalArgumentException("ps must be in [0, " + (Long.MAX_VALUE - now) + "] (to end within the"
            + " clock from now, " + now + " ps) but was " + ps);
      }
      return now;
    }

    private void suspendUntil(long atPs) {
      condition = null;
      wakeScheduled = true;
      lane.scheduler.scheduleAt(atPs, resumeHandler, this, 0);
      suspend(State.WAITING);
    }

    @Override
    public void waitUntil(BooleanSupplier c) {
      checkOwnThread();
      boolean waited = false;
      while (!c.getAsBoolean()) {
        condition = c;
        waited = true;
        suspend(State.WAITING);
        Throwable f = conditionFailure;
        if (f != null) {
          conditionFailure = null;
          condition = null;
          if (f instanceof Error e) {
            throw e;
          }
          throw (RuntimeException) f;
        }
      }
      condition = null;
      if (waited && cpu != null) {
        // the condition came true inside a detour: the process goes on when the kernel gives the CPU back
        long now = lane.scheduler.now();
        long at = cpu.resume(now);
        if (at > now) {
          suspendUntil(at);
        }
      }
    }

    private void suspend(State s) {
      state = s;
      resumed = false;
      lane.current = null;
      lane.carry(this);
      resumed = false;
      if (killed) {
        throw new Killed();
      }
    }

    /** Parks until this process is resumed; a kill ({@link ProcessRunner#close()}) ends its code. */
    void awaitResume() {
      try {
        run.await();
      } catch (InterruptedException e) {
        throw new Killed();
      }
      if (killed) {
        throw new Killed();
      }
    }

    private void checkOwnThread() {
      if (Thread.currentThread() != thread) {
        throw new IllegalStateException("process " + name + " may only be suspended from its own code");
      }
    }

    @Override
    public String toString() {
      return "SimProcess[" + name + ", " + state + "]";
    }
  }
}
