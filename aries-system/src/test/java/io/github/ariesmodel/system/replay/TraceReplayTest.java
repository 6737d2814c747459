package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.primitives.ImmutableLongArray;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.IdealFabric;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.DelegatingFabric;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.RankCoverage;
import io.github.ariesmodel.traces.RankTrace;
import io.github.ariesmodel.traces.Trace;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceFormat;
import io.github.ariesmodel.traces.dumpi.DumpiTrace;
import io.github.ariesmodel.traces.simgrid.SimGridTrace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Replays of the shared traces end to end, with every call counted, and the ways a trace can be bad. */
class TraceReplayTest {

  /** The traces aries-traces keeps for its tests (Maven runs a module's tests in the module's folder). */
  static final Path TRACES = Path.of("../aries-traces/src/test/resources/traces");
  static final Path SIMGRID = TRACES.resolve("simgrid-examples");

  static AriesSystem system(String name) {
    return AriesSystem.builder().system(name).seed(1).build();
  }

  @Test
  void theAmgTraceReplaysWithEveryRecordedCallAndMessage() throws IOException {
    Trace trace = DumpiTrace.open(TRACES.resolve("amg-n27-dumpi"));
    ReplayResult r = TraceReplay.builder(system("default"), trace).build().run();
    assertThat(r.ranks()).isEqualTo(27);
    assertThat(r.calls(CallKind.INIT)).isEqualTo(27);
    assertThat(r.calls(CallKind.ISEND)).isEqualTo(15_524);
    assertThat(r.calls(CallKind.IRECV)).isEqualTo(15_524);
    assertThat(r.calls(CallKind.WAITALL)).isEqualTo(1_508);
    assertThat(r.callsReplayed()).isEqualTo(27 + 2 * 15_524 + 1_508);
    assertThat(r.collectives()).isEmpty();
    // every recorded Isend delivered once, with the bytes docs/traces.md counts
    assertThat(r.messages()).isEqualTo(15_524);
    assertThat(r.bytes()).isEqualTo(13_584_368);
    assertThat(r.latency().count()).isEqualTo(15_524);
    assertThat(r.latency().minNs()).isPositive();
    assertThat(r.latency().p50Ns()).isLessThanOrEqualTo(r.latency().p99Ns());
    assertThat(r.requestsNotStarted()).isZero();
    assertThat(r.receivesUnmatched()).isZero();
    // the MPI layer's messages: the trace's plus the finalize barriers'
    assertThat(r.mpiMessages()).isGreaterThan(15_524);
    assertThat(r.simulatedPs()).isPositive();
    for (int i = 0; i < 27; i++) {
      assertThat(r.communicationPs().get(i)).as("rank %s", i).isPositive();
      assertThat(r.nodes().get(i)).isEqualTo(i); // linear, one rank a node
    }
    assertThat(r.linkBytes().values().stream().mapToLong(Long::longValue).sum()).isPositive();
    // what the trace left out: the footers' ignored calls
    assertThat(r.coverage().footerIgnored()).containsEntry("MPI_Allreduce", 2_241L);
  }

  /** Counts each action's lines in a SimGrid file (an independent count of what must be replayed). */
  static long count(Path file, String action) throws IOException {
    Pattern p = Pattern.compile("^\\s*\\d+\\s+" + action + "(\\s|$)");
    return Files.readAllLines(file).stream().filter(l -> p.matcher(l).find()).count();
  }

  @Test
  void everySimGridExampleReplaysWithEveryActionCounted() throws IOException {
    try (var files = Files.list(SIMGRID)) {
      for (Path f : files.sorted().toList()) {
        String name = f.getFileName().toString();
        if (name.equals("actions0.txt") || name.equals("actions1.txt")) {
          continue; // a per-rank pair, below
        }
        ReplayResult r = TraceReplay.builder(system("default"), SimGridTrace.open(f)).build().run();
        for (String action : List.of("init", "finalize", "send", "isend", "recv", "irecv", "wait", "waitall",
            "barrier", "bcast", "reduce", "allreduce", "alltoall", "alltoallv", "gather", "allgatherv",
            "reducescatter", "compute")) {
          CallKind k = action.equals("reducescatter") ? CallKind.REDUCE_SCATTER
              : CallKind.valueOf(action.toUpperCase(Locale.ROOT));
          assertThat(r.calls(k)).as("%s %s", name, action).isEqualTo(count(f, action));
        }
        long sends = count(f, "send") + count(f, "isend");
        assertThat(r.messages()).as(name).isEqualTo(sends);
        assertThat(r.simulatedPs()).as(name).isPositive();
      }
    }
  }

