package io.github.ariesmodel.nic;

import static io.github.ariesmodel.nic.HostWriteProbeTest.pa;
import static io.github.ariesmodel.nic.HostWriteProbeTest.watch;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import io.github.ariesmodel.nic.HostWriteProbeTest.Write;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * What a NIC's host-write probes ({@link Nic#addHostWriteProbe}) see when another access of the same NIC to a dirty
 * AMO-cache word forces its write-back ({@link AmoCache}'s coherence inside the NIC: a GET served from the word, a PUT
 * landing on it, an uncached AMO on it). Under {@link AmoWriteBack#EVICTION} a cached AMO's word stays dirty after the
 * AMO, so the snoop is the write that brings it to memory: the probes see it, where it is, and visible once it has
 * crossed the host link and the one-way host latency has passed, as any other write-back; a write-back of a half the
 * AMOs changed is that half only.
 */
class AmoCacheSnoopWriteBackProbeTest {
  private static final NicTiming T = NicTiming.defaults();

  private static Cluster evictionCluster() {
    return new Cluster(2, NicConfig.defaults().withAmoCache(AmoCacheConfig.defaults()
        .withWriteBack(AmoWriteBack.EVICTION)));
  }

  /** Three cached 64-bit adds of 5 to the word at {@code offset} of node 0's buffer, from node 1: dirty, unseen. */
  private static void dirtyWord(Cluster c, MemoryDomainDescriptor target, long offset, List<Write> seen) {
    for (int k = 0; k < 3; k++) {
      c.nics[1].post(Post.amo(100 + k, AmoOperation.parse("IADD_C"), NetworkAddress.of(0, target.mdh(), offset), 5,
          0));
    }
    c.run();
    assertThat(seen).as("a dirty word is not written back while it stays cached").isEmpty();
    assertThat(c.nics[0].statistics().amoCacheWriteBacks()).isZero();
    assertThat(c.readLong(0, target.mdh(), offset)).as("memory still holds the old value").isZero();
  }

  @Test
  void aGetServedFromADirtyWordWritesItBackOnceAndReturnsTheCachedValue() {
    Cluster c = evictionCluster();
    MemoryDomainDescriptor target = c.register(0, 4096);
    MemoryDomainDescriptor local = c.register(1, 4096);
    List<Write> seen = watch(c, 0);
    dirtyWord(c, target, 40, seen);

    c.nics[1].post(Post.get(1, local.mdh(), 0, NetworkAddress.of(0, target.mdh(), 32), 24));
    c.run();
    assertThat(seen).extracting(Write::pa, Write::length).containsExactly(Tuple.tuple(pa(c, 0, target, 40), 8));
    // a posted write over the host link: 8 bytes and 24 of overhead at 16 GB/s (2 ns), then the one-way latency
    assertThat(seen.get(0).visiblePs() - seen.get(0).calledAt()).isEqualTo(2_000 + T.hostLatencyPs());
    assertThat(c.nics[0].statistics().amoCacheWriteBacks()).isEqualTo(1);
    assertThat(c.readLong(0, target.mdh(), 40)).isEqualTo(15);
    assertThat(c.readLong(1, local.mdh(), 8)).as("the GET's data holds the cached value").isEqualTo(15);

    // the word is clean now: another GET of it writes nothing back
    seen.clear();
    c.nics[1].post(Post.get(2, local.mdh(), 64, NetworkAddress.of(0, target.mdh(), 40), 8));
    c.run();
    assertThat(seen).isEmpty();
    assertThat(c.nics[0].statistics().amoCacheWriteBacks()).isEqualTo(1);
  }

  @Test
  void aPutLandingOnADirtyWordIsSeenAfterTheWriteBackItForces() {
    Cluster c = evictionCluster();
    MemoryDomainDescriptor target = c.register(0, 4096);
    MemoryDomainDescriptor source = c.register(1, 4096);
    List<Write> seen = watch(c, 0);
    // a 32-bit cached add on the word's upper half: only that half is dirty
    c.nics[1].post(Post.amo(1, AmoOperation.parse("IADD_SC"), NetworkAddress.of(0, target.mdh(), 44), 7, 0));
    c.run();
    assertThat(seen).isEmpty();

    // a 4-byte PUT to the lower half: the write-back (the upper half only) comes first, then the PUT's own write
    c.write(1, source.mdh(), 0, new byte[] {1, 2, 3, 4});
    c.nics[1].post(Post.put(2, source.mdh(), 0, NetworkAddress.of(0, target.mdh(), 40), 4));
    c.run();
    assertThat(seen).extracting(Write::pa, Write::length).containsExactly(
        Tuple.tuple(pa(c, 0, target, 44), 4), Tuple.tuple(pa(c, 0, target, 40), 4));
    Write writeBack = seen.get(0);
    Write put = seen.get(1);
    // a posted write over the host link: 4 bytes and 24 of overhead at 16 GB/s (1.75 ns), then the one-way latency
    assertThat(writeBack.visiblePs() - writeBack.calledAt()).isEqualTo(1_750 + T.hostLatencyPs());
    assertThat(writeBack.calledAt()).isLessThanOrEqualTo(put.calledAt());
    assertThat(writeBack.visiblePs()).as("the host never sees the PUT's data before the write-back it forced")
        .isLessThanOrEqualTo(put.visiblePs());
    assertThat(c.readLong(0, target.mdh(), 40)).isEqualTo(7L << 32 | 0x0403_0201L);

    // the cache refreshed its copy from memory after the PUT: a later write-back keeps the PUT's half
    seen.clear();
    c.nics[1].post(Post.amo(3, AmoOperation.parse("IADD_SC"), NetworkAddress.of(0, target.mdh(), 44), 1, 0));
    c.run();
    c.nics[0].invalidateAmoCache();
    assertThat(seen).extracting(Write::pa, Write::length).containsExactly(Tuple.tuple(pa(c, 0, target, 44), 4));
    c.run(); // the write-back crosses the host link
    assertThat(c.readLong(0, target.mdh(), 40)).isEqualTo(8L << 32 | 0x0403_0201L);
  }

  @Test
  void anUncachedAmoOnADirtyWordWorksOnTheWriteBackAndBothAreSeen() {
    Cluster c = evictionCluster();
    MemoryDomainDescriptor target = c.register(0, 4096);
    List<Write> seen = watch(c, 0);
    dirtyWord(c, target, 8, seen);

    c.nics[1].post(Post.amo(1, AmoOperation.parse("IADD"), NetworkAddress.of(0, target.mdh(), 8), 100, 0));
    c.run();
    assertThat(seen).extracting(Write::pa, Write::length).containsExactly(
        Tuple.tuple(pa(c, 0, target, 8), 8), Tuple.tuple(pa(c, 0, target, 8), 8));
    assertThat(seen.get(0).visiblePs()).isLessThanOrEqualTo(seen.get(1).visiblePs());
    assertThat(c.readLong(0, target.mdh(), 8)).isEqualTo(115);
    assertThat(c.nics[0].statistics().amoCacheWriteBacks()).isEqualTo(1);
  }
}
