package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.iommu.IommuCounters.Event;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Every counter is its own: counting one (client, event) or (client, stall cause) changes no other. */
class IommuCountersTest {

  @Test
  void eachEventAndStallCauseHasItsOwnCounterPerClient() {
    for (TranslationClient client : TranslationClient.values()) {
      for (Event e : Event.values()) {
        IommuCounters c = new IommuCounters();
        c.count(client, e);
        assertOnlyOne(c, client, e, null);
      }
      for (StallCause cause : StallCause.values()) {
        IommuCounters c = new IommuCounters();
        c.countStall(client, cause);
        assertOnlyOne(c, client, null, cause);
      }
    }
  }

  private static void assertOnlyOne(IommuCounters c, TranslationClient client, Event event, StallCause cause) {
    for (TranslationClient k : TranslationClient.values()) {
      for (Event e : Event.values()) {
        assertThat(c.get(k, e)).as("%s %s", k, e).isEqualTo(k == client && e == event ? 1 : 0);
      }
      for (StallCause s : StallCause.values()) {
        assertThat(c.get(k, s)).as("%s %s", k, s).isEqualTo(k == client && s == cause ? 1 : 0);
      }
    }
  }

  @Test
  void snapshotMapsEveryCounterToItsFieldAndSumsClients() {
    IommuCounters c = new IommuCounters();
    c.count(TranslationClient.LOCAL_READ, Event.TRANSLATIONS);
    c.count(TranslationClient.LOCAL_READ, Event.HITS);
    c.count(TranslationClient.COMPLETION_WRITE, Event.TRANSLATIONS);
    c.count(TranslationClient.COMPLETION_WRITE, Event.MISSES);
    c.count(TranslationClient.COMPLETION_WRITE, Event.TWO_LEVEL_WALKS);
    c.count(TranslationClient.COMPLETION_WRITE, Event.PREFETCHES);
    c.countStall(TranslationClient.COMPLETION_WRITE, StallCause.ALL_WAYS_PENDING);
    c.countStall(TranslationClient.LOCAL_READ, StallCause.IN_FLIGHT_LIMIT);
    c.recordLatency(TranslationClient.LOCAL_READ, 1_000);
    c.recordLatency(TranslationClient.COMPLETION_WRITE, 3_000);
    IommuStatistics s = IommuCounters.snapshot(c, 4, 5, 6);
    assertThat(s.perClient()).containsOnlyKeys(TranslationClient.values());
    // In the declared order, the same on every run (Map.copyOf's order is randomised per JVM run).
    assertThat(s.perClient().keySet()).containsExactly(TranslationClient.values());
    assertThatThrownBy(() -> s.total().latencyPercentileNs(Double.NaN))
        .hasMessage("percentile must be in [0, 100] but was NaN");
    TranslationStatistics w = s.client(TranslationClient.COMPLETION_WRITE);
    assertThat(w.misses()).isEqualTo(1);
    assertThat(w.twoLevelWalks()).isEqualTo(1);
    assertThat(w.oneLevelWalks()).isZero();
    assertThat(w.prefetches()).isEqualTo(1);
    assertThat(w.stallsAllWaysPending()).isEqualTo(1);
    assertThat(w.stallsInFlightLimit()).isZero();
    assertThat(s.client(TranslationClient.NETWORK_REQUEST).translations()).isZero();
    TranslationStatistics t = s.total();
    assertThat(t.translations()).isEqualTo(2);
    assertThat(t.hits()).isEqualTo(1);
    assertThat(t.stalls()).isEqualTo(2);
    assertThat(t.totalLatencyPs()).isEqualTo(4_000);
    assertThat(t.latencyPs().count()).isEqualTo(2);
    assertThat(s.invalidations()).isEqualTo(4);
    assertThat(s.invalidationCommands()).isEqualTo(5);
    assertThat(s.pteFetches()).isEqualTo(6);
    c.reset();
    assertThat(IommuCounters.snapshot(c, 0, 0, 0).total().translations()).isZero();
    assertThat(IommuCounters.snapshot(null, 0, 0, 0).perClient()).hasSize(4);
  }

  @Test
  void batchedFastHitsGiveTheStatisticsOfCountingEachAtOnce() {
    // A random mix of fast hits (batched), event-path completions, other events, latency changes, reads and resets,
    // against a twin that counts every fast hit at once with count and recordLatency.
    qt().withExamples(200).forAll(longs().all(), integers().between(1, 400)).checkAssert((seed, steps) -> {
      SplittableRandom rnd = new SplittableRandom(seed);
      IommuCounters batched = new IommuCounters();
      IommuCounters direct = new IommuCounters();
      TranslationClient[] clients = TranslationClient.values();
      long[] latencies = {40_000, 40_000, 40_000, 55_000};
      for (int i = 0; i < steps; i++) {
        TranslationClient client = clients[rnd.nextInt(clients.length)];
        int what = rnd.nextInt(20);
        if (what < 14) {
          boolean twoLevel = rnd.nextBoolean();
          long latency = latencies[rnd.nextInt(latencies.length)];
          batched.countFastHit(client, twoLevel, latency);
          direct.count(client, Event.TRANSLATIONS);
          direct.count(client, Event.HITS);
          direct.count(client, twoLevel ? Event.TWO_LEVEL_WALKS : Event.ONE_LEVEL_WALKS);
          direct.recordLatency(client, latency);
        } else if (what < 17) {
          long latency = 1 + rnd.nextInt(1_000_000);
          for (IommuCounters c : new IommuCounters[] {batched, direct}) {
            c.count(client, Event.TRANSLATIONS);
            c.count(client, Event.MISSES);
            c.recordLatency(client, latency);
          }
        } else if (what < 19) {
          Event e = Event.values()[rnd.nextInt(Event.values().length)];
          assertThat(batched.get(client, e)).as("step %d, %s %s", i, client, e).isEqualTo(direct.get(client, e));
        } else {
          batched.reset();
          direct.reset();
        }
      }
      assertSame(IommuCounters.snapshot(batched, 1, 2, 3), IommuCounters.snapshot(direct, 1, 2, 3));
    });
  }

  private static void assertSame(IommuStatistics a, IommuStatistics b) {
    for (TranslationClient k : TranslationClient.values()) {
      assertSameStatistics(a.client(k), b.client(k), k.toString());
    }
    assertSameStatistics(a.total(), b.total(), "total");
  }

  private static void assertSameStatistics(TranslationStatistics a, TranslationStatistics b, String what) {
    assertThat(a.translations()).as(what).isEqualTo(b.translations());
    assertThat(a.hits()).as(what).isEqualTo(b.hits());
    assertThat(a.misses()).as(what).isEqualTo(b.misses());
    assertThat(a.oneLevelWalks()).as(what).isEqualTo(b.oneLevelWalks());
    assertThat(a.twoLevelWalks()).as(what).isEqualTo(b.twoLevelWalks());
    assertThat(a.totalLatencyPs()).as(what).isEqualTo(b.totalLatencyPs());
    assertThat(a.latencyPs()).as(what).isEqualTo(b.latencyPs());
  }
}
