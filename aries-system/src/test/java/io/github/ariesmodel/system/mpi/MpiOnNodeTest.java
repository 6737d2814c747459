package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.cache.HostCacheConfig;
import io.github.ariesmodel.core.spi.HostCacheStatistic;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.SystemPreset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Cray MPICH's on-node path (shared memory, single copy) against the NIC path: the same MPI semantics on both, no NIC
 * traffic between ranks of one node, and polls and copies timed through the node's host cache.
 */
class MpiOnNodeTest {

  private static final int[] SIZES = {0, 1, 8, 1024, 1025, 4000, 8191, 8192, 8193, 65_536, 300_001};
  /** Every protocol of both paths, kept small for the runs that compare them. */
  private static final int[] MIXED = {0, 8, 1025, 8192, 20_000};

  private static byte[] pattern(int seed, int len) {
    byte[] b = new byte[len];
    for (int i = 0; i < len; i++) {
      b[i] = (byte) (seed * 37 + i * 13 + (i >> 8));
    }
    return b;
  }

  private static AriesSystem system(long seed) {
    return MpiTesting.smallSystem(seed);
  }

  @Test
  void onNodeMessagesOfEveryLengthArriveByteExactlyWithoutTheNic() {
    AriesSystem sys = system(1);
    MpiJob job = MpiJob.builder(sys).placement(7, 7).build();
    List<byte[]> got = new ArrayList<>();
    job.run(mpi -> {
      for (int k = 0; k < SIZES.length; k++) {
        if (mpi.rank() == 0) {
          mpi.send(pattern(k, SIZES[k]), 1, k);
        } else {
          byte[] b = new byte[SIZES[k]];
          assertThat(mpi.recv(b, 0, k)).isEqualTo(new MpiStatus(0, k, SIZES[k]));
          got.add(b);
        }
      }
    });
    for (int k = 0; k < SIZES.length; k++) {
      assertThat(got.get(k)).as("message of %s bytes", SIZES[k]).isEqualTo(pattern(k, SIZES[k]));
    }
    // below 8,192 bytes (MPICH_SMP_SINGLE_COPY_SIZE) buffered, from it a single copy; plus the finalize barrier's
    // three messages (MPICH's SMP-aware barrier on one node: two zero-byte messages, then a one-byte bcast)
    assertThat(job.messages(Protocol.SHARED_MEMORY)).isEqualTo(7 + 3);
    assertThat(job.messages(Protocol.SINGLE_COPY)).isEqualTo(4);
    assertThat(job.messages(Protocol.SHORT) + job.messages(Protocol.EAGER) + job.messages(Protocol.RENDEZVOUS))
        .isZero();
    assertThat(sys.node(7).nicStatistics().posts()).isZero();
    // and the finalize barrier's one-byte bcast
    assertThat(job.bytesSent()).isEqualTo(Arrays.stream(SIZES).asLongStream().sum() + 1);
    // the receiver's polls and copies went through the node's cache and found the sender's lines there
    assertThat(sys.node(7).hostCache().count(HostCacheStatistic.CPU_LOAD_HIT)).isPositive();
  }

  @Test
  void singleCopiesCanBeTurnedOffAsMpichSmpSingleCopyOffDoes() {
    MpiJob job = MpiJob.builder(system(1)).placement(7, 7)
        .config(MpiConfig.builder().singleCopyBytes(Integer.MAX_VALUE).build()).build();
    byte[] got = new byte[65_536];
    job.run(mpi -> {
      if (mpi.rank() == 0) {
        mpi.send(pattern(3, 65_536), 1, 0);
      } else {
        mpi.recv(got, 0, 0);
      }
    });
    assertThat(got).isEqualTo(pattern(3, 65_536));
    assertThat(job.messages(Protocol.SINGLE_COPY)).isZero();
    assertThat(job.messages(Protocol.SHARED_MEMORY)).isEqualTo(1 + 3);
  }

