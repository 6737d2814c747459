package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.TranslationClient;
import org.junit.jupiter.api.Test;

/**
 * A translation whose registration is deregistered while it is in the pipeline fails {@code INVALID_MDH} (stop 64's
 * fault hunt): its walk used to read the context's tables as they were when it ran, so once a new registration took
 * the freed IO-virtual range, a PUT in flight for the old one landed in the new one's memory with status OK.
 */
class DeregisteredInFlightTest {

  private static MemoryRegistration reg(long va) {
    return MemoryRegistration.of(va, 64 * 1024, Rig.TAG, Rig.KEY);
  }

  @Test
  void aWalkInFlightWhenItsRegistrationGoesFailsAndNeverReachesTheNextRegistration() {
    Rig r = new Rig(IommuConfig.defaults());
    MemoryDomainDescriptor a = r.iommu.register(reg(0x10_0000L));
    r.translate(TranslationClient.NETWORK_REQUEST, a.mdh(), 8192, 64, AccessKind.WRITE, 1);
    r.iommu.deregister(a.mdh());
    MemoryDomainDescriptor b = r.iommu.register(reg(0x90_0000L));
    assertThat(r.iommu.ioVirtualBase(b.mdh())).as("the new registration took the freed range")
        .isEqualTo(r.iommu.ioVirtualBase(a.mdh()));
    r.translate(TranslationClient.NETWORK_REQUEST, b.mdh(), 8192, 64, AccessKind.WRITE, 2);
    r.loop.run();
    assertThat(r.doneWithId(1).status()).isEqualTo(Status.INVALID_MDH);
    assertThat(r.doneWithId(1).physical()).isZero();
    assertThat(r.doneWithId(2).status()).isEqualTo(Status.OK);
    assertThat(r.doneWithId(2).physical())
        .isEqualTo(r.iommu.translateNow(b.mdh(), 8192, 64, AccessKind.WRITE, Rig.TAG, Rig.KEY).physicalAddress());
  }

  @Test
  void everyQueuedRequestOfADeregisteredMdhFailsAndTheOthersAreServed() {
    Rig r = new Rig(IommuConfig.defaults());
    MemoryDomainDescriptor a = r.iommu.register(reg(0x10_0000L));
    MemoryDomainDescriptor c = r.iommu.register(reg(0x50_0000L));
    for (int i = 0; i < 16; i++) { // one a page: more than the pipeline holds at once, so some wait in its queue
      r.translate(TranslationClient.NETWORK_REQUEST, a.mdh(), 4096L * i, 8, AccessKind.READ, i);
      r.translate(TranslationClient.NETWORK_REQUEST, c.mdh(), 4096L * i, 8, AccessKind.READ, 100 + i);
    }
    r.iommu.deregister(a.mdh());
    r.loop.run();
    assertThat(r.done).hasSize(32);
    for (int i = 0; i < 16; i++) {
      assertThat(r.doneWithId(i).status()).as("a's request %s", i).isEqualTo(Status.INVALID_MDH);
      assertThat(r.doneWithId(100 + i).status()).as("c's request %s", i).isEqualTo(Status.OK);
    }
    assertThat(r.iommu.inFlight()).isZero();
  }
}
