package io.github.ariesmodel.bench.system;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.system.process.ProcessRunner;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * What a simulated process's suspension costs ({@link ProcessRunner}): {@code processes} processes that each sleep
 * in turn until {@value #SUSPENSIONS} sleeps in all have run, on one event loop; the score is per sleep. {@code
 * carried}: {@link ProcessRunner#run()}, whose run the processes carry from one to the next (one thread switch a
 * sleep, none when the process resumed next is the one that slept). {@code stepped}: the caller runs the loop event
 * by event ({@link DeterministicEventLoop#step()}), so there is no run to carry and control comes back to the
 * caller's thread at every sleep (two switches: the hand-off before stop 29). Each invocation also starts the
 * processes' threads (one each). {@code threads}: the kind of thread processes run on ({@link
 * ProcessRunner.ThreadKind}); {@code virtual} needs Java 21 or later, and is cheapest with one carrier thread.
 *
 * <p>Run: {@code java -jar aries-bench/target/benchmarks.jar ProcessRunnerBenchmark -f 2 -wi 3 -w 1s -i 5 -r 1s -p
 * threads=platform}; on Java 21 or later also {@code -p threads=virtual -jvmArgsAppend
 * -Djdk.virtualThreadScheduler.parallelism=1}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProcessRunnerBenchmark {

  private static final int SUSPENSIONS = 4096;

  /** Processes sharing the sleeps (each sleeps {@value #SUSPENSIONS} / processes times). */
  @Param({"1", "32"})
  public int processes;

  /** Whether the processes carry the runner's run(), or the caller steps the loop. */
  @Param({"carried", "stepped"})
  public String mode;

  /** The kind of thread processes run on: platform or virtual. */
  @Param({"platform", "virtual"})
  public String threads;

  private long sum;

  @Benchmark
  @OperationsPerInvocation(SUSPENSIONS)
  public long sleeps() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    int each = SUSPENSIONS / processes;
    ProcessRunner.ThreadKind kind = ProcessRunner.ThreadKind.valueOf(threads.toUpperCase(java.util.Locale.ROOT));
    try (ProcessRunner runner = new ProcessRunner(loop, kind)) {
      for (int p = 0; p < processes; p++) {
        long step = 1000 + p; // distinct periods, so the order of resumptions varies
        runner.spawn("p" + p, self -> {
          for (int k = 0; k < each; k++) {
            self.sleep(step);
          }
        });
      }
      if (mode.equals("carried")) {
        runner.run();
      } else {
        while (loop.step()) {
          // one event at a time
        }
      }
      if (!runner.unfinished().isEmpty()) {
        throw new IllegalStateException("processes left unfinished: " + runner.unfinished());
      }
    }
    sum += loop.now();
    return sum;
  }
}
