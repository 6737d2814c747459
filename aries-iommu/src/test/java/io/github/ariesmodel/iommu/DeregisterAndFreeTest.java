package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.TranslationClient;
import org.junit.jupiter.api.Test;

/**
 * {@link Iommu#deregisterAndFree}: the memory goes back at once when nothing is under way, and later (at the next
 * registration or {@code deregisterAndFree} that finds the pipeline idle) when a translation or fetch is, so that no
 * walk reads tables a later owner of the bytes wrote.
 */
class DeregisterAndFreeTest {

  private static MemoryRegistration reg(long va) {
    return MemoryRegistration.of(va, 64 * 1024, Rig.TAG, Rig.KEY);
  }

  @Test
  void withNothingUnderWayEverythingGoesBackContextTablesIncluded() {
    Rig r = new Rig(IommuConfig.defaults());
    long before = r.memory.allocatedBytes();
    MemoryDomainDescriptor a = r.iommu.register(reg(0x10_0000L));
    r.translate(TranslationClient.NETWORK_REQUEST, a.mdh(), 8192, 64, AccessKind.WRITE, 1);
    r.loop.run();
    assertThat(r.iommu.deregisterAndFree(a.mdh(), r.memory)).isTrue();
    assertThat(r.memory.allocatedBytes()).as("frames and the context's tables").isEqualTo(before);
    assertThat(r.iommu.bytesAwaitingRelease()).isZero();
  }

  @Test
  void aTranslationUnderWayPutsTheFreeOffUntilTheNextRegistrationFindsThePipelineIdle() {
    Rig r = new Rig(IommuConfig.defaults());
    long before = r.memory.allocatedBytes();
    MemoryDomainDescriptor a = r.iommu.register(reg(0x10_0000L));
    MemoryDomainDescriptor keep = r.iommu.register(reg(0x50_0000L));
    long both = r.memory.allocatedBytes();
    r.translate(TranslationClient.NETWORK_REQUEST, a.mdh(), 8192, 64, AccessKind.WRITE, 1);
    assertThat(r.iommu.deregisterAndFree(a.mdh(), r.memory)).as("while a's walk is in the pipeline").isFalse();
    assertThat(r.iommu.descriptor(a.mdh()).orElseThrow().valid()).as("deregistered all the same").isFalse();
    assertThat(r.memory.allocatedBytes()).as("nothing given back yet").isEqualTo(both);
    assertThat(r.iommu.bytesAwaitingRelease()).as("a's frames").isEqualTo(64 * 1024);
    r.loop.run();
    assertThat(r.doneWithId(1).status()).isEqualTo(Status.INVALID_MDH);
    MemoryDomainDescriptor b = r.iommu.register(reg(0x90_0000L));
    assertThat(r.iommu.bytesAwaitingRelease()).isZero();
    assertThat(r.iommu.physicalBase(b.mdh())).as("b takes a's frames, given back as it registered")
        .isEqualTo(r.iommu.physicalBase(a.mdh()));
    assertThat(r.memory.allocatedBytes()).isEqualTo(both);
    r.translate(TranslationClient.NETWORK_REQUEST, b.mdh(), 8192, 64, AccessKind.WRITE, 2);
    r.translate(TranslationClient.NETWORK_REQUEST, keep.mdh(), 8192, 64, AccessKind.WRITE, 3);
    r.loop.run();
    assertThat(r.doneWithId(2).physical())
        .isEqualTo(r.iommu.translateNow(b.mdh(), 8192, 64, AccessKind.WRITE, Rig.TAG, Rig.KEY).physicalAddress());
    assertThat(r.doneWithId(3).status()).isEqualTo(Status.OK);
    r.iommu.deregisterAndFree(b.mdh(), r.memory);
    r.iommu.deregisterAndFree(keep.mdh(), r.memory);
    assertThat(r.memory.allocatedBytes()).as("all given back").isEqualTo(before);
  }

  /**
   * Stop 74: a PTE line whose fetch is under way when the registration is deregistered is filled afterwards, from
   * the tables still there; its tables go back later, and the next owner of the bytes has its leaf table where the
   * old directory lay. A walk must not read the old directory's line as its leaf line (it translated offset 0 to the
   * second page, status OK).
   */
  @Test
  void aLineFilledAfterDeregistrationDoesNotOutliveTheTablesItWasReadFrom() {
    Rig r = new Rig(IommuConfig.builder().pageTables(PageTables.PER_REGISTRATION).build(), 1L << 34);
    MemoryDomainDescriptor a = r.iommu.register(MemoryRegistration.of(0, 4096, Rig.TAG, Rig.KEY));
    r.translate(a.mdh(), 0, 1); // a's directory line is now being fetched
    assertThat(r.iommu.deregisterAndFree(a.mdh(), r.memory)).as("while the fetch is under way").isFalse();
    r.loop.run();
    MemoryDomainDescriptor b = r.iommu.register(MemoryRegistration.of(0, 8192, Rig.TAG, Rig.KEY));
    assertThat(r.iommu.physicalBase(b.mdh())).as("b takes a's bytes").isEqualTo(r.iommu.physicalBase(a.mdh()));
    r.translate(b.mdh(), 0, 2);
    r.loop.run();
    assertThat(r.doneWithId(2).status()).isEqualTo(Status.OK);
    assertThat(r.doneWithId(2).physical()).as("b's offset 0").isEqualTo(r.iommu.physicalBase(b.mdh()));
    assertThat(r.iommu.statistics().invalidations()).as("a's directory line, dropped as its tables went back")
        .isEqualTo(1);
  }

