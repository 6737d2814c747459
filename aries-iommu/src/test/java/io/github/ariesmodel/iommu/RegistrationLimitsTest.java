package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A registration whose frames and page tables cannot fit the memory, or whose tables cannot fit the Java heap, is
 * refused before anything is built, and leaves the IOMMU and the memory as they were (stop 31's fuzz run: 2^39 bytes
 * of 4 KB pages built 2^27 PTEs in the heap and died with an OutOfMemoryError).
 */
class RegistrationLimitsTest {

  /** Each registration's own tables, whose layout the exact figures below are of. */
  private static final IommuConfig OWN = IommuConfig.builder().pageTables(PageTables.PER_REGISTRATION).build();

  private static final long MIB = 1L << 20;

  /** A stand-in for the JVM's heap that reports a fixed amount left and records what it was asked for. */
  private static final class FixedHeap implements HeapGauge {
    final long left;
    final List<Long> asked = new ArrayList<>();

    FixedHeap(long left) {
      this.left = left;
    }

    @Override
    public long bytesLeft(long needed) {
      asked.add(needed);
      return left;
    }
  }

  @Test
  void tablesTheHeapCannotHoldAreRefusedNamingTheBytesAndHugePages() {
    SparsePhysicalMemory memory = new SparsePhysicalMemory(1L << 40);
    FixedHeap heap = new FixedHeap(512 * MIB);
    Iommu iommu = new Iommu(memory, new DeterministicEventLoop(), OWN, heap);
    // 2^27 leaf PTEs (1 GiB) and a 2 MiB directory: 262,656 pages of tables at 4,112 bytes of heap or more each.
    assertThatThrownBy(() -> iommu.register(MemoryRegistration.of(0, 1L << 39, 1, 1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("registration of 549755813888 bytes with 4K pages needs 1075838976 bytes of page tables"
            + " (134217728 PTEs of 8 bytes and a directory of 2097152 bytes), at least 1080041472 bytes of Java heap"
            + " in SparsePhysicalMemory, but the JVM has 536870912 bytes of heap left (Runtime.maxMemory() less the"
            + " heap in use); register with larger pages (withPageSize(PageSize.SIZE_2M): 2097152 bytes of page"
            + " tables) or give the JVM more heap (-Xmx)");
    assertThat(heap.asked).containsExactly(1_080_041_472L);
    assertUntouched(memory);
    // The refused call took nothing: the same registration with 2 MB pages gets MDH 0 and the first frames.
    MemoryDomainDescriptor d = iommu.register(MemoryRegistration.of(0, 1L << 39, 1, 1).withPageSize(PageSize.SIZE_2M));
    assertThat(d.mdh()).isZero();
    assertThat(iommu.physicalBase(0)).isEqualTo(2 * MIB);
  }

  @Test
  void tablesThatFitTheHeapLeftExactlyAreBuilt() {
    SparsePhysicalMemory memory = new SparsePhysicalMemory(1L << 40);
    // 1,000 pages: two leaf tables and one directory table, three pages of heap.
    FixedHeap heap = new FixedHeap(3 * SparsePhysicalMemory.HEAP_BYTES_PER_PAGE);
    Iommu iommu = new Iommu(memory, new DeterministicEventLoop(), OWN, heap);
    assertThat(iommu.register(MemoryRegistration.of(0, 1000 * 4096L, 1, 1)).mdh()).isZero();
    assertThat(heap.asked).containsExactly(3 * SparsePhysicalMemory.HEAP_BYTES_PER_PAGE);
    assertThat(memory.materializedPages()).isEqualTo(3);
  }

  @Test
  void theJvmsGaugeReportsHeapLeft() {
    long left = HeapGauge.RUNTIME.bytesLeft(0);
    assertThat(left).isPositive().isLessThanOrEqualTo(Runtime.getRuntime().maxMemory());
  }

  @Test
  void aRegistrationLargerThanTheWholeMemoryIsRefusedNamingTheLargestThatFits() {
    Rig rig = new Rig(OWN, 1L << 30);
    assertThatThrownBy(() -> rig.iommu.register(MemoryRegistration.of(0, 1L << 30, Rig.TAG, Rig.KEY)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("length must be in [1, 1071644672] to fit a memory of 1073741824 bytes with 4K pages and their"
            + " page tables (1073741824 bytes of frames and 2101248 of page tables) but was 1073741824");
    assertThatThrownBy(() -> rig.iommu.register(
            MemoryRegistration.of(0, 1L << 30, Rig.TAG, Rig.KEY).withPageSize(PageSize.SIZE_1G)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no length fits a memory of 1073741824 bytes with 1G pages and their page tables (1073741824"
            + " bytes of frames and 4096 of page tables) but length was 1073741824; use smaller pages");
    assertUntouched(rig.memory);
    assertThat(rig.iommu.register(MemoryRegistration.of(0, 4096, Rig.TAG, Rig.KEY)).mdh()).isZero();
  }

  /**
   * Stop 74: in a context's tables a registration longer than the context's space finds no range, and the refusal
   * named only the root table as its page tables (131072 bytes), none of the 2^19 leaf tables its 2^28 pages need.
   */
  @Test
  void aContextsRefusalNamesTheLeafTablesARegistrationWithNoRangeWouldNeed() {
    Rig rig = new Rig(IommuConfig.defaults(), 1L << 34);
    assertThatThrownBy(() -> rig.iommu.register(MemoryRegistration.of(0, 1L << 40, Rig.TAG, Rig.KEY)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("(1099511627776 bytes of frames and " + ((1L << 19) * 4096 + 131072)
            + " of page tables)");
    assertUntouched(rig.memory);
  }

  @Test
  void theLargestLengthNamedFitsAndOnePageMoreDoesNot() {
    for (long capacity : new long[] {1L << 24, 1L << 30, (1L << 30) + 12 * 4096}) {
      long max = Iommu.largestLength(PageSize.SIZE_4K, capacity);
      assertThat(PageTableBuilder.layout(max / 4096, PageSize.SIZE_4K).totalBytes()).isLessThanOrEqualTo(capacity);
      assertThat(PageTableBuilder.layout(max / 4096 + 1, PageSize.SIZE_4K).totalBytes()).isGreaterThan(capacity);
    }
    assertThat(Iommu.largestLength(PageSize.SIZE_2M, 1L << 50)).isEqualTo(1L << 40);
  }

  @Test
  void framesThatFitButTablesThatDoNotReserveNothingAndTakeNoMdh() {
    // Room for 256 frames and one leaf table after the reserved first page, but not for the directory as well.
    Rig rig = new Rig(OWN, 4096 + MIB + 4096);
    assertThatThrownBy(() -> rig.iommu.register(MemoryRegistration.of(0, MIB, Rig.TAG, Rig.KEY)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("physical memory exhausted");
    // The frames and the leaf table used to be reserved, the leaf table written and MDH 0 used up.
    assertUntouched(rig.memory);
    MemoryDomainDescriptor d = rig.iommu.register(MemoryRegistration.of(0, 4096, Rig.TAG, Rig.KEY));
    assertThat(d.mdh()).isZero();
    assertThat(rig.iommu.physicalBase(0)).isEqualTo(SparsePhysicalMemory.FIRST_ALLOCATABLE);
  }

  @Test
  void inAContextsTablesTheCheckPassesTheLargestLengthNamedAndRefusesOnePageMore() {
    for (long capacity : new long[] {1L << 24, 1L << 30, (1L << 30) + 12 * 4096}) {
      for (PageSize ps : new PageSize[] {PageSize.SIZE_4K, PageSize.SIZE_2M}) {
        Rig rig = new Rig(IommuConfig.defaults(), capacity);
        Throwable refusal = catchThrowable(() -> rig.iommu.register(
            MemoryRegistration.of(0, capacity, Rig.TAG, Rig.KEY).withPageSize(ps)));
        assertThat(refusal).isInstanceOf(IllegalArgumentException.class);
        assertUntouched(rig.memory);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("length must be in \\[1, (\\d+)]")
            .matcher(refusal.getMessage());
        assertThat(m.find()).as(refusal.getMessage()).isTrue();
        long max = Long.parseLong(m.group(1));
        assertThat(max % ps.bytes()).isZero();
        Rig more = new Rig(IommuConfig.defaults(), capacity);
        assertThatThrownBy(() -> more.iommu.register(
            MemoryRegistration.of(0, max + ps.bytes(), Rig.TAG, Rig.KEY).withPageSize(ps)))
            .isInstanceOf(IllegalArgumentException.class);
        // The check passes max: what remains is the memory's own room (its first page is reserved, so max itself
        // may not be left; that refusal is the memory's, as with tables of its own).
        Throwable atMax = catchThrowable(() -> rig.iommu.register(
            MemoryRegistration.of(0, max, Rig.TAG, Rig.KEY).withPageSize(ps)));
        if (atMax != null) {
          assertThat(atMax).isInstanceOf(IllegalStateException.class).hasMessageContaining("physical memory exhausted");
        }
      }
    }
  }

  @Test
  void inAContextsTablesTheHeapCheckCountsTheLeafTablesItWrites() {
    SparsePhysicalMemory memory = new SparsePhysicalMemory(1L << 40);
    FixedHeap heap = new FixedHeap(2 * SparsePhysicalMemory.HEAP_BYTES_PER_PAGE);
    Iommu iommu = new Iommu(memory, new DeterministicEventLoop(), IommuConfig.defaults(), heap);
    // 1,000 pages at the start of the space: two leaf tables, and a directory entry for each in the root's first page
    // (not counted: the check's figure is a lower bound).
    assertThat(iommu.register(MemoryRegistration.of(0, 1000 * 4096L, 1, 1)).mdh()).isZero();
    assertThat(heap.asked).containsExactly(2 * SparsePhysicalMemory.HEAP_BYTES_PER_PAGE);
    assertThat(memory.materializedPages()).isEqualTo(3);
    // 2^27 pages need 262,144 leaf tables, more than the heap left: refused, nothing reserved or written.
    SparsePhysicalMemory big = new SparsePhysicalMemory(1L << 40);
    Iommu refusing = new Iommu(big, new DeterministicEventLoop(), IommuConfig.defaults(), new FixedHeap(512 * MIB));
    assertThatThrownBy(() -> refusing.register(MemoryRegistration.of(0, 1L << 39, 1, 1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("at least " + 262_144 * SparsePhysicalMemory.HEAP_BYTES_PER_PAGE + " bytes of Java heap");
    assertUntouched(big);
  }

  @Test
  void aNullRegistrationIsRefused() {
    Rig rig = new Rig(OWN);
    assertThatThrownBy(() -> rig.iommu.register(null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("registration must not be null");
  }

  private static void assertUntouched(SparsePhysicalMemory memory) {
    assertThat(memory.allocatedBytes()).as("bytes reserved").isZero();
    assertThat(memory.materializedPages()).as("pages written").isZero();
  }
}
