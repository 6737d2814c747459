package io.github.ariesmodel.core.sim;

import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.ReadAhead;
import io.github.ariesmodel.core.spi.Scheduler;
import java.util.Arrays;
import java.util.function.BooleanSupplier;

/**
 * The simulation's event loop: events run in (time, sequence number) order, where the sequence number counts
 * schedulings, so events at equal times run in the order they were scheduled. A run is therefore a function of its
 * inputs alone.
 *
 * <p>Structure: a calendar queue. Time is cut into buckets of {@code 2^bucketWidthLog2} ps, and a ring of
 * {@code 2^ringBucketsLog2} buckets covers the near future. Scheduling into a future bucket of the ring pushes the
 * event onto that bucket's unsorted list (O(1)). When the loop reaches a bucket of a few events (up to {@code
 * SORT_LIMIT}, 128), it sorts them by insertion on one packed {@code long} key an entry and runs them in that order
 * straight from the list; a larger bucket fills a small 4-ary heap ordered by the same key ({@code BucketHeap}).
 * An event scheduled into the running bucket takes its place in the sorted run (unless the bucket went to the heap,
 * or the run's arrays are full, or its sequence does not fit the packed key: then the heap), and the next event is
 * the smaller of the sorted run's head and the heap's. Events beyond the ring's horizon wait in a second heap and
 * join the running bucket's heap when the loop reaches theirs. The order is exactly that of one global heap ordered by
 * (time, sequence): only the cost differs. A large simulation keeps hundreds of thousands of events
 * pending but only a few thousand in the running bucket, so the heap the hot path works on stays small and in cache
 * (see docs/performance.md, "Why an event costs more on the full system").
 *
 * <p>Layout: an event waiting in a ring bucket is an entry of the bucket's list, a chain of chunks of 8 entries with
 * its time, sequence and arg in one primitive array and its handler and ref side by side in another, written and
 * read front to back. A sorted bucket's events stay in their chunks until they run (the chunks return to the free
 * list after the last); in a heap-run bucket each entry's handler, ref and arg move into a slot and its time and
 * sequence, with the slot's number, into the running heap (an event scheduled straight into the running bucket or
 * beyond the horizon takes its slot at once). Slots are reused most recently freed first, and only
 * the heaps' events hold one, so the slot array stays small and in cache; the lines an event was written to long ago
 * are read in sequence as its bucket loads, not one by one as it runs. Freed slots and chunks are reused from stacks,
 * and all arrays grow by doubling and never shrink: once the queue has reached its working size, scheduling and
 * running events allocate nothing.
 *
 * <p><b>One owner thread.</b> A loop is used by one thread: the first thread that schedules or runs an event becomes
 * its owner (or {@link #bindOwner} names one), and a call of {@code scheduleAt}, {@code scheduleReserved}, {@code
 * reserveSequence}, {@code remove}, {@code nextEventTime} (which may load the next bucket) or a {@code run} method
 * from any other thread fails fast with an {@link IllegalStateException} naming both threads, before anything is
 * changed. The check is one field compare per call. A design that hands
 * the simulation from thread to thread (simulated processes on threads, the partitions of a {@link
 * PartitionedEngine}) hands the loop over with {@link #bindOwner} at the point where control passes.
 */
public final class DeterministicEventLoop implements Scheduler {

  /** Default bucket width: 64 ps (a few to a few thousand events a bucket, from one group to 241 under load). */
  public static final int DEFAULT_BUCKET_WIDTH_LOG2 = 6;

  /** Default ring size: 16,384 buckets, a horizon of about 1 µs at the default width. */
  public static final int DEFAULT_RING_BUCKETS_LOG2 = 14;

  /**
   * The largest initial capacity: 2^26 events (assumed; the loop grows past it as needed). The arrays it sizes, three
   * longs and two references an event, then stay inside an array's index ({@code 1 << 30} overflowed one).
   */
  public static final int MAX_INITIAL_CAPACITY = 1 << 26;

  /** log2 of the entries of a bucket-list chunk. */
  private static final int CHUNK_LOG2 = 3;
  private static final int CHUNK = 1 << CHUNK_LOG2;
  /** longs per entry of a chunk: time, sequence, arg. */
  private static final int ENTRY = 3;
  /**
   * At most this many refs of the next bucket are read ahead: {@link #SORT_LIMIT}'s worth, a whole bucket of a
   * full-system group's loop (about 70 events at 1 ns a bucket). At 32 (a few 64-ps buckets' worth, the first,
   * assumed bound) more than half of such a bucket's records were fetched only as it loaded; 128 took the full run's
   * CPU to 0.949 (0.90-0.98) of 32's, 5 pairs, with the 1,056-node run unchanged (docs/performance.md, "Stop 27").
   */
  private static final int TOUCH_AHEAD = 128;
  /**
   * A bucket of at most this many events is sorted as it loads and run from its chunks; a larger one goes through the
   * running heap. An insertion sort's moves grow with the square of the count, the heap's work with its log; in
   * {@code CalendarQueueBenchmark} on a group loop's geometry the sort is faster up to about 80 events a bucket and
   * level with the heap at about 128 (measured, docs/performance.md, "Stop 26").
   */
  private static final int SORT_LIMIT = 128;

  private final int shift;
  private final int ringMask;
  /**
   * Per ring bucket {@code b}, at {@code 2b} the first chunk of its list and at {@code 2b + 1} the last entry written
   * to it (the entry's number: its chunk is {@code entry >>> CHUNK_LOG2}, and that chunk holds {@code (entry & (CHUNK
   * - 1)) + 1} entries, every earlier chunk of the list {@code CHUNK}), both -1 when the bucket is empty. Keeping the
   * count in the last entry's number spares a scheduling the read of a per-chunk count, a line apart from the entry it
   * writes, and the two numbers side by side are one line where loading a bucket and reading it ahead read two.
   */
  private final int[] bucketEnds;
  private final long[] ringBits;
  private int ringCount;
  /** The bucket being run: every event of it, and of any earlier bucket, is in {@link #current}. */
  private long currentBucket;
  private final BucketHeap current;
  private final EventHeap far;

