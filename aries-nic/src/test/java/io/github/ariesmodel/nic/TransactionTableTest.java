package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.packet.Packet;
import org.junit.jupiter.api.Test;

/** Tags, in-order admission, fences and BTE channels, driven without a Nic; responses are handed in by the test. */
class TransactionTableTest {

  private final StageRig rig = new StageRig(NicConfig.defaults().withRequestTags(2));
  private final MemoryDomainDescriptor local = rig.register(1 << 20, -1);

  private Post put(long id, long remoteOffset, long length) {
    return Post.put(id, local.mdh(), 0, NetworkAddress.of(1, 5, remoteOffset), length);
  }

  /** Answers every request the fabric has taken since {@code from} (ACKs, processed at once). */
  private int answerFrom(int from) {
    int n = rig.fabric.packets.size();
    for (int i = from; i < n; i++) {
      Packet req = rig.fabric.packets.get(i);
      rig.table.responseProcessed(rig.loop.now(), rig.table.find(RequestTag.tag(req.tag())));
    }
    return n;
  }

  @Test
  void postsBeyondTheTagsWaitInOrderAndStartAsTagsFree() {
    for (int i = 0; i < 5; i++) {
      rig.table.accept(put(i, 64L * i, 8));
    }
    assertThat(rig.table.unfinished()).isEqualTo(5);
    rig.loop.run();
    assertThat(rig.table.outstanding()).isEqualTo(2);
    assertThat(rig.table.queued()).isEqualTo(3);
    assertThat(rig.stats.postsDelayedForTags()).isEqualTo(1);
    assertThat(rig.fabric.packets).extracting(Packet::offset).containsExactly(0L, 64L);
    int seen = answerFrom(0);
    rig.loop.run();
    assertThat(rig.fabric.packets).extracting(Packet::offset).containsExactly(0L, 64L, 128L, 192L);
    answerFrom(seen);
    rig.loop.run();
    answerFrom(4);
    rig.loop.run();
    assertThat(rig.fabric.packets).extracting(Packet::offset).containsExactly(0L, 64L, 128L, 192L, 256L);
    assertThat(rig.table.unfinished()).isZero();
    assertThat(rig.table.outstanding()).isZero();
    assertThat(rig.stats.maxOutstanding()).isEqualTo(2);
    assertThat(rig.stats.transactionsCompleted()).isEqualTo(5);
  }

  @Test
  void aFencedPostHoldsBackLaterPostsUntilItCompletes() {
    rig.table.accept(put(1, 0, 8).withFence(true));
    rig.table.accept(put(2, 64, 8));
    rig.loop.run();
    assertThat(rig.table.outstanding()).isEqualTo(1);
    assertThat(rig.table.queued()).isEqualTo(1);
    answerFrom(0);
    rig.loop.run();
    assertThat(rig.fabric.packets).extracting(Packet::offset).containsExactly(0L, 64L);
  }

  @Test
  void bteChannelsTakePostsRoundRobinAndRunOneTransactionEach() {
    // 4 channels, 2 tags: two BTE PUTs run, the others wait on their channels (not in the admission queue).
    for (int i = 0; i < 4; i++) {
      rig.table.accept(put(i, 100_000L * i, 10_000).withEngine(Post.Engine.BTE));
    }
    rig.loop.run();
    assertThat(rig.table.outstanding()).isEqualTo(2);
    assertThat(rig.table.queued()).isEqualTo(2);
    Transaction first = rig.table.find(RequestTag.tag(rig.fabric.packets.get(0).tag()));
    assertThat(first.channel).isBetween(0, 1);
    assertThat(first.packets).isEqualTo(Transaction.packetCount(0, 10_000));
  }

  @Test
  void theFirstFaultIsTheStatusOfTheGlobalEvent() {
    java.util.List<io.github.ariesmodel.core.CompletionEvent> events = new java.util.ArrayList<>();
    rig.completions.listener(events::add);
    rig.table.accept(put(9, 0, 128));
    rig.loop.run();
    assertThat(rig.fabric.packets).hasSize(2);
    Transaction t = rig.table.find(RequestTag.tag(rig.fabric.packets.get(0).tag()));
    t.fail(Status.OUT_OF_BOUNDS);
    rig.table.responseProcessed(rig.loop.now(), t);
    t.fail(Status.PROTECTION_VIOLATION);
    rig.table.responseProcessed(rig.loop.now(), t);
    rig.loop.run();
    assertThat(events).singleElement().satisfies(e -> {
      assertThat(e.postId()).isEqualTo(9);
      assertThat(e.status()).isEqualTo(Status.OUT_OF_BOUNDS);
    });
    assertThat(rig.stats.transactionsFailed()).isEqualTo(1);
  }
}
