package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.core.sim.DeterministicEventLoop;
import org.junit.jupiter.api.Test;

/** A fabric whose per-(port, VC) arrays would not fit a Java array is refused at build, in one line. */
class FabricSizeTest {

  /** 241 groups of 64 × 16 routers with 331 ports each: 2 × 246,784 × 331 × 16 credit slots overflowed an int. */
  @Test
  void aTopologyTooLargeForTheCreditArrayIsRefusedNamingTheProduct() {
    Dragonfly huge = Dragonfly.ariesBuilder(241).rows(64).columns(16).rank2Links(4).globalPorts(64).nodesPerRouter(1)
        .build();
    assertThatThrownBy(() -> RouterFabric.builder(huge, new DeterministicEventLoop()).vcs(16).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("topology routers × ports × vcs × 2 (credit slots) must be at most 2147483639 but was 246784 × 331"
            + " × 16 × 2 = 2613936128; use fewer VCs or a smaller topology");
  }
}
