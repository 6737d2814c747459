package io.github.ariesmodel.bench.core;

import io.github.ariesmodel.core.sim.ConcurrentUseCheck;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Core's concurrent-use guard alone, as a component's entry point uses it: an outer call (enter, a little work that
 * stores to the component, exit), a nested call (the thread is already inside), and the same work without the guard.
 * The work is a few plain stores so that the exit has a store buffer to order, as a real entry point does.
 *
 * <p>Run: {@code java -jar aries-bench/target/benchmarks.jar ConcurrentUseCheckBenchmark -f 2 -wi 3 -w 1s -i 5 -r 1s}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ConcurrentUseCheckBenchmark {

  private final ConcurrentUseCheck guard = new ConcurrentUseCheck("benchmark");
  private final ConcurrentUseCheck held = new ConcurrentUseCheck("benchmark, held");
  private final long[] state = new long[8];
  private int next;

  private long work() {
    int i = next++ & 7;
    state[i] += i;
    state[(i + 3) & 7] ^= state[i];
    return state[(i + 5) & 7];
  }

  /** The work with no guard: the part of the scores below that is not the guard. */
  @Benchmark
  public long workOnly() {
    return work();
  }

  /** An outer call by the thread that entered last (every call here): enter (an opaque store), the work, exit. */
  @Benchmark
  public long outerCall() {
    boolean entered = guard.enter();
    try {
      return work();
    } finally {
      if (entered) {
        guard.exit();
      }
    }
  }

  /** A nested call: the thread is already inside, so enter is a read and there is no exit. */
  @Benchmark
  public long nestedCall() {
    if (!held.enter()) {
      return work();
    }
    throw new IllegalStateException("the benchmark thread should already be inside");
  }

  /** Puts the benchmark thread inside {@code held} for {@link #nestedCall}. */
  @Setup(Level.Iteration)
  public void enterHeld() {
    held.enter();
  }

  /** Leaves it again. */
  @TearDown(Level.Iteration)
  public void exitHeld() {
    held.exit();
  }
}
