package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Completion queues and modes, remote events, CQ writes, fences and request-tag back-pressure. */
class NicCompletionTest {

  private final Cluster c = new Cluster(3, NicConfig.defaults());
  private final MemoryDomainDescriptor local = c.register(0, 1 << 20);
  private final MemoryDomainDescriptor remote = c.register(1, 1 << 20);

  private NetworkAddress at(long offset) {
    return NetworkAddress.of(1, remote.mdh(), offset);
  }

  @Test
  void aFullQueueDropsEventsAndIsFlaggedOverrun() {
    CompletionQueue cq = c.nics[0].createCompletionQueue(4);
    for (int i = 0; i < 10; i++) {
      c.nics[0].post(Post.put(i, local.mdh(), 0, at(64L * i), 8).withCompletion(cq.handle(), Post.GLOBAL_EVENT));
    }
    c.run();
    assertThat(cq.size()).isEqualTo(4);
    assertThat(cq.overrun()).isTrue();
    assertThat(cq.droppedEvents()).isEqualTo(6);
    assertThat(c.events).hasSize(10);
    long[] polled = new long[4];
    for (int i = 0; i < 4; i++) {
      polled[i] = cq.getEvent().postId();
    }
    assertThat(polled).containsExactly(0, 1, 2, 3);
    assertThat(cq.getEvent()).isNull();
    cq.clearOverrun();
    assertThat(cq.overrun()).isFalse();
  }

