package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.CompletionEvent;
import io.github.ariesmodel.core.CompletionType;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.NetworkAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a NIC's host-write probes ({@link Nic#addHostWriteProbe}) see: every write the NIC makes into its node's
 * memory, where and from when the host sees it.
 */
class HostWriteProbeTest {
  private static final NicTiming T = NicTiming.defaults();

  /** One call of a probe: when it was called, and what it was told (also the snoop test's). */
  record Write(long calledAt, long visiblePs, long pa, int length) {}

  /** @return the calls node {@code node}'s probe gets from now, in order */
  static List<Write> watch(Cluster c, int node) {
    List<Write> seen = new ArrayList<>();
    c.nics[node].addHostWriteProbe((visible, pa, length) -> seen.add(new Write(c.loop.now(), visible, pa, length)));
    return seen;
  }

  /** @return the physical address of {@code offset} in node {@code node}'s registration {@code d} */
  static long pa(Cluster c, int node, MemoryDomainDescriptor d, long offset) {
    return c.translation[node].translateNow(d.mdh(), offset, 1, AccessKind.READ, Cluster.PTAG, Cluster.PKEY)
        .physicalAddress();
  }

  /** Every byte of {@code [from, from + length)} written exactly once by {@code writes}. */
  private static void coversOnce(List<Write> writes, long from, int length) {
    int[] times = new int[length];
    for (Write w : writes) {
      assertThat(w.pa()).isGreaterThanOrEqualTo(from);
      assertThat(w.pa() + w.length()).isLessThanOrEqualTo(from + length);
      for (long b = w.pa(); b < w.pa() + w.length(); b++) {
        times[(int) (b - from)]++;
      }
    }
    assertThat(times).containsOnly(1);
  }

