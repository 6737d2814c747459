package io.github.ariesmodel.testkit.fake;

import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Scheduler;
import java.util.PriorityQueue;

/**
 * A {@link Scheduler} whose clock moves only when a test moves it, like Guava's {@code FakeTicker} with an event
 * queue: {@link #advanceTo} and {@link #advanceBy} run every event that falls due, in (time, scheduling order), with
 * {@link #now()} set to each event's time while it runs, including events scheduled by those events. A test thus
 * decides exactly how far simulated time goes and inspects the component in between.
 *
 * <pre>{@code
 * ManualScheduler clock = new ManualScheduler();
 * FlatTranslation flat = new FlatTranslation(memory, clock, 250);
 * flat.translate(..., listener, null, 0);
 * clock.advanceBy(249);   // nothing yet
 * clock.advanceBy(1);     // the listener runs at 250 ps
 * }</pre>
 *
 * <p>The calls that run events ({@link #advanceTo}, {@link #advanceBy}, {@link #runNext}, {@link #runAll}) are made by
 * the test, not by a handler: one called from a handler is refused with an {@link IllegalStateException} (until stop
 * 76 a handler at 100 ps calling {@code advanceTo(300)} inside the test's {@code advanceTo(200)} ran an event at 250
 * ps, and the outer call then set the clock back to 200). A handler that wants time to pass schedules an event.
 *
 * <p>Allocates per event; for tests, not for large simulations (use the core event loop there).
 */
public final class ManualScheduler implements Scheduler {

  private record Event(long time, long seq, EventHandler handler, Object ref, long arg) {}

  private final PriorityQueue<Event> queue = new PriorityQueue<>((a, b) ->
      a.time != b.time ? Long.compare(a.time, b.time) : Long.compare(a.seq, b.seq));
  private long now;
  private long nextSeq;
  private long executed;
  /** The call running events now ({@code advanceTo}, ...), or null. */
  private String runningCall;

  /** A scheduler at time 0 with nothing pending. */
  public ManualScheduler() {}

  /**
   * A scheduler starting at a given time.
   *
   * @param startPs the initial time, ≥ 0
   */
  public ManualScheduler(long startPs) {
    if (startPs < 0) {
      throw new IllegalArgumentException("startPs must be >= 0 but was " + startPs);
    }
    this.now = startPs;
  }

  @Override
  public long now() {
    return now;
  }

  @Override
  public void scheduleAt(long timePs, EventHandler handler, Object ref, long arg) {
    if (timePs < now) {
      throw new IllegalArgumentException("timePs must be >= now (" + now + " ps) but was " + timePs + " ps");
    }
    if (handler == null) {
      throw new IllegalArgumentException("handler must not be null");
    }
    queue.add(new Event(timePs, nextSeq++, handler, ref, arg));
  }

  /**
   * Runs every event due at or before {@code timePs}, then sets the clock to {@code timePs}.
   *
   * @param timePs the new time, ≥ now
   * @return events run
   * @throws IllegalArgumentException when {@code timePs} is before now
   * @throws IllegalStateException when called by a handler (see the class comment)
   */
  public int advanceTo(long timePs) {
    return advance("advanceTo", timePs);
  }

  private int advance(String call, long timePs) {
    checkNotRunning(call);
    if (timePs < now) {
      throw new IllegalArgumentException("timePs must be >= now (" + now + " ps) but was " + timePs + " ps");
    }
    int ran = 0;
    runningCall = call;
    try {
      while (!queue.isEmpty() && queue.peek().time <= timePs) {
        runOne();
        ran++;
      }
    } finally {
      runningCall = null;
    }
    now = timePs;
    return ran;
  }

  /** Refuses a call that runs events from inside a handler of another such call. */
  private void checkNotRunning(String call) {
    if (runningCall != null) {
      throw new IllegalStateException(call + " was called by an event handler while " + runningCall + " runs events"
          + " (at " + now + " ps); the test moves the clock, between its calls: a handler schedules an event instead");
    }
  }

  /**
   * Advances the clock by a delay, running what falls due.
   *
   * @param delayPs how far, ≥ 0, ending at most at {@code Long.MAX_VALUE}
   * @return events run
   * @throws IllegalArgumentException when {@code delayPs} is negative or would pass the clock's end
   * @throws IllegalStateException when called by a handler (see the class comment)
   */
  public int advanceBy(long delayPs) {
    checkNotRunning("advanceBy");
    if (delayPs < 0 || delayPs > Long.MAX_VALUE - now) {
      // now + delayPs past the clock's end wrapped to a negative time, reported as a timePs never given
      throw new IllegalArgumentException("delayPs must be in [0, " + (Long.MAX_VALUE - now)
          + "] (to end within the clock from now, " + now + " ps) but was " + delayPs);
    }
    return advance("advanceBy", now + delayPs);
  }

  /**
   * Runs the earliest pending event only, moving the clock to its time.
   *
   * @return false when nothing was pending
   * @throws IllegalStateException when called by a handler (see the class comment)
   */
  public boolean runNext() {
    checkNotRunning("runNext");
    if (queue.isEmpty()) {
      return false;
    }
    runningCall = "runNext";
    try {
      runOne();
    } finally {
      runningCall = null;
    }
    return true;
  }

  /**
   * Runs events until none is pending; the clock ends at the last event's time.
   *
   * @param maxEvents a bound against runaway self-scheduling, ≥ 1
   * @return events run
   * @throws IllegalStateException when events remain after {@code maxEvents}, or when called by a handler (see the
   *     class comment)
   */
  public int runAll(int maxEvents) {
    checkNotRunning("runAll");
    if (maxEvents < 1) {
      throw new IllegalArgumentException("maxEvents must be >= 1 but was " + maxEvents);
    }
    int ran = 0;
    runningCall = "runAll";
    try {
      while (!queue.isEmpty()) {
        if (ran == maxEvents) {
          throw new IllegalStateException("events still pending after " + maxEvents + " events (next at "
              + queue.peek().time + " ps): a component keeps scheduling itself");
        }
        runOne();
        ran++;
      }
    } finally {
      runningCall = null;
    }
    return ran;
  }

  /** @return events scheduled and not yet run */
  public int pending() {
    return queue.size();
  }

  /** @return events run since the scheduler was made */
  public long executed() {
    return executed;
  }

  /** @return the time of the earliest pending event, or {@link Long#MAX_VALUE} when none */
  public long nextEventTime() {
    return queue.isEmpty() ? Long.MAX_VALUE : queue.peek().time;
  }

  private void runOne() {
    Event e = queue.poll();
    now = e.time;
    executed++;
    e.handler.onEvent(e.time, e.ref, e.arg);
  }
}
