package io.github.ariesmodel.bench.core;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.spi.EventHandler;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The {@link DeterministicEventLoop} at a steady queue depth: each operation runs the earliest event, whose handler
 * schedules one new event a random delay later, so one operation is one event scheduled and one run, and the number
 * pending stays at {@code depth}. Delays (1 ps to 1 µs, seed 1) are drawn in {@link #setUp()} into a ring that the
 * handler walks, so the measured path is the loop's own.
 *
 * <p>{@code priorityQueueBaseline} does the same with a {@link PriorityQueue} of reused event objects ordered by
 * (time, sequence), the obvious alternative, for comparison.
 *
 * <p>Run: {@code mvn -B -o -q -pl aries-bench -am package -DskipTests && java -jar aries-bench/target/benchmarks.jar
 * EventLoopBenchmark -prof gc -f 1 -wi 3 -w 1s -i 5 -r 1s}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EventLoopBenchmark {

  private static final int DELAYS = 1 << 16;

  /** Events pending at every moment. */
  @Param({"1024", "65536"})
  public int depth;

  private final long[] delays = new long[DELAYS];
  private DeterministicEventLoop loop;
  private int nextDelay;
  private final EventHandler reschedule = this::reschedule;
  private PriorityQueue<Event> queue;
  private long queueNow;
  private long queueSeq;

  /** A baseline event: mutable, reused on every reschedule so the baseline does not allocate either. */
  private static final class Event {
    long time;
    long seq;
  }

  /** Fills the queue to {@code depth} and draws the delays. */
  @Setup
  public void setUp() {
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < DELAYS; i++) {
      delays[i] = 1 + r.nextLong(1_000_000);
    }
    loop = new DeterministicEventLoop(depth);
    for (int i = 0; i < depth; i++) {
      loop.scheduleAt(delays[nextDelay++ & (DELAYS - 1)], reschedule, null, i);
    }
    queue = new PriorityQueue<>(depth, (a, b) ->
        a.time != b.time ? Long.compare(a.time, b.time) : Long.compare(a.seq, b.seq));
    for (int i = 0; i < depth; i++) {
      Event e = new Event();
      e.time = delays[nextDelay++ & (DELAYS - 1)];
      e.seq = queueSeq++;
      queue.add(e);
    }
    // Let both heaps reach their steady shape before measuring.
    for (int i = 0; i < 4 * depth; i++) {
      loop.step();
      priorityQueueBaseline();
    }
  }

  private void reschedule(long now, Object ref, long arg) {
    loop.scheduleAt(now + delays[nextDelay++ & (DELAYS - 1)], reschedule, ref, arg);
  }

  /** @return the clock after the event (consumed by JMH) */
  @Benchmark
  public long scheduleAndRunOneEvent() {
    loop.step();
    return loop.now();
  }

  /** @return the baseline's clock after the event */
  @Benchmark
  public long priorityQueueBaseline() {
    Event e = queue.poll();
    queueNow = e.time;
    e.time = queueNow + delays[nextDelay++ & (DELAYS - 1)];
    e.seq = queueSeq++;
    queue.add(e);
    return queueNow;
  }
}
