package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.core.cache.HostCacheConfig;
import io.github.ariesmodel.core.cache.SetAssociativeHostCache;
import io.github.ariesmodel.core.spi.HostCacheStatistic;
import io.github.ariesmodel.core.spi.NicWritePolicy;
import io.github.ariesmodel.core.spi.TranslationClient;
import io.github.ariesmodel.iommu.Iommu;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.AriesSystem;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The host cache and host-memory CQs in a whole system: SHMEM over the real NICs, IOMMUs and routers. */
class HostCacheInSystemTest {

  private static AriesSystem system(NicWritePolicy policy) {
    AriesSystem.Builder b = AriesSystem.builder().topology(Topologies.ariesSmall(), "aries-small").seed(7);
    return (policy == null ? b.noHostCache() : b.hostCache(HostCacheConfig.xc40().withNicWritePolicy(policy)))
        .build();
  }

  /** Random puts, gets and atomics among 4 PEs, with local stores and polls between them, under every policy. */
  @Test
  void programsSeeTheSameDataWhateverTheHostCache() {
    long[][] finals = new long[4][];
    NicWritePolicy[] policies = {NicWritePolicy.UPDATE, NicWritePolicy.INVALIDATE, NicWritePolicy.BYPASS, null};
    for (int p = 0; p < policies.length; p++) {
      AriesSystem sys = system(policies[p]);
      ShmemJob job = ShmemJob.builder(sys).nodes(0, 9, 33, 70).pageSize(PageSize.SIZE_2M).build();
      Symmetric data = job.allocate(8 * 64);
      long[] out = new long[4 * 64];
      job.run(pe -> {
        SplittableRandom rnd = new SplittableRandom(pe.myPe());
        for (int k = 0; k < 40; k++) {
          int target = rnd.nextInt(pe.nPes());
          int word = rnd.nextInt(64);
          switch (rnd.nextInt(3)) {
            case 0 -> pe.putLong(data, 8L * word, rnd.nextLong(), target);
            case 1 -> pe.atomicAdd(data, 8L * word, 3, target);
            default -> pe.localLong(data, 8L * word, pe.localLong(data, 8L * word) + 1);
          }
        }
        pe.barrierAll();
        for (int w = 0; w < 64; w++) {
          out[pe.myPe() * 64 + w] = pe.localLong(data, 8L * w);
        }
      });
      assertThat(job.faults()).isZero();
      finals[p] = out;
    }
    for (int p = 1; p < finals.length; p++) {
      assertThat(finals[p]).as("policy %s", policies[p]).containsExactly(finals[0]);
    }
  }

  @Test
  void aPollersLineIsUpdatedInPlaceUnderUpdateAndDroppedUnderInvalidate() {
    for (NicWritePolicy policy : new NicWritePolicy[] {NicWritePolicy.UPDATE, NicWritePolicy.INVALIDATE}) {
      AriesSystem sys = system(policy);
      ShmemJob job = ShmemJob.builder(sys).nodes(0, 40).build();
      Symmetric flag = job.allocate(8);
      job.run(pe -> {
        if (pe.myPe() == 0) {
          pe.compute(5_000_000); // let PE 1 cache the flag's line by polling it first
          pe.putLong(flag, 0, 1, 1);
          pe.quiet();
        } else {
          pe.waitUntil(flag, 0, v -> v == 1);
        }
      });
      SetAssociativeHostCache cache = (SetAssociativeHostCache) sys.node(40).hostCache();
      if (policy == NicWritePolicy.UPDATE) {
        assertThat(cache.count(HostCacheStatistic.NIC_WRITE_UPDATED)).isPositive();
        assertThat(cache.count(HostCacheStatistic.NIC_WRITE_INVALIDATED)).isZero();
      } else {
        assertThat(cache.count(HostCacheStatistic.NIC_WRITE_INVALIDATED)).isPositive();
        assertThat(cache.count(HostCacheStatistic.NIC_WRITE_UPDATED)).isZero();
      }
    }
  }

  @Test
  void theIommuTranslatesCompletionWritesInARunThatPosts() {
    AriesSystem sys = system(NicWritePolicy.UPDATE);
    // a job that asks for REMOTE events: a default one writes no completion-queue entry (its events go to NO_CQ)
    ShmemJob job = ShmemJob.builder(sys).nodes(3, 60).remoteEvents(true).build();
    Symmetric buf = job.allocate(4096);
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.put(buf, 0, new byte[256], 1);
        pe.quiet();
      }
      pe.barrierAll();
    });
    long completionWrites = 0;
    for (int node : new int[] {3, 60}) {
      Iommu iommu = (Iommu) sys.node(node).translation();
      completionWrites += iommu.statistics().client(TranslationClient.COMPLETION_WRITE).translations();
    }
    assertThat(completionWrites).isPositive();
  }
}