  /**
   * The loaded bucket's events, sorted: entry {@code runPos} to {@code runEnd - 1} of {@link #runKeys} (the running
   * heap's packed keys, {@link BucketHeap#packedKey}: its base is always the running bucket's start) and {@link
   * #runEntries} (the event's chunk entry, where its handler, ref and arg stay until it runs). Events scheduled into
   * the running bucket meanwhile join it ({@link #insertIntoRun}) or, failing that, {@link #current}; the next event
   * is the smaller of the two heads.
   */
  private final long[] runKeys = new long[SORT_LIMIT];
  private final int[] runEntries = new int[SORT_LIMIT];
  private int runPos;
  private int runEnd;
  /**
   * The chunks of the sorted bucket: the first, and the last entry written (as {@link #bucketEnds}), or -1: back to
   * the free list once its last event has run, so there are chunks here only while the run holds events.
   */
  private int runChainHead = -1;
  private int runChainLast = -1;

  /**
   * Per slot of an event in one of the heaps: the handler at {@code 2 × slot}, the ref at {@code 2 × slot + 1}. An
   * event in a ring bucket has no slot: it takes one when its bucket is loaded into the running heap.
   */
  private Object[] slotObjects;
  /** Per slot: the event's arg. */
  private long[] slotArgs;
  private int[] freeSlots;
  private int freeTop;
  /** Chunk {@code c}'s entry {@code i} is at {@code (c × CHUNK + i) × 3}: time, sequence, arg. */
  private long[] chunkData;
  /** Chunk {@code c}'s entry {@code i} has its handler at {@code (c × CHUNK + i) × 2} and its ref just after. */
  private Object[] chunkObjects;
  /** Per chunk, the next chunk of its bucket (or of the free list), or -1. */
  private int[] chunkNext;
  private int freeChunk = -1;
  private int chunksUsed;

  /**
   * Counts refs of {@link TouchMark}'s class that {@link #touch} met, and chunks whose numbers {@link #touchNextBucket}
   * found to AND to a negative value (their first is a time, never negative): there are none.
   */
  private int touched;
  private int size;
  private long now;
  private long nextSeq;
  /** The latest number {@link #reserveSequence} handed out (the largest: numbers only grow), or -1 before any. */
  private long lastReserved = -1;
  /** The number the latest successful {@link #scheduleReserved} call used, or -1 before any. */
  private long lastReservedUsed = -1;
  private long executed;
  private boolean stopRequested;
  /** The first exception an event's handler threw out of a run call, or null. */
  private Throwable handlerFailure;
  /**
   * Whether a {@link #runUntil} or {@link #runThrough} call is in progress, its limit, and whether it ends on a
   * {@link #stop()} (runUntil's does, a window's does not): what {@link #continueRun} carries on.
   */
  private boolean inRun;
  private long runLimit;
  private boolean runStops;
  /** Whether a {@link #runWhile} call is in progress (for {@link #bindOwner}'s check only). */
  private boolean inRunWhile;
  /** The thread allowed to schedule and run events; null until the first use. */
  private Thread owner;
  /**
   * What the loop is, once its engine was closed ({@link #closeAs}), else null: it then takes no more calls held to the
   * owner, and {@link #claim} says so.
   */
  private String closedAs;
  /** The call a refusal of another thread names as the hand-over: an engine's loops say its bindController. */
  private String handOver = "bindOwner";

  /** An empty loop at time 0. */
  public DeterministicEventLoop() {
    this(1024);
  }

  /**
   * An empty loop at time 0 with room for {@code initialCapacity} pending events before it grows.
   *
   * @param initialCapacity in [1, {@link #MAX_INITIAL_CAPACITY}]
   */
  public DeterministicEventLoop(int initialCapacity) {
    this(initialCapacity, DEFAULT_BUCKET_WIDTH_LOG2, DEFAULT_RING_BUCKETS_LOG2);
  }

  /**
   * An empty loop at time 0 with a chosen calendar geometry. The geometry changes only the cost of scheduling, never
   * the order events run in.
   *
   * @param initialCapacity in [1, {@link #MAX_INITIAL_CAPACITY}]
   * @param bucketWidthLog2 log2 of a bucket's width in ps, in [0, 40]
   * @param ringBucketsLog2 log2 of the number of buckets in the ring, in [6, 24]
   */
  public DeterministicEventLoop(int initialCapacity, int bucketWidthLog2, int ringBucketsLog2) {
    if (initialCapacity < 1 || initialCapacity > MAX_INITIAL_CAPACITY) {
      throw new IllegalArgumentException("initialCapacity must be in [1, " + MAX_INITIAL_CAPACITY + "] but was "
          + initialCapacity);
    }
    if (bucketWidthLog2 < 0 || bucketWidthLog2 > 40) {
      throw new IllegalArgumentException("bucketWidthLog2 must be in [0, 40] but was " + bucketWidthLog2);
    }
    if (ringBucketsLog2 < 6 || ringBucketsLog2 > 24) {
      throw new IllegalArgumentException("ringBucketsLog2 must be in [6, 24] but was " + ringBucketsLog2);
    }
    shift = bucketWidthLog2;
    ringMask = (1 << ringBucketsLog2) - 1;
    bucketEnds = new int[2 << ringBucketsLog2];
    Arrays.fill(bucketEnds, -1);
    ringBits = new long[(1 << ringBucketsLog2) >>> 6];
    current = new BucketHeap(bucketWidthLog2, Math.min(initialCapacity, 1024));
    far = new EventHeap(Math.min(initialCapacity, 1024));
    slotObjects = new Object[2 * initialCapacity];
    slotArgs = new long[initialCapacity];
    int chunks = Math.max(16, initialCapacity >>> CHUNK_LOG2);
    chunkData = new long[(chunks << CHUNK_LOG2) * ENTRY];
    chunkObjects = new Object[chunks << (CHUNK_LOG2 + 1)];
    chunkNext = new int[chunks];
    freeSlots = new int[initialCapacity];
    for (int i = 0; i < initialCapacity; i++) {
      freeSlots[i] = initialCapacity - 1 - i;
    }
    freeTop = initialCapacity;
  }

