package io.github.ariesmodel.testkit.core;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.cache.HostCacheConfig;
import io.github.ariesmodel.core.cache.SetAssociativeHostCache;
import io.github.ariesmodel.core.spi.HostCache;
import io.github.ariesmodel.core.spi.HostCacheStatistic;
import io.github.ariesmodel.core.spi.HostMemory;
import org.junit.jupiter.api.Test;

/** The host-cache contract fails a cache whose NIC writes go around a cached line (the CPU then reads stale data). */
class HostCacheContractCatchesFlawsTest {

  /** A cache that forgets the seed's rule: NIC writes go to memory and leave a cached copy stale. */
  static class StaleOnNicWrite implements HostCache {
    final SetAssociativeHostCache inner;

    StaleOnNicWrite(HostMemory memory) {
      inner = new SetAssociativeHostCache(memory, HostCacheConfig.xc40().withGeometry(8 * 2 * 64, 64, 2));
    }

    @Override
    public HostMemory memory() {
      return inner.memory();
    }

    @Override
    public long cpuLoad(long address, byte[] dst, int dstOffset, int length) {
      return inner.cpuLoad(address, dst, dstOffset, length);
    }

    @Override
    public long cpuStore(long address, byte[] src, int srcOffset, int length) {
      return inner.cpuStore(address, src, srcOffset, length);
    }

    @Override
    public long nicWrite(long address, byte[] src, int srcOffset, int length) {
      inner.memory().write(address, src, srcOffset, length);
      return 0;
    }

    @Override
    public long nicRead(long address, byte[] dst, int dstOffset, int length) {
      return inner.nicRead(address, dst, dstOffset, length);
    }

    @Override
    public long count(HostCacheStatistic statistic) {
      return inner.count(statistic);
    }
  }

  @Test
  void aStaleLineFailsTheContract() {
    HostCacheContract contract = new HostCacheContract() {
      @Override
      protected HostCache create(HostMemory memory) {
        return new StaleOnNicWrite(memory);
      }
    };
    assertThatThrownBy(contract::theNicSeesWhatTheCpuStoredAndTheCpuWhatTheNicWrote)
        .isInstanceOf(AssertionError.class).hasMessageContaining("CPU read of a cached line the NIC wrote");
    assertThatThrownBy(contract::everyReadReturnsTheLastWriteWhicheverPathItTook).isInstanceOf(AssertionError.class);
  }

  /** A cache whose NIC view names itself as the physical memory, not the memory it views (stop 74's review). */
  static final class ViewNamesItself extends StaleOnNicWrite {
    ViewNamesItself(HostMemory memory) {
      super(memory);
    }

    @Override
    public long nicWrite(long address, byte[] src, int srcOffset, int length) {
      return inner.nicWrite(address, src, srcOffset, length);
    }

    @Override
    public HostMemory nicView() {
      return new io.github.ariesmodel.core.spi.ForwardingHostMemory(inner.nicView()) {
        @Override
        public HostMemory physicalMemory() {
          return this;
        }
      };
    }
  }

  @Test
  void aViewNamingItselfAsThePhysicalMemoryFailsTheContract() {
    HostCacheContract contract = new HostCacheContract() {
      @Override
      protected HostCache create(HostMemory memory) {
        return new ViewNamesItself(memory);
      }
    };
    assertThatThrownBy(contract::theViewsSayTheyViewTheCachesMemory).isInstanceOf(AssertionError.class)
        .hasMessageContaining("physicalMemory() of a view of the cache");
    contract.theNicSeesWhatTheCpuStoredAndTheCpuWhatTheNicWrote(); // sound otherwise
  }
}
