package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.TranslationClient;
import org.junit.jupiter.api.Test;

/**
 * The miss pipeline in simulated time: hit and miss latency, merged misses, hits under misses, and stalls (all ways
 * pending, no fetch buffer, in-flight limit) that resume in order. Times are simulated picoseconds, not wall time.
 */
class IommuTimingTest {

  private static final long FETCH = 100_000;
  private static final long HIT = 2_000;
  private static final long ISSUE = 1_000;
  /** 2 MB pages: page p's PTE is in line p / 8 of the one-level table. */
  private static final long PAGE = 2L << 20;

  private static IommuConfig.Builder config() {
    return IommuConfig.builder().pteFetchLatencyPs(FETCH).hitLatencyPs(HIT).issueIntervalPs(ISSUE);
  }

  private static int registerHuge(Rig rig) {
    return rig.iommu.register(MemoryRegistration.of(0, 256 * PAGE, Rig.TAG, Rig.KEY).withPageSize(PageSize.SIZE_2M))
        .mdh();
  }

  private static void at(Rig rig, long time, Runnable r) {
    rig.loop.scheduleAt(time, (now, ref, arg) -> r.run(), null, 0);
  }

  @Test
  void missCostsAFetchAndARepeatIsAHit() {
    Rig rig = new Rig(config().build());
    int mdh = registerHuge(rig);
    rig.translate(mdh, 0, 0);
    rig.loop.run();
    rig.translate(mdh, 64, 1);
    rig.loop.run();
    assertThat(rig.doneWithId(0).timePs()).isEqualTo(FETCH + HIT);
    assertThat(rig.doneWithId(1).timePs()).isEqualTo(FETCH + HIT + HIT);
    var t = rig.iommu.statistics().total();
    assertThat(t.misses()).isEqualTo(1);
    assertThat(t.hits()).isEqualTo(1);
    assertThat(t.oneLevelWalks()).isEqualTo(2);
    assertThat(t.totalLatencyPs()).isEqualTo(FETCH + HIT + HIT);
  }

  @Test
  void coldFourKilobyteTranslationFetchesDirectoryThenLeafLine() {
    Rig rig = new Rig(config().build());
    MemoryDomainDescriptor d = rig.iommu.register(MemoryRegistration.of(0, 1 << 20, Rig.TAG, Rig.KEY));
    rig.translate(d.mdh(), 4096 * 3, 0);
    rig.loop.run();
    // Another page in the same leaf line needs no fetch; one in the next leaf line needs only the leaf fetch.
    rig.translate(d.mdh(), 4096 * 7, 1);
    rig.loop.run();
    long t1 = rig.loop.now();
    rig.translate(d.mdh(), 4096 * 8, 2);
    rig.loop.run();
    assertThat(rig.doneWithId(0).timePs()).isEqualTo(2 * FETCH + HIT);
    assertThat(rig.doneWithId(1).timePs()).isEqualTo(2 * FETCH + 2 * HIT);
    assertThat(rig.doneWithId(2).timePs()).isEqualTo(t1 + FETCH + HIT);
    assertThat(rig.iommu.statistics().total().twoLevelWalks()).isEqualTo(3);
    assertThat(rig.iommu.statistics().pteFetches()).isEqualTo(3);
  }

