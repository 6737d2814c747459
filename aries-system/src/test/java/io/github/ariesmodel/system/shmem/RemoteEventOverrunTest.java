package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.nic.Nic;
import io.github.ariesmodel.nic.Post;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.process.ProcessRunner;
import org.junit.jupiter.api.Test;

/**
 * {@link Shmem#remoteEvents()} is the count of the REMOTE events in the PE's own completion queue, taken as uGNI's
 * {@code GNI_CqGetEvent} takes them: it counts the events written there while another job held the NIC's completion
 * listener (a job built on the node after this one takes it until this one runs again), and a queue that overran,
 * which uGNI reports as {@code GNI_RC_ERROR_RESOURCE} (events lost [S5]), fails the PE in one line instead of
 * answering a count that misses the dropped events. Until stop 76 the count was only what the listener had seen: the
 * events written meanwhile were never counted, and the 76 the full queue dropped were not told.
 */
class RemoteEventOverrunTest {

  /** Each PE's remote-event queue holds this many events (ShmemJob's REMOTE_CQ_ENTRIES). */
  private static final int ENTRIES = 1024;

  /**
   * Job {@code a} runs once (one put to PE 0, counted), job {@code b} is built on the same nodes (taking their NICs'
   * listener), and node 1's NIC puts {@code extra} words into PE 0's object asking for REMOTE events, as a uGNI
   * program may: they land in PE 0's queue, which nothing polls until {@code a} runs again.
   *
   * @return what PE 0's remoteEvents() answered in a's second run, or the run's failure
   */
  private static Object secondCount(int extra, boolean wait) {
    AriesSystem s = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").seed(1).build();
    ShmemJob a = ShmemJob.builder(s).nodes(0, 1).remoteEvents(true).build();
    Symmetric buf = a.allocate(8);
    long[] first = {-1};
    a.run(pe -> {
      if (pe.myPe() == 1) {
        pe.putLong(buf, 0, 7, 0);
        pe.quiet();
      } else {
        pe.waitRemoteEvents(1);
        first[0] = pe.remoteEvents();
      }
    });
    assertThat(first[0]).isEqualTo(1);
    ShmemJob.builder(s).nodes(0, 1).build();
    Nic from = s.node(1).nic();
    NetworkAddress at = NetworkAddress.of(0, buf.mdh(0), 0);
    for (int i = 0; i < extra; i++) {
      from.post(Post.putValue(1 + i, at, i, 8).withCompletion(Post.NO_CQ, Post.GLOBAL_EVENT | Post.REMOTE_EVENT));
    }
    s.runPending();
    long[] second = {-1};
    Throwable failed = catchThrowable(() -> a.run(pe -> {
      if (pe.myPe() == 0) {
        if (wait) {
          pe.waitRemoteEvents(extra + 2); // one more than were ever put
        }
        second[0] = pe.remoteEvents();
      }
    }));
    return failed != null ? failed : second[0];
  }

  @Test
  void eventsWrittenWhileAnotherJobHeldTheListenerAreCounted() {
    assertThat(secondCount(ENTRIES - 1, false)).as("the first put's event and the queue's 1,023 written since")
        .isEqualTo((long) ENTRIES);
  }

  @Test
  void aQueueThatOverranFailsThePeInOneLineRatherThanUnderCount() {
    for (String call : new String[] {"remoteEvents()", "waitRemoteEvents"}) {
      Object got = secondCount(ENTRIES + 76, call.startsWith("wait"));
      assertThat(got).as("%s of a queue that dropped 76 events", call).isInstanceOf(
          ProcessRunner.ProcessFailedException.class);
      Throwable cause = ((Throwable) got).getCause();
      assertThat(cause).isInstanceOf(IllegalStateException.class);
      assertThat(cause.getMessage()).isEqualTo("PE 0's remote-event completion queue overran: 76 REMOTE events were"
          + " dropped (it holds " + ENTRIES + " and fills only while no run of this job takes its events), so " + call
          + " cannot count them (uGNI's GNI_CqGetEvent answers GNI_RC_ERROR_RESOURCE)");
    }
  }
}
