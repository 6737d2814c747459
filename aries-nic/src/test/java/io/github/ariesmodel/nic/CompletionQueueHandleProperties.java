package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A NIC's completion-queue handles under creates and destroys against a plain model: a set of live handles, a create
 * taking the lowest handle not in it and refused when it holds 2,048, a destroy of a handle not in it refused. Some
 * runs mostly create, so that they reach the limit and free and retake handles at it.
 */
class CompletionQueueHandleProperties {

  @Test
  void handlesAreTheLowestFreeAndTheLimitCountsOnlyLiveQueues() {
    qt().withExamples(20).forAll(longs().all(), integers().between(50, 95)).checkAssert((seed, createPercent) -> {
      Random random = new Random(seed);
      Nic nic = new Cluster(1, NicConfig.defaults()).nics[0];
      TreeSet<Integer> live = new TreeSet<>();
      int steps = 200 + random.nextInt(2_800);
      for (int step = 0; step < steps; step++) {
        if (random.nextInt(100) < createPercent) {
          if (live.size() > MemoryDomainDescriptor.MAX_CQ) {
            assertThat(catchThrowable(() -> nic.createCompletionQueue(1))).isInstanceOf(IllegalStateException.class);
          } else {
            int expected = 0;
            while (live.contains(expected)) {
              expected++;
            }
            assertThat(nic.createCompletionQueue(1).handle()).isEqualTo(expected);
            live.add(expected);
          }
        } else {
          // mostly handles that exist, sometimes any in or just outside the 11-bit range
          int h = !live.isEmpty() && random.nextInt(4) > 0
              ? live.stream().skip(random.nextInt(live.size())).findFirst().orElseThrow()
              : random.nextInt(MemoryDomainDescriptor.MAX_CQ + 4) - 2;
          if (live.contains(h)) {
            nic.destroyCompletionQueue(h);
            live.remove(h);
          } else {
            assertThat(catchThrowable(() -> nic.destroyCompletionQueue(h)))
                .isInstanceOf(IllegalArgumentException.class);
          }
        }
        assertThat(nic.completionQueueCount()).isEqualTo(live.size());
      }
      for (int h = -1; h <= MemoryDomainDescriptor.MAX_CQ + 1; h++) {
        CompletionQueue q = nic.completionQueue(h);
        assertThat(q != null).as("handle %s", h).isEqualTo(live.contains(h));
        if (q != null) {
          assertThat(q.handle()).isEqualTo(h);
        }
      }
    });
  }
}