  @Test
  void laterMissesToAPendingLineMergeAndHitsCompleteUnderTheMiss() {
    Rig rig = new Rig(config().build());
    int mdh = registerHuge(rig);
    rig.translate(mdh, 0, 0); // warm line 0
    rig.loop.run();
    long t0 = rig.loop.now();
    rig.translate(mdh, 8 * PAGE, 1); // line 1: miss
    rig.translate(mdh, 9 * PAGE, 2); // line 1 again: merges into the same fetch
    rig.translate(mdh, 1 * PAGE, 3); // line 0: hit under the miss
    rig.loop.run();
    assertThat(rig.doneWithId(3).timePs()).isEqualTo(t0 + 2 * ISSUE + HIT);
    assertThat(rig.doneWithId(1).timePs()).isEqualTo(t0 + FETCH + HIT);
    assertThat(rig.doneWithId(2).timePs()).isEqualTo(t0 + FETCH + HIT);
    assertThat(rig.done.stream().map(Rig.Done::id)).containsExactly(0L, 3L, 1L, 2L);
    var t = rig.iommu.statistics().total();
    assertThat(t.mergedMisses()).isEqualTo(1);
    assertThat(t.misses()).isEqualTo(2);
    assertThat(t.hits()).isEqualTo(1);
    assertThat(rig.iommu.statistics().pteFetches()).isEqualTo(2);
  }

  @Test
  void stallsWhenEveryWayOfTheSetIsPendingAndResumesInOrder() {
    Rig rig = new Rig(config().ways(2).sets(1).build());
    int mdh = registerHuge(rig);
    rig.translate(mdh, 0, 0); // line 0 -> way 0
    at(rig, ISSUE, () -> rig.translate(mdh, 8 * PAGE, 1)); // line 1 -> way 1
    at(rig, 2 * ISSUE, () -> rig.translate(mdh, 16 * PAGE, 2)); // line 2: both ways pending
    at(rig, 3 * ISSUE, () -> rig.translate(mdh, PAGE, 3)); // line 0, behind the stalled request
    rig.loop.run();
    assertThat(rig.doneWithId(0).timePs()).isEqualTo(FETCH + HIT);
    assertThat(rig.doneWithId(1).timePs()).isEqualTo(ISSUE + FETCH + HIT);
    // Request 2 takes way 0 when line 0 arrives (evicting it); request 3, next in order, may enter one issue
    // interval later, when line 1 has arrived: it misses line 0 again and takes way 1.
    assertThat(rig.doneWithId(2).timePs()).isEqualTo(FETCH + FETCH + HIT);
    assertThat(rig.doneWithId(3).timePs()).isEqualTo(ISSUE + FETCH + FETCH + HIT);
    assertThat(rig.done.stream().map(Rig.Done::id)).containsExactly(0L, 1L, 2L, 3L);
    var t = rig.iommu.statistics().total();
    assertThat(t.stallsAllWaysPending()).isEqualTo(1);
    assertThat(t.stalls(StallCause.ALL_WAYS_PENDING)).isEqualTo(1);
    assertThat(t.stalls()).isEqualTo(1);
    assertThat(t.stallsNoFetchBuffer()).isZero();
    assertThat(t.evictions()).isEqualTo(2);
  }

  @Test
  void stallsWithoutAFreeFetchBufferAndLaterHitsWaitBehind() {
    Rig rig = new Rig(config().fetchBuffers(1).build());
    int mdh = registerHuge(rig);
    rig.translate(mdh, 0, 0); // line 0, takes the only buffer
    rig.translate(mdh, 8 * PAGE, 1); // line 1: no buffer
    rig.translate(mdh, PAGE, 2); // line 0: waits behind request 1 (in-order pipeline)
    rig.loop.run();
    assertThat(rig.doneWithId(0).timePs()).isEqualTo(FETCH + HIT);
    assertThat(rig.doneWithId(1).timePs()).isEqualTo(FETCH + FETCH + HIT);
    assertThat(rig.doneWithId(2).timePs()).isEqualTo(FETCH + ISSUE + HIT);
    assertThat(rig.iommu.statistics().total().stallsNoFetchBuffer()).isEqualTo(1);
    assertThat(rig.iommu.statistics().total().hits()).isEqualTo(1);
  }

