package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.PageTableEntry;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.AddressTranslation.TranslationResult;
import io.github.ariesmodel.core.spi.TranslationClient;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Timed translations through the PTE cache agree with the untimed walk, with an independent walk of the page tables
 * in memory, and with flat arithmetic (frames of a registration are contiguous), for 4 KB and huge pages, with tables
 * per registration and per translation context.
 */
class IommuTranslationProperties {

  private static final PageSize[] SIZES = {
    PageSize.SIZE_4K, PageSize.SIZE_4K, PageSize.SIZE_2M, PageSize.ofBytes(8L << 20), PageSize.SIZE_1G
  };

  @Test
  void timedTranslationsAgreeWithPageTableWalkAndFlatArithmetic() {
    qt().withExamples(40)
        .forAll(longs().all(), integers().between(1, 4), integers().between(0, 3))
        .checkAssert((seed, regions, geometry) -> {
          SplittableRandom rnd = new SplittableRandom(seed);
          IommuConfig config = IommuConfig.builder()
              .ways(1 << geometry).sets(32 >> geometry).ptesPerLine(8 << (geometry & 1))
              .fetchBuffers(1 + rnd.nextInt(8)).maxInFlight(1 + rnd.nextInt(32))
              .pageTables(rnd.nextBoolean() ? PageTables.PER_CONTEXT : PageTables.PER_REGISTRATION).build();
          Rig rig = new Rig(config);
          MemoryDomainDescriptor[] ds = new MemoryDomainDescriptor[regions];
          for (int i = 0; i < regions; i++) {
            PageSize ps = SIZES[rnd.nextInt(SIZES.length)];
            long maxPages = ps.isHuge() ? 4 : 3000;
            long length = 1 + rnd.nextLong(maxPages * ps.bytes());
            long base = ps.bytes() * rnd.nextLong(1, 1 << 10);
            ds[i] = rig.iommu.register(new MemoryRegistration(base, length, ps, true, Rig.TAG, Rig.KEY, i, -1,
                rnd.nextBoolean()));
          }
          int n = 300;
          long[] offsets = new long[n];
          int[] lengths = new int[n];
          int[] which = new int[n];
          for (int k = 0; k < n; k++) {
            which[k] = rnd.nextInt(regions);
            MemoryDomainDescriptor d = ds[which[k]];
            offsets[k] = rnd.nextLong(d.length());
            lengths[k] = (int) Math.min(d.length() - offsets[k], rnd.nextInt(1, 10_000));
            rig.translate(TranslationClient.values()[k & 3], d.mdh(), offsets[k], lengths[k], AccessKind.WRITE, k);
          }
          rig.loop.run();
          assertThat(rig.done).hasSize(n);
          for (int k = 0; k < n; k++) {
            MemoryDomainDescriptor d = ds[which[k]];
            PageSize ps = d.pageSize();
            Rig.Done got = rig.doneWithId(k);
            TranslationResult now =
                rig.iommu.translateNow(d.mdh(), offsets[k], lengths[k], AccessKind.WRITE, Rig.TAG, Rig.KEY);
            PageTableEntry pte = Rig.walk(rig.memory, rig.iommu.rootTable(d.mdh()), ps,
                (rig.iommu.ioVirtualBase(d.mdh()) + offsets[k]) >>> ps.shift());
            long expected = pte.physicalBase() + ps.pageOffset(offsets[k]);
            int contiguous = (int) Math.min(lengths[k], ps.bytesToPageEnd(offsets[k]));
            assertThat(got.status()).isEqualTo(Status.OK);
            assertThat(pte.present() && pte.leaf() && pte.pageSize().equals(ps)).isTrue();
            assertThat(got.physical()).as("walk, request %d", k).isEqualTo(expected);
            assertThat(got.physical()).as("flat").isEqualTo(rig.iommu.physicalBase(d.mdh()) + offsets[k]);
            assertThat(got.contiguous()).isEqualTo(contiguous);
            assertThat(now).isEqualTo(new TranslationResult(Status.OK, expected, contiguous));
          }
          var total = rig.iommu.statistics().total();
          assertThat(total.translations()).isEqualTo(n);
          assertThat(total.hits() + total.misses() + total.mergedMisses()).isEqualTo(n);
          assertThat(total.oneLevelWalks() + total.twoLevelWalks()).isEqualTo(n);
          assertThat(rig.iommu.inFlight()).isZero();
          assertThat(rig.iommu.queued()).isZero();
        });
  }

  @Test
  void sameConfigurationAndSeedGiveIdenticalResults() {
    qt().withExamples(10).forAll(longs().all()).checkAssert(seed -> {
      assertThat(run(seed)).isEqualTo(run(seed));
    });
  }

  private static String run(long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    Rig rig = new Rig(IommuConfig.builder().policy(BuiltInPolicy.RANDOM).seed(seed).build());
    MemoryDomainDescriptor d =
        rig.iommu.register(MemoryRegistration.of(0, 64L << 20, Rig.TAG, Rig.KEY).withPrefetch(true));
    for (int k = 0; k < 500; k++) {
      rig.translate(d.mdh(), rnd.nextLong(d.length() - 8), k);
    }
    rig.loop.run();
    var t = rig.iommu.statistics().total();
    return rig.done.toString() + t.hits() + "/" + t.misses() + "/" + t.mergedMisses() + "/" + t.totalLatencyPs();
  }
}
