package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.AmoKind;
import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.core.cache.HostCacheConfig;
import io.github.ariesmodel.core.spi.NicWritePolicy;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.nic.NicStatistics;
import io.github.ariesmodel.system.AriesSystem;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** The NIC's AMO cache in a whole system: SHMEM's cached AMOs over the real NICs, IOMMUs, routers and host caches. */
class AmoCacheInSystemTest {

  private static final AmoOperation FADD_C = AmoOperation.of(AmoKind.IADD, true, 64, true);
  private static final AmoOperation FCSWAP_C = AmoOperation.of(AmoKind.CSWAP, true, 64, true);
  private static final AmoOperation SWAP_C = AmoOperation.of(AmoKind.SWAP, false, 64, true);

  private static AriesSystem system(NicWritePolicy policy) {
    AriesSystem.Builder b = AriesSystem.builder().topology(Topologies.ariesSmall(), "aries-small").seed(7);
    return (policy == null ? b.noHostCache() : b.hostCache(HostCacheConfig.xc40().withNicWritePolicy(policy)))
        .build();
  }

  /**
   * A cached counter and a cached lock at PE 0: the target's CPU sees the counter's sum after the barrier (as Cray's
   * uGNI tests expect), and the lock excludes: every holder's get-increment-put of a second counter survives.
   */
  @Test
  void cachedCountersAndLocksWorkAndTheTargetCpuSeesTheirValuesUnderEveryHostCache() {
    NicWritePolicy[] policies = {NicWritePolicy.UPDATE, NicWritePolicy.INVALIDATE, NicWritePolicy.BYPASS, null};
    for (NicWritePolicy policy : policies) {
      AriesSystem sys = system(policy);
      ShmemJob job = ShmemJob.builder(sys).nodes(0, 9, 33, 70).build();
      Symmetric words = job.allocate(64);
      long[] seen = new long[2];
      int perPe = 6;
      job.run(pe -> {
        for (int k = 0; k < perPe; k++) {
          pe.atomic(FADD_C, words, 0, 1, 0, 0);
          while (pe.atomic(FCSWAP_C, words, 8, 0, pe.myPe() + 1, 0) != 0) {
            pe.compute(10_000);
          }
          long v = ByteBuffer.wrap(pe.get(words, 16, 8, 0)).order(ByteOrder.LITTLE_ENDIAN).getLong();
          pe.putLong(words, 16, v + 1, 0);
          pe.quiet();
          pe.atomic(SWAP_C, words, 8, 0, 0, 0);
          pe.quiet();
        }
        pe.barrierAll();
        if (pe.myPe() == 0) {
          seen[0] = pe.localLong(words, 0);
          seen[1] = pe.localLong(words, 16);
        }
      });
      assertThat(job.faults()).isZero();
      assertThat(seen).as("policy %s", policy).containsExactly(4L * perPe, 4L * perPe);
      NicStatistics target = sys.node(0).nicStatistics();
      assertThat(target.amoCacheHits()).as("policy %s", policy).isPositive();
      // One fill per word (the counter, the lock); the barrier's own AMOs are uncached and never allocate.
      assertThat(target.amoCacheMisses()).as("policy %s", policy).isEqualTo(2);
    }
  }

  /**
   * A flag set by a cached AMO wakes a PE waiting on it: the AMO's REMOTE event is visible no earlier than its value
   * (written back as the entry goes idle, a host read after a miss). Before, the event came at execution, the woken
   * PE read the old value, and no later event came: "SHMEM program deadlocked". The setter first warms the target's
   * translations with puts of another word, so that the event would not be late for other reasons.
   */
  @Test
  void aFlagSetByACachedAmoWakesItsWaiter() {
    for (boolean fetching : new boolean[] {false, true}) {
      AriesSystem sys = system(NicWritePolicy.UPDATE);
      ShmemJob job = ShmemJob.builder(sys).nodes(0, 9).build();
      Symmetric flag = job.allocate(64);
      long[] sawAt = new long[1];
      job.run(pe -> {
        if (pe.myPe() == 1) {
          for (int k = 1; k <= 5; k++) {
            pe.putLong(flag, 32, k, 0);
            pe.quiet();
          }
          pe.compute(5_000_000);
          pe.atomic(AmoOperation.of(AmoKind.SWAP, fetching, 64, true), flag, 0, 1, 0, 0);
          pe.quiet();
        } else {
          pe.waitUntil(flag, 32, v -> v == 5);
          pe.waitUntil(flag, 0, v -> v == 1);
          sawAt[0] = pe.now();
        }
      });
      assertThat(sawAt[0]).as("fetching %s", fetching).isPositive();
      assertThat(sys.node(0).nic().statistics().amoCacheMisses()).isEqualTo(1);
    }
  }
}
