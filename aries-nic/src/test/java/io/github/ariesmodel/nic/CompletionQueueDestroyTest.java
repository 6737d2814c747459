package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import org.junit.jupiter.api.Test;

/**
 * {@link Nic#destroyCompletionQueue} ({@code GNI_CqDestroy}): a destroyed queue's handle is taken by the next queue
 * created, also at the 2,048-queue limit; a queue that a registration, an unfinished post or an event in flight still
 * uses is refused, changing nothing; a handle the NIC does not have is refused in one line.
 */
class CompletionQueueDestroyTest {

  private final Cluster c = new Cluster(2, NicConfig.defaults());
  private final Nic nic = c.nics[0];

  private boolean registered(CompletionQueue q) {
    return c.translation[0].descriptor(q.ring().mdh()).map(MemoryDomainDescriptor::valid).orElse(false);
  }

  @Test
  void aDestroyedQueuesHandleIsTheNextOneCreatedAndItsRingIsDeregistered() {
    CompletionQueue q0 = nic.createCompletionQueue(8);
    CompletionQueue q1 = nic.createCompletionQueue(8);
    CompletionQueue q2 = nic.createCompletionQueue(8);
    assertThat(nic.completionQueueCount()).isEqualTo(3);

    nic.destroyCompletionQueue(1);
    assertThat(nic.completionQueue(1)).isNull();
    assertThat(nic.completionQueue(0)).isSameAs(q0);
    assertThat(nic.completionQueue(2)).isSameAs(q2);
    assertThat(nic.completionQueueCount()).isEqualTo(2);
    assertThat(registered(q1)).as("the destroyed queue's ring is deregistered").isFalse();
    assertThat(registered(q0) && registered(q2)).isTrue();

    CompletionQueue again = nic.createCompletionQueue(16);
    assertThat(again.handle()).isEqualTo(1);
    assertThat(again).isNotSameAs(q1);
    assertThat(nic.completionQueue(1)).isSameAs(again);
    assertThat(again.capacity()).isEqualTo(16);
    assertThat(nic.createCompletionQueue(8).handle()).as("no handle below 3 is free").isEqualTo(3);
    assertThat(nic.completionQueueCount()).isEqualTo(4);
  }

  @Test
  void theReusedHandleGetsTheNewQueuesEventsOnly() {
    CompletionQueue old = nic.createCompletionQueue(8);
    MemoryDomainDescriptor local = c.register(0, 4096);
    MemoryDomainDescriptor remote = c.register(1, 4096);
    nic.post(Post.put(1, local.mdh(), 0, NetworkAddress.of(1, remote.mdh(), 0), 8).withCompletion(0,
        Post.GLOBAL_EVENT));
    c.run();
    assertThat(old.size()).isEqualTo(1);

    nic.destroyCompletionQueue(0);
    CompletionQueue fresh = nic.createCompletionQueue(8);
    nic.post(Post.put(2, local.mdh(), 0, NetworkAddress.of(1, remote.mdh(), 0), 8).withCompletion(0,
        Post.GLOBAL_EVENT));
    c.run();
    CompletionEvent e = fresh.getEvent();
    assertThat(e.postId()).isEqualTo(2);
    assertThat(fresh.getEvent()).isNull();
    assertThat(old.getEvent().postId()).as("the old queue keeps its unpolled event").isEqualTo(1);
    assertThat(old.writtenEvents()).isEqualTo(1);
  }

  @Test
  void theLimitOf2048QueuesAdmitsANewOneAfterADestroy() {
    for (int h = 0; h <= MemoryDomainDescriptor.MAX_CQ; h++) {
      nic.createCompletionQueue(1);
    }
    assertThatThrownBy(() -> nic.createCompletionQueue(1)).isInstanceOf(IllegalStateException.class)
        .hasMessage("node 0 already has 2048 completion queues (11-bit handle)");

    nic.destroyCompletionQueue(700);
    assertThat(nic.completionQueueCount()).isEqualTo(2047);
    assertThat(nic.createCompletionQueue(1).handle()).isEqualTo(700);
    assertThat(nic.completionQueueCount()).isEqualTo(2048);
    assertThatThrownBy(() -> nic.createCompletionQueue(1)).isInstanceOf(IllegalStateException.class)
        .hasMessage("node 0 already has 2048 completion queues (11-bit handle)");

    nic.destroyCompletionQueue(MemoryDomainDescriptor.MAX_CQ);
    assertThat(nic.createCompletionQueue(1).handle()).isEqualTo(MemoryDomainDescriptor.MAX_CQ);
  }

