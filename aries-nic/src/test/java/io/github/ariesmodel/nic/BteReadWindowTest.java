package io.github.ariesmodel.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.ariesmodel.core.MemoryDomainDescriptor;
import io.github.ariesmodel.core.NetworkAddress;
import org.junit.jupiter.api.Test;

/** The BTE keeps a bounded number of host reads in flight per channel and keeps them in flight under back-pressure. */
class BteReadWindowTest {

  private static StageRig rig(int reads) {
    return new StageRig(NicConfig.defaults().withTiming(NicTiming.defaults().withBteReadsInFlight(reads)));
  }

  @Test
  void aChannelNeverHasMoreReadsInFlightThanItsWindow() {
    StageRig rig = rig(16);
    MemoryDomainDescriptor local = rig.register(1 << 20, -1);
    rig.fabric.refuseNext = 1; // the first request is refused: everything behind it is held until ready()
    rig.table.accept(Post.put(1, local.mdh(), 0, NetworkAddress.of(1, 5, 0), 64 * 200).withEngine(Post.Engine.BTE));
    rig.loop.run();
    // Issue stops at the window, not at the injector's hold limit (8): the reads stay in flight.
    assertThat(rig.issue.readsInFlight(0)).isEqualTo(16);
    assertThat(rig.injector.held()).isEqualTo(16);
    assertThat(rig.table.find(0).issued).isEqualTo(16);
    rig.injector.ready(rig.loop.now());
    rig.loop.run();
    assertThat(rig.fabric.packets).hasSize(200);
    assertThat(rig.issue.maxReadsInFlight()).isEqualTo(16);
    assertThat(rig.issue.readsInFlight(0)).isZero();
  }

  @Test
  void enoughReadsInFlightCoverTheReadRoundTripAndOneDoesNot() {
    long wide = spanOf(rig(NicTiming.DEFAULT_BTE_READS_IN_FLIGHT));
    long one = spanOf(rig(1));
    // 100 lines: with the default window the slot (6.25 ns per request) sets the pace; with one read in flight each
    // request waits for its own read round trip (500 ns), which is Open MPI's serialized-BTE ~3 GB/s case and worse.
    assertThat(wide).isEqualTo(99 * rig(1).slotPs());
    assertThat(one).isGreaterThan(99 * NicTiming.defaults().hostReadLatencyPs());
  }

  private static long spanOf(StageRig rig) {
    MemoryDomainDescriptor local = rig.register(1 << 20, -1);
    rig.table.accept(Post.put(1, local.mdh(), 0, NetworkAddress.of(1, 5, 0), 64 * 100).withEngine(Post.Engine.BTE));
    rig.loop.run();
    assertThat(rig.fabric.times).hasSize(100);
    return rig.fabric.times.get(99) - rig.fabric.times.get(0);
  }
}
