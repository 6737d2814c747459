package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import org.junit.jupiter.api.Test;

/** The CPU side of FMA: a per-post cost, PUT data stored through the FMA window, paced FMA GET requests. */
class FmaFrontEndTest {

  private static final long POST_PS = 40_000;

  private static StageRig rig(double storeRate, long getRequestPs) {
    return new StageRig(NicConfig.defaults().withTiming(NicTiming.defaults().withFma(POST_PS, storeRate,
        getRequestPs)));
  }

  @Test
  void everyPostCostsTheCpuItsPostTimeOneAfterAnother() {
    StageRig rig = rig(Double.POSITIVE_INFINITY, 0);
    MemoryDomainDescriptor local = rig.register(1 << 20, -1);
    for (int i = 0; i < 5; i++) {
      rig.table.accept(Post.put(i, local.mdh(), 0, NetworkAddress.of(1, 5, 64L * i), 8));
    }
    assertThat(rig.table.cpuFreeAt()).isEqualTo(5 * POST_PS);
    rig.loop.run();
    assertThat(rig.fabric.times).hasSize(5);
    // One post per 40 ns of CPU time: the requests leave the NIC 40 ns apart, not one slot (6.25 ns) apart.
    for (int i = 1; i < 5; i++) {
      assertThat(rig.fabric.times.get(i) - rig.fabric.times.get(i - 1)).isEqualTo(POST_PS);
    }
  }

  @Test
  void fmaPutRequestsLeaveAsTheCpuStoresThem() {
    double rate = 3.2e9; // 64 B per 20 ns
    StageRig rig = rig(rate, 0);
    MemoryDomainDescriptor local = rig.register(1 << 20, -1);
    rig.table.accept(Post.put(1, local.mdh(), 0, NetworkAddress.of(1, 5, 0), 64 * 10).withEngine(Post.Engine.FMA));
    assertThat(rig.table.cpuFreeAt()).isEqualTo(POST_PS + 10 * 20_000);
    rig.loop.run();
    assertThat(rig.fabric.times).hasSize(10);
    for (int i = 1; i < 10; i++) {
      assertThat(rig.fabric.times.get(i) - rig.fabric.times.get(i - 1)).isEqualTo(20_000);
    }
    // The CPU, not the NIC's slot, sets the rate: the transfer is slower than the 10.2 GB/s peak.
    long span = rig.fabric.times.get(9) - rig.fabric.times.get(0);
    assertThat(span).isGreaterThan(9 * rig.slotPs());
  }

  @Test
  void fmaGetRequestsArePacedByTheCpuAndBteGetsAreNot() {
    StageRig fma = rig(Double.POSITIVE_INFINITY, 30_000);
    MemoryDomainDescriptor local = fma.register(1 << 20, -1);
    fma.table.accept(Post.get(1, local.mdh(), 0, NetworkAddress.of(1, 5, 0), 64 * 4).withEngine(Post.Engine.FMA));
    fma.loop.run();
    assertThat(fma.fabric.times).hasSize(4);
    assertThat(fma.fabric.times.get(3) - fma.fabric.times.get(0)).isEqualTo(3 * 30_000);

    StageRig bte = rig(Double.POSITIVE_INFINITY, 30_000);
    MemoryDomainDescriptor l2 = bte.register(1 << 20, -1);
    bte.table.accept(Post.get(1, l2.mdh(), 0, NetworkAddress.of(1, 5, 0), 64 * 4).withEngine(Post.Engine.BTE));
    bte.loop.run();
    assertThat(bte.fabric.times).hasSize(4);
    assertThat(bte.fabric.times.get(3) - bte.fabric.times.get(0)).isEqualTo(3 * bte.slotPs());
  }
}
