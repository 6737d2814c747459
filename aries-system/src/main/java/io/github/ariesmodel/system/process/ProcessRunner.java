package io.github.ariesmodel.system.process;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.spi.EventHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.function.BooleanSupplier;

/**
 * Runs simulated processes whose code is ordinary blocking Java, inside a discrete-event simulation.
 *
 * <p>Each process runs on its own thread, but never concurrently with anything else: control passes by strict
 * hand-off between the event-loop thread and exactly one process thread at a time (a coroutine built from two
 * semaphores). A process runs until it waits ({@link SimProcess#sleep}, {@link SimProcess#waitUntil}) or ends; then
 * the event loop continues. Because the order of hand-offs is decided by the event loop alone, a run is exactly as
 * deterministic as the loop: same configuration and seed, same result.
 *
 * <p>Cost: one platform thread per live process (stack {@value #STACK_BYTES} bytes) and two semaphore hand-offs per
 * suspension, a few microseconds of wall time. Workloads with a process per node are fine up to a few thousand
 * processes; larger studies use the synthetic traffic generator of {@code aries-network} instead.
 *
 * <p>When the event loop runs dry while processes still wait, the run is deadlocked ({@link #unfinished()} tells
 * which); {@link #close()} ends their threads.
 *
 * <p>The event loop accepts calls from one owner thread only ({@link DeterministicEventLoop#bindOwner}): the runner
 * hands the loop to a process's thread when it passes control to it, and the process hands it back before it passes
 * control back, so a process's code may schedule (post to its NIC, sleep) while the loop stays closed to any thread
 * that does not hold control.
 */
public final class ProcessRunner implements AutoCloseable {

  /** Stack size requested for process threads. */
  public static final long STACK_BYTES = 512 * 1024;

  private final DeterministicEventLoop loop;
  private final Semaphore control = new Semaphore(0);
  private final List<Proc> processes = new ArrayList<>();
  private final EventHandler resumeHandler = (now, ref, arg) -> resume((Proc) ref);
  private Proc current;
  private Throwable failure;

  /**
   * A runner on an event loop.
   *
   * @param loop the simulation's event loop; the runner schedules process resumptions on it
   */
  public ProcessRunner(DeterministicEventLoop loop) {
    if (loop == null) {
      throw new IllegalArgumentException("loop must not be null");
    }
    this.loop = loop;
  }

  /**
   * Starts a process at the current simulated time (it first runs when the loop reaches its start event).
   *
   * @param name a name for diagnostics and the thread
   * @param body the process's code
   * @return the process
   */
  public SimProcess spawn(String name, ProcessBody body) {
    if (body == null) {
      throw new IllegalArgumentException("body must not be null");
    }
    Proc p = new Proc(name, body);
    processes.add(p);
    loop.scheduleAt(loop.now(), resumeHandler, p, 0);
    return p;
  }

  /**
   * Wakes a waiting process so that it re-checks its condition at the current simulated time. Waking a process that
   * is not waiting, or is already due, does nothing.
   *
   * @param process a process of this runner
   */
  public void wake(SimProcess process) {
    Proc p = (Proc) process;
    if (p.state == State.WAITING && !p.wakeScheduled) {
      p.wakeScheduled = true;
      loop.scheduleAt(loop.now(), resumeHandler, p, 0);
    }
  }

  /**
   * Runs the event loop until it is empty, then reports the first failure of any process.
   *
   * @throws ProcessFailedException when a process's code threw
   */
  public void run() {
    loop.run();
    rethrow();
  }

  /** @return processes that have not finished (waiting for a condition that never came, after {@link #run()}) */
  public List<SimProcess> unfinished() {
    List<SimProcess> out = new ArrayList<>();
    for (Proc p : processes) {
      if (p.state != State.DONE) {
        out.add(p);
      }
    }
    return out;
  }

  /** @return the process whose code is running now, or null on the event-loop thread */
  public SimProcess current() {
    return current;
  }

  /** Ends the threads of unfinished processes. */
  @Override
  public void close() {
    for (Proc p : processes) {
      if (p.thread != null && p.state != State.DONE) {
        p.killed = true;
        p.thread.interrupt();
      }
    }
  }

  private void rethrow() {
    if (failure != null) {
      Throwable f = failure;
      failure = null;
      throw new ProcessFailedException("simulated process failed: " + f, f);
    }
  }

  private void resume(Proc p) {
    p.wakeScheduled = false;
    if (p.state == State.DONE || failure != null) {
      return;
    }
    if (p.state == State.WAITING && p.condition != null && !p.condition.getAsBoolean()) {
      return; // woken, but what it waits for has not happened yet
    }
    current = p;
    p.returnTo = Thread.currentThread();
    if (p.thread == null) {
      p.state = State.RUNNING;
      p.thread = new Thread(null, p::main, "sim-" + p.name, STACK_BYTES);
      p.thread.setDaemon(true);
      loop.bindOwner(p.thread);
      p.thread.start();
    } else {
      p.state = State.RUNNING;
      loop.bindOwner(p.thread);
      p.run.release();
    }
    control.acquireUninterruptibly();
    current = null;
    if (failure != null) {
      loop.stop();
    }
  }

  private enum State {
    NEW,
    RUNNING,
    WAITING,
    DONE
  }

  /** Thrown from the runner when a simulated process's code failed. */
  public static final class ProcessFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ProcessFailedException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private static final class Killed extends Error {
    private static final long serialVersionUID = 1L;
  }

  private final class Proc implements SimProcess {
    final String name;
    final ProcessBody body;
    final Semaphore run = new Semaphore(0);
    volatile State state = State.NEW;
    Thread thread;
    /** The thread that passed control to this process (the loop's thread), which gets the loop back. */
    Thread returnTo;
    BooleanSupplier condition;
    boolean wakeScheduled;
    volatile boolean killed;

    Proc(String name, ProcessBody body) {
      this.name = name;
      this.body = body;
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
        failure = t;
      }
      state = State.DONE;
      loop.bindOwner(returnTo);
      control.release();
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public long now() {
      return loop.now();
    }

    @Override
    public void sleep(long ps) {
      checkOwnThread();
      if (ps < 0) {
        throw new IllegalArgumentException("ps must be >= 0 but was " + ps);
      }
      condition = null;
      wakeScheduled = true;
      loop.scheduleAt(loop.now() + ps, resumeHandler, this, 0);
      suspend(State.WAITING);
    }

    @Override
    public void waitUntil(BooleanSupplier c) {
      checkOwnThread();
      while (!c.getAsBoolean()) {
        condition = c;
        suspend(State.WAITING);
      }
      condition = null;
    }

    private void suspend(State s) {
      state = s;
      loop.bindOwner(returnTo);
      control.release();
      try {
        run.acquire();
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