  @Test
  void aPutsDataIsSeenAtItsTargetWhereItLandsAndItsRemoteEventIsVisibleWithIt() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    CompletionQueue cq = c.nics[0].createCompletionQueue(16);
    MemoryDomainDescriptor target = c.nics[0].register(MemoryRegistration.of(0x10_0000L, 8192, Cluster.PTAG,
        Cluster.PKEY).withCompletionQueue(cq.handle()));
    MemoryDomainDescriptor source = c.register(1, 8192);
    List<Write> atTarget = watch(c, 0);
    List<Write> atSource = watch(c, 1);
    byte[] bytes = new byte[200];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (i * 7 + 1);
    }
    c.write(1, source.mdh(), 0, bytes);
    // 200 bytes from offset 4000: four packets, one of them across the target's page boundary at 4096
    c.nics[1].post(Post.put(1, source.mdh(), 0, NetworkAddress.of(0, target.mdh(), 4000), 200));
    c.run();

    assertThat(atSource).as("a put writes nothing at its source").isEmpty();
    long first = pa(c, 0, target, 4000);
    long second = pa(c, 0, target, 4096);
    List<Write> onFirst = atTarget.stream().filter(w -> w.pa() >= first && w.pa() < first + 96).toList();
    List<Write> onSecond = atTarget.stream().filter(w -> w.pa() >= second && w.pa() < second + 104).toList();
    assertThat(onFirst.size() + onSecond.size()).as("every write on one of the two pages").isEqualTo(atTarget.size());
    coversOnce(onFirst, first, 96);
    coversOnce(onSecond, second, 104);
    assertThat(atTarget).allSatisfy(w -> assertThat(w.visiblePs()).isGreaterThan(w.calledAt()));
    assertThat(c.read(0, target.mdh(), 4000, 200)).isEqualTo(bytes);

    // a one-packet put that asks for a REMOTE event: the event is visible when its data is, and its CQ entry is a
    // write of its own, visible when written
    atTarget.clear();
    c.events.clear();
    c.nics[1].post(Post.put(2, source.mdh(), 0, NetworkAddress.of(0, target.mdh(), 64), 8)
        .withCompletion(Post.NO_CQ, Post.GLOBAL_EVENT | Post.REMOTE_EVENT));
    c.run();
    CompletionEvent remote = c.events(0).stream().filter(e -> e.type() == CompletionType.REMOTE).findFirst()
        .orElseThrow();
    assertThat(atTarget).hasSize(2);
    assertThat(atTarget.get(0).pa()).isEqualTo(pa(c, 0, target, 64));
    assertThat(atTarget.get(0).visiblePs()).isEqualTo(remote.timePs());
    Write entry = atTarget.get(1);
    assertThat(entry.length()).isEqualTo(CompletionQueue.ENTRY_BYTES);
    assertThat(entry.visiblePs()).isEqualTo(entry.calledAt()).isEqualTo(remote.timePs());
    assertThat(c.memory[0].readLong(entry.pa())).isEqualTo(CompletionQueue.encode(remote));
  }

  @Test
  void aGetsAndAFetchingAmosDataAreSeenAtTheInitiatorWhereTheyLand() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    MemoryDomainDescriptor remote = c.register(0, 8192);
    MemoryDomainDescriptor local = c.register(1, 8192);
    List<Write> atTarget = watch(c, 0);
    List<Write> atInitiator = watch(c, 1);
    c.nics[1].post(Post.get(1, local.mdh(), 1000, NetworkAddress.of(0, remote.mdh(), 0), 300));
    c.run();
    assertThat(atTarget).as("a get writes nothing at its target").isEmpty();
    coversOnce(atInitiator, pa(c, 1, local, 1000), 300);
    assertThat(atInitiator).allSatisfy(w -> assertThat(w.visiblePs()).isGreaterThan(w.calledAt()));

    atInitiator.clear();
    // a fetching AMO whose old value lands in local memory (uGNI's local_addr)
    NetworkAddress word = NetworkAddress.of(0, remote.mdh(), 8);
    c.nics[1].post(new Post(Post.PostType.AMO, Post.Engine.FMA, 2, local.mdh(), 16, word, 8,
        AmoOperation.parse("FIADD"), 5, 0, io.github.ariesmodel.core.DeliveryMode.ADAPTIVE_0, Post.NO_CQ,
        Post.GLOBAL_EVENT, false));
    c.run();
    assertThat(atInitiator).containsExactly(new Write(atInitiator.get(0).calledAt(), atInitiator.get(0).visiblePs(),
        pa(c, 1, local, 16), 8));
  }

  @Test
  void aMemoryAmosResultIsSeenOnceTheUnitHasItAndHasWrittenItBack() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    MemoryDomainDescriptor target = c.register(0, 4096);
    List<Write> seen = watch(c, 0);
    c.nics[1].post(Post.amo(1, AmoOperation.parse("IADD"), NetworkAddress.of(0, target.mdh(), 24), 3, 0));
    c.run();
    assertThat(seen).hasSize(1);
    Write w = seen.get(0);
    assertThat(w.pa()).isEqualTo(pa(c, 0, target, 24));
    assertThat(w.length()).isEqualTo(8);
    // written when the unit answers (after its read and its cycles), then the posted write crosses the host link:
    // its 8 bytes and 24 of overhead at 16 GB/s (2 ns), then the one-way latency
    assertThat(w.visiblePs() - w.calledAt()).isEqualTo(2_000 + T.hostLatencyPs());
    assertThat(c.readLong(0, target.mdh(), 24)).isEqualTo(3);

    seen.clear();
    c.nics[1].post(Post.amo(2, AmoOperation.parse("IADD_S"), NetworkAddress.of(0, target.mdh(), 36), 1, 0));
    c.run();
    assertThat(seen).extracting(Write::pa, Write::length).containsExactly(
        org.assertj.core.groups.Tuple.tuple(pa(c, 0, target, 36), 4));
  }

  /**
   * A memory AMO's REMOTE event is visible just after its value: until stop 67 it was booked as the AMO executed, a
   * host read round trip before the unit had the value (the arithmetic hunt of stop 67).
   */
  @Test
  void aMemoryAmosRemoteEventComesAfterItsValueIsVisible() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    CompletionQueue cq = c.nics[0].createCompletionQueue(16);
    MemoryDomainDescriptor target = c.nics[0].register(MemoryRegistration.of(0x10_0000L, 4096, Cluster.PTAG,
        Cluster.PKEY).withCompletionQueue(cq.handle()));
    List<Write> seen = watch(c, 0);
    c.nics[1].post(Post.amo(1, AmoOperation.parse("IADD"), NetworkAddress.of(0, target.mdh(), 0), 3, 0)
        .withCompletion(Post.NO_CQ, Post.GLOBAL_EVENT | Post.REMOTE_EVENT));
    c.run();
    CompletionEvent remote = c.events(0).stream().filter(e -> e.type() == CompletionType.REMOTE).findFirst()
        .orElseThrow();
    Write value = seen.get(0);
    assertThat(value.pa()).isEqualTo(pa(c, 0, target, 0));
    assertThat(remote.timePs()).isGreaterThanOrEqualTo(value.visiblePs());
    // its own 8-byte write, booked when the unit has the value: the one-way latency and the write's serialization
    assertThat(remote.timePs() - value.visiblePs()).isLessThan(T.hostLatencyPs() / 10);
  }

  @Test
  void aCachedAmoIsSeenWhenItsEntryIsWrittenBackAndOnlyTheHalfItChanged() {
    Cluster c = new Cluster(2, NicConfig.defaults().withAmoCache(AmoCacheConfig.defaults()));
    MemoryDomainDescriptor target = c.register(0, 4096);
    List<Write> seen = watch(c, 0);
    for (int k = 0; k < 4; k++) {
      c.nics[1].post(Post.amo(k, AmoOperation.parse("FIADD_C"), NetworkAddress.of(0, target.mdh(), 0), 1, 0));
    }
    c.run();
    // the four form one chain: one write-back, when the entry goes idle, visible a one-way latency later
    assertThat(c.nics[0].statistics().amoCacheWriteBacks()).isEqualTo(1);
    assertThat(seen).hasSize(1);
    assertThat(seen.get(0).pa()).isEqualTo(pa(c, 0, target, 0));
    assertThat(seen.get(0).length()).isEqualTo(8);
    // 32 B on the host link (2 ns), then the one-way latency
    assertThat(seen.get(0).visiblePs() - seen.get(0).calledAt()).isEqualTo(2_000 + T.hostLatencyPs());

    seen.clear();
    c.nics[1].post(Post.amo(9, AmoOperation.parse("FIADD_SC"), NetworkAddress.of(0, target.mdh(), 12), 1, 0));
    c.run();
    assertThat(seen).extracting(Write::pa, Write::length).containsExactly(
        org.assertj.core.groups.Tuple.tuple(pa(c, 0, target, 12), 4));
  }

  /** Under the eviction write-back a cached AMO reaches memory, and is seen, only when its entry leaves the cache. */
  @Test
  void underTheEvictionWriteBackACachedAmoIsSeenWhenTheCacheIsInvalidated() {
    Cluster c = new Cluster(2, NicConfig.defaults().withAmoCache(AmoCacheConfig.defaults()
        .withWriteBack(AmoWriteBack.EVICTION)));
    MemoryDomainDescriptor target = c.register(0, 4096);
    List<Write> seen = watch(c, 0);
    c.nics[1].post(Post.amo(1, AmoOperation.parse("FIADD_C"), NetworkAddress.of(0, target.mdh(), 40), 1, 0));
    c.run();
    assertThat(seen).isEmpty();
    c.nics[0].invalidateAmoCache();
    assertThat(seen).extracting(Write::pa, Write::length).containsExactly(
        org.assertj.core.groups.Tuple.tuple(pa(c, 0, target, 40), 8));
    // 32 B on the host link (2 ns), then the one-way latency
    assertThat(seen.get(0).visiblePs() - seen.get(0).calledAt()).isEqualTo(2_000 + T.hostLatencyPs());
    assertThat(c.readLong(0, target.mdh(), 40)).as("not in memory before it is visible").isZero();
    c.run();
    assertThat(c.readLong(0, target.mdh(), 40)).isEqualTo(1);
  }

  @Test
  void aRemovedProbeSeesNothingMoreAndAProbeIsAddedOnce() {
    Cluster c = new Cluster(2, NicConfig.defaults());
    MemoryDomainDescriptor target = c.register(0, 4096);
    MemoryDomainDescriptor source = c.register(1, 4096);
    List<Write> seen = new ArrayList<>();
    HostWriteListener probe = (visible, pa, length) -> seen.add(new Write(c.loop.now(), visible, pa, length));
    c.nics[0].addHostWriteProbe(probe);
    assertThatThrownBy(() -> c.nics[0].addHostWriteProbe(probe)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("this host-write probe was added to node 0's NIC already");
    assertThatThrownBy(() -> c.nics[0].addHostWriteProbe(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("probe must not be null");
    c.nics[1].post(Post.put(1, source.mdh(), 0, NetworkAddress.of(0, target.mdh(), 0), 64));
    c.run();
    assertThat(seen).hasSize(1);
    assertThat(c.nics[0].removeHostWriteProbe(probe)).isTrue();
    assertThat(c.nics[0].removeHostWriteProbe(probe)).isFalse();
    c.nics[1].post(Post.put(2, source.mdh(), 0, NetworkAddress.of(0, target.mdh(), 0), 64));
    c.run();
    assertThat(seen).hasSize(1);
  }
}
