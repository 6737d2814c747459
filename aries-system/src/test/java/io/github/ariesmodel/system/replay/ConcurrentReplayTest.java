package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.network.Dragonfly;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.FabricKind;
import io.github.ariesmodel.system.mpi.MpiJob;
import io.github.ariesmodel.system.mpi.SyntheticTraffic;
import io.github.ariesmodel.system.process.OsNoise;
import io.github.ariesmodel.traces.Trace;
import io.github.ariesmodel.traces.dumpi.DumpiTrace;
import io.github.ariesmodel.traces.simgrid.SimGridTrace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Traces replayed together ({@link ConcurrentReplay}): one trace alone is what {@link TraceReplay#run} gives, traces
 * that share nothing take their time alone, a loaded background slows a trace that shares its links, the jobs'
 * nodes never overlap, the results are the same for every engine thread count, and a trace that fails is named.
 */
class ConcurrentReplayTest {

  private static Trace amg() throws IOException {
    return DumpiTrace.open(TraceReplayTest.TRACES.resolve("amg-n27-dumpi"));
  }

  /**
   * Runs the system's clock on to {@code atPs} with an event that does nothing: a program's own compute may not end
   * there (it ends at most {@code AriesSystem.PROGRAM_CLOCK_END_PS}, 10^15 ps before the clock's end, since stop 72).
   */
  private static void runClockTo(AriesSystem sys, long atPs) {
    sys.loop().scheduleAt(atPs, (nowPs, ref, arg) -> { }, null, 0);
    sys.loop().run();
  }

  private static AriesSystem system(String name, FabricKind fabric, int threads) {
    AriesSystem.Builder b = AriesSystem.builder().system(name).fabric(fabric).seed(1);
    if (threads > 0) {
      b.threads(threads);
    }
    return b.build();
  }

  @Test
  void oneTraceAloneIsWhatItsOwnReplayGives() throws IOException {
    ReplayResult direct = TraceReplay.builder(system("default", FabricKind.ROUTERS, 0), amg()).build().run();
    AriesSystem sys = system("default", FabricKind.ROUTERS, 0);
    ConcurrentReplay.Result r = ConcurrentReplay.builder(sys).trace(TraceReplay.builder(sys, amg()).build()).build()
        .run();
    assertThat(r.background()).isNull();
    assertThat(r.replays()).containsExactly(direct);
  }

  @Test
  void tracesThatShareNothingTakeTheirTimeAloneOnNodesOfTheirOwn() throws IOException {
    // the ideal network has no links to share
    ReplayResult alone = TraceReplay.builder(system("default", FabricKind.IDEAL, 0), amg()).build().run();
    AriesSystem sys = system("default", FabricKind.IDEAL, 0);
    ConcurrentReplay.Result r = ConcurrentReplay.builder(sys)
        .trace(TraceReplay.builder(sys, amg()).build())
        .trace(TraceReplay.builder(sys, amg()).placement(Placement.RANDOM).build(), 100_000_000) // 100 us later
        .build().run();
    assertThat(r.replays()).hasSize(2);
    // the second ran from its own start: the run lasted at least its start and its time
    assertThat(r.replays().get(1).elapsedPs()).isGreaterThanOrEqualTo(100_000_000 + alone.simulatedPs());
    for (ReplayResult x : r.replays()) {
      assertThat(x.simulatedPs()).isEqualTo(alone.simulatedPs());
      assertThat(x.messages()).isEqualTo(alone.messages());
      assertThat(x.latency()).isEqualTo(alone.latency());
    }
    // the first took nodes 0-26 (linear), the second 27 random nodes among the others
    assertThat(r.replays().get(0).nodes().asList()).isEqualTo(alone.nodes().asList());
    List<Integer> second = r.replays().get(1).nodes().asList();
    assertThat(second).doesNotContainAnyElementsOf(alone.nodes().asList()).doesNotHaveDuplicates().hasSize(27);
  }

  /** AMG on the first node of routers 0-26 of one group. */
  private static Placement sparse(Path dir) throws IOException {
    StringBuilder m = new StringBuilder();
    for (int i = 0; i < 27; i++) {
      m.append(4 * i).append('\n');
    }
    Path f = dir.resolve("sparse.txt");
    Files.writeString(f, m);
    return Placement.parse(f.toString());
  }

  @Test
  void aLoadedBackgroundOnTheTracesRoutersSlowsItAndRunsUntilItEnds(@TempDir Path dir) throws IOException {
    // minimal routing: no random choice for the background to change, so the trace can only lose by sharing; the
    // background takes the other three nodes of each of the trace's routers, so they share every link
    AriesSystem quiet = AriesSystem.builder().system("default").routing("minimal").seed(1).build();
    ReplayResult alone = TraceReplay.builder(quiet, amg()).placement(sparse(dir)).build().run();
    AriesSystem sys = AriesSystem.builder().system("default").routing("minimal").seed(1).build();
    ConcurrentReplay.Result r = ConcurrentReplay.builder(sys)
        .trace(TraceReplay.builder(sys, amg()).placement(sparse(dir)).build())
        .background(SyntheticTraffic.uniform(65_536, 0, 0, 7), 81, 1, Placement.LINEAR)
        .build().run();
    ReplayResult amg = r.replays().get(0);
    assertThat(amg.messages()).isEqualTo(alone.messages());
    assertThat(amg.simulatedPs()).isGreaterThan(alone.simulatedPs());
    assertThat(amg.latency().p99Ns()).isGreaterThan(alone.latency().p99Ns());
    ConcurrentReplay.Background bg = r.background();
    // the 81 free nodes of routers 0-26 (linear takes the lowest free ids), none of the trace's
    assertThat(bg.nodes().length()).isEqualTo(81);
    assertThat(bg.nodes().asList()).doesNotContainAnyElementsOf(amg.nodes().asList()).allMatch(n -> n < 108);
    // it ran for as long as the trace did, and stopped then
    assertThat(bg.ranPs()).isGreaterThanOrEqualTo(amg.simulatedPs());
    assertThat(bg.bytesSent()).isGreaterThan(81L * 65_536);
    assertThat(bg.bytesPerSecondPerNode()).isPositive();
  }

  private static ConcurrentReplay.Result withBackground(int threads) throws IOException {
    AriesSystem sys = system("two-groups", FabricKind.ROUTERS, threads);
    return ConcurrentReplay.builder(sys)
        .trace(TraceReplay.builder(sys, amg()).placement(Placement.ROUND_ROBIN_GROUPS).build(), 5_000_000)
        .background(SyntheticTraffic.uniform(16_384, 2_000_000, 0, 3), 32, 1, Placement.ROUND_ROBIN_GROUPS)
        .build().run();
  }

  @Test
  void theSameOnEveryEngineThreadCount() throws IOException {
    List<ConcurrentReplay.Result> seen = new ArrayList<>();
    for (int t = 1; t <= 2; t++) {
      seen.add(withBackground(t));
    }
    assertThat(seen.get(0).background().bytesSent()).isPositive();
    // the background started with the run, the trace 5 us later: the background ran for the trace's time and more
    assertThat(seen.get(0).background().startPs()).isZero();
    assertThat(seen.get(0).background().ranPs())
        .isGreaterThanOrEqualTo(5_000_000 + seen.get(0).replays().get(0).simulatedPs());
    assertThat(seen.get(1)).isEqualTo(seen.get(0));
  }

  @Test
  void aTraceThatDeadlocksBesideTheBackgroundIsNamedAtTheLimit(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("deadlock.txt");
    Files.writeString(f, "0 init\n1 init\n0 recv 1 0 8\n1 recv 0 0 8\n0 send 1 0 8\n1 send 0 0 8\n");
    AriesSystem sys = system("default", FabricKind.ROUTERS, 0);
    assertThatThrownBy(() -> ConcurrentReplay.builder(sys)
        .trace(TraceReplay.builder(sys, SimGridTrace.open(f)).build())
        .background(SyntheticTraffic.uniform(4096, 0, 0, 1), 16, 1, Placement.LINEAR)
        .foregroundLimitPs(20_000_000).build().run())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("jobs still running 20000000 ps after the start");
    // without a background the trace's own deadlock is told, naming its file
    AriesSystem sys2 = system("default", FabricKind.ROUTERS, 0);
    assertThatThrownBy(() -> ConcurrentReplay.builder(sys2)
        .trace(TraceReplay.builder(sys2, amg()).build())
        .trace(TraceReplay.builder(sys2, SimGridTrace.open(f)).build()).build().run())
        .isInstanceOf(TraceReplayException.class)
        .hasMessageContaining("deadlock.txt").hasMessageContaining("deadlocked")
        .hasMessageContaining("rank 0, call 2 (RECV from 1 tag 0");
  }

  /**
   * Without a limit (the command line's {@code --no-baseline}) a trace that deadlocks beside a background is found
   * while the background still runs, at the same simulated time for every engine thread count. The background here
   * ends by itself after 100 steps 100 us apart (10 ms): the deadlock used to be found only then, when the loop ran
   * dry, and with a background without end never.
   */
  @Test
  void aTraceThatDeadlocksBesideABackgroundWithoutALimitIsFoundWhileTheBackgroundRuns(@TempDir Path dir)
      throws IOException {
    Path f = dir.resolve("deadlock.txt");
    Files.writeString(f, "0 init\n1 init\n0 recv 1 0 8\n1 recv 0 0 8\n0 send 1 0 8\n1 send 0 0 8\n");
    List<Long> found = new ArrayList<>();
    for (int threads : new int[] {0, 1, 2}) {
      AriesSystem sys = system("two-groups", FabricKind.ROUTERS, threads);
      assertThatThrownBy(() -> ConcurrentReplay.builder(sys)
          .trace(TraceReplay.builder(sys, SimGridTrace.open(f)).placement(Placement.ROUND_ROBIN_GROUPS).build())
          .background(SyntheticTraffic.uniform(4096, 100_000_000, 100, 1), 16, 1, Placement.ROUND_ROBIN_GROUPS)
          .build().run())
          .isInstanceOf(TraceReplayException.class)
          .hasMessageContaining("deadlock.txt").hasMessageContaining("deadlocked")
          .hasMessageContaining("rank 0, call 2 (RECV from 1 tag 0").hasMessageContaining("rank 1, call 2 (RECV from 0");
      found.add(sys.now());
    }
    // two looks 100 us apart after the ranks stopped, long before the background's 10 ms
    assertThat(found).allMatch(ps -> ps < 1_000_000_000L, "found within 1 ms");
    assertThat(found.get(2)).as("the same on every engine thread count").isEqualTo(found.get(1));
  }

  /**
   * Links between groups of 60 us make the engine's lookahead 60 us: a replay beside a background without a limit
   * watches for a deadlock, and the watch refused such a lookahead (above half its 100 us), failing a run that was
   * fine. It looks less often there instead.
   */
  @Test
  void aReplayBesideABackgroundOnAnEngineOfLongLookaheadRuns(@TempDir Path dir) throws IOException {
    AriesSystem sys = AriesSystem.builder()
        .topology(Dragonfly.canonicalBuilder(2, 4, 2).latencyPs(10_000, 10_000, 60_000_000).build(), "slow-global")
        .fabric(FabricKind.ROUTERS).seed(1).threads(2).build();
    ConcurrentReplay.Result r = ConcurrentReplay.builder(sys)
        .trace(TraceReplay.builder(sys, exchange(dir)).placement(Placement.ROUND_ROBIN_GROUPS).build())
        .background(SyntheticTraffic.uniform(4096, 0, 0, 1), 12, 1, Placement.ROUND_ROBIN_GROUPS)
        .build().run();
    assertThat(r.replays().get(0).bytes()).isEqualTo(3000);
    assertThat(r.background().finished()).isFalse();
    assertThat(r.background().bytesSent()).isPositive();
  }

  /** Two ranks exchanging 1,000 and 2,000 bytes: 3,000 bytes sent a pass. */
  private static Trace exchange(Path dir) throws IOException {
    Path f = dir.resolve("exchange.txt");
    Files.writeString(f, "0 init\n1 init\n0 send 1 0 1000\n1 recv 0 0 1000\n1 send 0 0 2000\n0 recv 1 0 2000\n"
        + "0 finalize\n1 finalize\n");
    return SimGridTrace.open(f);
  }

  /** Four ranks in a ring, 50 rounds of 20,000 bytes: the foreground of the background-trace tests. */
  private static Trace ring(Path dir) throws IOException {
    StringBuilder t = new StringBuilder();
    for (int r = 0; r < 4; r++) {
      t.append(r).append(" init\n");
    }
    for (int i = 0; i < 50; i++) {
      for (int r = 0; r < 4; r++) {
        t.append(r).append(" isend ").append((r + 1) % 4).append(" 0 20000\n");
        t.append(r).append(" recv ").append((r + 3) % 4).append(" 0 20000\n");
        t.append(r).append(" wait ").append(r).append(' ').append((r + 1) % 4).append(" 0\n");
      }
    }
    for (int r = 0; r < 4; r++) {
      t.append(r).append(" finalize\n");
    }
    Path f = dir.resolve("ring.txt");
    Files.writeString(f, t);
    return SimGridTrace.open(f);
  }

  @Test
  void aTraceAsTheBackgroundRepeatsUntilTheTracesEndOrForItsPasses(@TempDir Path dir) throws IOException {
    // on the ideal network the neighbour cannot slow the ring: it takes its time alone
    ReplayResult alone = TraceReplay.builder(system("default", FabricKind.IDEAL, 0), ring(dir)).build().run();
    AriesSystem sys = system("default", FabricKind.IDEAL, 0);
    ConcurrentReplay.Result r = ConcurrentReplay.builder(sys).trace(TraceReplay.builder(sys, ring(dir)).build())
        .backgroundTrace(TraceReplay.builder(sys, exchange(dir)).placement(Placement.RANDOM).build(), 0)
        .build().run();
    ReplayResult ring = r.replays().get(0);
    assertThat(ring.simulatedPs()).isEqualTo(alone.simulatedPs());
    assertThat(ring.latency()).isEqualTo(alone.latency());
    assertThat(ring.bytes()).isEqualTo(alone.bytes());
    assertThat(ring.events()).isGreaterThan(alone.events()); // the system's events: the neighbour's too
    ConcurrentReplay.Background bg = r.background();
    assertThat(bg.finished()).isFalse();
    assertThat(bg.ranks()).isEqualTo(2);
    assertThat(bg.nodes().asList()).doesNotContainAnyElementsOf(alone.nodes().asList());
    // many passes in the ring's time, each 3,000 bytes (a stopped pass sent part of its own)
    long passes = Long.parseLong(bg.program().replaceAll(".*\\((\\d+) pass.*", "$1"));
    assertThat(passes).isGreaterThan(5);
    assertThat(bg.bytesSent()).isBetween(passes * 3000, (passes + 1) * 3000);
    assertThat(bg.program()).startsWith("trace " + dir.resolve("exchange.txt") + ", repeated (");

    // with three passes it ends by itself, having sent three passes' bytes
    AriesSystem sys2 = system("default", FabricKind.ROUTERS, 0);
    ConcurrentReplay.Result r2 = ConcurrentReplay.builder(sys2).trace(TraceReplay.builder(sys2, ring(dir)).build())
        .backgroundTrace(TraceReplay.builder(sys2, exchange(dir)).build(), 3).build().run();
    assertThat(r2.background().finished()).isTrue();
    assertThat(r2.background().bytesSent()).isEqualTo(3 * 3000);
    assertThat(r2.background().program()).endsWith(", 3 passes (3 passes finished by every rank, 3 by the furthest)");
    assertThat(r2.background().ranPs()).isPositive().isLessThan(r2.replays().get(0).simulatedPs());
  }

  /**
   * OS noise is the nodes': the synthetic background's ranks run under the system's (2 us every 10 us), so its 20
   * steps take longer than on quiet nodes; the same set-up gives the same run twice.
   */
  @Test
  void aSyntheticBackgroundRunsUnderTheSystemsNoise(@TempDir Path dir) throws IOException {
    long[] ran = new long[3];
    OsNoise noisy = OsNoise.parse("period=10us,detour=2us");
    OsNoise[] noises = {OsNoise.none(), noisy, noisy};
    for (int i = 0; i < 3; i++) {
      AriesSystem sys = AriesSystem.builder().system("default").fabric(FabricKind.ROUTERS).seed(1).osNoise(noises[i])
          .build();
      ConcurrentReplay.Result r = ConcurrentReplay.builder(sys).trace(TraceReplay.builder(sys, ring(dir)).build())
          .background(SyntheticTraffic.uniform(4096, 0, 20, 1), 8, 1, Placement.LINEAR).build().run();
      assertThat(r.background().finished()).isTrue();
      ran[i] = r.background().ranPs();
    }
    assertThat(ran[1]).isGreaterThan(ran[0]);
    assertThat(ran[2]).isEqualTo(ran[1]);
  }

  @Test
  void aBackgroundTraceThatEndsWithASendNoReceiveTookIsNamed(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("unreceived.txt");
    Files.writeString(f, "0 init\n1 init\n0 send 1 0 8\n0 finalize\n1 finalize\n");
    AriesSystem sys = system("default", FabricKind.ROUTERS, 0);
    assertThatThrownBy(() -> ConcurrentReplay.builder(sys).trace(TraceReplay.builder(sys, ring(dir)).build())
        .backgroundTrace(TraceReplay.builder(sys, SimGridTrace.open(f)).build(), 2).build().run())
        .isInstanceOf(TraceReplayException.class)
        .hasMessageStartingWith(f + ": the background trace, repeated: " + io.github.ariesmodel.system.mpi.MpiJob
            .UNFINISHED);
  }

  /**
   * A background trace whose pass takes a rank no simulated time, repeated without end, is refused in one line naming
   * the rank and the remedy (until stop 73 the rank started pass after pass at the same instant, the run never ended
   * and its memory grew); with its compute replayed, or a number of passes, it runs.
   */
  @Test
  void aBackgroundTraceWhosePassTakesARankNoTimeIsRefusedRatherThanRepeatedAtOneInstantForEver(@TempDir Path dir)
      throws IOException {
    Path initOnly = dir.resolve("initonly.txt");
    Files.writeString(initOnly, "0 init\n1 init\n0 finalize\n1 finalize\n");
    AriesSystem sys = system("default", FabricKind.ROUTERS, 0);
    assertThatThrownBy(() -> ConcurrentReplay.builder(sys).trace(TraceReplay.builder(sys, ring(dir)).build())
        .backgroundTrace(TraceReplay.builder(sys, SimGridTrace.open(initOnly)).build(), 0).build().run())
        .isInstanceOf(TraceReplayException.class)
        .hasMessageStartingWith(initOnly + ", rank 0: the background trace's pass 1 took this rank no simulated time")
        .hasMessageContaining("--background-steps N").hasMessageContaining("--compute as-traced")
        .hasMessageNotContaining("\n");

    // ranks 0 and 1 exchange (which takes time); rank 2 only computes, skipped: rank 2 is named
    Path mixed = dir.resolve("mixed.txt");
    Files.writeString(mixed, "0 init\n1 init\n2 init\n0 send 1 0 1000\n1 recv 0 0 1000\n2 compute 1e3\n"
        + "0 finalize\n1 finalize\n2 finalize\n");
    AriesSystem sys2 = system("default", FabricKind.ROUTERS, 0);
    assertThatThrownBy(() -> ConcurrentReplay.builder(sys2).trace(TraceReplay.builder(sys2, ring(dir)).build())
        .backgroundTrace(TraceReplay.builder(sys2, SimGridTrace.open(mixed)).build(), 0).build().run())
        .isInstanceOf(TraceReplayException.class)
        .hasMessageStartingWith(mixed + ", rank 2: the background trace's pass 1 took this rank no simulated time");

    // its compute replayed (1 us a pass), it repeats until the ring ends and is stopped there
    AriesSystem sys3 = system("default", FabricKind.ROUTERS, 0);
    ConcurrentReplay.Result r3 = ConcurrentReplay.builder(sys3).trace(TraceReplay.builder(sys3, ring(dir)).build())
        .backgroundTrace(TraceReplay.builder(sys3, SimGridTrace.open(mixed)).compute(ComputeMode.AS_TRACED).build(), 0)
        .build().run();
    assertThat(r3.background().finished()).isFalse();
    assertThat(Long.parseLong(r3.background().program().replaceAll(".*\\((\\d+) pass.*", "$1"))).isGreaterThan(1);

    // with a number of passes, a rank makes them at its instant and the run ends with the ring
    AriesSystem sys4 = system("default", FabricKind.ROUTERS, 0);
    ConcurrentReplay.Result r4 = ConcurrentReplay.builder(sys4).trace(TraceReplay.builder(sys4, ring(dir)).build())
        .backgroundTrace(TraceReplay.builder(sys4, SimGridTrace.open(initOnly)).build(), 3).build().run();
    assertThat(r4.background().finished()).isTrue();
    assertThat(r4.background().program()).endsWith(", 3 passes (3 passes finished by every rank, 3 by the furthest)");
  }

  @Test
  void aRepeatedTraceIsTheSameOnEveryEngineThreadCount(@TempDir Path dir) throws IOException {
    List<ConcurrentReplay.Result> seen = new ArrayList<>();
    for (int t = 1; t <= 2; t++) {
      AriesSystem sys = system("two-groups", FabricKind.ROUTERS, t);
      seen.add(ConcurrentReplay.builder(sys)
          .trace(TraceReplay.builder(sys, ring(dir)).placement(Placement.ROUND_ROBIN_GROUPS).build())
          .backgroundTrace(TraceReplay.builder(sys, exchange(dir)).placement(Placement.ROUND_ROBIN_GROUPS).build(), 0)
          .build().run());
    }
    assertThat(seen.get(0).background().bytesSent()).isPositive();
    assertThat(seen.get(1)).isEqualTo(seen.get(0));
  }

  @Test
  void jobsThatDoNotFitAreRefusedInOneLine(@TempDir Path dir) throws IOException {
    AriesSystem sys = system("default", FabricKind.ROUTERS, 0);
    Path map = dir.resolve("map.txt");
    StringBuilder m = new StringBuilder();
    for (int i = 0; i < 27; i++) {
      m.append(i + 20).append('\n');
    }
    Files.writeString(map, m);
    assertThatThrownBy(() -> ConcurrentReplay.builder(sys)
        .trace(TraceReplay.builder(sys, amg()).build())
        .trace(TraceReplay.builder(sys, amg()).placement(Placement.parse(map.toString())).build()).build().run())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mapping file " + map + " puts rank 0 on node 20, which another job holds");
    AriesSystem small = system("default", FabricKind.ROUTERS, 0);
    assertThatThrownBy(() -> ConcurrentReplay.builder(small)
        .trace(TraceReplay.builder(small, amg()).ranksPerNode(1).build())
        .background(SyntheticTraffic.uniform(8, 0, 0, 1), 358, 1, Placement.RANDOM).build().run())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the background needs 358 nodes but the system has 357 free of its 384 (the traces' jobs hold"
            + " the rest)");
    assertThatThrownBy(() -> ConcurrentReplay.builder(small).build())
        .hasMessage("a concurrent replay needs at least one trace");
    assertThatThrownBy(() -> ConcurrentReplay.builder(small)
        .background(SyntheticTraffic.uniform(8, 0, 0, 1), 4, 1, Placement.parse(map.toString())))
        .hasMessage("background placement must be linear, random or round-robin-groups but was " + map);
    assertThatThrownBy(() -> ConcurrentReplay.builder(small).trace(TraceReplay.builder(small, amg()).build(), -5))
        .hasMessage("trace 0's startPs must be in [0, " + MpiJob.MAX_START_PS + "] (picoseconds after the set's start)"
            + " but was -5");
    assertThatThrownBy(() -> ConcurrentReplay.builder(small).background(SyntheticTraffic.uniform(8, 0, 0, 1), 4, 1,
        Placement.LINEAR).backgroundTrace(TraceReplay.builder(small, amg()).build(), 0))
        .hasMessage("a concurrent replay has one background: this one has synthetic load already");
    assertThatThrownBy(() -> ConcurrentReplay.builder(small).backgroundTrace(TraceReplay.builder(small, amg()).build(),
        -1)).hasMessage("passes must be >= 0 (0: for ever) but was -1");
    assertThatThrownBy(() -> ConcurrentReplay.builder(small).backgroundStartPs(-1))
        .hasMessage("backgroundStartPs must be in [0, " + MpiJob.MAX_START_PS + "] (picoseconds after the set's"
            + " start) but was -1");
  }

  /**
   * A start past {@link MpiJob#MAX_START_PS} was taken by the builder and refused only when the run started, after
   * every job had been built (their ranks' memory registered); a limit that passes the clock's end from now too. Both
   * are refused at the builder call now, in the set's words.
   */
  @Test
  void aStartOrLimitOutOfRangeIsRefusedAtTheBuilderCall(@TempDir Path dir) throws IOException {
    AriesSystem sys = system("default", FabricKind.ROUTERS, 0);
    TraceReplay replay = TraceReplay.builder(sys, exchange(dir)).build();
    long late = MpiJob.MAX_START_PS + 1;
    String range = "must be in [0, " + MpiJob.MAX_START_PS + "] (picoseconds after the set's start) but was ";
    assertThatThrownBy(() -> ConcurrentReplay.builder(sys).trace(replay).trace(replay, late))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("trace 1's startPs " + range + late);
    assertThatThrownBy(() -> ConcurrentReplay.builder(sys).trace(replay, Long.MAX_VALUE))
        .hasMessage("trace 0's startPs " + range + Long.MAX_VALUE);
    assertThatThrownBy(() -> ConcurrentReplay.builder(sys).backgroundStartPs(late))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("backgroundStartPs " + range + late);
    // the latest start is taken
    ConcurrentReplay.builder(sys).trace(replay, MpiJob.MAX_START_PS).backgroundStartPs(MpiJob.MAX_START_PS);
    // once the clock has moved, a limit that passes its end from now (it wrapped when the run scheduled it)
    MpiJob.builder(sys).nodes(382, 383).build().run(mpi -> mpi.compute(1_000_000));
    long now = sys.now();
    assertThatThrownBy(() -> ConcurrentReplay.builder(sys).foregroundLimitPs(Long.MAX_VALUE - 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("foregroundLimitPs must be at most " + (Long.MAX_VALUE - now) + " (the clock's end from now, " + now
            + " ps) or Long.MAX_VALUE (no limit) but was " + (Long.MAX_VALUE - 1));
    ConcurrentReplay.builder(sys).foregroundLimitPs(Long.MAX_VALUE - now).foregroundLimitPs(Long.MAX_VALUE);
  }

  /**
   * The clock may near its end between the builder and the run: a start that then passes it is refused before any
   * job is built (it used to be refused by the set, with every trace's and the background's ranks registered on
   * their nodes, memory a later replay on the system could not have).
   */
  @Test
  void aStartPastTheClocksEndAtTheRunIsRefusedBeforeAnyJobIsBuilt(@TempDir Path dir) throws IOException {
    AriesSystem sys = system("default", FabricKind.ROUTERS, 0);
    ConcurrentReplay set = ConcurrentReplay.builder(sys)
        .trace(TraceReplay.builder(sys, exchange(dir)).build(), MpiJob.MAX_START_PS)
        .background(SyntheticTraffic.uniform(4096, 0, 0, 1), 8, 1, Placement.LINEAR).build();
    runClockTo(sys, Long.MAX_VALUE - MpiJob.MAX_START_PS / 2);
    long now = sys.now();
    long taken = sys.node(0).memory().allocatedBytes();
    assertThatThrownBy(set::run).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("trace 0's startPs must be at most " + (Long.MAX_VALUE - now) + " (the clock's end from now, " + now
            + " ps) but was " + MpiJob.MAX_START_PS);
    assertThat(sys.node(0).memory().allocatedBytes()).as("no rank registered on the trace's first node")
        .isEqualTo(taken);
    assertThat(sys.now()).isEqualTo(now);
  }

  /** A system of one group under minimal routing whose fabric splits its links' busy time by source node. */
  static AriesSystem tallied(LinkTally tally) {
    AriesSystem.Builder b = AriesSystem.builder().system("default").routing("minimal").seed(1);
    if (tally != null) {
      b.routerSettings(fb -> fb.addHopListener(tally));
    }
    return b.build();
  }

  @Test
  void eachTracesLinkFiguresAreItsOwnPacketsBesideAnotherJob() throws IOException {
    // Minimal routing in one group: every minimal path between two routers crosses the same link ranks (one rank-1
    // and one rank-2 link, or one of them), so a trace's packets load each rank alike beside the other job or alone;
    // random placement spreads both jobs over the group's routers, so that both cross links
    Path big = TraceReplayTest.SIMGRID.resolve("actions_with_isend.txt");
    Path small = TraceReplayTest.SIMGRID.resolve("actions_allreduce.txt");
    LinkTally tally = new LinkTally();
    AriesSystem sys = tallied(tally);
    ConcurrentReplay.Result r = ConcurrentReplay.builder(sys).linkTally(tally)
        .trace(TraceReplay.builder(sys, SimGridTrace.open(big)).placement(Placement.RANDOM).build())
        .trace(TraceReplay.builder(sys, SimGridTrace.open(small)).placement(Placement.RANDOM).build())
        .build().run();
    Path[] files = {big, small};
    long[] total = new long[2];
    for (int j = 0; j < 2; j++) {
      ReplayResult together = r.replays().get(j);
      ReplayResult alone = TraceReplay.builder(tallied(null), SimGridTrace.open(files[j]))
          .placement(Placement.explicit(together.nodes().toArray())).build().run();
      assertThat(alone.linkBytes().values()).anyMatch(v -> v > 0); // (its ranks' packets cross links)
      assertThat(together.linkBytes()).isEqualTo(alone.linkBytes());
      for (int c = 0; c < 2; c++) {
        total[c] += together.linkBytes().get(sys.topology().linkClassName(c));
      }
    }
    // the two jobs' figures are the fabric's, split (each rounded to a byte)
    for (int c = 0; c < 2; c++) {
      long fabric = Math.round(sys.routerFabric().get().busyPs(c) * sys.topology().linkBandwidth(c) / 1e12);
      assertThat(total[c]).isBetween(fabric - 1, fabric + 1);
    }
  }

  @Test
  void aLinkTallyMustBeBoundToTheSystemsOwnTopology() {
    LinkTally tally = new LinkTally();
    AriesSystem a = tallied(tally);
    ConcurrentReplay.builder(a).linkTally(tally).linkTally(tally); // the same system again: nothing new
    AriesSystem b = tallied(null);
    assertThatThrownBy(() -> ConcurrentReplay.builder(b).linkTally(tally))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("another system");
    AriesSystem ideal = system("default", FabricKind.IDEAL, 0);
    assertThatThrownBy(() -> ConcurrentReplay.builder(ideal).linkTally(new LinkTally()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("router fabric");
  }
}
