package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.DeliveryMode;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.packet.Packet;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.sim.IdealFabric;
import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.spi.AddressTranslation;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationListener;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * The collective engine's public API under hostile and edge input: every caller mistake is a one-line
 * {@link IllegalArgumentException} (or {@link IllegalStateException} for misuse of a channel's state) naming the
 * parameter, the range and the value, and changes nothing: no channel taken, no counter moved, no memory written, and
 * a reduction run afterwards completes at the same times as on a NIC that saw no refusal
 * (docs/errors-and-guarantees.md, "Library").
 */
class CollectiveEngineMisuseTest {

  /**
   * Two NICs wired as one tree: node 0's channel 0 the root with a process (child 0) and node 1's channel 0 (child 1),
   * node 1's channel 0 with one process. Each node has a 4 KiB result buffer and one CQ.
   */
  private static final class Pair {
    final Cluster c = new Cluster(2, NicConfig.defaults());
    final MemoryDomainDescriptor[] buf = new MemoryDomainDescriptor[2];
    final int[] cq = new int[2];

    Pair() {
      assertThat(c.nics[0].createCollectiveChannel()).isZero();
      assertThat(c.nics[1].createCollectiveChannel()).isZero();
      c.nics[0].configureCollectiveChannel(0, CeChannelConfig.of(List.of(CeChild.pe(), CeChild.channel(1, 0)), null));
      c.nics[1].configureCollectiveChannel(0, CeChannelConfig.of(List.of(CeChild.pe()), new CeParent(0, 0, 1)));
      for (int n = 0; n < 2; n++) {
        buf[n] = c.register(n, 4096);
        cq[n] = c.nics[n].createCompletionQueue(16).handle();
      }
    }

    CePost post(int node, long value, long id) {
      return CePost.of(100 + node, 0, 0, CeOperation.IADD, value, id, buf[node].mdh(), 0, cq[node]);
    }

    /** Both processes contribute; runs the loop. @return the two GLOBAL events' times, relative to the first post */
    long[] reduce(long id) {
      long start = c.loop.now();
      int before = c.events.size();
      c.nics[0].postCollective(post(0, 3, id));
      c.nics[1].postCollective(post(1, 4, id));
      c.run();
      List<CompletionEvent> e = c.events.subList(before, c.events.size());
      assertThat(e).hasSize(2).allSatisfy(x -> {
        assertThat(x.status()).isEqualTo(Status.OK);
        assertThat(x.userData()).isEqualTo(7);
      });
      for (int n = 0; n < 2; n++) {
        assertThat(c.nics[n].collectiveResult(buf[n].mdh(), 0)).isEqualTo(new CeResult(Status.OK, 0, id, 7, 0));
      }
      return new long[] {e.get(0).timePs() - start, e.get(1).timePs() - start};
    }

    /** Every counter of both NICs, to show that a refusal moved none. */
    String counters() {
      StringBuilder b = new StringBuilder();
      for (Nic n : c.nics) {
        NicStatistics s = n.statistics();
        b.append(s).append(" ce ").append(s.collectivePosts()).append('/').append(s.collectivePacketsSent())
            .append('/').append(s.collectiveReductions()).append('/').append(s.collectiveFaults()).append('/')
            .append(s.collectivePacketsDropped()).append(" events ").append(s.eventsWritten()).append(" host ")
            .append(s.hostBytesToNic()).append('/').append(s.hostBytesToNode()).append(" outstanding ")
            .append(n.outstandingTransactions()).append('\n');
      }
      return b.append("events ").append(c.events).append(" at ").append(c.loop.now()).toString();
    }
  }

  /** The times a reduction's events take on a pair that saw nothing else. */
  private static long[] freshTimes() {
    return new Pair().reduce(5);
  }

  /** Asserts a refusal: its type and its exact one-line message. */
  private static void refused(ThrowingCallable call, Class<? extends RuntimeException> type, String message) {
    assertThatThrownBy(call).isExactlyInstanceOf(type).hasMessage(message).hasNoCause();
    assertThat(message).doesNotContain("\n");
  }

  private static void refused(ThrowingCallable call, String message) {
    refused(call, IllegalArgumentException.class, message);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // CePost and postCollective

  @Test
  void aPostsFieldsAreCheckedWhenItIsMade() {
    refused(() -> CePost.of(1, -1, 0, CeOperation.AND, 1, 0, 0, 0, Post.NO_CQ),
        "post.channel must be in [0, 3] but was -1");
    refused(() -> CePost.of(1, 4, 0, CeOperation.AND, 1, 0, 0, 0, Post.NO_CQ),
        "post.channel must be in [0, 3] but was 4");
    refused(() -> CePost.of(1, 0, -1, CeOperation.AND, 1, 0, 0, 0, Post.NO_CQ),
        "post.child must be in [0, 31] but was -1");
    refused(() -> CePost.of(1, 0, 32, CeOperation.AND, 1, 0, 0, 0, Post.NO_CQ),
        "post.child must be in [0, 31] but was 32");
    refused(() -> CePost.of(1, 0, 0, null, 1, 0, 0, 0, Post.NO_CQ), "post.operation must not be null");
    refused(() -> CePost.of(1, 0, 0, CeOperation.AND, 1, 1L << 40, 0, 0, Post.NO_CQ),
        "post.reductionId must be in [0, 1099511627775] but was 1099511627776");
    refused(() -> CePost.of(1, 0, 0, CeOperation.AND, 1, -1, 0, 0, Post.NO_CQ),
        "post.reductionId must be in [0, 1099511627775] but was -1");
    refused(() -> CePost.of(1, 0, 0, CeOperation.AND, 1, 0, 0, -1, Post.NO_CQ),
        "post.resultOffset must be >= 0 but was -1");
    refused(() -> CePost.of(1, 0, 0, CeOperation.AND, 1, 0, 0, Long.MIN_VALUE, Post.NO_CQ),
        "post.resultOffset must be >= 0 but was -9223372036854775808");
    refused(() -> CePost.of(1, 0, 0, CeOperation.AND, 1, 0, -1, 0, Post.NO_CQ),
        "post.resultMdh must be in [0, 4095] but was -1");
    refused(() -> CePost.of(1, 0, 0, CeOperation.AND, 1, 0, 4096, 0, Post.NO_CQ),
        "post.resultMdh must be in [0, 4095] but was 4096");
    refused(() -> CePost.of(1, 0, 0, CeOperation.AND, 1, 0, 0, 0, -2),
        "post.completionQueue must be -1 (none) or in [0, 2047] but was -2");
    refused(() -> CePost.of(1, 0, 0, CeOperation.AND, 1, 0, 0, 0, Integer.MIN_VALUE),
        "post.completionQueue must be -1 (none) or in [0, 2047] but was -2147483648");
    refused(() -> CePost.of(1, 0, 0, CeOperation.AND, 1, 0, 0, 0, 2048),
        "post.completionQueue must be -1 (none) or in [0, 2047] but was 2048");
    CePost one = CePost.of(1, 0, 0, CeOperation.AND, 1, 0, 0, 0, Post.NO_CQ);
    refused(() -> new CePost(1, 0, 0, CeOperation.AND, 1, 0, false, 0, -5, 0, Post.NO_CQ),
        "post.resultMdh must be in [0, 4095] but was -5");
    assertThat(one.withSecondOperand(9).operand2()).isEqualTo(9);
    assertThat(CePost.of(1, 0, 0, CeOperation.AND, 1, Packet.MAX_REDUCTION_ID, 0, 0, Post.NO_CQ).reductionId())
        .isEqualTo((1L << 40) - 1);
  }

  @Test
  void aNegativePostIdIsTheHostsOwnAndIsEchoedInTheEvent() {
    Pair p = new Pair();
    p.c.nics[0].postCollective(CePost.of(-7, 0, 0, CeOperation.IADD, 3, 5, p.buf[0].mdh(), 0, p.cq[0]));
    p.c.nics[1].postCollective(p.post(1, 4, 5));
    p.c.run();
    assertThat(p.c.events(0)).extracting(CompletionEvent::postId).containsExactly(-7L);
    assertThat(p.c.events(0)).extracting(CompletionEvent::type).containsExactly(CompletionType.GLOBAL);
  }

  @Test
  void postRefusalsChangeNothing() {
    Pair p = new Pair();
    Nic nic = p.c.nics[0];
    int mdh = p.buf[0].mdh();
    String before = p.counters();
    refused(() -> nic.postCollective(null), "post must not be null");
    // a result buffer that was never registered, and one that was deregistered
    refused(() -> nic.postCollective(CePost.of(1, 0, 0, CeOperation.IADD, 3, 5, 9, 0, p.cq[0])),
        "post.resultMdh must name a registered memory domain of node 0 but 9 is not registered");
    MemoryDomainDescriptor gone = p.c.register(0, 4096);
    nic.deregister(gone.mdh());
    refused(() -> nic.postCollective(CePost.of(1, 0, 0, CeOperation.IADD, 3, 5, gone.mdh(), 0, p.cq[0])),
        "post.resultMdh must name a registered memory domain of node 0 but " + gone.mdh() + " is not registered");
    // a result buffer at a registration's end: the last whole aligned block fits, one block further does not
    MemoryDomainDescriptor small = p.c.register(0, 88);
    refused(() -> nic.postCollective(CePost.of(1, 0, 0, CeOperation.IADD, 3, 5, small.mdh(), 96, p.cq[0])),
        "post.resultOffset + 24 must be <= 88 (the registration's length) but was 96 + 24");
    refused(() -> nic.postCollective(CePost.of(1, 0, 0, CeOperation.IADD, 3, 5, mdh, 4096 - 16, p.cq[0])),
        "post.resultOffset must be a multiple of 32 (the 24-byte result is written as one aligned block; Cray's"
            + " ce_pmi_example.c aligns it to 32 bytes, the header states no rule) but was 4080");
    refused(() -> nic.postCollective(CePost.of(1, 0, 0, CeOperation.IADD, 3, 5, mdh, Long.MAX_VALUE - 31,
        p.cq[0])), "post.resultOffset + 24 must be <= 4096 (the registration's length) but was 9223372036854775776"
            + " + 24");
    refused(() -> nic.postCollective(CePost.of(1, 0, 1, CeOperation.IADD, 3, 5, mdh, 0, p.cq[0])),
        "post.child must be the index of a PE child of channel 0 (it has 2 children) but was 1");
    refused(() -> nic.postCollective(CePost.of(1, 0, 2, CeOperation.IADD, 3, 5, mdh, 0, p.cq[0])),
        "post.child must be the index of a PE child of channel 0 (it has 2 children) but was 2");
    refused(() -> nic.postCollective(CePost.of(1, 0, 0, CeOperation.IADD, 3, 5, mdh, 0, 1)),
        "post.completionQueue must name a CQ of node 0 (handles 0..0 exist) but was 1");
    assertThat(p.counters()).isEqualTo(before);
    assertThat(p.c.read(0, mdh, 0, 4096)).containsOnly(0);
    // the buffer at the end of the small registration is a good one
    p.c.nics[0].postCollective(CePost.of(100, 0, 0, CeOperation.IADD, 3, 5, small.mdh(), 64, p.cq[0]));
    p.c.nics[1].postCollective(p.post(1, 4, 5));
    p.c.run();
    assertThat(nic.collectiveResult(small.mdh(), 64)).isEqualTo(new CeResult(Status.OK, 0, 5, 7, 0));
    assertThat(p.c.nics[0].createCollectiveChannel()).as("no channel was taken").isEqualTo(1);
  }

  /**
   * A result buffer of another protection domain than the NIC's is refused at post and changes nothing (stop 75):
   * it was accepted, the contribution counted in every result of the tree, and this process's own result then
   * faulted.
   */
  @Test
  void aResultBufferOfAnotherProtectionDomainIsRefusedAtPost() {
    Pair p = new Pair();
    Nic nic = p.c.nics[0];
    MemoryDomainDescriptor foreign = nic.register(MemoryRegistration.of(0x40_0000L, 4096, 1, 999));
    String before = p.counters();
    refused(() -> nic.postCollective(CePost.of(1, 0, 0, CeOperation.IADD, 3, 5, foreign.mdh(), 0, p.cq[0])),
        "post.resultMdh " + foreign.mdh() + " belongs to protection domain (ptag 1, pkey 999) but node 0's NIC"
            + " posts as (1, 1)");
    assertThat(p.counters()).isEqualTo(before);
    assertThat(p.reduce(5)).containsExactly(freshTimes());
  }

  /**
   * A CQ a registration names for remote events is refused for a collective post's own event and changes nothing
   * (stop 75): it was accepted, giving the queue local and remote events, which uGNI rules out ({@code GNI_CqCreate}
   * [S5]).
   */
  @Test
  void aQueueARegistrationNamesForRemoteEventsIsRefusedAtPost() {
    Pair p = new Pair();
    Nic nic = p.c.nics[0];
    int remoteCq = nic.createCompletionQueue(16).handle();
    nic.register(MemoryRegistration.of(0x80_0000L, 4096, 1, 1).withCompletionQueue(remoteCq));
    String before = p.counters();
    refused(() -> nic.postCollective(CePost.of(1, 0, 0, CeOperation.IADD, 3, 5, p.buf[0].mdh(), 0, remoteCq)),
        "post.completionQueue " + remoteCq + " of node 0 takes remote events (a memory registration named it) and a"
            + " CQ takes local or remote events, not both (GNI_CqCreate [S5]): name another CQ for the post's events");
    assertThat(p.counters()).isEqualTo(before);
    assertThat(p.reduce(5)).containsExactly(freshTimes());
  }

  @Test
  void aCompletionQueueOnANodeWithoutOneIsRefusedSayingItHasNone() {
    Cluster c = new Cluster(1, NicConfig.defaults());
    Nic nic = c.nics[0];
    nic.configureCollectiveChannel(nic.createCollectiveChannel(), CeChannelConfig.of(List.of(CeChild.pe()), null));
    MemoryDomainDescriptor b = c.register(0, 4096);
    refused(() -> nic.postCollective(CePost.of(1, 0, 0, CeOperation.AND, 1, 0, b.mdh(), 0, 0)),
        "post.completionQueue must name a CQ of node 0 (it has none) but was 0");
    assertThat(nic.statistics().collectivePosts()).isZero();
  }

  @Test
  void theRefusedPostsLeaveTheNextReductionsTimesAsOnAFreshNic() {
    Pair p = new Pair();
    Nic nic = p.c.nics[0];
    for (int i = 0; i < 50; i++) {
      assertThatThrownBy(() -> nic.postCollective(CePost.of(1, 0, 1, CeOperation.IADD, 3, 5, p.buf[0].mdh(), 0,
          p.cq[0]))).isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(p.reduce(5)).containsExactly(freshTimes());
  }

  @Test
  void aChannelOf32ProcessesTakesAPostFromEach() {
    Cluster c = new Cluster(1, NicConfig.defaults());
    Nic nic = c.nics[0];
    List<CeChild> pes = new ArrayList<>();
    for (int i = 0; i < CeChannelConfig.MAX_CHILDREN; i++) {
      pes.add(CeChild.pe());
    }
    int ch = nic.createCollectiveChannel();
    nic.configureCollectiveChannel(ch, CeChannelConfig.of(pes, null));
    MemoryDomainDescriptor b = c.register(0, 32 * 32);
    for (int i = 0; i < 32; i++) {
      nic.postCollective(CePost.of(i, ch, i, CeOperation.IMAX_GIDX, i % 5, 1, b.mdh(), 32L * i, Post.NO_CQ)
          .withSecondOperand(i));
    }
    c.run();
    for (int i = 0; i < 32; i++) {
      assertThat(nic.collectiveResult(b.mdh(), 32L * i)).isEqualTo(new CeResult(Status.OK, 0, 1, 4, 29));
    }
    assertThat(c.events).hasSize(32).allSatisfy(e -> assertThat(e.status()).isEqualTo(Status.OK));
    assertThat(nic.statistics().collectiveReductions()).isEqualTo(1);
  }

  @Test
  void aResultBufferDeregisteredWhileTheReductionRunsIsAnErrorCompletionNotAnException() {
    Pair p = new Pair();
    p.c.nics[0].postCollective(p.post(0, 3, 5));
    p.c.nics[0].deregister(p.buf[0].mdh());
    p.c.nics[1].postCollective(p.post(1, 4, 5));
    p.c.run();
    assertThat(p.c.events(0)).extracting(CompletionEvent::status).containsExactly(Status.INVALID_MDH);
    assertThat(p.c.events(1)).extracting(CompletionEvent::status).containsExactly(Status.OK);
    assertThat(p.c.nics[0].statistics().collectiveFaults()).isEqualTo(1);
    assertThat(p.c.nics[1].collectiveResult(p.buf[1].mdh(), 0)).isEqualTo(new CeResult(Status.OK, 0, 5, 7, 0));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // CeChild, CeParent, CeChannelConfig and configureCollectiveChannel

  @Test
  void aChildOrParentOutsideItsFieldsIsRefusedWhenMade() {
    refused(() -> CeChild.channel(1, 4), "channel must be in [0, 3] but was 4");
    refused(() -> CeChild.channel(1, -1), "channel must be in [0, 3] but was -1");
    refused(() -> new CeChild(null, -1, -1), "kind must not be null");
    refused(() -> new CeChild(CeChild.Kind.PE, 0, 0), "a PE child has no node or channel (-1) but had 0 and 0");
    refused(() -> CeChild.channel(-1, 0), "node must be in [0, 262143] (18 bits) but was -1");
    refused(() -> CeChild.channel(1 << 18, 0), "node must be in [0, 262143] (18 bits) but was 262144");
    refused(() -> new CeParent(-1, 0, 0), "parent.node must be in [0, 262143] (18 bits) but was -1");
    refused(() -> new CeParent(1 << 18, 0, 0), "parent.node must be in [0, 262143] (18 bits) but was 262144");
    refused(() -> new CeParent(1, 0, 32), "parent.childIndex must be in [0, 31] but was 32");
    refused(() -> new CeParent(1, 0, -1), "parent.childIndex must be in [0, 31] but was -1");
    refused(() -> new CeParent(1, 4, 0), "parent.channel must be in [0, 3] but was 4");
    refused(() -> new CeParent(1, -1, 0), "parent.channel must be in [0, 3] but was -1");
  }

  @Test
  void aChannelConfigNeedsOneTo32ChildrenEachChannelOnce() {
    refused(() -> CeChannelConfig.of(null, null), "children must not be null");
    refused(() -> CeChannelConfig.of(List.of(), null), "children must hold 1 to 32 children but held 0");
    refused(() -> CeChannelConfig.of(Arrays.asList(CeChild.pe(), null), null), "children[1] must not be null");
    refused(() -> CeChannelConfig.of(List.of(CeChild.channel(1, 0), CeChild.pe(), CeChild.channel(1, 0)), null),
        "children[2] repeats vce(1:0)");
    CeChannelConfig ok = CeChannelConfig.of(List.of(CeChild.pe(), CeChild.pe(), CeChild.channel(1, 0)), null);
    refused(() -> ok.withRounding(null), "rounding must not be null");
    refused(() -> ok.withDeliveryMode(null), "deliveryMode must not be null");
    refused(() -> new CeChannelConfig(ok.children(), null, null, DeliveryMode.ADAPTIVE_0), "rounding must not be null");
    refused(() -> new CeChannelConfig(ok.children(), null, CeRounding.UP, null), "deliveryMode must not be null");
    // the list is copied: changing the caller's list afterwards changes nothing
    List<CeChild> mine = new ArrayList<>(List.of(CeChild.pe()));
    CeChannelConfig copy = CeChannelConfig.of(mine, null);
    mine.add(CeChild.pe());
    assertThat(copy.children()).hasSize(1);
  }

  @Test
  void configureRefusesNodesOutsideTheFabricAndKeepsTheOldConfiguration() {
    Pair p = new Pair();
    Nic nic = p.c.nics[1];
    String before = p.counters();
    refused(() -> nic.configureCollectiveChannel(0, CeChannelConfig.of(List.of(CeChild.pe()), new CeParent(2, 0, 1))),
        "config.parent.node must be in [0, 1] but was 2");
    refused(() -> nic.configureCollectiveChannel(0, CeChannelConfig.of(List.of(CeChild.pe(), CeChild.channel(2, 0)),
        new CeParent(0, 0, 1))), "config.children[1].node must be in [0, 1] but was 2");
    for (int node : new int[] {-1, 1 << 18}) {
      refused(() -> nic.configureCollectiveChannel(0, CeChannelConfig.of(List.of(CeChild.pe()),
          new CeParent(node, 0, 1))), "parent.node must be in [0, 262143] (18 bits) but was " + node);
      refused(() -> nic.configureCollectiveChannel(0, CeChannelConfig.of(List.of(CeChild.pe(),
          CeChild.channel(node, 0)), new CeParent(0, 0, 1))), "node must be in [0, 262143] (18 bits) but was " + node);
    }
    refused(() -> nic.configureCollectiveChannel(0, CeChannelConfig.of(List.of(CeChild.channel(1, 0)), null)),
        "config.children[0] must not be the channel itself (node 1, channel 0)");
    refused(() -> nic.configureCollectiveChannel(0, null), "config must not be null");
    assertThat(p.counters()).isEqualTo(before);
    assertThat(p.reduce(5)).as("the old configuration still holds").containsExactly(freshTimes());
  }

  // ---------------------------------------------------------------------------------------------------------------
  // A channel's life: create, destroy

  @Test
  void aChannelNumberIsRefusedInTheSameWordsBeforeAndAfterTheNicBuildsItsEngine() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    Nic fresh = c.nics[0];
    Nic used = c.nics[1];
    assertThat(used.createCollectiveChannel()).isZero();
    CeChannelConfig cfg = CeChannelConfig.of(List.of(CeChild.pe()), null);
    for (Nic nic : c.nics) {
      int node = nic.nodeId();
      for (int ch : new int[] {-1, 4, Integer.MIN_VALUE}) {
        refused(() -> nic.destroyCollectiveChannel(ch), "channel must be in [0, 3] but was " + ch);
        refused(() -> nic.configureCollectiveChannel(ch, cfg), "channel must be in [0, 3] but was " + ch);
      }
      refused(() -> nic.destroyCollectiveChannel(1),
          "channel 1 of node " + node + " was not created (or was destroyed)");
      refused(() -> nic.collectiveReductionInProgress(1),
          "channel 1 of node " + node + " was not created (or was destroyed)");
      refused(() -> nic.collectiveReductionInProgress(4), "channel must be in [0, 3] but was 4");
      refused(() -> nic.configureCollectiveChannel(1, cfg),
          "channel 1 of node " + node + " was not created (or was destroyed)");
      refused(() -> nic.configureCollectiveChannel(1, null), "config must not be null");
      refused(() -> nic.configureCollectiveChannel(-1, null), "config must not be null");
      MemoryDomainDescriptor b = c.register(node, 4096);
      refused(() -> nic.postCollective(CePost.of(1, 1, 0, CeOperation.AND, 1, 0, b.mdh(), 0, Post.NO_CQ)),
          "post.channel 1 of node " + node + " was not created (or was destroyed)");
      refused(() -> nic.postCollective(null), "post must not be null");
    }
    assertThat(fresh.statistics().toString()).isEqualTo(new Cluster(1, NicConfig.defaults()).nics[0].statistics()
        .toString());
    assertThat(fresh.hostLink()).as("a refusal does not build the engine of an unused NIC").isNull();
    assertThat(fresh.createCollectiveChannel()).isZero();
    assertThat(used.createCollectiveChannel()).isEqualTo(1);
  }

  /** Withholds the translations of collective results (24-byte network-response writes) until {@link #release}. */
  private static final class HoldResults extends DelegatingTranslation {
    private final List<Runnable> held = new java.util.ArrayList<>();

    HoldResults(AddressTranslation inner) {
      super(inner);
    }

    @Override
    public void translate(TranslationClient client, int mdh, long offset, int length, AccessKind access, int ptag,
        int pkey, TranslationListener listener, Object ref, long arg) {
      if (client == TranslationClient.NETWORK_RESPONSE && length == CePost.RESULT_BYTES) {
        held.add(() -> inner.translate(client, mdh, offset, length, access, ptag, pkey, listener, ref, arg));
      } else {
        inner.translate(client, mdh, offset, length, access, ptag, pkey, listener, ref, arg);
      }
    }

    void release() {
      held.forEach(Runnable::run);
      held.clear();
    }
  }

  @Test
  void aChannelStaysInProgressUntilItsPostsResultBufferIsTranslated() {
    // The root distributes the result and then translates each local post's result buffer, which takes time: until
    // stop 72 the post counted as done at the distribution, so the channel read as idle (and could be destroyed, its
    // job's buffer deregistered) while the result's translation was still under way.
    HoldResults[] t = new HoldResults[1];
    Cluster c = new Cluster(1, NicConfig.defaults(), loop -> new IdealFabric(loop, 1, 0, Double.POSITIVE_INFINITY),
        (m, l) -> t[0] = new HoldResults(new FlatTranslation(m, l, 0)));
    Nic nic = c.nics[0];
    nic.configureCollectiveChannel(nic.createCollectiveChannel(), CeChannelConfig.of(List.of(CeChild.pe()), null));
    MemoryDomainDescriptor buf = c.register(0, 4096);
    nic.postCollective(CePost.of(1, 0, 0, CeOperation.IADD, 3, 5, buf.mdh(), 0, Post.NO_CQ));
    c.run();
    assertThat(nic.statistics().collectiveReductions()).as("the reduction completed at the root").isEqualTo(1);
    assertThat(nic.collectiveReductionInProgress(0)).as("its result's translation withheld").isTrue();
    refused(() -> nic.destroyCollectiveChannel(0), IllegalStateException.class,
        "channel 0 of node 0 has a reduction in progress and cannot be destroyed");
    t[0].release();
    c.run();
    assertThat(nic.collectiveReductionInProgress(0)).isFalse();
    assertThat(nic.collectiveResult(buf.mdh(), 0)).isEqualTo(new CeResult(Status.OK, 0, 5, 3, 0));
    nic.destroyCollectiveChannel(0);
  }

  @Test
  void aChannelWithAReductionInProgressCannotBeDestroyedOrReconfiguredButCanOnceItCompletes() {
    Pair p = new Pair();
    CeChannelConfig again = CeChannelConfig.of(List.of(CeChild.pe()), new CeParent(0, 0, 1));
    assertThat(p.c.nics[1].collectiveReductionInProgress(0)).isFalse();
    p.c.nics[1].postCollective(p.post(1, 4, 5));
    // node 1's post is booked but has not reached its NIC
    assertThat(p.c.nics[1].collectiveReductionInProgress(0)).isTrue();
    refused(() -> p.c.nics[1].destroyCollectiveChannel(0), IllegalStateException.class,
        "channel 0 of node 1 has a reduction in progress and cannot be destroyed");
    refused(() -> p.c.nics[1].configureCollectiveChannel(0, again), IllegalStateException.class,
        "channel 0 of node 1 has a reduction in progress and cannot be configured again");
    p.c.run();
    // node 1 has sent its contribution up and waits for the result; node 0 holds it
    for (Nic nic : p.c.nics) {
      assertThat(nic.collectiveReductionInProgress(0)).isTrue();
      refused(() -> nic.destroyCollectiveChannel(0), IllegalStateException.class,
          "channel 0 of node " + nic.nodeId() + " has a reduction in progress and cannot be destroyed");
    }
    refused(() -> p.c.nics[0].configureCollectiveChannel(0, CeChannelConfig.of(List.of(CeChild.pe()), null)),
        IllegalStateException.class, "channel 0 of node 0 has a reduction in progress and cannot be configured again");
    assertThat(p.c.events).isEmpty();
    p.c.nics[0].postCollective(p.post(0, 3, 5));
    p.c.run();
    assertThat(p.c.events).hasSize(2).allSatisfy(e -> assertThat(e.status()).isEqualTo(Status.OK));
    assertThat(p.c.nics[0].collectiveResult(p.buf[0].mdh(), 0)).isEqualTo(new CeResult(Status.OK, 0, 5, 7, 0));
    assertThat(p.c.nics[1].collectiveResult(p.buf[1].mdh(), 0)).isEqualTo(new CeResult(Status.OK, 0, 5, 7, 0));
    // the reduction is over: both channels can go, once
    for (Nic nic : p.c.nics) {
      assertThat(nic.collectiveReductionInProgress(0)).isFalse();
      nic.destroyCollectiveChannel(0);
      refused(() -> nic.collectiveReductionInProgress(0), "channel 0 of node " + nic.nodeId()
          + " was not created (or was destroyed)");
      refused(() -> nic.destroyCollectiveChannel(0), "channel 0 of node " + nic.nodeId()
          + " was not created (or was destroyed)");
      refused(() -> nic.postCollective(CePost.of(1, 0, 0, CeOperation.IADD, 1, 5, 0, 0, Post.NO_CQ)),
          "post.channel 0 of node " + nic.nodeId() + " was not created (or was destroyed)");
      refused(() -> nic.configureCollectiveChannel(0, again), "channel 0 of node " + nic.nodeId()
          + " was not created (or was destroyed)");
      assertThat(nic.statistics().collectivePosts()).isEqualTo(1);
      assertThat(nic.createCollectiveChannel()).as("the destroyed channel is the lowest free one").isZero();
    }
  }

  @Test
  void aSecondPostOfOneProcessIsAnErrorCompletionAndTheChannelCanStillBeDestroyedAfterwards() {
    Pair p = new Pair();
    p.c.nics[0].postCollective(p.post(0, 3, 5));
    p.c.nics[0].postCollective(p.post(0, 3, 5));
    p.c.run();
    assertThat(p.c.events(0)).extracting(CompletionEvent::status).containsExactly(Status.ILLEGAL_OPERATION);
    p.c.nics[1].postCollective(p.post(1, 4, 5));
    p.c.run();
    assertThat(p.c.events(0)).extracting(CompletionEvent::status)
        .containsExactly(Status.ILLEGAL_OPERATION, Status.OK);
    p.c.nics[0].destroyCollectiveChannel(0);
    p.c.nics[1].destroyCollectiveChannel(0);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // CeResult

  @Test
  void decodeRefusesAControlWordWithBitsOutsideItsFields() {
    refused(() -> CeResult.decode(1L << 12, 0, 0), "control has bits set outside its fields: 0x1000");
    refused(() -> CeResult.decode(0xF000L, 0, 0), "control has bits set outside its fields: 0xf000");
    refused(() -> CeResult.decode(1L << 56, 0, 0), "control has bits set outside its fields: 0x100000000000000");
    refused(() -> CeResult.decode(1L << 63, 0, 0), "control has bits set outside its fields: 0x8000000000000000");
    refused(() -> CeResult.decode(-1L, 0, 0),
        "control's status field must be 0 (OK) or 1 + a fault's Status ordinal, in [2, 9], but was 255");
    refused(() -> CeResult.decode(10, 0, 0),
        "control's status field must be 0 (OK) or 1 + a fault's Status ordinal, in [2, 9], but was 10");
    // 1 would be OK written the way a fault is: control() never writes it, so it is not a result
    refused(() -> CeResult.decode(1, 0, 0),
        "control's status field must be 0 (OK) or 1 + a fault's Status ordinal, in [2, 9], but was 1");
    assertThat(CeResult.decode(2, 0, 0).status()).isEqualTo(Status.values()[1]);
    refused(() -> new CeResult(null, 0, 0, 0, 0), "status must not be null");
    refused(() -> new CeResult(Status.OK, 0x10, 0, 0, 0),
        "flags must be in [0x0, 0xf] (GNI_CE_FPE_* bits) but was 0x10");
    refused(() -> new CeResult(Status.OK, 0, 1L << 40, 0, 0),
        "reductionId must be in [0, 2^40 - 1] but was 1099511627776");
    refused(() -> new CeResult(Status.OK, 0, -1, 0, 0), "reductionId must be in [0, 2^40 - 1] but was -1");
  }

  @Test
  void collectiveResultReadsWhatTheBytesHoldOrRefusesInOneLineNamingWhere() {
    Cluster c = new Cluster(1, NicConfig.defaults());
    Nic nic = c.nics[0];
    MemoryDomainDescriptor b = c.register(0, 4096);
    int mdh = b.mdh();
    String before = nic.statistics().toString();
    // a buffer the NIC has not written: zeros are the control word of an OK result of reduction 0
    assertThat(nic.collectiveResult(mdh, 0)).isEqualTo(new CeResult(Status.OK, 0, 0, 0, 0));
    assertThat(nic.collectiveResult(mdh, 4096 - 24)).isEqualTo(new CeResult(Status.OK, 0, 0, 0, 0));
    // the host's own bytes, which are no control word
    c.write(0, mdh, 128, new byte[] {0, 2, 3, 4, 5, 6, 7, 8});
    refused(() -> nic.collectiveResult(mdh, 128), "mdh " + mdh + " offset 128 of node 0 does not hold a CE result:"
        + " control has bits set outside its fields: 0x807060504030200");
    c.write(0, mdh, 160, new byte[] {(byte) 0x80});
    refused(() -> nic.collectiveResult(mdh, 160), "mdh " + mdh + " offset 160 of node 0 does not hold a CE result:"
        + " control's status field must be 0 (OK) or 1 + a fault's Status ordinal, in [2, 9], but was 128");
    refused(() -> nic.collectiveResult(mdh, -32), "offset must be >= 0 but was -32");
    refused(() -> nic.collectiveResult(mdh, Long.MIN_VALUE), "offset must be >= 0 but was -9223372036854775808");
    refused(() -> nic.collectiveResult(mdh, 4096 - 23),
        "offset + 24 must be <= 4096 (the registration's length) but was 4073 + 24");
    refused(() -> nic.collectiveResult(mdh, Long.MAX_VALUE),
        "offset + 24 must be <= 4096 (the registration's length) but was 9223372036854775807 + 24");
    refused(() -> nic.collectiveResult(9, 0), "mdh 9 offset 0 of node 0 cannot be read as a CE result: INVALID_MDH");
    refused(() -> nic.collectiveResult(-1, 0), "mdh must be in [0, 4095] (12 bits) but was -1");
    refused(() -> nic.collectiveResult(4096, 0), "mdh must be in [0, 4095] (12 bits) but was 4096");
    MemoryDomainDescriptor gone = c.register(0, 4096);
    nic.deregister(gone.mdh());
    refused(() -> nic.collectiveResult(gone.mdh(), 0),
        "mdh " + gone.mdh() + " offset 0 of node 0 cannot be read as a CE result: INVALID_MDH");
    assertThat(nic.statistics().toString()).isEqualTo(before);
    assertThat(c.read(0, mdh, 128, 8)).containsExactly(0, 2, 3, 4, 5, 6, 7, 8);
    assertThat(c.events).isEmpty();
  }

  @Test
  void everyControlWordTheNicWritesDecodesToItsResult() {
    for (Status s : Status.values()) {
      for (int fpe = 0; fpe <= 0xF; fpe++) {
        for (long id : new long[] {0, 1, Packet.MAX_REDUCTION_ID}) {
          CeResult r = new CeResult(s, fpe, id, -1, Long.MIN_VALUE);
          assertThat(CeResult.decode(r.control(), -1, Long.MIN_VALUE)).isEqualTo(r);
        }
      }
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // CeTree

  /** Asserts that no NIC of a cluster has a channel taken: the next one each gives is 0. */
  private static void noChannelTaken(Cluster c) {
    for (Nic n : c.nics) {
      assertThat(n.createCollectiveChannel()).as("node %s's next channel", n.nodeId()).isZero();
      n.destroyCollectiveChannel(0);
    }
  }

  @Test
  void wireRefusesBadArgumentsBeforeTakingAnyChannel() {
    Cluster c = new Cluster(4, NicConfig.defaults());
    List<Nic> two = List.of(c.nics[0], c.nics[1]);
    DeliveryMode mode = DeliveryMode.ADAPTIVE_0;
    refused(() -> CeTree.wire(null, new int[] {1}, 2, mode), "nics must not be null");
    refused(() -> CeTree.wire(two, null, 2, mode), "processes must not be null");
    refused(() -> CeTree.wire(two, new int[] {1, 1}, 2, null), "mode must not be null");
    refused(() -> CeTree.wire(Arrays.asList(c.nics[0], null), new int[] {1, 1}, 2, mode), "nics[1] must not be null");
    refused(() -> CeTree.wire(List.of(), new int[0], 2, mode), "nics must hold at least one NIC but held 0");
    refused(() -> CeTree.wire(two, new int[] {1}, 2, mode), "nodes (2) and processes (1) must have one entry a NIC");
    refused(() -> CeTree.wire(two, new int[] {1, 1, 1}, 2, mode),
        "nodes (2) and processes (3) must have one entry a NIC");
    refused(() -> CeTree.wire(two, new int[] {1, 1}, 0, mode), "radix must be in [1, 31] but was 0");
    refused(() -> CeTree.wire(two, new int[] {1, 1}, 32, mode), "radix must be in [1, 31] but was 32");
    refused(() -> CeTree.wire(two, new int[] {1, 0}, 2, mode), "processes[1] must be at least 1 but was 0");
    refused(() -> CeTree.wire(two, new int[] {-3, 1}, 2, mode), "processes[0] must be at least 1 but was -3");
    refused(() -> CeTree.wire(List.of(c.nics[2], c.nics[3], c.nics[2]), new int[] {1, 1, 1}, 2, mode),
        "nics[2] is nics[0] again (node 2): a tree takes one channel on each NIC");
    refused(() -> CeTree.wire(List.of(c.nics[1], c.nics[1], c.nics[1], c.nics[1], c.nics[1]), new int[] {1, 1, 1, 1,
        1}, 2, mode), "nics[1] is nics[0] again (node 1): a tree takes one channel on each NIC");
    // a count that overflowed an int when the child channels were added to it
    refused(() -> CeTree.wire(two, new int[] {Integer.MAX_VALUE, 1}, 2, mode), "the collective engine needs each"
        + " node's processes plus its child channels (radix 2) to be at most 32, the children of a CE channel, but"
        + " node 0 has 2147483647 processes and 1 child channels");
    noChannelTaken(c);
    for (Nic n : c.nics) {
      assertThat(n.statistics().collectivePosts()).isZero();
    }
  }

  @Test
  void checkRefusesNullArgumentsAndCountsThatOverflow() {
    refused(() -> CeTree.check(null, new int[] {1}, 2, "r"), "nodes must not be null");
    refused(() -> CeTree.check(new int[] {0}, null, 2, "r"), "processes must not be null");
    refused(() -> CeTree.check(new int[] {0}, new int[] {1}, 2, null), "setting must not be null");
    refused(() -> CeTree.check(new int[] {0, 1, 2}, new int[] {1, Integer.MAX_VALUE, 1}, 1, "r"), "the collective"
        + " engine needs each node's processes plus its child channels (r 1) to be at most 32, the children of a CE"
        + " channel, but node 1 has 2147483647 processes and 1 child channels");
    CeTree.check(new int[] {0, 1}, new int[] {31, 32}, 1, "r");
    CeTree.check(new int[0], new int[0], 1, "r");
  }

  @Test
  void aWireThatANicRefusesHalfwayFreesTheChannelsItTook() {
    Cluster c = new Cluster(3, NicConfig.defaults());
    for (int i = 0; i < 4; i++) {
      c.nics[1].createCollectiveChannel();
    }
    refused(() -> CeTree.wire(List.of(c.nics[0], c.nics[2], c.nics[1]), new int[] {1, 1, 1}, 2,
        DeliveryMode.ADAPTIVE_0), IllegalStateException.class,
        "node 1 has no free collective-engine channel: all 4 are in use");
    for (int i = 0; i < 4; i++) {
      c.nics[1].destroyCollectiveChannel(i);
    }
    noChannelTaken(c);
    // NICs of two systems: the second's fabric has no node 3, so its configuration is refused after both were taken
    Cluster big = new Cluster(4, NicConfig.defaults());
    refused(() -> CeTree.wire(List.of(big.nics[3], c.nics[0]), new int[] {1, 1}, 2, DeliveryMode.ADAPTIVE_0),
        "config.parent.node must be in [0, 2] but was 3");
    noChannelTaken(big);
    noChannelTaken(c);
    // and the NICs still wire a good tree
    int[] ch = CeTree.wire(List.of(c.nics[0], c.nics[1], c.nics[2]), new int[] {1, 2, 1}, 2, DeliveryMode.ADAPTIVE_0);
    assertThat(ch).containsExactly(0, 0, 0);
  }

  @Test
  void aTreeOfOneNicIsItsOwnRoot() {
    Cluster c = new Cluster(1, NicConfig.defaults());
    int[] ch = CeTree.wire(List.of(c.nics[0]), new int[] {2}, 1, DeliveryMode.ADAPTIVE_0);
    MemoryDomainDescriptor b = c.register(0, 4096);
    for (int p = 0; p < 2; p++) {
      c.nics[0].postCollective(CePost.of(p, ch[0], p, CeOperation.XOR, 5 + p, 1, b.mdh(), 32L * p, Post.NO_CQ));
    }
    c.run();
    assertThat(c.nics[0].collectiveResult(b.mdh(), 32)).isEqualTo(new CeResult(Status.OK, 0, 1, 5 ^ 6, 0));
    assertThat(c.nics[0].statistics().collectivePacketsSent()).isZero();
  }

  /**
   * A reduction that can never complete (node 1's process never posts): destroying the channel is refused, and so is
   * abandoning it while node 0's post is still on its way to the engine; once the post waits on the engine, abandoning
   * frees the channel, writes no event, and the queue no longer counts the post (stop 74: a failed job's close).
   */
  @Test
  void aReductionThatCanNeverCompleteIsAbandonedOnceItsPostsWaitOnTheEngine() {
    Pair p = new Pair();
    p.c.nics[0].postCollective(p.post(0, 3, 1));
    assertThatThrownBy(() -> p.c.nics[0].abandonCollectiveChannel(0)).isInstanceOf(IllegalStateException.class)
        .hasMessage("channel 0 of node 0 has a post on its way to the engine or a result being written (1 posts"
            + " unfinished, 0 waiting for a result): run the simulation on until nothing is pending");
    p.c.run();
    assertThat(p.c.nics[0].collectiveReductionInProgress(0)).isTrue();
    assertThatThrownBy(() -> p.c.nics[0].destroyCollectiveChannel(0)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> p.c.nics[0].destroyCompletionQueue(p.cq[0])).as("the queue the post will write to")
        .isInstanceOf(IllegalStateException.class);
    int events = p.c.events.size();

    p.c.nics[0].abandonCollectiveChannel(0);

    assertThatThrownBy(() -> p.c.nics[0].collectiveReductionInProgress(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("channel 0 of node 0 was not created (or was destroyed)");
    p.c.nics[0].destroyCompletionQueue(p.cq[0]);
    p.c.run();
    assertThat(p.c.events).hasSize(events);
    assertThat(p.c.nics[0].createCollectiveChannel()).as("the channel is free again").isZero();
    assertThatThrownBy(() -> p.c.nics[1].abandonCollectiveChannel(2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("channel 2 of node 1 was not created (or was destroyed)");
  }
}
