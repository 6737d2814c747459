package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Accumulates from one origin to one target are combined in the order the origin issued them (MPI 3.1 §11.7.2, the
 * default {@code accumulate_ordering}): a long one (eager or rendezvous) then two short ones. Floating-point addition
 * tells the orders apart: 1e16 + 1 + 1 is 1e16 in doubles, 1 + 1 + 1e16 is 1e16 + 2. Until stop 74 the short ones,
 * whose data comes with their packet, were combined before the long one's data had been fetched.
 */
class MpiAccumulateOrderingTest {

  private static MpiJob job(int ranksPerNode) {
    int[] nodes = ranksPerNode == 1 ? new int[] {0, 5} : new int[] {0};
    return MpiJob.builder(MpiTesting.smallSystem(3)).nodes(nodes).ranksPerNode(ranksPerNode).build();
  }

  @ParameterizedTest(name = "{0} doubles, {1} rank(s) a node, lock epoch {2}")
  @CsvSource({"500, 1, false", "3000, 1, false", "500, 2, false", "3000, 2, false", "500, 1, true",
      "3000, 1, true"})
  void anOriginsAccumulatesAreCombinedInProgramOrder(int n, int ranksPerNode, boolean lock) {
    byte[][] windows = new byte[2][];
    job(ranksPerNode).run(mpi -> {
      byte[] mem = new byte[8 * n];
      windows[mpi.rank()] = mem;
      Window w = mpi.winCreate(mem, 8, mpi.world());
      if (!lock) {
        mpi.winFence(0, w);
      }
      if (mpi.rank() == 0) {
        if (lock) {
          mpi.winLock(false, 1, 0, w);
        }
        double[] big = new double[n];
        big[0] = 1e16;
        mpi.accumulate(big, 1, 0, ReduceOp.SUM, w);
        mpi.accumulate(new double[] {1.0}, 1, 0, ReduceOp.SUM, w);
        mpi.accumulate(new double[] {1.0}, 1, 0, ReduceOp.SUM, w);
        if (lock) {
          mpi.winUnlock(1, w);
        }
      }
      if (lock) {
        mpi.barrier(mpi.world());
      } else {
        mpi.winFence(0, w);
      }
      mpi.winFree(w);
    });
    double[] x = new double[1];
    ElementType.unpack(Arrays.copyOfRange(windows[1], 0, 8), x);
    assertThat(x[0]).isEqualTo(1e16);
  }
}