  /**
   * A receive whose trace ends in a test (an SMPI test loop keeps only its last, successful test) and is never waited
   * for: the test runs before the message comes, the MPI layer completes the receive later, and the replay counts
   * the message. It was refused as "1 sends that no receive of the trace matched".
   */
  @Test
  void aReceiveLeftToATestIsCountedWhenItsMessageComes(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("test-only.txt");
    Files.writeString(f, "0 init\n1 init\n1 irecv 0 0 100\n1 test 0 1 0\n0 send 1 0 100\n0 finalize\n1 finalize\n");
    ReplayResult r = TraceReplay.builder(system("default"), SimGridTrace.open(f)).build().run();
    assertThat(r.messages()).isEqualTo(1);
    assertThat(r.bytes()).isEqualTo(100);
  }

  /**
   * A reduction's flops, as a SimGrid line states them ({@code allreduce 5e4 5e8}), are computed after it as traced,
   * as SMPI's replay does: each rank of actions_allreduce.txt computes 5e8 flops there and 5e8 on its compute line,
   * a second at 1 Gflop/s. They were dropped (half a second), and are skipped under skip.
   */
  @Test
  void aReductionsFlopsAreComputedAsTraced() throws IOException {
    Trace t = SimGridTrace.open(SIMGRID.resolve("actions_allreduce.txt"));
    ReplayResult traced = TraceReplay.builder(system("default"), t).compute(ComputeMode.AS_TRACED).build().run();
    ReplayResult skip = TraceReplay.builder(system("default"), t).build().run();
    for (int rank = 0; rank < 3; rank++) {
      assertThat(traced.computePs().get(rank)).isEqualTo(1_000_000_000_000L);
      assertThat(skip.computePs().get(rank)).isZero();
    }
    assertThat(traced.simulatedPs()).isGreaterThan(1_000_000_000_000L);
    assertThat(traced.simulatedPs() - skip.simulatedPs()).isBetween(1_000_000_000_000L, 1_000_001_000_000L);
  }

  @Test
  void thePerRankSimGridPairReplaysAndComputesAsTraced() throws IOException {
    Trace t = SimGridTrace.ofRankFiles(SIMGRID.resolve("actions0.txt"),
        List.of(SIMGRID.resolve("actions0.txt"), SIMGRID.resolve("actions1.txt")));
    ReplayResult skip = TraceReplay.builder(system("default"), t).build().run();
    ReplayResult traced = TraceReplay.builder(system("default"), t).compute(ComputeMode.AS_TRACED).build().run();
    assertThat(skip.messages()).isEqualTo(3);
    assertThat(skip.bytes()).isEqualTo(3_000_000);
    // rank 1 computes 1e9 flops at 1 Gflop/s: one second
    assertThat(traced.computePs().get(1)).isEqualTo(1_000_000_000_000L);
    assertThat(traced.simulatedPs()).isGreaterThan(skip.simulatedPs() + 999_000_000_000L);
    ReplayResult half = TraceReplay.builder(system("default"), t).compute(ComputeMode.parse("scale:0.5")).build()
        .run();
    assertThat(half.computePs().get(1)).isEqualTo(500_000_000_000L);
  }

  @Test
  void theSameSeedGivesTheSameResult() throws IOException {
    Path f = SIMGRID.resolve("actions_with_isend.txt");
    ReplayResult a = TraceReplay.builder(system("two-groups"), SimGridTrace.open(f)).placement(Placement.RANDOM)
        .build().run();
    ReplayResult b = TraceReplay.builder(system("two-groups"), SimGridTrace.open(f)).placement(Placement.RANDOM)
        .build().run();
    assertThat(b).isEqualTo(a);
  }

