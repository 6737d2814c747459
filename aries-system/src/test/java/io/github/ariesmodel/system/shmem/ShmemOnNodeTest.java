package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.cache.HostCacheConfig;
import io.github.ariesmodel.iommu.Iommu;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.nic.NicStatistics;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.mpi.MpiConfig;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Puts and gets between two PEs of one node as CPU copies through shared memory (Cray OpenSHMEMX's XPMEM path on XC,
 * {@link ShmemJob.Builder#sharedMemory(boolean)}, since stop 71): the values arrive, the NIC sees none of it, the time
 * is the copy's, a waiting PE wakes, fence and quiet order them, atomics stay on the NIC, the switch restores the NIC
 * loopback, and one PE a node is as before.
 */
class ShmemOnNodeTest {

  /** The on-node copy rate the job takes by default: the MPI layer's. */
  private static final double RATE = MpiConfig.defaults().memcpyBytesPerSecond();

  private static AriesSystem cached() {
    return AriesSystem.builder().topology(Topologies.ariesSmall(), "small").hostCache(HostCacheConfig.xc40()).seed(3)
        .build();
  }

  private static long copyPs(long bytes) {
    return (long) Math.ceil(bytes * 1e12 / RATE);
  }

  @Test
  void theJobCopiesOnNodeByDefaultAtTheMpiLayersCopyRate() {
    ShmemJob job = ShmemJob.builder(cached()).nodes(0, 9).pesPerNode(2).build();
    assertThat(job.sharedMemory()).isTrue();
    assertThat(job.memcpyBytesPerSecond()).isEqualTo(16e9);
  }

  /**
   * Four PEs on each of two nodes. First run: each PE puts an array byte, a word and a 4 KiB block into its node's next
   * PE. Second run: each gets its node's previous PE's block back (blocking) and the byte that PE received (not
   * blocking), then adds 1 to its node's first PE's counter. Nothing but the atomics is posted.
   */
  @Test
  void onNodePutsAndGetsArriveWithoutANicPostAndAtomicsStayOnTheNic() {
    AriesSystem sys = cached();
    ShmemJob job = ShmemJob.builder(sys).nodes(4, 60).pesPerNode(4).build();
    Symmetric block = job.allocate(4096);
    Symmetric word = job.allocate(8);
    Symmetric got = job.allocate(8192);
    Symmetric counter = job.allocate(8);
    long posts4 = sys.node(4).nic().statistics().posts();
    long posts60 = sys.node(60).nic().statistics().posts();
    job.run(pe -> {
      int me = pe.myPe();
      int next = me / 4 * 4 + (me + 1) % 4;
      byte[] mine = new byte[4096];
      Arrays.fill(mine, (byte) (me + 1));
      pe.localBytes(block, 0, mine);
      pe.put(got, 4096, new byte[] {(byte) (50 + me)}, next); // an array put: no staging buffer on one node
      pe.putLong(word, 0, 1000L + me, next);
      pe.putmem(got, 0, block, 0, 4096, next);
      pe.quiet();
    });
    assertThat(sys.node(4).nic().statistics().posts()).as("node 4's posts of the puts").isEqualTo(posts4);
    assertThat(sys.node(60).nic().statistics().posts()).as("node 60's").isEqualTo(posts60);
    assertThat(job.onNodeCopies()).isEqualTo(8 * 3);

    ConcurrentHashMap<Integer, byte[]> gets = new ConcurrentHashMap<>();
    ConcurrentHashMap<Integer, Long> words = new ConcurrentHashMap<>();
    job.run(pe -> {
      int me = pe.myPe();
      int first = me / 4 * 4;
      int prev = first + (me + 3) % 4;
      pe.getmem(got, 4096 + 64, block, 0, 4096 - 64, prev);
      pe.getmemNbi(got, 8191, got, 4096, 1, prev);
      pe.quiet();
      gets.put(me, pe.localBytes(got, 4096 + 64, 4096 - 64));
      words.put(me, pe.localLong(word, 0));
      pe.atomicAdd(counter, 0, 1, first); // an atomic to a PE of the node (or to itself): through the NIC
      pe.quiet();
    });
    // every PE's atomic, and nothing else
    assertThat(sys.node(4).nic().statistics().posts() - posts4).isEqualTo(4);
    assertThat(sys.node(60).nic().statistics().posts() - posts60).isEqualTo(4);
    assertThat(job.onNodeCopies()).isEqualTo(8 * 3 + 8 * 2);
    for (int me = 0; me < 8; me++) {
      int first = me / 4 * 4;
      int prev = first + (me + 3) % 4;
      int prevPrev = first + (me + 2) % 4;
      byte[] g = gets.get(me);
      assertThat(g[0]).as("PE %s's get of PE %s's block", me, prev).isEqualTo((byte) (prev + 1));
      assertThat(g[4096 - 64 - 2]).isEqualTo((byte) (prev + 1));
      // the last byte: PE prev's got[4096], the array put of PE prev's own previous PE
      assertThat(g[4096 - 64 - 1]).as("PE %s's non-blocking get", me).isEqualTo((byte) (50 + prevPrev));
      assertThat(words.get(me)).as("PE %s's word", me).isEqualTo(1000L + prev);
    }
    long[] counters = new long[2];
    job.run(pe -> {
      if (pe.myPe() % 4 == 0) {
        counters[pe.myPe() / 4] = pe.localLong(counter, 0);
      }
    });
    assertThat(counters).containsExactly(4, 4);
    assertThat(job.faults()).isZero();
  }

  /**
   * A 4 KiB put into a block the target never touched: its bytes at the copy rate, then a memory access (the source
   * lines hit, the PE wrote them; the target's miss), and nothing else.
   */
  @Test
  void anOnNodePutTakesItsCopysTime() {
    ShmemJob job = ShmemJob.builder(cached()).nodes(0, 9).pesPerNode(2).build();
    Symmetric src = job.allocate(4096);
    Symmetric dest = job.allocate(4096);
    long[] took = new long[2];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.localBytes(src, 0, new byte[4096]);
        long t0 = pe.now();
        pe.putmem(dest, 0, src, 0, 4096, 1);
        took[0] = pe.now() - t0;
        t0 = pe.now();
        pe.putmem(dest, 0, src, 0, 4096, 1); // now every line hits
        took[1] = pe.now() - t0;
      }
    });
    assertThat(took[0]).isEqualTo(copyPs(4096) + HostCacheConfig.DEFAULT_MEMORY_PS);
    assertThat(took[1]).isEqualTo(copyPs(4096) + HostCacheConfig.DEFAULT_HIT_PS);
  }

  /**
   * PE 1 waits on a word of its own that PE 0, of its node, sets with {@code putLong} 10 µs in: it wakes when the store
   * is made (no NIC write, no other event could wake it) and leaves after its poll's load, a hit.
   */
  @Test
  void aPeWaitingOnAWordWakesWhenAPeOfItsNodeStoresIt() {
    AriesSystem sys = cached();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).pesPerNode(2).build();
    Symmetric flag = job.allocate(8);
    long[] t = new long[3];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.compute(10_000_000);
        t[0] = pe.now();
        pe.putLong(flag, 0, 7, 1);
        t[1] = pe.now();
      } else if (pe.myPe() == 1) {
        pe.waitUntil(flag, 0, v -> v == 7);
        t[2] = pe.now();
      }
    });
    long stored = t[0] + copyPs(8);
    // the store hits: PE 1's first poll brought the line in
    assertThat(t[1]).isEqualTo(stored + HostCacheConfig.DEFAULT_HIT_PS);
    assertThat(t[2]).isEqualTo(stored + HostCacheConfig.DEFAULT_HIT_PS);
    assertThat(sys.node(0).nic().statistics().posts()).isZero();
  }

  /**
   * The message-then-flag idiom on one node, with a fence and with a quiet between: the reader that sees the flag sees
   * the whole message, and a reader that also gets from the writer finds its source unchanged.
   */
  @Test
  void aFencedOrQuietedFlagFollowsItsMessage() {
    for (boolean fence : new boolean[] {true, false}) {
      AriesSystem sys = cached();
      ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).pesPerNode(3).build();
      Symmetric msg = job.allocate(64 * 1024);
      Symmetric flag = job.allocate(8);
      boolean[] whole = new boolean[2];
      job.run(pe -> {
        if (pe.myPe() == 0) {
          byte[] m = new byte[64 * 1024];
          Arrays.fill(m, (byte) 9);
          pe.localBytes(msg, 0, m);
          for (int to = 1; to <= 2; to++) {
            pe.putmem(msg, 0, msg, 0, m.length, to);
            if (fence) {
              pe.fence();
            } else {
              pe.quiet();
            }
            pe.putLong(flag, 0, 1, to);
          }
        } else if (pe.myPe() <= 2) {
          pe.waitUntil(flag, 0, v -> v == 1);
          byte[] m = pe.localBytes(msg, 0, 64 * 1024);
          whole[pe.myPe() - 1] = m[0] == 9 && m[m.length - 1] == 9;
        }
      });
      assertThat(whole).as(fence ? "fence" : "quiet").containsExactly(true, true);
      assertThat(sys.node(0).nic().statistics().posts()).isZero();
    }
  }

  /** {@code sharedMemory(false)}: every on-node put and get is posted, as a loopback through the NIC, before stop 71. */
  @Test
  void sharedMemoryOffSendsOnNodeTransfersThroughTheNic() {
    AriesSystem sys = cached();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).pesPerNode(2).sharedMemory(false).build();
    assertThat(job.sharedMemory()).isFalse();
    Symmetric buf = job.allocate(4096);
    long[] seen = new long[1];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.putmem(buf, 0, buf, 0, 4096, 1);
        pe.fence(); // on the NIC the word could land before the block's first line, which holds it too
        pe.putLong(buf, 0, 42, 1);
        pe.quiet();
        seen[0] = pe.atomicFetchAdd(buf, 0, 0, 1); // reads PE 1's word through the NIC
        pe.getmem(buf, 8, buf, 0, 8, 1);
      }
    });
    NicStatistics s = sys.node(0).nic().statistics();
    assertThat(s.posts()).isEqualTo(4);
    assertThat(s.hostBytesToNode()).as("the loopback's writes at the target: put data and word, AMO, GET data")
        .isGreaterThanOrEqualTo(4096 + 8 + 8);
    assertThat(seen[0]).isEqualTo(42);
    assertThat(job.onNodeCopies()).isZero();
  }

  /**
   * One PE a node: the switch changes nothing, not even a PE's transfers to itself (they stay on the NIC): the same
   * time, NIC posts and bytes.
   */
  @Test
  void onePeANodeIsTheSameEitherWay() {
    long[][] r = new long[2][];
    for (int k = 0; k < 2; k++) {
      AriesSystem sys = cached();
      ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).sharedMemory(k == 0).build();
      Symmetric buf = job.allocate(8192);
      job.run(pe -> {
        int me = pe.myPe();
        pe.putmem(buf, 0, buf, 4096, 4096, me); // to itself
        pe.putLong(buf, 0, me, 1 - me);
        pe.getmem(buf, 4096, buf, 0, 64, me);
        pe.barrierAll();
      });
      r[k] = new long[] {job.lastRunPs(), sys.node(0).nic().statistics().posts(),
          sys.node(0).nic().statistics().hostBytesToNode(), job.onNodeCopies()};
    }
    assertThat(r[0]).isEqualTo(r[1]);
    assertThat(r[0][3]).isZero();
  }

  @Test
  void badSettingsAreRefusedInOneLine() {
    ShmemJob.Builder b = ShmemJob.builder(cached());
    assertThatThrownBy(() -> b.memcpyBytesPerSecond(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("memcpyBytesPerSecond must be in [84000, 1e12] bytes/s or Infinity (no serialization time) but was"
            + " 0.0");
    assertThatThrownBy(() -> b.memcpyBytesPerSecond(Double.NaN)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("memcpyBytesPerSecond must be in [84000, 1e12]");
    ShmemJob.Builder events = ShmemJob.builder(cached()).nodes(0, 9).pesPerNode(4).remoteEvents(true);
    assertThatThrownBy(events::build).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ShmemJob remoteEvents(true) cannot be combined with pesPerNode(4) and sharedMemory(true): a put"
            + " between two PEs of one node is then a CPU copy, which writes no REMOTE event at its target; give"
            + " sharedMemory(false) to send on-node puts through the NIC, or one PE a node")
        .message().doesNotContain("\n");
    // either way out builds
    assertThat(events.sharedMemory(false).build().remoteEvents()).isTrue();
    assertThat(ShmemJob.builder(cached()).nodes(0, 9).remoteEvents(true).build().sharedMemory()).isTrue();
  }

  /**
   * A fault at the target of an on-node copy is an error completion, as on the NIC path ({@link Shmem}: it touches no
   * memory, the job counts it, {@code lastStatus} reports it): a page of the target's object unmapped, a put over it
   * and the page before, and a get from it. Until the review of stop 71 the copy threw from the PE's program, naming
   * "its own" memory, after storing the pages before the fault.
   */
  @Test
  void aFaultAtAnOnNodeTargetIsCountedAndTouchesNothing() {
    AriesSystem sys = cached();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).pesPerNode(2).pageSize(PageSize.SIZE_4K).build();
    Symmetric obj = job.allocate(3 * 4096);
    Iommu iommu = (Iommu) sys.node(0).translation();
    iommu.unmapPage(obj.mdh(1), 4096);
    iommu.invalidateRange(obj.mdh(1), 4096, 4096);
    byte[] ones = new byte[8192];
    Arrays.fill(ones, (byte) 1);
    long[] took = new long[2];
    io.github.ariesmodel.core.Status[] status = new io.github.ariesmodel.core.Status[2];
    byte[][] seen = new byte[1][];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.localBytes(obj, 0, ones);
        long t0 = pe.now();
        pe.putmem(obj, 0, obj, 0, 8192, 1); // pages 0 and 1 of PE 1's object: page 1 faults
        took[0] = pe.now() - t0;
        status[0] = pe.lastStatus();
        t0 = pe.now();
        pe.getmem(obj, 0, obj, 4096, 64, 1); // from the unmapped page
        took[1] = pe.now() - t0;
        status[1] = pe.lastStatus();
      }
      pe.barrierAll();
      if (pe.myPe() == 1) {
        seen[0] = pe.localBytes(obj, 0, 4096);
      }
    });
    assertThat(status).containsOnly(io.github.ariesmodel.core.Status.TRANSLATION_FAULT);
    assertThat(took).containsOnly(0L);
    assertThat(job.faults()).isEqualTo(2);
    assertThat(job.firstFault()).isEqualTo(io.github.ariesmodel.core.Status.TRANSLATION_FAULT);
    assertThat(seen[0]).as("the page before the fault, untouched").containsOnly((byte) 0);
    assertThat(job.onNodeCopies()).isZero();
  }
}