  @Override
  public long now() {
    return now;
  }

  @Override
  public void scheduleAt(long timePs, EventHandler handler, Object ref, long arg) {
    checkSchedule(timePs, handler);
    insert(timePs, nextSeq++, handler, ref, arg);
  }

  /** The checks of {@link #scheduleAt} (and of the engine's keyed scheduling), before anything changes. */
  private void checkSchedule(long timePs, EventHandler handler) {
    checkOwner("scheduleAt");
    if (timePs < now) {
      throw new IllegalArgumentException(
          "timePs must be >= now (" + now + " ps) but was " + timePs + " ps");
    }
    if (handler == null) {
      throw new IllegalArgumentException("handler must not be null");
    }
  }

  /**
   * Takes the next sequence number without scheduling anything, so that an event the caller may or may not need
   * later can be scheduled then with {@link #scheduleReserved} and still run exactly where it would have run had it
   * been scheduled now. A component uses this to skip events that would find nothing to do (the router fabric's
   * link-free wake-up when no packet waits for the link) without changing the order of any other event.
   *
   * @return the reserved sequence number, for one {@link #scheduleReserved} call at most
   */
  public long reserveSequence() {
    checkOwner("reserveSequence");
    lastReserved = nextSeq;
    return nextSeq++;
  }

  /**
   * Schedules an event under a sequence number taken earlier with {@link #reserveSequence()}: it runs in (time,
   * sequence) order as if it had been scheduled when the number was reserved. Each reserved number may be used
   * once; the time must be later than {@link #now()}, so that no event already run at the current time should have
   * come after it.
   *
   * <p><b>What is checked.</b> Two compares, no per-number record (this runs once per packet send in the router
   * fabric, which reserves a number at every send and uses few of them): a number above the latest reserved one
   * (so never reserved: taken by {@link #scheduleAt} since, or never handed out), a negative one, and the number the
   * previous {@code scheduleReserved} call used (the same number twice in a row) are refused with an {@link
   * IllegalArgumentException}, before anything changes. <b>Not checked:</b> a number used again after another
   * reserved number was scheduled in between, and a number below the latest reservation that {@link #scheduleAt}
   * took (not reserved). Either would need a record per reserved number, and most reservations are never used, so
   * the loop cannot tell when one may be forgotten. Such a call schedules a second event under an existing (time,
   * sequence) key; the two run one after the other in an order fixed by the loop's structure, still the same on
   * every run.
   *
   * @param timePs when it runs, picoseconds, &gt; now
   * @param seq a number returned by {@link #reserveSequence()} and not used yet
   * @param handler what runs
   * @param ref an object handed to the handler
   * @param arg a number handed to the handler
   * @throws IllegalArgumentException for a time not after now, a number refused as above, or a null handler
   */
  public void scheduleReserved(long timePs, long seq, EventHandler handler, Object ref, long arg) {
    checkOwner("scheduleReserved");
    if (timePs <= now) {
      throw new IllegalArgumentException(
          "timePs must be > now (" + now + " ps) but was " + timePs + " ps");
    }
    if (seq < 0 || seq > lastReserved) {
      throw new IllegalArgumentException(lastReserved < 0
          ? "seq must be a number taken by reserveSequence() but none was taken yet; seq was " + seq
          : "seq must be a reserved number in [0, " + lastReserved + "] (the latest reserved) but was " + seq);
    }
    if (seq == lastReservedUsed) {
      throw new IllegalArgumentException("seq " + seq + " was used by the previous scheduleReserved call already;"
          + " each reserved number may be used once");
    }
    if (handler == null) {
      throw new IllegalArgumentException("handler must not be null");
    }
    lastReservedUsed = seq;
    insert(timePs, seq, handler, ref, arg);
  }

  /**
   * Schedules an event under a caller-chosen ordering key instead of the loop's own sequence: it runs in (time, key)
   * order among the events scheduled this way. The {@link PartitionedEngine} uses it with keys that name the group
   * whose handler scheduled the event and that group's own counter, so that the order does not depend on how groups
   * are spread over partitions. Keys must be unique and must not be mixed with {@link #scheduleAt} on one loop.
   */
  void scheduleKeyed(long timePs, long key, EventHandler handler, Object ref, long arg) {
    checkSchedule(timePs, handler);
    insert(timePs, key, handler, ref, arg);
  }

  /**
   * Hands the loop to a thread: from now on only {@code thread} may schedule and run events. Call it where control
   * passes from the current owner to another thread (the current owner no longer uses the loop, and the hand-over
   * itself is synchronized, by a semaphore, a barrier or a thread start), or once at set-up to name the owner.
   *
   * <p>While a run is going on ({@code run}, {@code runUntil}, {@code runWhile}, an engine's window), only the owner
   * may hand the loop over (a process runner's hand-overs are made by the thread that holds control, the owner):
   * another thread's call is refused, as taking the loop from the thread running it left both runs failing or hung.
   * Between runs any thread may bind (set-up, or after a join).
   *
   * @param thread the new owner; null makes the next thread that uses the loop its owner
   * @throws IllegalStateException from a thread other than the owner while a run is going on, naming both
   */
  public void bindOwner(Thread thread) {
    if (closedAs != null) {
      throw closed("bindOwner");
    }
    if ((inRun || inRunWhile) && Thread.currentThread() != owner) {
      throw new IllegalStateException("event loop owned by thread \"" + owner.getName() + "\" is running; thread \""
          + Thread.currentThread().getName() + "\" called bindOwner, which only the owner may call during a run"
          + " (hand the loop over after the run returns)");
    }
    owner = thread;
  }