  /** What one receive got: its status and data. */
  private record Got(MpiStatus status, byte[] data) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Got g && g.status.equals(status) && Arrays.equals(g.data, data);
    }

    @Override
    public int hashCode() {
      return status.hashCode() * 31 + Arrays.hashCode(data);
    }
  }

  /**
   * Ranks 0 and 1 share node 4, rank 2 is on node 9: rank 1 receives everything with wildcards, posted before the
   * messages arrive (so they match in post order) and after (so they match in arrival order among the accepted).
   */
  private static List<Got> mixedWildcardRun(MpiConfig config, long seed, boolean postFirst) {
    MpiJob job = MpiJob.builder(system(seed)).placement(4, 4, 9).config(config).build();
    int perSender = MIXED.length;
    List<Got> got = new ArrayList<>();
    job.run(mpi -> {
      if (mpi.rank() == 1) {
        List<Request> rs = new ArrayList<>();
        List<byte[]> bufs = new ArrayList<>();
        if (!postFirst) {
          mpi.compute(2_000_000_000L); // 2 ms: everything has arrived and waits as unexpected
        }
        for (int i = 0; i < 2 * perSender; i++) {
          byte[] b = new byte[20_000];
          bufs.add(b);
          rs.add(mpi.irecv(b, 0, b.length, Mpi.ANY_SOURCE, Mpi.ANY_TAG, mpi.world()));
        }
        mpi.waitall(rs.toArray(new Request[0]));
        for (int i = 0; i < rs.size(); i++) {
          MpiStatus s = rs.get(i).status();
          got.add(new Got(s, Arrays.copyOf(bufs.get(i), s.count())));
        }
      } else {
        List<Request> ss = new ArrayList<>();
        for (int i = 0; i < perSender; i++) {
          int k = i % MIXED.length;
          ss.add(mpi.isend(pattern(mpi.rank() * 100 + i, MIXED[k]), 0, MIXED[k], 1, i, mpi.world()));
        }
        mpi.waitall(ss.toArray(new Request[0]));
      }
    });
    return got;
  }

  @Test
  void anySourceReceivesTakeOnNodeAndOffNodeMessagesEachSenderInSendOrder() {
    for (boolean postFirst : new boolean[] {true, false}) {
      List<Got> got = mixedWildcardRun(MpiConfig.defaults(), 3, postFirst);
      int perSender = MIXED.length;
      assertThat(got).hasSize(2 * perSender);
      int[] next = new int[3];
      for (Got g : got) {
        int src = g.status().source();
        assertThat(src).isIn(0, 2);
        // non-overtaking: a sender's messages (tags 0, 1, 2...) come in send order, whichever path they took
        assertThat(g.status().tag()).as("from rank %s, posted first %s", src, postFirst).isEqualTo(next[src]);
        int k = next[src] % MIXED.length;
        assertThat(g.data()).isEqualTo(pattern(src * 100 + next[src], MIXED[k]));
        next[src]++;
      }
      assertThat(next[0]).isEqualTo(perSender);
      assertThat(next[2]).isEqualTo(perSender);
    }
  }

  @Test
  void theSharedMemoryPathKeepsTheNicPathsSemantics() {
    // The same program with the on-node path on and off: every receive gets a message of an accepted source and
    // tag, each sender's in send order, exactly once; only the interleaving of the two senders may differ.
    for (boolean postFirst : new boolean[] {true, false}) {
      List<Got> shm = mixedWildcardRun(MpiConfig.defaults(), 5, postFirst);
      List<Got> nic = mixedWildcardRun(MpiConfig.builder().sharedMemory(false).build(), 5, postFirst);
      for (int src : new int[] {0, 2}) {
        assertThat(shm.stream().filter(g -> g.status().source() == src).toList())
            .as("rank %s's messages, posted first %s", src, postFirst)
            .containsExactlyElementsOf(nic.stream().filter(g -> g.status().source() == src).toList());
      }
    }
  }

  @Test
  void theOnNodePathIsDeterministic() {
    assertThat(mixedWildcardRun(MpiConfig.defaults(), 8, false))
        .containsExactlyElementsOf(mixedWildcardRun(MpiConfig.defaults(), 8, false));
    long[] t = new long[2];
    for (int i = 0; i < 2; i++) {
      MpiJob job = MpiJob.builder(system(8)).placement(4, 4, 9).build();
      job.run(mpi -> {
        long[] sum = new long[1];
        mpi.allreduce(new long[] {mpi.rank()}, sum, ReduceOp.SUM, mpi.world());
        assertThat(sum[0]).isEqualTo(3);
      });
      t[i] = job.lastRunPs();
    }
    assertThat(t[0]).isEqualTo(t[1]).isPositive();
  }

  @Test
  void manyUnexpectedOnNodeMessagesFlowOnCreditsReturnedThroughTheDoorbell() {
    // far more messages than a pair has mailbox slots (8): the receiver's credits come back by on-node stores
    int n = 100;
    MpiJob job = MpiJob.builder(system(2)).placement(11, 11).build();
    int[] tags = new int[n];
    job.run(mpi -> {
      if (mpi.rank() == 0) {
        for (int i = 0; i < n; i++) {
          mpi.send(pattern(i, 8), 0, 8, 1, i, mpi.world());
        }
      } else {
        mpi.compute(1_000_000_000L);
        for (int i = 0; i < n; i++) {
          byte[] b = new byte[8];
          tags[i] = mpi.recv(b, 0, 8, 0, Mpi.ANY_TAG, mpi.world()).tag();
          assertThat(b).isEqualTo(pattern(i, 8));
        }
      }
    });
    for (int i = 0; i < n; i++) {
      assertThat(tags[i]).isEqualTo(i);
    }
    assertThat(job.unexpectedMessages()).isPositive();
  }

  @Test
  void unexpectedBufferedMessagesGiveTheSendersBuffersBack() {
    // Both ranks send more than their internal buffers hold before either posts a receive: each receiver copies
    // the unexpected messages out of shared memory (as Nemesis does) so that the senders' buffers come back.
    int n = 40;
    int size = 4000;
    MpiConfig small = MpiConfig.builder().heapBytes(64 << 10).build();
    MpiJob job = MpiJob.builder(system(4)).placement(3, 3).config(small).build();
    job.run(mpi -> {
      int peer = 1 - mpi.rank();
      List<Request> sends = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        sends.add(mpi.isend(pattern(mpi.rank() * 1000 + i, size), 0, size, peer, i, mpi.world()));
      }
      for (int i = 0; i < n; i++) {
        byte[] b = new byte[size];
        mpi.recv(b, 0, size, peer, i, mpi.world());
        assertThat(b).isEqualTo(pattern(peer * 1000 + i, size));
      }
      mpi.waitall(sends.toArray(new Request[0]));
    });
    assertThat(job.messages(Protocol.SHARED_MEMORY)).isEqualTo(2L * n + 3);
    assertThat(job.unexpectedMessages()).isPositive();
  }

  private static double eightByteLatency(HostCacheConfig cache, int a, int b) {
    AriesSystem.Builder builder = AriesSystem.builder().preset(SystemPreset.DEFAULT).seed(1);
    AriesSystem sys = (cache == null ? builder.noHostCache() : builder.hostCache(cache)).build();
    return OsuBenchmarks.latency(sys, a, b, new long[] {8}, 16, 4, MpiConfig.defaults()).get(0).latencyNs();
  }

  @Test
  void pollsOfLinesTheNicWroteHitUnderUpdateAndMissUnderInvalidate() {
    HostCacheConfig update = HostCacheConfig.parse("policy=update");
    HostCacheConfig invalidate = HostCacheConfig.parse("policy=invalidate");
    double none = eightByteLatency(null, 0, 1);
    double hits = eightByteLatency(update, 0, 1);
    double misses = eightByteLatency(invalidate, 0, 1);
    // the mailbox header, its data and the CQ entry: hits (17.4 ns) when the NIC updated them in place, misses (82 ns)
    // when its writes dropped the lines; no cache costs nothing
    assertThat(none).isLessThan(hits);
    assertThat(hits).isLessThan(misses);
    // on one node the writer is the sender's CPU, not the NIC: the NIC write policy changes nothing
    assertThat(eightByteLatency(update, 6, 6)).isEqualTo(eightByteLatency(invalidate, 6, 6));
  }

  @Test
  void singleCopyBytesNamesItsRange() {
    assertThatThrownBy(() -> MpiConfig.builder().singleCopyBytes(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("singleCopyBytes must be in [1, 2^31 - 1] but was 0");
  }
}
