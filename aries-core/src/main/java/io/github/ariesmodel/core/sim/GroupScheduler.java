package io.github.ariesmodel.core.sim;

import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.Scheduler;

/**
 * The {@link Scheduler} of one group of a {@link PartitionedEngine}: the components of a group (a dragonfly group's
 * routers, and the nodes and traffic sources attached to them) schedule their events through it, and its handlers
 * run on the thread of the partition that holds the group.
 *
 * <p>{@link #scheduleAt} schedules an event of this group. {@link #scheduleInto} schedules an event that runs in
 * another group; it must lie at least the engine's lookahead after {@link #now()} while the engine runs (the cross
 * latency the windows are built on), and fails with {@link IllegalArgumentException} otherwise.
 *
 * <p><b>Order.</b> Every event scheduled through this object, for this group or another, gets the key (this group,
 * this group's counter), and events run in (time, key) order. So events at equal times run first by the group that
 * scheduled them, then in the order that group scheduled them: an event scheduled for "now" from inside a handler
 * runs after every event this group had already scheduled for that time, as the {@link Scheduler} contract asks.
 * Keys depend only on what the group's own handlers did, never on how groups are spread over threads.
 *
 * <p>Not thread-safe: while the engine runs, only the thread of the group's partition may use it; between runs, the
 * thread that runs the engine. Other threads fail fast with {@link IllegalStateException} (the event loop's owner
 * check).
 */
public final class GroupScheduler implements Scheduler {

  /** Bits of a key that hold the group's counter; the group id sits above them. */
  static final int COUNTER_BITS = 40;

  private static final long COUNTER_LIMIT = 1L << COUNTER_BITS;

  private final PartitionedEngine engine;
  private final int group;
  private final long keyBase;
  final PartitionedEngine.Partition partition;
  /**
   * log2 of the bucket width of a group's loop: 1,024 ps. A group's loop holds only its own group's events, a 33rd to
   * a 241st of a whole system's, so the loop's default 64-ps buckets held under one event each on the 1,056-node run
   * and about five on the full system, and most events paid a bucket change of their own (find the next bucket, load
   * it, read the one after ahead). At 1 ns a bucket holds about 11 and 70 (measured, not tuned: 512 ps and 1 ns gave
   * the same within noise; docs/performance.md, "Stop 23"). Only the cost changes, never the order.
   */
  static final int BUCKET_WIDTH_LOG2 = 10;

  /** log2 of the buckets in a group's ring: 2,048, a horizon of about 2 µs at {@link #BUCKET_WIDTH_LOG2}. */
  static final int RING_BUCKETS_LOG2 = 11;

  /** This group's own event loop, run by its partition's thread. */
  final DeterministicEventLoop loop = new DeterministicEventLoop(1 << 10, BUCKET_WIDTH_LOG2, RING_BUCKETS_LOG2);
  private long counter;
  /** The latest key {@link #reserveSequence} handed out (the largest of this group), or keyBase - 1 before any. */
  private long lastReserved;
  /** The key the latest successful {@link #scheduleReserved} call used, or -1 before any. */
  private long lastReservedUsed = -1;

  GroupScheduler(PartitionedEngine engine, int group, PartitionedEngine.Partition partition) {
    this.engine = engine;
    this.group = group;
    this.keyBase = (long) group << COUNTER_BITS;
    this.lastReserved = keyBase - 1;
    this.partition = partition;
    loop.handOverBy("PartitionedEngine.bindController");
  }

  /**
   * @return the time of this group's earliest event in its loop ({@code MAX_VALUE}: none); during a run, events
   *     other groups sent it in the window before wait in their partition's log until this group's turn
   */
  long nextEventTime() {
    return loop.nextEventTime();
  }

