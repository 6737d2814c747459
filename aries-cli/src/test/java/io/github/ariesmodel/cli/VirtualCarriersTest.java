package io.github.ariesmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VirtualCarriersTest {

  @Test
  void asksForOneCarrierALaneUnlessTheUserChoseANumber() {
    String old = System.getProperty(VirtualCarriers.PARALLELISM);
    try {
      System.clearProperty(VirtualCarriers.PARALLELISM);
      VirtualCarriers.forLanes(0); // the single loop: one lane
      assertThat(System.getProperty(VirtualCarriers.PARALLELISM)).isEqualTo("1");
      VirtualCarriers.forLanes(3); // already chosen (by the first command of this JVM): kept
      assertThat(System.getProperty(VirtualCarriers.PARALLELISM)).isEqualTo("1");
      System.clearProperty(VirtualCarriers.PARALLELISM);
      VirtualCarriers.forLanes(3);
      assertThat(System.getProperty(VirtualCarriers.PARALLELISM)).isEqualTo("3");
      // more lanes than the JDK's scheduler takes (32,767): capped, not an ExceptionInInitializerError later
      System.clearProperty(VirtualCarriers.PARALLELISM);
      VirtualCarriers.forLanes(32_768);
      assertThat(System.getProperty(VirtualCarriers.PARALLELISM)).isEqualTo("32767");
    } finally {
      if (old == null) {
        System.clearProperty(VirtualCarriers.PARALLELISM);
      } else {
        System.setProperty(VirtualCarriers.PARALLELISM, old);
      }
    }
  }
}
