package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.PageTableEntry;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.TranslationClient;
import org.junit.jupiter.api.Test;

/** Registration, page tables, invalidation, laziness and caller mistakes. */
class IommuTest {

  @Test
  void constructionIsLazyAndRegistrationBuildsRealPageTables() {
    Rig rig = new Rig(IommuConfig.defaults());
    assertThat(rig.iommu.cache()).isNull();
    assertThat(rig.memory.materializedPages()).isZero();
    MemoryDomainDescriptor d = rig.iommu.register(MemoryRegistration.of(1L << 30, 3 << 20, Rig.TAG, Rig.KEY));
    assertThat(rig.iommu.cache()).isNull();
    assertThat(d.mdh()).isZero();
    assertThat(d.valid()).isTrue();
    assertThat(rig.iommu.descriptor(0)).contains(d);
    assertThat(rig.iommu.descriptor(1)).isEmpty();
    // 768 pages: 2 leaf tables' worth of PTEs (6 KB) and one directory page.
    PageTableEntry dir = PageTableEntry.unpack(rig.memory.readLong(rig.iommu.rootTable(0) + 8));
    assertThat(dir.present()).isTrue();
    assertThat(dir.leaf()).isFalse();
    PageTableEntry leaf = Rig.walk(rig.memory, rig.iommu.rootTable(0), PageSize.SIZE_4K, 700);
    assertThat(leaf).isEqualTo(PageTableEntry.page(rig.iommu.physicalBase(0) + 700 * 4096L, PageSize.SIZE_4K, true));
    assertThat(PageTableEntry.unpack(rig.memory.readLong(rig.iommu.rootTable(0) + 16)).present()).isFalse();
  }

  @Test
  void hugePagesUseOneLevelTableAlignedFrames() {
    Rig rig = new Rig(IommuConfig.defaults());
    MemoryDomainDescriptor d =
        rig.iommu.register(MemoryRegistration.of(0, 5L << 30, Rig.TAG, Rig.KEY).withPageSize(PageSize.SIZE_1G));
    assertThat(rig.iommu.physicalBase(d.mdh()) % (1L << 30)).isZero();
    PageTableEntry e = Rig.walk(rig.memory, rig.iommu.rootTable(d.mdh()), PageSize.SIZE_1G, 4);
    assertThat(e).isEqualTo(PageTableEntry.page(rig.iommu.physicalBase(d.mdh()) + (4L << 30), PageSize.SIZE_1G, true));
    var r = rig.iommu.translateNow(d.mdh(), (4L << 30) + 5, 100, AccessKind.READ, Rig.TAG, Rig.KEY);
    assertThat(r.physicalAddress()).isEqualTo(rig.iommu.physicalBase(d.mdh()) + (4L << 30) + 5);
    assertThat(r.contiguousBytes()).isEqualTo(100);
    var end = rig.iommu.translateNow(d.mdh(), (1L << 30) - 10, 100, AccessKind.READ, Rig.TAG, Rig.KEY);
    assertThat(end.contiguousBytes()).isEqualTo(10);
  }

  @Test
  void zeroLengthAccessAtTheEndIsInBounds() {
    Rig rig = new Rig(IommuConfig.defaults());
    MemoryDomainDescriptor d = rig.iommu.register(MemoryRegistration.of(0, 8192, Rig.TAG, Rig.KEY));
    var r = rig.iommu.translateNow(d.mdh(), 8192, 0, AccessKind.WRITE, Rig.TAG, Rig.KEY);
    assertThat(r.status()).isEqualTo(Status.OK);
    assertThat(r.physicalAddress()).isEqualTo(rig.iommu.physicalBase(d.mdh()) + 8192);
    assertThat(r.contiguousBytes()).isZero();
    rig.iommu.translate(TranslationClient.NETWORK_REQUEST, d.mdh(), 8192, 0, AccessKind.WRITE, Rig.TAG, Rig.KEY,
        rig.listener, null, 5);
    rig.loop.run();
    assertThat(rig.doneWithId(5).physical()).isEqualTo(r.physicalAddress());
  }

  @Test
  void deregistrationMakesTheMdhStaleAndInvalidatesItsLines() {
    // Tables of its own: its directory line goes too (in a context's tables it is shared and stays;
    // PerContextPageTablesTest).
    Rig rig = new Rig(IommuConfig.builder().pageTables(PageTables.PER_REGISTRATION).build());
    MemoryDomainDescriptor a = rig.iommu.register(MemoryRegistration.of(0, 1 << 20, Rig.TAG, Rig.KEY));
    MemoryDomainDescriptor b = rig.iommu.register(MemoryRegistration.of(0, 1 << 20, Rig.TAG, Rig.KEY));
    rig.translate(a.mdh(), 0, 0);
    rig.translate(b.mdh(), 0, 1);
    rig.loop.run();
    rig.iommu.deregister(a.mdh());
    assertThat(rig.iommu.descriptor(a.mdh()).orElseThrow().valid()).isFalse();
    var s = rig.iommu.statistics();
    assertThat(s.invalidations()).isEqualTo(2); // a's directory line and leaf line
    assertThat(s.invalidationCommands()).isEqualTo(1);
    rig.translate(a.mdh(), 0, 2);
    rig.translate(b.mdh(), 0, 3);
    rig.loop.run();
    assertThat(rig.doneWithId(2).status()).isEqualTo(Status.INVALID_MDH);
    assertThat(rig.doneWithId(3).status()).isEqualTo(Status.OK);
    assertThat(rig.iommu.statistics().total().hits()).isEqualTo(1);
    // The stale MDH is not reused at once.
    assertThat(rig.iommu.register(MemoryRegistration.of(0, 4096, Rig.TAG, Rig.KEY)).mdh()).isEqualTo(2);
    assertThatThrownBy(() -> rig.iommu.deregister(a.mdh())).hasMessageContaining("mdh 0 is not registered");
  }

