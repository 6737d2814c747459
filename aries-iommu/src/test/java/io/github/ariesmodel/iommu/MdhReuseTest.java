package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import org.junit.jupiter.api.Test;

/**
 * MDH reuse made visible and avoidable (issue 14): handles are handed out round robin, so after 4,095 further
 * registrations a stale handle reaches the new owner. The generation counter shows it; with
 * {@code reuseMdhs(false)} the stale handle faults instead.
 */
class MdhReuseTest {

  private static final int PTAG = 3;
  private static final int PKEY = 5;

  private static Iommu iommu(boolean reuse) {
    return new Iommu(new SparsePhysicalMemory(1L << 32), new DeterministicEventLoop(),
        IommuConfig.builder().reuseMdhs(reuse).build());
  }

  /** Registers and deregisters 4,095 more times after the first handle was released; returns the first handle. */
  private static int churn(Iommu m) {
    MemoryDomainDescriptor first = m.register(MemoryRegistration.of(0x10_0000L, 4096, PTAG, PKEY));
    m.deregister(first.mdh());
    for (int i = 0; i < 4095; i++) {
      m.deregister(m.register(MemoryRegistration.of(0x10_0000L, 4096, PTAG, PKEY)).mdh());
    }
    return first.mdh();
  }

  @Test
  void byDefaultAStaleHandleReachesTheNewOwnerAndTheGenerationShowsIt() {
    Iommu m = iommu(true);
    int stale = churn(m);
    assertThat(m.mdhGeneration(stale)).isEqualTo(1);
    MemoryDomainDescriptor owner = m.register(MemoryRegistration.of(0x20_0000L, 4096, PTAG, PKEY));
    assertThat(owner.mdh()).as("round robin came back to the first handle").isEqualTo(stale);
    assertThat(m.mdhGeneration(stale)).isEqualTo(2);
    assertThat(m.translateNow(stale, 0, 8, AccessKind.WRITE, PTAG, PKEY).status()).isEqualTo(Status.OK);
  }

  @Test
  void withoutReuseAStaleHandleFaultsAndExhaustionIsAClearError() {
    Iommu m = iommu(false);
    int stale = churn(m);
    assertThat(m.translateNow(stale, 0, 8, AccessKind.WRITE, PTAG, PKEY).status()).isEqualTo(Status.INVALID_MDH);
    assertThatThrownBy(() -> m.register(MemoryRegistration.of(0x20_0000L, 4096, PTAG, PKEY)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("reuseMdhs is false");
    assertThat(m.mdhGeneration(stale)).isEqualTo(1);
  }
}
