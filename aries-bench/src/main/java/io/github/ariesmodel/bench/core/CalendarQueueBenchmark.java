package io.github.ariesmodel.bench.core;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.spi.EventHandler;
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
 * The calendar queue inside {@link DeterministicEventLoop} at the queue depths and event densities of the two
 * traffic runs of docs/performance.md, by bucket geometry. As in {@link EventLoopBenchmark}, one operation runs the
 * earliest event and its handler schedules one new event, so the number pending stays at {@code depth}; here the
 * delays are the router fabric's (uniform over 1 ps to {@code horizonPs}, seed 1), so the density of events per
 * picosecond is {@code depth / horizonPs}, as in a simulation: 25,000 pending over 60 ns is the 1,056-node run at
 * 50 % load, 1,200,000 over 60 ns the full system at 10 %.
 *
 * <p>{@code bucketWidthLog2 = 40} puts every event of these runs in the calendar's first bucket, so the loop
 * degenerates to the single 4-ary heap of the loop before the calendar: that row is the baseline.
 *
 * <p>Run: {@code mvn -B -o -q -pl aries-bench -am package -DskipTests && java -jar aries-bench/target/benchmarks.jar
 * CalendarQueueBenchmark -prof gc -f 1 -wi 3 -w 1s -i 5 -r 1s}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CalendarQueueBenchmark {

  private static final int DELAYS = 1 << 16;

  /** Events pending at every moment. */
  @Param({"25000", "1200000"})
  public int depth;

  /** The largest delay, ps; delays are uniform over [1, horizonPs]. */
  @Param({"60000"})
  public long horizonPs;

  /** log2 of the bucket width in ps; 40 is one bucket for everything (the plain heap). */
  @Param({"4", "6", "8", "40"})
  public int bucketWidthLog2;

  private final long[] delays = new long[DELAYS];
  private DeterministicEventLoop loop;
  private int nextDelay;
  private final EventHandler reschedule = this::reschedule;

  /** Fills the queue to {@code depth}, draws the delays and runs until the queue has its steady shape. */
  @Setup
  public void setUp() {
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < DELAYS; i++) {
      delays[i] = 1 + r.nextLong(horizonPs);
    }
    loop = new DeterministicEventLoop(depth, bucketWidthLog2, DeterministicEventLoop.DEFAULT_RING_BUCKETS_LOG2);
    for (int i = 0; i < depth; i++) {
      loop.scheduleAt(delays[nextDelay++ & (DELAYS - 1)], reschedule, null, i);
    }
    for (int i = 0; i < 4 * depth; i++) {
      loop.step();
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
}