  /**
   * Closes the loop for good, as part of a {@link PartitionedEngine} that was closed and runs no more: every later call
   * held to the owner (scheduling, reserving, removing, running, {@link #nextEventTime}) and {@link #bindOwner} is
   * refused in one line, so that an event scheduled into it is refused rather than lost. The hot path pays nothing
   * for it: the owner becomes a thread that never runs, so each such call fails the owner compare it makes anyway, and
   * the refusal is told on that compare's rare path ({@link #claim}). The reads ({@link #now()}, {@link #pending()},
   * {@link #eventsExecuted()}) still answer.
   *
   * @param name what the loop is, for the message ("group 3 of a closed PartitionedEngine")
   */
  void closeAs(String name) {
    closedAs = name;
    owner = new Thread(name); // (never started: no caller is this thread)
  }

  /** Makes a refusal of another thread name {@code call} as the way to hand the loop over (an engine's loops). */
  void handOverBy(String call) {
    handOver = call;
  }

  private IllegalStateException closed(String call) {
    return new IllegalStateException(closedAs + " was called (" + call + "): a closed engine runs no more, so nothing"
        + " scheduled into it would run; build a new engine");
  }

  /** @return the thread that owns the loop, or null before the first use */
  public Thread owner() {
    return owner;
  }

  /** Fails unless the calling thread owns the loop (or, with no owner yet, makes it the owner). */
  void checkOwner(String call) {
    if (Thread.currentThread() != owner) {
      claim(call);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Here: one compare with the owner; on a mismatch (the rare path) a thread other than the owner is refused, and
   * with no owner yet the caller passes without becoming the owner (its scheduling call will make it one).
   */
  @Override
  public void checkCaller(String call) {
    if (Thread.currentThread() != owner) {
      notOwnerCaller(call);
    }
  }

  private void notOwnerCaller(String call) {
    if (closedAs != null) {
      throw closed(call);
    }
    if (owner != null) {
      throw notOwner(call);
    }
  }

  /** The calling thread is not the owner: becomes the owner if there is none yet, else fails naming both. */
  private void claim(String call) {
    if (closedAs != null) {
      throw closed(call);
    }
    Thread me = Thread.currentThread();
    if (owner == null) {
      owner = me;
      return;
    }
    throw notOwner(call);
  }

  private IllegalStateException notOwner(String call) {
    return new IllegalStateException("event loop owned by thread \"" + owner.getName() + "\" was called ("
        + call + ") from thread \"" + Thread.currentThread().getName() + "\"; a loop is used by one thread ("
        + handOver + " hands it over)");
  }

  private void insert(long timePs, long seq, EventHandler handler, Object ref, long arg) {
    long bucket = timePs >>> shift;
    if (size++ == 0) {
      // Nothing pending: start the calendar at this event, so a sparse run never walks empty buckets.
      currentBucket = bucket;
      current.startBucket(bucket << shift);
    }
    long ahead = bucket - currentBucket;
    if (ahead <= 0) {
      // The running bucket: its sorted run takes the event if it can (a packed key: not an earlier bucket, which a
      // peek that moved the calendar past now leaves behind); else the running heap orders it.
      long key = runTakesInserts() ? current.packedKey(timePs, seq) : -1;
      if (key >= 0) {
        insertIntoRun(key, timePs, seq, handler, ref, arg);
      } else {
        current.push(timePs, seq, takeSlot(handler, ref, arg));
      }
    } else if (ahead <= ringMask) {
      int b = (int) bucket & ringMask;
      int last = bucketEnds[2 * b + 1];
      int e = entryAfter(last);
      if (last < 0) {
        bucketEnds[2 * b] = e >>> CHUNK_LOG2;
        ringBits[b >>> 6] |= 1L << b;
      }
      bucketEnds[2 * b + 1] = e;
      writeEntry(e, timePs, seq, handler, ref, arg);
      ringCount++;
    } else {
      far.push(timePs, seq, takeSlot(handler, ref, arg));
    }
  }

  /**
   * Whether an event for the running bucket may join the sorted run: the run holds events and has room (or can make
   * it by moving them to the front), or both the run and the heap are empty (a bucket the heap runs keeps the heap).
   */
  private boolean runTakesInserts() {
    return runPos < runEnd ? runEnd < runKeys.length || runPos > 0 : current.isEmpty();
  }

  /**
   * Places an event of the running bucket, of packed key {@code key}, in the sorted run: its handler, ref and arg in
   * a chunk entry of the run's chain, its key at its place among the events still to run. When the arrays are full,
   * the events still to run move to their front first; when the run is empty, it starts anew.
   */
  private void insertIntoRun(long key, long timePs, long seq, EventHandler handler, Object ref, long arg) {
    if (runPos == runEnd) {
      runPos = 0;
      runEnd = 0;
    } else if (runEnd == runKeys.length) {
      int n = runEnd - runPos;
      System.arraycopy(runKeys, runPos, runKeys, 0, n);
      System.arraycopy(runEntries, runPos, runEntries, 0, n);
      runPos = 0;
      runEnd = n;
    }
    int last = runChainLast;
    int e = entryAfter(last);
    if (last < 0) {
      runChainHead = e >>> CHUNK_LOG2;
    }
    runChainLast = e;
    writeEntry(e, timePs, seq, handler, ref, arg);
    placeInRun(runPos, runEnd++, key, e);
  }

  /**
   * One step of the sorted run's insertion sort: puts (key, entry) at its place among entries {@code from} to {@code
   * end - 1} of {@link #runKeys} and {@link #runEntries}, which are sorted, moving the larger ones up by one ({@code
   * end} is below the arrays' length).
   */
  private void placeInRun(int from, int end, long key, int entry) {
    long[] keys = runKeys;
    int[] entries = runEntries;
    int j = end;
    while (j > from && keys[j - 1] > key) {
      keys[j] = keys[j - 1];
      entries[j] = entries[j - 1];
      j--;
    }
    keys[j] = key;
    entries[j] = entry;
  }

  /**
   * The entry to write after entry {@code last} of a chunk list: the next of its chunk while that has room, else the
   * first of a new chunk linked after it, or of a new chunk starting a list when {@code last} is -1 (the caller then
   * records the list's first chunk).
   */
  private int entryAfter(int last) {
    int e = last + 1;
    if (last >= 0 && (e & (CHUNK - 1)) != 0) {
      return e;
    }
    int fresh = allocChunk();
    if (last >= 0) {
      chunkNext[last >>> CHUNK_LOG2] = fresh;
    }
    return fresh << CHUNK_LOG2;
  }

  /** Writes an event to entry {@code e} of a chunk (the entry after the chunk's last, or its first). */
  private void writeEntry(int e, long timePs, long seq, EventHandler handler, Object ref, long arg) {
    int i = e * ENTRY;
    long[] d = chunkData;
    d[i] = timePs;
    d[i + 1] = seq;
    d[i + 2] = arg;
    chunkObjects[e << 1] = handler;
    chunkObjects[(e << 1) + 1] = ref;
  }

  /** A free slot (the most recently freed, so likely in cache) holding an event's handler, ref and arg. */
  private int takeSlot(Object handler, Object ref, long arg) {
    if (freeTop == 0) {
      grow();
    }
    int slot = freeSlots[--freeTop];
    slotObjects[slot << 1] = handler;
    slotObjects[(slot << 1) + 1] = ref;
    slotArgs[slot] = arg;
    return slot;
  }

  /** An empty chunk from the free list, or a new one (the pool grows by doubling). */
  private int allocChunk() {
    int c = freeChunk;
    if (c >= 0) {
      freeChunk = chunkNext[c];
    } else {
      if (chunksUsed == chunkNext.length) {
        int n = chunksUsed * 2;
        chunkNext = Arrays.copyOf(chunkNext, n);
        chunkData = Arrays.copyOf(chunkData, (n << CHUNK_LOG2) * ENTRY);
        chunkObjects = Arrays.copyOf(chunkObjects, n << (CHUNK_LOG2 + 1));
      }
      c = chunksUsed++;
    }
    chunkNext[c] = -1;
    return c;
  }

  /**
   * Runs the earliest event.
   *
   * @return false when there was none
   */
  public boolean step() {
    checkOwner("step");
    try {
      return runOne();
    } catch (RuntimeException | Error e) {
      recordFailure(e);
      throw e;
    }
  }

  /** Keeps a handler's failure out of an outermost run call (an inner call's passes through the outer one). */
  private void recordFailure(Throwable e) {
    if (!inRun && handlerFailure == null) {
      handlerFailure = e;
    }
  }

  private boolean runOne() {
    return runOneUpTo(Long.MAX_VALUE);
  }

  /**
   * Runs the earliest event if it is at or before {@code limitPs} (one look at the queue where a peek and a run took
   * two).
   *
   * @return whether an event ran
   */
  private boolean runOneUpTo(long limitPs) {
    if (size == 0) {
      return false;
    }
    if (runPos == runEnd && current.isEmpty()) {
      advance();
    }
    if (runPos < runEnd && (current.isEmpty() || runHeadFirst())) {
      int k = runPos;
      long t = current.keyTime(runKeys[k]);
      if (t > limitPs) {
        return false;
      }
      runPos = k + 1;
      int e = runEntries[k];
      long a = chunkData[e * ENTRY + 2];
      Object[] objects = chunkObjects;
      int o = e << 1;
      EventHandler h = (EventHandler) objects[o];
      Object r = objects[o + 1];
      objects[o] = null;
      objects[o + 1] = null;
      if (runPos == runEnd) {
        freeRunChain(); // (everything of this event is read: its chunk may be reused by what the handler schedules)
      }
      size--;
      now = t;
      executed++;
      h.onEvent(t, r, a);
      return true;
    }
    long t = current.minTime();
    if (t > limitPs) {
      return false;
    }
    int slot = current.minSlot();
    current.pop();
    long a = slotArgs[slot];
    int o = slot << 1;
    EventHandler h = (EventHandler) slotObjects[o];
    Object r = slotObjects[o + 1];
    slotObjects[o] = null;
    slotObjects[o + 1] = null;
    freeSlots[freeTop++] = slot;
    size--;
    now = t;
    executed++;
    if (!current.isEmpty()) {
      // the next event's ref (unless this one schedules an earlier): reading its class now starts the fetch of its
      // first line while this event runs
      touch(slotObjects[(current.minSlot() << 1) + 1]);
    }
    h.onEvent(t, r, a);
    return true;
  }

  /**
   * Runs events until none is left or {@link #stop()} is called.
   *
   * @return events run by this call
   */
  public long run() {
    return runUntil(Long.MAX_VALUE);
  }

  /**
   * Runs every event at or before {@code limitPs}, then sets the clock to {@code limitPs} (unless stopped or the
   * limit is {@link Long#MAX_VALUE}).
   *
   * @param limitPs last time to run, picoseconds
   * @return events run by this call
   */
  public long runUntil(long limitPs) {
    checkOwner("runUntil");
    stopRequested = false;
    long before = executed;
    runTo(limitPs, true);
    if (!stopRequested && limitPs != Long.MAX_VALUE && limitPs > now) {
      now = limitPs;
    }
    return executed - before;
  }

  /**
   * Runs the next event of the {@link #runUntil} (or {@link #run}) call in progress, or of the engine's window in
   * progress ({@link GroupScheduler#continueRun}), as that call would run it next, on the calling thread (the owner).
   * For code that carries one run across threads that pass control among themselves, each running events while it
   * holds control and then handing over from inside an event (in this project: aries-system's process runner), while
   * the thread that called {@code runUntil} waits inside one of the events it ran. That thread then returns from its
   * event and its call ends as it would have: every event of the run runs exactly once, in the same order, whichever
   * thread ran it.
   *
   * @return whether an event ran; false when the call in progress would now end (stopped, or no event left at or
   *     before its limit) or none is in progress
   */
  public boolean continueRun() {
    checkOwner("continueRun");
    return inRun && !(runStops && stopRequested) && runOneUpTo(runLimit);
  }

  /**
   * Runs every event at or before {@code limitPs} and leaves the clock at the last one run (a window of the {@link
   * PartitionedEngine}).
   */
  long runThrough(long limitPs) {
    checkOwner("runThrough");
    long before = executed;
    runTo(limitPs, false);
    return executed - before;
  }

  /**
   * Runs every event at or before {@code limitPs} (until a {@link #stop()} too, when {@code stops}), recording the
   * call so that {@link #continueRun} can carry it on another thread.
   */
  private void runTo(long limitPs, boolean stops) {
    boolean outerInRun = inRun;
    long outerLimit = runLimit;
    boolean outerStops = runStops;
    inRun = true;
    runLimit = limitPs;
    runStops = stops;
    try {
      while (!(stops && stopRequested) && runOneUpTo(limitPs)) {
        // each turn ran one event
      }
    } catch (RuntimeException | Error e) {
      if (!outerInRun && handlerFailure == null) {
        handlerFailure = e; // (the outermost call only: an inner one's failure passes through it)
      }
      throw e;
    } finally {
      inRun = outerInRun;
      runLimit = outerLimit;
      runStops = outerStops;
    }
  }

  /** Moves the clock forward to {@code timePs} (nothing is pending before it); for the {@link PartitionedEngine}. */
  void advanceClock(long timePs) {
    checkOwner("advanceClock");
    if (timePs > now) {
      now = timePs;
    }
  }

  /**
   * Runs events while a condition holds (checked before each event) and events remain.
   *
   * @param condition checked before each event
   * @return events run by this call
   */
  public long runWhile(BooleanSupplier condition) {
    if (condition == null) {
      throw new IllegalArgumentException("condition must not be null");
    }
    checkOwner("runWhile");
    stopRequested = false;
    long before = executed;
    boolean outer = inRunWhile;
    inRunWhile = true;
    try {
      while (size > 0 && !stopRequested && condition.getAsBoolean()) {
        try {
          runOne();
        } catch (RuntimeException | Error e) { // (a handler's only: the condition's own failure is not one)
          recordFailure(e); // (step and runWhile too since stop 66: the CLI's progress bar runs a system with runWhile)
          throw e;
        }
      }
    } finally {
      inRunWhile = outer;
    }
    return executed - before;
  }

  /** Makes the running {@code run*} call return after the current event. */
  public void stop() {
    stopRequested = true;
  }

  /**
   * Removes every pending event whose handler is {@code handler}: for a component that keeps events of its own
   * going (a watchdog, a timeout) and is done, so that they neither run in a later run nor move its clock on to their
   * time. Every other event keeps its time and sequence number, so the rest of the run is the same as if the removed
   * events had run and done nothing, except that the clock no longer reaches them. The scheduling port has no
   * cancellation ({@link Scheduler}); this is the loop's own. It costs a pass over every pending event and the heaps'
   * pops (O(n log n)), and is meant for the end of a phase; the hot path is unchanged.
   *
   * <p>May be called between runs or from inside a handler (the running event has left the queue by then).
   *
   * @param handler the handler whose events to remove
   * @return how many events were removed
   * @throws IllegalArgumentException when {@code handler} is null
   * @throws IllegalStateException when called from a thread other than the owner (as {@link #scheduleAt})
   */
  public int remove(EventHandler handler) {
    if (handler == null) {
      throw new IllegalArgumentException("handler must not be null");
    }
    checkOwner("remove");
    if (size == 0) {
      return 0;
    }
    int n = size;
    long[] times = new long[n];
    long[] seqs = new long[n];
    long[] args = new long[n];
    Object[] objects = new Object[2 * n];
    int k = 0;
    // the sorted run
    for (int i = runPos; i < runEnd; i++) {
      k = take(runEntries[i], times, seqs, args, objects, k);
    }
    // the running heap and the far heap
    while (!current.isEmpty()) {
      k = takeSlotted(current.minTime(), current.minSeq(), current.minSlot(), times, seqs, args, objects, k);
      current.pop();
    }
    while (!far.isEmpty()) {
      k = takeSlotted(far.minTime(), far.minSeq(), far.minSlot(), times, seqs, args, objects, k);
      far.pop();
    }
    // the ring's buckets
    for (int b = 0; b <= ringMask; b++) {
      int c = bucketEnds[2 * b];
      int lastEntry = bucketEnds[2 * b + 1];
      for (; c >= 0; c = chunkNext[c]) {
        int e = c << CHUNK_LOG2;
        for (int end = e + entriesOf(c, lastEntry); e < end; e++) {
          k = take(e, times, seqs, args, objects, k);
        }
        if (c == lastEntry >>> CHUNK_LOG2) {
          break;
        }
      }
    }
    if (k != n) {
      throw new IllegalStateException("the loop counts " + n + " pending events but holds " + k);
    }
    clearQueue();
    // The earliest kept event goes in first, so that the calendar starts at its bucket and every other event lies at
    // or after it; the rest may then go in any order (a ring bucket sorts its events as it loads, the heaps order
    // theirs, the running bucket's sorted run places each). Any order would run right: an event behind the calendar
    // joins the running heap, as after a peek; this one keeps them out of it.
    int first = -1;
    int removed = 0;
    for (int i = 0; i < n; i++) {
      if (objects[2 * i] == handler) {
        removed++;
      } else if (first < 0 || times[i] < times[first] || (times[i] == times[first] && seqs[i] < seqs[first])) {
        first = i;
      }
    }
    if (first >= 0) {
      insert(times[first], seqs[first], (EventHandler) objects[2 * first], objects[2 * first + 1], args[first]);
    }
    for (int i = 0; i < n; i++) {
      if (i != first && objects[2 * i] != handler) {
        insert(times[i], seqs[i], (EventHandler) objects[2 * i], objects[2 * i + 1], args[i]);
      }
    }
    return removed;
  }

  /** Copies chunk entry {@code e}'s event into the arrays at {@code k}; @return {@code k + 1} */
  private int take(int e, long[] times, long[] seqs, long[] args, Object[] objects, int k) {
    int i = e * ENTRY;
    times[k] = chunkData[i];
    seqs[k] = chunkData[i + 1];
    args[k] = chunkData[i + 2];
    objects[2 * k] = chunkObjects[e << 1];
    objects[2 * k + 1] = chunkObjects[(e << 1) + 1];
    return k + 1;
  }

  /** Copies the event of slot {@code slot} into the arrays at {@code k}; @return {@code k + 1} */
  private int takeSlotted(long time, long seq, int slot, long[] times, long[] seqs, long[] args, Object[] objects,
      int k) {
    times[k] = time;
    seqs[k] = seq;
    args[k] = slotArgs[slot];
    objects[2 * k] = slotObjects[slot << 1];
    objects[2 * k + 1] = slotObjects[(slot << 1) + 1];
    return k + 1;
  }

  /** Empties every structure of the queue (the events were copied out): as a new loop's, with the arrays kept. */
  private void clearQueue() {
    runPos = 0;
    runEnd = 0;
    runChainHead = -1;
    runChainLast = -1;
    Arrays.fill(bucketEnds, -1);
    Arrays.fill(ringBits, 0L);
    ringCount = 0;
    Arrays.fill(chunkObjects, null);
    freeChunk = -1;
    chunksUsed = 0;
    Arrays.fill(slotObjects, null);
    int slots = freeSlots.length;
    for (int i = 0; i < slots; i++) {
      freeSlots[i] = slots - 1 - i;
    }
    freeTop = slots;
    size = 0;
  }

  /** @return events waiting */
  public int pending() {
    return size;
  }

  /**
   * The first exception an event's handler threw out of a {@link #run}, {@link #runUntil}, {@link #runWhile} or
   * {@link #step} call (or an engine's window) since the loop was made, or null. The loop itself stays usable after
   * one (the failed event has left the queue, every other keeps its place), but what the failed handler left half done is its own: a system built of
   * many components asks this before it starts another run (aries-system's {@code AriesSystem}).
   *
   * @return the failure, or null
   */
  public Throwable handlerFailure() {
    return handlerFailure;
  }

  /** @return events run since the loop was made */
  public long eventsExecuted() {
    return executed;
  }

  /**
   * The time of the earliest pending event. Though it asks, it is not a read: when the loaded bucket has run out it
   * loads the next one ({@link #advance}: the calendar moves on, chunks return to the free list), which a thread other
   * than the one running the loop would do in the middle of that thread's work. So it is held to the owner like the
   * calls that schedule and run (it was not before stop 69), while {@link #now()}, {@link #pending()}, {@link
   * #eventsExecuted()}, {@link #handlerFailure()} and {@link #owner()} are left open on purpose: each reads one field
   * and changes nothing, so another thread can see an old value but never harm the loop.
   *
   * @return the time of the earliest pending event, or {@link Long#MAX_VALUE} when none
   * @throws IllegalStateException when called from a thread other than the owner (as {@link #scheduleAt})
   */
  public long nextEventTime() {
    checkOwner("nextEventTime");
    if (size == 0) {
      return Long.MAX_VALUE;
    }
    if (runPos == runEnd && current.isEmpty()) {
      advance();
    }
    if (runPos < runEnd) {
      long t = current.keyTime(runKeys[runPos]);
      return current.isEmpty() ? t : Math.min(t, current.minTime());
    }
    return current.minTime();
  }

  /** Whether the sorted bucket's next event comes before the running heap's (both hold one). */
  private boolean runHeadFirst() {
    long key = runKeys[runPos];
    if (!current.isWide()) {
      return key < current.minKey(); // the same packing; keys are unique
    }
    long t = current.keyTime(key);
    long ht = current.minTime();
    return t < ht || (t == ht && current.keySeq(key) < current.minSeq());
  }

  /** Returns the sorted bucket's chunks to the free list. */
  private void freeRunChain() {
    if (runChainHead >= 0) {
      chunkNext[runChainLast >>> CHUNK_LOG2] = freeChunk;
      freeChunk = runChainHead;
      runChainHead = -1;
      runChainLast = -1;
    }
  }

  /**
   * Moves the calendar to the next bucket that holds an event (the running heap is empty and events remain): the
   * nearest non-empty bucket of the ring or the bucket of the earliest far event, whichever comes first, and fills
   * the running heap with that bucket's events from both.
   */
  private void advance() {
    long target = Long.MAX_VALUE;
    // -1 when the ring is empty: no bucket number (a time >>> shift, never negative) equals it. It used to be
    // Long.MAX_VALUE, which is the bucket of an event at Long.MAX_VALUE with 1-ps buckets: the far heap's last event
    // then loaded the empty ring bucket as well and failed on its list's -1 (chunkNext[-1]). A sentinel, not a
    // ringCount test at the compare below, so the common path costs nothing more.
    long ringNext = -1;
    if (ringCount > 0) {
      ringNext = currentBucket + 1 + ringDistance((int) (currentBucket + 1) & ringMask);
      target = ringNext;
    }
    if (!far.isEmpty()) {
      target = Math.min(target, far.minTime() >>> shift);
    }
    currentBucket = target;
    current.startBucket(target << shift);
    if (target == ringNext) {
      int b = (int) target & ringMask;
      int c = bucketEnds[2 * b];
      int lastEntry = bucketEnds[2 * b + 1];
      long[] d = chunkData;
      Object[] objects = chunkObjects;
      int count = (lastEntry & (CHUNK - 1)) + 1;
      for (int x = c; x != lastEntry >>> CHUNK_LOG2; x = chunkNext[x]) {
        count += CHUNK;
      }
      if (count <= SORT_LIMIT) {
        loadSorted(c, lastEntry);
        c = -1; // its chunks stay until its events have run
      }
      while (c >= 0) {
        int n = entriesOf(c, lastEntry);
        int e = c << CHUNK_LOG2;
        for (int end = e + n; e < end; e++) {
          int i = e * ENTRY;
          int o = e << 1;
          Object ref = objects[o + 1];
          current.push(d[i], d[i + 1], takeSlot(objects[o], ref, d[i + 2]));
          touch(ref); // all of the bucket's records fetched side by side, not one miss after another as each runs
          objects[o] = null;
          objects[o + 1] = null;
        }
        ringCount -= n;
        int next = chunkNext[c];
        chunkNext[c] = freeChunk;
        freeChunk = c;
        c = next;
      }
      bucketEnds[2 * b] = -1;
      bucketEnds[2 * b + 1] = -1;
      ringBits[b >>> 6] &= ~(1L << b);
    }
    while (!far.isEmpty() && (far.minTime() >>> shift) <= target) {
      current.push(far.minTime(), far.minSeq(), far.minSlot());
      far.pop();
    }
    if (ringCount > 0) {
      touchNextBucket(target);
    }
  }

  /** @return the entries of chunk {@code c} of a list whose last entry written is {@code lastEntry} */
  private static int entriesOf(int c, int lastEntry) {
    return c == lastEntry >>> CHUNK_LOG2 ? (lastEntry & (CHUNK - 1)) + 1 : CHUNK;
  }

  /**
   * Loads the bucket whose chunks run from {@code head} to the one of entry {@code lastEntry}, its last, into the
   * (empty) sorted run, by insertion (a bucket holds at most {@link #SORT_LIMIT} events here). An event whose
   * sequence does not fit the packed key goes to the running heap instead, as it would have.
   */
  private void loadSorted(int head, int lastEntry) {
    long[] d = chunkData;
    Object[] objects = chunkObjects;
    int end = 0;
    for (int c = head; c >= 0; c = chunkNext[c]) {
      int n = entriesOf(c, lastEntry);
      int e = c << CHUNK_LOG2;
      for (int stop = e + n; e < stop; e++) {
        int i = e * ENTRY;
        int o = e << 1;
        Object ref = objects[o + 1];
        touch(ref); // all of the bucket's records fetched side by side, not one miss after another as each runs
        long key = current.packedKey(d[i], d[i + 1]);
        if (key < 0) {
          current.push(d[i], d[i + 1], takeSlot(objects[o], ref, d[i + 2]));
          objects[o] = null;
          objects[o + 1] = null;
          continue;
        }
        placeInRun(0, end++, key, e);
      }
      ringCount -= n;
    }
    runPos = 0;
    runEnd = end;
    if (end == 0) {
      // every event went to the heap: the chunks can go now
      chunkNext[lastEntry >>> CHUNK_LOG2] = freeChunk;
      freeChunk = head;
    } else {
      runChainHead = head;
      runChainLast = lastEntry;
    }
  }

  /**
   * Reads ahead the refs of the first non-empty ring bucket after {@code bucket} (up to {@link #TOUCH_AHEAD} of them):
   * their class, or what a {@link ReadAhead} ref names, and the chunks' numbers that loading the bucket reads first, so
   * their lines are on their way while this bucket runs (on the full system a chunk was written about a window
   * before it loads, and has left the caches; docs/performance.md, "Stop 27"). A sparse loop's bucket holds too few
   * events for the reads at its own load to overlap their misses (about five on a full-system group's loop with
   * 64-ps buckets; docs/performance.md, "Stop 22").
   */
  private void touchNextBucket(long bucket) {
    int from = (int) (bucket + 1) & ringMask;
    int b = (from + ringDistance(from)) & ringMask;
    int c = bucketEnds[2 * b];
    int lastEntry = bucketEnds[2 * b + 1];
    Object[] objects = chunkObjects;
    long[] d = chunkData;
    int left = TOUCH_AHEAD;
    while (c >= 0 && left > 0) {
      int n = Math.min(entriesOf(c, lastEntry), left);
      int e = c << CHUNK_LOG2;
      // the chunk's numbers (time, sequence, arg), which the load reads first: its first, middle and last number,
      // which reach every line of a full chunk's 192 bytes but one at some alignments
      int i = e * ENTRY;
      int last = i + n * ENTRY - 1;
      if ((d[i] & d[(i + last) >>> 1] & d[last]) < 0) {
        touched++;
      }
      for (int end = e + n; e < end; e++) {
        Object ref = objects[(e << 1) + 1];
        if (ref instanceof ReadAhead r) {
          r.readAhead();
        } else {
          touch(ref);
        }
      }
      left -= n;
      c = chunkNext[c];
    }
  }

  /** @return how many buckets after ring index {@code from} the first non-empty one is (the ring is not empty) */
  private int ringDistance(int from) {
    int word = from >>> 6;
    long bits = ringBits[word] & (-1L << from);
    int words = ringBits.length;
    for (int k = 0; k <= words; k++) {
      if (bits != 0) {
        int index = (word << 6) + Long.numberOfTrailingZeros(bits);
        return (index - from) & ringMask;
      }
      word = word + 1 == words ? 0 : word + 1;
      bits = ringBits[word];
    }
    throw new IllegalStateException("ring count " + ringCount + " but no bucket marked");
  }

  private void grow() {
    int old = freeSlots.length;
    int n = old * 2;
    slotObjects = Arrays.copyOf(slotObjects, 2 * n);
    slotArgs = Arrays.copyOf(slotArgs, n);
    // every slot is in use when the free stack is empty: the new free slots are old .. n-1
    freeSlots = new int[n];
    for (int i = 0; i < n - old; i++) {
      freeSlots[i] = n - 1 - i;
    }
    freeTop = n - old;
  }

  /**
   * Reads {@code ref}'s class, which fetches the first line of its object now, so that its cache miss overlaps the
   * work done before its event runs (the test is never true and is kept only so the read is not optimized away).
   */
  private void touch(Object ref) {
    if (ref != null && ref.getClass() == TouchMark.class) {
      touched++;
    }
  }

  /** A class no ref ever has (it is private and never made): what {@link #touch} compares with. */
  private static final class TouchMark {
    private TouchMark() {}
  }
}
