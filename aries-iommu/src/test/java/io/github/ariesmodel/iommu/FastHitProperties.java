package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.EventHandler;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationHit;
import java.util.Comparator;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The hit fast path ({@link Iommu#translateHit}) changes nothing but how a hit is delivered: two IOMMUs with the same
 * configuration and registrations get the same random stream of requests at the same times; one only ever calls
 * {@link Iommu#translate}, the other tries {@code translateHit} first and falls back to {@code translate}. Every
 * request completes at the same time with the same outcome on both, and the statistics (hits, misses, stalls by
 * cause, latencies) are equal, but for one documented approximation: a request arriving exactly when a fast hit
 * completes may be counted as an in-flight-limit stall on the event path and not on the fast one. The configurations include tiny in-flight limits and few fetch buffers, so fast hits
 * hold in-flight places that later requests wait for.
 */
class FastHitProperties {

  private static final PageSize[] SIZES = {PageSize.SIZE_4K, PageSize.SIZE_4K, PageSize.SIZE_2M};

  /** The statistics as text, with the in-flight-limit stall counts taken out. */
  private static String withoutInFlightStalls(IommuStatistics s) {
    return s.toString().replaceAll("in-flight-limit=[0-9]+", "");
  }

  @Test
  void fastHitsCompleteLikeTheEventPath() {
    long[] totalFastHits = new long[1];
    long[] inFlightStallsBesideFastHits = new long[1];
    qt().withExamples(60)
        .forAll(longs().all(), integers().between(1, 3), integers().between(1, 6))
        .checkAssert((seed, regions, maxInFlight) -> {
          SplittableRandom rnd = new SplittableRandom(seed);
          IommuConfig config = IommuConfig.builder()
              .ways(1 + rnd.nextInt(4)).sets(1 << rnd.nextInt(6)).fetchBuffers(1 + rnd.nextInt(4))
              .maxInFlight(maxInFlight).build();
          Rig events = new Rig(config);
          Rig fast = new Rig(config);
          MemoryDomainDescriptor[] ds = new MemoryDomainDescriptor[regions];
          for (int i = 0; i < regions; i++) {
            PageSize ps = SIZES[rnd.nextInt(SIZES.length)];
            long pages = ps.isHuge() ? 1 + rnd.nextInt(4) : 1 + rnd.nextInt(40);
            MemoryRegistration r = new MemoryRegistration(ps.bytes() * (1 + i), pages * ps.bytes(), ps,
                rnd.nextInt(4) != 0, Rig.TAG, Rig.KEY, i, -1, false);
            ds[i] = events.iommu.register(r);
            assertThat(fast.iommu.register(r)).isEqualTo(ds[i]);
          }
          TranslationHit hit = new TranslationHit();
          int n = 200;
          long at = 0;
          int fastHits = 0;
          int[] fastCount = new int[1];
          for (int k = 0; k < n; k++) {
            at += rnd.nextInt(4) == 0 ? rnd.nextLong(600_000) : rnd.nextLong(3_000);
            MemoryDomainDescriptor d = ds[rnd.nextInt(regions)];
            long offset = rnd.nextLong(d.length());
            int length = (int) Math.min(d.length() - offset, rnd.nextInt(0, 300));
            AccessKind access = rnd.nextBoolean() ? AccessKind.READ : AccessKind.WRITE;
            TranslationClient client = TranslationClient.values()[rnd.nextInt(4)];
            long id = k;
            events.loop.scheduleAt(at, (now, ref, arg) ->
                events.translate(client, d.mdh(), offset, length, access, id), null, 0);
            EventHandler tryFast = (now, ref, arg) -> {
              if (fast.iommu.translateHit(client, d.mdh(), offset, length, access, Rig.TAG, Rig.KEY, hit)) {
                fastCount[0]++;
                fast.done.add(new Rig.Done(id, hit.completesAtPs(), Status.OK, hit.physicalAddress(), length));
              } else {
                fast.translate(client, d.mdh(), offset, length, access, id);
              }
            };
            fast.loop.scheduleAt(at, tryFast, null, 0);
          }
          events.loop.run();
          fast.loop.run();
          fastHits = fastCount[0];
          events.done.sort(Comparator.comparingLong(Rig.Done::id));
          fast.done.sort(Comparator.comparingLong(Rig.Done::id));
          assertThat(fast.done).isEqualTo(events.done);
          IommuStatistics got = fast.iommu.statistics();
          IommuStatistics expected = events.iommu.statistics();
          assertThat(withoutInFlightStalls(got)).isEqualTo(withoutInFlightStalls(expected));
          // The one approximation: a request arriving exactly when a fast hit completes finds its place free,
          // where the event path may still count it against the in-flight limit.
          assertThat(got.total().stallsInFlightLimit()).isBetween(
              expected.total().stallsInFlightLimit() - fastHits, expected.total().stallsInFlightLimit());
          // A fast hit holds its place until its completion time, which the clock may not have reached yet.
          fast.loop.scheduleAt(fast.loop.now() + config.hitLatencyPs(), (now, ref, arg) -> { }, null, 0);
          fast.loop.run();
          assertThat(fast.iommu.inFlight()).isZero();
          totalFastHits[0] += fastHits;
          if (fastHits > 0) {
            inFlightStallsBesideFastHits[0] += fast.iommu.statistics().total().stallsInFlightLimit();
          }
        });
    // The streams must exercise the fast path, and fast hits holding in-flight places that others wait for. The count
    // varies with the random streams (a full build at stop 70 drew 819 and failed the bound of 1,000 this had):
    // 100 still says the fast path ran on many streams, well under the lowest count known (819)
    assertThat(totalFastHits[0]).isGreaterThan(100);
    assertThat(inFlightStallsBesideFastHits[0]).isPositive();
  }
}
