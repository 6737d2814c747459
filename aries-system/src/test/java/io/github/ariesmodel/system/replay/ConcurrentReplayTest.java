package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.FabricKind;
import io.github.ariesmodel.system.mpi.SyntheticTraffic;
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
        .hasMessage("trace 0's startPs must be at least 0 but was -5");
    assertThatThrownBy(() -> ConcurrentReplay.builder(small).backgroundStartPs(-1))
        .hasMessage("backgroundStartPs must be at least 0 but was -1");
  }
}