  @Test
  void cachedPteSurvivesUnmapUntilRangeInvalidation() {
    IommuConfig c = IommuConfig.defaults();
    Rig rig = new Rig(c);
    MemoryDomainDescriptor d = rig.iommu.register(MemoryRegistration.of(0, 1 << 20, Rig.TAG, Rig.KEY));
    rig.translate(d.mdh(), 4096 * 9, 0);
    rig.loop.run();
    rig.iommu.unmapPage(d.mdh(), 4096 * 9);
    rig.translate(d.mdh(), 4096 * 9, 1);
    rig.loop.run();
    assertThat(rig.doneWithId(1).status()).as("stale cached PTE, as on hardware").isEqualTo(Status.OK);
    long cost = rig.iommu.invalidateRange(d.mdh(), 4096 * 9, 1);
    assertThat(cost).isEqualTo(c.issueIntervalPs());
    rig.translate(d.mdh(), 4096 * 9, 2);
    rig.translate(d.mdh(), 4096 * 10, 3);
    rig.loop.run();
    assertThat(rig.doneWithId(2).status()).isEqualTo(Status.TRANSLATION_FAULT);
    assertThat(rig.doneWithId(3).status()).isEqualTo(Status.OK);
    assertThat(rig.iommu.statistics().invalidations()).isEqualTo(1);
    assertThat(rig.iommu.invalidateAll()).isEqualTo(c.sets() * c.issueIntervalPs());
    assertThat(rig.iommu.statistics().invalidations()).isEqualTo(3);
  }

  @Test
  void callerMistakesThrowWithParameterRangeAndValue() {
    Rig rig = new Rig(IommuConfig.defaults());
    assertThatThrownBy(() -> rig.iommu.translateNow(4096, 0, 8, AccessKind.READ, 0, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("4096");
    assertThatThrownBy(() -> rig.iommu.translateNow(1, 0, -1, AccessKind.READ, 0, 0))
        .hasMessageContaining("length must be >= 0 but was -1");
    assertThatThrownBy(() -> rig.iommu.unmapPage(3, 0)).hasMessageContaining("mdh 3 was never registered");
    assertThatThrownBy(() -> IommuConfig.builder().sets(3).build())
        .hasMessage("sets must be a power of two in [1, 1048576] but was 3");
    assertThatThrownBy(() -> IommuConfig.builder().ways(65).build())
        .hasMessage("ways must be in [1, 64] but was 65");
    assertThatThrownBy(() -> IommuConfig.builder().ptesPerLine(6).build())
        .hasMessageContaining("ptesPerLine must be a power of two in [1, 512] but was 6");
    assertThatThrownBy(() -> IommuConfig.builder().pteFetchLatencyPs(-1).build())
        .hasMessage("pteFetchLatencyPs must be in [0, 1e9] ps but was -1");
    // a latency that would overflow the clock once added to it (the library fuzz run's Long.MAX_VALUE)
    assertThatThrownBy(() -> IommuConfig.builder().hitLatencyPs(Long.MAX_VALUE).build())
        .hasMessage("hitLatencyPs must be in [0, 1e9] ps but was " + Long.MAX_VALUE);
    // geometries the cache's arrays could not hold, and pseudo-LRU's ways, refused when configured (they used to
    // fail at the first translation with an array error)
    assertThatThrownBy(() -> IommuConfig.builder().sets(1 << 20).ways(64).ptesPerLine(512).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sets * ways * ptesPerLine (the PTEs the cache holds) must be at most 16777216 but was"
            + " 1048576 * 64 * 512 = 34359738368");
    assertThat(IommuConfig.builder().sets(1 << 19).ways(4).ptesPerLine(8).build().sets()).isEqualTo(1 << 19);
    assertThatThrownBy(() -> IommuConfig.builder().policy(BuiltInPolicy.PSEUDO_LRU).ways(3).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ways must be a power of two in [1, 64] for pseudo-LRU but was 3");
    assertThatThrownBy(() -> Iommu.largestLength(PageSize.SIZE_4K, -1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("capacity must be >= 0 but was -1");
    assertThatThrownBy(() -> Iommu.largestLength(null, 1 << 20)).hasMessage("ps must not be null");
    assertThat(Iommu.largestLength(PageSize.SIZE_4K, 0)).isZero();
    assertThatThrownBy(() -> BuiltInPolicy.parse("fifo"))
        .hasMessage("policy must be one of lru, plru, random but was \"fifo\"");
    assertThatThrownBy(() -> BuiltInPolicy.PSEUDO_LRU.create(4, 3, 0))
        .hasMessageContaining("power of two").hasMessageContaining("3");
    assertThat(BuiltInPolicy.parse("Pseudo-LRU")).isEqualTo(BuiltInPolicy.PSEUDO_LRU);
  }

  @Test
  void invalidationBeforeFirstUseCostsTheScanAndCountsTheCommand() {
    Rig rig = new Rig(IommuConfig.builder().sets(8).issueIntervalPs(10).build());
    assertThat(rig.iommu.invalidateMdd(5)).isEqualTo(80);
    assertThat(rig.iommu.statistics().invalidationCommands()).isEqualTo(1);
    assertThat(rig.iommu.statistics().invalidations()).isZero();
  }
}
