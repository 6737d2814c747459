package io.github.ariesmodel.testkit.core;

import io.github.ariesmodel.core.PhysicalAddress;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.HostMemory;
import org.junit.jupiter.api.Nested;

/** The project's host memory keeps the host-memory contract, small and as large as a physical address allows. */
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
}