  /**
   * Hands this group's loop to another thread, as {@link DeterministicEventLoop#bindOwner} does for a loop: while the
   * engine runs, the partition's thread may pass it to a thread that runs on its behalf (a simulated process whose
   * code schedules events, and which may carry the window on: {@link #continueRun}) and take it back, each hand-over
   * synchronized by the caller (a park and unpark behind a volatile flag, a semaphore).
   *
   * @param thread the new owner; null makes the next thread that uses the group its owner
   * @throws IllegalStateException from a thread other than the group's owner while the engine runs
   */
  public void bindOwner(Thread thread) {
    if (engine.running && Thread.currentThread() != loop.owner()) {
      throw new IllegalStateException("group " + group + " of an engine that is running is owned by thread \""
          + loop.owner().getName() + "\"; thread \"" + Thread.currentThread().getName() + "\" called its bindOwner,"
          + " which only the owner may call during a run (PartitionedEngine.bindController hands the engine over"
          + " between runs)");
    }
    loop.bindOwner(thread);
  }

  /**
   * @return the thread that owns this group's loop ({@link DeterministicEventLoop#owner}), or null before its first
   *     use: a layer that runs jobs on the engine checks it up front, so that a refusal changes nothing
   */
  public Thread owner() {
    return loop.owner();
  }

  /**
   * Runs the next event of this group's window in progress on the calling thread, which holds the group's loop, as
   * the partition's thread would run it next ({@link DeterministicEventLoop#continueRun}): for a thread the partition's
   * thread passed control to (a simulated process) that carries the window on before passing control back.
   *
   * @return whether an event ran; false when the window has no event left for this group, or none is in progress
   */
  public boolean continueRun() {
    return loop.continueRun();
  }

  /** @return the group this scheduler belongs to */
  public int group() {
    return group;
  }

  /** @return the events this group has run so far (read it on the group's thread while the engine runs) */
  public long eventsExecuted() {
    return loop.eventsExecuted();
  }

  /** @return the engine */
  public PartitionedEngine engine() {
    return engine;
  }

  /** @return the time of the event running in this group (or of its latest), or the engine's time between runs */
  @Override
  public long now() {
    return loop.now();
  }

  /** Refuses a thread other than the owner of this group's loop ({@link DeterministicEventLoop#checkCaller}). */
  @Override
  public void checkCaller(String call) {
    loop.checkCaller(call);
  }

  /** Schedules an event of this group. */
  @Override
  public void scheduleAt(long timePs, EventHandler handler, Object ref, long arg) {
    checkRunningGroup("scheduleAt");
    loop.scheduleKeyed(timePs, nextKey(), handler, ref, arg);
  }

  /**
   * An event of another group of the same partition using this group's scheduler while the engine runs (to schedule
   * into this group, into a third one through {@link #scheduleInto}, or to reserve a key): on one thread the loop's
   * owner check lets it through, on several the groups may be on different threads and it fails, so the outcome would
   * depend on the thread count. Refused on every count ({@link #scheduleInto} of the running group's own scheduler is
   * the way). {@code scheduleInto} and {@code reserveSequence} were not checked until stop 76: an event of group 0
   * calling group 1's {@code scheduleInto(2, ...)} on one thread was held to group 1's clock and keys, and ran after
   * its window or failed elsewhere, depending on the thread count.
   */
  private void checkRunningGroup(String method) {
    GroupScheduler running = partition.running;
    if (running != this && running != null) {
      throw notOwnGroup(running, method);
    }
  }

  private IllegalStateException notOwnGroup(GroupScheduler running, String method) {
    return new IllegalStateException("group " + group + "'s " + method + " was called by an event of group "
        + running.group + " while the engine runs: an event uses its own group's scheduler, and reaches another group"
        + " through its scheduleInto (at least the lookahead, " + engine.lookaheadPs() + " ps, ahead)");
  }

