package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.Status;
import org.junit.jupiter.api.Test;

/**
 * A registration made through the translation port directly, bypassing the NIC's queue checks, cannot make a queue
 * take local and remote events: the queue's first use settles it (docs/nic.md).
 */
class PortRegistrationQueueRoleTest {

  @Test
  void aRemoteEventForAQueueOfLocalEventsIsDropped() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    MemoryDomainDescriptor source = c.register(0, 4096);
    MemoryDomainDescriptor local1 = c.register(1, 4096);
    CompletionQueue own = c.nics[1].createCompletionQueue(8);
    c.nics[1].post(Post.put(1, local1.mdh(), 0, NetworkAddress.of(0, source.mdh(), 0), 8)
        .withCompletion(own.handle(), Post.GLOBAL_EVENT));
    c.run();
    assertThat(own.getEvent().type()).isEqualTo(CompletionType.GLOBAL);
    MemoryDomainDescriptor viaPort = c.translation[1].register(
        MemoryRegistration.of(0x40_0000L, 4096, Cluster.PTAG, Cluster.PKEY).withCompletionQueue(own.handle()));

    c.nics[0].post(Post.put(2, source.mdh(), 0, NetworkAddress.of(1, viaPort.mdh(), 0), 8)
        .withCompletion(Post.NO_CQ, Post.GLOBAL_EVENT | Post.REMOTE_EVENT));
    c.run();

    assertThat(c.events).anySatisfy(e -> {
      assertThat(e.type()).isEqualTo(CompletionType.GLOBAL);
      assertThat(e.postId()).isEqualTo(2);
      assertThat(e.status()).isEqualTo(Status.OK);
    });
    assertThat(own.getEvent()).isNull();
    assertThat(c.nics[1].statistics().remoteEventsDropped()).isEqualTo(1);
  }

  @Test
  void aQueueThatTookARemoteEventRefusesAPost() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    MemoryDomainDescriptor source = c.register(0, 4096);
    MemoryDomainDescriptor local1 = c.register(1, 4096);
    CompletionQueue q = c.nics[1].createCompletionQueue(8);
    MemoryDomainDescriptor viaPort = c.translation[1].register(
        MemoryRegistration.of(0x40_0000L, 4096, Cluster.PTAG, Cluster.PKEY).withCompletionQueue(q.handle()));
    c.nics[0].post(Post.put(1, source.mdh(), 0, NetworkAddress.of(1, viaPort.mdh(), 0), 8)
        .withCompletion(Post.NO_CQ, Post.GLOBAL_EVENT | Post.REMOTE_EVENT));
    c.run();
    assertThat(q.getEvent().type()).isEqualTo(CompletionType.REMOTE);

    assertThatThrownBy(() -> c.nics[1].post(Post.put(2, local1.mdh(), 0, NetworkAddress.of(0, source.mdh(), 0), 8)
        .withCompletion(q.handle(), Post.GLOBAL_EVENT)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("takes remote events");
  }
}
