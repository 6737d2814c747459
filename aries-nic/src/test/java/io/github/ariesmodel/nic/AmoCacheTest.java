package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** The NIC's AMO cache: hits, misses, evictions, write-backs, coherence inside the NIC and its timing. */
class AmoCacheTest {

  private static final AmoOperation FADD_C = AmoOperation.parse("FIADD_C");
  private static final AmoOperation FADD = AmoOperation.parse("FIADD");
  private static final long HOST_READ_PS = NicTiming.defaults().hostReadLatencyPs();
  private static final long UNIT_PS = NicTiming.defaults().cyclePs() * NicTiming.defaults().amoUnitCycles();
  private static final long SLOT_PS = NicTiming.defaults().cyclePs() * NicTiming.defaults().packetCycles();

  /** Two nodes: node 1 posts AMOs to a 4 KB buffer at node 0. */
  private static final class Rig {
    final Cluster c;
    final MemoryDomainDescriptor target;
    final MemoryDomainDescriptor local;
    long nextId;

    Rig(AmoCacheConfig cache) {
      c = new Cluster(2, NicConfig.defaults().withAmoCache(cache));
      target = c.register(0, 4096);
      local = c.register(1, 4096);
    }

    /** Posts one AMO, runs to quiescence; returns its GLOBAL event. */
    CompletionEvent amo(AmoOperation op, long offset, long operand) {
      long id = nextId++;
      c.events.clear();
      c.nics[1].post(Post.amo(id, op, NetworkAddress.of(0, target.mdh(), offset), operand, 0));
      c.run();
      return c.events(1).stream().filter(e -> e.postId() == id).findFirst().orElseThrow();
    }

    /** Time from post to the GLOBAL event of one AMO posted now. */
    long latency(AmoOperation op, long offset) {
      long start = c.loop.now();
      return amo(op, offset, 1).timePs() - start;
    }

    long memory(long offset) {
      return c.readLong(0, target.mdh(), offset);
    }

    NicStatistics stats() {
      return c.nics[0].statistics();
    }
  }

  @Test
  void aRepeatedCachedAmoHitsAndAnswersAHostReadEarlier() {
    Rig r = new Rig(AmoCacheConfig.defaults());
    long uncached = r.latency(FADD, 0);
    long miss = r.latency(FADD_C, 8);
    long hit = r.latency(FADD_C, 8);

    assertThat(miss).isEqualTo(uncached);
    // the fill's read: its request (24 bytes of overhead) and its data (8 + 24) cross the host link at 16 GB/s, 1.5 and
    // 2 ns (since stop 68), then the read round trip
    assertThat(miss - hit).isEqualTo(HOST_READ_PS + 1_500 + 2_000);
    assertThat(r.stats().amoCacheMisses()).isEqualTo(1);
    assertThat(r.stats().amoCacheHits()).isEqualTo(1);
    assertThat(r.memory(8)).isEqualTo(2);
    // Each AMO went idle alone, so each was written back (the default write-back).
    assertThat(r.stats().amoCacheWriteBacks()).isEqualTo(2);
  }

  @Test
  void cachedAmosInFlightOnOneWordAreServedInOrderAtTheUnitsIssueRateAndWrittenBackOnce() {
    Rig r = new Rig(AmoCacheConfig.defaults());
    for (int k = 0; k < 4; k++) {
      r.c.nics[1].post(Post.amo(k, FADD_C, NetworkAddress.of(0, r.target.mdh(), 0), 1, 0));
    }
    r.c.run();

    long[] fetched = r.c.events(1).stream().sorted(java.util.Comparator.comparingLong(CompletionEvent::postId))
        .mapToLong(CompletionEvent::userData).toArray();
    long[] times = r.c.events(1).stream().sorted(java.util.Comparator.comparingLong(CompletionEvent::postId))
        .mapToLong(CompletionEvent::timePs).toArray();
    assertThat(fetched).containsExactly(0, 1, 2, 3);
    for (int k = 1; k < 4; k++) {
      // The unit starts one AMO on the word every two cycles [S1] (until stop 64, one per amoUnitCycles, 10 ns);
      // the answers then leave at the NIC's packet rate, one per 5 cycles, which binds here.
      assertThat(times[k] - times[k - 1]).isEqualTo(SLOT_PS).isLessThan(UNIT_PS);
    }
    assertThat(r.stats().amoCacheMisses()).isEqualTo(1);
    assertThat(r.stats().amoCacheHits()).isEqualTo(3);
    assertThat(r.stats().amoCacheWriteBacks()).isEqualTo(1);
    assertThat(r.memory(0)).isEqualTo(4);
  }

