package io.github.ariesmodel.iommu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.AccessKind;
import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.MemoryRegistration;
import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.Status;
import io.github.ariesmodel.core.spi.TranslationClient;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Registrations come and go in shared per-context tables while translations run through the PTE cache: every
 * translation of a live registration reaches its own frames, a deregistered handle faults, no two live registrations
 * of one context and page size overlap in its space, and the same seed gives the same run.
 */
class PerContextChurnProperties {

  private static final PageSize[] SIZES = {PageSize.SIZE_4K, PageSize.SIZE_4K, PageSize.SIZE_4K, PageSize.SIZE_2M};

  @Test
  void liveRegistrationsTranslateToTheirOwnFramesWhileOthersComeAndGo() {
    qt().withExamples(30).forAll(longs().all()).checkAssert(seed -> run(seed));
  }

  @Test
  void sameSeedSameRun() {
    qt().withExamples(5).forAll(longs().all()).checkAssert(seed -> assertThat(run(seed)).isEqualTo(run(seed)));
  }

  private static String run(long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    IommuConfig config = IommuConfig.builder().pageTables(PageTables.PER_CONTEXT)
        .ways(1 + rnd.nextInt(4)).sets(1 << rnd.nextInt(6)).prefetch(rnd.nextBoolean()).build();
    Rig rig = new Rig(config, 1L << 36);
    List<MemoryDomainDescriptor> live = new ArrayList<>();
    List<MemoryDomainDescriptor> dead = new ArrayList<>();
    StringBuilder trace = new StringBuilder();
    long id = 0;
    for (int step = 0; step < 60; step++) {
      int op = rnd.nextInt(10);
      if (op < 3 || live.isEmpty()) {
        PageSize ps = SIZES[rnd.nextInt(SIZES.length)];
        long length = 1 + rnd.nextLong((ps.isHuge() ? 3 : 1100) * ps.bytes());
        MemoryDomainDescriptor d = rig.iommu.register(new MemoryRegistration(0, length, ps, true, Rig.TAG, Rig.KEY,
            rnd.nextInt(2), MemoryDomainDescriptor.NO_CQ, rnd.nextBoolean()));
        live.add(d);
        trace.append('r').append(rig.iommu.ioVirtualBase(d.mdh()));
      } else if (op < 5) {
        MemoryDomainDescriptor d = live.remove(rnd.nextInt(live.size()));
        rig.iommu.deregister(d.mdh());
        dead.add(d);
        trace.append('d').append(d.mdh());
      } else {
        int n = 1 + rnd.nextInt(12);
        long[][] asked = new long[n][];
        for (int k = 0; k < n; k++) {
          boolean stale = !dead.isEmpty() && rnd.nextInt(8) == 0;
          MemoryDomainDescriptor d = stale ? dead.get(rnd.nextInt(dead.size())) : live.get(rnd.nextInt(live.size()));
          long offset = rnd.nextLong(d.length());
          asked[k] = new long[] {id, d.mdh(), offset, stale ? 1 : 0};
          rig.translate(TranslationClient.values()[rnd.nextInt(4)], d.mdh(), offset, 1, AccessKind.READ, id++);
        }
        rig.loop.run();
        for (long[] a : asked) {
          Rig.Done done = rig.doneWithId(a[0]);
          if (a[3] == 1) {
            assertThat(done.status()).as("stale handle %d", a[1]).isEqualTo(Status.INVALID_MDH);
          } else {
            assertThat(done.status()).isEqualTo(Status.OK);
            assertThat(done.physical()).as("mdh %d offset %d", a[1], a[2])
                .isEqualTo(rig.iommu.physicalBase((int) a[1]) + a[2]);
          }
          trace.append(done.timePs()).append(',');
        }
      }
      // No two live registrations of one context and page size share a page of its space.
      for (int i = 0; i < live.size(); i++) {
        for (int j = i + 1; j < live.size(); j++) {
          MemoryDomainDescriptor x = live.get(i);
          MemoryDomainDescriptor y = live.get(j);
          if (x.translationContext() == y.translationContext() && x.pageSize().equals(y.pageSize())) {
            long xs = rig.iommu.ioVirtualBase(x.mdh());
            long ys = rig.iommu.ioVirtualBase(y.mdh());
            long xe = xs + x.pageSize().alignUp(x.length());
            long ye = ys + y.pageSize().alignUp(y.length());
            assertThat(xe <= ys || ye <= xs).as("%s and %s overlap", x, y).isTrue();
          }
        }
      }
    }
    var t = rig.iommu.statistics().total();
    return trace + " " + t.hits() + "/" + t.misses() + "/" + t.evictions();
  }
}
