package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.sim.IdealFabric;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A CQ write is checked like any other request (issue 14): a NIC of another protection domain (PTAG/PKEY) cannot
 * put an event into a victim's completion queue; one of the same domain can.
 */
class CqWriteProtectionTest {

  @Test
  void aCqWriteFromAnotherProtectionDomainIsRefusedAndLeavesTheQueueEmpty() {
    DeterministicEventLoop loop = new DeterministicEventLoop();
    IdealFabric fabric = new IdealFabric(loop, 3, 0, Double.POSITIVE_INFINITY);
    NicConfig victimDomain = NicConfig.defaults();
    NicConfig[] configs = {victimDomain, victimDomain.withProtection(9, 4242), victimDomain};
    Nic[] nics = new Nic[3];
    List<CompletionEvent> events = new ArrayList<>();
    for (int n = 0; n < 3; n++) {
      SparsePhysicalMemory m = new SparsePhysicalMemory(1L << 30);
      nics[n] = new Nic(n, loop, m, new FlatTranslation(m, loop, 0), fabric, configs[n]);
      nics[n].completionListener(events::add);
    }
    CompletionQueue victim = nics[0].createCompletionQueue(4);
    nics[1].post(Post.cqWrite(1, 0, victim.handle(), 0xBAD));
    loop.run();
    assertThat(events).extracting(CompletionEvent::postId, CompletionEvent::status)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, Status.PROTECTION_VIOLATION));
    assertThat(victim.getEvent()).as("the victim's queue stays empty").isNull();
    events.clear();
    nics[2].post(Post.cqWrite(2, 0, victim.handle(), 0x600D));
    loop.run();
    assertThat(events).extracting(CompletionEvent::postId, CompletionEvent::status)
        .contains(org.assertj.core.groups.Tuple.tuple(2L, Status.OK));
    assertThat(victim.getEvent().userData()).isEqualTo(0x600D);
  }
}
