package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.Status;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * A peer's CQ write ({@code GNI_PostCqWrite}) is a remote event, and a CQ takes local or remote events, "but not both"
 * ({@code GNI_CqCreate} [S5]): one into a queue that takes its own NIC's local events (a post named it) faults with
 * INVALID_MDH at the target, an error completion at the writer, and writes nothing into the queue or its ring. The
 * writer cannot know the queue's use when it posts; on uGNI the write names a memory handle whose registration's CQ
 * takes it, and no registration may name a queue that takes local events, so no such handle exists. Until stop 76 the
 * write landed: stop 75 checked the queue's use at the post and at the registration only.
 */
class CqWriteQueueRoleTest {

  @Test
  void aPeersCqWriteIntoAQueueOfLocalEventsFaultsAndLeavesTheQueueAlone() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    MemoryDomainDescriptor local = c.register(0, 4096);
    MemoryDomainDescriptor remote = c.register(1, 4096);
    CompletionQueue own = c.nics[0].createCompletionQueue(8);
    // node 0's own put names the queue for its events: from now on it takes local events
    c.nics[0].post(Post.put(1, local.mdh(), 0, NetworkAddress.of(1, remote.mdh(), 0), 8)
        .withCompletion(own.handle(), Post.GLOBAL_EVENT));
    c.run();
    long ringBefore = ringWord(c, own);
    long writtenBefore = own.writtenEvents();
    c.events.clear();
    c.nics[1].post(Post.cqWrite(2, 0, own.handle(), 0xBAD));
    c.run();
    assertThat(c.events).extracting(CompletionEvent::node, CompletionEvent::postId, CompletionEvent::status)
        .as("the writer's error completion, and no event at node 0")
        .containsExactly(Tuple.tuple(1, 2L, Status.INVALID_MDH));
    assertThat(own.writtenEvents()).as("no entry written").isEqualTo(writtenBefore);
    assertThat(ringWord(c, own)).as("the ring's next slot untouched").isEqualTo(ringBefore);
    CompletionEvent first = own.getEvent();
    assertThat(first.type()).isEqualTo(CompletionType.GLOBAL);
    assertThat(first.postId()).isEqualTo(1);
    assertThat(own.getEvent()).as("only the post's own event").isNull();

    // a queue nothing has named still takes a peer's CQ write, as before
    CompletionQueue fresh = c.nics[0].createCompletionQueue(8);
    c.nics[1].post(Post.cqWrite(3, 0, fresh.handle(), 0x600D));
    c.run();
    assertThat(fresh.getEvent().userData()).isEqualTo(0x600D);
  }

  /** @return the 8 bytes of the queue's ring at the slot its next event would take */
  private static long ringWord(Cluster c, CompletionQueue q) {
    byte[] b = c.read(0, q.ring().mdh(), q.entryOffset(q.writtenEvents()), 8);
    return io.github.ariesmodel.core.LittleEndian.getLong(b);
  }
}
