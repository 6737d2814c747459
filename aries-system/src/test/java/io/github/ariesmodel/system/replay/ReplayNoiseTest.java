package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.OsNoise;
import io.github.ariesmodel.traces.simgrid.SimGridTrace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A replay under OS noise: what its ranks' times are booked as. */
class ReplayNoiseTest {

  @TempDir Path dir;

  /** Aligned detours of 2.5 us every 10 us: every node's first detour covers the start, [0, 2.5 us). */
  private static final OsNoise NOISE = OsNoise.parse("period=10us,detour=2500ns,phase=aligned");
  private static final long DETOUR_PS = 2_500_000;

  private static ReplayResult replay(Path trace, OsNoise noise) throws IOException {
    AriesSystem sys = AriesSystem.builder().system("default").seed(1).osNoise(noise).build();
    return TraceReplay.builder(sys, SimGridTrace.open(trace)).compute(ComputeMode.AS_TRACED).build().run();
  }

  @Test
  void underNoiseEveryMomentOfARankIsBookedAsCommunicationOrCompute() throws IOException {
    // compute before a collective, a reduction's work after it (SimGrid's allreduce flops) and compute after; each
    // compute spans detours, so noise stretches it
    Path f = dir.resolve("t.txt");
    Files.writeString(f, "0 init\n1 init\n0 compute 5e4\n1 compute 2e4\n0 allreduce 1000 3e4\n1 allreduce 1000 3e4\n"
        + "0 compute 4e4\n1 compute 4e4\n0 finalize\n1 finalize\n");
    ReplayResult quiet = replay(f, OsNoise.none());
    ReplayResult noisy = replay(f, NOISE);
    long last = 0;
    for (int r = 0; r < 2; r++) {
      // without noise the compute is the traced flops at 1 Gflop/s: 50 + 30 + 40 and 20 + 30 + 40 us
      assertThat(quiet.computePs().get(r)).isEqualTo(r == 0 ? 120_000_000L : 90_000_000L);
      // under noise it is stretched by the detours inside it, at least by a quarter (2.5 of every 7.5 us of work,
      // less the part before a first detour)
      assertThat(noisy.computePs().get(r)).isGreaterThan(quiet.computePs().get(r) * 5 / 4);
      last = Math.max(last, noisy.communicationPs().get(r) + noisy.computePs().get(r));
    }
    // the last rank's time, from where the detour at 0 let it start, is its communication and its compute, nothing
    // left out (the stretch of compute was dropped, and a reduction's stretch booked as communication)
    assertThat(last).isEqualTo(noisy.simulatedPs() - DETOUR_PS);
  }

  @Test
  void noiseThatStretchesWorkPastTheClocksEndNamesTheCallAndTheLongestDetourThatFits() throws IOException {
    // detours of all but a picosecond of each second stretch work 10^12 times: the MPI layer's own work in the
    // allreduce passes the clock's end. The error was "the MPI layer refused ALLREDUCE on communicator 0: long
    // overflow", the root cause's message
    Path f = TraceReplayTest.SIMGRID.resolve("actions_allreduce.txt");
    OsNoise noise = OsNoise.parse("period=1000ms,detour=999999999999ps");
    assertThatThrownBy(() -> replay(f, noise)).isInstanceOf(TraceReplayException.class)
        .hasMessageContaining(", call 2: ")
        .hasMessageContaining("noise detour must be in [0, 999999999998] ps for work of ")
        .hasMessageContaining("with a period of 1000000000000 ps, but was 999999999999 ps")
        .hasMessageNotContaining("overflow");
  }

  @Test
  void aSleepIsNotStretchedByNoiseOnlyPutOffToTheEndOfADetourItWouldEndIn() throws IOException {
    // 100 us of sleep from 2.5 us (the detour at 0 puts the start off): it ends at 102.5 us, where the detour that
    // began at 100 us ends. As work it took 100 us of CPU, 2.5 us lost in each 10, and ended past 135 us
    Path f = dir.resolve("sleep.txt");
    Files.writeString(f, "0 init\n1 init\n0 sleep 0.0001\n1 sleep 0.0001\n0 finalize\n1 finalize\n");
    ReplayResult quiet = replay(f, OsNoise.none());
    ReplayResult noisy = replay(f, NOISE);
    for (int r = 0; r < 2; r++) {
      assertThat(quiet.computePs().get(r)).isEqualTo(100_000_000L);
      assertThat(noisy.computePs().get(r)).isEqualTo(100_000_000L);
    }
    assertThat(noisy.simulatedPs()).isEqualTo(quiet.simulatedPs() + DETOUR_PS);

    // a sleep that would end inside a detour goes on at its end: 96 us from 2.5 ends at 98.5, free; 98 us at 100.5,
    // inside the detour [100, 102.5)
    Files.writeString(f, "0 init\n1 init\n0 sleep 0.000098\n1 sleep 0.000096\n0 finalize\n1 finalize\n");
    ReplayResult inDetour = replay(f, NOISE);
    assertThat(inDetour.computePs().get(0)).isEqualTo(100_000_000L); // 98 us, then to the detour's end
    assertThat(inDetour.computePs().get(1)).isEqualTo(96_000_000L);
  }

  /**
   * The synthetic background's pause after each step is idle time, as a sleep is (stop 68: it was compute, and a
   * 100-us pause under 2.5 us lost in every 10 took about 133 us).
   */
  @Test
  void theSyntheticBackgroundsPauseIsNotStretchedByNoise() {
    long quiet = backgroundAlone(OsNoise.none());
    long noisy = backgroundAlone(NOISE);
    // one step of a 2-rank all-to-all, then 100 us of pause: the detour at 0 puts the start off, and the step's own
    // work meets a few more; stretched as work, the pause alone would add about 33 us
    assertThat(noisy - quiet).isGreaterThanOrEqualTo(DETOUR_PS).isLessThan(4 * DETOUR_PS);
  }

  private static long backgroundAlone(OsNoise noise) {
    AriesSystem sys = AriesSystem.builder().system("default").seed(1).osNoise(noise).build();
    io.github.ariesmodel.system.mpi.MpiJob job = io.github.ariesmodel.system.mpi.MpiJob.builder(sys).nodes(0, 9)
        .build();
    job.run(io.github.ariesmodel.system.mpi.SyntheticTraffic.alltoall(64, 100_000_000L, 1));
    return job.lastRunPs();
  }
}
