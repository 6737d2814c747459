package io.github.ariesmodel.testkit.core;

import io.github.ariesmodel.core.cache.HostCacheConfig;
import io.github.ariesmodel.core.cache.SetAssociativeHostCache;
import io.github.ariesmodel.core.spi.HostCache;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.NicWritePolicy;
import org.junit.jupiter.api.Nested;

/** The project's host caches keep the host-cache contract: a small set-associative one under each policy, and none. */
class BuiltInHostCacheContractTest {

  private static HostCache small(HostMemory memory, NicWritePolicy policy) {
    return new SetAssociativeHostCache(memory,
        HostCacheConfig.xc40().withGeometry(8 * 2 * 64, 64, 2).withNicWritePolicy(policy));
  }

  @Nested
  class Update extends HostCacheContract {
    @Override
    protected HostCache create(HostMemory memory) {
      return small(memory, NicWritePolicy.UPDATE);
    }
  }

  @Nested
  class Invalidate extends HostCacheContract {
    @Override
    protected HostCache create(HostMemory memory) {
      return small(memory, NicWritePolicy.INVALIDATE);
    }
  }

  @Nested
  class Bypass extends HostCacheContract {
    @Override
    protected HostCache create(HostMemory memory) {
      return small(memory, NicWritePolicy.BYPASS);
    }
  }

  @Nested
  class Allocate extends HostCacheContract {
    @Override
    protected HostCache create(HostMemory memory) {
      return small(memory, NicWritePolicy.ALLOCATE);
    }
  }

  @Nested
  class None extends HostCacheContract {
    @Override
    protected HostCache create(HostMemory memory) {
      return HostCache.none(memory);
    }
  }
}