  @Test
  void placementsPutRanksWhereTheySay(@TempDir Path dir) throws IOException {
    AriesSystem s = system("two-groups");
    int perGroup = s.nodeCount() / s.topology().groupCount();
    assertThat(Placement.LINEAR.nodes(s.topology(), 5, 2, 1)).containsExactly(0, 0, 1, 1, 2);
    assertThat(Placement.ROUND_ROBIN_GROUPS.nodes(s.topology(), 3, 1, 1)).containsExactly(0, perGroup, 1);
    int[] random = Placement.RANDOM.nodes(s.topology(), 4, 1, 7);
    assertThat(random).doesNotHaveDuplicates().isEqualTo(Placement.RANDOM.nodes(s.topology(), 4, 1, 7));
    Path file = dir.resolve("map.txt");
    Files.writeString(file, "# node of each rank\n5\n5\n9\n");
    assertThat(Placement.parse(file.toString()).nodes(s.topology(), 3, 1, 1)).containsExactly(5, 5, 9);
    assertThatThrownBy(() -> Placement.parse(file.toString()).nodes(s.topology(), 4, 1, 1))
        .hasMessageContaining("names 3 nodes but the trace has 4 ranks");
    Files.writeString(file, "5\nfive\n");
    assertThatThrownBy(() -> Placement.parse(file.toString())).hasMessageContaining("line 2");
    assertThatThrownBy(() -> Placement.parse("diagonal")).hasMessageContaining("linear, random");
    assertThatThrownBy(() -> Placement.parse(dir.toString())).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mapping file " + dir + " is a directory, not a file of node ids");
    Files.write(file, new byte[] {'5', '\n', (byte) 0xC3, (byte) 0x28, '\n'});
    assertThatThrownBy(() -> Placement.parse(file.toString())).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mapping file " + file + " is not UTF-8 text (it holds one node id a line)");
    assertThat(ComputeMode.parse(ComputeMode.scale(2.5).toString())).isEqualTo(ComputeMode.scale(2.5));
    assertThatThrownBy(() -> ComputeMode.parse("scale:0")).hasMessageContaining("scale factor must be in (0, 1e6]");
    assertThatThrownBy(() -> ComputeMode.parse("fast")).hasMessageContaining("skip, as-traced or scale:F");
    assertThatThrownBy(() -> TraceReplay.builder(s, SimGridTrace.open(SIMGRID.resolve("actions_barrier.txt")))
        .ranksPerNode(69)).hasMessageContaining("ranksPerNode must be in [1, 68] but was 69");
  }

  @Test
  void aTraceWithoutPointToPointMessagesHasNoLatencyFiguresRatherThanZero(@TempDir Path dir) throws IOException {
    // collectives only: no message of the trace's own to time (the figures were 0 ns, as if messages took no time)
    Path f = dir.resolve("collectives.txt");
    Files.writeString(f, "0 init\n1 init\n0 barrier\n1 barrier\n0 allreduce 64 0\n1 allreduce 64 0\n0 finalize\n"
        + "1 finalize\n");
    ReplayResult r = TraceReplay.builder(system("default"), SimGridTrace.open(f)).build().run();
    assertThat(r.messages()).isZero();
    assertThat(r.mpiMessages()).isPositive(); // the collectives' own messages are not the trace's
    assertThat(r.latency()).isEqualTo(ReplayResult.Latency.NONE);
    assertThat(r.latency().measured()).isFalse();
    assertThat(r.latency().count()).isZero();
    assertThat(r.latency().p50Ns()).isNaN();
    assertThat(r.latency().p99Ns()).isNaN();
    assertThat(r.latency().meanNs()).isNaN();
    // a replay with messages has figures, and a distribution cannot claim both
    Path g = dir.resolve("one.txt");
    Files.writeString(g, "0 init\n1 init\n0 send 1 0 8\n1 recv 0 0 8\n");
    ReplayResult one = TraceReplay.builder(system("default"), SimGridTrace.open(g)).build().run();
    assertThat(one.latency().measured()).isTrue();
    assertThat(one.latency().p50Ns()).isPositive();
    assertThatThrownBy(() -> new ReplayResult.Latency(0, 0, 0, 0, 0, 0, 0)).hasMessageContaining("NaN exactly");
    assertThatThrownBy(() -> new ReplayResult.Latency(1, Double.NaN, 1, 1, 1, 1, 1)).hasMessageContaining("NaN");
  }

  @Test
  void aBadLineNamesFileRankAndLine(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("bad.txt");
    Files.writeString(f, "0 init\n1 init\n0 send 1 0 10\n1 recv 0 0 10\n1 jump 3\n");
    assertThatThrownBy(() -> TraceReplay.builder(system("default"), SimGridTrace.open(f)).build().run())
        .isInstanceOf(TraceReplayException.class)
        .hasMessageContaining(f.toString()).hasMessageContaining("rank 1").hasMessageContaining("line 5");
  }

  @Test
  void aMessageTooLargeForTheReplayNamesFileRankAndCall(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("big.txt");
    Files.writeString(f, "0 init\n1 init\n0 send 1 0 1e10\n1 recv 0 0 1e10\n");
    assertThatThrownBy(() -> TraceReplay.builder(system("default"), SimGridTrace.open(f)).build().run())
        .isInstanceOf(TraceReplayException.class).hasMessageStartingWith(f + ", rank 0, call ")
        .hasMessageContaining("a message of 10000000000 bytes, more than the replay's largest, 2^31 - 65");
  }