  /**
   * Stop 74: a memory of the IOMMU's capacity that is not its memory nor a view of it (here an unrelated, empty one)
   * is refused before anything changes. It was taken: the registration was deregistered, the memory's free refused
   * the bytes, and the entry stayed listed, so every later registration threw the same refusal.
   */
  @Test
  void anotherMemoryOfTheSameCapacityIsRefusedBeforeAnythingChanges() {
    Rig r = new Rig(IommuConfig.defaults(), 1L << 34);
    MemoryDomainDescriptor a = r.iommu.register(MemoryRegistration.of(0, 1 << 20, Rig.TAG, Rig.KEY));
    long reserved = r.memory.allocatedBytes();
    assertThatThrownBy(() -> r.iommu.deregisterAndFree(a.mdh(), new SparsePhysicalMemory(1L << 34)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("memory must be this IOMMU's memory or a view of it but is a view of another memory (another"
            + " node's?); mdh " + a.mdh() + " stays registered");
    // another node's memory laid out alike, as many bytes reserved: told apart by what it is, not what it holds
    SparsePhysicalMemory twin = new SparsePhysicalMemory(1L << 34);
    twin.allocate(reserved, 4096);
    assertThat(twin.allocatedBytes()).isEqualTo(reserved);
    assertThatThrownBy(() -> r.iommu.deregisterAndFree(a.mdh(), twin))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(twin.allocatedBytes()).as("the twin's reservation").isEqualTo(reserved);
    assertThat(r.iommu.descriptor(a.mdh()).orElseThrow().valid()).as("still registered").isTrue();
    assertThat(r.iommu.bytesAwaitingRelease()).isZero();
    MemoryDomainDescriptor b = r.iommu.register(MemoryRegistration.of(0, 4096, Rig.TAG, Rig.KEY));
    assertThat(r.iommu.translateNow(b.mdh(), 0, 8, AccessKind.READ, Rig.TAG, Rig.KEY).status()).isEqualTo(Status.OK);
    assertThat(r.iommu.deregisterAndFree(a.mdh(), r.memory)).as("through its own memory").isTrue();
  }

  /**
   * Stop 74: when a deferred free throws part way, what was given back before it is not listed again. The list was
   * cleared only after the loop, so the first range, given back already, was freed again at every later
   * registration (and refused by the memory: the IOMMU could register nothing more).
   */
  @Test
  void aFreeThatThrowsPartWayLeavesNothingListedThatWasGivenBack() {
    for (PageTables mode : PageTables.values()) {
      Rig r = new Rig(IommuConfig.builder().pageTables(mode).build(), 1L << 34);
      MemoryDomainDescriptor a = r.iommu.register(MemoryRegistration.of(0, 1 << 16, Rig.TAG, Rig.KEY));
      MemoryDomainDescriptor b = r.iommu.register(MemoryRegistration.of(0, 1 << 16, Rig.TAG, Rig.KEY));
      long bBase = r.iommu.physicalBase(b.mdh());
      HostMemory refusingB = new RefusingView(r.memory, bBase);
      long reserved = r.memory.allocatedBytes();
      r.translate(a.mdh(), 0, 1);
      assertThat(r.iommu.deregisterAndFree(a.mdh(), r.memory)).as("%s: a, while a walk is under way", mode).isFalse();
      assertThat(r.iommu.deregisterAndFree(b.mdh(), refusingB)).as("%s: b", mode).isFalse();
      r.loop.run();
      assertThatThrownBy(() -> r.iommu.register(MemoryRegistration.of(0, 4096, Rig.TAG, Rig.KEY)))
          .as("%s: the registration that gives them back", mode).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("0x" + Long.toHexString(bBase));
      long aBytes = reserved - r.memory.allocatedBytes();
      assertThat(aBytes).as("%s: a's bytes went back", mode).isPositive();
      assertThat(r.iommu.bytesAwaitingRelease()).as("%s: nothing listed", mode).isZero();
      MemoryDomainDescriptor c = r.iommu.register(MemoryRegistration.of(0, 4096, Rig.TAG, Rig.KEY));
      assertThat(r.iommu.translateNow(c.mdh(), 0, 8, AccessKind.READ, Rig.TAG, Rig.KEY).status())
          .as("%s: a later registration", mode).isEqualTo(Status.OK);
    }
  }

  /** A view of a memory whose free refuses the range starting at one address, as a memory refuses bytes not its. */
  private static final class RefusingView extends io.github.ariesmodel.core.spi.ForwardingHostMemory {
    private final long refused;

    RefusingView(HostMemory memory, long refused) {
      super(memory);
      this.refused = refused;
    }

    @Override
    public boolean free(long address, long bytes) {
      if (address == refused) {
        throw new IllegalArgumentException("bytes [0x" + Long.toHexString(address) + ", +" + bytes
            + ") are not reserved");
      }
      return super.free(address, bytes);
    }
  }
}
