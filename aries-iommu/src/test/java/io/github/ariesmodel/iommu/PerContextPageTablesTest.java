package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.PageTableEntry;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.core.spi.HostMemory;
import io.github.ariesmodel.core.spi.TranslationClient;
import org.junit.jupiter.api.Test;

/**
 * Page tables per translation context ({@link PageTables#PER_CONTEXT}): where the driver places registrations in a
 * context's space, the tables they share, and what that does to the PTE cache, against tables per registration.
 */
class PerContextPageTablesTest {

  private static final long PAGE = 4096;

  private static Rig rig(PageTables tables) {
    return new Rig(IommuConfig.builder().pageTables(tables).build(), 1L << 34);
  }

  private static MemoryDomainDescriptor register(Rig rig, long bytes) {
    return rig.iommu.register(MemoryRegistration.of(0, bytes, Rig.TAG, Rig.KEY));
  }

  @Test
  void registrationsAreLaidSideBySideInTheirContextAndShareItsTables() {
    Rig rig = rig(PageTables.PER_CONTEXT);
    MemoryDomainDescriptor a = register(rig, 3 * PAGE);
    MemoryDomainDescriptor b = register(rig, PAGE + 1);
    MemoryDomainDescriptor c = rig.iommu.register(
        MemoryRegistration.of(0, 5 * PAGE, Rig.TAG, Rig.KEY).withTranslationContext(4));
    MemoryDomainDescriptor huge = rig.iommu.register(
        MemoryRegistration.of(0, 3L << 20, Rig.TAG, Rig.KEY).withPageSize(PageSize.SIZE_2M));
    assertThat(rig.iommu.ioVirtualBase(a.mdh())).isZero();
    assertThat(rig.iommu.ioVirtualBase(b.mdh())).as("right after a's three pages").isEqualTo(3 * PAGE);
    assertThat(rig.iommu.ioVirtualBase(c.mdh())).as("another context has a space of its own").isZero();
    assertThat(rig.iommu.ioVirtualBase(huge.mdh())).as("and so has another page size").isZero();
    assertThat(rig.iommu.rootTable(b.mdh())).isEqualTo(rig.iommu.rootTable(a.mdh()));
    assertThat(rig.iommu.rootTable(c.mdh())).isNotEqualTo(rig.iommu.rootTable(a.mdh()));
    assertThat(rig.iommu.rootTable(huge.mdh())).isNotEqualTo(rig.iommu.rootTable(a.mdh()));
    // a's and b's leaf PTEs are neighbours in one leaf table, so in one 64-byte PTE line.
    PageTableEntry dir = PageTableEntry.unpack(rig.memory.readLong(rig.iommu.rootTable(a.mdh())));
    for (int page = 0; page < 3; page++) {
      assertThat(PageTableEntry.unpack(rig.memory.readLong(dir.physicalBase() + page * 8L)))
          .isEqualTo(PageTableEntry.page(rig.iommu.physicalBase(a.mdh()) + page * PAGE, PageSize.SIZE_4K, true));
    }
    for (int page = 3; page < 5; page++) {
      assertThat(PageTableEntry.unpack(rig.memory.readLong(dir.physicalBase() + page * 8L)))
          .isEqualTo(PageTableEntry.page(rig.iommu.physicalBase(b.mdh()) + (page - 3) * PAGE, PageSize.SIZE_4K,
              true));
    }
    assertThat(PageTableEntry.unpack(rig.memory.readLong(dir.physicalBase() + 5 * 8L)).present()).isFalse();
    for (int page = 0; page < 2; page++) { // 3 MB: two 2 MB pages
      assertThat(PageTableEntry.unpack(rig.memory.readLong(rig.iommu.rootTable(huge.mdh()) + page * 8L)))
          .isEqualTo(PageTableEntry.page(rig.iommu.physicalBase(huge.mdh()) + (page << 21), PageSize.SIZE_2M, true));
    }
  }

  /**
   * Five one-page registrations used in turn, as a node's completion rings and buffers are. With tables of their own
   * every directory line and every leaf line starts a 4 KB table, so all ten fall in set 0 of the 4-way cache and
   * evict one another on every translation; in one context they share one directory line and one leaf line.
   */
  @Test
  void smallRegistrationsInOneContextShareLinesWhereTablesOfTheirOwnThrashOneSet() {
    for (PageTables tables : PageTables.values()) {
      Rig rig = rig(tables);
      int[] mdhs = new int[5];
      for (int i = 0; i < mdhs.length; i++) {
        mdhs[i] = register(rig, PAGE).mdh();
      }
      int id = 0;
      for (int round = 0; round < 4; round++) {
        for (int mdh : mdhs) {
          rig.translate(mdh, 64, id++);
          rig.loop.run(); // one at a time: each walk sees the cache the one before left
        }
      }
      var total = rig.iommu.statistics().total();
      assertThat(total.translations()).isEqualTo(20);
      if (tables == PageTables.PER_CONTEXT) {
        assertThat(total.misses()).as("only the very first walk").isEqualTo(1);
        assertThat(total.evictions()).isZero();
        assertThat(rig.iommu.statistics().pteFetches()).isEqualTo(2);
      } else {
        assertThat(total.misses()).as("every walk").isEqualTo(20);
        assertThat(total.evictions()).isPositive();
      }
      for (Rig.Done d : rig.done) {
        assertThat(d.status()).isEqualTo(Status.OK);
      }
    }
  }

