package io.github.ariesmodel.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.ariesmodel.network.spi.Topology;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Every query method of the topologies that takes a router, port, node, group or link class refuses one outside its
 * range, naming the parameter, the range and the value (a fuzz run of the library's API: out-of-range values gave
 * ArrayIndexOutOfBoundsException or, worse, a neighbour's answer).
 */
class TopologyArgumentsTest {

  /**
   * The canonical test system: 9 groups of 4 routers (36), 2 nodes each (72), 5 ports (3 local, 2 global). Each
   * call's answer before the checks is noted: most were another router's or port's, silently.
   */
  @Test
  void dragonflyQueriesRefuseArgumentsOutOfRange() {
    Dragonfly t = Topologies.canonicalSmall();
    assertThat(t.routerCount()).isEqualTo(36);
    assertThat(t.portCount()).isEqualTo(5);
    assertRefusals(t);
    // answers just inside the ranges are unchanged
    assertThat(t.routerOfNode(71)).isEqualTo(35);
    assertThat(t.groupOfRouter(35)).isEqualTo(8);
    assertThat(t.routerInGroup(8, 3)).isEqualTo(35);
    assertThat(t.linkClass(35, 4)).isEqualTo(2);
    assertThat(t.linkClassName(2)).isEqualTo("global");
    assertThat(t.minimalHops(0, 35)).isBetween(1, 3);
  }

  @Test
  void aDragonflyWithoutNetworkPortsRefusesEveryPort() {
    Dragonfly t = Dragonfly.canonical(4, 1, 0);
    assertThatThrownBy(() -> t.neighborRouter(0, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("port must be in [0, -1] (this topology has none) but was 0");
  }

  /** Edison as cabled: 15 groups of 96 routers (1,440), 4 nodes each (5,760), 40 ports (the Aries tiles). */
  @Test
  void cabledDragonflyQueriesRefuseArgumentsOutOfRange() {
    CabledDragonfly t = CabledDragonfly.edison();
    assertThat(t.routerCount()).isEqualTo(1440);
    refused("node must be in [0, 5759] but was 5760", () -> t.routerOfNode(5760));
    refused("node must be in [0, 5759] but was -1", () -> t.routerOfNode(-1));
    refused("router must be in [0, 1439] but was 1440", () -> t.groupOfRouter(1440));
    refused("group must be in [0, 14] but was 15", () -> t.routerInGroup(15, 0));
    refused("index must be in [0, 95] but was 96", () -> t.routerInGroup(0, 96));
    refused("router must be in [0, 1439] but was -1", () -> t.neighborRouter(-1, 0));
    refused("port must be in [0, 39] but was 40", () -> t.neighborPort(0, 40));
    refused("port must be in [0, 39] but was -2147483648", () -> t.linkClass(0, Integer.MIN_VALUE));
    refused("linkClass must be in [0, 2] but was 3", () -> t.linkClassName(3));
    refused("linkClass must be in [0, 2] but was -1", () -> t.linkBandwidth(-1));
    refused("linkClass must be in [0, 2] but was 2147483647", () -> t.linkLatencyPs(Integer.MAX_VALUE));
    refused("target must be in [0, 1439] but was 1440", () -> t.minimalPorts(0, 1440, 0, new int[40]));
    refused("router must be in [0, 1439] but was 1440", () -> t.minimalHops(1440, 0));
    refused("peerGroup must be in [0, 14] but was -1", () -> t.linksBetween(0, -1));
    refused("group must be in [0, 14] but was 15", () -> t.linksBetween(15, 0));
    assertThat(t.routerInGroup(14, 95)).isEqualTo(1439);
    assertThat(t.groupOfRouter(1439)).isEqualTo(14);
  }

  /** A user's topology that answers only the abstract methods gets the interface's checked defaults. */
  @Test
  void theInterfacesDefaultMethodsRefuseArgumentsOutOfRange() {
    Topology t = new DelegatingTopology(Topologies.canonicalSmall());
    refused("node must be in [0, 71] but was 72", () -> t.routerOfNode(72));
    refused("router must be in [0, 35] but was -1", () -> t.groupOfRouter(-1));
    refused("group must be in [0, 8] but was 9", () -> t.routerInGroup(9, 0));
    refused("index must be in [0, 3] but was 4", () -> t.routerInGroup(0, 4));
    assertThat(t.routerInGroup(8, 3)).isEqualTo(35);
    assertThat(t.routerOfNode(71)).isEqualTo(35);
  }

  private static void assertRefusals(Dragonfly t) {
    refused("node must be in [0, 71] but was 72", () -> t.routerOfNode(72)); // was router 36 (none)
    refused("node must be in [0, 71] but was -1", () -> t.routerOfNode(-1));
    refused("router must be in [0, 35] but was 36", () -> t.groupOfRouter(36)); // was group 9 (none)
    refused("group must be in [0, 8] but was 9", () -> t.routerInGroup(9, 0));
    refused("index must be in [0, 3] but was 4", () -> t.routerInGroup(0, 4)); // was router 4, of group 1
    refused("port must be in [0, 4] but was 5", () -> t.neighborRouter(0, 5)); // was router 1's port 0
    refused("router must be in [0, 35] but was 36", () -> t.neighborPort(36, 0));
    refused("router must be in [0, 35] but was -1", () -> t.linkClass(-1, 0)); // was 0, any router
    refused("port must be in [0, 4] but was 5", () -> t.linkClass(0, 5)); // was 2 (global)
    refused("linkClass must be in [0, 2] but was 3", () -> t.linkClassName(3)); // was "global"
    refused("linkClass must be in [0, 2] but was -1", () -> t.linkBandwidth(-1));
    refused("linkClass must be in [0, 2] but was 3", () -> t.linkLatencyPs(3));
    refused("target must be in [0, 35] but was 36", () -> t.minimalPorts(0, 36, 0, new int[8]));
    refused("router must be in [0, 35] but was -1", () -> t.minimalPorts(-1, 3, 0, new int[8]));
    refused("router must be in [0, 35] but was -2147483648", () -> t.minimalHops(Integer.MIN_VALUE, 0));
    refused("target must be in [0, 35] but was 2147483647", () -> t.minimalHops(0, Integer.MAX_VALUE));
  }

  private static void refused(String message, ThrowingCallable call) {
    assertThatThrownBy(call).as(message).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }
}
