package io.github.ariesmodel.testkit.core;

import io.github.ariesmodel.core.PhysicalAddress;
import io.github.ariesmodel.core.cache.HostCacheConfig;
import io.github.ariesmodel.core.cache.SetAssociativeHostCache;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.HostCache;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.NicWritePolicy;
import org.junit.jupiter.api.Nested;

/**
 * The project's host memory keeps the host-memory contract, small and as large as a physical address allows; so do the
 * CPU's and the NIC's views of memory through a host cache (a small one, so the contract's accesses evict), under
 * each NIC write policy, and through the pass-through cache.
 */
class BuiltInHostMemoryContractTest {

  @Nested
  class Small extends HostMemoryContract {
    @Override
    protected HostMemory create() {
      return new SparsePhysicalMemory(8L << 20);
    }
  }

  @Nested
  class LargestPhysicalAddress extends HostMemoryContract {
    @Override
    protected HostMemory create() {
      return new SparsePhysicalMemory(PhysicalAddress.MAX + 1);
    }
  }

  /** The SPI's forwarding base, with nothing overridden (stop 74). */
  @Nested
  class Forwarding extends HostMemoryContract {
    @Override
    protected HostMemory create() {
      return new io.github.ariesmodel.core.spi.ForwardingHostMemory(new SparsePhysicalMemory(8L << 20)) { };
    }
  }

  private static SetAssociativeHostCache smallCache(NicWritePolicy policy) {
    return new SetAssociativeHostCache(new SparsePhysicalMemory(8L << 20),
        HostCacheConfig.xc40().withGeometry(16 * 4 * 64, 64, 4).withNicWritePolicy(policy));
  }

  @Nested
  class CpuViewOfACache extends HostMemoryContract {
    @Override
    protected HostMemory create() {
      return smallCache(NicWritePolicy.UPDATE).cpuView();
    }
  }

  @Nested
  class NicViewOfAnUpdatingCache extends HostMemoryContract {
    @Override
    protected HostMemory create() {
      return smallCache(NicWritePolicy.UPDATE).nicView();
    }
  }

  @Nested
  class NicViewOfAnInvalidatingCache extends HostMemoryContract {
    @Override
    protected HostMemory create() {
      return smallCache(NicWritePolicy.INVALIDATE).nicView();
    }
  }

  @Nested
  class NicViewOfABypassedCache extends HostMemoryContract {
    @Override
    protected HostMemory create() {
      return smallCache(NicWritePolicy.BYPASS).nicView();
    }
  }

  @Nested
  class ViewOfNoCache extends HostMemoryContract {
    @Override
    protected HostMemory create() {
      return HostCache.none(new SparsePhysicalMemory(8L << 20)).cpuView();
    }
  }
}
