package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.sim.PartitionedEngine;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.OsNoise;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.Trace;
import io.github.ariesmodel.traces.simgrid.SimGridTrace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay on the partitioned engine ({@link AriesSystem.Builder#threads(int)}): a halo-exchange trace of 18 ranks
 * spread over the nine groups of a canonical dragonfly, so ranks of different groups run at once on different threads
 * and their messages cross global links; everything the replay measures is the same for 1, 2 and 3 threads, and
 * progress is reported one call at a time and never goes back.
 */
class ReplayThreadsTest {

  /** Nine groups of four routers with two nodes each: 72 nodes. */
  private static final String SYSTEM = "canonical:p=2,a=4,h=2";
  private static final int RANKS = 18;
  private static final int ITERATIONS = 8;
  /** Short, eager and rendezvous sizes under the MPI layer's defaults. */
  private static final int[] SIZES = {64, 4000, 30_000};

  @TempDir static Path dir;
  private static Trace trace;
  private static int messages;
  private static long bytes;

  /**
   * Writes the trace. With ranks placed round-robin over the groups, rank r is in group r mod 9: its ring neighbours
   * r ± 1 are in other groups (messages through global links), its partner r + 9 in the same group on another node
   * (both on one thread). Each iteration computes, exchanges with both neighbours (nonblocking; the first receive of
   * unknown size), swaps with the partner (sendRecv), and now and then runs a collective; the even ranks finally send
   * to their right neighbour with a blocking send.
   */
  @BeforeAll
  static void writeTrace() throws IOException {
    StringBuilder t = new StringBuilder();
    for (int r = 0; r < RANKS; r++) {
      int left = (r + RANKS - 1) % RANKS;
      int right = (r + 1) % RANKS;
      int partner = (r + RANKS / 2) % RANKS;
      t.append(r).append(" init\n");
      for (int it = 0; it < ITERATIONS; it++) {
        int size = SIZES[(it + r) % SIZES.length];
        int fromLeft = SIZES[(it + left) % SIZES.length];
        t.append(r).append(" compute ").append(1_000 * (1 + (r * 7 + it * 3) % 11)).append('\n');
        t.append(r).append(" irecv ").append(left).append(' ').append(it).append(' ').append(it == 0 ? -1 : fromLeft)
            .append('\n');
        t.append(r).append(" irecv ").append(right).append(' ').append(it).append(" 100\n");
        t.append(r).append(" isend ").append(right).append(' ').append(it).append(' ').append(size).append('\n');
        t.append(r).append(" isend ").append(left).append(' ').append(it).append(" 100\n");
        t.append(r).append(" waitall\n");
        t.append(r).append(" sendRecv 2000 ").append(partner).append(" 2000 ").append(partner).append('\n');
        messages += 3;
        bytes += size + 100 + 2000;
        switch (it % 4) {
          case 1 -> t.append(r).append(" allreduce 4 100\n");
          case 2 -> t.append(r).append(" bcast 20000 ").append(it % RANKS).append('\n');
          case 3 -> t.append(r).append(" alltoall 256 256\n");
          default -> t.append(r).append(" barrier\n");
        }
      }
      if (r % 2 == 0) {
        t.append(r).append(" send ").append(right).append(" 99 5000\n");
        messages++;
        bytes += 5000;
      } else {
        t.append(r).append(" recv ").append(left).append(" 99 5000\n");
      }
      t.append(r).append(" finalize\n");
    }
    Path file = dir.resolve("halo.txt");
    Files.writeString(file, t);
    trace = SimGridTrace.open(file);
  }

  /** A replay's result and what its progress reports showed. */
  private record Run(ReplayResult result, List<double[]> progress, int groupsWithRanks, boolean reportsOverlapped) {}

  /** @param threads 0 for the single event loop, else the engine's thread count */
  private static Run replay(int threads) {
    return replay(threads, OsNoise.none());
  }

  /**
   * @param threads 0 for the single event loop, else the engine's thread count
   * @param noise the nodes' OS noise
   */
  private static Run replay(int threads, OsNoise noise) {
    AriesSystem.Builder b = AriesSystem.builder().system(SYSTEM).seed(5).osNoise(noise);
    if (threads > 0) {
      b.threads(threads);
    }
    AriesSystem system = b.build();
    try {
      assertThat(system.engine().isPresent()).isEqualTo(threads > 0);
      assertThat(system.threads()).isEqualTo(Math.max(1, threads));
      List<double[]> progress = new ArrayList<>();
      AtomicInteger inside = new AtomicInteger();
      boolean[] overlapped = new boolean[1];
      ReplayProgress sink = (fraction, ps) -> {
        // called from the ranks' threads: the replay must call it one at a time (the list is not thread-safe)
        if (inside.incrementAndGet() != 1) {
          overlapped[0] = true;
        }
        progress.add(new double[] {fraction, ps});
        inside.decrementAndGet();
      };
      ReplayResult r = TraceReplay.builder(system, trace).placement(Placement.ROUND_ROBIN_GROUPS)
          .compute(ComputeMode.AS_TRACED).progress(sink).build().run();
      Set<Integer> groups = new HashSet<>();
      for (int i = 0; i < r.ranks(); i++) {
        groups.add(system.groupOfNode(r.nodes().get(i)));
      }
      return new Run(r, progress, groups.size(), overlapped[0]);
    } finally {
      system.engine().ifPresent(PartitionedEngine::close);
    }
  }

  @Test
  void aReplayOverSeveralGroupsMeasuresTheSameForOneTwoAndThreeThreads() {
    Run one = replay(1);
    ReplayResult a = one.result();
    // not vacuous: ranks in every group, messages over global links, every message of the trace measured
    assertThat(one.groupsWithRanks()).isEqualTo(9);
    assertThat(a.linkBytes().get("global")).isPositive();
    assertThat(a.messages()).isEqualTo(messages);
    assertThat(a.bytes()).isEqualTo(bytes);
    assertThat(a.latency().count()).isEqualTo(messages);
    assertThat(a.latency().p50Ns()).isLessThan(a.latency().p99Ns());
    assertThat(a.unknownSizes()).isEqualTo(RANKS);
    assertThat(a.collectives()).containsOnlyKeys("barrier", "allreduce", "bcast", "alltoall");
    assertThat(a.events()).isPositive();
    assertThat(a.computePs().asList()).allMatch(ps -> ps > 0);
    for (int threads : new int[] {2, 3}) {
      Run run = replay(threads);
      ReplayResult b = run.result();
      String as = threads + " threads";
      assertThat(run.groupsWithRanks()).isEqualTo(9);
      assertThat(b.simulatedPs()).as(as).isEqualTo(a.simulatedPs());
      assertThat(b.communicationPs()).as(as).isEqualTo(a.communicationPs());
      assertThat(b.computePs()).as(as).isEqualTo(a.computePs());
      assertThat(b.latency()).as(as).isEqualTo(a.latency());
      assertThat(b.messages()).as(as).isEqualTo(a.messages());
      assertThat(b.bytes()).as(as).isEqualTo(a.bytes());
      assertThat(b.mpiMessages()).as(as).isEqualTo(a.mpiMessages());
      assertThat(b.mpiBytes()).as(as).isEqualTo(a.mpiBytes());
      assertThat(b.calls()).as(as).isEqualTo(a.calls());
      assertThat(b.linkBytes()).as(as).isEqualTo(a.linkBytes());
      assertThat(b.linkUtilization()).as(as).isEqualTo(a.linkUtilization());
      assertThat(b.events()).as(as).isEqualTo(a.events());
      assertThat(b).as(as).isEqualTo(a); // and everything else the result holds
    }
  }

  /**
   * Under OS noise (a detour of 2 us every 50 us, each node at its own phase) the replay takes longer on the single
   * loop and on the engine, and the engine's is the same for 1, 2 and 3 threads: a node's detours depend on the seed
   * and its id alone. (The single loop's timing differs from the engine's with or without noise; see below.)
   */
  @Test
  void osNoiseLengthensTheReplayTheSameForEveryThreadCount() {
    OsNoise noise = OsNoise.parse("period=50us,detour=2us");
    assertThat(replay(0, noise).result().simulatedPs()).isGreaterThan(replay(0).result().simulatedPs());
    ReplayResult quiet = replay(1).result();
    ReplayResult one = replay(1, noise).result();
    assertThat(one.simulatedPs()).isGreaterThan(quiet.simulatedPs());
    assertThat(one.messages()).isEqualTo(quiet.messages());
    for (int threads : new int[] {2, 3}) {
      ReplayResult r = replay(threads, noise).result();
      assertThat(r).as(threads + " threads").isEqualTo(one);
    }
  }

  @Test
  void whatDoesNotDependOnTimingIsTheSingleLoopsAndProgressNeverGoesBack() {
    Run loop = replay(0);
    Run engine = replay(3);
    ReplayResult l = loop.result();
    ReplayResult e = engine.result();
    assertThat(e.nodes()).isEqualTo(l.nodes());
    assertThat(e.calls()).isEqualTo(l.calls());
    assertThat(e.calls(CallKind.ISEND)).isEqualTo(2L * RANKS * ITERATIONS);
    assertThat(e.messages()).isEqualTo(l.messages());
    assertThat(e.bytes()).isEqualTo(l.bytes());
    assertThat(e.mpiMessages()).isEqualTo(l.mpiMessages());
    assertThat(e.latency().count()).isEqualTo(l.latency().count());
    assertThat(e.computePs()).isEqualTo(l.computePs()); // the trace's flops, not the network's doing
    assertThat(e.unknownSizes()).isEqualTo(l.unknownSizes());
    assertThat(e.coverage()).isEqualTo(l.coverage());
    for (Run run : List.of(loop, engine)) {
      assertThat(run.reportsOverlapped()).isFalse();
      assertThat(run.progress()).hasSizeBetween(50, 110);
      for (int i = 1; i < run.progress().size(); i++) {
        assertThat(run.progress().get(i)[0]).isGreaterThan(run.progress().get(i - 1)[0]);
        assertThat(run.progress().get(i)[1]).isGreaterThanOrEqualTo(run.progress().get(i - 1)[1]);
      }
      assertThat(run.progress().get(run.progress().size() - 1)[0]).isGreaterThan(0.98);
    }
  }
}
