package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.AddressTranslation.TranslationResult;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The IOMMU and core's flat translator, given the same registrations and deregistrations, agree on the status of
 * every request (valid and violating alike) and on the byte position inside the registration; the IOMMU additionally
 * cuts {@code contiguousBytes} at page ends.
 */
class FlatTranslationAgreementProperties {

  private static final PageSize[] SIZES = {PageSize.SIZE_4K, PageSize.SIZE_2M, PageSize.ofBytes(4L << 20)};
  private static final AccessKind[] ACCESSES = AccessKind.values();

  @Test
  void statusesAndOffsetsAgreeWithFlatTranslation() {
    qt().withExamples(50).forAll(longs().all()).checkAssert(seed -> {
      SplittableRandom rnd = new SplittableRandom(seed);
      DeterministicEventLoop loop = new DeterministicEventLoop();
      Iommu iommu = new Iommu(new SparsePhysicalMemory(1L << 36), loop, IommuConfig.defaults());
      FlatTranslation flat = new FlatTranslation(new SparsePhysicalMemory(1L << 36), loop, 0);
      int regions = 1 + rnd.nextInt(6);
      for (int i = 0; i < regions; i++) {
        PageSize ps = SIZES[rnd.nextInt(SIZES.length)];
        MemoryRegistration r = new MemoryRegistration(ps.bytes() * rnd.nextInt(1, 100),
            1 + rnd.nextLong(3 * ps.bytes()), ps, rnd.nextBoolean(), rnd.nextInt(3), rnd.nextInt(3), 0, -1, false);
        assertThat(iommu.register(r).mdh()).isEqualTo(flat.register(r).mdh());
        if (rnd.nextInt(4) == 0) {
          iommu.deregister(i);
          flat.deregister(i);
        }
      }
      for (int k = 0; k < 300; k++) {
        int mdh = rnd.nextInt(regions + 2);
        long offset = rnd.nextInt(4) == 0 ? rnd.nextLong(-5, 1L << 24) : rnd.nextLong(0, 5L << 20);
        int length = rnd.nextInt(0, 9000);
        AccessKind access = ACCESSES[rnd.nextInt(ACCESSES.length)];
        int tag = rnd.nextInt(3);
        int key = rnd.nextInt(3);
        TranslationResult a = iommu.translateNow(mdh, offset, length, access, tag, key);
        TranslationResult b = flat.translateNow(mdh, offset, length, access, tag, key);
        assertThat(a.status()).as("request %d", k).isEqualTo(b.status());
        if (a.status() == Status.OK) {
          long iommuBase = iommu.physicalBase(mdh);
          long flatBase = flat.translateNow(mdh, 0, 0, AccessKind.READ, tag, key).physicalAddress();
          assertThat(a.physicalAddress() - iommuBase).isEqualTo(b.physicalAddress() - flatBase);
          PageSize ps = iommu.descriptor(mdh).orElseThrow().pageSize();
          assertThat(a.contiguousBytes()).isEqualTo(
              (int) Math.min(b.contiguousBytes(), ps.bytes() - ps.pageOffset(offset)));
        }
      }
    });
  }
}
