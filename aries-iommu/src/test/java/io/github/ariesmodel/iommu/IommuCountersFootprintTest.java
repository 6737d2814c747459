package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.iommu.IommuCounters.Event;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The live latency histograms hold room for the buckets they use, not for every bucket up to the largest latency
 * (stop 78: a flat HdrHistogram per client took 49,664 B for one 27 ns latency and 139,776 B with a 40 us one, ~290 KB
 * a touched node), and every statistic read from them is the one a flat histogram of the same values gives.
 */
class IommuCountersFootprintTest {

  /**
   * A flat {@code Histogram} of 3 significant digits holds at least 2,048 longs (its first two half-buckets of 1,024
   * sub-buckets), 16 KB, whatever it records, and a long for every bucket up to its largest value beyond that. A
   * node's four clients recording a handful of distinct latencies, a 40 us outlier among them, must together hold
   * less than one such minimal array.
   */
  private static final long FLAT_MINIMUM_BYTES = 2_048 * Long.BYTES;

  @Test
  void aNodesLatencyHistogramsHoldOnlyTheBucketsTheyUse() {
    IommuCounters c = new IommuCounters();
    assertThat(c.latencyHistogramFootprintBytes()).isZero(); // made on a client's first completion
    for (TranslationClient client : TranslationClient.values()) {
      for (int i = 0; i < 100_000; i++) {
        c.countFastHit(client, i % 2 == 0, 27_000); // hits at 27 ns
      }
      for (int i = 0; i < 1_000; i++) {
        c.recordLatency(client, 1_000_000 + 250 * (i % 8)); // misses near 1 us
      }
      c.recordLatency(client, 40_000_000); // one 40 us outlier
    }
    IommuStatistics s = IommuCounters.snapshot(c, 0, 0, 0); // the pending fast hits are counted in the copy
    assertThat(s.total().latencyPs().count()).isEqualTo(4 * 101_001L);
    c.countFastHit(TranslationClient.NETWORK_REQUEST, false, 30_000); // a new latency flushes the 27 ns hits
    assertThat(c.latencyHistogramFootprintBytes()).isLessThan(FLAT_MINIMUM_BYTES);
    c.reset();
    assertThat(c.latencyHistogramFootprintBytes()).isLessThan(FLAT_MINIMUM_BYTES);
  }

  /**
   * Random latencies (0 to 100 us, spread over every bucket size, with repeats), recorded as event-path completions
   * and as batched fast hits, against a flat {@code Histogram} per client fed each value: the snapshots' histograms
   * are equal to the flat ones and give the same count, extremes, mean and percentiles, per client and in total.
   */
  @Test
  void everyStatisticIsTheFlatHistogramsOne() {
    qt().withExamples(100).forAll(longs().all(), integers().between(1, 3_000)).checkAssert((seed, steps) -> {
      SplittableRandom rnd = new SplittableRandom(seed);
      IommuCounters counters = new IommuCounters();
      Map<TranslationClient, Histogram> flat = new EnumMap<>(TranslationClient.class);
      for (TranslationClient k : TranslationClient.values()) {
        flat.put(k, new Histogram(LatencyHistogram.DIGITS));
      }
      TranslationClient[] clients = TranslationClient.values();
      long[] repeated = {0, 5_000, 27_000, 27_001, 500_000, 1_000_000};
      for (int i = 0; i < steps; i++) {
        TranslationClient client = clients[rnd.nextInt(clients.length)];
        long latency = rnd.nextInt(3) == 0 ? repeated[rnd.nextInt(repeated.length)]
            : (long) Math.pow(10, 8 * rnd.nextDouble()); // 1 ps to 100 us
        if (rnd.nextBoolean()) {
          counters.countFastHit(client, rnd.nextBoolean(), latency);
        } else {
          counters.count(client, Event.TRANSLATIONS);
          counters.recordLatency(client, latency);
        }
        flat.get(client).recordValue(latency);
      }
      IommuStatistics s = IommuCounters.snapshot(counters, 0, 0, 0);
      Histogram all = new Histogram(LatencyHistogram.DIGITS);
      for (TranslationClient k : clients) {
        assertSameStatistics(s.client(k).latencyPs(), flat.get(k), k.toString());
        all.add(flat.get(k));
      }
      assertSameStatistics(s.total().latencyPs(), all, "total");
    });
  }

  private static void assertSameStatistics(LatencyHistogram got, Histogram flat, String what) {
    LatencyHistogram want = new LatencyHistogram(flat);
    assertThat(got).as(what).isEqualTo(want);
    assertThat(got.hashCode()).as(what).isEqualTo(want.hashCode());
    assertThat(got.count()).as(what).isEqualTo(flat.getTotalCount());
    assertThat(got.minPs()).as(what).isEqualTo(want.minPs());
    assertThat(got.maxPs()).as(what).isEqualTo(want.maxPs());
    assertThat(got.meanPs()).as(what).isEqualTo(want.meanPs());
    for (double p : new double[] {0, 0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100}) {
      assertThat(got.percentilePs(p)).as("%s p%s", what, p).isEqualTo(want.percentilePs(p));
    }
    assertThat(got.toString()).as(what).isEqualTo(want.toString());
  }
}