  /**
   * A ring whose write faults loses the entry, not the event (stop 64's fault hunt): the listener sees every event,
   * a failed transaction's GLOBAL error included, and the loss is counted apart from overruns. A live queue's ring
   * cannot be deregistered through the NIC (destroy the queue instead); here the translation port does it.
   */
  @Test
  void aFaultedRingWriteLosesTheEntryButNotTheEventAndARingIsNotDeregisteredThroughTheNic() {
    CompletionQueue cq = c.nics[0].createCompletionQueue(16);
    int ring = cq.ring().mdh();
    assertThatThrownBy(() -> c.nics[0].deregister(ring)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mdh " + ring + " of node 0 is completion queue " + cq.handle() + "'s ring: destroy the queue"
            + " (destroyCompletionQueue) instead of deregistering its ring");
    assertThat(c.translation[0].descriptor(ring).orElseThrow().valid()).as("nothing changed").isTrue();
    c.translation[0].deregister(ring);
    c.nics[0].post(Post.put(1, local.mdh(), 0, at(0), 8).withCompletion(cq.handle(), Post.GLOBAL_EVENT));
    c.nics[0].post(Post.put(2, local.mdh(), 0, NetworkAddress.of(1, 99, 0), 8)
        .withCompletion(cq.handle(), Post.GLOBAL_EVENT));
    c.run();
    assertThat(c.events).extracting(CompletionEvent::postId, CompletionEvent::status)
        .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(1L, Status.OK),
            org.assertj.core.groups.Tuple.tuple(2L, Status.INVALID_MDH));
    assertThat(cq.getEvent()).isNull();
    assertThat(cq.lostEvents()).isEqualTo(2);
    assertThat(cq.droppedEvents()).isZero();
    assertThat(cq.overrun()).isFalse();
  }

  @Test
  void localEventPrecedesGlobalAndSilentPostsProduceNone() {
    CompletionQueue cq = c.nics[0].createCompletionQueue(16);
    c.nics[0].post(Post.put(1, local.mdh(), 0, at(0), 10_000)
        .withCompletion(cq.handle(), Post.LOCAL_EVENT | Post.GLOBAL_EVENT));
    c.nics[0].post(Post.put(2, local.mdh(), 0, at(20_000), 100).withCompletion(cq.handle(), 0));
    c.nics[0].post(Post.get(3, local.mdh(), 50_000, at(0), 100).withCompletion(cq.handle(), Post.LOCAL_EVENT));
    c.run();
    CompletionEvent first = cq.getEvent();
    CompletionEvent second = cq.getEvent();
    CompletionEvent third = cq.getEvent();
    assertThat(cq.getEvent()).isNull();
    List<CompletionEvent> put = List.of(first, second, third).stream().filter(e -> e.postId() == 1).toList();
    assertThat(put).extracting(CompletionEvent::type).containsExactly(CompletionType.LOCAL, CompletionType.GLOBAL);
    assertThat(put.get(0).timePs()).isLessThan(put.get(1).timePs());
    assertThat(List.of(first, second, third)).filteredOn(e -> e.postId() == 3).singleElement()
        .matches(e -> e.type() == CompletionType.LOCAL);
    assertThat(c.nics[0].statistics().transactionsCompleted()).isEqualTo(3);
  }

  @Test
  void remoteEventsGoToTheCqTheTargetRegistrationNames() {
    CompletionQueue targetCq = c.nics[1].createCompletionQueue(8);
    MemoryDomainDescriptor withCq = c.nics[1].register(
        MemoryRegistration.of(0x800_0000L, 1 << 16, Cluster.PTAG, Cluster.PKEY).withCompletionQueue(targetCq.handle()));
    NetworkAddress dst = NetworkAddress.of(1, withCq.mdh(), 0);
    c.nics[0].post(Post.put(1, local.mdh(), 0, dst, 5000).withCompletion(Post.NO_CQ, Post.REMOTE_EVENT));
    c.nics[0].post(Post.put(2, local.mdh(), 0, dst, 64).withCompletion(Post.NO_CQ, Post.GLOBAL_EVENT));
    c.nics[0].post(Post.amo(3, AmoOperation.parse("FADD"), dst, 5, 0)
        .withCompletion(Post.NO_CQ, Post.REMOTE_EVENT | Post.GLOBAL_EVENT));
    c.nics[0].post(Post.put(4, local.mdh(), 0, at(0), 64).withCompletion(Post.NO_CQ, Post.REMOTE_EVENT));
    c.run();
    // One REMOTE event per post that asked for it and whose target registration names a CQ: posts 1 and 3.
    assertThat(targetCq.size()).isEqualTo(2);
    CompletionEvent a = targetCq.getEvent();
    CompletionEvent b = targetCq.getEvent();
    assertThat(List.of(a, b)).allMatch(e -> e.type() == CompletionType.REMOTE && e.node() == 1 && e.peerNode() == 0);
    assertThat(c.events(0)).extracting(CompletionEvent::postId).containsExactlyInAnyOrder(2L, 3L);
  }

  @Test
  void cqWriteDeliversItsValueToTheRemoteQueue() {
    CompletionQueue targetCq = c.nics[2].createCompletionQueue(2);
    c.nics[0].post(Post.cqWrite(9, 2, targetCq.handle(), 0xABCD_EF01_2345L));
    c.nics[0].post(Post.cqWrite(10, 2, 7, 1));
    c.run();
    CompletionEvent e = targetCq.getEvent();
    assertThat(e.type()).isEqualTo(CompletionType.REMOTE);
    assertThat(e.userData()).isEqualTo(0xABCD_EF01_2345L);
    assertThat(e.peerNode()).isZero();
    assertThat(c.events(0)).extracting(CompletionEvent::postId, CompletionEvent::status).containsExactlyInAnyOrder(
        org.assertj.core.groups.Tuple.tuple(9L, Status.OK), org.assertj.core.groups.Tuple.tuple(10L, Status.INVALID_MDH));
  }

  @Test
  void aFenceMakesLaterPostsWaitForEarlierOnes() {
    // Without a fence the small PUT overtakes the large one; with it, it starts only after the large one completed.
    c.nics[0].post(Post.put(1, local.mdh(), 0, at(0), 200_000));
    c.nics[0].post(Post.put(2, local.mdh(), 0, at(300_000), 8));
    c.run();
    assertThat(c.events(0)).extracting(CompletionEvent::postId).containsExactly(2L, 1L);
    c.events.clear();
    c.nics[0].post(Post.put(1, local.mdh(), 0, at(0), 200_000).withFence(true));
    c.nics[0].post(Post.put(2, local.mdh(), 0, at(300_000), 8));
    c.run();
    assertThat(c.events(0)).extracting(CompletionEvent::postId).containsExactly(1L, 2L);
    long gap = c.events.get(1).timePs() - c.events.get(0).timePs();
    // Post 2 starts when post 1 completes; both events then take the same host write, so the gap is post 2's trip
    // through the NIC pipelines: transmit + receive at the target + receive of the ACK (3 × 40 cycles = 150 ns).
    assertThat(gap).as("the fenced-behind post runs its whole trip after the first completes").isEqualTo(150_000);
  }

  @Test
  void postsWaitForRequestTagsAndAllComplete() {
    int posts = 300;
    // The CPU's per-post cost and the host link's overhead per transfer are left out here (FmaFrontEndTest and
    // NicHostLinkTest cover them): posts then arrive 1 ns apart, a 16-byte doorbell write each.
    Cluster c = new Cluster(3, NicConfig.defaults().withTiming(
        NicTiming.defaults().withFma(0, Double.POSITIVE_INFINITY, 0).withHostOverheadBytes(0)));
    MemoryDomainDescriptor local = c.register(0, 1 << 20);
    MemoryDomainDescriptor remote = c.register(1, 1 << 20);
    for (int i = 0; i < posts; i++) {
      c.nics[0].post(Post.put(i, local.mdh(), i, NetworkAddress.of(1, remote.mdh(), 8L * i), 8));
    }
    assertThat(c.nics[0].queuedPosts()).isZero(); // the posts have not reached the NIC yet
    assertThat(c.nics[0].unfinishedPosts()).isEqualTo(posts);
    c.loop.runUntil(io.github.ariesmodel.core.SimTime.ns(400));
    assertThat(c.nics[0].outstandingTransactions()).isEqualTo(64);
    // Posts cross the host interface 1 ns apart from 250 ns on: 150 have arrived, none has completed yet.
    assertThat(c.nics[0].queuedPosts()).isEqualTo(150 - 64);
    assertThat(c.nics[0].unfinishedPosts()).isEqualTo(posts);
    c.run();
    assertThat(c.nics[0].unfinishedPosts()).isZero();
    assertThat(c.events(0)).hasSize(posts).allMatch(e -> !e.isError());
    assertThat(c.nics[0].statistics().maxOutstanding()).isEqualTo(64);
    assertThat(c.nics[0].statistics().postsDelayedForTags()).isPositive();
    assertThat(c.nics[0].outstandingTransactions()).isZero();
    assertThat(c.nics[0].queuedPosts()).isZero();
  }

  @Test
  void bteTransfersUseTheChannelsAndLongPostsStillComplete() {
    Cluster small = new Cluster(2, NicConfig.defaults().withRequestTags(2));
    MemoryDomainDescriptor l = small.register(0, 1 << 20);
    MemoryDomainDescriptor r = small.register(1, 1 << 20);
    for (int i = 0; i < 8; i++) {
      small.nics[0].post(Post.put(i, l.mdh(), 0, NetworkAddress.of(1, r.mdh(), 100_000L * i), 20_000));
      small.nics[0].post(Post.get(100 + i, l.mdh(), 900_000, NetworkAddress.of(1, r.mdh(), 4L * i), 12));
    }
    small.run();
    assertThat(small.events).hasSize(16).allMatch(e -> !e.isError());
    assertThat(small.nics[0].statistics().maxOutstanding()).isEqualTo(2);
  }
}
