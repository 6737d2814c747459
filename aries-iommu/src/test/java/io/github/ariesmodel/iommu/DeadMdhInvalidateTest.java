package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import org.junit.jupiter.api.Test;

/**
 * "Invalidate MDD" of an MDH that was deregistered, with tables per context: its lines went when it was, and its
 * tables may have gone back and been handed to a later registration since, so the command must not walk them.
 */
class DeadMdhInvalidateTest {

  private static final long PAGE = 4096;

  @Test
  void invalidatingADeadMdhLeavesTheLinesOfTheRegistrationNowInItsFormerTablesAlone() {
    Rig rig = new Rig(IommuConfig.builder().pageTables(PageTables.PER_CONTEXT).build(), 1L << 34);
    MemoryDomainDescriptor a = rig.iommu.register(MemoryRegistration.of(0, PAGE, Rig.TAG, Rig.KEY));
    long aRoot = rig.iommu.rootTable(a.mdh());
    rig.translate(a.mdh(), 64, 1);
    rig.loop.run();
    assertThat(rig.iommu.deregisterAndFree(a.mdh(), rig.memory)).isTrue(); // the context's last: its tables go back
    MemoryDomainDescriptor b = rig.iommu.register(MemoryRegistration.of(0, PAGE, Rig.TAG, Rig.KEY));
    assertThat(rig.iommu.rootTable(b.mdh())).as("the allocator hands a's tables to b").isEqualTo(aRoot);
    rig.translate(b.mdh(), 64, 2);
    rig.loop.run();
    long missesBefore = rig.iommu.statistics().total().misses();
    long invalidationsBefore = rig.iommu.statistics().invalidations();

    rig.iommu.invalidateMdd(a.mdh());

    assertThat(rig.iommu.statistics().invalidations()).as("no line of b's dropped").isEqualTo(invalidationsBefore);
    rig.translate(b.mdh(), 128, 3);
    rig.loop.run();
    assertThat(rig.iommu.statistics().total().misses()).as("b still hits").isEqualTo(missesBefore);
  }
}
