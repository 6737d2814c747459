package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.AriesSystem;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Several PEs a node ({@code pesPerNode}): block placement, each PE its own process, queue, registrations and FMA
 * descriptor on the node's shared NIC, the NIC's events handed to the PE that posted, and barriers in software and on
 * the collective engine.
 */
@SuppressWarnings("unchecked")
class ShmemPesPerNodeTest {

  private static AriesSystem system() {
    return AriesSystem.builder().topology(Topologies.ariesSmall(), "small").seed(2).build();
  }

  @Test
  void pesFillANodeBeforeTheNextInTheOrderTheNodesWereGiven() {
    ShmemJob job = ShmemJob.builder(system()).nodes(9, 3).pesPerNode(4).build();
    assertThat(job.nPes()).isEqualTo(8);
    assertThat(job.pesPerNode()).isEqualTo(4);
    int[] nodes = new int[8];
    for (int i = 0; i < 8; i++) {
      nodes[i] = job.nodeOf(i);
    }
    assertThat(nodes).containsExactly(9, 9, 9, 9, 3, 3, 3, 3);
    ConcurrentHashMap<Integer, Integer> seen = new ConcurrentHashMap<>();
    job.run(pe -> seen.put(pe.myPe(), pe.node()));
    for (int i = 0; i < 8; i++) {
      assertThat(seen.get(i)).as("PE %s", i).isEqualTo(nodes[i]);
    }
  }

  @Test
  void eachPeOfANodeHasItsOwnRegistrationOfEveryObject() {
    ShmemJob job = ShmemJob.builder(system()).nodes(0, 1).pesPerNode(3).build();
    Symmetric s = job.allocate(64);
    int[] mdhs = new int[6];
    for (int i = 0; i < 6; i++) {
      mdhs[i] = s.mdh(i);
    }
    assertThat(Arrays.stream(mdhs, 0, 3).distinct().count()).isEqualTo(3);
    assertThat(Arrays.stream(mdhs, 3, 6).distinct().count()).isEqualTo(3);
  }

