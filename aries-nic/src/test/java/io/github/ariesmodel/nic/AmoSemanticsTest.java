package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.core.Status;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * AMO semantics end to end through the NIC that other tests leave out: faults at the target (a deregistered handle,
 * a read-only registration) as error completions that write nothing, with and without the AMO cache; the two 32-bit
 * halves of one cached word updated by many nodes at once (exact sums, every old value fetched once, and under the
 * idle write-back no REMOTE event visible before the value it reports); and, under the {@code eviction} what-if, the
 * REMOTE events that are visible before the value (as {@link AmoWriteBack#EVICTION} says).
 */
class AmoSemanticsTest {

  private static long pa(Cluster c, int node, int mdh, long offset) {
    return c.translation[node].translateNow(mdh, offset, 8, AccessKind.READ, Cluster.PTAG, Cluster.PKEY)
        .physicalAddress();
  }

  @Test
  void anAmoOnADeregisteredOrReadOnlyRegionFailsAndWritesNothing() {
    for (AmoCacheConfig cache : new AmoCacheConfig[] {AmoCacheConfig.off(), AmoCacheConfig.defaults()}) {
      Cluster c = new Cluster(2, NicConfig.defaults().withAmoCache(cache));
      MemoryDomainDescriptor gone = c.register(0, 4096);
      MemoryDomainDescriptor readOnly = c.nics[0].register(
          MemoryRegistration.of(0x20_0000L, 4096, Cluster.PTAG, Cluster.PKEY).withWritable(false));
      long goneWord = pa(c, 0, gone.mdh(), 0);
      long readOnlyWord = pa(c, 0, readOnly.mdh(), 8);
      c.memory[0].writeLong(goneWord, 5);
      c.memory[0].writeLong(readOnlyWord, 5);
      c.nics[0].deregister(gone.mdh());
      c.nics[1].post(Post.amo(1, AmoOperation.parse("FIADD_C"), NetworkAddress.of(0, gone.mdh(), 0), 7, 0));
      c.nics[1].post(Post.amo(2, AmoOperation.parse("FIADD_C"), NetworkAddress.of(0, readOnly.mdh(), 8), 7, 0));
      c.nics[1].post(Post.amo(3, AmoOperation.parse("FIADD"), NetworkAddress.of(0, readOnly.mdh(), 8), 7, 0));
      c.nics[1].post(Post.amo(4, AmoOperation.parse("SWAP_S"), NetworkAddress.of(0, readOnly.mdh(), 12), 7, 0));
      c.run();

      List<CompletionEvent> global = c.events(1).stream().filter(e -> e.type() == CompletionType.GLOBAL).toList();
      assertThat(global).extracting(CompletionEvent::postId, CompletionEvent::status).as("cache %s", cache)
          .containsExactlyInAnyOrder(
              org.assertj.core.groups.Tuple.tuple(1L, Status.INVALID_MDH),
              org.assertj.core.groups.Tuple.tuple(2L, Status.NOT_WRITABLE),
              org.assertj.core.groups.Tuple.tuple(3L, Status.NOT_WRITABLE),
              org.assertj.core.groups.Tuple.tuple(4L, Status.NOT_WRITABLE));
      assertThat(global).extracting(CompletionEvent::userData).containsOnly(0L);
      assertThat(c.memory[0].readLong(goneWord)).isEqualTo(5);
      assertThat(c.memory[0].readLong(readOnlyWord)).isEqualTo(5);
      assertThat(c.nics[0].statistics().amosExecuted()).isZero();
    }
  }

  /**
   * Eight nodes add 1 to the two halves of one word, four to each half, 10 AMOs each, all cached and posted at once:
   * one chain on one AMO-cache entry. Returns the host memory word each REMOTE event saw, in event order.
   */
  private static List<Long> halvesChain(AmoWriteBack writeBack, List<Long> fetchedLow, List<Long> fetchedHigh,
      long[] finalWord) {
    Cluster c = new Cluster(9, NicConfig.defaults().withAmoCache(AmoCacheConfig.defaults().withWriteBack(writeBack)));
    CompletionQueue cq = c.nics[0].createCompletionQueue(1024);
    MemoryDomainDescriptor target = c.nics[0].register(
        MemoryRegistration.of(0x10_0000L, 4096, Cluster.PTAG, Cluster.PKEY).withCompletionQueue(cq.handle()));
    List<Long> seen = new ArrayList<>();
    c.nics[0].addCompletionProbe(e -> {
      if (e.type() == CompletionType.REMOTE) {
        seen.add(c.readLong(0, target.mdh(), 0)); // host memory, not the AMO cache
      }
    });
    AmoOperation add = AmoOperation.parse("FIADD_SC");
    for (int n = 1; n <= 8; n++) {
      for (int k = 0; k < 10; k++) {
        c.nics[n].post(Post.amo(k, add, NetworkAddress.of(0, target.mdh(), n % 2 == 0 ? 0 : 4), 1, 0)
            .withCompletion(Post.NO_CQ, Post.GLOBAL_EVENT | Post.REMOTE_EVENT));
      }
    }
    c.run();
    for (CompletionEvent e : c.events) {
      if (e.type() == CompletionType.GLOBAL) {
        assertThat(e.isError()).as("%s", e).isFalse();
        (e.node() % 2 == 0 ? fetchedLow : fetchedHigh).add(e.userData());
      }
    }
    c.nics[0].invalidateAmoCache();
    c.run();
    finalWord[0] = c.readLong(0, target.mdh(), 0);
    assertThat(c.nics[0].statistics().amoCacheMisses()).as("one fill for the word").isEqualTo(1);
    return seen;
  }

  @Test
  void manyNodesAddingToBothHalvesOfOneCachedWordGetExactSumsAndEventsAfterTheirValues() {
    List<Long> low = new ArrayList<>();
    List<Long> high = new ArrayList<>();
    long[] word = new long[1];
    List<Long> seen = halvesChain(AmoWriteBack.IDLE, low, high, word);

    assertThat(word[0]).isEqualTo(40L << 32 | 40L);
    // every old value of each half fetched exactly once: the adds took effect one at a time
    assertThat(low).containsExactlyInAnyOrderElementsOf(java.util.stream.LongStream.range(0, 40).boxed().toList());
    assertThat(high).containsExactlyInAnyOrderElementsOf(java.util.stream.LongStream.range(0, 40).boxed().toList());
    assertThat(seen).hasSize(80);
    for (int k = 0; k < seen.size(); k++) {
      long v = seen.get(k);
      assertThat((v & 0xFFFF_FFFFL) + (v >>> 32)).as("adds in host memory when REMOTE event %s was visible", k)
          .isGreaterThanOrEqualTo(k + 1);
    }
  }

  @Test
  void underTheEvictionWhatIfRemoteEventsAreVisibleBeforeTheValue() {
    List<Long> low = new ArrayList<>();
    List<Long> high = new ArrayList<>();
    long[] word = new long[1];
    List<Long> seen = halvesChain(AmoWriteBack.EVICTION, low, high, word);

    assertThat(word[0]).as("the invalidation writes the value back").isEqualTo(40L << 32 | 40L);
    assertThat(low).hasSize(40).doesNotHaveDuplicates();
    assertThat(high).hasSize(40).doesNotHaveDuplicates();
    assertThat(seen).as("no write-back before the invalidation: every event saw the old word").hasSize(80)
        .containsOnly(0L);
  }
}