  @Test
  void localWorkEndingPastTheClocksEndIsRefusedNamingTheCallNotWrappedOrClamped(@TempDir Path dir)
      throws IOException {
    Path f = dir.resolve("huge.txt");
    // a compute of 1e300 flops used to end the replay at the clock's end without a word, and two long sleeps to
    // wrap to a negative time
    Files.writeString(f, "0 init\n1 init\n0 compute 1e300\n0 send 1 0 10\n1 recv 0 0 10\n");
    assertThatThrownBy(() -> TraceReplay.builder(system("default"), SimGridTrace.open(f)).compute(
        ComputeMode.AS_TRACED).build().run()).isInstanceOf(TraceReplayException.class)
        .hasMessageContaining(f + ", rank 0, call ").hasMessageContaining("would end past the simulated clock's end")
        // in the user's terms, no Java name (it named AriesSystem.PROGRAM_CLOCK_END_PS and Long.MAX_VALUE until stop 73)
        .hasMessageContaining("clock's end for a program, 9,222,372,036,854,775,807 ps (about 107 days; the clock's"
            + " last 1,000 s are kept for the communication after it)")
        .hasMessageNotContaining("AriesSystem").hasMessageNotContaining("Long.");
    Path g = dir.resolve("sleeps.txt");
    Files.writeString(g, "0 init\n0 sleep 9e6\n0 sleep 9e6\n");
    assertThatThrownBy(() -> TraceReplay.builder(system("default"), SimGridTrace.open(g)).compute(
        ComputeMode.AS_TRACED).build().run()).isInstanceOf(TraceReplayException.class)
        .hasMessageContaining("rank 0, call 3").hasMessageContaining("would end past the simulated clock's end");
  }

  @Test
  void aCollectiveWhoseRanksNameDifferentRootsIsRefusedNamingTheFile(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("roots.txt");
    // each rank acted as its own root, and the replay finished without a word (stop 47's probe); the report names
    // each rank's trace call
    Files.writeString(f, "0 init\n1 init\n2 init\n0 bcast 5e4 0\n1 bcast 5e4 0\n2 compute 1e3\n2 bcast 5e4 2\n");
    assertThatThrownBy(() -> TraceReplay.builder(system("default"), SimGridTrace.open(f)).build().run())
        .isInstanceOf(TraceReplayException.class)
        .hasMessage(f + ": the trace's ranks disagree on a collective: MPI ranks disagree on collective call 0 on"
            + " the world communicator (MPI requires the same collective calls in the same order, with the same"
            + " root, op and type and matching lengths): rank 0 (its call 2) called bcast(root 0, 50000 bytes) but"
            + " rank 2 (its call 3) called bcast(root 2, 50000 bytes)");
  }

  @Test
  void aSendNoReceiveMatchesIsNamed(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("unmatched.txt");
    Files.writeString(f, "0 init\n1 init\n0 send 1 0 10\n0 send 1 7 10\n1 recv 0 0 10\n");
    assertThatThrownBy(() -> TraceReplay.builder(system("default"), SimGridTrace.open(f)).build().run())
        .isInstanceOf(TraceReplayException.class)
        .hasMessageContaining("rank 0, call 3").hasMessageContaining("1 sends that no receive")
        .hasMessageContaining("to rank 1 tag 7");
  }

  @Test
  void aTraceThatDeadlocksSaysWhoWaitsForWhat(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("deadlock.txt");
    Files.writeString(f, "0 init\n1 init\n2 init\n0 recv 1 0 8\n1 recv 0 0 8\n0 send 1 0 8\n1 send 0 0 8\n"
        + "2 barrier\n");
    TraceReplayException e = org.junit.jupiter.api.Assertions.assertThrows(TraceReplayException.class,
        () -> TraceReplay.builder(system("default"), SimGridTrace.open(f)).build().run());
    assertThat(e.getMessage()).contains("deadlocked").contains("rank 0, call 2 (RECV from 1 tag 0")
        .contains("rank 1, call 2 (RECV from 0 tag 0").contains("rank 2, call 2 (BARRIER");
    assertThat(e.rank()).isZero();
    assertThat(e.call()).isEqualTo(2);
  }