  @Test
  void aQueueARegistrationNamesIsRefusedAndNothingChanges() {
    nic.createCompletionQueue(8);
    CompletionQueue q = nic.createCompletionQueue(8);
    MemoryDomainDescriptor d = nic.register(MemoryRegistration.of(0x10_0000L, 4096, Cluster.PTAG, Cluster.PKEY)
        .withCompletionQueue(1));

    Throwable t = catchThrowable(() -> nic.destroyCompletionQueue(1));
    assertThat(t).isInstanceOf(IllegalStateException.class).hasMessage("completion queue 1 of node 0 cannot be"
        + " destroyed: the memory registration with mdh " + d.mdh() + " names it for remote events (deregister it"
        + " first) (uGNI's GNI_CqDestroy refuses a CQ still in use with GNI_RC_ERROR_RESOURCE)");
    assertThat(nic.completionQueue(1)).isSameAs(q);
    assertThat(nic.completionQueueCount()).isEqualTo(2);
    assertThat(registered(q)).isTrue();
    assertThat(nic.createCompletionQueue(8).handle()).as("handle 1 stayed taken").isEqualTo(2);

    // a request into the registration still writes its REMOTE event there
    MemoryDomainDescriptor source = c.register(1, 4096);
    c.nics[1].post(Post.put(9, source.mdh(), 0, NetworkAddress.of(0, d.mdh(), 0), 8)
        .withCompletion(Post.NO_CQ, Post.REMOTE_EVENT));
    c.run();
    assertThat(q.getEvent().type()).isEqualTo(CompletionType.REMOTE);

    nic.deregister(d.mdh());
    nic.destroyCompletionQueue(1);
    assertThat(nic.completionQueue(1)).isNull();
  }

  @Test
  void everyRegistrationThatNamesTheQueueIsCounted() {
    nic.createCompletionQueue(8);
    for (int i = 0; i < 10; i++) {
      nic.register(MemoryRegistration.of(0x10_0000L, 4096, Cluster.PTAG, Cluster.PKEY).withCompletionQueue(0));
    }
    assertThat(catchThrowable(() -> nic.destroyCompletionQueue(0))).hasMessageContaining(": 10 memory registrations"
        + " name it (mdhs 1, 2, 3, 4, 5, 6, 7, 8 and 2 more) for remote events (deregister them first)");
  }

  @Test
  void aQueueWithAnUnfinishedPostOrAnEventOnItsWayIsRefusedUntilTheyLand() {
    CompletionQueue q = nic.createCompletionQueue(8);
    MemoryDomainDescriptor local = c.register(0, 4096);
    MemoryDomainDescriptor remote = c.register(1, 4096);
    assertThat(q.writesPending()).isFalse();
    nic.post(Post.put(1, local.mdh(), 0, NetworkAddress.of(1, remote.mdh(), 0), 8).withCompletion(0,
        Post.LOCAL_EVENT | Post.GLOBAL_EVENT));
    assertThat(q.writesPending()).isTrue();
    assertThatThrownBy(() -> nic.destroyCompletionQueue(0)).isInstanceOf(IllegalStateException.class)
        .hasMessage("completion queue 0 of node 0 cannot be destroyed: 1 post that names it has not completed"
            + " (uGNI's GNI_CqDestroy refuses a CQ still in use with GNI_RC_ERROR_RESOURCE)");

    // the transaction completes as its GLOBAL event's host write is booked; the event lands a host write later
    c.loop.runWhile(() -> nic.unfinishedPosts() > 0);
    assertThat(q.writtenEvents()).isLessThan(2);
    Throwable t = catchThrowable(() -> nic.destroyCompletionQueue(0));
    assertThat(t).isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot be destroyed: ")
        .hasMessageContaining(" being written into it");
    assertThat(t.getMessage()).doesNotContain("post").doesNotContain("\n");
    assertThat(nic.completionQueue(0)).isSameAs(q);
    assertThat(q.writesPending()).isTrue(); // the event on its way, as the refusal says

    c.run();
    assertThat(q.writtenEvents()).isEqualTo(2);
    assertThat(q.writesPending()).isFalse();
    nic.destroyCompletionQueue(0);
    assertThat(nic.completionQueueCount()).isZero();
  }

