package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.ProcessRunner;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A rendezvous or single-copy message's buffers are the user's memory, not the internal heap ({@link
 * MpiConfig#heapBytes}): correct programs whose large messages in flight outgrow the heap complete with the right
 * data. Before, an isend waited for heap space its own receiver had to free (a "deadlock"), and a receiver whose GET
 * found the heap full failed with "internal buffers exhausted". The heap here is the least allowed, 64 KiB on 4 KB
 * pages, so that messages of a few tens of KiB show what 9 MiB messages showed with the default 16 MiB heap.
 */
class MpiUserBufferTest {

  /** The least heap, on 4 KB pages (on 2 MiB pages the registration's rounding would leave it about 2 MiB). */
  private static final MpiConfig SMALL_HEAP =
      MpiConfig.builder().heapBytes(64 << 10).pageSize(PageSize.SIZE_4K).build();
  /** Above the eager limit (8 KiB) and the single-copy threshold, so rendezvous off-node, single copy on a node. */
  private static final int LARGE = 40 << 10;

  static byte[] pattern(int seed, int len) {
    byte[] b = new byte[len];
    for (int i = 0; i < len; i++) {
      b[i] = (byte) (seed * 29 + i * 11 + (i >> 8));
    }
    return b;
  }

  private static AriesSystem system(long seed) {
    return AriesSystem.builder().topology(Topologies.ariesSmall(), "aries-small").seed(seed).build();
  }

  /** Two ranks: on two nodes of different groups' reach, or both on one node. */
  private static MpiJob pair(AriesSystem sys, boolean onNode) {
    MpiJob.Builder b = MpiJob.builder(sys).config(SMALL_HEAP);
    return (onNode ? b.placement(3, 3) : b.nodes(5, 70)).build();
  }

  @Test
  void isendsBeyondTheHeapReturnBeforeTheirReceivesArePosted() {
    for (boolean onNode : new boolean[] {false, true}) {
      MpiJob job = pair(system(1), onNode);
      int n = 4; // 160 KiB in flight from rank 0, received last first
      byte[][] got = new byte[n][];
      job.run(mpi -> {
        if (mpi.rank() == 0) {
          Request[] sends = new Request[n];
          for (int i = 0; i < n; i++) {
            sends[i] = mpi.isend(pattern(i, LARGE), 0, LARGE, 1, i, mpi.world());
          }
          mpi.waitall(sends);
        } else {
          for (int i = n - 1; i >= 0; i--) {
            got[i] = new byte[LARGE];
            mpi.recv(got[i], 0, LARGE, 0, i, mpi.world());
          }
        }
      });
      for (int i = 0; i < n; i++) {
        assertThat(got[i]).as("message %d, on a node: %s", i, onNode).isEqualTo(pattern(i, LARGE));
      }
      assertThat(job.messages(onNode ? Protocol.SINGLE_COPY : Protocol.RENDEZVOUS)).isEqualTo(n);
    }
  }

  @Test
  void anExchangeLargerThanBothHeapsCompletes() {
    MpiJob job = pair(system(2), false);
    byte[][] got = new byte[2][];
    job.run(mpi -> {
      int other = 1 - mpi.rank();
      byte[] in = new byte[LARGE];
      // each receiver's GET lands while its own send's buffer is still held: 80 KiB a rank against a 64 KiB heap
      mpi.sendrecv(pattern(mpi.rank(), LARGE), 0, LARGE, other, 0, in, 0, LARGE, other, 0, mpi.world());
      got[mpi.rank()] = in;
    });
    assertThat(got[0]).isEqualTo(pattern(1, LARGE));
    assertThat(got[1]).isEqualTo(pattern(0, LARGE));
  }

  @Test
  void aMessageLargerThanTheWholeHeapGoesThroughTheUsersMemory() {
    MpiConfig config = MpiConfig.defaults().toBuilder().heapBytes(1 << 20).build();
    MpiJob job = MpiTesting.job(MpiTesting.smallSystem(3), 2, config);
    byte[] big = pattern(7, 2 << 20);
    byte[] got = new byte[big.length];
    job.run(mpi -> {
      if (mpi.rank() == 0) {
        mpi.send(big, 1, 0);
      } else {
        mpi.recv(got, 0, 0);
      }
    });
    assertThat(got).isEqualTo(big);
  }

  @Test
  void collectivesBeyondTheHeapGiveTheirResults() {
    AriesSystem sys = system(4);
    MpiJob job = MpiJob.builder(sys).config(SMALL_HEAP).nodes(5, 70, 33).build();
    int count = 24 << 10; // 192 KiB of doubles, three times the heap
    int block = LARGE;
    double[][] sums = new double[3][];
    byte[][] received = new byte[3][];
    job.run(mpi -> {
      double[] v = new double[count];
      for (int i = 0; i < count; i++) {
        v[i] = mpi.rank() * 1000.0 + i;
      }
      double[] out = new double[count];
      mpi.allreduce(v, out, ReduceOp.SUM, mpi.world());
      sums[mpi.rank()] = out;
      int n = mpi.size();
      int[] counts = new int[n];
      int[] displs = new int[n];
      for (int i = 0; i < n; i++) {
        counts[i] = block;
        displs[i] = i * block;
      }
      byte[] send = new byte[n * block];
      for (int to = 0; to < n; to++) {
        System.arraycopy(pattern(mpi.rank() * 10 + to, block), 0, send, to * block, block);
      }
      byte[] recv = new byte[n * block];
      mpi.alltoallv(send, counts, displs, recv, counts, displs, mpi.world());
      received[mpi.rank()] = recv;
    });
    for (int r = 0; r < 3; r++) {
      for (int i = 0; i < count; i += 997) {
        assertThat(sums[r][i]).isEqualTo(3000.0 + 3 * i);
      }
      for (int from = 0; from < 3; from++) {
        assertThat(Arrays.copyOfRange(received[r], from * block, (from + 1) * block))
            .as("rank %d's block from %d", r, from).isEqualTo(pattern(from * 10 + r, block));
      }
    }
  }

  /**
   * Unexpected eager messages beyond the internal heap land in the process's own memory, as MPICH keeps unexpected
   * messages in buffers it allocates: 30 of 8 KiB (240 KiB) against a 64 KiB heap, received late and in reverse.
   * Before, the receiver's progress engine failed with "internal buffers exhausted".
   */
  @Test
  void unexpectedEagerMessagesBeyondTheHeapAreKeptUntilReceived() {
    MpiJob job = pair(system(7), false);
    int n = 30;
    int size = 8 << 10;
    byte[][] got = new byte[n][];
    job.run(mpi -> {
      if (mpi.rank() == 0) {
        Request[] sends = new Request[n];
        for (int i = 0; i < n; i++) {
          sends[i] = mpi.isend(pattern(100 + i, size), 0, size, 1, i, mpi.world());
        }
        mpi.waitall(sends);
      } else {
        mpi.compute(200_000_000); // 200 us: every message has arrived, unexpected
        for (int i = n - 1; i >= 0; i--) {
          got[i] = new byte[size];
          mpi.recv(got[i], 0, size, 0, i, mpi.world());
        }
      }
    });
    for (int i = 0; i < n; i++) {
      assertThat(got[i]).as("message %d", i).isEqualTo(pattern(100 + i, size));
    }
    assertThat(job.messages(Protocol.EAGER)).isEqualTo(n);
    assertThat(job.unexpectedMessages()).isEqualTo(n);
  }

  /** The places a rank's large buffers take are registered once and reused, as a registration cache's are. */
  @Test
  void userBufferSegmentsAreRegisteredOnceAndReused() {
    AriesSystem sys = system(5);
    MpiJob job = pair(sys, false);
    MpiProgram exchange = mpi -> {
      int other = 1 - mpi.rank();
      List<Request> rs = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        rs.add(mpi.isend(pattern(i, LARGE), 0, LARGE, other, i, mpi.world()));
        rs.add(mpi.irecv(new byte[LARGE], 0, LARGE, other, i, mpi.world()));
      }
      mpi.waitall(rs.toArray(new Request[0]));
    };
    long before = sys.node(5).memory().allocatedBytes();
    job.run(exchange);
    long afterFirst = sys.node(5).memory().allocatedBytes();
    assertThat(afterFirst - before).isGreaterThanOrEqualTo(UserBuffers.FIRST_SEGMENT_BYTES);
    for (int round = 0; round < 5; round++) {
      job.run(exchange);
    }
    assertThat(sys.node(5).memory().allocatedBytes()).isEqualTo(afterFirst);
  }

  @Test
  void aNodeTooSmallForTheUsersBuffersIsNamed() {
    // room for the ranks' own registrations (2 MiB pages) but not for a 16 MiB segment of user buffers
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "aries-small").seed(6)
        .nodeMemoryBytes(12L << 20).build();
    MpiJob job = pair(sys, false);
    assertThatThrownBy(() -> job.run(mpi -> {
      if (mpi.rank() == 0) {
        mpi.send(pattern(1, LARGE), 1, 0);
      } else {
        mpi.recv(new byte[LARGE], 0, 0);
      }
    })).isInstanceOf(ProcessRunner.ProcessFailedException.class)
        .hasStackTraceContaining("MPI rank 0 on node 5: could not register 16777216 bytes for user buffers in flight")
        .hasStackTraceContaining("nodeMemoryBytes");
  }
}