  /**
   * Schedules an event that runs in group {@code targetGroup} (this group's own events may use it too).
   *
   * @param targetGroup the group whose handler runs, in [0, groups)
   * @param timePs when; while the engine runs, ≥ now + the engine's lookahead unless {@code targetGroup} is this group
   * @param handler what runs (it belongs to the target group and uses that group's scheduler)
   * @param ref an object handed to the handler
   * @param arg a number handed to the handler
   * @throws IllegalArgumentException for a group out of range or a time too early
   * @throws IllegalStateException while the engine runs, when called by an event of another group (use that group's
   *     scheduler) or from a thread other than the group's
   */
  public void scheduleInto(int targetGroup, long timePs, EventHandler handler, Object ref, long arg) {
    if (targetGroup == group) {
      scheduleAt(timePs, handler, ref, arg);
      return;
    }
    // The range check; the target itself is used only between runs (a run's events go through sendTo below).
    GroupScheduler target = engine.groupOrFail(targetGroup);
    if (engine.running) {
      // first, so that another group's misuse is told as that, not as a time too early for this group's clock
      loop.checkOwner("scheduleInto");
      checkRunningGroup("scheduleInto");
      long now = loop.now();
      // (timePs < now first: a time that overflowed, now + Long.MAX_VALUE say, passed the difference's test)
      if (timePs < now || timePs - now < engine.lookaheadPs()) {
        throw new IllegalArgumentException("timePs of an event for group " + targetGroup + " scheduled by group "
            + group + " must be >= now + lookahead (" + now + " + " + engine.lookaheadPs() + " ps) but was " + timePs
            + " ps");
      }
      if (handler == null) {
        throw new IllegalArgumentException("handler must not be null");
      }
      // one read of a table in this partition's cache, not of the target's scheduler (241 of them on the full system)
      partition.sendTo[engine.parity][targetGroup].add(targetGroup, timePs, nextKey(), handler, ref, arg);
      return;
    }
    target.loop.scheduleKeyed(timePs, nextKey(), handler, ref, arg);
  }

  /**
   * Takes this group's next key without scheduling anything, so that an event the group may or may not need later
   * can be scheduled then with {@link #scheduleReserved} and still run exactly where it would have run had it been
   * scheduled now (see {@link DeterministicEventLoop#reserveSequence()}).
   *
   * @return the reserved key, for one {@link #scheduleReserved} call at most
   * @throws IllegalStateException while the engine runs, when called by an event of another group or from a thread
   *     other than the group's
   */
  public long reserveSequence() {
    loop.checkOwner("reserveSequence");
    checkRunningGroup("reserveSequence");
    long key = nextKey();
    lastReserved = key;
    return key;
  }

  /**
   * Schedules an event of this group under a key taken earlier with {@link #reserveSequence()}.
   *
   * <p>Checked as {@link DeterministicEventLoop#scheduleReserved} checks its numbers, with two compares and no
   * per-key record: a key of another group, one above this group's latest reserved key, and the key the previous
   * {@code scheduleReserved} call used are refused. Not checked: a key used again after another was scheduled in
   * between, and a key below the latest reservation that this group's {@link #scheduleAt} or {@link #scheduleInto}
   * took.
   *
   * @param timePs when it runs, &gt; now
   * @param key a key returned by this group's {@link #reserveSequence()} and not used yet
   * @param handler what runs
   * @param ref an object handed to the handler
   * @param arg a number handed to the handler
   * @throws IllegalArgumentException for a time not after now, a key refused as above, or a null handler
   */
  public void scheduleReserved(long timePs, long key, EventHandler handler, Object ref, long arg) {
    loop.checkOwner("scheduleReserved");
    checkRunningGroup("scheduleReserved");
    if (timePs <= loop.now()) {
      throw new IllegalArgumentException("timePs must be > now (" + loop.now() + " ps) but was " + timePs + " ps");
    }
    if (key < keyBase || key > lastReserved) {
      throw new IllegalArgumentException(lastReserved < keyBase
          ? "key must be one reserved by group " + group + " but it has reserved none yet; key was " + key
          : "key must be one reserved by group " + group + ", in [" + keyBase + ", " + lastReserved
              + "] (its latest reserved) but was " + key);
    }
    if (key == lastReservedUsed) {
      throw new IllegalArgumentException("key " + key + " was used by the previous scheduleReserved call of group "
          + group + " already; each reserved key may be used once");
    }
    loop.scheduleKeyed(timePs, key, handler, ref, arg);
    lastReservedUsed = key;
  }

  private long nextKey() {
    if (counter == COUNTER_LIMIT) {
      throw new IllegalStateException("group " + group + " has scheduled 2^" + COUNTER_BITS
          + " events, the most one group may");
    }
    return keyBase | counter++;
  }

  @Override
  public String toString() {
    return "GroupScheduler[group " + group + "]";
  }
}
