package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageTableEntries;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.core.spi.TranslationHit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A walk's page extent is the registration's page size (the context's pg_size), on every path: the untimed walk, the
 * timed walk and the fast hit. Until stop 77 the timed walk and the fast hit took it from the leaf PTE's size code,
 * so a 4 KB leaf written by hand with the 2 MB code translated 12 KiB as one contiguous range on those paths and 4 KiB
 * on the untimed one.
 */
class PteSizeCodeTest {

  @ParameterizedTest
  @EnumSource(PageTables.class)
  void aLeafsSizeCodeDoesNotWidenThePage(PageTables mode) {
    Rig rig = new Rig(IommuConfig.builder().pageTables(mode).build(), 1L << 36);
    MemoryDomainDescriptor d = rig.iommu.register(MemoryRegistration.of(0, 3 * 4096, Rig.TAG, Rig.KEY));
    long root = rig.iommu.rootTable(d.mdh());
    long page0 = rig.iommu.ioVirtualBase(d.mdh()) >>> 12;
    long dir = rig.memory.readLong(root + (page0 >>> 9) * 8);
    long leafAddress = PageTableEntries.physicalBase(dir) + (page0 & 511) * 8;
    long leaf = rig.memory.readLong(leafAddress);
    assertThat(PageTableEntries.pageSizeCode(leaf)).isZero();
    rig.memory.writeLong(leafAddress, leaf | (1L << PageTableEntries.SIZE_CODE_SHIFT)); // the 2 MB code

    assertThat(rig.iommu.translateNow(d.mdh(), 0, 3 * 4096, AccessKind.READ, Rig.TAG, Rig.KEY).contiguousBytes())
        .isEqualTo(4096);
    rig.translate(TranslationClient.NETWORK_REQUEST, d.mdh(), 0, 3 * 4096, AccessKind.READ, 1);
    rig.loop.run();
    Rig.Done timed = rig.doneWithId(1);
    assertThat(timed.status()).isEqualTo(Status.OK);
    assertThat(timed.contiguous()).isEqualTo(4096);

    // The lines are cached now: a fast hit of two pages is a straddling range, left to the event path; one page hits.
    TranslationHit hit = new TranslationHit();
    assertThat(rig.iommu.translateHit(TranslationClient.NETWORK_REQUEST, d.mdh(), 0, 2 * 4096, AccessKind.READ,
        Rig.TAG, Rig.KEY, hit)).isFalse();
    assertThat(rig.iommu.translateHit(TranslationClient.NETWORK_REQUEST, d.mdh(), 0, 4096, AccessKind.READ,
        Rig.TAG, Rig.KEY, hit)).isTrue();
  }
}