  /**
   * A chain of cached AMOs on one word (each starting before the previous answered) writes the word back once, when
   * the entry goes idle; each AMO's REMOTE event is visible only then, so a poller it wakes reads the value in host
   * memory (stop 64's review: the events were booked at each answer, before the chain's write-back).
   */
  @Test
  void aChainsRemoteEventsAreVisibleOnlyOnceTheValueIsInHostMemory() {
    Cluster c = new Cluster(9, NicConfig.defaults().withAmoCache(AmoCacheConfig.defaults()));
    CompletionQueue cq = c.nics[0].createCompletionQueue(64);
    MemoryDomainDescriptor target = c.nics[0].register(io.github.ariesmodel.core.MemoryRegistration.of(0x10_0000L,
        4096, Cluster.PTAG, Cluster.PKEY).withCompletionQueue(cq.handle()));
    java.util.List<Long> seen = new java.util.ArrayList<>();
    c.nics[0].addCompletionProbe(e -> {
      if (e.type() == io.github.ariesmodel.core.CompletionType.REMOTE) {
        seen.add(c.readLong(0, target.mdh(), 0)); // host memory, not the AMO cache
      }
    });
    // eight sources keep the word's AMOs coming every packet slot, faster than one answers: one chain of 160, longer
    // than the host write that makes an event visible
    for (int n = 1; n <= 8; n++) {
      for (int k = 0; k < 20; k++) {
        c.nics[n].post(Post.amo(k, FADD_C, NetworkAddress.of(0, target.mdh(), 0), 1, 0)
            .withCompletion(Post.NO_CQ, Post.GLOBAL_EVENT | Post.REMOTE_EVENT));
      }
    }
    c.run();
    assertThat(seen).hasSize(160);
    for (int k = 0; k < 160; k++) {
      assertThat(seen.get(k)).as("host memory when REMOTE event %s was visible", k).isGreaterThanOrEqualTo(k + 1);
    }
    assertThat(c.nics[0].statistics().amoCacheWriteBacks()).as("few chains, few write-backs").isLessThan(20);
  }

  @Test
  void theLeastRecentlyUsedIdleEntryIsEvicted() {
    Rig r = new Rig(AmoCacheConfig.defaults().withEntries(2));
    r.amo(FADD_C, 0, 1);
    r.amo(FADD_C, 8, 1);
    r.amo(FADD_C, 16, 1);   // evicts word 0
    assertThat(r.stats().amoCacheEvictions()).isEqualTo(1);
    r.amo(FADD_C, 8, 1);    // hit
    r.amo(FADD_C, 0, 1);    // miss, evicts word 16 (used before word 8)
    r.amo(FADD_C, 8, 1);    // still a hit

    assertThat(r.stats().amoCacheHits()).isEqualTo(2);
    assertThat(r.stats().amoCacheMisses()).isEqualTo(4);
    assertThat(r.stats().amoCacheEvictions()).isEqualTo(2);
    assertThat(new long[] {r.memory(0), r.memory(8), r.memory(16)}).containsExactly(2, 3, 1);
  }

  @Test
  void underEvictionWriteBackHostMemoryIsStaleUntilTheEntryIsEvictedOrInvalidated() {
    Rig r = new Rig(AmoCacheConfig.defaults().withEntries(1).withWriteBack(AmoWriteBack.EVICTION));
    r.amo(FADD_C, 0, 5);
    assertThat(r.memory(0)).isZero();
    assertThat(r.stats().amoCacheWriteBacks()).isZero();

    r.amo(FADD_C, 8, 7);    // evicts word 0, which is written back
    assertThat(r.memory(0)).isEqualTo(5);
    assertThat(r.memory(8)).isZero();
    assertThat(r.stats().amoCacheEvictions()).isEqualTo(1);
    assertThat(r.stats().amoCacheWriteBacks()).isEqualTo(1);

    r.c.nics[0].invalidateAmoCache();
    assertThat(r.memory(8)).as("the write-back is still crossing the host link").isZero();
    r.c.run();
    assertThat(r.memory(8)).isEqualTo(7);
    assertThat(r.stats().amoCacheWriteBacks()).isEqualTo(2);
    r.amo(FADD_C, 8, 1);
    assertThat(r.stats().amoCacheMisses()).isEqualTo(3);
  }

  @Test
  void uncachedAmosAndGetsSeeTheValueADirtyEntryHolds() {
    Rig r = new Rig(AmoCacheConfig.defaults().withWriteBack(AmoWriteBack.EVICTION));
    r.amo(FADD_C, 0, 5);
    assertThat(r.memory(0)).isZero();

    assertThat(r.amo(FADD, 0, 1).userData()).isEqualTo(5);    // snooped: written back first
    assertThat(r.memory(0)).isEqualTo(6);
    assertThat(r.amo(FADD_C, 0, 1).userData()).isEqualTo(6);  // the entry was refreshed, and hits
    assertThat(r.stats().amoCacheHits()).isEqualTo(1);

    r.c.nics[1].post(Post.get(99, r.local.mdh(), 0, NetworkAddress.of(0, r.target.mdh(), 0), 8));
    r.c.run();
    assertThat(ByteBuffer.wrap(r.c.read(1, r.local.mdh(), 0, 8)).order(ByteOrder.LITTLE_ENDIAN).getLong())
        .isEqualTo(7);
  }