  @Test
  void aRangeThatCrossesTwoMegabytesOfTheSpaceMakesASecondLeafTable() {
    Rig rig = rig(PageTables.PER_CONTEXT);
    MemoryDomainDescriptor first = register(rig, 500 * PAGE);
    MemoryDomainDescriptor across = register(rig, 20 * PAGE); // pages 500..519: leaf tables 0 and 1
    long root = rig.iommu.rootTable(across.mdh());
    PageTableEntry d0 = PageTableEntry.unpack(rig.memory.readLong(root));
    PageTableEntry d1 = PageTableEntry.unpack(rig.memory.readLong(root + 8));
    assertThat(d0.present() && d1.present()).isTrue();
    assertThat(d1.physicalBase()).isNotEqualTo(d0.physicalBase());
    for (long offset : new long[] {0, 11 * PAGE, 12 * PAGE + 7, 20 * PAGE - 1}) {
      long expected = rig.iommu.physicalBase(across.mdh()) + offset;
      assertThat(rig.iommu.translateNow(across.mdh(), offset, 1, AccessKind.READ, Rig.TAG, Rig.KEY).physicalAddress())
          .isEqualTo(expected);
      assertThat(Rig.walk(rig.memory, root, PageSize.SIZE_4K, (500 * PAGE + offset) >>> 12).physicalBase())
          .isEqualTo(expected & -PAGE);
    }
    assertThat(rig.iommu.translateNow(first.mdh(), 499 * PAGE, 8, AccessKind.READ, Rig.TAG, Rig.KEY).physicalAddress())
        .isEqualTo(rig.iommu.physicalBase(first.mdh()) + 499 * PAGE);
  }

  @Test
  void deregistrationClearsThePtesFreesTheRangeAndTheNextRegistrationReusesIt() {
    Rig rig = rig(PageTables.PER_CONTEXT);
    MemoryDomainDescriptor a = register(rig, 2 * PAGE);
    MemoryDomainDescriptor b = register(rig, 2 * PAGE);
    MemoryDomainDescriptor c = register(rig, 2 * PAGE);
    // Cache b's line, then deregister b: the line goes, b's PTEs are not present, a's and c's stay.
    rig.translate(b.mdh(), 0, 1);
    rig.loop.run();
    long root = rig.iommu.rootTable(b.mdh());
    rig.iommu.deregister(b.mdh());
    assertThat(Rig.walk(rig.memory, root, PageSize.SIZE_4K, 2).present()).isFalse();
    assertThat(Rig.walk(rig.memory, root, PageSize.SIZE_4K, 3).present()).isFalse();
    assertThat(Rig.walk(rig.memory, root, PageSize.SIZE_4K, 1).present()).isTrue();
    assertThat(Rig.walk(rig.memory, root, PageSize.SIZE_4K, 4).present()).isTrue();
    assertThat(rig.iommu.statistics().invalidations()).as("the line of b's PTEs").isEqualTo(1);
    // A one-page registration takes the lowest free range: b's first page.
    MemoryDomainDescriptor d = register(rig, PAGE);
    assertThat(rig.iommu.ioVirtualBase(d.mdh())).isEqualTo(2 * PAGE);
    // Its translations reach its own frames, not b's, through the cache as well as untimed.
    rig.translate(d.mdh(), 100, 2);
    rig.translate(a.mdh(), 100, 3);
    rig.translate(c.mdh(), PAGE + 100, 4);
    rig.loop.run();
    assertThat(rig.doneWithId(2).physical()).isEqualTo(rig.iommu.physicalBase(d.mdh()) + 100);
    assertThat(rig.doneWithId(3).physical()).isEqualTo(rig.iommu.physicalBase(a.mdh()) + 100);
    assertThat(rig.doneWithId(4).physical()).isEqualTo(rig.iommu.physicalBase(c.mdh()) + PAGE + 100);
    // Freeing everything lets the space start again from 0; freed neighbours merge into one range.
    rig.iommu.deregister(a.mdh());
    rig.iommu.deregister(c.mdh());
    rig.iommu.deregister(d.mdh());
    assertThat(rig.iommu.ioVirtualBase(register(rig, 6 * PAGE).mdh())).isZero();
  }

