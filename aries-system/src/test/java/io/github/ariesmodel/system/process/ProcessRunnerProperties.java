package io.github.ariesmodel.system.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Random programs of simulated processes (sleeps of 0 to 30 ps, waits for pokes that outside events and other
 * processes send, events the processes schedule) give the same log and the same event count whether the runner's
 * {@code run()} carries the run, the caller runs it in {@code runUntil} slices, or the caller steps the loop event by
 * event (control back to it at every wait, the hand-off of before the carrying), and whether the processes run on
 * platform or (where the JVM has them) virtual threads.
 */
class ProcessRunnerProperties {

  private enum Driver { RUN, SLICES, STEPS }

  @Test
  void everyWayOfDrivingTheLoopGivesTheSameInterleaving() {
    qt().withExamples(60).forAll(integers().between(1, 8), longs().all()).checkAssert((processes, seed) -> {
      Outcome run = play(processes, seed, Driver.RUN, ProcessRunner.ThreadKind.PLATFORM);
      assertThat(run.log).isNotEmpty();
      assertThat(play(processes, seed, Driver.SLICES, ProcessRunner.ThreadKind.PLATFORM)).isEqualTo(run);
      assertThat(play(processes, seed, Driver.STEPS, ProcessRunner.ThreadKind.PLATFORM)).isEqualTo(run);
      if (ProcessRunner.virtualThreadsAvailable()) {
        for (Driver d : Driver.values()) {
          assertThat(play(processes, seed, d, ProcessRunner.ThreadKind.VIRTUAL)).isEqualTo(run);
        }
      }
    });
  }

  private record Outcome(List<String> log, long events, List<String> unfinished) { }

  private static Outcome play(int processes, long seed, Driver driver, ProcessRunner.ThreadKind threads) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DeterministicEventLoop loop = new DeterministicEventLoop();
    List<String> log = new ArrayList<>();
    int[] pokes = new int[processes];
    SimProcess[] procs = new SimProcess[processes];
    List<String> unfinished = new ArrayList<>();
    try (ProcessRunner runner = new ProcessRunner(loop, threads)) {
      int[] waits = new int[processes];
      for (int i = 0; i < processes; i++) {
        int me = i;
        int steps = 3 + rnd.nextInt(10);
        // each step: 0 sleep, 1 wait for the next poke, 2 schedule an event that logs and pokes another process
        int[] kind = new int[steps];
        long[] arg = new long[steps];
        int[] other = new int[steps];
        for (int k = 0; k < steps; k++) {
          kind[k] = rnd.nextInt(3);
          arg[k] = rnd.nextInt(31);
          other[k] = rnd.nextInt(processes);
          if (kind[k] == 1) {
            waits[me]++;
          }
        }
        procs[i] = runner.spawn("p" + i, self -> {
          int seen = 0;
          for (int k = 0; k < steps; k++) {
            log.add(self.now() + " p" + me + " step " + k);
            if (kind[k] == 0) {
              self.sleep(arg[k]);
            } else if (kind[k] == 1) {
              int want = ++seen;
              self.waitUntil(() -> pokes[me] >= want);
            } else {
              int to = other[k];
              int step = k;
              loop.scheduleAt(self.now() + arg[k], (now, ref, a) -> {
                log.add(now + " event of p" + me + " step " + step + " pokes p" + to);
                pokes[to]++;
                runner.wake(procs[to]);
              }, null, 0);
            }
          }
          log.add(self.now() + " p" + me + " ends");
        });
      }
      // outside pokes, one per wait of each process, so that every program can end
      for (int i = 0; i < processes; i++) {
        int to = i;
        for (int w = 0; w < waits[i]; w++) {
          loop.scheduleAt(rnd.nextInt(400), (now, ref, a) -> {
            log.add(now + " outside pokes p" + to);
            pokes[to]++;
            runner.wake(procs[to]);
          }, null, 0);
        }
      }
      switch (driver) {
        case RUN -> runner.run();
        case SLICES -> {
          long slice = 1 + Math.floorMod(seed, 37);
          while (loop.pending() > 0) {
            loop.runUntil(loop.now() + slice);
          }
        }
        case STEPS -> {
          while (loop.step()) {
            // one event at a time
          }
        }
        default -> throw new AssertionError(driver);
      }
      for (SimProcess p : runner.unfinished()) {
        unfinished.add(p.name());
      }
    }
    return new Outcome(log, loop.eventsExecuted(), unfinished);
  }
}
