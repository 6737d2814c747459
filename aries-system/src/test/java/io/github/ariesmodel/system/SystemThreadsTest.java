package io.github.ariesmodel.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.sim.IdealFabric;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import io.github.ariesmodel.system.trace.PacketTrace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A system on the partitioned engine ({@link AriesSystem.Builder#threads}): same results for every thread count. */
class SystemThreadsTest {

  /** 9 groups of 4 routers with 2 nodes each: 72 nodes. */
  private static final String SYSTEM = "canonical:p=2,a=4,h=2";

  /** One PE in each group, and a second in group 0 (on the first PE's router). */
  private static final int[] NODES = {0, 8, 16, 24, 32, 40, 48, 56, 64, 1};

  @Test
  void aShmemJobAcrossGroupsGivesTheSameRunOnOneTwoAndThreeThreads() {
    String one = shmemRun(1);
    assertThat(shmemRun(2)).isEqualTo(one);
    assertThat(shmemRun(3)).isEqualTo(one);
  }

  @Test
  void theRunCrossesGroupsInManyWindows() {
    AriesSystem sys = AriesSystem.builder().system(SYSTEM).threads(3).build();
    Set<Integer> groups = new HashSet<>();
    for (int n : NODES) {
      groups.add(sys.groupOfNode(n));
    }
    assertThat(groups).hasSize(9);
    assertThat(sys.engine()).isPresent();
    assertThat(sys.threads()).isEqualTo(3);
    ShmemJob job = ShmemJob.builder(sys).nodes(NODES).build();
    Symmetric counter = job.allocate(8);
    job.run(pe -> {
      pe.atomicAdd(counter, 0, 1, 0);
      pe.barrierAll();
    });
    var fabric = sys.statistics().fabric();
    assertThat(fabric.delivered()).isGreaterThan(0);
    assertThat(fabric.packetHops()).isGreaterThan(fabric.delivered()); // routed between routers, not only locally
    assertThat(sys.node(0).nicStatistics().amosExecuted()).isGreaterThanOrEqualTo(NODES.length);
    assertThat(sys.engine().orElseThrow().windows()).isGreaterThan(1);
  }

  @Test
  void theEngineAndTheSingleLoopAgreeOnWhatTheProgramComputes() {
    // The order of same-picosecond events of different groups and the routing's random streams differ, so times may
    // differ; what the program computes (sums, bytes moved) may not.
    long[] loop = sums(AriesSystem.builder().system(SYSTEM).build());
    long[] engine = sums(AriesSystem.builder().system(SYSTEM).threads(2).build());
    assertThat(engine).containsExactly(loop);
  }

  @Test
  void aSystemOnTheEngineHasNoSingleLoopAndSaysWhatToUseInstead() {
    AriesSystem sys = AriesSystem.builder().system(SYSTEM).threads(2).build();
    assertThatThrownBy(sys::loop).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("partitioned engine").hasMessageContaining("scheduler(node)");
    assertThat(sys.scheduler(8)).isSameAs(sys.engine().orElseThrow().group(1));
    assertThat(sys.packetPools()).hasSize(9);
    assertThat(sys.packetPool()).isEmpty();
  }

  @Test
  void moreThreadsThanGroupsRunOneThreadPerGroup() {
    AriesSystem sys = AriesSystem.builder().system(SYSTEM).threads(64).build();
    assertThat(sys.threads()).isEqualTo(9);
  }

  @Test
  void componentsThatOnlyRunOnOneLoopAreRefusedWithThreadsInOneLine() {
    assertThatThrownBy(() -> AriesSystem.builder().system(SYSTEM).threads(2).fabric(FabricKind.IDEAL).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fabric(IDEAL) cannot be combined with threads(2): the ideal fabric runs on the single event loop;"
            + " threads need the router fabric");
    assertThatThrownBy(() -> AriesSystem.builder().system(SYSTEM).threads(2)
        .trace(new PacketTrace(10, PacketTrace.Filter.parse("all"))).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot be combined with threads(2)");
    assertThatThrownBy(() -> AriesSystem.builder().system(SYSTEM).threads(2)
        .fabric((topo, clock) -> new IdealFabric(clock, topo.nodeCount(), 0, Double.POSITIVE_INFINITY)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a user's fabric runs on the single");
    assertThatThrownBy(() -> AriesSystem.builder().threads(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("threads must be at least 1 but was 0");
  }

  /** A mixed SHMEM program on the engine; everything observable, as text. */
  private static String shmemRun(int threads) {
    AriesSystem sys = AriesSystem.builder().system(SYSTEM).seed(7).threads(threads).build();
    ShmemJob job = ShmemJob.builder(sys).nodes(NODES).build();
    Symmetric counter = job.allocate(8);
    Symmetric buf = job.allocate(16 * 1024);
    int n = NODES.length;
    List<List<Long>> olds = new ArrayList<>();
    long[][] stamps = new long[n][];
    byte[][] got = new byte[n][];
    for (int i = 0; i < n; i++) {
      olds.add(new ArrayList<>());
    }
    job.run(pe -> {
      int me = pe.myPe();
      SplittableRandom rnd = new SplittableRandom(me);
      byte[] data = new byte[500 + 700 * me];
      rnd.nextBytes(data);
      long t0 = pe.now();
      pe.put(buf, 0, data, (me + 1) % n);
      for (int k = 0; k < 5; k++) {
        olds.get(me).add(pe.atomicFetchAdd(counter, 0, 1, k % 3));
        pe.compute(rnd.nextInt(2000));
      }
      pe.quiet();
      long t1 = pe.now();
      pe.barrierAll();
      long t2 = pe.now();
      got[me] = pe.get(buf, 0, 500 + 700 * ((me + n - 1) % n), me);
      byte[] far = pe.get(buf, 0, 64, (me + 3) % n);
      long t3 = pe.now();
      pe.barrierAll();
      stamps[me] = new long[] {t0, t1, t2, t3, pe.now(), far[0]};
    });
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < n; i++) {
      s.append(i).append(olds.get(i)).append(Arrays.toString(stamps[i])).append(Arrays.hashCode(got[i])).append('\n');
    }
    s.append("now ").append(sys.now()).append(" events ").append(sys.eventsExecuted()).append(" lastRun ")
        .append(job.lastRunPs()).append(" faults ").append(job.faults()).append('\n');
    s.append(sys.statistics());
    assertThat(sys.eventsExecuted()).isPositive();
    return s.toString();
  }

  /** Sums and received bytes of a program whose results do not depend on timing. */
  private static long[] sums(AriesSystem sys) {
    ShmemJob job = ShmemJob.builder(sys).nodes(NODES).build();
    Symmetric counter = job.allocate(8);
    Symmetric buf = job.allocate(4096);
    long[] out = new long[NODES.length + 1];
    job.run(pe -> {
      int me = pe.myPe();
      byte[] data = new byte[1000];
      Arrays.fill(data, (byte) me);
      pe.put(buf, 0, data, (me + 1) % pe.nPes());
      pe.atomicAdd(counter, 0, me + 1, 0);
      pe.barrierAll();
      out[me] = Arrays.hashCode(pe.localBytes(buf, 0, 1000));
      if (me == 0) {
        out[NODES.length] = pe.localLong(counter, 0);
      }
    });
    assertThat(out[NODES.length]).isEqualTo((long) NODES.length * (NODES.length + 1) / 2);
    return out;
  }
}
