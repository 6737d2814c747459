package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.sim.AriesSystem;
import org.junit.jupiter.api.Test;

class MpiSmokeTest {

  @Test
  void pingPong() {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "aries-small").seed(1).build();
    MpiJob job = MpiJob.builder(sys).nodes(0, 5).build();
    int[] sizes = {8, 2000, 8192, 100000};
    long[] t = new long[sizes.length];
    boolean[] ok = new boolean[sizes.length];
    job.run(mpi -> {
      for (int k = 0; k < sizes.length; k++) {
        byte[] b = new byte[sizes[k]];
        if (mpi.rank() == 0) {
          for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 7 + k);
          }
          long t0 = mpi.now();
          mpi.send(b, 1, 3);
          mpi.recv(b, 1, 4);
          t[k] = (mpi.now() - t0) / 2;
        } else {
          mpi.recv(b, 0, 3);
          boolean good = true;
          for (int i = 0; i < b.length; i++) {
            good &= b[i] == (byte) (i * 7 + k);
          }
          ok[k] = good;
          mpi.send(b, 0, 4);
        }
      }
    });
    for (int k = 0; k < sizes.length; k++) {
      System.out.println(sizes[k] + " B: " + t[k] / 1000 + " ns " + ok[k]);
      assertThat(ok[k]).isTrue();
    }
  }
}