  @Test
  void aMessageLongerThanItsReceiveNamesTheCall(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("truncate.txt");
    Files.writeString(f, "0 init\n1 init\n0 send 1 0 100\n1 recv 0 0 10\n");
    assertThatThrownBy(() -> TraceReplay.builder(system("default"), SimGridTrace.open(f)).build().run())
        .isInstanceOf(TraceReplayException.class).hasMessageContaining("rank 1, call 2")
        .hasMessageContaining("TRUNCATE");
  }

  /**
   * A heap too small for the replay: the ranks' collective buffers (the traced sizes) of SimGrid's
   * examples/smpi/replay_multiple/ti_traces_32_1 need some 6.7 GB at once, and the OutOfMemoryError was reported as
   * "the MPI layer refused ALLTOALLV on communicator 0: Java heap space". Filling the test's heap would take
   * gigabytes, so the trace here throws the error from its stream, inside the rank's replay, after the collective.
   */
  @Test
  void runningOutOfHeapSaysSoNamingTheCallTheRankAndTheBytes() {
    List<TraceCall> calls = initAlltoallvFinalize();
    Trace synthetic = SyntheticTrace.of(List.of(calls, calls));
    AtomicInteger opens = new AtomicInteger();
    Trace trace = new Trace() {
      @Override
      public TraceFormat format() {
        return synthetic.format();
      }

      @Override
      public Path source() {
        return synthetic.source();
      }

      @Override
      public int ranks() {
        return synthetic.ranks();
      }

      @Override
      public RankTrace open(int rank) throws IOException {
        RankTrace s = synthetic.open(rank);
        if (rank != 0 || opens.incrementAndGet() == 1) {
          return s; // (the replay reads every stream once before it runs them)
        }
        return new RankTrace() {
          private int read;

          @Override
          public int rank() {
            return 0;
          }

          @Override
          public TraceCall read() throws IOException {
            if (++read == 3) {
              throw new OutOfMemoryError("Java heap space");
            }
            return s.read();
          }

          @Override
          public RankCoverage coverage() {
            return s.coverage();
          }

          @Override
          public void close() throws IOException {
            s.close();
          }
        };
      }
    };
    assertThatThrownBy(() -> TraceReplay.builder(system("default"), trace).build().run())
        .isInstanceOf(TraceReplayException.class)
        .hasMessageStartingWith("synthetic, rank 0, call 2: out of memory (Java heap) replaying ALLTOALLV on"
            + " communicator 0: its buffers take up to 400 bytes on this rank, and every rank in it holds its own at"
            + " once; give the JVM more heap (ARIES_JAVA_OPTS=-Xmx<size> with ./aries, else java -Xmx<size>; the"
            + " maximum now is " + Runtime.getRuntime().maxMemory() + " bytes)")
        .hasMessageNotContaining("refused");
  }

  /** One rank's calls: init, an alltoallv of 100 bytes to each of two ranks, finalize. */
  private static List<TraceCall> initAlltoallvFinalize() {
    ImmutableLongArray per = ImmutableLongArray.of(100, 100);
    return List.of(new TraceCall.Lifecycle(CallKind.INIT, CallTiming.NONE),
        new TraceCall.Collective(CallKind.ALLTOALLV, TraceCall.COMM_WORLD, -1, 0, 0, per, per, 0, CallTiming.NONE),
        new TraceCall.Lifecycle(CallKind.FINALIZE, CallTiming.NONE));
  }

  /**
   * The heap running out in an event of the NIC or the fabric (not in a rank's own call) reaches the replay bare,
   * rethrown by the engine: it too is one line naming the last running rank's call (stop 65's review).
   */
  @Test
  void runningOutOfHeapInAFabricEventIsNamedWithTheLastRunningCall() {
    List<TraceCall> calls = initAlltoallvFinalize();
    AtomicInteger injected = new AtomicInteger();
    AriesSystem sys = AriesSystem.builder().system("default").seed(1).fabric((topology, clock) ->
        new DelegatingFabric(new IdealFabric(clock, topology.nodeCount(), 1_000, 10e9)) {
          @Override
          public boolean inject(Packet packet) {
            if (injected.incrementAndGet() == 3) {
              throw new OutOfMemoryError("Java heap space");
            }
            return super.inject(packet);
          }
        }).build();
    assertThatThrownBy(() -> TraceReplay.builder(sys, SyntheticTrace.of(List.of(calls, calls))).build().run())
        .isInstanceOf(TraceReplayException.class)
        .hasMessageContaining("out of memory (Java heap) replaying")
        .hasMessageContaining("give the JVM more heap")
        .hasMessageNotContaining("refused");
  }

}
