package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.PageTableEntries;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import io.github.ariesmodel.core.sim.SparsePhysicalMemory;
import io.github.ariesmodel.iommu.internal.SetAssociativePteCache;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The walker alone: where each level's PTE is, and fetches through a bounded set of buffers in simulated time. */
class PteWalkerTest {

  private static final long FETCH = 50_000;

  private final SparsePhysicalMemory memory = new SparsePhysicalMemory(1L << 40);
  private final DeterministicEventLoop loop = new DeterministicEventLoop();
  private final MddTable mdds = new MddTable();
  private final IommuConfig config = IommuConfig.builder().fetchBuffers(2).pteFetchLatencyPs(FETCH).build();
  private final SetAssociativePteCache cache = new SetAssociativePteCache(
      config.ways(), config.sets(), config.ptesPerLine(), BuiltInPolicy.LRU.create(config.sets(), config.ways(), 0));
  private final List<String> fills = new ArrayList<>();
  private final PteWalker walker = new PteWalker(memory, loop, mdds, cache, config, (now, first) -> {
    StringBuilder b = new StringBuilder(now + ":");
    for (TranslationSlot w = first; w != null; w = w.nextWaiter) {
      b.append(' ').append(w.arg);
    }
    fills.add(b.toString());
  });

  private int register(MemoryRegistration r) {
    int mdh = mdds.freeMdh();
    mdds.put(new MemoryDomainDescriptor(mdh, true, r.virtualBase(), r.length(), r.writable(), 1, 1, 0, r.pageSize(),
        MemoryDomainDescriptor.NO_CQ, false), new PageTableBuilder(memory).build(r));
    return mdh;
  }

  private static TranslationSlot slot(int mdh, long offset, long id) {
    TranslationSlot s = new TranslationSlot();
    s.mdh = mdh;
    s.offset = offset;
    s.length = 8;
    s.arg = id;
    return s;
  }

  @Test
  void fourKilobyteWalkStartsAtTheDirectoryThenDescendsToTheLeaf() {
    int mdh = register(MemoryRegistration.of(0, 4L << 20, 1, 1)); // 1,024 pages: 2 leaf tables
    TranslationSlot s = slot(mdh, 600 * 4096L + 24, 0);
    walker.start(s);
    assertThat(s.level).isEqualTo(TranslationSlot.Level.DIRECTORY);
    assertThat(s.twoLevel).isTrue();
    assertThat(s.relativePage).isEqualTo(600);
    assertThat(s.pageOffset).isEqualTo(24);
    // Directory entry 1 (page 600 / 512) is in the directory's first 64-byte line, at index 1.
    assertThat(s.line).isEqualTo(mdds.directoryBase(mdh));
    assertThat(s.pteIndex).isEqualTo(1);
    long dir = memory.readLong(mdds.directoryBase(mdh) + 8);
    walker.descend(s, dir);
    long leafPte = PageTableEntries.physicalBase(dir) + (600 - 512) * 8L;
    assertThat(s.level).isEqualTo(TranslationSlot.Level.LEAF);
    assertThat(s.line).isEqualTo(leafPte & -64L);
    assertThat(s.pteIndex).isEqualTo((int) ((leafPte >>> 3) & 7));
  }

  @Test
  void hugePageWalkHasOneLevelAndAZeroLengthAccessAtTheEndWalksTheLastPage() {
    int mdh = register(MemoryRegistration.of(0, 20 * (2L << 20), 1, 1).withPageSize(PageSize.SIZE_2M));
    TranslationSlot s = slot(mdh, 20 * (2L << 20), 0);
    s.length = 0;
    walker.start(s);
    assertThat(s.level).isEqualTo(TranslationSlot.Level.LEAF);
    assertThat(s.twoLevel).isFalse();
    assertThat(s.relativePage).isEqualTo(19);
    assertThat(s.pageOffset).isEqualTo(2L << 20);
    assertThat(s.line).isEqualTo((mdds.leafBase(mdh) + 19 * 8) & -64L);
    assertThat(s.pteIndex).isEqualTo(3);
  }

  @Test
  void aFetchFillsTheLineAfterItsLatencyAndHandsOverItsWaitersInOrder() {
    int mdh = register(MemoryRegistration.of(0, 1L << 20, 1, 1).withPageSize(PageSize.SIZE_2M));
    long line = mdds.leafBase(mdh) & -64L;
    int l = cache.allocate(line, mdh);
    int b = walker.startFetch(l, 1_000);
    assertThat(walker.bufferOf(l)).isEqualTo(b);
    walker.addWaiter(b, slot(mdh, 0, 7));
    walker.addWaiter(b, slot(mdh, 0, 8));
    assertThat(walker.freeBuffers()).isEqualTo(1);
    assertThat(walker.fetches()).isEqualTo(1);
    loop.run();
    assertThat(fills).containsExactly((1_000 + FETCH) + ": 7 8");
    assertThat(cache.isValid(l)).isTrue();
    assertThat(cache.pte(l, 0)).isEqualTo(memory.readLong(mdds.leafBase(mdh)));
    assertThat(walker.freeBuffers()).isEqualTo(2);
  }

  @Test
  void buffersRunOutAndTheCallerIsToldSo() {
    int mdh = register(MemoryRegistration.of(0, 64L << 20, 1, 1).withPageSize(PageSize.SIZE_2M));
    walker.startFetch(cache.allocate(mdds.leafBase(mdh), mdh), 0);
    walker.startFetch(cache.allocate(mdds.leafBase(mdh) + 64, mdh), 0);
    assertThat(walker.hasFreeBuffer()).isFalse();
    int third = cache.allocate(mdds.leafBase(mdh) + 128, mdh);
    assertThatThrownBy(() -> walker.startFetch(third, 0)).isInstanceOf(IllegalStateException.class);
    loop.run();
    assertThat(walker.hasFreeBuffer()).isTrue();
    assertThat(fills).containsExactly(FETCH + ":", FETCH + ":");
  }

  @Test
  void untimedWalkReadsTheTablesAndReportsUnmappedAndReadOnlyPages() {
    int rw = register(MemoryRegistration.of(0, 1L << 20, 1, 1));
    int ro = register(MemoryRegistration.of(0, 1L << 20, 1, 1).withWritable(false));
    var ok = PteWalker.walkNow(memory, mdds, rw, 5 * 4096L + 100, 8000, true);
    assertThat(ok.status()).isEqualTo(Status.OK);
    assertThat(ok.physicalAddress()).isEqualTo(mdds.dataBase(rw) + 5 * 4096L + 100);
    assertThat(ok.contiguousBytes()).isEqualTo(4096 - 100);
    assertThat(PteWalker.walkNow(memory, mdds, ro, 0, 8, true).status()).isEqualTo(Status.NOT_WRITABLE);
    assertThat(PteWalker.walkNow(memory, mdds, ro, 0, 8, false).status()).isEqualTo(Status.OK);
    memory.writeLong(mdds.leafBase(rw) + 5 * 8, 0);
    assertThat(PteWalker.walkNow(memory, mdds, rw, 5 * 4096L, 8, false).status())
        .isEqualTo(Status.TRANSLATION_FAULT);
  }
}