  @Test
  void stallsAtTheInFlightLimit() {
    Rig rig = new Rig(config().maxInFlight(2).build());
    int mdh = registerHuge(rig);
    rig.translate(mdh, 0, 0);
    rig.translate(mdh, 64, 1);
    rig.translate(mdh, 128, 2);
    rig.loop.run();
    assertThat(rig.doneWithId(1).timePs()).isEqualTo(FETCH + HIT);
    // Request 2 enters when request 0 leaves, and hits.
    assertThat(rig.doneWithId(2).timePs()).isEqualTo(FETCH + HIT + HIT);
    var t = rig.iommu.statistics().total();
    assertThat(t.stallsInFlightLimit()).isEqualTo(1);
    assertThat(t.mergedMisses()).isEqualTo(1);
    assertThat(t.hits()).isEqualTo(1);
  }

  @Test
  void issueIntervalBoundsThroughputOfHits() {
    Rig rig = new Rig(config().build());
    int mdh = registerHuge(rig);
    rig.translate(mdh, 0, -1);
    rig.loop.run();
    long t0 = rig.loop.now();
    for (int i = 0; i < 10; i++) {
      rig.translate(mdh, i * 8, i);
    }
    rig.loop.run();
    for (int i = 0; i < 10; i++) {
      assertThat(rig.doneWithId(i).timePs()).isEqualTo(t0 + i * ISSUE + HIT);
    }
  }

  @Test
  void prefetchHintFetchesTheNextLine() {
    Rig rig = new Rig(config().build());
    MemoryDomainDescriptor d = rig.iommu.register(
        MemoryRegistration.of(0, 256 * PAGE, Rig.TAG, Rig.KEY).withPageSize(PageSize.SIZE_2M).withPrefetch(true));
    rig.translate(d.mdh(), 0, 0);
    rig.loop.run();
    rig.translate(d.mdh(), 8 * PAGE, 1); // next line: prefetched
    rig.loop.run();
    assertThat(rig.doneWithId(1).timePs()).isEqualTo(FETCH + 2 * HIT);
    var s = rig.iommu.statistics();
    assertThat(s.total().prefetches()).isEqualTo(1);
    assertThat(s.pteFetches()).isEqualTo(2);
    assertThat(s.total().hits()).isEqualTo(1);

    Rig off = new Rig(config().prefetch(false).build());
    MemoryDomainDescriptor d2 = off.iommu.register(
        MemoryRegistration.of(0, 256 * PAGE, Rig.TAG, Rig.KEY).withPageSize(PageSize.SIZE_2M).withPrefetch(true));
    off.translate(d2.mdh(), 0, 0);
    off.loop.run();
    assertThat(off.iommu.statistics().total().prefetches()).isZero();
  }

  @Test
  void faultsCompleteAfterHitLatencyAndCountPerClient() {
    Rig rig = new Rig(config().build());
    int mdh = registerHuge(rig);
    rig.translate(TranslationClient.LOCAL_READ, mdh, 256 * PAGE, 8, AccessKind.READ, 0);
    rig.translate(TranslationClient.COMPLETION_WRITE, mdh, 0, 8, AccessKind.WRITE, 1);
    rig.loop.run();
    assertThat(rig.doneWithId(0).status()).isEqualTo(Status.OUT_OF_BOUNDS);
    assertThat(rig.doneWithId(0).timePs()).isEqualTo(HIT);
    var s = rig.iommu.statistics();
    assertThat(s.client(TranslationClient.LOCAL_READ).faults()).isEqualTo(1);
    assertThat(s.client(TranslationClient.LOCAL_READ).misses()).isZero();
    assertThat(s.client(TranslationClient.COMPLETION_WRITE).misses()).isEqualTo(1);
    assertThat(s.client(TranslationClient.NETWORK_REQUEST).translations()).isZero();
    assertThat(s.total().translations()).isEqualTo(2);
    assertThat(s.client(TranslationClient.COMPLETION_WRITE).latencyPercentileNs(100))
        .isCloseTo((ISSUE + FETCH + HIT) / 1000.0, org.assertj.core.data.Percentage.withPercentage(0.1));
  }
}
