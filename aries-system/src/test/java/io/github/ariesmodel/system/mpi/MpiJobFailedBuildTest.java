package io.github.ariesmodel.system.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.system.AriesSystem;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * An {@link MpiJob} whose build fails as a later rank is set up gives back the completion queues and registrations
 * its ranks took: every NIC has the queues and registrations it had before, and the handles are free for the next
 * job. (The ranks before were deregistered, but every rank's rx and tx rings stayed, and so did the rx ring of the
 * rank that failed.)
 */
class MpiJobFailedBuildTest {

  /** Completion queues a NIC has now (counted through the handles, so the count means the same on older code). */
  private static int queues(AriesSystem sys, int node) {
    return (int) IntStream.rangeClosed(0, MemoryDomainDescriptor.MAX_CQ)
        .filter(h -> sys.node(node).nic().completionQueue(h) != null).count();
  }

  /** Valid registrations on a node's translation, the queues' rings among them. */
  private static long registrations(AriesSystem sys, int node) {
    return IntStream.rangeClosed(0, NetworkAddress.MAX_MDH)
        .filter(m -> sys.node(node).translation().descriptor(m).map(MemoryDomainDescriptor::valid).orElse(false))
        .count();
  }

  @Test
  void aRankThatCannotMakeItsTxRingLeavesEveryNicAsItWas() {
    AriesSystem sys = MpiTesting.smallSystem(1);
    // node 1 has room for one more queue: its rank's rx ring takes it, its tx ring is refused
    for (int k = 0; k < MemoryDomainDescriptor.MAX_CQ; k++) {
      sys.node(1).nic().createCompletionQueue(1);
    }
    int[] queues = {queues(sys, 0), queues(sys, 1)};
    long[] registrations = {registrations(sys, 0), registrations(sys, 1)};

    Throwable t = catchThrowable(() -> MpiJob.builder(sys).nodes(0, 1).ranksPerNode(1).build());
    assertThat(t).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("MpiJob rank 1 on node 1 could not be set up: node 1 already has 2048 completion"
            + " queues (11-bit handle); ")
        .hasMessageEndingWith(" before it; the completion queues it had made and rank 0's registration and queues"
            + " were given back, with the host memory they took");
    assertThat(t.getMessage()).doesNotContain("\n");
    assertThat(new int[] {queues(sys, 0), queues(sys, 1)}).as("queues on nodes 0 and 1").isEqualTo(queues);
    assertThat(sys.node(0).nic().fmaDescriptorsAttached()).as("rank 0's descriptor, given back").isZero();
    assertThat(new long[] {registrations(sys, 0), registrations(sys, 1)}).as("registrations on nodes 0 and 1")
        .isEqualTo(registrations);

    // node 0's handles are free again: the next job's rank there takes 0 and 1, and the job runs
    MpiJob next = MpiJob.builder(sys).nodes(0, 2).ranksPerNode(1).build();
    assertThat(queues(sys, 0)).isEqualTo(2);
    assertThat(sys.node(0).nic().completionQueue(1)).isNotNull();
    byte[] got = new byte[64];
    next.run(m -> {
      byte[] b = new byte[64];
      if (m.rank() == 0) {
        b[63] = 9;
        m.send(b, 0, b.length, 1, 0, m.world());
      } else {
        m.recv(got, 0, got.length, 0, 0, m.world());
      }
    });
    assertThat(got[63]).isEqualTo((byte) 9);
  }
}
