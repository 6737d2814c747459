package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.PageSize;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.AriesSystem;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ShmemJobTest {

  private static AriesSystem smallSystem(long seed) {
    return AriesSystem.builder().topology(Topologies.ariesSmall(), "aries-small").seed(seed).build();
  }

  /**
   * A PE's compute runs under its node's noise: with detours of 2 us at every 10 us on every node (aligned), 50 us of
   * work from the start (inside the first detour) begin at 2 us and fill six free parts of 8 us and 2 us of the
   * seventh: they end at 64 us, where a quiet node ends them at 50; the put after them still arrives.
   */
  @Test
  void aPesComputeIsStretchedOverItsNodesDetours() {
    long us = 1_000_000;
    long[] ends = new long[2];
    for (int i = 0; i < 2; i++) {
      AriesSystem.Builder sb = AriesSystem.builder().system("default").seed(1);
      if (i == 1) {
        sb.osNoise(io.github.ariesmodel.system.process.OsNoise.parse("period=10us,detour=2us,phase=aligned"));
      }
      ShmemJob job = ShmemJob.builder(sb.build()).nodes(0, 1).build();
      Symmetric word = job.allocate(8);
      long[] seen = new long[2];
      int k = i;
      job.run(pe -> {
        pe.compute(50 * us);
        if (pe.myPe() == 0) {
          ends[k] = pe.now();
        }
        pe.putLong(word, 0, 7 + pe.myPe(), 1 - pe.myPe());
        pe.quiet();
        pe.barrierAll();
        seen[pe.myPe()] = pe.localLong(word, 0);
      });
      assertThat(seen).containsExactly(8, 7);
    }
    assertThat(ends).containsExactly(50 * us, 64 * us);
    assertThatThrownBy(() -> AriesSystem.builder().osNoise(null))
        .hasMessage("osNoise must not be null (OsNoise.none() for no noise)");
  }

  @Test
  void concurrentFetchAddsFromEveryPeSumExactlyAndReturnDistinctOldValues() {
    AriesSystem sys = smallSystem(3);
    int[] nodes = {0, 5, 9, 17, 30, 41, 66, 90};
    ShmemJob job = ShmemJob.builder(sys).nodes(nodes).build();
    Symmetric counter = job.allocate(8);
    List<Long> olds = new ArrayList<>();
    long[] finalValue = {-1};
    job.run(pe -> {
      for (int k = 0; k < 10; k++) {
        olds.add(pe.atomicFetchAdd(counter, 0, 1, 0));
      }
      pe.barrierAll();
      if (pe.myPe() == 0) {
        finalValue[0] = pe.localLong(counter, 0);
      }
    });
    assertThat(finalValue[0]).isEqualTo(80);
    assertThat(olds).hasSize(80).doesNotHaveDuplicates().allMatch(v -> v >= 0 && v < 80);
    assertThat(job.faults()).isZero();
  }

  @Test
  void putsAndGetsOfRandomSizesLandByteExactly() {
    AriesSystem sys = smallSystem(5);
    ShmemJob job = ShmemJob.builder(sys).nodes(2, 50).pageSize(PageSize.SIZE_4K).build();
    Symmetric buf = job.allocate(64 * 1024);
    SplittableRandom rnd = new SplittableRandom(11);
    byte[][] sent = new byte[20][];
    long[] offsets = new long[20];
    for (int i = 0; i < sent.length; i++) {
      sent[i] = new byte[1 + rnd.nextInt(3000)];
      rnd.nextBytes(sent[i]);
      offsets[i] = i * 3000L + rnd.nextInt(7);
    }
    byte[][] gotBack = new byte[20][];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        for (int i = 0; i < sent.length; i++) {
          pe.put(buf, offsets[i], sent[i], 1);
        }
        pe.quiet();
        for (int i = 0; i < sent.length; i++) {
          gotBack[i] = pe.get(buf, offsets[i], sent[i].length, 1);
        }
      }
    });
    for (int i = 0; i < sent.length; i++) {
      assertThat(gotBack[i]).as("transfer %s", i).isEqualTo(sent[i]);
    }
  }

  @Test
  void barrierHoldsEveryPeUntilTheLastArrives() {
    AriesSystem sys = smallSystem(7);
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 1, 2, 3, 4).build();
    long[] leftAt = new long[5];
    job.run(pe -> {
      pe.compute(pe.myPe() == 3 ? 50_000_000L : 1_000L); // PE 3 arrives 50 µs late
      pe.barrierAll();
      leftAt[pe.myPe()] = pe.now();
    });
    for (long t : leftAt) {
      assertThat(t).isGreaterThan(50_000_000L);
    }
  }

  @Test
  void sameSeedSameTimeline() {
    assertThat(pingPongTimes(9)).isEqualTo(pingPongTimes(9));
  }

  private static List<Long> pingPongTimes(long seed) {
    AriesSystem sys = smallSystem(seed);
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 60).build();
    Symmetric flag = job.allocate(8);
    List<Long> times = new ArrayList<>();
    job.run(pe -> {
      for (int i = 1; i <= 5; i++) {
        if (pe.myPe() == 0) {
          pe.putLong(flag, 0, i, 1);
          pe.waitUntil(flag, 0, v -> v >= 0);
          long target = i;
          pe.waitUntil(flag, 0, v -> v == target);
          times.add(pe.now());
        } else {
          long target = i;
          pe.waitUntil(flag, 0, v -> v == target);
          pe.putLong(flag, 0, i, 0);
        }
      }
    });
    return times;
  }

  @Test
  void aProgramThatWaitsForeverIsReportedAsDeadlock() {
    AriesSystem sys = smallSystem(1);
    ShmemJob job = ShmemJob.builder(sys).nodes(0, 1).build();
    Symmetric flag = job.allocate(8);
    assertThatThrownBy(() -> job.run(pe -> pe.waitUntil(flag, 0, v -> v == 42)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("deadlocked: 2 PEs");
  }

  @Test
  void badArgumentsNameTheParameter() {
    AriesSystem sys = smallSystem(1);
    assertThatThrownBy(() -> ShmemJob.builder(sys).nodes(0, 0))
        .hasMessageContaining("nodes must be distinct but 0 appears twice");
    assertThatThrownBy(() -> ShmemJob.builder(sys).nodes(0, 100000))
        .hasMessageContaining("node must be in [0, 95] but was 100000");
  }
}