  @Test
  void badPesPerNodeIsRefusedInOneLine() {
    ShmemJob.Builder b = ShmemJob.builder(system());
    assertThatThrownBy(() -> b.pesPerNode(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pesPerNode must be in [1, 127] (one FMA descriptor a PE, 127 a NIC [S1 p.19]) but was 0");
    assertThatThrownBy(() -> b.pesPerNode(128)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pesPerNode must be in [1, 127] (one FMA descriptor a PE, 127 a NIC [S1 p.19]) but was 128");
  }

  /**
   * Puts, gets and atomics between PEs of one node and of two, with software barriers: every PE writes the next PE's
   * word and block, adds to PE 0's counter, and fetch-adds on PE 5's; each reads its neighbour's block back.
   */
  @Test
  void putsGetsAndAtomicsReachTheRightPeOnTheSameNodeAndAnother() {
    ShmemJob job = ShmemJob.builder(system()).nodes(4, 60).pesPerNode(4).build();
    Symmetric word = job.allocate(8);
    Symmetric block = job.allocate(256);
    Symmetric counter = job.allocate(16);
    ConcurrentHashMap<Integer, String> out = new ConcurrentHashMap<>();
    job.run(pe -> {
      int me = pe.myPe();
      int n = pe.nPes();
      byte[] mine = new byte[256];
      Arrays.fill(mine, (byte) (me + 1));
      pe.localBytes(block, 0, mine);
      pe.barrierAll();
      pe.putLong(word, 0, 1000L + me, (me + 1) % n);
      pe.atomicAdd(counter, 0, 1L << me, 0);
      long old = pe.atomicFetchAdd(counter, 8, 1, 5);
      byte[] got = pe.get(block, 0, 256, (me + n - 1) % n);
      pe.barrierAll();
      out.put(me, pe.localLong(word, 0) + "/" + got[0] + "/" + got[255] + "/" + old + "/"
          + (me == 0 ? pe.localLong(counter, 0) : 0) + "/" + (me == 5 ? pe.localLong(counter, 8) : 0));
    });
    long[] olds = new long[8];
    for (int me = 0; me < 8; me++) {
      String[] f = out.get(me).split("/");
      int prev = (me + 7) % 8;
      assertThat(Long.parseLong(f[0])).as("PE %s's word", me).isEqualTo(1000L + prev);
      assertThat(Integer.parseInt(f[1])).as("PE %s's get", me).isEqualTo(prev + 1);
      assertThat(Integer.parseInt(f[2])).isEqualTo(prev + 1);
      olds[me] = Long.parseLong(f[3]);
    }
    assertThat(out.get(0)).endsWith("/255/0");
    assertThat(out.get(5)).endsWith("/0/8");
    // each fetch-add's old value went back to the PE that made it: eight different values, 0 to 7
    assertThat(Arrays.stream(olds).sorted().toArray()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    assertThat(job.faults()).isZero();
  }

  /** Each PE fetch-adds its own stride many times: a PE handed another's completion would see a foreign stride. */
  @Test
  void everyCompletionGoesToThePeThatPosted() {
    ShmemJob job = ShmemJob.builder(system()).nodes(2, 50).pesPerNode(6).build();
    Symmetric counters = job.allocate(8 * 12);
    ConcurrentHashMap<Integer, Boolean> ok = new ConcurrentHashMap<>();
    job.run(pe -> {
      int me = pe.myPe();
      boolean good = true;
      for (int i = 0; i < 20; i++) {
        // every PE of the node has atomics in flight at once; each old value is this PE's own count so far
        long old = pe.atomicFetchAdd(counters, 8L * me, 1, (me + 6) % 12);
        good &= old == i;
      }
      pe.quiet();
      ok.put(me, good);
    });
    assertThat(ok).hasSize(12).doesNotContainValue(false);
  }

  /**
   * The PEs of a node post through their own FMA descriptors: four PEs of 100 puts each take less simulated time than
   * one PE of 400 (the CPU cost of a post, 40 ns, is each PE's own; until stop 70 the NIC booked all on one CPU).
   */
  @Test
  void pesOfANodePostConcurrently() {
    long one = putBurst(1, 400);
    long four = putBurst(4, 100);
    assertThat(four).isLessThan(one / 2);
  }

  private static long putBurst(int pesPerNode, int puts) {
    ShmemJob job = ShmemJob.builder(system()).nodes(0, 30).pesPerNode(pesPerNode).build();
    Symmetric dest = job.allocate(8 * 512);
    job.run(pe -> {
      if (pe.node() == 0) {
        for (int i = 0; i < puts; i++) {
          pe.putLong(dest, 8L * (i % 512), i, pesPerNode + (pe.myPe() + i) % pesPerNode);
        }
        pe.quiet();
      }
    });
    return job.lastRunPs();
  }

  /** The ring of ShmemCollectiveEngineTest with four PEs a node: the engine's barrier orders as software's does. */
  @Test
  void aBarrierOnTheEngineWithSeveralPesANodeOrdersPutsAsSoftwareDoes() {
    int[] nodes = {0, 13, 40, 77};
    ConcurrentHashMap<Integer, Long> soft = ring(ShmemJob.builder(system()).nodes(nodes).pesPerNode(4).build(), 4);
    AriesSystem sys = system();
    ConcurrentHashMap<Integer, Long> ce = ring(ShmemJob.builder(sys).nodes(nodes).pesPerNode(4).collectiveEngine(2)
        .build(), 4);
    assertThat(ce).hasSize(16).isEqualTo(soft);
    assertThat(ce.get(0)).isEqualTo(4 * 1500L + 6); // from PE 15: 1500 + r, r = 0..3
    for (int node : nodes) {
      // the node's first PE alone posts: one contribution a barrier a node, not one a PE
      assertThat(sys.node(node).nic().statistics().collectivePosts()).as("node %s", node).isEqualTo(4);
      assertThat(sys.node(node).nic().statistics().collectiveFaults()).isZero();
    }
  }

  @Test
  void anEngineBarrierWaitsForEveryPeOfTheNode() {
    AriesSystem sys = system();
    ShmemJob job = ShmemJob.builder(sys).nodes(5, 6).pesPerNode(3).collectiveEngine(2).build();
    ConcurrentHashMap<Integer, Long> left = new ConcurrentHashMap<>();
    job.run(pe -> {
      if (pe.myPe() == 4) {
        pe.compute(50_000_000); // the second node's middle PE, 50 µs late
      }
      pe.barrierAll();
      left.put(pe.myPe(), pe.now());
    });
    for (int i = 0; i < 6; i++) {
      assertThat(left.get(i)).as("PE %s leaves", i).isGreaterThanOrEqualTo(50_000_000L);
    }
  }

  /** Several PEs a node on a partitioned engine: the same results and time as on one thread. */
  @Test
  void threadsChangeNothing() {
    long[] time = new long[2];
    ConcurrentHashMap<Integer, Long>[] seen = new ConcurrentHashMap[2];
    for (int t = 0; t < 2; t++) {
      AriesSystem.Builder b = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").seed(2);
      AriesSystem sys = t == 0 ? b.build() : b.threads(2).build();
      ShmemJob job = ShmemJob.builder(sys).nodes(0, 40, 77).pesPerNode(3).collectiveEngine(2).build();
      seen[t] = ring(job, 3);
      time[t] = job.lastRunPs();
    }
    assertThat(seen[1]).hasSize(9).isEqualTo(seen[0]);
    assertThat(time[1]).isEqualTo(time[0]);
  }

  private static ConcurrentHashMap<Integer, Long> ring(ShmemJob job, int rounds) {
    Symmetric word = job.allocate(8L * rounds);
    ConcurrentHashMap<Integer, Long> seen = new ConcurrentHashMap<>();
    job.run(pe -> {
      int n = pe.nPes();
      long sum = 0;
      for (int r = 0; r < rounds; r++) {
        if (pe.myPe() == (r * 5 + 1) % n) {
          pe.compute(20_000_000);
        }
        pe.putLong(word, 8L * r, pe.myPe() * 100L + r, (pe.myPe() + 1) % n);
        pe.barrierAll();
        sum += pe.localLong(word, 8L * r);
      }
      seen.put(pe.myPe(), sum);
    });
    return seen;
  }
}
