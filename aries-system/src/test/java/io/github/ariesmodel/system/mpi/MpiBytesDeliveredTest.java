package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@link MpiJob#bytesDelivered} counts each message's payload once, where its data reaches the receiving rank, by every
 * protocol (short, eager, rendezvous between nodes; shared memory, inline or not, and single copy on one node), whether
 * the receive was posted before the message arrived or after (an unexpected message): once every message has been
 * received, it equals {@link MpiJob#bytesSent}: the payload of a message counted twice, or of one never counted,
 * would part them.
 */
class MpiBytesDeliveredTest {

  private static final int[] SIZES = {0, 1, 8, 1000, 1024, 1025, 4000, 8192, 8193, 65_536, 300_001};

  private static long exchange(MpiJob job, boolean receiverLate) {
    job.run(mpi -> {
      for (int k = 0; k < SIZES.length; k++) {
        if (mpi.rank() == 0) {
          mpi.send(new byte[SIZES[k]], 1, k);
        } else {
          if (receiverLate) {
            mpi.compute(20_000_000); // 20 us: the message waits among the unexpected ones
          }
          mpi.recv(new byte[SIZES[k]], 0, k);
        }
      }
    });
    return Arrays.stream(SIZES).asLongStream().sum();
  }

  @Test
  void everyProtocolsBytesAreDeliveredOnceBetweenNodesAndOnOneNode() {
    for (int[] placement : new int[][] {{2, 60}, {7, 7}}) {
      for (boolean late : new boolean[] {false, true}) {
        MpiJob job = MpiJob.builder(MpiTesting.smallSystem(1)).placement(placement).build();
        long sum = exchange(job, late);
        String what = "placement " + Arrays.toString(placement) + ", receiver late " + late;
        // the messages, and on one node the finalize barrier's own 1-byte broadcast (its SMP-aware barrier)
        assertThat(job.bytesSent()).as(what).isBetween(sum, sum + 1);
        assertThat(job.bytesDelivered()).as(what).isEqualTo(job.bytesSent());
      }
    }
  }
}