  @Test
  void aStaleUnmapOrRangeInvalidationIsRefusedAndLeavesTheNextOwnerOfTheRangeAlone() {
    Rig rig = rig(PageTables.PER_CONTEXT);
    MemoryDomainDescriptor old = register(rig, 2 * PAGE);
    rig.iommu.deregister(old.mdh());
    MemoryDomainDescriptor next = register(rig, 2 * PAGE);
    assertThat(rig.iommu.ioVirtualBase(next.mdh())).as("the freed range")
        .isEqualTo(rig.iommu.ioVirtualBase(old.mdh()));
    rig.translate(next.mdh(), 0, 1);
    rig.loop.run();
    long invalidations = rig.iommu.statistics().invalidations();
    long commands = rig.iommu.statistics().invalidationCommands();
    // The old handle's unmap cleared the PTE of the next owner's first page, so its PUTs faulted.
    assertThatThrownBy(() -> rig.iommu.unmapPage(old.mdh(), 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mdh " + old.mdh() + " is not registered (it was deregistered)");
    assertThatThrownBy(() -> rig.iommu.invalidateRange(old.mdh(), 0, PAGE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mdh " + old.mdh() + " is not registered (it was deregistered)");
    assertThat(Rig.walk(rig.memory, rig.iommu.rootTable(next.mdh()), PageSize.SIZE_4K, 0).present()).isTrue();
    assertThat(rig.iommu.statistics().invalidations()).isEqualTo(invalidations);
    assertThat(rig.iommu.statistics().invalidationCommands()).isEqualTo(commands);
    rig.translate(next.mdh(), 0, 2);
    rig.loop.run();
    assertThat(rig.doneWithId(2).status()).as("still cached").isEqualTo(Status.OK);
    assertThat(rig.iommu.statistics().total().hits()).isEqualTo(1);
    assertThat(rig.iommu.translateNow(next.mdh(), 0, 8, AccessKind.READ, Rig.TAG, Rig.KEY).status())
        .as("and still mapped").isEqualTo(Status.OK);
  }

  @Test
  void unmapAndRangeInvalidationFindTheRegistrationsPtesInTheSharedTables() {
    Rig rig = rig(PageTables.PER_CONTEXT);
    register(rig, 510 * PAGE);
    MemoryDomainDescriptor d = register(rig, 4 * PAGE); // pages 510..513, across two leaf tables
    for (int k = 0; k < 4; k++) {
      rig.translate(d.mdh(), k * PAGE, k);
    }
    rig.loop.run();
    rig.iommu.unmapPage(d.mdh(), 3 * PAGE);
    assertThat(Rig.walk(rig.memory, rig.iommu.rootTable(d.mdh()), PageSize.SIZE_4K, 513).present()).isFalse();
    assertThat(rig.iommu.translateNow(d.mdh(), 3 * PAGE, 8, AccessKind.READ, Rig.TAG, Rig.KEY).status())
        .isEqualTo(Status.TRANSLATION_FAULT);
    // Still cached until the range is invalidated: the two leaf lines (one in each table).
    rig.translate(d.mdh(), 3 * PAGE, 10);
    rig.loop.run();
    assertThat(rig.doneWithId(10).status()).isEqualTo(Status.OK);
    long cost = rig.iommu.invalidateRange(d.mdh(), 0, 4 * PAGE);
    assertThat(cost).isEqualTo(2 * rig.iommu.config().issueIntervalPs());
    assertThat(rig.iommu.statistics().invalidations()).isEqualTo(2);
    rig.translate(d.mdh(), 3 * PAGE, 11);
    rig.loop.run();
    assertThat(rig.doneWithId(11).status()).isEqualTo(Status.TRANSLATION_FAULT);
  }

  @Test
  void prefetchStaysInsideTheRegistrationAndItsLeafTable() {
    Rig rig = new Rig(IommuConfig.builder().pageTables(PageTables.PER_CONTEXT).build(), 1L << 34);
    register(rig, 496 * PAGE);
    // Pages 496..527 of the space: lines 62 and 63 of leaf table 0, then lines 0..1 of leaf table 1.
    MemoryDomainDescriptor d = rig.iommu.register(
        MemoryRegistration.of(0, 32 * PAGE, Rig.TAG, Rig.KEY).withPrefetch(true));
    rig.translate(TranslationClient.NETWORK_REQUEST, d.mdh(), 0, 8, AccessKind.READ, 1); // line 62: prefetch 63
    rig.loop.run();
    assertThat(rig.iommu.statistics().total().prefetches()).isEqualTo(1);
    rig.translate(TranslationClient.NETWORK_REQUEST, d.mdh(), 8 * PAGE, 8, AccessKind.READ, 2); // line 63 hits
    rig.loop.run();
    assertThat(rig.iommu.statistics().total().hits()).isEqualTo(1);
    // A miss in table 1's line 0 prefetches its line 1; the last line of the registration prefetches nothing.
    rig.translate(TranslationClient.NETWORK_REQUEST, d.mdh(), 16 * PAGE, 8, AccessKind.READ, 3);
    rig.loop.run();
    assertThat(rig.iommu.statistics().total().prefetches()).isEqualTo(2);
    rig.translate(TranslationClient.NETWORK_REQUEST, d.mdh(), 31 * PAGE, 8, AccessKind.READ, 4);
    rig.loop.run();
    assertThat(rig.iommu.statistics().total().hits()).isEqualTo(2);
    assertThat(rig.iommu.statistics().total().prefetches()).isEqualTo(2);
  }

  /**
   * A memory that says it holds 64 MB but hands out frames from a larger one, as a host memory that frees and reuses
   * frames would: registrations then outlive the context's space (twice the capacity, 128 MB) before the memory.
   */
  private static HostMemory reusing(SparsePhysicalMemory m) {
    return new HostMemory() {
      @Override public long capacity() { return 64L << 20; }
      @Override public void read(long a, byte[] d, int o, int n) { m.read(a, d, o, n); }
      @Override public void write(long a, byte[] s, int o, int n) { m.write(a, s, o, n); }
      @Override public long readLong(long a) { return m.readLong(a); }
      @Override public void writeLong(long a, long v) { m.writeLong(a, v); }
      @Override public int readInt(long a) { return m.readInt(a); }
      @Override public void writeInt(long a, int v) { m.writeInt(a, v); }
      @Override public long allocate(long bytes, long alignment) { return m.allocate(bytes, alignment); }
      @Override public long allocatedBytes() { return m.allocatedBytes(); }
    };
  }

  /** A node of 2 TB: its contexts' space is capped at the 40-bit offset's 2^40 bytes, and the refusal says so. */
  @Test
  void aFullContextCappedAtTheOffsetsLimitNamesThatLimitNotTwiceTheMemory() {
    Rig r = new Rig(IommuConfig.defaults(), 1L << 41);
    r.iommu.register(new MemoryRegistration(0, 1L << 40, PageSize.SIZE_1G, true, Rig.TAG, Rig.KEY, 0, -1, false));
    assertThatThrownBy(() -> r.iommu.register(
        new MemoryRegistration(0, 1L << 30, PageSize.SIZE_1G, true, Rig.TAG, Rig.KEY, 0, -1, false)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("translation context 0 has no free range of 1073741824 bytes for 1G pages: its IO virtual space"
            + " is 1099511627776 bytes (the 40-bit offset's limit), 1099511627776 of them registered; deregister"
            + " memory or use another translation context");
  }

  @Test
  void aContextWithoutAFreeRangeLongEnoughRefusesInOneLineAndChangesNothing() {
    SparsePhysicalMemory inner = new SparsePhysicalMemory(1L << 36);
    Iommu iommu = new Iommu(reusing(inner), new DeterministicEventLoop(),
        IommuConfig.builder().pageTables(PageTables.PER_CONTEXT).build());
    MemoryRegistration sixty = MemoryRegistration.of(0, 60L << 20, Rig.TAG, Rig.KEY);
    MemoryDomainDescriptor a = iommu.register(sixty);
    MemoryDomainDescriptor b = iommu.register(sixty);
    assertThat(iommu.ioVirtualBase(b.mdh())).isEqualTo(60L << 20);
    long allocated = inner.allocatedBytes();
    assertThatThrownBy(() -> iommu.register(sixty))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("translation context 0 has no free range of 62914560 bytes for 4K pages: its IO virtual space"
            + " is 134217728 bytes (twice the node's memory), 125829120 of them registered; deregister memory or"
            + " use another translation context");
    assertThat(inner.allocatedBytes()).isEqualTo(allocated);
    // The same registration in another context fits, and takes the MDH the refused one would have had.
    MemoryDomainDescriptor c = iommu.register(sixty.withTranslationContext(1));
    assertThat(c.mdh()).isEqualTo(b.mdh() + 1);
    assertThat(iommu.ioVirtualBase(c.mdh())).isZero();
    // Freeing a makes room at the bottom of context 0.
    iommu.deregister(a.mdh());
    MemoryDomainDescriptor d = iommu.register(sixty);
    assertThat(iommu.ioVirtualBase(d.mdh())).isZero();
    assertThat(iommu.translateNow(d.mdh(), (60L << 20) - 8, 8, AccessKind.READ, Rig.TAG, Rig.KEY).physicalAddress())
        .isEqualTo(iommu.physicalBase(d.mdh()) + (60L << 20) - 8);
  }
}
