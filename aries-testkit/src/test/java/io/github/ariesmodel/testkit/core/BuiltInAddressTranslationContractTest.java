package io.github.ariesmodel.testkit.core;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.sim.FlatTranslation;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.Scheduler;
import io.github.ariesmodel.iommu.BuiltInPolicy;
import io.github.ariesmodel.iommu.Iommu;
import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.iommu.PageTables;
import java.util.OptionalLong;
import org.junit.jupiter.api.Nested;

/** Every translator in the project keeps the address-translation contract, in several configurations. */
class BuiltInAddressTranslationContractTest {

  /** The IOMMU promises more than the port: a registration's frames are contiguous from its physical base. */
  abstract static class IommuContract extends AddressTranslationContract<Iommu> {
    abstract IommuConfig config();

    @Override
    protected Iommu create(HostMemory memory, Scheduler scheduler) {
      return new Iommu(memory, scheduler, config());
    }

    @Override
    protected OptionalLong expectedPhysicalAddress(Iommu iommu, MemoryDomainDescriptor d, long offset) {
      return OptionalLong.of(iommu.physicalBase(d.mdh()) + offset);
    }
  }

  @Nested
  class IommuDefaults extends IommuContract {
    @Override
    IommuConfig config() {
      return IommuConfig.defaults();
    }

    @Override
    protected boolean offersFastHits() {
      return true;
    }
  }

  /** One line of one PTE, one request in flight, one fetch buffer: every translation misses and stalls. */
  @Nested
  class IommuSmallest extends IommuContract {
    @Override
    IommuConfig config() {
      return IommuConfig.builder().ways(1).sets(1).ptesPerLine(1).maxInFlight(1).fetchBuffers(1).build();
    }
  }

  /** Prefetching, random replacement, wide lines and no latency at all. */
  @Nested
  class IommuPrefetchRandomUntimed extends IommuContract {
    @Override
    IommuConfig config() {
      return IommuConfig.builder().ways(2).sets(4).ptesPerLine(64).policy(BuiltInPolicy.RANDOM).seed(5)
          .prefetch(true).pteFetchLatencyPs(0).hitLatencyPs(0).issueIntervalPs(0).build();
    }
  }

  @Nested
  class IommuPseudoLruManyInFlight extends IommuContract {
    @Override
    IommuConfig config() {
      return IommuConfig.builder().ways(8).sets(8).policy(BuiltInPolicy.PSEUDO_LRU).maxInFlight(256)
          .fetchBuffers(2).build();
    }

    @Override
    protected boolean offersFastHits() {
      return true;
    }
  }

  /** Page tables per translation context, the hardware's shape: registrations share their context's tables. */
  @Nested
  class IommuPerContext extends IommuContract {
    @Override
    IommuConfig config() {
      return IommuConfig.builder().pageTables(PageTables.PER_CONTEXT).build();
    }

    @Override
    protected boolean offersFastHits() {
      return true;
    }
  }

  /** Per-context tables through the smallest cache, with prefetch: neighbours' PTEs share the one line. */
  @Nested
  class IommuPerContextSmallestPrefetch extends IommuContract {
    @Override
    IommuConfig config() {
      return IommuConfig.builder().pageTables(PageTables.PER_CONTEXT).ways(1).sets(1).ptesPerLine(2)
          .maxInFlight(1).fetchBuffers(1).prefetch(true).build();
    }
  }

  @Nested
  class FlatUntimed extends AddressTranslationContract<FlatTranslation> {
    @Override
    protected FlatTranslation create(HostMemory memory, Scheduler scheduler) {
      return new FlatTranslation(memory, scheduler, 0);
    }
  }

  @Nested
  class FlatTimed extends AddressTranslationContract<FlatTranslation> {
    @Override
    protected FlatTranslation create(HostMemory memory, Scheduler scheduler) {
      return new FlatTranslation(memory, scheduler, 250_000);
    }
  }
}
