package io.github.ariesmodel.system.shmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.AmoKind;
import io.github.ariesmodel.core.AmoOperation;
import io.github.ariesmodel.network.Topologies;
import io.github.ariesmodel.system.AriesSystem;
import org.junit.jupiter.api.Test;

class ShmemJobEdgeTest {

  private static ShmemJob job(int... nodes) {
    AriesSystem sys = AriesSystem.builder().topology(Topologies.ariesSmall(), "small").build();
    return ShmemJob.builder(sys).nodes(nodes).build();
  }

  @Test
  void zeroLengthPutsCompleteAndQuietReturns() {
    ShmemJob job = job(0, 9);
    Symmetric buf = job.allocate(64);
    long[] done = {-1};
    job.run(pe -> {
      if (pe.myPe() == 0) {
        pe.put(buf, 0, new byte[0], 1);
        pe.putmem(buf, 0, buf, 0, 0, 1);
        pe.quiet();
        done[0] = pe.now();
      }
    });
    assertThat(done[0]).isPositive();
    assertThat(job.faults()).isZero();
  }

  @Test
  void thirtyTwoBitAtomicsAndCompareSwapBehaveAsJava() {
    ShmemJob job = job(0, 20);
    Symmetric words = job.allocate(64);
    long[] got = new long[4];
    job.run(pe -> {
      if (pe.myPe() == 0) {
        got[0] = pe.atomicCompareSwap(words, 0, 0, 42, 1);   // succeeds: old 0
        got[1] = pe.atomicCompareSwap(words, 0, 0, 99, 1);   // fails: old 42
        pe.atomic(AmoOperation.of(AmoKind.IADD, false, 32), words, 8, 0xFFFF_FFFFL, 0, 1);
        pe.atomic(AmoOperation.of(AmoKind.IADD, false, 32), words, 8, 2, 0, 1); // 32-bit wrap: -1 + 2 = 1
        pe.quiet();
        got[2] = pe.atomic(AmoOperation.of(AmoKind.IADD, true, 32), words, 8, 0, 0, 1);
      }
      pe.barrierAll();
      if (pe.myPe() == 1) {
        got[3] = pe.localLong(words, 0);
      }
    });
    assertThat(got[0]).isZero();
    assertThat(got[1]).isEqualTo(42);
    assertThat(got[2]).isEqualTo(1);
    assertThat(got[3]).isEqualTo(42);
  }

  @Test
  void outOfRangeAccessesAreCallerMistakesNamingTheRange() {
    ShmemJob job = job(0, 1);
    Symmetric buf = job.allocate(16);
    assertThatThrownBy(() -> job.run(pe -> pe.putmem(buf, 8, buf, 0, 16, 1 - pe.myPe())))
        .hasRootCauseMessage("dest: offset + length must lie within the symmetric object's 16 bytes but were 8 + 16");
    ShmemJob job2 = job(0, 1);
    Symmetric b2 = job2.allocate(16);
    assertThatThrownBy(() -> job2.run(pe -> pe.putLong(b2, 0, 1, 5)))
        .hasRootCauseMessage("pe must be in [0, 1] but was 5");
  }
}
