package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.nic.NicTiming;
import io.github.ariesmodel.system.AriesSystem;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A receiver returns mailbox credits when it releases a slot, after taking the slot's message (uGNI's order:
 * GNI_SmsgGetNext, the message's use, GNI_SmsgRelease; docs/mpi.md), not before: the release's post must not delay
 * the message's own handling. Until stop 71 the credit's post came first, and since stop 70 the rank waits for a
 * post's stores, so an eager message whose slot completed a batch of credits started its GET 133 ns late.
 */
class MpiCreditReturnOrderTest {

  /** The time the receiver's fourth eager message is in its buffer, with {@code slots} mailbox slots a pair. */
  private static long fourthEagerReceiveEndsPs(int slots) {
    AriesSystem sys = MpiTesting.smallSystem(1);
    MpiConfig config = MpiConfig.defaults().toBuilder().mailboxSlots(slots).build();
    MpiJob job = MpiJob.builder(sys).placement(0, 1).config(config).build();
    AtomicLong end = new AtomicLong(-1);
    job.run(mpi -> {
      byte[] buf = new byte[4096]; // above the 1 KiB inline limit: the eager protocol, a receiver GET
      byte[] pong = new byte[8];
      for (int i = 0; i < 4; i++) {
        // a ping-pong, so that the receiver waits for each message with nothing else in hand
        if (mpi.rank() == 0) {
          mpi.send(buf, 0, buf.length, 1, i, mpi.world());
          mpi.recv(pong, 0, pong.length, 1, i, mpi.world());
        } else {
          mpi.recv(buf, 0, buf.length, 0, i, mpi.world());
          if (i == 3) {
            end.set(mpi.now());
          }
          mpi.send(pong, 0, pong.length, 0, i, mpi.world());
        }
      }
    });
    assertThat(job.messages(Protocol.EAGER)).isEqualTo(4);
    return end.get();
  }

  @Test
  void aCreditReturnDoesNotDelayTheMessageWhoseSlotItReleases() {
    // with 8 slots the fourth message's slot completes a batch of 4 credits; with 16 it does not (a batch is 8), and
    // the four messages use the same slots and lines either way. With the credit's post after the eager GET's, the
    // GET's round trip hides the rank's wait for it (what is left, 7.1 ns here, is the credit's CQ write sharing the
    // NIC with the GET); before stop 71 the post came first and the receive ended one whole post later, 133.334 ns
    long delay = fourthEagerReceiveEndsPs(8) - fourthEagerReceiveEndsPs(16);
    // (half a post: a return that still held the GET by most of a post fails too, not only one that held it by all)
    assertThat(delay).isBetween(0L, NicTiming.defaults().fmaPostPs() / 2);
  }
}