  @Test
  void aPutLandingOnACachedWordUpdatesIt() {
    Rig r = new Rig(AmoCacheConfig.defaults().withWriteBack(AmoWriteBack.EVICTION));
    r.amo(FADD_C, 0, 5);
    r.c.write(1, r.local.mdh(), 0, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(100).array());
    r.c.nics[1].post(Post.put(98, r.local.mdh(), 0, NetworkAddress.of(0, r.target.mdh(), 4), 2));
    r.c.run();
    // Bytes 4 and 5 of the word now come from the PUT, the rest from the cached add.
    long expected = 5 | (100L << 32);
    assertThat(r.memory(0)).isEqualTo(expected);
    assertThat(r.amo(FADD_C, 0, 0).userData()).isEqualTo(expected);
  }

  @Test
  void aHostStoreIsNotSeenByACachedWordUntilTheCacheIsInvalidated() {
    Rig r = new Rig(AmoCacheConfig.defaults());
    r.amo(FADD_C, 0, 1);
    assertThat(r.memory(0)).isEqualTo(1);
    r.c.write(0, r.target.mdh(), 0, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(100).array());

    assertThat(r.amo(FADD_C, 0, 1).userData()).isEqualTo(1);   // stale: the NIC does not see CPU stores
    r.c.write(0, r.target.mdh(), 0, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(100).array());
    r.c.nics[0].invalidateAmoCache();
    assertThat(r.amo(FADD_C, 0, 1).userData()).isEqualTo(100);
  }

  @Test
  void withTheCacheOffCachedCommandsAreMemoryAmos() {
    Rig r = new Rig(AmoCacheConfig.off());
    long first = r.latency(FADD_C, 0);
    long second = r.latency(FADD_C, 0);
    assertThat(second).isEqualTo(first);
    assertThat(r.stats().amoCacheHits() + r.stats().amoCacheMisses()).isZero();
    assertThat(r.memory(0)).isEqualTo(2);
  }

  @Test
  void aMissWithEveryEntryBusyRunsAsAMemoryAmo() {
    Rig r = new Rig(AmoCacheConfig.defaults().withEntries(1));
    r.c.nics[1].post(Post.amo(1, FADD_C, NetworkAddress.of(0, r.target.mdh(), 0), 3, 0));
    r.c.nics[1].post(Post.amo(2, FADD_C, NetworkAddress.of(0, r.target.mdh(), 8), 4, 0));
    r.c.run();
    assertThat(r.stats().amoCacheMisses()).isEqualTo(2);
    assertThat(r.stats().amoCacheEvictions()).isZero();
    assertThat(new long[] {r.memory(0), r.memory(8)}).containsExactly(3, 4);
  }

  /**
   * A 32-bit cached AMO writes back only its half: the other 4 bytes may be a variable of the host's own, which a
   * CPU store changes meanwhile. Before, every write-back wrote the whole 8-byte word as it was filled, and undid
   * the store.
   */
  @Test
  void aThirtyTwoBitCachedAmoWritesBackOnlyItsHalf() {
    Rig r = new Rig(AmoCacheConfig.defaults());
    AmoOperation add32 = AmoOperation.parse("FIADD_SC");
    r.amo(add32, 0, 1); // fills the word, then written back as the entry goes idle
    r.c.write(0, r.target.mdh(), 4, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0x1234_5678)
        .array());
    r.amo(add32, 0, 1);
    assertThat(r.memory(0)).isEqualTo(0x1234_5678_0000_0002L);
    assertThat(r.stats().amoCacheWriteBacks()).isEqualTo(2);
    // and the high half of another word, with its low half stored by the CPU
    r.amo(add32, 12, 1);
    r.c.write(0, r.target.mdh(), 8, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(7).array());
    r.amo(add32, 12, 1);
    assertThat(r.memory(8)).isEqualTo(0x0000_0002_0000_0007L);
  }

  @Test
  void thirtyTwoBitCachedAmosWorkOnTheirHalfOfTheWord() {
    Rig r = new Rig(AmoCacheConfig.defaults());
    AmoOperation add32 = AmoOperation.parse("FIADD_SC");
    r.amo(add32, 0, 0xFFFF_FFFFL);
    r.amo(add32, 4, 2);
    assertThat(r.amo(add32, 0, 1).userData()).isEqualTo(0xFFFF_FFFFL);
    assertThat(r.memory(0)).isEqualTo(2L << 32);      // the low half wrapped to 0, without a carry
    assertThat(r.stats().amoCacheHits()).isEqualTo(2);
  }
}
