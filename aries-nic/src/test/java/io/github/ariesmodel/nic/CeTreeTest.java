package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.Status;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link CeTree}: the tree it wires reduces every process's contribution, and it refuses a channel of 33 children. */
class CeTreeTest {

  @Test
  void aWiredTreeGivesEveryProcessTheSum() {
    int n = 7;
    Cluster c = new Cluster(n, NicConfig.defaults());
    int[] processes = {1, 2, 1, 3, 1, 1, 2};
    int[] channel = CeTree.wire(Arrays.asList(c.nics), processes, 3, DeliveryMode.MIN_HASH);
    MemoryDomainDescriptor[] buf = new MemoryDomainDescriptor[n];
    long sum = 0;
    for (int k = 0; k < n; k++) {
      buf[k] = c.register(k, 4096);
      for (int p = 0; p < processes[k]; p++) {
        long v = 10L * k + p;
        sum += v;
        c.nics[k].postCollective(CePost.of(p, channel[k], p, CeOperation.IADD, v, 9, buf[k].mdh(), 32L * p,
            Post.NO_CQ));
      }
    }
    c.run();
    for (int k = 0; k < n; k++) {
      for (int p = 0; p < processes[k]; p++) {
        assertThat(c.nics[k].collectiveResult(buf[k].mdh(), 32L * p)).isEqualTo(new CeResult(Status.OK, 0, 9, sum, 0));
      }
    }
    assertThat(c.nics[0].statistics().collectiveReductions()).isEqualTo(1);
    assertThat(c.events).hasSize(Arrays.stream(processes).sum());
  }

  @Test
  void aChannelOfMoreThan32ChildrenIsRefusedBeforeAnyChannelIsTaken() {
    Cluster c = new Cluster(3, NicConfig.defaults());
    assertThatThrownBy(() -> CeTree.wire(List.of(c.nics), new int[] {31, 1, 1}, 2, DeliveryMode.ADAPTIVE_0))
        .hasMessage("the collective engine needs each node's processes plus its child channels (radix 2) to be at"
            + " most 32, the children of a CE channel, but node 0 has 31 processes and 2 child channels");
    assertThat(c.nics[0].createCollectiveChannel()).as("no channel was taken").isZero();
  }
}