  @Test
  void aCollectivePostHoldsItsQueueUntilItsResultsEventIsWritten() {
    CompletionQueue q = nic.createCompletionQueue(8);
    MemoryDomainDescriptor buffer = c.register(0, 4096);
    int channel = nic.createCollectiveChannel();
    nic.configureCollectiveChannel(channel, CeChannelConfig.of(java.util.List.of(CeChild.pe()), null));
    nic.postCollective(CePost.of(5, channel, 0, CeOperation.IADD, 3, 0, buffer.mdh(), 0, 0));
    assertThatThrownBy(() -> nic.destroyCompletionQueue(0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(": 1 post that names it has not completed");
    c.run();
    assertThat(q.getEvent().postId()).isEqualTo(5);
    nic.destroyCompletionQueue(0);
    assertThat(nic.completionQueueCount()).isZero();
  }

  @Test
  void aHandleTheNicDoesNotHaveIsRefusedInOneLineNamingTheHandlesItHas() {
    assertThatThrownBy(() -> nic.destroyCompletionQueue(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("handle must name a completion queue of node 0 (it has none) but was 0");
    for (int i = 0; i < 4; i++) {
      nic.createCompletionQueue(8);
    }
    nic.destroyCompletionQueue(1);
    for (int bad : new int[] {1, 4, -1, 2048, Integer.MIN_VALUE}) {
      Throwable t = catchThrowable(() -> nic.destroyCompletionQueue(bad));
      assertThat(t).isInstanceOf(IllegalArgumentException.class).hasMessage("handle must name a completion queue"
          + " of node 0 (handles 0..3 exist except 1 (destroyed)) but was " + bad);
    }
    assertThat(nic.completionQueueCount()).isEqualTo(3);
    // the last queue destroyed: the range shrinks
    nic.destroyCompletionQueue(3);
    assertThat(catchThrowable(() -> nic.destroyCompletionQueue(3))).hasMessage("handle must name a completion"
        + " queue of node 0 (handles 0..2 exist except 1 (destroyed)) but was 3");
    // posts and registrations refuse the destroyed handle in the same words
    MemoryDomainDescriptor local = c.register(0, 4096);
    assertThatThrownBy(() -> nic.post(Post.put(1, local.mdh(), 0, NetworkAddress.of(1, 0, 0), 8)
        .withCompletion(1, Post.GLOBAL_EVENT))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("post.completionQueue must name a CQ of node 0 (handles 0..2 exist except 1 (destroyed)) but"
            + " was 1");
    assertThatThrownBy(() -> nic.register(MemoryRegistration.of(0x10_0000L, 4096, Cluster.PTAG, Cluster.PKEY)
        .withCompletionQueue(1))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("registration.completionQueue must name a CQ of node 0 but was 1");
  }

  /**
   * A registration deregistered while its request is in service (here under a translation that still answers OK)
   * writes no REMOTE event, so a queue destroyed meanwhile and its handle given to a new queue get none of it (stop
   * 64's fault hunt: the old request's event landed in the new queue).
   */
  @Test
  void aRemoteEventOfARegistrationDeregisteredInServiceIsDroppedNotWrittenIntoTheHandlesNextQueue() {
    Cluster c = new Cluster(2, NicConfig.defaults(), loop -> new io.github.ariesmodel.core.sim.IdealFabric(loop, 2,
        0, Double.POSITIVE_INFINITY), (m, l) -> new io.github.ariesmodel.core.sim.FlatTranslation(m, l, 200_000));
    CompletionQueue old = c.nics[1].createCompletionQueue(16);
    MemoryDomainDescriptor src = c.register(0, 4096);
    MemoryDomainDescriptor dst = c.nics[1].register(
        MemoryRegistration.of(0x10_0000L, 4096, Cluster.PTAG, Cluster.PKEY)
            .withCompletionQueue(old.handle()));
    c.nics[0].post(Post.put(7, src.mdh(), 0, NetworkAddress.of(1, dst.mdh(), 0), 8)
        .withCompletion(Post.NO_CQ, Post.REMOTE_EVENT));
    while (c.nics[1].statistics().requestsServed() == 0 && c.loop.step()) {
      // until node 1 has taken the request and asked for its translation
    }
    c.nics[1].deregister(dst.mdh());
    c.nics[1].destroyCompletionQueue(old.handle());
    CompletionQueue fresh = c.nics[1].createCompletionQueue(16);
    assertThat(fresh.handle()).isEqualTo(old.handle());
    c.run();
    assertThat(fresh.getEvent()).isNull();
    assertThat(c.nics[1].statistics().remoteEventsDropped()).isEqualTo(1);
  }

  /**
   * What {@link Nic#destroyCompletionQueue} documents and does not prevent: a peer's CQ write already on its way when
   * the queue is destroyed lands in the queue that takes the handle next, as its own REMOTE event, because a CQ write
   * here names the target queue by its handle and nothing more. In uGNI a {@code GNI_PostCqWrite} names a remote
   * memory handle whose registration's {@code dst_cq_hndl} takes the event (Open MPI's btl/ugni and libfabric's gnix
   * register a page for it), so once that registration is gone a late write faults, and reaching a new queue takes a
   * stale memory handle registered again: the host's mistake, as here with a reused handle. Pinned so that a change
   * (addressing CQ writes by registration) is seen.
   */
  @Test
  void aPeersCqWriteInFlightForADestroyedQueueLandsInTheQueueThatTakesItsHandle() {
    CompletionQueue old = c.nics[1].createCompletionQueue(8);
    c.nics[0].post(Post.cqWrite(5, 1, old.handle(), 0x1234));
    c.nics[1].destroyCompletionQueue(old.handle()); // nothing of node 1's names it: the write is still at node 0
    CompletionQueue fresh = c.nics[1].createCompletionQueue(8);
    assertThat(fresh.handle()).isEqualTo(old.handle());
    c.run();
    CompletionEvent e = fresh.getEvent();
    assertThat(e).isNotNull();
    assertThat(e.type()).isEqualTo(CompletionType.REMOTE);
    assertThat(e.userData()).isEqualTo(0x1234);
    assertThat(e.peerNode()).isZero();
    assertThat(old.getEvent()).isNull();
  }
}
