package io.github.ariesmodel.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.nic.NicConfig;
import io.github.ariesmodel.nic.Post;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every node id of a system names a node (issue 14): a request to an in-range node nobody has touched yet reaches a
 * node built on delivery and is answered like any other (here: no registration, so INVALID_MDH), instead of
 * breaking the event loop with "no endpoint attached".
 */
class LazyNodeDeliveryTest {

  @Test
  void aPutToANodeNotYetBuiltIsServedByANodeBuiltOnDelivery() {
    for (String fabric : List.of("routers", "ideal")) {
      AriesSystem.Builder b = AriesSystem.builder().system("default");
      if (fabric.equals("ideal")) {
        b.fabric(FabricKind.IDEAL);
      }
      AriesSystem sys = b.build();
      Node a = sys.node(0);
      MemoryDomainDescriptor local = a.nic().register(MemoryRegistration.of(0x10_0000L, 4096,
          NicConfig.defaults().protectionTag(), NicConfig.defaults().protectionKey()));
      List<CompletionEvent> events = new ArrayList<>();
      a.nic().completionListener(events::add);
      int far = sys.nodeCount() - 1;
      a.nic().post(Post.put(1, local.mdh(), 0, NetworkAddress.of(far, 0, 0), 8));
      sys.loop().run();
      assertThat(events).as(fabric).extracting(CompletionEvent::status).containsExactly(Status.INVALID_MDH);
      assertThat(sys.builtNodes()).as(fabric).isEqualTo(2);
    }
  }
}
