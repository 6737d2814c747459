package org.example.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.iommu.IommuConfig;
import io.github.ariesmodel.iommu.ReplacementPolicies;
import io.github.ariesmodel.iommu.spi.ReplacementPolicy;
import io.github.ariesmodel.iommu.spi.ReplacementPolicyFactory;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.system.shmem.ShmemJob;
import io.github.ariesmodel.system.shmem.Symmetric;
import io.github.ariesmodel.testkit.iommu.ReplacementPolicyContract;
import org.junit.jupiter.api.Test;

/** FIFO proves itself with the contract from aries-testkit, found by name through ServiceLoader. */
class FifoPolicyContractTest extends ReplacementPolicyContract {

  @Override
  protected ReplacementPolicyFactory factory() {
    return ReplacementPolicies.byName("fifo");
  }

  @Test
  void isListedAndEvictsTheOldestFillWhateverItsUse() {
    assertThat(ReplacementPolicies.names()).contains("fifo");
    ReplacementPolicy p = factory().create(1, 4, 1);
    for (int w = 0; w < 4; w++) {
      p.onFill(0, w);
    }
    p.onAccess(0, 0); // LRU would now spare way 0; FIFO does not
    assertThat(p.victim(0, 0b1111)).isZero();
    p.onFill(0, 0);
    assertThat(p.victim(0, 0b1111)).isEqualTo(1);
    assertThat(p.victim(0, 0b1100)).isEqualTo(2);
  }

  @Test
  void aSystemsIommusUseItByName() {
    AriesSystem sys = AriesSystem.builder().system("default")
        .iommu(IommuConfig.builder().policy(ReplacementPolicies.byName("fifo")).build()).build();
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 200).build();
    Symmetric buf = job.allocate(1 << 20);
    job.run(pe -> {
      if (pe.myPe() == 0) {
        for (int i = 0; i < 64; i++) {
          pe.putLong(buf, 4096L * i, i, 1);
        }
        pe.quiet();
      }
    });
    assertThat(sys.node(200).iommuStatistics().orElseThrow().client(TranslationClient.NETWORK_REQUEST).misses())
        .isPositive();
    long[] seen = new long[1];
    job.run(pe -> {
      if (pe.myPe() == 1) {
        seen[0] = pe.localLong(buf, 4096L * 63);
      }
    });
    assertThat(seen[0]).as("the last put arrived").isEqualTo(63);
    assertThat(sys.statistics().nics().transactionsFailed()).isZero();
  }
}
