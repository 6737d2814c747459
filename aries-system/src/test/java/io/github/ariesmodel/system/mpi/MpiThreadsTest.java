package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.SystemStatistics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * An MPI job on the partitioned engine ({@link AriesSystem.Builder#threads(int)}): ranks in several dragonfly groups
 * exchange point-to-point messages of every protocol, split and dup communicators and run collectives, and every
 * observable (data, completion times, clocks, event counts, statistics, the job's counters) is the same for 1, 2 and
 * 3 threads. Also the context ids that ranks now derive alone at split and dup.
 */
class MpiThreadsTest {

  /** Short, eager and rendezvous sizes under the default settings (1,024 and 8,192 bytes). */
  private static final int[] SIZES = {0, 100, 3000, 40_000};
  private static final int COUNT = 1000;

  /** What one configuration's two runs showed: each rank's data and times, and the system's and job's counters. */
  private record Outcome(List<List<Long>> data, List<List<Long>> times, long now, long events,
      SystemStatistics statistics, List<Long> jobCounters, List<Long> runPs) {}

  private static byte[] pattern(int seed, int len) {
    byte[] b = new byte[len];
    for (int i = 0; i < len; i++) {
      b[i] = (byte) (seed * 31 + i * 7 + (i >> 9));
    }
    return b;
  }

  /** The k-th node (in id order) of a dragonfly group. */
  private static int nodeInGroup(AriesSystem sys, int group, int k) {
    for (int n = 0, seen = 0; n < sys.nodeCount(); n++) {
      if (sys.groupOfNode(n) == group && seen++ == k) {
        return n;
      }
    }
    throw new IllegalArgumentException("group " + group + " has no node " + k);
  }

  /**
   * Seven ranks over five of the nine groups of a canonical dragonfly: two in group 0 sharing a node (the on-node
   * path), two on different nodes of group 1, the others alone in their groups.
   */
  private static int[] placement(AriesSystem sys) {
    return new int[] {nodeInGroup(sys, 0, 0), nodeInGroup(sys, 1, 3), nodeInGroup(sys, 2, 5),
        nodeInGroup(sys, 3, 1), nodeInGroup(sys, 0, 0), nodeInGroup(sys, 4, 6), nodeInGroup(sys, 1, 2)};
  }

  /** @param threads 0 for the single event loop, else the engine's thread count */
  private static Outcome run(int threads) {
    AriesSystem.Builder b = AriesSystem.builder().system("canonical:p=2,a=4,h=2").seed(17);
    if (threads > 0) {
      b.threads(threads);
    }
    AriesSystem sys = b.build();
    assertThat(sys.engine().isPresent()).isEqualTo(threads > 0);
    assertThat(sys.threads()).isEqualTo(Math.max(1, threads));
    MpiJob job = MpiJob.builder(sys).placement(placement(sys)).build();
    int n = job.size();
    List<List<Long>> data = new ArrayList<>();
    List<List<Long>> times = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      data.add(new ArrayList<>());
      times.add(new ArrayList<>());
    }
    List<Long> runPs = new ArrayList<>();
    for (int round = 0; round < 2; round++) {
      // each rank's process touches only its own lists (ranks of different groups run at once)
      job.run(mpi -> program(mpi, data.get(mpi.rank()), times.get(mpi.rank())));
      runPs.add(job.lastRunPs());
    }
    List<Long> counters = new ArrayList<>();
    for (Protocol p : Protocol.values()) {
      counters.add(job.messages(p));
    }
    counters.addAll(List.of(job.messages(), job.bytesSent(), job.unexpectedMessages()));
    return new Outcome(data, times, sys.now(), sys.eventsExecuted(), sys.statistics(), counters, runPs);
  }

  /** Checks what it receives against the reference as it goes, and records it, with the times it saw. */
  private static void program(Mpi mpi, List<Long> data, List<Long> times) {
    Communicator w = mpi.world();
    int r = mpi.rank();
    int n = mpi.size();
    // a ring of every protocol, across groups (and once on the node shared by ranks 0 and 4)
    for (int k = 0; k < SIZES.length; k++) {
      byte[] in = new byte[SIZES[k]];
      Request rr = mpi.irecv(in, 0, in.length, (r + n - 1) % n, k, w);
      Request sr = mpi.isend(pattern(r + k, SIZES[k]), 0, SIZES[k], (r + 1) % n, k, w);
      mpi.waitall(rr, sr);
      assertThat(in).isEqualTo(pattern((r + n - 1) % n + k, SIZES[k]));
      data.add((long) Arrays.hashCode(in));
      times.addAll(List.of(rr.completedAtPs(), sr.completedAtPs()));
    }
    // a split (odd and even ranks, reversed by key) and a collective on it
    Communicator half = mpi.split(w, r % 2, -r);
    long[] mine = new long[COUNT];
    for (int i = 0; i < COUNT; i++) {
      mine[i] = r * 1_000_003L + i;
    }
    long[] sum = new long[COUNT];
    mpi.allreduce(mine, sum, ReduceOp.SUM, half);
    long ranksSum = 0;
    for (int i = 0; i < half.size(); i++) {
      ranksSum += half.worldRank(i);
    }
    assertThat(sum[COUNT - 1]).isEqualTo(ranksSum * 1_000_003L + (long) half.size() * (COUNT - 1));
    data.addAll(List.of((long) half.rank(), (long) half.size(), (long) Arrays.hashCode(sum)));
    byte[] big = half.rank() == 0 ? pattern(99, 20_000) : new byte[20_000];
    mpi.bcast(big, 0, big.length, 0, half);
    assertThat(big).isEqualTo(pattern(99, 20_000));
    times.add(mpi.now());
    // an alltoall over the world: every pair of ranks, eager-sized blocks
    int blk = 1500;
    byte[] send = new byte[blk * n];
    for (int d = 0; d < n; d++) {
      System.arraycopy(pattern(r * n + d, blk), 0, send, d * blk, blk);
    }
    byte[] got = new byte[blk * n];
    mpi.alltoall(send, got, w);
    for (int s = 0; s < n; s++) {
      assertThat(Arrays.copyOfRange(got, s * blk, (s + 1) * blk)).isEqualTo(pattern(s * n + r, blk));
    }
    data.add((long) Arrays.hashCode(got));
    times.add(mpi.now());
    // a dup: its messages stay apart from the world's even for a wildcard receive posted first
    Communicator copy = mpi.dup(w);
    byte[] one = new byte[1];
    byte[] other = new byte[1];
    Request onWorld = mpi.irecv(one, 0, 1, Mpi.ANY_SOURCE, Mpi.ANY_TAG, w);
    Request onCopy = mpi.irecv(other, 0, 1, Mpi.ANY_SOURCE, Mpi.ANY_TAG, copy);
    mpi.send(new byte[] {(byte) (r + 1)}, 0, 1, (r + 3) % n, 5, copy);
    mpi.send(new byte[] {(byte) (r + 101)}, 0, 1, (r + 3) % n, 6, w);
    MpiStatus sc = mpi.wait(onCopy);
    MpiStatus sw = mpi.wait(onWorld);
    int from = (r - 3 + n) % n;
    assertThat(sc).isEqualTo(new MpiStatus(from, 5, 1));
    assertThat(sw).isEqualTo(new MpiStatus(from, 6, 1));
    assertThat(other[0]).isEqualTo((byte) (from + 1));
    assertThat(one[0]).isEqualTo((byte) (from + 101));
    times.addAll(List.of(onCopy.completedAtPs(), onWorld.completedAtPs(), mpi.now()));
  }

  @Test
  void aJobGivesTheSameResultsOnOneTwoAndThreeThreads() {
    Outcome one = run(1);
    Outcome two = run(2);
    Outcome three = run(3);
    assertThat(two).isEqualTo(one);
    assertThat(three).isEqualTo(one);

    // not vacuous: ranks in five groups, packets through the fabric, every protocol used
    AriesSystem probe = AriesSystem.builder().system("canonical:p=2,a=4,h=2").build();
    Set<Integer> groups = new HashSet<>();
    for (int node : placement(probe)) {
      groups.add(probe.groupOfNode(node));
    }
    assertThat(groups).hasSize(5);
    assertThat(one.statistics().fabric().delivered()).isPositive();
    assertThat(one.statistics().nics().packetsReceived()).isEqualTo(one.statistics().fabric().delivered());
    for (Protocol p : List.of(Protocol.SHORT, Protocol.EAGER, Protocol.RENDEZVOUS, Protocol.SHARED_MEMORY)) {
      assertThat(one.jobCounters().get(p.ordinal())).as("%s messages", p).isPositive();
    }
    assertThat(one.runPs()).allSatisfy(ps -> assertThat(ps).isPositive());
  }

  @Test
  void theEngineMovesTheSameDataAsTheSingleLoop() {
    // Times may differ between the loop and the engine (their tie-breaking differs); what arrives may not.
    assertThat(run(2).data()).isEqualTo(run(0).data());
  }

  @Test
  void contextIdsOfDifferentCreationPathsNeverCollide() {
    Communicator world = new Communicator(0, new int[] {0}, 0);
    Set<Long> ids = new HashSet<>();
    ids.add(world.context());
    ids.add(world.collectiveContext());
    List<Communicator> level = List.of(world);
    for (int depth = 0; depth < 4; depth++) {
      List<Communicator> next = new ArrayList<>();
      for (Communicator parent : level) {
        for (int creation : new int[] {0, 1, 2, 3, 6, 7, 100}) {
          Communicator c = new Communicator(parent.childContext(creation), new int[] {0}, 0);
          assertThat(c.context()).isEven().isPositive();
          assertThat(ids.add(c.context())).as("context of %s", c).isTrue();
          assertThat(ids.add(c.collectiveContext())).as("collective context of %s", c).isTrue();
          next.add(c);
        }
      }
      level = next;
    }
    assertThat(ids).hasSize(2 * (1 + 7 + 49 + 343 + 2401));
    assertThat(world.childContext(0)).isEqualTo(2); // as the job-wide counter gave the first one
  }

  @Test
  void contextIdsRunOutLoudlyRatherThanCollide() {
    Communicator c = new Communicator(0, new int[] {0}, 0);
    for (int depth = 0; depth < Communicator.MAX_PATH_BITS; depth++) {
      c = new Communicator(c.childContext(0), new int[] {0}, 0);
    }
    assertThat(c.collectiveContext()).isPositive();
    Communicator deepest = c;
    assertThatThrownBy(() -> deepest.childContext(0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("context ids exhausted");
    Communicator world = new Communicator(0, new int[] {0}, 0);
    assertThat(world.childContext(Integer.MAX_VALUE - 1)).isPositive();
    assertThatThrownBy(() -> world.childContext(Integer.MAX_VALUE)).isInstanceOf(IllegalStateException.class);
  }
}
